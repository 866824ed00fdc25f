//! One question of the quiz (`.quiz-item`): the message to click in, the
//! keyboard way to point at a part, the rule picker, the answers and, once answered, the engine's
//! grade and explanation. The lessons ask their questions with it too.

use wasm_bindgen::prelude::*;

use crate::rpc::{catalogue, Profile, Scope};
use crate::teach::quiz::{self, Answer, Choice, Grade, Item};
use crate::teach::route::{QuizRoute, Route};
use crate::teach::text::Teaching;
use crate::web::kit::prelude::*;

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
    // Where a tap or click landed in the text (a tap puts no caret in text that is not
    // editable). Chromium and Safari; elsewhere it throws and the selection is read instead.
    type CaretRange;
    #[wasm_bindgen(catch, js_namespace = document, js_name = caretRangeFromPoint)]
    fn caret_range_from_point(x: f64, y: f64) -> Result<Option<CaretRange>, JsValue>;
    #[wasm_bindgen(method, getter, js_name = startContainer)]
    fn start_container(this: &CaretRange) -> Option<web_sys::Node>;
    #[wasm_bindgen(method, getter, js_name = startOffset)]
    fn start_offset(this: &CaretRange) -> u32;
}

/// One question on the page: the item, what the learner pointed at or picked, the grade.
#[derive(Clone, Copy)]
pub(crate) struct Slot {
    item: StoredValue<Item>,
    click: RwSignal<Option<usize>>,
    rule: RwSignal<String>,
    grade: RwSignal<Option<Grade>>,
    /// "Try again" pressed: the last grade stays shown, the answers are open again.
    retrying: RwSignal<bool>,
    /// Shows a link to this question.
    share: bool,
    /// The rules the picker offers (a lesson's: those taught so far); `None`: every rule.
    rules: Option<StoredValue<Vec<&'static str>>>,
}

impl Slot {
    pub fn new(item: Item, share: bool) -> Slot {
        Slot {
            item: StoredValue::new(item),
            click: RwSignal::new(None),
            rule: RwSignal::new(String::new()),
            grade: RwSignal::new(None),
            retrying: RwSignal::new(false),
            share,
            rules: None,
        }
    }

    /// The rule picker offers only `rules` (a lesson's question: the rules taught so far).
    pub fn with_rules(mut self, rules: Vec<&'static str>) -> Slot {
        self.rules = Some(StoredValue::new(rules));
        self
    }
}

