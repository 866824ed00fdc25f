//! The rule reference (`data-testid="reference"`), generated from the engine's catalogue: one
//! `rule-entry` (with `data-rule`) per rule, with its severity, spec section and link, our
//! explanation, and a broken and a fixed example, each with a "try it" that loads it into the
//! playground with the rule's profile.

use super::dom::{h, ht, H};
use super::open_in_playground;
use crate::rpc::{catalogue, Profile};
use crate::teach::quiz::profile_of;
use crate::ui::AppState;

pub(super) fn profile_name(p: Profile) -> String {
    match p {
        Profile::JsonRpc => "JSON-RPC 2.0".into(),
        Profile::Mcp(v) => format!("MCP {v}"),
    }
}

/// The whole reference; `focus` names the rule to scroll to, highlight and focus.
pub(super) fn view(focus: Option<&str>) -> H {
    let entries = catalogue::all().map(|rule| {
        let s = rule.section;
        let sev = rule.severity.as_str();
        let example = |which: &str, title: &str, text: &str| {
            h("div").c(ht("h4", title)).c(ht("pre", text).a("class", which)).c(
                ht("button", "Try it").a("type", "button").a("data-testid", &format!("try-{which}")).a("data-act", "try").a("data-try", which),
            )
        };
        let focused = focus == Some(rule.id);
        let entry = h("li")
            .a("class", if focused { "rule-entry focused" } else { "rule-entry" })
            .a("data-testid", "rule-entry")
            .a("data-rule", rule.id)
            .a("id", &format!("rule-{}", rule.id))
            .a("tabindex", "-1")
            .flag("data-focus", focused)
            .c(h("h3").c(ht("code", rule.id)).t(" ").c(ht("span", sev).a("class", &format!("badge {sev}"))))
            .c(ht("p", rule.summary).a("class", "summary"))
            .c(h("p")
                .a("class", "section")
                .c(ht("a", &format!("{} · {}", s.name, s.title)).a("href", s.url).a("target", "_blank").a("rel", "noopener noreferrer"))
                .t(&format!(" · checked under {}", profile_name(profile_of(rule)))))
            .c(ht("p", rule.explanation))
            .c(h("div").a("class", "pair").c(example("bad", "Breaks it", rule.bad)).c(example("good", "Fixed", rule.good)));
        entry
    });
    h("section")
        .a("class", "teach reference")
        .a("data-testid", "reference")
        .a("aria-labelledby", "reference-title")
        .c(ht("h2", "Rule reference").a("id", "reference-title"))
        .c(ht(
            "p",
            "Every rule the validator checks, from JSON-RPC 2.0 itself and from the Model Context Protocol profile. \
             Each has a minimal message that breaks it and the same message fixed: \"Try it\" opens it in the playground.",
        ))
        .c(h("ol").a("class", "rules").cs(entries))
}

/// A "Try it" button: its entry names the rule, the button the example.
pub(super) fn try_it(app: AppState, button: &web_sys::Element) {
    let rule = button
        .closest(".rule-entry")
        .ok()
        .flatten()
        .and_then(|e| e.get_attribute("data-rule"))
        .and_then(|id| catalogue::find(&id));
    let Some(rule) = rule else { return };
    let bad = button.get_attribute("data-try").as_deref() == Some("bad");
    let (text, what) = if bad { (rule.bad, "breaks") } else { (rule.good, "follows") };
    open_in_playground(app, text, profile_of(rule), &format!("a message that {what} {}", rule.id));
}
