//! Send to the in-browser mock server, the log and the sequence picture.
//!
//! The log itself is engine data ([`crate::exchange::Log`]): this module keeps it in a signal
//! ([`LogState`], provided by [`provide`]), appends what Send exchanges with the mock server, and
//! renders it. Entries are plain data keyed by their monotonic key and revision; the DOM shows
//! the last [`SHOWN`] entries while the counts stay exact.

mod picture;

use std::time::Duration;

use crate::ui::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{self, js_sys};

use super::dom::{self, h, Tag};

use super::state::{use_app, AppState, NoticeLevel};
use crate::exchange::{At, Direction, Entry, Log, Msg, Status};
use crate::json::{split_stream, Direction as Side};
use crate::mock::MockServer;
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
}

impl LogState {
    /// Passes each client document of `text` to the mock server, logging both directions.
    /// Returns how many documents were sent.
    pub fn send_to_mock(&self, text: &str) -> usize {
        let bytes = text.as_bytes();
        let stream = split_stream(bytes);
        let spans: Vec<_> = stream
            .segments
            .iter()
            .filter(|s| s.direction != Some(Side::Server))
            .map(|s| s.span)
            .collect();
        if spans.is_empty() {
            return 0;
        }
        let server = self.server;
        self.log.update(|log| {
            for span in &spans {
                let doc = &text[span.start..span.end];
                log.record(MOCK_PEER, Direction::Out, clock_ms(), doc);
                let reply = server
                    .try_update_value(|s| s.handle(doc.as_bytes()))
                    .flatten();
                if let Some(reply) = reply {
                    log.record(MOCK_PEER, Direction::In, clock_ms(), reply);
                }
            }
        });
        spans.len()
    }

    /// Empties the log and starts a fresh mock server (a new MCP session).
    pub fn clear(&self) {
        self.log.update(Log::clear);
        self.selected.set(None);
        self.server.set_value(MockServer::new());
    }
}