/// One question (slot `q`: 0 the view's question, 1 the learner's own message): the message, the
/// rule picker, the answers and, once answered, the grade. `on_graded` hears whether the answer
/// was right (the series counts it).
#[component]
pub(crate) fn Question(
    q: usize,
    asked: Slot,
    /// The teaching text: the rules' requirements in words, for the rule picker and the grade.
    teaching: &'static Teaching,
    #[prop(optional)] on_graded: Option<Callback<bool>>,
    /// Takes the question's element (to focus it).
    #[prop(optional)]
    node_ref: NodeRef<leptos::html::Div>,
) -> impl IntoView {
    let qs = if q == 1 { "1" } else { "0" };
    let Slot {
        item,
        click,
        rule,
        grade,
        retrying,
        share,
        rules,
    } = asked;
    let it = item.get_value();
    // Answered, and "Try again" not pressed: the answers are closed.
    let done = move || grade.with(Option::is_some) && !retrying.get();
    // Rightly answered invalid without saying where: pointing is the next step, still open.
    let locate_next = move || {
        grade.with(|g| {
            g.as_ref()
                .is_some_and(|g| g.correct && g.expected == Choice::Invalid && g.located.is_none())
        })
    };
    let point_closed = move || done() && !locate_next();
    let text = it.text.clone();
    let runs = move || {
        grade.with(|g| {
            quiz::marked(&text, g.as_ref().map_or(&[][..], |g| &g.spans))
                .into_iter()
                // One span type for both (a type per branch costs wasm): a hit is marked.
                .map(|(s, hit)| {
                    view! {
                        <span class=hit.then_some("hit") data-testid=hit.then_some("quiz-span")>
                            {s.to_string()}
                        </span>
                    }
                })
                .collect_view()
                .into_any()
        })
    };
    let pointed = move || {
        click.get().map(|at| {
            let near = item.with_value(|it| pointed_text(&it.text, at));
            view! { <p class="pointed" data-testid="quiz-pointed">"You point at: "<code>{near}</code></p> }
                .into_any()
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
    let mcp = matches!(it.profile, Profile::Mcp(_));
    let options = catalogue::all()
        .filter(|r| r.scope == Scope::JsonRpc || mcp)
        .filter(|r| rules.is_none_or(|taught| taught.with_value(|t| t.contains(&r.id))))
        // Its severity, the requirement in words, the id after it: ~50 bare ids said nothing to
        // a learner, and a SHOULD broken leaves the message valid.
        .map(|r| {
            let sev = r.severity.keyword();
            view! { <option value=r.id title=r.id>{format!("{sev}: {} ({})", teaching.summary(r.id), r.id)}</option> }
        })
        .collect_view();
    let said = RwSignal::new(String::new());
    let answer = move |choice: Choice| {
        if grade.with_untracked(Option::is_some) && !retrying.get_untracked() {
            return;
        }
        retrying.set(false);
        let invalid = choice == Choice::Invalid;
        let a = Answer {
            choice: Some(choice),
            rule: rule.with_untracked(|r| (invalid && !r.is_empty()).then(|| r.clone())),
            click: if invalid { click.get_untracked() } else { None },
        };
        let g = item.with_value(|it| quiz::grade(it, &a, teaching));
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
    // Pointing after a right "invalid": graded again with the place (the lesson already counts).
    let regrade_located = move || {
        if locate_next() {
            retrying.set(true);
            answer(Choice::Invalid);
        }
    };
    let on_pick = move |ev: leptos::ev::MouseEvent| {
        let Some(pre) = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        if !point_closed() {
            let point = (f64::from(ev.client_x()), f64::from(ev.client_y()));
            if let Some(at) = picked(&pre, &item.with_value(|it| it.text.clone()), point) {
                click.set(Some(at));
                regrade_located();
            }
        }
    };
    let on_point = move |ev: leptos::ev::Event| {
        if let Ok(at) = event_target_value(&ev).parse::<usize>() {
            click.set(Some(at));
            regrade_located();
        }
    };
    let choices_view = it
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
            let mut verdict = g.verdict();
            if g.correct && g.expected == Choice::Invalid && g.located.is_none() {
                verdict.push_str(" Now point at the wrong part: tap or click it in the message, or choose it below.");
            }
            let again = (!g.correct).then(|| {
                view! {
                    <button type="button" data-testid="quiz-retry" hidden=move || retrying.get() on:click=move |_| {
                        retrying.set(true);
                        click.set(None);
                        rule.set(String::new());
                    }>"Try again"</button>
                }
            });
            let refs = rule_ids
                .iter()
                .map(|id| view! { " " <a href=Route::Reference(Some(id.to_string())).fragment()>{*id}</a> })
                .collect_view();
            view! {
                <div
                    class=if g.correct { "quiz-result right" } else { "quiz-result wrong" }
                    data-testid="quiz-result"
                    data-correct=if g.correct { "true" } else { "false" }
                    data-noticed=g.noticed.map(|r| r.id)
                    data-expected=g.expected.as_str()
                    role="status"
                    tabindex="-1"
                    node_ref=result_ref
                >
                    <p class="verdict"><strong>{verdict}</strong></p>
                    <p data-testid="quiz-answered">{said.get_untracked()}</p>
                    <p data-testid="quiz-explanation">{g.explanation.clone()}</p>
                    {(!rule_ids.is_empty()).then(|| view! { <p data-testid="quiz-refs">"In the reference:"{refs}</p> })}
                    {again}
                </div>
            }
            .into_any()
        })
    };
    let share = share.then(|| {
        let href = Route::Quiz(QuizRoute::Item(it.share_id())).fragment();
        view! { <p><a data-testid="quiz-share" href=href>"Link to this question"</a></p> }
    });
    view! {
        <div class="quiz-item" data-item=it.share_id() data-q=qs tabindex="-1" node_ref=node_ref>
            // A transcript says its notation where it is asked.
            <p class="profile-note" data-testid=it.transcript.then_some("quiz-notation")>
                {format!(
                    "Checked as {}. {}What is it?",
                    it.profile,
                    if it.transcript { "A transcript: a line starting --> is what the client sends, <-- what the server sends back. " } else { "" },
                )}
            </p>
            <pre class="quiz-message" data-testid="quiz-message" data-q=qs title="Click the part you think is wrong" on:click=on_pick>
                {runs}
            </pre>
            <div class="answers" role="group" aria-label="Your answer">{choices_view}</div>
            <p class="point-step" data-testid="quiz-point-step">"Invalid? Point at the wrong part: tap it in the message, or choose it here. A broken MUST makes it invalid; a broken SHOULD leaves it valid."</p>
            {pointed}
            <label class="point-pick">
                "The wrong part: "
                <select
                    data-testid="quiz-point"
                    data-q=qs
                    disabled=point_closed
                    prop:value=move || click.get().map(|at| item.with_value(|it| quiz::pointed_at(&it.text, at).start.to_string())).unwrap_or_default()
                    on:change=on_point
                >
                    <option value="">"— pick a part —"</option>
                    {parts}
                </select>
            </label>
            <label class="rule-pick">
                "Or the rule it breaks: "
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
            {result}
            {share}
        </div>
    }
    .into_any()
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
fn picked(pre: &web_sys::Element, text: &str, (x, y): (f64, f64)) -> Option<usize> {
    let at_point = caret_range_from_point(x, y)
        .ok()
        .flatten()
        .and_then(|r| Some((r.start_container()?, r.start_offset())));
    let (node, offset) = match at_point {
        Some(found) => found,
        None => {
            let sel = get_selection()?;
            (sel.anchor_node()?, sel.anchor_offset())
        }
    };
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
    Some(crate::web::kit::js::utf16_to_byte(text, before + offset))
}
