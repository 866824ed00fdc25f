//! Send to the in-browser mock server, the log and the sequence picture.
//!
//! The log itself is engine data ([`crate::exchange::Log`]): this module keeps it in a signal
//! ([`LogState`], provided by [`provide`]), appends what Send exchanges with the mock server, and
//! renders it. Entries are plain data keyed by their monotonic key and revision; the DOM shows
//! the last [`SHOWN`] entries while the counts stay exact.

mod picture;
pub(crate) use picture::SequencePicture;

use std::time::Duration;

use crate::ui::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{self, js_sys};

use super::state::{use_app, AppState, NoticeLevel};
use crate::exchange::round::{converse, AUTO_ROUNDS};
use crate::exchange::{At, Direction, Entry, Log, Msg, RoundPart, Status};
use crate::json::{split_stream, Direction as Side};
use crate::mock::{Fixtures, MockServer};
use crate::rpc::Kind;

/// How many entries the list shows (the newest); counts and exports cover all of them.
pub const SHOWN: usize = 500;

/// The peer name of the in-browser mock server in the log.
pub const MOCK_PEER: &str = "mock";

/// The log, what is selected in it, and the page's one mock server.
#[derive(Clone, Copy)]
pub struct LogState {
    /// Every message exchanged (the persist code saves and restores it:
    /// [`Log::to_json_string`] / [`Log::from_json_str`]).
    pub log: RwSignal<Log>,
    /// The message the user selected (its pair is highlighted).
    pub selected: RwSignal<Option<At>>,
    /// The mock server: one per page, its MCP session state kept between sends.
    server: StoredValue<MockServer>,
    /// The page answers the mock server's own requests as a cooperative client would
    /// (`data-testid="auto-answer"`); off, each waits in the log with a Reply action.
    pub auto_answer: RwSignal<bool>,
    /// What the mock serves under MCP: the learners' tools (add, countdown, …) or the official
    /// conformance suite's (`test_simple_text`, …), as `jrpc serve --fixtures` chooses
    /// (`data-testid="mock-fixtures"`). A change starts a new session.
    pub fixtures: RwSignal<Fixtures>,
    /// The list of entries (`data-testid="log"`): `#/log` scrolls to it and focuses it.
    pub list: NodeRef<leptos::html::Ol>,
    /// A received entry to scroll into view ("Show in the log"); its row watches this.
    reveal: RwSignal<Option<u64>>,
}

impl LogState {
    /// Passes each client document of `text` to the mock server, as the server of `profile`
    /// (the page's: what the verdicts call invalid, the mock answers as invalid), logging both
    /// directions. Returns how many documents were sent, and why the automatic answers stopped
    /// when they did.
    pub fn send_to_mock(
        &self,
        text: &str,
        profile: crate::rpc::Profile,
    ) -> (usize, Option<String>) {
        send_noting(
            self.server,
            self.log,
            text,
            profile,
            self.auto_answer.get_untracked(),
        )
    }

    /// A mock server of its own, serving what the page's serves (a lesson's run: a fresh session).
    pub fn fresh_server(&self) -> MockServer {
        MockServer::with_fixtures(self.fixtures.get_untracked())
    }

    /// Empties the log and starts a fresh mock server (a new MCP session).
    pub fn clear(&self) {
        self.log.update(Log::clear);
        self.selected.set(None);
        self.server
            .set_value(MockServer::with_fixtures(self.fixtures.get_untracked()));
    }

    /// Serves `fixtures` from now on: a new mock server (a new MCP session); the log stays.
    pub fn serve_fixtures(&self, fixtures: Fixtures) {
        self.fixtures.set(fixtures);
        self.server.set_value(MockServer::with_fixtures(fixtures));
    }
}

/// Passes each client document of `text` to `server`, as the server of `profile` (what the
/// verdicts call invalid, the mock answers as invalid), logging both directions in `log`.
/// Returns how many documents were sent.
pub fn send_to(
    server: StoredValue<MockServer>,
    log: RwSignal<Log>,
    text: &str,
    profile: crate::rpc::Profile,
    auto: bool,
) -> usize {
    send_noting(server, log, text, profile, auto).0
}