/// Provides [`LogState`] to the page (App calls it once, after providing [`AppState`]).
pub fn provide(_state: AppState) -> LogState {
    let log_state = LogState {
        log: RwSignal::new(Log::new()),
        selected: RwSignal::new(None),
        server: StoredValue::new(MockServer::new()),
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

fn send(app: AppState, log: LogState, link: Option<super::link::Link>) {
    let text = app.text.get_untracked();
    if let (super::state::Target::Link, Some(link)) = (app.target.get_untracked(), link) {
        match link.send(&text) {
            Ok(0) => app.notify(
                NoticeLevel::Info,
                "Nothing to send: the editor has no client message.",
            ),
            Ok(_) => {}
            Err(e) => app.notify(NoticeLevel::Error, e),
        }
        return;
    }
    if log.send_to_mock(&text) == 0 {
        app.notify(NoticeLevel::Info, "Nothing to send: the editor has no client message (a transcript sends only its --> lines).");
    }
}

/// Sends each document of the editor to the mock server (`data-testid="send"`, Ctrl+Enter in the
/// editor pane).
pub fn send_button() -> web_sys::Element {
    let app = use_app();
    let log = use_log();
    let link = use_context::<super::link::Link>();
    // Ctrl+Enter (⌘+Enter) anywhere in the editor pane.
    dom::listen(&window(), "keydown", move |e| {
        let e: &web_sys::KeyboardEvent = e.unchecked_ref();
        if e.key() != "Enter" || !(e.ctrl_key() || e.meta_key()) || e.default_prevented() {
            return;
        }
        let in_editor = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest(".editor-pane").ok().flatten())
            .is_some();
        if in_editor {
            e.prevent_default();
            send(app, log, link);
        }
    });
    h("button")
        .attr("type", "button")
        .class("send-button")
        .testid("send")
        .attr("aria-keyshortcuts", "Control+Enter")
        .attr("title", "Send every client message of the editor to the chosen target: the mock server or the live link (Ctrl+Enter)")
        .text("Send ▸")
        .on("click", move |_| send(app, log, link))
        .el()
}

/// A row's key in the list: the entry's key and revision (a changed entry is a new row).
fn row_key(e: &Entry) -> u64 {
    (e.key << 24) ^ u64::from(e.rev)
}

/// The log of messages in both directions, with pairing, and the sequence picture (`data-testid="log"`).
pub fn log_pane() -> web_sys::Element {
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
                format!("The export failed: {}", js_error(&e)),
            );
        }
    };

    let count_line = h("p")
        .class("xl-counts")
        .testid("log-counts")
        .attr("aria-live", "polite")
        .el();
    {
        // One effect for the line and its data attributes (the counts are kept by the log itself).
        let el = count_line.clone();
        dom::effect(move || {
            let c = log.with(Log::counts);
            let _ = el.set_attribute("data-entries", &c.entries.to_string());
            let _ = el.set_attribute("data-pairs", &c.pairs.to_string());
            let _ = el.set_attribute("data-waiting", &c.waiting.to_string());
            let plural = |n: usize, one: &str, many: &str| {
                format!("{n} {}", if n == 1 { one } else { many })
            };
            let text = format!(
                "{} ({} sent, {} received) · {} · {} waiting · {}",
                plural(c.entries, "message", "messages"),
                c.out,
                c.r#in,
                plural(c.pairs, "pair", "pairs"),
                c.waiting,
                plural(c.errors, "error", "errors"),
            );
            if el.text_content().as_deref() != Some(text.as_str()) {
                el.set_text_content(Some(&text));
            }
        });
    }
    let action = |testid: &'static str, label: &'static str, run: Box<dyn Fn()>| {
        let button = h("button")
            .attr("type", "button")
            .testid(testid)
            .text(label)
            .on("click", move |_| run())
            .el();
        dom::bind_flag(&button, "disabled", move || empty.get());
        button
    };
    let actions = h("div")
        .class("xl-actions")
        .attr("role", "group")
        .attr("aria-label", "Log actions")
        .node(action(
            "export-ndjson",
            "Export NDJSON",
            Box::new(move || export(true)),
        ))
        .node(action(
            "export-json",
            "Export JSON",
            Box::new(move || export(false)),
        ))
        .node(action(
            "clear-log",
            "Clear",
            Box::new(move || state.clear()),
        ))
        .el();
    let empty_note = h("p")
        .class("xl-empty")
        .text("Nothing exchanged yet. ")
        .child(h("strong").text("Send"))
        .text(" (or Ctrl+Enter in the editor) passes each client message to the in-browser mock server; both directions appear here.")
        .el();
    dom::bind_flag(&empty_note, "hidden", move || !empty.get());
    let window_note = h("p").class("xl-window").testid("log-window").el();
    dom::bind_flag(&window_note, "hidden", move || log.with(Log::len) <= SHOWN);
    dom::bind_text(&window_note, move || {
        format!(
            "Showing the newest {SHOWN} of {} messages; the export has them all.",
            log.with(Log::len)
        )
    });

    // The rows: keyed by entry and revision, so an append builds one row. A click on a message
    // selects it (or unselects it); the selection marks rows by their data attributes.
    let list = h("ol")
        .class("xl-list")
        .testid("log")
        .attr("aria-label", "Messages, oldest first")
        .on("click", move |ev| {
            let Some((_, at)) = dom::closest_data(&ev, "data-at") else {
                return;
            };
            let Some(at) = parse_at(&at) else { return };
            selected.update(|s| *s = if *s == Some(at) { None } else { Some(at) });
        })
        .el();
    let rows = StoredValue::new_local(dom::KeyedList::default());
    let host = list.clone();
    dom::effect(move || {
        log.with(|l| rows.update_value(|r| r.patch(&host, l.tail(SHOWN), row_key, log_row)));
        mark_selection(&host, selected.get());
    });

    h("div")
        .class("xl")
        .testid("log-pane")
        .child(
            h("div")
                .class("xl-head")
                .child(
                    h("h2")
                        .class("xl-title")
                        .text("Exchange with the server (mock or live link)"),
                )
                .node(count_line)
                .node(actions),
        )
        .node(empty_note)
        .node(picture::sequence_picture())
        .node(selection())
        .node(window_note)
        .node(list)
        .el()
}

