//! The lessons (`data-testid="lesson"`): the engine's path, each step with its example, run
//! against a fresh in-browser mock server (a new session and picture on every run, in the views'
//! own mock worker: [`Page::send_in_lesson`]; the playground's log keeps a copy, its peer naming
//! the lesson), or opened in the playground, and
//! one question on what the lesson taught.
//! A lesson whose question is answered right is finished; which are is kept in localStorage
//! (`jrpc.lessons`, [`crate::teach::progress::LessonProgress`]) and the list marks them.

use crate::exchange::mock_worker::Record;
use crate::exchange::Log;
use crate::exchange::{Direction, RoundPart, Status};
use crate::rpc::Kind;
use crate::teach::lessons::{rules_taught, LESSONS};
use crate::teach::progress::LessonProgress;
use crate::teach::quiz;
use crate::teach::route::Route;
use crate::teach::text::Teaching;
use crate::web::kit::log_words::describe_at;
use crate::web::kit::log_words::MOCK_PEER;
use crate::web::kit::mock_client::append;
use crate::web::kit::notice::NoticeLevel;
use crate::web::kit::prelude::*;
use crate::web::views::page_handle::Page;
use crate::web::views::picture::SequencePicture;
use crate::web::views::quiz::{Question, Slot};

/// localStorage: which lessons are finished.
const KEY: &str = "jrpc.lessons";

/// The saved lesson progress, or none finished (a damaged save is a notice, not a guess).
fn load(page: Page) -> LessonProgress {
    match crate::web::kit::storage::load(KEY) {
        Ok(Some(json)) => LessonProgress::from_json(&json).unwrap_or_else(|why| {
            page.notify(
                NoticeLevel::Error,
                format!("The saved lesson progress could not be read ({why}); no lesson is marked finished."),
            );
            LessonProgress::default()
        }),
        _ => LessonProgress::default(),
    }
}

/// Saves the lesson progress; a failure is a notice and touches nothing else.
fn save(p: &LessonProgress, page: Page) {
    let outcome = crate::web::kit::storage::save(KEY, Some(&p.to_json()));
    if let Err(why) = outcome {
        page.notify(
            NoticeLevel::Error,
            format!(
                "Lesson progress is not being saved ({why}). Your editor text is not affected."
            ),
        );
    }
}

/// The list (`None`, or an index past the last lesson) or one lesson (0-based), with its `text`
/// (fetched on the first open: crate::web::kit::teaching).
#[component]
pub(crate) fn Lessons(page: Page, index: Option<usize>, text: &'static Teaching) -> impl IntoView {
    match index.and_then(|i| LESSONS.get(i).map(|lesson| (i, lesson))) {
        Some((i, lesson)) => view! { <Lesson page i lesson text /> }.into_any(),
        None => view! { <LessonList page /> }.into_any(),
    }
}

/// Every lesson, each marked when finished, and where to continue.
#[component]
fn LessonList(page: Page) -> impl IntoView {
    let p = load(page);
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
    // One paragraph type whether a lesson is left or not (a type per arm costs wasm).
    let status = (finished > 0).then(|| {
        let said = match next {
            Some(_) => format!("{finished} of {} finished. ", LESSONS.len()),
            None => format!("All {} finished: try the quiz next.", LESSONS.len()),
        };
        let go = next.map(|(n, l)| {
            view! {
                <a data-testid="lesson-continue" href=Route::Lessons(Some(n)).fragment()>{format!("Continue with “{}”", l.title)}</a>
            }
        });
        view! { <p data-testid="lessons-progress">{said}{go}</p> }
    });
    view! {
        <section class="teach lessons" data-testid="lessons" aria-labelledby="lessons-title">
            <h2 id="lessons-title" tabindex="-1">"Lessons"</h2>
            <p data-testid="lessons-intro">
                {format!("For anyone who knows JSON and has never read JSON-RPC or MCP: {} short steps, about 40 minutes, from a first request to the Model Context Protocol (MCP: how AI applications talk to tools and data servers, over JSON-RPC). Each has an example to run against a mock server in this page and one question on what it taught.", LESSONS.len())}
            </p>
            {status}
            <ol>{items}</ol>
        </section>
    }
}

