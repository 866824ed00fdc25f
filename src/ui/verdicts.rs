//! The verdict pane: one card per document, batch elements as cards nested in their batch's card.
//! Each violation is a row whose button selects the violation's span in the editor.

use std::sync::Arc;

use leptos::prelude::*;

use super::analysis::{Finding, Keyed, Verdict};

/// The list of verdict cards.
#[component]
pub fn Verdicts() -> impl IntoView {
    let analysis = super::use_app().analysis;
    view! {
        <section class="verdicts" data-testid="verdicts" aria-label="Verdicts">
            <For
                each=move || analysis.with(|a| a.verdicts.clone())
                key=|keyed: &Keyed| keyed.key
                children=|keyed: Keyed| {
                    let key = keyed.key;
                    view! { <Card verdict=keyed.verdict.as_ref().clone() key path=Vec::new() /> }
                }
            />
        </section>
    }
}

/// One document, or one batch element (then nested in its batch's card).
#[component]
fn Card(
    /// What the engine said about the document or element.
    verdict: Verdict,
    /// The key of the top-level verdict this card belongs to.
    key: u64,
    /// Batch element indices from the top-level verdict down to this card (empty at the top).
    path: Vec<usize>,
) -> impl IntoView {
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
    let items = verdict
        .items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let mut path = path.clone();
            path.push(i);
            let kind = item.kind.as_str();
            view! {
                <li class="batch-item" data-testid="batch-item" data-kind=kind>
                    {view! { <Card verdict=item.clone() key path /> }.into_any()}
                </li>
            }
        })
        .collect_view();
    let has_items = !verdict.items.is_empty();
    view! {
        <article class=format!("verdict kind-{kind} {status}") data-testid="verdict" data-kind=kind>
            <Summary verdict=&verdict />
            <p class="about" data-testid="about">{about}</p>
            <Findings findings=verdict.findings.clone() key path=path.clone() />
            {has_items.then(|| view! { <ol class="batch-items" aria-label="Batch elements">{items}</ol> })}
        </article>
    }
}

/// Kind badge, method, id and position of a document.
#[component]
fn Summary<'a>(verdict: &'a Verdict) -> impl IntoView {
    let method = verdict.method.clone().map(|m| view! { <span class="method" data-testid="method">{m}</span> });
    let id = verdict.id.clone().map(|id| view! { <span class="id" data-testid="id">"id " {id}</span> });
    view! {
        <header class="summary">
            <span class="kind badge" data-testid="badge">{verdict.badge()}</span>
            {method}
            {id}
            <span class="at">{format!("{}:{}", verdict.at.line, verdict.at.column)}</span>
        </header>
    }
}

/// The broken rules of one document (not of its batch elements). Each row's button selects the
/// violation's span in the editor; the spec link opens the section in a new tab.
#[component]
fn Findings(findings: Vec<Finding>, key: u64, path: Vec<usize>) -> impl IntoView {
    if findings.is_empty() {
        return None;
    }
    let state = super::use_app();
    let path = Arc::new(path);
    let rows = findings
        .into_iter()
        .enumerate()
        .map(|(index, f)| {
            let severity = f.severity.as_str();
            let path = path.clone();
            // The span moves as the user types; read the current one when clicked.
            let select = move |ev: leptos::ev::MouseEvent| {
                let on_link = ev
                    .target()
                    .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
                    .and_then(|el| el.closest("a").ok().flatten())
                    .is_some();
                if on_link {
                    return;
                }
                let span = state.analysis.with_untracked(|a| {
                    let keyed = a.verdicts.iter().find(|k| k.key == key)?;
                    keyed.verdict.finding_at(&path, index).map(|f| f.span)
                });
                if let Some(span) = span {
                    state.select.set(Some(span));
                }
            };
            let section = f.section;
            let pointer = if f.path.is_empty() { "(root)".to_string() } else { f.path.clone() };
            view! {
                <li
                    class=format!("violation {severity}")
                    data-testid="violation"
                    data-rule=f.rule
                    data-severity=severity
                    data-path=f.path.clone()
                    on:click=select
                >
                    <button type="button" class="goto" title="Select in the editor">
                        <span class="at">{format!("{}:{}", f.at.line, f.at.column)}</span>
                        " "
                        <span class="severity">{severity}</span>
                        " "
                        <code class="rule">{f.rule}</code>
                        " "
                        <span class="message">{f.message}</span>
                    </button>
                    <code class="path" title="JSON pointer">{pointer}</code>
                    <a class="spec" href=section.url target="_blank" rel="noopener noreferrer" title=section.title>
                        {section.name}
                    </a>
                    <a class="ref" data-testid="violation-ref" href=format!("#/reference/{}", f.rule) aria-label=format!("{} in the reference", f.rule)>"?"</a>
                </li>
            }
        })
        .collect_view();
    Some(view! { <ul class="violations" aria-label="Violations">{rows}</ul> })
}
