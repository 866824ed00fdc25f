//! The lessons (`data-testid="lesson"`): the engine's six-step path, each step with its example,
//! run against a fresh in-browser mock server (or opened in the playground), and one question.
//! A lesson whose question is answered right is finished; which are is kept in localStorage
//! (`jrpc.lessons`, [`crate::teach::progress::LessonProgress`]) and the list marks them.

use crate::exchange::{Direction, Status};
use crate::rpc::Kind;
use crate::teach::lessons::LESSONS;
use crate::teach::progress::LessonProgress;
use crate::teach::quiz;
use crate::teach::route::Route;
use crate::ui::exchange::{use_log, SequencePicture};
use crate::ui::prelude::*;
use crate::ui::quiz::{Question, Slot};
use crate::ui::{AppState, NoticeLevel};

/// localStorage: which lessons are finished.
const KEY: &str = "jrpc.lessons";

/// The saved lesson progress, or none finished (a damaged save is a notice, not a guess).
fn load(app: AppState) -> LessonProgress {
    match crate::ui::quiz::storage().map(|s| s.get_item(KEY)) {
        Some(Ok(Some(json))) => LessonProgress::from_json(&json).unwrap_or_else(|why| {
            app.notify(
                NoticeLevel::Error,
                format!("The saved lesson progress could not be read ({why}); no lesson is marked finished."),
            );
            LessonProgress::default()
        }),
        _ => LessonProgress::default(),
    }
}

/// Saves the lesson progress; a failure is a notice and touches nothing else.
fn save(p: &LessonProgress, app: AppState) {
    let outcome = crate::ui::quiz::storage()
        .ok_or_else(|| "no localStorage".to_string())
        .and_then(|s| {
            s.set_item(KEY, &p.to_json())
                .map_err(|e| crate::ui::js_error_text(&e))
        });
    if let Err(why) = outcome {
        app.notify(
            NoticeLevel::Error,
            format!(
                "Lesson progress is not being saved ({why}). Your editor text is not affected."
            ),
        );
    }
}

