//! The rule reference (`data-testid="reference"`), generated from the engine's catalogue: one
//! `rule-entry` (with `data-rule`) per rule, with its severity, spec section and link, our
//! explanation, and a broken and a fixed example, each with a "try it" that loads it into the
//! playground with the rule's profile.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::open_in_playground;
use crate::rpc::{catalogue, Profile};
use crate::teach::quiz::profile_of;
use crate::ui::AppState;

fn profile_name(p: Profile) -> String {
    match p {
        Profile::JsonRpc => "JSON-RPC 2.0".into(),
        Profile::Mcp(v) => format!("MCP {v}"),
    }
}

/// The whole reference; `focus` names the rule to scroll to and highlight.
pub fn reference(app: AppState, focus: Option<String>) -> AnyView {
    let entries = catalogue::all()
        .map(|rule| {
            let profile = profile_of(rule);
            let focused = focus.as_deref() == Some(rule.id);
            let s = rule.section;
            view! {
                <li
                    class=if focused { "rule-entry focused" } else { "rule-entry" }
                    data-testid="rule-entry"
                    data-rule=rule.id
                    id=format!("rule-{}", rule.id)
                    tabindex="-1"
                >
                    <h3>
                        <code>{rule.id}</code>
                        " "
                        <span class=format!("badge {}", rule.severity.as_str())>{rule.severity.as_str()}</span>
                    </h3>
                    <p class="summary">{rule.summary}</p>
                    <p class="section">
                        <a href=s.url target="_blank" rel="noopener noreferrer">{s.name} " · " {s.title}</a>
                        " · checked under " {profile_name(profile)}
                    </p>
                    <p>{rule.explanation}</p>
                    <div class="pair">
                        <div>
                            <h4>"Breaks it"</h4>
                            <pre class="bad">{rule.bad}</pre>
                            <button type="button" data-testid="try-bad" data-try="bad">"Try it"</button>
                        </div>
                        <div>
                            <h4>"Fixed"</h4>
                            <pre class="good">{rule.good}</pre>
                            <button type="button" data-testid="try-good" data-try="good">"Try it"</button>
                        </div>
                    </div>
                </li>
            }
        })
        .collect_view();
    // One handler for every "Try it": the button names the example, its entry the rule.
    let try_it = move |ev: leptos::ev::MouseEvent| {
        let Some(button) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
        let (Some(which), Some(rule)) = (
            button.get_attribute("data-try"),
            button.closest(".rule-entry").ok().flatten().and_then(|e| e.get_attribute("data-rule")).and_then(|id| catalogue::find(&id)),
        ) else {
            return;
        };
        let (text, what) = if which == "bad" { (rule.bad, "breaks") } else { (rule.good, "follows") };
        open_in_playground(app, text, profile_of(rule), &format!("a message that {what} {}", rule.id));
    };
    if let Some(id) = focus {
        // After this render is in the document: bring the entry into view and focus it.
        request_animation_frame(move || {
            if let Some(el) = document().get_element_by_id(&format!("rule-{id}")) {
                el.scroll_into_view();
                if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
                    let _ = el.focus();
                }
            }
        });
    }
    view! {
        <section class="teach reference" data-testid="reference" aria-labelledby="reference-title">
            <h2 id="reference-title">"Rule reference"</h2>
            <p>
                "Every rule the validator checks, from JSON-RPC 2.0 itself and from the Model Context Protocol profile. "
                "Each has a minimal message that breaks it and the same message fixed: \"Try it\" opens it in the playground."
            </p>
            <ol class="rules" on:click=try_it>{entries}</ol>
        </section>
    }
    .into_any()
}
