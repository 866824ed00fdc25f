//! The quiz (`data-testid="quiz"`): one question at a time from the engine's bank, in a shuffled
//! order; the learner answers the kind (`quiz-answer`) and, when invalid, which rule (pick it) or
//! where (click the offending part of the message); the engine grades and explains
//! (`quiz-result`), pointing at the span. Progress and score persist in localStorage
//! (`jrpc.quiz`, [`crate::teach::progress`]); a storage problem is a notice and touches nothing
//! else (the editor's draft is saved apart). Links share one question or the whole set.

use wasm_bindgen::prelude::*;
use web_sys::js_sys;

use super::reference::profile_name;
use super::{rerender, Slot, Teach, TEACH};
use crate::rpc::{catalogue, Profile, Scope};
use crate::teach::progress::Progress;
use crate::teach::quiz::{self, Answer, Choice};
use crate::teach::route::{QuizRoute, Route};
use crate::ui::dom::{h, ht, Tag};
use crate::ui::prelude::{window, GetUntracked};
use crate::ui::{AppState, NoticeLevel};

/// localStorage: the quiz's progress.
const KEY: &str = "jrpc.quiz";

// The page's selection: where a click in the message put the caret (not in this build's web-sys
// features, so bound here).
#[wasm_bindgen]
extern "C" {
    type Selection;
    #[wasm_bindgen(js_namespace = window, js_name = getSelection)]
    fn get_selection() -> Option<Selection>;
    #[wasm_bindgen(method, getter, js_name = anchorNode)]
    fn anchor_node(this: &Selection) -> Option<web_sys::Node>;
    #[wasm_bindgen(method, getter, js_name = anchorOffset)]
    fn anchor_offset(this: &Selection) -> u32;
}

/// One question (slot `q`): the message, the rule picker, the answers and, once answered, the grade.
pub(super) fn question(q: usize, slot: &Slot) -> Tag {
    let qs = if q == 1 { "1" } else { "0" };
    let it = &slot.item;
    let done = slot.grade.is_some();
    let runs = quiz::marked(&it.text, slot.grade.as_ref().map_or(&[][..], |g| &g.spans))
        .into_iter()
        .map(|(s, m)| {
            let span = ht("span", s);
            if m {
                span.attr("class", "hit").attr("data-testid", "quiz-span")
            } else {
                span
            }
        });
    let message = h("pre")
        .attr("class", "quiz-message")
        .attr("data-testid", "quiz-message")
        .attr("data-q", qs)
        .attr("title", "Click the part you think is wrong")
        .children(runs);
    let pointed = slot.click.map(|at| {
        let near: String = it.text[at..].chars().take(16).collect();
        h("p")
            .attr("class", "pointed")
            .attr("data-testid", "quiz-pointed")
            .text("You point at: ")
            .child(ht("code", near))
    });
    let mcp = matches!(it.profile, Profile::Mcp(_));
    let options = catalogue::all()
        .filter(|r| r.scope == Scope::JsonRpc || mcp)
        .map(|r| {
            ht("option", r.id)
                .attr("value", r.id)
                .attr("title", r.summary)
                .flag("selected", slot.rule == r.id)
        });
    let select = h("select")
        .attr("data-testid", "quiz-rule")
        .attr("data-q", qs)
        .flag("disabled", done)
        .child(ht("option", "— pick a rule —").attr("value", ""))
        .children(options);
    let choices = it.choices().iter().map(|c| {
        ht("button", c.as_str())
            .attr("type", "button")
            .attr("data-testid", "quiz-answer")
            .attr("data-answer", c.as_str())
            .attr("data-act", "answer")
            .attr("data-q", qs)
            .flag("disabled", done)
    });
    let result = slot.grade.as_ref().map(|g| {
        let verdict = match (g.correct, g.located) {
            (true, Some(true)) => "Right, and you found what is wrong.".to_string(),
            (true, _) => "Right.".to_string(),
            (false, Some(false)) => "It is invalid, yes, but not for that reason.".to_string(),
            (false, _) => format!("Not quite: it is {}.", g.expected.as_str()),
        };
        let mut ids: Vec<&'static str> = it.key().rules.iter().map(|r| r.id).collect();
        ids.dedup();
        let mut refs = h("p").text("In the reference:");
        for id in ids {
            refs = refs
                .text(" ")
                .child(ht("a", id).attr("href", format!("#/reference/{id}")));
        }
        h("div")
            .attr(
                "class",
                if g.correct {
                    "quiz-result right"
                } else {
                    "quiz-result wrong"
                },
            )
            .attr("data-testid", "quiz-result")
            .attr("data-correct", if g.correct { "true" } else { "false" })
            .attr("data-expected", g.expected.as_str().to_string())
            .attr("role", "status")
            .attr("tabindex", "-1")
            .child(h("p").attr("class", "verdict").child(ht("strong", verdict)))
            .child(ht("p", g.explanation.clone()).attr("data-testid", "quiz-explanation"))
            .child(refs)
    });
    let share = slot.share.then(|| {
        let href = Route::Quiz(QuizRoute::Item(it.id.clone())).fragment();
        h("p").child(
            ht("a", "Link to this question")
                .attr("data-testid", "quiz-share")
                .attr("href", href),
        )
    });
    h("div")
        .attr("class", "quiz-item")
        .attr("data-item", it.id.clone())
        .attr("data-q", qs)
        .attr("tabindex", "-1")
        .child(
            ht(
                "p",
                format!("Checked as {}. What is it?", profile_name(it.profile)),
            )
            .attr("class", "profile-note"),
        )
        .child(message)
        .child_opt(pointed)
        .child(
            h("label")
                .attr("class", "rule-pick")
                .text("If invalid, which rule? (optional; or click the wrong part above) ")
                .child(select),
        )
        .child(
            h("div")
                .attr("class", "answers")
                .attr("role", "group")
                .attr("aria-label", "Your answer")
                .children(choices),
        )
        .child_opt(result)
        .child_opt(share)
}