/// The list (`None`) or one lesson (0-based).
#[component]
pub(crate) fn Lessons(app: AppState, index: Option<usize>) -> impl IntoView {
    let progress = RwSignal::new(load(app));
    let Some((i, l)) = index.and_then(|i| LESSONS.get(i).map(|l| (i, l))) else {
        let p = progress.get_untracked();
        let items = LESSONS
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let done = p.is_done(l.id);
                let mark = done.then(|| view! { <span class="lesson-done-mark" aria-label="finished">" ✓"</span> });
                view! {
                    <li data-testid="lesson-item" data-done=done.to_string()>
                        <a data-testid="lesson-link" href=Route::Lessons(Some(i)).fragment()>{l.title}</a>
                        {mark}
                    </li>
                }
            })
            .collect_view();
        let finished = LESSONS.iter().filter(|l| p.is_done(l.id)).count();
        let next = LESSONS.iter().enumerate().find(|(_, l)| !p.is_done(l.id));
        let status = match (finished, next) {
            (0, _) => None,
            (_, Some((n, l))) => Some(view! {
                <p data-testid="lessons-progress">
                    {format!("{finished} of {} finished. ", LESSONS.len())}
                    <a data-testid="lesson-continue" href=Route::Lessons(Some(n)).fragment()>{format!("Continue with “{}”", l.title)}</a>
                </p>
            }.into_any()),
            (_, None) => Some(view! {
                <p data-testid="lessons-progress">{format!("All {} finished: try the quiz next.", LESSONS.len())}</p>
            }.into_any()),
        };
        return view! {
            <section class="teach lessons" data-testid="lessons" aria-labelledby="lessons-title">
                <h2 id="lessons-title" tabindex="-1">"Lessons"</h2>
                <p>
                    "Six short steps from a first request to an MCP tool call, about fifteen minutes. Each has an example to run against the in-browser mock server and one question."
                </p>
                {status}
                <ol>{items}</ol>
            </section>
        }
        .into_any();
    };
    // Run sends the example to the page's mock server through the page's one log: the exchange
    // is in the playground's log and sequence picture too. The keys this run added.
    let log = use_log();
    let run_keys = RwSignal::new(None::<std::ops::Range<u64>>);
    let run = move |_| {
        let before = log.log.with_untracked(|l| l.next_key());
        log.send_to_mock(l.example, l.profile);
        let after = log.log.with_untracked(|l| l.next_key());
        run_keys.set(Some(before..after));
    };
    // The server asked the client something: answer as a cooperative client would
    // (`crate::client`), and the run goes on with what follows.
    let answer = move |request: &str| {
        let Some(answer) = crate::client::reply_to(request) else {
            return;
        };
        log.send_to_mock(&answer, l.profile);
        let after = log.log.with_untracked(|l| l.next_key());
        run_keys.update(|keys| {
            if let Some(keys) = keys {
                keys.end = after;
            }
        });
    };
    let replies = move || {
        let keys = run_keys.get()?;
        // Each message sent, then what came back before the next one: what the server sent on
        // its own while it worked (log lines, progress, its own requests) and the reply, if any.
        let exchanged: Vec<Sent> = log.log.with(|lg| {
            let mut exchanged: Vec<Sent> = Vec::new();
            for e in lg.entries().iter().filter(|e| keys.contains(&e.key)) {
                match (e.direction, exchanged.last_mut()) {
                    (Direction::Out, _) => exchanged.push(Sent {
                        raw: e.raw.clone(),
                        request: e.kind == Kind::Request,
                        back: Vec::new(),
                    }),
                    (Direction::In, Some(Sent { back, .. })) => {
                        let waiting = e.msgs.first().is_some_and(|m| m.status == Status::Pending);
                        let what = match e.kind {
                            Kind::Request if waiting => Back::Asks,
                            Kind::Request | Kind::Notification => Back::Says,
                            // A response (or a batch of them, or what could not be read) answers.
                            _ => Back::Reply,
                        };
                        back.push((e.raw.clone(), what));
                    }
                    (Direction::In, None) => {}
                }
            }
            exchanged
        });
        let rows = exchanged
            .into_iter()
            .map(|Sent { raw: sent, request, back }| {
                let answered = back.iter().any(|(_, what)| *what == Back::Reply);
                let back = back
                    .into_iter()
                    .map(|(raw, what)| match what {
                        Back::Reply => view! { <pre class="in" data-testid="lesson-reply">{format!("← {raw}")}</pre> }.into_any(),
                        Back::Says => view! { <pre class="in server-message" data-testid="lesson-server-message">{format!("← (from the server while it works) {raw}")}</pre> }.into_any(),
                        Back::Asks => {
                            let text = format!("← (the server asks the client) {raw}");
                            view! {
                                <pre class="in server-message" data-testid="lesson-server-message">{text}</pre>
                                <button type="button" data-testid="lesson-answer" on:click=move |_| answer(&raw)>
                                    "Answer as the client"
                                </button>
                            }
                            .into_any()
                        }
                    })
                    .collect_view();
                let none = (!answered).then(|| {
                    let why = if request {
                        "← no reply yet: the call waits (for the client's answer), or it was cancelled"
                    } else {
                        "← no reply: nothing is returned for this message"
                    };
                    view! { <p class="none" data-testid="lesson-no-reply">{why}</p> }
                });
                view! { <li><pre class="out">{format!("→ {sent}")}</pre>{back}{none}</li> }
            })
            .collect_view();
        Some(view! {
            <section class="lesson-run" aria-label="The run">
                <ol class="replies" data-testid="lesson-replies" aria-label="Exchanged with the mock server">{rows}</ol>
                <p class="hint">
                    "The same messages are in the playground's log, and drawn here as in the playground: follow each request to its reply. "
                    <a href="#/">"Open the playground's log"</a>
                </p>
                <SequencePicture />
            </section>
        })
    };
    // Answered right: the lesson is finished (kept, and marked in the list).
    let on_graded = Callback::new(move |right: bool| {
        if right {
            let mut p = progress.get_untracked();
            if p.finish(l.id) {
                save(&p, app);
                progress.set(p);
            }
        }
    });
    let question = quiz::item(l.question).map(|it| {
        let slot = Slot::new(it, false);
        view! { <Question q=0 asked=slot on_graded /> }
    });
    let finished = move || {
        progress.with(|p| p.is_done(l.id)).then(|| {
            view! { <p class="lesson-finished" data-testid="lesson-finished">"✓ Finished: this lesson's question was answered right."</p> }
        })
    };
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
                <button type="button" data-testid="lesson-open" on:click=move |_| app.open_in_playground(l.example, l.profile, l.title)>
                    "Open in the playground"
                </button>
            </div>
            {replies}
            <h3>"Your question"</h3>
            {question}
            {finished}
            <nav class="steps" aria-label="Lessons">
                {prev}
                <a href="#/lessons">"All lessons"</a>
                {next}
            </nav>
        </article>
    }
    .into_any()
}

/// A message the lesson sent, and what came back after it.
struct Sent {
    raw: String,
    /// It was a request (it waits for a reply).
    request: bool,
    back: Vec<(String, Back)>,
}

/// What came back after a message the lesson sent.
#[derive(Clone, Copy, PartialEq)]
enum Back {
    /// The reply to it.
    Reply,
    /// A notification, or a request of the server's already answered.
    Says,
    /// A request of the server's still waiting for the client's answer.
    Asks,
}
