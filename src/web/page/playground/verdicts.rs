//! The verdict pane: one card per document, batch elements as cards nested in their batch's card.
//! Each violation is a row whose button selects the violation's span in the editor.
//!
//! Cards are keyed by the verdict's key (`<For>`): a card is built once and stays while its
//! verdict is unchanged.

use crate::web::kit::prelude::*;
use wasm_bindgen::JsCast;

use crate::teach::route::Route;
use crate::web::kit::analysis::{Finding, Verdict};
use crate::web::page::state::AppState;

/// The list of verdict cards (`data-testid="verdicts"`).
#[component]
pub fn Verdicts() -> impl IntoView {
    let state = crate::web::page::state::use_app();
    let analysis = state.analysis;
    view! {
        <section class="verdicts" data-testid="verdicts" aria-label="Verdicts">
            <For
                each=move || {
                    // While a share link is read or a worker checks a large text, the cards on
                    // screen would be an older text's: none is shown.
                    if state.opening_link.get() || analysis.with(|a| a.pending) { Vec::new() } else { analysis.with(|a| a.verdicts.clone()) }
                }
                key=|k| k.key
                let:keyed
            >
                {card(state, &keyed.verdict, keyed.key, Vec::new())}
            </For>
        </section>
    }
}

/// Past MAX_CARDS documents: how many more there are and what is wrong in them
/// (`data-testid="verdicts-more"`, hidden while every document has a card).
#[component]
pub fn VerdictsMore() -> impl IntoView {
    let analysis = crate::web::page::state::use_app().analysis;
    // Read where it shows, no memo type of its own (docs/size-rules.md, 4).
    let more = move || {
        analysis.with(|a| {
            let t = a.totals;
            let hidden = t.documents.saturating_sub(a.verdicts.len());
            (hidden > 0 && !a.pending).then(|| {
                let shown = a.verdicts.len();
                format!(
                    "The first {shown} of {} documents have a card. In all of them: {} with errors ({} errors, {} warnings). `jrpc check` lists every one.",
                    t.documents, t.with_errors, t.errors, t.warnings
                )
            })
        })
    };
    view! {
        <p class="verdicts-more" data-testid="verdicts-more" hidden=move || more().is_none()>
            {more}
        </p>
    }
}

/// Where a finding is: `key/element.element/index` (the path empty at the top level).
fn finding_at(key: u64, path: &[usize], index: usize) -> String {
    let path: Vec<String> = path.iter().map(usize::to_string).collect();
    format!("{key}/{}/{index}", path.join("."))
}

/// Selects the span of a finding in the editor. The span moves as the user types: it is read
/// from the current analysis, by the card's key and the finding's place.
fn select_finding(state: AppState, key: u64, path: &[usize], index: usize) {
    let span = state.analysis.with_untracked(|a| {
        let keyed = a.verdicts.iter().find(|k| k.key == key)?;
        keyed.verdict.finding_at(path, index).map(|f| f.span)
    });
    if let Some(span) = span {
        state.select.set(Some(span));
    }
}

/// One document, or one batch element (then nested in its batch's card).
fn card(state: AppState, verdict: &Verdict, key: u64, path: Vec<usize>) -> AnyView {
    let kind = verdict.kind.as_str();
    let status = if verdict.has_errors() {
        "has-errors"
    } else if verdict.is_clean() {
        "clean"
    } else {
        "has-warnings"
    };
    let about = if verdict.is_clean() {
        format!("Valid {}", verdict.describe())
    } else {
        verdict.describe()
    };
    let items = (!verdict.items.is_empty()).then(|| {
        let items = verdict
            .items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let mut path = path.clone();
                path.push(i);
                view! {
                    <li class="batch-item" data-testid="batch-item" data-kind=item.kind.as_str()>
                        {card(state, item, key, path)}
                    </li>
                }
            })
            .collect_view();
        view! { <ol class="batch-items" aria-label="Batch elements">{items}</ol> }
    });
    view! {
        <article class=format!("verdict kind-{kind} {status}") data-testid="verdict" data-kind=kind>
            {summary(verdict)}
            <p class="about" data-testid="about">{about}</p>
            {findings(state, &verdict.findings, key, path)}
            {items}
        </article>
    }
    .into_any()
}

/// Kind badge, method, id and position of a document.
fn summary(verdict: &Verdict) -> impl IntoView {
    let method = verdict
        .method
        .clone()
        .map(|m| view! { <span class="method" data-testid="method">{m}</span> });
    let id = verdict
        .id
        .clone()
        .map(|id| view! { <span class="id" data-testid="id">"id "{id}</span> });
    view! {
        <header class="summary">
            <span class="kind badge" data-testid="badge">{verdict.badge()}</span>
            {method}
            {id}
            <span class="at">{format!("{}:{}", verdict.at.line, verdict.at.column)}</span>
        </header>
    }
}

/// The broken rules of one document (not of its batch elements). A click on a row (not on its
/// links) selects the violation's span in the editor; the spec link opens the section in a new tab.
fn findings(
    state: AppState,
    findings: &[Finding],
    key: u64,
    path: Vec<usize>,
) -> Option<impl IntoView> {
    if findings.is_empty() {
        return None;
    }
    let rows = findings
        .iter()
        .enumerate()
        .map(|(index, f)| {
            let severity = f.severity.as_str();
            let pointer = if f.path.is_empty() { "(root)".to_string() } else { f.path.clone() };
            let section = f.section;
            let path = path.clone();
            let at = finding_at(key, &path, index);
            let on_click = move |ev: leptos::ev::MouseEvent| {
                let on_link = ev
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .and_then(|el| el.closest("a").ok().flatten())
                    .is_some();
                if !on_link {
                    select_finding(state, key, &path, index);
                }
            };
            view! {
                <li
                    class=format!("violation {severity}")
                    data-testid="violation"
                    data-rule=f.rule
                    data-severity=severity
                    data-path=f.path.clone()
                    data-finding=at
                    on:click=on_click
                >
                    <button type="button" class="goto" title="Select in the editor">
                        <span class="at">{format!("{}:{}", f.at.line, f.at.column)}</span>
                        " "
                        <span class="severity">{severity}</span>
                        " "
                        <code class="rule">{f.rule}</code>
                        " "
                        <span class="message">{f.message.clone()}</span>
                    </button>
                    <code class="path" title="JSON pointer">{pointer}</code>
                    <a class="spec" href=section.url target="_blank" rel="noopener noreferrer" title=section.title>
                        {section.name}
                    </a>
                    // The rule reference lists the catalogue's rules (not the MCP schema rules
                    // the API worker adds: their spec section is linked above).
                    {crate::rpc::catalogue::find(f.rule).is_some().then(|| view! {
                        <a
                            class="ref"
                            data-testid="violation-ref"
                            href=Route::Reference(Some(f.rule.to_string())).fragment()
                            aria-label=format!("{} in the reference", f.rule)
                        >
                            "?"
                        </a>
                    })}
                </li>
            }
        })
        .collect_view();
    Some(view! { <ul class="violations" aria-label="Violations">{rows}</ul> })
}
