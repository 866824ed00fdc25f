//! The lessons (`data-testid="lesson"`): the engine's six-step path, each step with its example,
//! run against a fresh in-browser mock server (or opened in the playground), and one question.

use super::dom::{h, ht, H};
use super::quiz::question;
use super::{open_in_playground, rerender, Slot, Teach, TEACH};
use crate::mock::MockServer;
use crate::teach::lessons::LESSONS;
use crate::teach::quiz;
use crate::teach::route::Route;
use crate::ui::AppState;

/// The list (`None`) or one lesson (0-based).
pub(super) fn view(t: &mut Teach, index: Option<usize>) -> H {
    let Some((i, l)) = index.and_then(|i| LESSONS.get(i).map(|l| (i, l))) else {
        let items = LESSONS.iter().enumerate().map(|(i, l)| {
            h("li").c(ht("a", l.title).a("data-testid", "lesson-link").a("href", &Route::Lessons(Some(i)).fragment()))
        });
        return h("section")
            .a("class", "teach lessons")
            .a("data-testid", "lessons")
            .a("aria-labelledby", "lessons-title")
            .c(ht("h2", "Lessons").a("id", "lessons-title"))
            .c(ht("p", "Six short steps from a first request to an MCP tool call, about fifteen minutes. Each has an example to run against the in-browser mock server and one question."))
            .c(h("ol").cs(items));
    };
    if t.slots[0].is_none() {
        t.slots[0] = quiz::item(l.question).map(|it| Slot::new(it, false, false));
    }
    let replies = t.runs.as_ref().map(|runs| {
        let rows = runs.iter().map(|(sent, reply)| {
            let back = match reply {
                Some(r) => ht("pre", &format!("← {r}")).a("class", "in").a("data-testid", "lesson-reply"),
                None => ht("p", "← no reply: nothing is returned for this message").a("class", "none").a("data-testid", "lesson-no-reply"),
            };
            h("li").c(ht("pre", &format!("→ {sent}")).a("class", "out")).c(back)
        });
        h("ol").a("class", "replies").a("data-testid", "lesson-replies").a("aria-label", "Exchanged with the mock server").cs(rows)
    });
    let mut steps = h("nav").a("class", "steps").a("aria-label", "Lessons");
    if i > 0 {
        steps = steps.c(ht("a", "← Previous").a("data-testid", "lesson-prev").a("href", &Route::Lessons(Some(i - 1)).fragment()));
    }
    steps = steps.c(ht("a", "All lessons").a("href", "#/lessons"));
    if i + 1 < LESSONS.len() {
        steps = steps.c(ht("a", "Next step →").a("data-testid", "lesson-next").a("href", &Route::Lessons(Some(i + 1)).fragment()));
    }
    h("article")
        .a("class", "teach lesson")
        .a("data-testid", "lesson")
        .a("data-lesson", l.id)
        .a("aria-labelledby", "lesson-title")
        .c(ht("p", &format!("Step {} of {}", i + 1, LESSONS.len())).a("class", "step"))
        .c(ht("h2", l.title).a("id", "lesson-title"))
        .cs(l.text.iter().map(|p| ht("p", p)))
        .c(ht("pre", l.example).a("class", "example").a("data-testid", "lesson-example"))
        .c(h("div")
            .a("class", "actions")
            .c(ht("button", "Run against the mock server").a("type", "button").a("data-testid", "lesson-run").a("data-act", "run"))
            .c(ht("button", "Open in the playground").a("type", "button").a("data-testid", "lesson-open").a("data-act", "open")))
        .opt(replies)
        .c(ht("h3", "Your question"))
        .opt(t.slots[0].as_ref().map(|s| question(0, s)))
        .c(steps)
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
    let runs = exchanges.into_iter().map(|e| (l.example[e.span.start..e.span.end].to_string(), e.reply)).collect();
    TEACH.with_borrow_mut(|t| t.runs = Some(runs));
    rerender();
}