/// One lesson (`lesson`, `LESSONS[i]`): its text and example, its runs against a mock server of
/// its own, its question, and the way to the previous and next one.
#[component]
fn Lesson(
    page: Page,
    i: usize,
    lesson: &'static crate::teach::lessons::Lesson,
    text: &'static Teaching,
) -> impl IntoView {
    let l = lesson;
    // Its paragraphs and example (the file has every lesson's: `Teaching::from_json`).
    let said = text.lesson(l.id);
    let example: &'static str = said.map_or("", |t| &t.example);
    let progress = RwSignal::new(load(page));
    // Run sends the example to a mock server of the lesson's own, started afresh on every run
    // (a new MCP session: its ids restart, and the picture shows this run only). The playground's
    // log keeps a copy, under a peer that names the lesson and the run.
    let pending_ref = NodeRef::<leptos::html::Button>::new();
    let run_ref = NodeRef::<leptos::html::Section>::new();
    let lesson_run = LessonRun {
        lesson: i,
        page,
        fresh: StoredValue::new(true),
        local: RwSignal::new(None),
        runs: StoredValue::new(0),
        copied: StoredValue::new(0),
        pending_ref,
        run_ref,
    };
    let local = lesson_run.local;
    let runs = lesson_run.runs;
    let run = move |_| {
        lesson_run.fresh.set_value(true);
        runs.update_value(|n| *n += 1);
        lesson_run.copied.set_value(0);
        local.set(Some(RwSignal::new(Log::new())));
        lesson_run.send(example, l.profile);
    };
    // The server asked the client something: answer as a cooperative client would
    // (`crate::client`), and the run goes on with what follows.
    let answer = move |request: &str| {
        if let Some(answer) = crate::client::reply_to(request) {
            lesson_run.send(&answer, l.profile);
        }
    };
    // The server answered with an input-required result: answer what it asks as a cooperative
    // client would and retry the request (`Log::retry_for`), and the run goes on.
    let retry = move |run_log: RwSignal<Log>, key: u64| {
        if let Ok(retry) = run_log.with_untracked(|lg| lg.retry_for(key)) {
            lesson_run.send(&retry, l.profile);
        }
    };
    let replies = move || {
        let run_log = local.get()?;
        // Each message sent, then what came back before the next one: what the server sent on
        // its own while it worked (log lines, progress, its own requests) and the reply, if any.
        // The server's requests it cancelled (notifications/cancelled names them): no answer may
        // be sent to one.
        let cancelled: Vec<String> = run_log.with(|lg| {
            lg.entries()
                .iter()
                .filter(|e| {
                    e.direction == Direction::In && e.raw.contains("notifications/cancelled")
                })
                .filter_map(|e| cancelled_id(&e.raw))
                .collect()
        });
        let exchanged: Vec<Sent> = run_log.with(|lg| {
            let mut exchanged: Vec<Sent> = Vec::new();
            for e in lg.entries().iter() {
                match (e.direction, exchanged.last_mut()) {
                    (Direction::Out, _) => exchanged.push(Sent {
                        said: Said::of(e),
                        request: e.kind == Kind::Request,
                        back: Vec::new(),
                    }),
                    (Direction::In, Some(Sent { back, .. })) => {
                        let waiting = e.msgs.first().is_some_and(|m| m.status == Status::Pending);
                        let withdrawn = e
                            .msgs
                            .first()
                            .and_then(|m| m.id.as_deref())
                            .is_some_and(|id| cancelled.iter().any(|c| c == id));
                        let what = match e.kind {
                            Kind::Request if waiting && withdrawn => Back::Cancelled,
                            Kind::Request if waiting => Back::Asks,
                            Kind::Request | Kind::Notification => Back::Says,
                            // A response (or a batch of them, or what could not be read) answers.
                            _ => Back::Reply,
                        };
                        // An input-required result not yet retried: the learner answers it.
                        let round = matches!(
                            e.round,
                            Some(RoundPart::Asks {
                                retried_by: None,
                                ..
                            })
                        )
                        .then_some(e.key);
                        back.push((Said::of(e), what, round));
                    }
                    (Direction::In, None) => {}
                }
            }
            exchanged
        });
        let all_sent: Vec<String> = exchanged.iter().map(|s| s.said.raw.clone()).collect();
        let rows = exchanged
            .into_iter()
            .map(|Sent { said: sent, request, back }| {
                let answered = back.iter().any(|(_, what, _)| *what == Back::Reply);
                let back = back
                    .into_iter()
                    .map(|(said, what, round)| {
                        // One shape for every message back (a type per arm costs wasm): the
                        // message, then the note or the button its kind calls for.
                        let (testid, note) = match what {
                            Back::Reply => ("lesson-reply", ""),
                            Back::Says => ("lesson-server-message", "(from the server while it works) "),
                            Back::Asks => ("lesson-server-message", "(the server asks the client) "),
                            Back::Cancelled => ("lesson-server-message", "(the server asked the client) "),
                        };
                        let class = if what == Back::Reply { "msg in" } else { "msg in server-message" };
                        let cancelled = (what == Back::Cancelled).then_some(
                            "The server cancelled this request (notifications/cancelled, below): the client sends no reply to it, not even an error.",
                        );
                        let asks = what == Back::Asks;
                        let raw = said.raw.clone();
                        view! {
                            {said.view(class, testid, note)}
                            {cancelled.map(|note| view! { <p class="none" data-testid="lesson-cancelled">{note}</p> })}
                            {asks.then(|| view! {
                                <button type="button" data-testid="lesson-answer" node_ref=pending_ref on:click=move |_| answer(&raw)>
                                    "Answer as the client"
                                </button>
                            })}
                            {round.map(|key| view! {
                                <button type="button" data-testid="lesson-retry" node_ref=pending_ref on:click=move |_| retry(run_log, key)>
                                    "Answer and retry"
                                </button>
                            })}
                        }
                    })
                    .collect_view();
                let none = (!answered).then(|| {
                    let why = crate::teach::lessons::no_reply_note(request, &sent.raw, &all_sent);
                    view! { <p class="none" data-testid="lesson-no-reply">{why}</p> }
                });
                view! { <li>{sent.view("msg out", "lesson-sent", "")}{back}{none}</li> }
            })
            .collect_view();
        Some(view! {
            <section class="lesson-run" aria-label="The run" data-testid="lesson-run-output" data-run=runs.get_value().to_string() node_ref=run_ref>
                <ol class="replies" data-testid="lesson-replies" aria-label="Exchanged with the mock server">{rows}</ol>
                <p class="hint">
                    "Drawn here as in the playground: follow each request to its reply. The playground's log keeps a copy of every run, marked with its lesson. "
                    <a data-testid="lesson-log-link" href=Route::Log.fragment()>"Open the playground's log"</a>
                </p>
                <SequencePicture log=run_log />
            </section>
        })
    };
    // Answered right: the lesson is finished (kept, and marked in the list).
    let on_graded = Callback::new(move |right: bool| {
        if right {
            let mut p = progress.get_untracked();
            if p.finish(l.id) {
                save(&p, page);
                progress.set(p);
            }
        }
    });
    let question = quiz::item(l.question, text).map(|it| {
        let slot = Slot::new(it, false).with_rules(rules_taught(i));
        view! { <Question q=0 asked=slot teaching=text on_graded /> }
    });
    let finished = move || {
        progress.with(|p| p.is_done(l.id)).then(|| {
            view! { <p class="lesson-finished" data-testid="lesson-finished">"✓ Finished: this lesson's question was answered right."</p> }
                .into_any()
        })
    };
    let prev = (i > 0).then(|| view! { <a data-testid="lesson-prev" href=Route::Lessons(Some(i - 1)).fragment()>"← Previous"</a> });
    let next = (i + 1 < LESSONS.len()).then(|| view! { <a data-testid="lesson-next" href=Route::Lessons(Some(i + 1)).fragment()>"Next step →"</a> });
    let paragraphs = said.map(|t| {
        t.text
            .iter()
            .map(|p| view! { <p>{p.as_str()}</p> })
            .collect_view()
    });
    view! {
        <article class="teach lesson" data-testid="lesson" data-lesson=l.id aria-labelledby="lesson-title">
            <p class="step">{format!("Step {} of {}", i + 1, LESSONS.len())}</p>
            <h2 id="lesson-title" tabindex="-1">{l.title}</h2>
            {paragraphs}
            <pre class="example" data-testid="lesson-example">{example}</pre>
            <div class="actions">
                <button type="button" data-testid="lesson-run" on:click=run>"Run against the mock server"</button>
                <button type="button" data-testid="lesson-open" on:click=move |_| page.open_in_playground(example, l.profile, l.title)>
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
}

/// One lesson's runs: a mock server of its own, started afresh on every run (a new MCP session:
/// its ids restart, and the picture shows this run only), its log, and the page's log, which
/// keeps a copy under a peer that names the lesson and the run.
#[derive(Clone, Copy)]
struct LessonRun {
    /// 0-based.
    lesson: usize,
    /// The page: its log keeps a copy of the runs; the lessons' mock session.
    page: Page,
    /// The next send starts the lessons' session afresh (a new run).
    fresh: StoredValue<bool>,
    /// This run's log (none before the first run).
    local: RwSignal<Option<RwSignal<Log>>>,
    runs: StoredValue<u32>,
    /// How many of this run's entries are copied to the page's log.
    copied: StoredValue<usize>,
    pending_ref: NodeRef<leptos::html::Button>,
    run_ref: NodeRef<leptos::html::Section>,
}

impl LessonRun {
    /// Sends `text` in this run; what went each way comes in [`LessonRun::took`].
    fn send(self, text: &str, profile: crate::rpc::Profile) {
        let Some(run_log) = self.local.get_untracked() else {
            return;
        };
        let run = self.runs.get_value();
        let (page, lesson) = (self.page, self.lesson);
        let took: crate::web::kit::mock_client::Took = std::rc::Rc::new(move |records, _| {
            match self.runs.try_get_value() {
                Some(now) if now == run => self.took(run_log, records),
                // The lesson was left before the answer came: the page's log still keeps it.
                None => page.copy_to_log(run_peer(lesson, run), records),
                // A later run: this answer is not for it.
                Some(_) => {}
            }
        });
        if self
            .page
            .send_in_lesson(text, profile, self.fresh.get_value(), took)
            > 0
        {
            self.fresh.set_value(false);
        }
    }

    /// Logs what went each way in this run, copies it to the page's log, and brings what waits
    /// for the learner into view: the server's question to answer, else the run.
    fn took(self, run_log: RwSignal<Log>, records: Vec<crate::exchange::mock_worker::Record>) {
        append(run_log, MOCK_PEER, records);
        let peer = run_peer(self.lesson, self.runs.get_value());
        let from = self.copied.get_value();
        let new: Vec<Record> = run_log.with_untracked(|lg| {
            lg.entries()
                .iter()
                .skip(from)
                .map(|e| Record {
                    direction: e.direction,
                    time_ms: e.time_ms,
                    raw: e.raw.clone(),
                })
                .collect()
        });
        self.copied.set_value(from + new.len());
        self.page.copy_to_log(peer, new);
        // The run's area is bounded and scrolls: a new run shows from its start, an answer
        // sent in it brings what followed into view (within the area, and the area on the page).
        // By then the learner may have left the lesson (its node refs disposed): nothing to show.
        request_animation_frame(move || {
            if let Some(button) = self.pending_ref.try_get_untracked().flatten() {
                crate::web::kit::js::scroll_to(&button, "center");
            } else if let Some(section) = self.run_ref.try_get_untracked().flatten() {
                if from == 0 {
                    section.scroll_into_view();
                } else if let Some(last) = section
                    .query_selector(".replies > li:last-child")
                    .ok()
                    .flatten()
                {
                    crate::web::kit::js::scroll_to(&last, "nearest");
                }
            }
        });
    }
}

/// The peer that names run `run` of lesson `lesson` (0-based) in the page's log.
fn run_peer(lesson: usize, run: u32) -> String {
    format!("mock · lesson {} run {run}", lesson + 1)
}

/// A message the lesson sent, and what came back after it.
struct Sent {
    said: Said,
    /// It was a request (it waits for a reply).
    request: bool,
    /// What came back, and the key of an input-required result still to answer.
    back: Vec<(Said, Back, Option<u64>)>,
}

/// One message of a run as the lesson shows it, the same whichever way it went: a one-line
/// heading (its number in the picture, its kind, method and id, a preview) over its text, short
/// ones on one line and open, long ones laid out and folded (a run stays about a screen tall).
struct Said {
    raw: String,
    /// `→` sent, `←` received.
    arrow: &'static str,
    /// Its number in the picture, kind, method and id.
    what: String,
    /// A preview of its params, result or error.
    preview: String,
}

impl Said {
    fn of(e: &crate::exchange::Entry) -> Said {
        let (what, preview) = match e.msgs.as_slice() {
            [m] if !e.is_batch() => (describe_at(e, 0), m.summary.clone()),
            msgs => (
                format!("#{} batch of {}", e.number, msgs.len()),
                String::new(),
            ),
        };
        Said {
            raw: e.raw.clone(),
            arrow: if e.direction == Direction::Out {
                "→"
            } else {
                "←"
            },
            what,
            preview,
        }
    }

    fn view(self, class: &'static str, testid: &'static str, note: &'static str) -> impl IntoView {
        let line = crate::json::layout(&self.raw, crate::json::Layout::Minify)
            .map_or(self.raw.clone(), |m| m.trim().to_string());
        let short = line.len() <= FOLDED_OVER;
        let text = if short {
            line
        } else {
            crate::json::layout(&self.raw, crate::json::Layout::Pretty).unwrap_or(self.raw)
        };
        let head = format!("{} {} {note}{}", self.arrow, self.what, self.preview);
        let title = head.clone();
        view! {
            <details class=class data-testid=testid open=short>
                <summary title=title>{head}</summary>
                <pre tabindex="0">{text}</pre>
            </details>
        }
    }
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
    /// A request of the server's that it cancelled: the client must not answer it.
    Cancelled,
}

/// The id (as its JSON text) a `notifications/cancelled` names.
fn cancelled_id(raw: &str) -> Option<String> {
    let stream = crate::json::split_stream(raw.as_bytes());
    let parsed = stream.segments.first()?.parsed.as_ref().ok()?;
    let id = parsed.root.get("params")?.get("requestId")?;
    raw.get(id.span.start..id.span.end).map(str::to_string)
}

/// A message longer than this (minified, in bytes) is laid out on lines and folded under its
/// heading; a shorter one shows open, on one line.
const FOLDED_OVER: usize = 100;
