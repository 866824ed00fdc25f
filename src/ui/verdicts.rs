//! The verdict pane: one card per document, batch elements as cards nested in their batch's card.
//! Each violation is a row whose button selects the violation's span in the editor.
//!
//! Cards are read-only markup from [`super::dom`] (one renderer for every card), kept by the
//! verdict's key: a card is built once and stays while its verdict is unchanged. One delegated
//! click listener on the pane finds the violation row that was clicked.

use crate::ui::prelude::*;

use super::analysis::{Finding, Verdict};
use super::dom::{self, h, KeyedList, Tag};

/// The list of verdict cards (`data-testid="verdicts"`).
pub fn verdicts() -> web_sys::Element {
    let state = super::use_app();
    let analysis = state.analysis;
    // A click on a violation row (not on its links) selects the violation's span. The span moves
    // as the user types: read the current one from the current analysis.
    let on_click = move |ev: web_sys::Event| {
        let on_link = dom::closest_data(&ev, "href").is_some();
        let Some((_, at)) = dom::closest_data(&ev, "data-finding") else {
            return;
        };
        if on_link {
            return;
        }
        let Some((key, path, index)) = parse_finding_at(&at) else {
            return;
        };
        let span = analysis.with_untracked(|a| {
            let keyed = a.verdicts.iter().find(|k| k.key == key)?;
            keyed.verdict.finding_at(&path, index).map(|f| f.span)
        });
        if let Some(span) = span {
            state.select.set(Some(span));
        }
    };
    let host = h("section")
        .class("verdicts")
        .testid("verdicts")
        .attr("aria-label", "Verdicts")
        .on("click", on_click)
        .el();
    let cards = StoredValue::new_local(KeyedList::default());
    {
        let host = host.clone();
        dom::effect(move || {
            analysis.with(|a| {
                cards.update_value(|list| {
                    list.patch(
                        &host,
                        &a.verdicts,
                        |k| k.key,
                        |k| card(&k.verdict, k.key, &[]),
                    )
                })
            })
        });
    }
    host
}

/// Past MAX_CARDS documents: how many more there are and what is wrong in them
/// (`data-testid="verdicts-more"`, hidden while every document has a card).
pub fn verdicts_more() -> web_sys::Element {
    let analysis = super::use_app().analysis;
    let el = h("p").class("verdicts-more").testid("verdicts-more").el();
    let p = el.clone();
    dom::effect(move || {
        let more = analysis.with(|a| {
            let t = a.totals;
            let hidden = t.documents.saturating_sub(a.verdicts.len());
            (hidden > 0).then(|| {
                let shown = a.verdicts.len();
                format!(
                    "The first {shown} of {} documents have a card. In all of them: {} with errors ({} errors, {} warnings). `jrpc check` lists every one.",
                    t.documents, t.with_errors, t.errors, t.warnings
                )
            })
        });
        let _ = if more.is_some() {
            p.remove_attribute("hidden")
        } else {
            p.set_attribute("hidden", "")
        };
        p.set_text_content(more.as_deref());
    });
    el
}

/// Where a finding is: `key/element.element/index` (the path empty at the top level).
fn finding_at(key: u64, path: &[usize], index: usize) -> String {
    let path: Vec<String> = path.iter().map(usize::to_string).collect();
    format!("{key}/{}/{index}", path.join("."))
}

fn parse_finding_at(at: &str) -> Option<(u64, Vec<usize>, usize)> {
    let mut parts = at.split('/');
    let key = parts.next()?.parse().ok()?;
    let path = parts.next()?;
    let index = parts.next()?.parse().ok()?;
    let path = if path.is_empty() {
        Vec::new()
    } else {
        path.split('.')
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()?
    };
    Some((key, path, index))
}

