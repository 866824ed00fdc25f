//! The quiz (`data-testid="quiz"`): one question at a time from the engine's bank, in a shuffled
//! order; the learner answers the kind (`quiz-answer`) and, when invalid, which rule (pick it) or
//! where (click the offending part of the message); the engine grades and explains
//! (`quiz-result`), pointing at the span. Progress and score persist in localStorage
//! (`jrpc.quiz`, [`crate::teach::progress`]); a storage problem is a notice and touches nothing
//! else (the editor's draft is saved apart). Links share one question or the whole set.

mod question;
mod series;

pub(crate) use question::{Question, Slot};

use web_sys::js_sys;

use crate::teach::progress::Progress;
use crate::teach::quiz;
use crate::teach::route::QuizRoute;
use crate::teach::text::Teaching;
use crate::web::kit::notice::NoticeLevel;
use crate::web::kit::prelude::*;
use crate::web::views::page_handle::Page;
use series::Series;

/// localStorage: the quiz's progress.
const KEY: &str = "jrpc.quiz";

fn new_seed() -> u64 {
    (js_sys::Math::random() * 4_294_967_296.0) as u64 + 1
}

/// The saved progress, or a fresh start (a damaged save is a notice, not a guess).
fn load(page: Page) -> Progress {
    match crate::web::kit::storage::load(KEY) {
        Ok(Some(json)) => Progress::from_json(&json).unwrap_or_else(|why| {
            page.notify(
                NoticeLevel::Error,
                format!("The saved quiz progress could not be read ({why}); the quiz starts over."),
            );
            Progress::start(new_seed())
        }),
        _ => Progress::start(new_seed()),
    }
}

/// Saves the series' progress; a failure is reported once (`warned`) and touches nothing else.
fn save(p: Progress, page: Page, warned: StoredValue<bool>) {
    let outcome = crate::web::kit::storage::save(KEY, Some(&p.to_json()));
    if let Err(why) = outcome {
        if !warned.get_value() {
            warned.set_value(true);
            page.notify(
                NoticeLevel::Error,
                format!(
                    "Quiz progress is not being saved ({why}). Your editor text is not affected."
                ),
            );
        }
    }
}

/// The quiz view for a route; its bank is built from `text` (the rules' examples, fetched on the
/// first open: crate::web::kit::teaching).
#[component]
pub(crate) fn Quiz(page: Page, which: QuizRoute, text: &'static Teaching) -> impl IntoView {
    let body = match which {
        QuizRoute::Item(id) => match quiz::item(&id, text) {
            Some(it) => {
                let slot = Slot::new(it, true);
                view! {
                    <p>"A shared question. "<a href="#/quiz">"Your own quiz"</a>" keeps its place and score."</p>
                    <Question q=0 asked=slot teaching=text />
                }
                .into_any()
            }
            None => view! {
                <p role="alert" data-testid="quiz-missing">
                    {format!("There is no question \"{id}\" in this quiz (the link may be from another version). ")}
                    <a href="#/quiz">"Go to the quiz"</a>
                </p>
            }
            .into_any(),
        },
        QuizRoute::Mine | QuizRoute::Set(_) => view! { <Series page which text /> }.into_any(),
    };
    // "Is this right?": the learner's own message, graded like a bank item.
    let own_text = RwSignal::new(String::new());
    let own = RwSignal::new(None::<Slot>);
    let own_item = NodeRef::<leptos::html::Div>::new();
    let check_own = move |_| {
        let item = quiz::custom(&own_text.get_untracked(), page.profile.get_untracked());
        own.set(Some(Slot::new(item, false)));
        request_animation_frame(move || crate::web::kit::js::focus_node(own_item));
    };
    view! {
        <section class="teach quiz" data-testid="quiz" aria-labelledby="quiz-title">
            <h2 id="quiz-title" tabindex="-1">"Quiz"</h2>
            {body}
            <section class="own" aria-labelledby="own-title">
                <h3 id="own-title">"Is this right?"</h3>
                <p>"Write a message of your own, then say what you think it is. It is checked with the playground's profile."</p>
                <textarea data-testid="quiz-own" aria-label="Your message" rows="4" spellcheck="false" bind:value=own_text></textarea>
                <button type="button" data-testid="quiz-own-check" on:click=check_own>"Is this right?"</button>
                {move || own.get().map(|slot| view! { <Question q=1 asked=slot teaching=text node_ref=own_item /> }.into_any())}
            </section>
        </section>
    }
}