/// [`send_to`], and why the automatic answers stopped when they did
/// ([`crate::exchange::round::converse`]: the server's requests and input-required rounds).
fn send_noting(
    server: StoredValue<MockServer>,
    log: RwSignal<Log>,
    text: &str,
    profile: crate::rpc::Profile,
    auto: bool,
) -> (usize, Option<String>) {
    let stream = split_stream(text.as_bytes());
    let spans: Vec<_> = stream
        .segments
        .iter()
        .filter(|s| s.direction != Some(Side::Server))
        .map(|s| s.span)
        .collect();
    if spans.is_empty() {
        return (0, None);
    }
    server.update_value(|s| s.set_profile(profile));
    let mut stopped = None;
    log.update(|log| {
        for span in &spans {
            let doc = &text[span.start..span.end];
            let note = server
                .try_update_value(|s| {
                    converse(s, log, MOCK_PEER, doc, auto, &mut clock_ms, AUTO_ROUNDS)
                })
                .flatten();
            stopped = stopped.take().or(note);
        }
    });
    (spans.len(), stopped)
}

/// Provides [`LogState`] to the page (App calls it once, after providing [`AppState`]).
pub fn provide(_state: AppState) -> LogState {
    let log_state = LogState {
        log: RwSignal::new(Log::new()),
        selected: RwSignal::new(None),
        server: StoredValue::new(MockServer::new()),
        auto_answer: RwSignal::new(false),
        fixtures: RwSignal::new(Fixtures::Friendly),
        list: NodeRef::new(),
        reveal: RwSignal::new(None),
    };
    provide_context(log_state);
    log_state
}

/// The log state, provided by [`provide`].
pub fn use_log() -> LogState {
    expect_context::<LogState>()
}

/// Unix epoch milliseconds with sub-millisecond precision (the performance clock's origin plus
/// its reading).
pub fn clock_ms() -> f64 {
    window()
        .performance()
        .map_or_else(js_sys::Date::now, |p| p.time_origin() + p.now())
}

/// What a binary frame's log text starts with (the bytes themselves follow in hex).
pub const BINARY_PREFIX: &str = "binary frame, ";

/// What a log entry that is not JSON-RPC at all says about itself: a binary frame's size, or
/// the parse error of a text frame (`None` for anything the engine could read).
pub(crate) fn frame_problem(raw: &str, kind: Kind) -> Option<String> {
    if kind != Kind::ParseError {
        return None;
    }
    if let Some(rest) = raw.strip_prefix(BINARY_PREFIX) {
        return Some(format!(
            "binary frame, {}",
            rest.split(':').next().unwrap_or_default()
        ));
    }
    if raw.trim().is_empty() {
        return Some("empty frame: not JSON".into());
    }
    let report = crate::rpc::check_text(raw, crate::rpc::Profile::JsonRpc);
    let v = report.violations().next()?;
    Some(format!("not JSON at byte {}: {}", v.span.start, v.message))
}

