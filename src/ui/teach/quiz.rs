//! The quiz (`data-testid="quiz"`): one question at a time from the engine's bank, in a shuffled
//! order; the learner answers the kind (`quiz-answer`) and, when invalid, which rule (pick it) or
//! where (click the offending part of the message); the engine grades and explains
//! (`quiz-result`), pointing at the span. Progress and score persist in localStorage
//! (`jrpc.quiz`, [`crate::teach::progress`]); a storage problem is a notice and touches nothing
//! else (the editor's draft is saved apart). Links share one question or the whole set.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::js_sys;

use crate::json::Span;
use crate::rpc::{catalogue, Profile, Scope};
use crate::teach::progress::Progress;
use crate::teach::quiz::{self, Answer, Choice, Grade, Item};
use crate::teach::route::{QuizRoute, Route};
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

fn profile_name(p: Profile) -> String {
    match p {
        Profile::JsonRpc => "JSON-RPC 2.0".into(),
        Profile::Mcp(v) => format!("MCP {v}"),
    }
}

/// `text` cut into runs, those inside `spans` marked (an empty span marks the character after it).
fn marked(text: &str, spans: &[Span]) -> Vec<(String, bool)> {
    let mut hit = vec![false; text.len()];
    for s in spans {
        let start = s.start.min(text.len());
        let mut end = s.end.clamp(start, text.len());
        if start == end {
            end = text[start..].chars().next().map_or(end, |c| end + c.len_utf8());
        }
        hit[start..end].iter_mut().for_each(|h| *h = true);
    }
    let mut out: Vec<(String, bool)> = Vec::new();
    for (i, c) in text.char_indices() {
        match out.last_mut() {
            Some((run, m)) if *m == hit[i] => run.push(c),
            _ => out.push((c.to_string(), hit[i])),
        }
    }
    out
}