/// A click in the message of slot `q`: where the caret went, as a byte offset of the message.
pub(super) fn pick(q: usize, pre: &web_sys::Element) {
    let Some(sel) = get_selection() else { return };
    let Some(node) = sel.anchor_node() else {
        return;
    };
    // The offset counts within the anchor's text run: add the runs before it.
    let mut before = 0u32;
    let mut run = node.parent_node().and_then(|p| p.previous_sibling());
    if !node.parent_node().is_some_and(|p| pre.contains(Some(&p))) {
        return;
    }
    while let Some(r) = run {
        before += r
            .text_content()
            .map_or(0, |t| t.encode_utf16().count() as u32);
        run = r.previous_sibling();
    }
    let changed = TEACH.with_borrow_mut(|t| match &mut t.slots[q] {
        Some(slot) if slot.grade.is_none() => {
            slot.click = Some(crate::ui::editor::utf16_to_byte(
                &slot.item.text,
                before + sel.anchor_offset(),
            ));
            true
        }
        _ => false,
    });
    if changed {
        rerender();
    }
}

/// An answer button of slot `q`: the engine grades it; the series counts it.
pub(super) fn answer(app: AppState, q: usize, button: &web_sys::Element) {
    let Some(choice) = button
        .get_attribute("data-answer")
        .and_then(|a| Choice::parse(&a))
    else {
        return;
    };
    TEACH.with_borrow_mut(|t| {
        let Some(slot) = &mut t.slots[q] else { return };
        if slot.grade.is_some() {
            return;
        }
        let invalid = choice == Choice::Invalid;
        let a = Answer {
            choice: Some(choice),
            rule: (invalid && !slot.rule.is_empty()).then(|| slot.rule.clone()),
            click: if invalid { slot.click } else { None },
        };
        let g = quiz::grade(&slot.item, &a);
        t.focus = Some(format!(
            ".quiz-item[data-q=\"{q}\"] [data-testid=quiz-result]"
        ));
        let (counts, correct) = (slot.counts, g.correct);
        slot.grade = Some(g);
        if counts {
            if let Some(p) = &mut t.progress {
                p.record(correct);
            }
            save(t, app);
        }
    });
    rerender();
}

/// Next question, start over, or "is this right?".
pub(super) fn act(app: AppState, act: &str) {
    TEACH.with_borrow_mut(|t| match act {
        "own" => {
            let item = quiz::custom(&t.own_text, app.profile.get_untracked());
            t.slots[1] = Some(Slot::new(item, false, false));
            t.focus = Some(".quiz-item[data-q=\"1\"]".into());
        }
        _ => {
            let Some(p) = &mut t.progress else { return };
            if act == "next" {
                p.pos += 1;
            } else {
                *p = Progress::start(new_seed());
            }
            t.slots[0] = None;
            t.focus = Some(".quiz-item[data-q=\"0\"]".into());
            save(t, app);
        }
    });
    rerender();
}

fn new_seed() -> u64 {
    (js_sys::Math::random() * 4_294_967_296.0) as u64 + 1
}

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// The saved progress, or a fresh start (a damaged save is a notice, not a guess).
fn load(app: AppState) -> Progress {
    match storage().map(|s| s.get_item(KEY)) {
        Some(Ok(Some(json))) => Progress::from_json(&json).unwrap_or_else(|why| {
            app.notify(
                NoticeLevel::Error,
                format!("The saved quiz progress could not be read ({why}); the quiz starts over."),
            );
            Progress::start(new_seed())
        }),
        _ => Progress::start(new_seed()),
    }
}

