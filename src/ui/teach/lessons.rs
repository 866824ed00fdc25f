//! The lessons (`data-testid="lesson"`): the engine's six-step path, each step with its example,
//! run against a fresh in-browser mock server (or opened in the playground), and one question.

use super::quiz::question;
use super::{open_in_playground, rerender, Slot, Teach, TEACH};
use crate::mock::MockServer;
use crate::teach::lessons::LESSONS;
use crate::teach::quiz;
use crate::teach::route::Route;
use crate::ui::dom::{h, ht, Tag};
use crate::ui::AppState;

/// The list (`None`) or one lesson (0-based).
pub(super) fn view(t: &mut Teach, index: Option<usize>) -> Tag {
    let Some((i, l)) = index.and_then(|i| LESSONS.get(i).map(|l| (i, l))) else {
        let items = LESSONS.iter().enumerate().map(|(i, l)| {
            h("li").child(
                ht("a", l.title)
                    .attr("data-testid", "lesson-link")
                    .attr("href", Route::Lessons(Some(i)).fragment()),
            )
        });
        return h("section")
            .attr("class", "teach lessons")
            .attr("data-testid", "lessons")
            .attr("aria-labelledby", "lessons-title")
            .child(ht("h2", "Lessons").attr("id", "lessons-title"))
            .child(ht("p", "Six short steps from a first request to an MCP tool call, about fifteen minutes. Each has an example to run against the in-browser mock server and one question."))
            .child(h("ol").children(items));
    };
    if t.slots[0].is_none() {
        t.slots[0] = quiz::item(l.question).map(|it| Slot::new(it, false, false));
    }
    let replies = t.runs.as_ref().map(|runs| {
        let rows = runs.iter().map(|(sent, reply)| {
            let back = match reply {
                Some(r) => ht("pre", format!("← {r}"))
                    .attr("class", "in")
                    .attr("data-testid", "lesson-reply"),
                None => ht("p", "← no reply: nothing is returned for this message")
                    .attr("class", "none")
                    .attr("data-testid", "lesson-no-reply"),
            };
            h("li")
                .child(ht("pre", format!("→ {sent}")).attr("class", "out"))
                .child(back)
        });
        h("ol")
            .attr("class", "replies")
            .attr("data-testid", "lesson-replies")
            .attr("aria-label", "Exchanged with the mock server")
            .children(rows)
    });
    let mut steps = h("nav")
        .attr("class", "steps")
        .attr("aria-label", "Lessons");
    if i > 0 {
        steps = steps.child(
            ht("a", "← Previous")
                .attr("data-testid", "lesson-prev")
                .attr("href", Route::Lessons(Some(i - 1)).fragment()),
        );
    }
    steps = steps.child(ht("a", "All lessons").attr("href", "#/lessons"));
    if i + 1 < LESSONS.len() {
        steps = steps.child(
            ht("a", "Next step →")
                .attr("data-testid", "lesson-next")
                .attr("href", Route::Lessons(Some(i + 1)).fragment()),
        );
    }
    h("article")
        .attr("class", "teach lesson")
        .attr("data-testid", "lesson")
        .attr("data-lesson", l.id)
        .attr("aria-labelledby", "lesson-title")
        .child(ht("p", format!("Step {} of {}", i + 1, LESSONS.len())).attr("class", "step"))
        .child(ht("h2", l.title).attr("id", "lesson-title"))
        .children(l.text.iter().map(|p| ht("p", *p)))
        .child(
            ht("pre", l.example)
                .attr("class", "example")
                .attr("data-testid", "lesson-example"),
        )
        .child(
            h("div")
                .attr("class", "actions")
                .child(
                    ht("button", "Run against the mock server")
                        .attr("type", "button")
                        .attr("data-testid", "lesson-run")
                        .attr("data-act", "run"),
                )
                .child(
                    ht("button", "Open in the playground")
                        .attr("type", "button")
                        .attr("data-testid", "lesson-open")
                        .attr("data-act", "open"),
                ),
        )
        .child_opt(replies)
        .child(ht("h3", "Your question"))
        .child_opt(t.slots[0].as_ref().map(|s| question(0, s)))
        .child(steps)
}

/// Run the lesson's example on a fresh mock server, or open it in the playground.
pub(super) fn act(app: AppState, act: &str) {
    let lesson = TEACH.with_borrow(|t| match t.route {
        Some(Route::Lessons(Some(i))) => LESSONS.get(i),
        _ => None,
    });
    let Some(l) = lesson else { return };
    if act == "open" {
        open_in_playground(app, l.example, l.profile, l.title);
        return;
    }
    let exchanges = MockServer::new().handle_stream(l.example.as_bytes());
    let runs = exchanges
        .into_iter()
        .map(|e| (l.example[e.span.start..e.span.end].to_string(), e.reply))
        .collect();
    TEACH.with_borrow_mut(|t| t.runs = Some(runs));
    rerender();
}