/// One question, graded by the engine. `on_graded` hears whether the answer was right; `share`
/// adds a link to this question.
pub(super) fn question(item: Item, on_graded: Option<Callback<bool>>, share: bool) -> AnyView {
    let click = RwSignal::new(None::<usize>);
    let rule = RwSignal::new(String::new());
    let graded = RwSignal::new(None::<Grade>);
    let mcp = matches!(item.profile, Profile::Mcp(_));
    let note = format!("Checked as {}. What is it?", profile_name(item.profile));
    let share = share.then(|| Route::Quiz(QuizRoute::Item(item.id.clone())).fragment());
    let id = item.id.clone();
    let item = StoredValue::new(item);

    // Where the click put the caret, as a byte offset of the message (its one text run until graded).
    let pick = move |ev: leptos::ev::MouseEvent| {
        if graded.with_untracked(Option::is_some) {
            return;
        }
        let Some(pre) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Node>().ok()) else { return };
        let Some(sel) = get_selection() else { return };
        let parent = sel.anchor_node().and_then(|n| n.parent_node());
        let on_text = parent.is_some_and(|p| p.is_same_node(Some(&pre)) || p.parent_node().is_some_and(|pp| pp.is_same_node(Some(&pre))));
        if on_text {
            click.set(Some(item.with_value(|it| super::super::editor::utf16_to_byte(&it.text, sel.anchor_offset()))));
        }
    };
    let answer = move |choice: Choice| {
        let invalid = choice == Choice::Invalid;
        let rule = rule.get_untracked();
        let a = Answer {
            choice: Some(choice),
            rule: (invalid && !rule.is_empty()).then_some(rule),
            click: if invalid { click.get_untracked() } else { None },
        };
        let g = item.with_value(|it| quiz::grade(it, &a));
        if let Some(cb) = on_graded {
            cb.run(g.correct);
        }
        graded.set(Some(g));
    };
    let pointed = move || {
        click.get().map(|at| {
            let near: String = item.with_value(|it| it.text[at..].chars().take(16).collect());
            view! { <p class="pointed" data-testid="quiz-pointed">"You point at: " <code>{near}</code></p> }
        })
    };
    // One coarse view, built again only when the answer is graded.
    let body = move || {
        let g = graded.get();
        let done = g.is_some();
        let runs = item
            .with_value(|it| marked(&it.text, g.as_ref().map_or(&[][..], |g| &g.spans)))
            .into_iter()
            .map(|(s, m)| view! { <span class=m.then_some("hit") data-testid=m.then_some("quiz-span")>{s}</span> })
            .collect_view();
        let rules = catalogue::all()
            .filter(|r| r.scope == Scope::JsonRpc || mcp)
            .map(|r| view! { <option value=r.id title=r.summary>{r.id}</option> })
            .collect_view();
        let choices = item
            .with_value(Item::choices)
            .iter()
            .map(|&c| view! { <button type="button" data-testid="quiz-answer" data-answer=c.as_str() disabled=done on:click=move |_| answer(c)>{c.as_str()}</button> })
            .collect_view();
        let result = g.map(|g| {
            let verdict = match (g.correct, g.located) {
                (true, Some(true)) => "Right, and you found what is wrong.".to_string(),
                (true, _) => "Right.".to_string(),
                (false, Some(false)) => "It is invalid, yes, but not for that reason.".to_string(),
                (false, _) => format!("Not quite: it is {}.", g.expected.as_str()),
            };
            let mut ids: Vec<&'static str> = item.with_value(|it| it.key().rules.iter().map(|r| r.id).collect());
            ids.dedup();
            let links = ids.into_iter().map(|id| view! { " " <a href=format!("#/reference/{id}")>{id}</a> }).collect_view();
            view! {
                <div class=if g.correct { "quiz-result right" } else { "quiz-result wrong" } data-testid="quiz-result" data-correct=g.correct.to_string() data-expected=g.expected.as_str() role="status">
                    <p class="verdict"><strong>{verdict}</strong></p>
                    <p data-testid="quiz-explanation">{g.explanation}</p>
                    <p>"In the reference:" {links}</p>
                </div>
            }
        });
        view! {
            <pre class="quiz-message" data-testid="quiz-message" title="Click the part you think is wrong" on:click=pick>{runs}</pre>
            {pointed}
            <label class="rule-pick">
                "If invalid, which rule? (optional; or click the wrong part above) "
                <select data-testid="quiz-rule" disabled=done prop:value=rule.get_untracked() on:change:target=move |ev| rule.set(ev.target().value())>
                    <option value="">"— pick a rule —"</option>
                    {rules}
                </select>
            </label>
            <div class="answers" role="group" aria-label="Your answer">{choices}</div>
            {result}
        }
    };
    view! {
        <div class="quiz-item" data-item=id>
            <p class="profile-note">{note}</p>
            {body}
            {share.map(|href| view! { <p><a data-testid="quiz-share" href=href>"Link to this question"</a></p> })}
        </div>
    }
    .into_any()
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
            app.notify(NoticeLevel::Error, format!("The saved quiz progress could not be read ({why}); the quiz starts over."));
            Progress::start(new_seed())
        }),
        _ => Progress::start(new_seed()),
    }
}

/// The quiz view for a route.
pub fn quiz(app: AppState, which: QuizRoute) -> AnyView {
    let body = match which {
        QuizRoute::Item(id) => match quiz::item(&id) {
            Some(it) => view! {
                <p>"A shared question. " <a href="#/quiz">"Your own quiz"</a> " keeps its place and score."</p>
                {question(it, None, true)}
            }
            .into_any(),
            None => view! {
                <p role="alert" data-testid="quiz-missing">
                    "There is no question \"" {id} "\" in this quiz (the link may be from another version). "
                    <a href="#/quiz">"Go to the quiz"</a>
                </p>
            }
            .into_any(),
        },
        QuizRoute::Mine => series(app, None),
        QuizRoute::Set(seed) => series(app, Some(seed)),
    };
    view! {
        <section class="teach quiz" data-testid="quiz" aria-labelledby="quiz-title">
            <h2 id="quiz-title">"Quiz"</h2>
            {body}
            {own(app)}
        </section>
    }
    .into_any()
}