/// Saves the series' progress; a failure is reported once and touches nothing else.
fn save(t: &mut Teach, app: AppState) {
    let Some(p) = t.progress else { return };
    let outcome = storage()
        .ok_or_else(|| "no localStorage".to_string())
        .and_then(|s| {
            s.set_item(KEY, &p.to_json())
                .map_err(|e| e.as_string().unwrap_or_else(|| "storage refused it".into()))
        });
    if let Err(why) = outcome {
        if !t.warned {
            t.warned = true;
            app.notify(
                NoticeLevel::Error,
                format!(
                    "Quiz progress is not being saved ({why}). Your editor text is not affected."
                ),
            );
        }
    }
}

/// The quiz view for a route.
pub(super) fn view(t: &mut Teach, app: AppState, which: &QuizRoute) -> Tag {
    let section = h("section")
        .attr("class", "teach quiz")
        .attr("data-testid", "quiz")
        .attr("aria-labelledby", "quiz-title")
        .child(ht("h2", "Quiz").attr("id", "quiz-title"));
    let section = match which {
        QuizRoute::Item(id) => {
            if t.slots[0].is_none() {
                t.slots[0] = quiz::item(id).map(|it| Slot::new(it, false, true));
            }
            match &t.slots[0] {
                Some(slot) => section
                    .child(h("p").text("A shared question. ").child(ht("a", "Your own quiz").attr("href", "#/quiz")).text(" keeps its place and score."))
                    .child(question(0, slot)),
                None => section.child(
                    h("p")
                        .attr("role", "alert")
                        .attr("data-testid", "quiz-missing")
                        .text(format!("There is no question \"{id}\" in this quiz (the link may be from another version). "))
                        .child(ht("a", "Go to the quiz").attr("href", "#/quiz")),
                ),
            }
        }
        QuizRoute::Mine | QuizRoute::Set(_) => series(t, app, section, which),
    };
    // "Is this right?": the learner's own message, graded like a bank item.
    let own = h("section")
        .attr("class", "own")
        .attr("aria-labelledby", "own-title")
        .child(ht("h3", "Is this right?").attr("id", "own-title"))
        .child(ht("p", "Write a message of your own, then say what you think it is. It is checked with the playground's profile."))
        .child(ht("textarea", t.own_text.clone()).attr("data-testid", "quiz-own").attr("aria-label", "Your message").attr("rows", "4").attr("spellcheck", "false"))
        .child(ht("button", "Is this right?").attr("type", "button").attr("data-testid", "quiz-own-check").attr("data-act", "own"))
        .child_opt(t.slots[1].as_ref().map(|s| question(1, s)));
    section.child(own)
}

/// The learner's way through the whole bank, in the order of a seed (theirs, or a shared set's).
fn series(t: &mut Teach, app: AppState, section: Tag, which: &QuizRoute) -> Tag {
    let bank = quiz::bank();
    let n = bank.len();
    if t.progress.is_none() {
        let mut p = load(app);
        if let QuizRoute::Set(seed) = *which {
            if seed != p.seed {
                p = Progress::start(seed);
            }
        }
        t.progress = Some(p);
        save(t, app);
    }
    let Some(p) = t.progress else { return section };
    if t.slots[0].is_none() && p.pos < n {
        let idx = quiz::order(n, p.seed)[p.pos];
        t.slots[0] = bank
            .into_iter()
            .nth(idx)
            .map(|it| Slot::new(it, true, true));
    }
    let head = ht(
        "p",
        format!("Question {} of {n} · {}", (p.pos + 1).min(n), p.score()),
    )
    .attr("class", "quiz-progress")
    .attr("data-testid", "quiz-progress")
    .attr("data-pos", p.pos.to_string())
    .attr("data-right", p.right.to_string())
    .attr("data-answered", p.answered.to_string());
    let body = match (&t.slots[0], p.pos < n) {
        (Some(slot), true) => question(0, slot),
        _ => ht(
            "p",
            format!("You went through all {n} questions. Start over for a new order."),
        )
        .attr("data-testid", "quiz-done"),
    };
    let nav = h("div")
        .attr("class", "quiz-nav")
        .child(
            ht("button", "Next question")
                .attr("type", "button")
                .attr("data-testid", "quiz-next")
                .attr("data-act", "next")
                .flag("disabled", p.pos >= n),
        )
        .child(
            ht("button", "Start over (new order)")
                .attr("type", "button")
                .attr("data-testid", "quiz-restart")
                .attr("data-act", "restart"),
        )
        .child(
            ht("a", "Link to this set")
                .attr("data-testid", "quiz-set-link")
                .attr("href", Route::Quiz(QuizRoute::Set(p.seed)).fragment()),
        );
    section.child(head).child(body).child(nav)
}