/// One document, or one batch element (then nested in its batch's card).
fn card(verdict: &Verdict, key: u64, path: &[usize]) -> Tag {
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
        h("ol")
            .class("batch-items")
            .attr("aria-label", "Batch elements")
            .children(verdict.items.iter().enumerate().map(|(i, item)| {
                let mut path = path.to_vec();
                path.push(i);
                h("li")
                    .class("batch-item")
                    .testid("batch-item")
                    .attr("data-kind", item.kind.as_str())
                    .child(card(item, key, &path))
            }))
    });
    h("article")
        .class(format!("verdict kind-{kind} {status}"))
        .testid("verdict")
        .attr("data-kind", kind)
        .child(summary(verdict))
        .child(h("p").class("about").testid("about").text(about))
        .child_opt(findings(&verdict.findings, key, path))
        .child_opt(items)
}

/// Kind badge, method, id and position of a document.
fn summary(verdict: &Verdict) -> Tag {
    h("header")
        .class("summary")
        .child(
            h("span")
                .class("kind badge")
                .testid("badge")
                .text(verdict.badge()),
        )
        .child_opt(
            verdict
                .method
                .as_ref()
                .map(|m| h("span").class("method").testid("method").text(m.clone())),
        )
        .child_opt(verdict.id.as_ref().map(|id| {
            h("span")
                .class("id")
                .testid("id")
                .text("id ")
                .text(id.clone())
        }))
        .child(
            h("span")
                .class("at")
                .text(format!("{}:{}", verdict.at.line, verdict.at.column)),
        )
}

/// The broken rules of one document (not of its batch elements). Each row's button selects the
/// violation's span in the editor; the spec link opens the section in a new tab.
fn findings(findings: &[Finding], key: u64, path: &[usize]) -> Option<Tag> {
    if findings.is_empty() {
        return None;
    }
    let rows = findings.iter().enumerate().map(|(index, f)| {
        let severity = f.severity.as_str();
        let pointer = if f.path.is_empty() {
            "(root)".to_string()
        } else {
            f.path.clone()
        };
        let section = f.section;
        h("li")
            .class(format!("violation {severity}"))
            .testid("violation")
            .attr("data-rule", f.rule)
            .attr("data-severity", severity)
            .attr("data-path", f.path.clone())
            .attr("data-finding", finding_at(key, path, index))
            .child(
                h("button")
                    .attr("type", "button")
                    .class("goto")
                    .attr("title", "Select in the editor")
                    .child(
                        h("span")
                            .class("at")
                            .text(format!("{}:{}", f.at.line, f.at.column)),
                    )
                    .text(" ")
                    .child(h("span").class("severity").text(severity))
                    .text(" ")
                    .child(h("code").class("rule").text(f.rule))
                    .text(" ")
                    .child(h("span").class("message").text(f.message.clone())),
            )
            .child(
                h("code")
                    .class("path")
                    .attr("title", "JSON pointer")
                    .text(pointer),
            )
            .child(
                h("a")
                    .class("spec")
                    .attr("href", section.url)
                    .attr("target", "_blank")
                    .attr("rel", "noopener noreferrer")
                    .attr("title", section.title)
                    .text(section.name),
            )
            .child(
                h("a")
                    .class("ref")
                    .testid("violation-ref")
                    .attr("href", format!("#/reference/{}", f.rule))
                    .attr("aria-label", format!("{} in the reference", f.rule))
                    .text("?"),
            )
    });
    Some(
        h("ul")
            .class("violations")
            .attr("aria-label", "Violations")
            .children(rows),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finding_places_round_trip() {
        for (key, path, index) in [
            (1u64, vec![], 0usize),
            (42, vec![3], 2),
            (7, vec![0, 11], 5),
        ] {
            assert_eq!(
                parse_finding_at(&finding_at(key, &path, index)),
                Some((key, path, index))
            );
        }
        assert_eq!(parse_finding_at("x/1/2"), None);
        assert_eq!(parse_finding_at("1/a/2"), None);
    }
}