/// The log of messages in both directions, with pairing, and the sequence picture (`data-testid="log"`).
#[component]
pub fn LogPane() -> impl IntoView {
    let app = use_app();
    let state = use_log();
    let log = state.log;
    let selected = state.selected;
    let empty = Memo::new(move |_| log.with(Log::is_empty));
    let export = move |ndjson: bool| {
        let (text, ext, mime) = log.with_untracked(|l| {
            if ndjson {
                (l.to_ndjson(), "ndjson", "application/x-ndjson")
            } else {
                (l.to_json_array(), "json", "application/json")
            }
        });
        let name = format!("jsonrpc-log-{}.{ext}", file_stamp());
        if let Err(e) = download(&name, mime, &text) {
            app.notify(
                NoticeLevel::Error,
                format!("The export failed: {}", super::js_error_text(&e)),
            );
        }
    };
    let counts = Memo::new(move |_| log.with(Log::counts));
    let counts_text = move || {
        let c = counts.get();
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        format!(
            "{} ({} sent, {} received) · {} · {} waiting · {}",
            plural(c.entries, "message", "messages"),
            c.out,
            c.r#in,
            plural(c.pairs, "pair", "pairs"),
            c.waiting,
            plural(c.errors, "error", "errors"),
        )
    };
    let len = Memo::new(move |_| log.with(Log::len));
    // The rows: keyed by entry and revision, so an append builds one row.
    let rows = move || {
        log.with(|l| {
            l.tail(SHOWN)
                .iter()
                .map(|e| (e.key, e.rev))
                .collect::<Vec<_>>()
        })
    };
    let row = move |(key, _rev): (u64, u32)| {
        log.with_untracked(|l| l.get(key).map(|e| log_row(e, l, state)))
    };
    view! {
        <div class="xl" data-testid="log-pane">
            <div class="xl-head">
                <h2 class="xl-title">"Exchange with the server (mock or live link)"</h2>
                <p
                    class="xl-counts"
                    data-testid="log-counts"
                    aria-live="polite"
                    data-entries=move || counts.get().entries.to_string()
                    data-pairs=move || counts.get().pairs.to_string()
                    data-waiting=move || counts.get().waiting.to_string()
                >
                    {counts_text}
                </p>
                <div class="xl-actions" role="group" aria-label="Log actions">
                    <label class="xl-auto" title="When the mock server asks the client something (sampling, elicitation, roots, ping), answer it at once as a cooperative client would, and retry a request whose result asks for input (MCP 2026-07-28, at most 8 rounds per request); off, the request waits in the log with a Reply button, the round with an Answer button">
                        <input type="checkbox" data-testid="auto-answer" bind:checked=state.auto_answer />
                        " Answer the server's requests automatically"
                    </label>
                    // What a learner needs rarely: folded under its own heading.
                    <details class="advanced" data-testid="log-advanced">
                    <summary>"Advanced: the mock's tools, download the log"</summary>
                    <label class="xl-auto" title="Under MCP, the mock server in this page offers small tools, resources and prompts for learning, or those the official MCP test suite expects (as jrpc serve --fixtures conformance does); changing it starts a new session">
                        "The mock's tools: "
                        <select
                            data-testid="mock-fixtures"
                            on:change=move |ev| {
                                let fixtures = if event_target_value(&ev) == "conformance" {
                                    Fixtures::Conformance
                                } else {
                                    Fixtures::Friendly
                                };
                                state.serve_fixtures(fixtures);
                                app.notify(NoticeLevel::Info, match fixtures {
                                    Fixtures::Conformance => "The mock now offers the official MCP test suite's tools, resources and prompts (test_simple_text, test://static-text, …): a new session.",
                                    Fixtures::Friendly => "The mock now offers the tools, resources and prompts for learning (add, countdown, mock://readme, …): a new session.",
                                });
                            }
                        >
                            <option value="friendly" selected=move || state.fixtures.get() == Fixtures::Friendly>"for learning (add, countdown, …)"</option>
                            <option value="conformance" selected=move || state.fixtures.get() == Fixtures::Conformance>"the official MCP test suite's"</option>
                        </select>
                    </label>
                    <button type="button" data-testid="export-ndjson" disabled=empty on:click=move |_| export(true)>"Download the log (a message per line)"</button>
                    <button type="button" data-testid="export-json" disabled=empty on:click=move |_| export(false)>"Download the log (a JSON array)"</button>
                    </details>
                    <button type="button" data-testid="clear-log" disabled=empty on:click=move |_| state.clear()>"Clear"</button>
                </div>
            </div>
            <p class="xl-empty" hidden=move || !empty.get()>
                "Nothing exchanged yet. "<strong>"Send"</strong>
                " (or Ctrl+Enter in the editor) passes each client message to the in-browser mock server; both directions appear here."
            </p>
            <picture::SequencePicture />
            <Selection />
            <p class="xl-window" data-testid="log-window" hidden=move || { len.get() <= SHOWN }>
                {move || format!("Showing the newest {SHOWN} of {} messages; the export has them all.", len.get())}
            </p>
            <ol class="xl-list" data-testid="log" aria-label="Messages, oldest first" node_ref=state.list>
                <For each=rows key=|k| (k.0 << 24) ^ u64::from(k.1) children=row />
            </ol>
        </div>
    }
}

