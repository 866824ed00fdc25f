//! The learner's way through the whole bank: one question at a time in a seed's order, the
//! score, Next and Start over, and a link to the set.

use crate::teach::progress::Progress;
use crate::teach::quiz;
use crate::teach::route::{QuizRoute, Route};
use crate::teach::text::Teaching;
use crate::web::kit::prelude::*;
use crate::web::views::page_handle::Page;
use crate::web::views::quiz::{load, new_seed, save, Question, Slot};

/// The learner's way through the whole bank, in the order of a seed (theirs, or a shared set's).
#[component]
pub(super) fn Series(page: Page, which: QuizRoute, text: &'static Teaching) -> impl IntoView {
    let n = quiz::bank(text).len();
    let mut start = load(page);
    if let QuizRoute::Set(seed) = which {
        if seed != start.seed {
            start = Progress::start(seed);
        }
    }
    let progress = RwSignal::new(start);
    let warned = StoredValue::new(false);
    save(start, page, warned);
    // The question changes with the place in the order, not with the score.
    let place = Memo::new(move |_| progress.with(|p| (p.pos, p.seed)));
    // The score counts a question's first answer ("Try again" and pointing after a right
    // "invalid" grade it again).
    let counted = StoredValue::new(None::<(usize, u64)>);
    let on_graded = Callback::new(move |correct: bool| {
        let here = place.get_untracked();
        if counted.get_value() == Some(here) {
            return;
        }
        counted.set_value(Some(here));
        progress.update(|p| p.record(correct));
        save(progress.get_untracked(), page, warned);
    });
    // The question shown (each new one takes this ref), focused after Next or Start over.
    let shown = NodeRef::<leptos::html::Div>::new();
    let question = move || {
        let (pos, seed) = place.get();
        let item = (pos < n)
            .then(|| quiz::bank(text).into_iter().nth(quiz::order(n, seed)[pos]))
            .flatten();
        match item {
            Some(item) => {
                let slot = Slot::new(item, true);
                view! { <Question q=0 asked=slot teaching=text on_graded node_ref=shown /> }.into_any()
            }
            None => view! { <p data-testid="quiz-done">{format!("You went through all {n} questions. Start over for a new order.")}</p> }.into_any(),
        }
    };
    let go = move |change: fn(&mut Progress)| {
        progress.update(change);
        save(progress.get_untracked(), page, warned);
        request_animation_frame(move || crate::web::kit::js::focus_node(shown));
    };
    let p = move || progress.get();
    view! {
        <div class="series">
            <p
                class="quiz-progress"
                data-testid="quiz-progress"
                data-pos=move || p().pos.to_string()
                data-right=move || p().right.to_string()
                data-answered=move || p().answered.to_string()
            >
                {move || format!("Question {} of {n} · {}", (p().pos + 1).min(n), p().score())}
            </p>
            {question}
            <div class="quiz-nav">
                <button type="button" data-testid="quiz-next" disabled=move || { p().pos >= n } on:click=move |_| go(|p| p.pos += 1)>
                    "Next question"
                </button>
                <button type="button" data-testid="quiz-restart" on:click=move |_| go(|p| *p = Progress::start(new_seed()))>
                    "Start over (new order)"
                </button>
                <a data-testid="quiz-set-link" href=move || Route::Quiz(QuizRoute::Set(p().seed)).fragment()>
                    "Link to this set"
                </a>
            </div>
        </div>
    }
}
