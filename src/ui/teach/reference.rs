//! The rule reference (`data-testid="reference"`), generated from the engine's catalogue: one
//! `rule-entry` (with `data-rule`) per rule, with its severity, spec section and link, our
//! explanation, and a broken and a fixed example, each with a "try it" that loads it into the
//! playground with the rule's profile.

use super::open_in_playground;
use crate::rpc::{catalogue, Profile};
use crate::teach::quiz::profile_of;
use crate::ui::dom::{h, ht, Tag};
use crate::ui::AppState;

pub(crate) fn profile_name(p: Profile) -> String {
    match p {
        Profile::JsonRpc => "JSON-RPC 2.0".into(),
        Profile::Mcp(v) => format!("MCP {v}"),
    }
}

/// The whole reference; `focus` names the rule to scroll to, highlight and focus.
pub(super) fn view(focus: Option<&str>) -> Tag {
    let entries = catalogue::all().map(|rule| {
        let s = rule.section;
        let sev = rule.severity.as_str();
        let example = |which: &'static str, title: &'static str, text: &'static str| {
            h("div")
                .child(ht("h4", title))
                .child(ht("pre", text).attr("class", which))
                .child(
                    ht("button", "Try it")
                        .attr("type", "button")
                        .attr("data-testid", format!("try-{which}"))
                        .attr("data-act", "try")
                        .attr("data-try", which),
                )
        };
        let focused = focus == Some(rule.id);
        let entry = h("li")
            .attr(
                "class",
                if focused {
                    "rule-entry focused"
                } else {
                    "rule-entry"
                },
            )
            .attr("data-testid", "rule-entry")
            .attr("data-rule", rule.id)
            .attr("id", format!("rule-{}", rule.id))
            .attr("tabindex", "-1")
            .flag("data-focus", focused)
            .child(
                h("h3")
                    .child(ht("code", rule.id))
                    .text(" ")
                    .child(ht("span", sev).attr("class", format!("badge {sev}"))),
            )
            .child(ht("p", rule.summary).attr("class", "summary"))
            .child(
                h("p")
                    .attr("class", "section")
                    .child(
                        ht("a", format!("{} · {}", s.name, s.title))
                            .attr("href", s.url)
                            .attr("target", "_blank")
                            .attr("rel", "noopener noreferrer"),
                    )
                    .text(format!(
                        " · checked under {}",
                        profile_name(profile_of(rule))
                    )),
            )
            .child(ht("p", rule.explanation))
            .child(
                h("div")
                    .attr("class", "pair")
                    .child(example("bad", "Breaks it", rule.bad))
                    .child(example("good", "Fixed", rule.good)),
            );
        entry
    });
    h("section")
        .attr("class", "teach reference")
        .attr("data-testid", "reference")
        .attr("aria-labelledby", "reference-title")
        .child(ht("h2", "Rule reference").attr("id", "reference-title"))
        .child(ht(
            "p",
            "Every rule the validator checks, from JSON-RPC 2.0 itself and from the Model Context Protocol profile. \
             Each has a minimal message that breaks it and the same message fixed: \"Try it\" opens it in the playground.",
        ))
        .child(h("ol").attr("class", "rules").children(entries))
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
    let (text, what) = if bad {
        (rule.bad, "breaks")
    } else {
        (rule.good, "follows")
    };
    open_in_playground(
        app,
        text,
        profile_of(rule),
        &format!("a message that {what} {}", rule.id),
    );
}