/// `key.item`, as rows write a message's place.
fn at_text(at: At) -> String {
    format!("{}.{}", at.key, at.item)
}

/// The latest message from the server, in words, beside the verdicts where the learner looks
/// after Send (`data-testid="last-reply"`, a polite live region: a screen reader hears it too);
/// "Show in the log" selects it there and scrolls it into view.
#[component]
pub fn LastReply() -> impl IntoView {
    let state = use_log();
    let last = Memo::new(move |_| {
        state.log.with(|log| {
            let e = log
                .entries()
                .iter()
                .rev()
                .find(|e| e.direction == Direction::In)?;
            Some((e.key, picture::sentence(e)))
        })
    });
    let show = move |_| {
        let Some((key, _)) = last.get_untracked() else {
            return;
        };
        state.selected.set(Some(At { key, item: 0 }));
        state.reveal.set(Some(key));
    };
    view! {
        <div class="last-reply" data-testid="last-reply" hidden=move || last.with(Option::is_none)>
            <p aria-live="polite">
                <span class="label">"Latest reply: "</span>
                {move || last.with(|l| l.as_ref().map(|(_, s)| s.clone()).unwrap_or_default())}
            </p>
            <button type="button" data-testid="last-reply-show" on:click=show>"Show in the log"</button>
        </div>
    }
}

/// What the selected message is and, when paired, its partner and the latency.
#[component]
fn Selection() -> impl IntoView {
    let state = use_log();
    let described = Memo::new(move |_| -> Option<(String, Option<f64>)> {
        let at = state.selected.get()?;
        state.log.with(|log| {
            let entry = log.get(at.key)?;
            let msg = entry.msgs.get(at.item)?;
            let me = describe_at(entry, at.item);
            Some(match msg.status {
                Status::Paired { with, latency_ms } => {
                    let other = log
                        .get(with.key)
                        .map(|e| describe_at(e, with.item))
                        .unwrap_or_default();
                    let (req, res) = if is_reply(msg) {
                        (other, me)
                    } else {
                        (me, other)
                    };
                    (
                        format!("{res} answers {req} — latency {}", latency(latency_ms)),
                        Some(latency_ms),
                    )
                }
                status => (format!("{me}: {}", status_text(entry, msg, &status)), None),
            })
        })
    });
    view! {
        <p
            class="xl-selection"
            data-testid="log-selection"
            aria-live="polite"
            hidden=move || described.with(Option::is_none)
            data-latency-ms=move || described.with(|d| d.as_ref().and_then(|(_, l)| l.map(|l| crate::json::fixed(l, 3))))
        >
            {move || described.with(|d| d.as_ref().map(|(t, _)| t.clone()).unwrap_or_default())}
        </p>
    }
}

fn is_reply(msg: &Msg) -> bool {
    msg.kind == Kind::Response || msg.intent == Some(Kind::Response)
}

/// `#3 request subtract id 1` (or `#4[2] response id "2"` for a batch element).
pub(crate) fn describe_at(entry: &Entry, item: usize) -> String {
    let Some(msg) = entry.msgs.get(item) else {
        return format!("#{}", entry.number);
    };
    let place = if entry.is_batch() {
        format!("#{}[{item}]", entry.number)
    } else {
        format!("#{}", entry.number)
    };
    let mut s = format!("{place} {}", kind_label(entry, msg));
    if let Some(m) = &msg.method {
        s.push(' ');
        s.push_str(m);
    }
    if let Some(id) = &msg.id {
        s.push_str(" id ");
        s.push_str(id);
    }
    s
}

