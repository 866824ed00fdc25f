//! The rule reference (`data-testid="reference"`), generated from the engine's catalogue: one
//! `rule-entry` (with `data-rule`) per rule, with its severity, spec section and link, our
//! explanation, and a broken and a fixed example, each with a "try it" that loads it into the
//! playground with the rule's profile.

use crate::rpc::catalogue;
use crate::teach::quiz::profile_of;
use crate::teach::text::{RuleText, Teaching};
use crate::web::kit::prelude::*;
use crate::web::views::page_handle::Page;
use crate::wire::api::Source;

/// The whole reference; `focus` names the rule to scroll to, highlight and focus; `text` is the
/// rules' explanations and examples (fetched on the first open: crate::web::kit::teaching).
#[component]
pub(crate) fn Reference(
    page: Page,
    focus: Option<String>,
    text: &'static Teaching,
) -> impl IntoView {
    // The filter: words that an entry's id, requirement or section must all contain.
    let query = RwSignal::new(String::new());
    let shows = move |rule: &'static catalogue::Rule| {
        query.with(|q| {
            let haystack = format!(
                "{} {} {} {}",
                rule.id,
                text.summary(rule.id),
                rule.section.name,
                rule.section.title
            )
            .to_ascii_lowercase();
            q.to_ascii_lowercase()
                .split_whitespace()
                .all(|w| haystack.contains(w))
        })
    };
    let shown = move || catalogue::all().filter(|r| shows(r)).count();
    let entries = catalogue::all()
        .map(|rule| {
            entry(
                page,
                rule,
                text.rule(rule.id),
                focus.as_deref() == Some(rule.id),
                "rule-entry",
                shows,
            )
        })
        .collect_view();
    // The rules under an OpenRPC document: "Try it" loads the rule's example document as the API
    // document too (src/web/api), or, for a rule about a document, offers the example as one.
    let openrpc_entries = catalogue::openrpc()
        .map(|rule| {
            entry(
                page,
                rule,
                text.rule(rule.id),
                focus.as_deref() == Some(rule.id),
                "openrpc-rule-entry",
                shows,
            )
        })
        .collect_view();
    view! {
        <section class="teach reference" data-testid="reference" aria-labelledby="reference-title">
            <crate::web::views::api::ApiReference page />
            <h2 id="reference-title" tabindex="-1">"Rule reference"</h2>
            <p>
                "Every rule the validator checks, from JSON-RPC 2.0 itself and from the Model Context Protocol profile. \
                 Each has a minimal message that breaks it and the same message fixed: \"Try it\" opens it in the playground. \
                 An error breaks a MUST: the message is invalid. A warning breaks a SHOULD: the message is valid, but discouraged."
            </p>
            <p class="reference-filter">
                <label>
                    "Filter the rules "
                    <input
                        type="search"
                        data-testid="reference-filter"
                        placeholder="id, words or section: id, batch, §5…"
                        prop:value=move || query.get()
                        on:input=move |ev| query.set(event_target_value(&ev))
                    />
                </label>
                " "
                <span data-testid="reference-count" aria-live="polite">
                    {move || format!("{} of {} rules", shown(), catalogue::all().count())}
                </span>
            </p>
            <ol class="rules">{entries}</ol>
            <h2 id="openrpc-rules-title">"Under your API's OpenRPC document"</h2>
            <p>
                "With an OpenRPC document loaded (the playground's \"Your API\" panel), the document itself is checked, \
                 and each message against the API it describes. \"Try it\" loads the example's document too."
            </p>
            <ol class="rules" data-testid="openrpc-rules" aria-labelledby="openrpc-rules-title">{openrpc_entries}</ol>
        </section>
    }
}

/// One rule's entry (`testid`: `rule-entry`, or `openrpc-rule-entry` for the rules under a
/// document) with its `text`, shown while `shows` says so; `focused` when the route names it.
fn entry(
    page: Page,
    rule: &'static catalogue::Rule,
    text: Option<&'static RuleText>,
    focused: bool,
    testid: &'static str,
    shows: impl Fn(&'static catalogue::Rule) -> bool + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let s = rule.section;
    let sev = rule.severity.as_str();
    let profile = profile_of(rule);
    let document: &'static str = text.map_or("", |t| &t.document);
    let example = move |which: &'static str, title: &'static str, text: &'static str| {
        let what = if which == "bad" { "breaks" } else { "follows" };
        let try_it = move |_| {
            let what = format!("a message that {what} {}", rule.id);
            if rule.scope != catalogue::Scope::OpenRpc {
                page.open_in_playground(text, profile, &what);
            } else if document.is_empty() {
                // A rule about a document: the example is one, offered to the API panel.
                page.load_api(
                    Source {
                        text: text.to_string(),
                        url: None,
                        name: format!("the example document that {what} {}", rule.id),
                    },
                    true,
                );
                let _ = window().location().set_hash("/");
            } else {
                page.load_api(
                    Source {
                        text: document.to_string(),
                        url: None,
                        name: format!("the example document of {}", rule.id),
                    },
                    false,
                );
                page.open_in_playground(text, profile, &what);
            }
        };
        view! {
            <div>
                <h4>{title}</h4>
                <pre class=which>{text}</pre>
                <button type="button" data-testid=format!("try-{which}") data-try=which on:click=try_it>
                    "Try it"
                </button>
            </div>
        }
    };
    view! {
        <li
            hidden=move || !shows(rule)
            class=if focused { "rule-entry focused" } else { "rule-entry" }
            data-testid=testid
            data-rule=rule.id
            id=format!("rule-{}", rule.id)
            tabindex="-1"
            data-focus=focused.then_some("")
        >
            <h3>
                <code>{rule.id}</code>
                " "
                <span class=format!("badge {sev}") data-testid="rule-severity">{format!("{sev} ({})", rule.severity.keyword())}</span>
            </h3>
            <p class="summary">{text.map(|t| t.summary.as_str())}</p>
            <p class="section">
                <a href=s.url target="_blank" rel="noopener noreferrer">{format!("{} · {}", s.name, s.title)}</a>
                {if rule.scope == catalogue::Scope::OpenRpc {
                    " · checked under an OpenRPC document".to_string()
                } else {
                    format!(" · checked under {}", profile)
                }}
            </p>
            {text.map(|t| view! {
                <p>{t.explanation.as_str()}</p>
                <div class="pair">
                    {example("bad", rule.severity.bad_title(), &t.bad)}
                    {example("good", "Fixed", &t.good)}
                </div>
            })}
        </li>
    }
}