/// `key.item`, as rows write a message's place.
fn at_text(at: At) -> String {
    format!("{}.{}", at.key, at.item)
}

fn parse_at(s: &str) -> Option<At> {
    let (key, item) = s.split_once('.')?;
    Some(At {
        key: key.parse().ok()?,
        item: item.parse().ok()?,
    })
}

/// Marks the selected message, its entry, and their partners (classes and `aria-pressed`).
fn mark_selection(host: &web_sys::Element, at: Option<At>) {
    if let Ok(old) = host.query_selector_all(".is-selected, .is-partner, [aria-pressed=true]") {
        for i in 0..old.length() {
            if let Some(el) = old
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            {
                let _ = el.class_list().remove_2("is-selected", "is-partner");
                if el.has_attribute("aria-pressed") {
                    let _ = el.set_attribute("aria-pressed", "false");
                }
            }
        }
    }
    let Some(at) = at else { return };
    let me = at_text(at);
    let mark = |selector: String, class: &str| {
        if let Ok(found) = host.query_selector_all(&selector) {
            for i in 0..found.length() {
                if let Some(el) = found
                    .item(i)
                    .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
                {
                    let _ = el.class_list().add_1(class);
                }
            }
        }
    };
    mark(
        format!("[data-testid=log-entry][data-key=\"{}\"]", at.key),
        "is-selected",
    );
    mark(
        format!("[data-testid=log-entry][data-partners~=\"{me}\"]"),
        "is-partner",
    );
    mark(
        format!("[data-testid=log-item][data-item-at=\"{me}\"]"),
        "is-selected",
    );
    mark(
        format!("[data-testid=log-item][data-with=\"{me}\"]"),
        "is-partner",
    );
    if let Ok(Some(button)) = host.query_selector(&format!("[data-at=\"{me}\"]")) {
        let _ = button.set_attribute("aria-pressed", "true");
    }
}

/// What the selected message is and, when paired, its partner and the latency.
fn selection() -> web_sys::Element {
    let state = use_log();
    let describe = move || -> Option<(String, Option<f64>)> {
        let at = state.selected.get()?;
        state.log.with(|log| {
            let entry = log.get(at.key)?;
            let msg = entry.msgs.get(at.item)?;
            let me = describe_at(entry, at.item);
            let line = match msg.status {
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
            };
            Some(line)
        })
    };
    let el = h("p")
        .class("xl-selection")
        .testid("log-selection")
        .attr("aria-live", "polite")
        .el();
    // One effect keeps the three in step (no Memo of its own: each Memo type is compiled anew).
    let host = el.clone();
    dom::effect(move || {
        let (text, latency_ms) = describe().map_or((None, None), |(t, l)| (Some(t), l));
        let _ = match latency_ms {
            Some(l) => host.set_attribute("data-latency-ms", &crate::json::fixed(l, 3)),
            None => host.remove_attribute("data-latency-ms"),
        };
        let _ = if text.is_none() {
            host.set_attribute("hidden", "")
        } else {
            host.remove_attribute("hidden")
        };
        let text = text.unwrap_or_default();
        if host.text_content().as_deref() != Some(text.as_str()) {
            host.set_text_content(Some(&text));
        }
    });
    el
}

fn is_reply(msg: &Msg) -> bool {
    msg.kind == Kind::Response || msg.intent == Some(Kind::Response)
}