fn kind_label(entry: &Entry, msg: &Msg) -> &'static str {
    match msg.kind {
        Kind::Batch if entry.is_batch() => "empty batch",
        Kind::Response if msg.is_error => "error response",
        k => k.as_str(),
    }
}

/// The message's place in its conversation, in words.
pub(crate) fn status_text(entry: &Entry, msg: &Msg, status: &Status) -> String {
    match *status {
        Status::Pending if entry.direction == Direction::In => "awaiting your reply".into(),
        Status::Pending => "waiting for a reply".into(),
        Status::Paired { with, latency_ms } => {
            if is_reply(msg) {
                format!("answers #{} · {}", with_label(with), latency(latency_ms))
            } else {
                format!(
                    "answered by #{} · {}",
                    with_label(with),
                    latency(latency_ms)
                )
            }
        }
        Status::NoReplyExpected => "no reply expected".into(),
        Status::Unmatched => "answers no pending request".into(),
        Status::TimedOut => "timed out (a late reply still pairs)".into(),
        Status::Lost => match &entry.lost_reason {
            Some(reason) => format!("lost: {reason}"),
            None => "lost: the connection closed".into(),
        },
        Status::Unpaired => String::new(),
    }
}

fn with_label(at: At) -> String {
    // Batch elements show their index; item 0 of a single message is just its key.
    if at.item == 0 {
        at.key.to_string()
    } else {
        format!("{}[{}]", at.key, at.item)
    }
}

pub(crate) fn latency(ms: f64) -> String {
    use crate::json::fixed;
    if ms < 1.0 {
        format!("{} ms", fixed(ms, 2))
    } else if ms < 1000.0 {
        format!("{} ms", fixed(ms, 1))
    } else {
        format!("{} s", fixed(ms / 1000.0, 2))
    }
}

/// `12:03:04.123` in local time.
pub(crate) fn clock_text(ms: f64) -> String {
    let d = js_sys::Date::new(&ms.into());
    format!(
        "{:02}:{:02}:{:02}.{:03}",
        d.get_hours(),
        d.get_minutes(),
        d.get_seconds(),
        d.get_milliseconds()
    )
}

pub(crate) fn file_stamp() -> String {
    let d = js_sys::Date::new_0();
    format!(
        "{:04}{:02}{:02}-{:02}{:02}{:02}",
        d.get_full_year(),
        d.get_month() + 1,
        d.get_date(),
        d.get_hours(),
        d.get_minutes(),
        d.get_seconds()
    )
}

