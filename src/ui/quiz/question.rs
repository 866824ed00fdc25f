//! One question of the quiz (`.quiz-item`): the message to click in, the
//! keyboard way to point at a part, the rule picker, the answers and, once answered, the engine's
//! grade and explanation. The lessons ask their questions with it too.

use wasm_bindgen::prelude::*;

use crate::rpc::{catalogue, Profile, Scope};
use crate::teach::quiz::{self, Answer, Choice, Grade, Item};
use crate::teach::route::{QuizRoute, Route};
use crate::ui::prelude::*;

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

/// One question on the page: the item, what the learner pointed at or picked, the grade.
#[derive(Clone, Copy)]
pub(crate) struct Slot {
    item: StoredValue<Item>,
    click: RwSignal<Option<usize>>,
    rule: RwSignal<String>,
    grade: RwSignal<Option<Grade>>,
    /// Shows a link to this question.
    share: bool,
}

impl Slot {
    pub fn new(item: Item, share: bool) -> Slot {
        Slot {
            item: StoredValue::new(item),
            click: RwSignal::new(None),
            rule: RwSignal::new(String::new()),
            grade: RwSignal::new(None),
            share,
        }
    }
}

/// One question (slot `q`: 0 the view's question, 1 the learner's own message): the message, the
/// rule picker, the answers and, once answered, the grade. `on_graded` hears whether the answer
/// was right (the series counts it).
#[component]
pub(crate) fn Question(
    q: usize,
    asked: Slot,
    #[prop(optional)] on_graded: Option<Callback<bool>>,
) -> impl IntoView {
    let qs = if q == 1 { "1" } else { "0" };
    let Slot {
        item,
        click,
        rule,
        grade,
        share,
    } = asked;
    let it = item.get_value();
    let done = move || grade.with(Option::is_some);
    let text = it.text.clone();
    let runs = move || {
        grade.with(|g| {
            quiz::marked(&text, g.as_ref().map_or(&[][..], |g| &g.spans))
                .into_iter()
                .map(|(s, hit)| {
                    if hit {
                        view! { <span class="hit" data-testid="quiz-span">{s.to_string()}</span> }
                            .into_any()
                    } else {
                        view! { <span>{s.to_string()}</span> }.into_any()
                    }
                })
                .collect_view()
        })
    };
    let on_pick = move |ev: leptos::ev::MouseEvent| {
        let Some(pre) = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        if grade.with_untracked(Option::is_none) {
            if let Some(at) = picked(&pre, &item.with_value(|it| it.text.clone())) {
                click.set(Some(at));
            }
        }
    };
    let pointed = move || {
        click.get().map(|at| {
            let near = item.with_value(|it| pointed_text(&it.text, at));
            view! { <p class="pointed" data-testid="quiz-pointed">"You point at: "<code>{near}</code></p> }
        })
    };
    // The same pointing by keyboard: every part of the message in a list (a click and a choice
    // here set the same place).
    let parts = quiz::pointable(&it.text)
        .into_iter()
        .map(|span| {
            let label = pointed_text(&it.text, span.start);
            view! { <option value=span.start.to_string()>{label}</option> }
        })
        .collect_view();
    let on_point = move |ev: leptos::ev::Event| {
        if let Ok(at) = event_target_value(&ev).parse::<usize>() {
            click.set(Some(at));
        }
    };
    let mcp = matches!(it.profile, Profile::Mcp(_));
    let options = catalogue::all()
        .filter(|r| r.scope == Scope::JsonRpc || mcp)
        // In words (the requirement), the id after it: ~50 bare ids said nothing to a learner.
        .map(|r| view! { <option value=r.id title=r.id>{format!("{} ({})", r.summary, r.id)}</option> })
        .collect_view();
    let said = RwSignal::new(String::new());
    let answer = move |choice: Choice| {
        if grade.with_untracked(Option::is_some) {
            return;
        }
        let invalid = choice == Choice::Invalid;
        let a = Answer {
            choice: Some(choice),
            rule: rule.with_untracked(|r| (invalid && !r.is_empty()).then(|| r.clone())),
            click: if invalid { click.get_untracked() } else { None },
        };
        let g = item.with_value(|it| quiz::grade(it, &a));
        let correct = g.correct;
        // What the learner answered, said back with the grade.
        let mut told = format!("You answered: {}", choice.as_str());
        if let Some(r) = &a.rule {
            told.push_str(&format!(", rule {r}"));
        } else if let Some(at) = a.click {
            told.push_str(&format!(
                ", pointing at “{}”",
                item.with_value(|it| pointed_text(&it.text, at))
            ));
        }
        told.push('.');
        said.set(told);
        grade.set(Some(g));
        if let Some(on_graded) = on_graded {
            on_graded.run(correct);
        }
    };
    let choices = it
        .choices()
        .iter()
        .map(|&c| {
            view! {
                <button type="button" data-testid="quiz-answer" data-answer=c.as_str() data-q=qs disabled=done on:click=move |_| answer(c)>
                    {c.as_str()}
                </button>
            }
        })
        .collect_view();
    let result_ref = NodeRef::<leptos::html::Div>::new();
    // Once graded, the result is where the learner's focus goes.
    Effect::new(move |_| {
        if let Some(result) = result_ref.get() {
            result.scroll_into_view();
            let _ = result.focus();
        }
    });
    let rule_ids: Vec<&'static str> = {
        let mut ids: Vec<&'static str> = it.key().rules.iter().map(|r| r.id).collect();
        ids.dedup();
        ids
    };
    let result = move || {
        grade.get().map(|g| {
            let verdict = match (g.correct, g.located) {
                (true, Some(true)) => "Right, and you found what is wrong.".to_string(),
                (true, _) => "Right.".to_string(),
                (false, Some(false)) => "It is invalid, yes, but not for that reason.".to_string(),
                (false, _) => format!("Not quite: it is {}.", g.expected.as_str()),
            };
            let refs = rule_ids
                .iter()
                .map(|id| view! { " " <a href=format!("#/reference/{id}")>{*id}</a> })
                .collect_view();
            view! {
                <div
                    class=if g.correct { "quiz-result right" } else { "quiz-result wrong" }
                    data-testid="quiz-result"
                    data-correct=if g.correct { "true" } else { "false" }
                    data-expected=g.expected.as_str()
                    role="status"
                    tabindex="-1"
                    node_ref=result_ref
                >
                    <p class="verdict"><strong>{verdict}</strong></p>
                    <p data-testid="quiz-answered">{said.get_untracked()}</p>
                    <p data-testid="quiz-explanation">{g.explanation.clone()}</p>
                    {(!rule_ids.is_empty()).then(|| view! { <p data-testid="quiz-refs">"In the reference:"{refs}</p> })}
                </div>
            }
        })
    };
    let share = share.then(|| {
        let href = Route::Quiz(QuizRoute::Item(it.id.clone())).fragment();
        view! { <p><a data-testid="quiz-share" href=href>"Link to this question"</a></p> }
    });
    view! {
        <div class="quiz-item" data-item=it.id.clone() data-q=qs tabindex="-1">
            <p class="profile-note">{format!("Checked as {}. What is it?", it.profile)}</p>
            <pre class="quiz-message" data-testid="quiz-message" data-q=qs title="Click the part you think is wrong" on:click=on_pick>
                {runs}
            </pre>
            {pointed}
            <label class="point-pick">
                "Or choose the wrong part: "
                <select
                    data-testid="quiz-point"
                    data-q=qs
                    disabled=done
                    prop:value=move || click.get().map(|at| item.with_value(|it| quiz::pointed_at(&it.text, at).start.to_string())).unwrap_or_default()
                    on:change=on_point
                >
                    <option value="">"— pick a part —"</option>
                    {parts}
                </select>
            </label>
            <label class="rule-pick">
                "If invalid, which rule? (optional; or click the wrong part above) "
                <select
                    data-testid="quiz-rule"
                    data-q=qs
                    disabled=done
                    prop:value=move || rule.get()
                    on:change=move |ev| rule.set(event_target_value(&ev))
                >
                    <option value="">"— pick a rule —"</option>
                    {options}
                </select>
            </label>
            <div class="answers" role="group" aria-label="Your answer">{choices}</div>
            {result}
            {share}
        </div>
    }
}

/// What a click at `at` points at, in the message's own words (the member there, at most 60
/// characters).
fn pointed_text(text: &str, at: usize) -> String {
    let span = quiz::pointed_at(text, at);
    let said = text.get(span.start..span.end).unwrap_or_default();
    let mut short: String = said.chars().take(60).collect();
    if short.len() < said.len() {
        short.push('…');
    }
    short
}

/// A click in a question's message `pre`: where the caret went, as a byte offset of `text`.
fn picked(pre: &web_sys::Element, text: &str) -> Option<usize> {
    let sel = get_selection()?;
    let node = sel.anchor_node()?;
    if !node.parent_node().is_some_and(|p| pre.contains(Some(&p))) {
        return None;
    }
    // The offset counts within the anchor's text run: add the runs before it.
    let mut before = 0u32;
    let mut run = node.parent_node().and_then(|p| p.previous_sibling());
    while let Some(r) = run {
        before += r
            .text_content()
            .map_or(0, |t| t.encode_utf16().count() as u32);
        run = r.previous_sibling();
    }
    Some(crate::ui::js::utf16_to_byte(
        text,
        before + sel.anchor_offset(),
    ))
}
