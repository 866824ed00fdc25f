//! The lessons (`data-testid="lesson"`): the engine's six-step path, each step with its example,
//! run against a fresh in-browser mock server (or opened in the playground), and one question.

use super::open_in_playground;
use super::quiz::{Question, Slot};
use crate::mock::MockServer;
use crate::teach::lessons::LESSONS;
use crate::teach::quiz;
use crate::teach::route::Route;
use crate::ui::prelude::*;
use crate::ui::AppState;

/// The list (`None`) or one lesson (0-based).
#[component]
pub(super) fn Lessons(app: AppState, index: Option<usize>) -> impl IntoView {
    let Some((i, l)) = index.and_then(|i| LESSONS.get(i).map(|l| (i, l))) else {
        let items = LESSONS
            .iter()
            .enumerate()
            .map(|(i, l)| view! { <li><a data-testid="lesson-link" href=Route::Lessons(Some(i)).fragment()>{l.title}</a></li> })
            .collect_view();
        return view! {
            <section class="teach lessons" data-testid="lessons" aria-labelledby="lessons-title">
                <h2 id="lessons-title" tabindex="-1">"Lessons"</h2>
                <p>
                    "Six short steps from a first request to an MCP tool call, about fifteen minutes. Each has an example to run against the in-browser mock server and one question."
                </p>
                <ol>{items}</ol>
            </section>
        }
        .into_any();
    };
    // What the example exchanged with the mock server, once run.
    let runs = RwSignal::new(None::<Vec<(String, Option<String>)>>);
    let run = move |_| {
        let exchanges = MockServer::new().handle_stream(l.example.as_bytes());
        let exchanged = exchanges
            .into_iter()
            .map(|e| (l.example[e.span.start..e.span.end].to_string(), e.reply))
            .collect();
        runs.set(Some(exchanged));
    };
    let replies = move || {
        runs.get().map(|runs| {
            let rows = runs
                .into_iter()
                .map(|(sent, reply)| {
                    let back = match reply {
                        Some(r) => view! { <pre class="in" data-testid="lesson-reply">{format!("← {r}")}</pre> }.into_any(),
                        None => view! { <p class="none" data-testid="lesson-no-reply">"← no reply: nothing is returned for this message"</p> }.into_any(),
                    };
                    view! { <li><pre class="out">{format!("→ {sent}")}</pre>{back}</li> }
                })
                .collect_view();
            view! { <ol class="replies" data-testid="lesson-replies" aria-label="Exchanged with the mock server">{rows}</ol> }
        })
    };
    let question = quiz::item(l.question).map(|it| {
        let slot = Slot::new(it, false);
        view! { <Question q=0 asked=slot /> }
    });
    let prev = (i > 0).then(|| view! { <a data-testid="lesson-prev" href=Route::Lessons(Some(i - 1)).fragment()>"← Previous"</a> });
    let next = (i + 1 < LESSONS.len()).then(|| view! { <a data-testid="lesson-next" href=Route::Lessons(Some(i + 1)).fragment()>"Next step →"</a> });
    let text = l.text.iter().map(|p| view! { <p>{*p}</p> }).collect_view();
    view! {
        <article class="teach lesson" data-testid="lesson" data-lesson=l.id aria-labelledby="lesson-title">
            <p class="step">{format!("Step {} of {}", i + 1, LESSONS.len())}</p>
            <h2 id="lesson-title" tabindex="-1">{l.title}</h2>
            {text}
            <pre class="example" data-testid="lesson-example">{l.example}</pre>
            <div class="actions">
                <button type="button" data-testid="lesson-run" on:click=run>"Run against the mock server"</button>
                <button type="button" data-testid="lesson-open" on:click=move |_| open_in_playground(app, l.example, l.profile, l.title)>
                    "Open in the playground"
                </button>
            </div>
            {replies}
            <h3>"Your question"</h3>
            {question}
            <nav class="steps" aria-label="Lessons">
                {prev}
                <a href="#/lessons">"All lessons"</a>
                {next}
            </nav>
        </article>
    }
    .into_any()
}