/// One entry of the list: a line per message (one, or one per batch element), the raw text one
/// click away. A click on a message selects it (or unselects it); the selected message, its entry
/// and their partners are marked.
fn log_row(entry: &Entry, log: &Log, state: LogState) -> impl IntoView {
    let app = use_app();
    let selected = state.selected;
    let key = entry.key;
    // A received entry scrolls into view when "Show in the log" asks for it (not when built).
    let row = NodeRef::<leptos::html::Li>::new();
    if entry.direction == Direction::In {
        let reveal = state.reveal;
        Effect::new(move |ran: Option<()>| {
            if reveal.get() == Some(key) && ran.is_some() {
                if let Some(row) = row.get_untracked() {
                    row.scroll_into_view_with_bool(false);
                }
            }
        });
    }
    let round = round_view(entry, log, app);
    let arrow = match entry.direction {
        Direction::Out => "→ sent",
        Direction::In => "← received",
    };
    let status = entry.msgs.first().map_or("", |m| m.status.as_str());
    // One message (`[]` included): the entry points at its partner.
    let pair = match entry.msgs.as_slice() {
        [m] => m.status.pair(),
        _ => None,
    };
    let partners: Vec<At> = entry
        .msgs
        .iter()
        .filter_map(|m| m.status.pair().map(|(w, _)| w))
        .collect();
    let partner_text: Vec<String> = partners.iter().map(|&w| at_text(w)).collect();
    let lines = entry
        .msgs
        .iter()
        .enumerate()
        .map(|(item, msg)| {
            let at = At { key, item };
            let label = if entry.is_batch() && entry.msgs.len() > 1 || entry.is_batch() && msg.kind != Kind::Batch {
                format!("[{item}] {}", kind_label(entry, msg))
            } else {
                kind_label(entry, msg).to_string()
            };
            let with = msg.status.pair().map(|(w, _)| w);
            let method = msg.method.clone().map(|m| view! { <span class="xl-method">{m}</span> });
            let id = msg.id.clone().map(|id| view! { <span class="xl-id">"id "{id}</span> });
            let problem = frame_problem(&entry.raw, msg.kind)
                .map(|p| view! { <span class="xl-problem" data-testid="log-problem">{p}</span> });
            let pick = move |_| selected.update(|s| *s = if *s == Some(at) { None } else { Some(at) });
            // The mock server's own request, still unanswered: Reply puts a client's answer in
            // the editor (the learner edits it, then sends it to the mock).
            let reply = (entry.direction == Direction::In
                && entry.peer == MOCK_PEER
                && msg.kind == Kind::Request
                && matches!(msg.status, Status::Pending)
                && !entry.is_batch())
            .then(|| {
                let raw = entry.raw.clone();
                action_button("log-reply", "Reply", Box::new(move || reply_in_editor(app, &raw)))
            });
            view! {
                <li
                    class=if msg.is_error { "xl-msg xl-error" } else { "xl-msg" }
                    class:is-selected=move || selected.get() == Some(at)
                    class:is-partner=move || with.is_some() && selected.get() == with
                    data-testid="log-item"
                    data-kind=msg.kind.as_str()
                    data-status=msg.status.as_str()
                    data-item-at=at_text(at)
                    data-with=with.map(at_text)
                >
                    <button
                        type="button"
                        class="xl-msg-button"
                        aria-pressed=move || if selected.get() == Some(at) { "true" } else { "false" }
                        data-at=at_text(at)
                        on:click=pick
                    >
                        <span class=format!("xl-kind kind-{}", msg.kind.as_str())>{label}</span>
                        {method}
                        {id}
                        <span class="xl-summary">{msg.summary.clone()}</span>
                        {problem}
                        <span class="xl-status" data-testid="log-status">{status_text(entry, msg, &msg.status)}</span>
                    </button>
                    {reply}
                </li>
            }
        })
        .collect_view();
    let mut class = String::from("xl-entry");
    if entry.direction == Direction::In {
        class.push_str(" xl-in");
    }
    if entry.has_error() {
        class.push_str(" xl-error");
    }
    let batch = entry.is_batch().then(|| {
        let text = match entry.msgs.as_slice() {
            [m] if m.kind == Kind::Batch => "empty batch".to_string(),
            msgs => format!("batch of {}", msgs.len()),
        };
        view! { <span class="xl-batch">{text}</span> }
    });
    view! {
        <li
            class=class
            class:is-selected=move || selected.get().is_some_and(|s| s.key == key)
            class:is-partner=move || selected.get().is_some_and(|s| partners.contains(&s))
            data-testid="log-entry"
            node_ref=row
            data-key=key.to_string()
            data-direction=entry.direction.as_str()
            data-kind=entry.kind.as_str()
            data-status=status
            data-pair=pair.map(|(w, _)| w.key.to_string())
            data-latency-ms=pair.map(|(_, l)| crate::json::fixed(l, 3))
            data-partners=partner_text.join(" ")
        >
            <div class="xl-entry-head">
                <span class="xl-seq" data-testid="log-number">"#"{entry.number.to_string()}</span>
                <time class="xl-time">{clock_text(entry.time_ms)}</time>
                <span class="xl-dir">{arrow}</span>
                {batch}
            </div>
            <ol class="xl-msgs">{lines}</ol>
            {round}
            <details class="xl-raw">
                <summary>{format!("raw ({} bytes)", entry.raw.len())}</summary>
                <pre data-testid="log-raw">{entry.raw.clone()}</pre>
            </details>
        </li>
    }
}