/// `#3 request subtract id 1` (or `#4[2] response id "2"` for a batch element).
pub(crate) fn describe_at(entry: &Entry, item: usize) -> String {
    let Some(msg) = entry.msgs.get(item) else {
        return format!("#{}", entry.key);
    };
    let place = if entry.is_batch() {
        format!("#{}[{item}]", entry.key)
    } else {
        format!("#{}", entry.key)
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

fn file_stamp() -> String {
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
/// click away. Selection is marked by [`mark_selection`] through the data attributes.
fn log_row(entry: &Entry) -> Tag {
    let key = entry.key;
    let arrow = match entry.direction {
        Direction::Out => "→ sent",
        Direction::In => "← received",
    };
    let status = entry.msgs.first().map_or("", |m| m.status.as_str());
    // One message (the empty batch included): the entry points at its partner.
    let pair = match entry.msgs.as_slice() {
        [m] => m.status.pair(),
        _ => None,
    };
    let partners: Vec<String> = entry
        .msgs
        .iter()
        .filter_map(|m| m.status.pair().map(|(w, _)| at_text(w)))
        .collect();
    let lines = entry.msgs.iter().enumerate().map(|(item, msg)| {
        let at = At { key, item };
        let label = if entry.is_batch() && entry.msgs.len() > 1
            || entry.is_batch() && msg.kind != Kind::Batch
        {
            format!("[{item}] {}", kind_label(entry, msg))
        } else {
            kind_label(entry, msg).to_string()
        };
        let class = if msg.is_error {
            "xl-msg xl-error"
        } else {
            "xl-msg"
        };
        h("li")
            .class(class)
            .testid("log-item")
            .attr("data-kind", msg.kind.as_str())
            .attr("data-status", msg.status.as_str())
            .attr("data-item-at", at_text(at))
            .attr_opt("data-with", msg.status.pair().map(|(w, _)| at_text(w)))
            .child(
                h("button")
                    .attr("type", "button")
                    .class("xl-msg-button")
                    .attr("aria-pressed", "false")
                    .attr("data-at", at_text(at))
                    .child(
                        h("span")
                            .class(format!("xl-kind kind-{}", msg.kind.as_str()))
                            .text(label),
                    )
                    .child_opt(
                        msg.method
                            .as_ref()
                            .map(|m| h("span").class("xl-method").text(m.clone())),
                    )
                    .child_opt(
                        msg.id
                            .as_ref()
                            .map(|id| h("span").class("xl-id").text("id ").text(id.clone())),
                    )
                    .child(h("span").class("xl-summary").text(msg.summary.clone()))
                    .child_opt(
                        super::link::frame_problem(&entry.raw, msg.kind)
                            .map(|p| h("span").class("xl-problem").testid("log-problem").text(p)),
                    )
                    .child(
                        h("span")
                            .class("xl-status")
                            .testid("log-status")
                            .text(status_text(entry, msg, &msg.status)),
                    ),
            )
    });
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
        h("span").class("xl-batch").text(text)
    });
    h("li")
        .class(class)
        .testid("log-entry")
        .attr("data-key", key.to_string())
        .attr("data-direction", entry.direction.as_str())
        .attr("data-kind", entry.kind.as_str())
        .attr("data-status", status)
        .attr_opt("data-pair", pair.map(|(w, _)| w.key.to_string()))
        .attr_opt(
            "data-latency-ms",
            pair.map(|(_, l)| crate::json::fixed(l, 3)),
        )
        .attr("data-partners", partners.join(" "))
        .child(
            h("div")
                .class("xl-entry-head")
                .child(h("span").class("xl-seq").text("#").text(key.to_string()))
                .child(h("time").class("xl-time").text(clock_text(entry.time_ms)))
                .child(h("span").class("xl-dir").text(arrow))
                .child_opt(batch),
        )
        .child(h("ol").class("xl-msgs").children(lines))
        .child(
            h("details")
                .class("xl-raw")
                .child(h("summary").text(format!("raw ({} bytes)", entry.raw.len())))
                .child(h("pre").testid("log-raw").text(entry.raw.clone())),
        )
}

/// Downloads `text` as a file: a Blob, an object URL, a temporary `<a download>`.
fn download(name: &str, mime: &str, text: &str) -> Result<(), web_sys::wasm_bindgen::JsValue> {
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

fn js_error(e: &web_sys::wasm_bindgen::JsValue) -> String {
    e.as_string()
        .or_else(|| {
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
        })
        .unwrap_or_else(|| "unknown error".into())
}