/// The learner's way through the whole bank, in the order of a seed (theirs, or a shared set's).
fn series(app: AppState, shared: Option<u64>) -> AnyView {
    let bank = StoredValue::new(quiz::bank());
    let n = bank.with_value(Vec::len);
    let mut p = load(app);
    if let Some(seed) = shared.filter(|&s| s != p.seed) {
        p = Progress::start(seed);
    }
    let seed = RwSignal::new(p.seed);
    let pos = RwSignal::new(p.pos);
    let score = RwSignal::new((p.right, p.answered));
    let warned = StoredValue::new(false);
    let save = move || {
        let (right, answered) = score.get_untracked();
        let p = Progress { seed: seed.get_untracked(), pos: pos.get_untracked(), right, answered };
        let outcome = storage().ok_or_else(|| "no localStorage".to_string()).and_then(|s| {
            s.set_item(KEY, &p.to_json()).map_err(|e| e.as_string().unwrap_or_else(|| "storage refused it".into()))
        });
        if let Err(why) = outcome {
            if !warned.get_value() {
                warned.set_value(true);
                app.notify(NoticeLevel::Error, format!("Quiz progress is not being saved ({why}). Your editor text is not affected."));
            }
        }
    };
    save();
    let graded = Callback::new(move |correct: bool| {
        score.update(|(r, a)| {
            *a += 1;
            *r += u32::from(correct);
        });
        save();
    });
    let next = move |_| {
        pos.update(|p| *p += 1);
        save();
    };
    let restart = move |_| {
        seed.set(new_seed());
        pos.set(0);
        score.set((0, 0));
        save();
    };
    let head = move || {
        let (p, (right, answered)) = (pos.get(), score.get());
        view! {
            <p class="quiz-progress" data-testid="quiz-progress" data-pos=p data-right=right data-answered=answered>
                {format!("Question {} of {n} · {right} / {answered} right", (p + 1).min(n))}
            </p>
        }
    };
    let current = move || {
        let (p, s) = (pos.get(), seed.get());
        let at_end = p >= n;
        let shown = if at_end {
            view! { <p data-testid="quiz-done">"You went through all " {n} " questions. Start over for a new order."</p> }.into_any()
        } else {
            question(bank.with_value(|b| b[quiz::order(n, s)[p]].clone()), Some(graded), true)
        };
        view! {
            {shown}
            <div class="quiz-nav">
                <button type="button" data-testid="quiz-next" on:click=next disabled=at_end>"Next question"</button>
                <button type="button" data-testid="quiz-restart" on:click=restart>"Start over (new order)"</button>
                <a data-testid="quiz-set-link" href=Route::Quiz(QuizRoute::Set(s)).fragment()>"Link to this set"</a>
            </div>
        }
    };
    view! {
        {head}
        {current}
    }
    .into_any()
}

/// "Is this right?": the learner's own message, graded like a bank item under the playground's profile.
fn own(app: AppState) -> AnyView {
    let draft = RwSignal::new(String::new());
    let asked = RwSignal::new(None::<Item>);
    let ask = move |_| asked.set(Some(quiz::custom(&draft.get_untracked(), app.profile.get_untracked())));
    view! {
        <section class="own" aria-labelledby="own-title">
            <h3 id="own-title">"Is this right?"</h3>
            <p>"Write a message of your own, then say what you think it is. It is checked with the playground's profile."</p>
            <textarea data-testid="quiz-own" aria-label="Your message" rows="4" spellcheck="false" on:input:target=move |ev| draft.set(ev.target().value())></textarea>
            <button type="button" data-testid="quiz-own-check" on:click=ask>"Is this right?"</button>
            {move || asked.get().map(|it| question(it, None, false))}
        </section>
    }
    .into_any()
}