/// An entry's part in an input-required round (MCP 2026-07-28), in words
/// (`data-testid="log-round"`, its round in `data-round`): the result that asks, listing its
/// input requests by key and kind (`data-asks`: `key:kind …`) with "Answer" (the retry in the
/// editor, one undoable edit, for the mock or the live link it came from) or the retry that answered it (`data-retried-by`); a retry, naming
/// the result it answers (`data-of`); the reply to a retry.
fn round_view(entry: &Entry, log: &Log, app: AppState) -> Option<impl IntoView> {
    let number = log.round_number(entry.key)?;
    let no = |key: u64| log.get(key).map_or(0, |e| e.number);
    let (mut asks, mut of, mut retried_by, mut answer) = (None, None, None, None);
    let text = match &entry.round {
        Some(RoundPart::Asks {
            asks: asked,
            retried_by: by,
        }) => {
            let listed = |sep: &str| -> Vec<String> {
                asked
                    .iter()
                    .map(|a| format!("{}{sep}{}", a.key, a.kind()))
                    .collect()
            };
            asks = Some(listed(":").join(" "));
            retried_by = by.map(|k| k.to_string());
            let text = format!(
                "Input required (round {number}): {}",
                listed(": ").join(", ")
            );
            match by {
                Some(retry) => format!("{text} · answered by the retry #{}", no(*retry)),
                None => {
                    let (key, mock) = (entry.key, entry.peer == MOCK_PEER);
                    answer = Some(action_button(
                        "log-round-answer",
                        "Answer",
                        Box::new(move || retry_in_editor(app, key, mock)),
                    ));
                    text
                }
            }
        }
        Some(RoundPart::Retries { of: asking }) => {
            of = Some(asking.to_string());
            format!("Retry answering #{} (round {number})", no(*asking))
        }
        None => format!("The reply to the retry of round {number}"),
    };
    Some(view! {
        <p class="xl-round" data-testid="log-round" data-round=number.to_string() data-asks=asks data-of=of data-retried-by=retried_by>
            {text}
            {answer}
        </p>
    })
}

/// A button beside a log message that puts what the client sends next in the editor: Reply to
/// the server's request, Answer to an input-required round.
fn action_button(testid: &'static str, label: &'static str, act: Box<dyn Fn()>) -> impl IntoView {
    view! {
        <button type="button" class="xl-reply" data-testid=testid on:click=move |_| act()>
            {label}
        </button>
    }
}

/// Puts the retry of the input-required result `key` in the editor (one undoable edit), to be
/// sent where the result came from (the mock, else the live link); says why not when it cannot
/// be built.
fn retry_in_editor(app: AppState, key: u64, mock: bool) {
    use super::state::Target;
    match use_log().log.with_untracked(|l| l.retry_for(key)) {
        Ok(retry) => {
            app.replace_text_undoably(&retry);
            app.target
                .set(if mock { Target::Mock } else { Target::Link });
        }
        Err(e) => app.notify(
            NoticeLevel::Error,
            format!("Cannot answer this round: {e}."),
        ),
    }
}

/// Puts a client's answer to the server's request `raw` in the editor (one undoable edit), to be
/// edited and sent to the mock.
fn reply_in_editor(app: AppState, raw: &str) {
    if let Some(answer) = crate::client::reply_to(raw) {
        app.replace_text_undoably(&answer);
        app.target.set(super::state::Target::Mock);
    }
}

/// Downloads `text` as a file: a Blob, an object URL, a temporary `<a download>`.
pub(crate) fn download(
    name: &str,
    mime: &str,
    text: &str,
) -> Result<(), web_sys::wasm_bindgen::JsValue> {
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let a: web_sys::HtmlAnchorElement = document().create_element("a")?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.set_hidden(true);
    document().body().ok_or("no body")?.append_child(&a)?;
    a.click();
    a.remove();
    // Revoking at once can cancel the download in some browsers: give it time.
    set_timeout(
        move || drop(web_sys::Url::revoke_object_url(&url)),
        Duration::from_secs(30),
    );
    Ok(())
}
