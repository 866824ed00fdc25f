//! The live link: the one module that owns the transport to a real endpoint, through gloo-net (a
//! WebSocket split into its `Sink` and `Stream`, a reader and a writer task on `spawn_local`; HTTP
//! POST with `gloo_net::http`); nothing else in the UI touches a socket. Shaped like leptos-use's `use_websocket`: the
//! options a connection starts with ([`LinkOptions`]), a state enum with `Display`
//! ([`LinkState`]) and read-only signals out ([`Link::state`], [`Link::session`]).
//!
//! Every frame the server sends goes into the page's one log ([`crate::exchange::Log`]) with
//! direction In and the endpoint as peer: the engine classifies and pairs it. Frames arrive in
//! bursts: the reader task drains what is buffered and records it with one log update, so a
//! flood costs a few renders, not one per frame. A WebSocket connection that ends marks what was
//! still in flight as lost; over HTTP each Send is a POST of its own, and one that fails (no
//! reply, an HTTP error status, a body that cannot be read) marks lost only what it carried, with
//! the reason. A request unanswered after the timeout is marked timed out.
//!
//! The connection panel and the target switch are in [`panel`].

mod panel;

use std::time::Duration;

use crate::ui::prelude::spawn_local;
use crate::ui::prelude::*;
use futures_channel::mpsc::{unbounded, UnboundedReceiver, UnboundedSender};
use futures_util::future::{poll_fn, AbortHandle, Abortable};
use futures_util::{Sink, SinkExt, StreamExt};
use gloo_net::websocket::futures::WebSocket;
use gloo_net::websocket::{Message, State, WebSocketError};

pub use panel::{LinkPanel, TargetSelect};

use super::exchange::{clock_ms, LogState};
use super::state::{AppState, NoticeLevel};
use crate::exchange::{Direction, Status};
use crate::json::{split_stream, Direction as Side};
use crate::rpc::{self, Kind, Profile};

/// Frames recorded per log update at most (the rest wait for the next round).
const BATCH: usize = 2000;
/// After a burst, how long the reader lets frames pile up before the next log update (ms).
const SETTLE_MS: u32 = 16;
/// Reconnection attempts in a row (without an open connection between them) before giving up.
const MAX_ATTEMPTS: u32 = 8;
/// The default timeout of a request (seconds).
pub const DEFAULT_TIMEOUT_S: u32 = 30;
/// What a binary frame's log text starts with (the bytes themselves follow in hex).
pub const BINARY_PREFIX: &str = "binary frame, ";

/// What a connection starts with (a snapshot of the panel's fields when Connect is pressed).
#[derive(Clone, Debug, PartialEq)]
pub struct LinkOptions {
    /// `ws://`, `wss://`, `http://` or `https://`.
    pub url: String,
    /// WebSocket subprotocol (empty: none).
    pub protocol: String,
    /// Extra HTTP headers, `Name: value` per line (HTTP only).
    pub headers: String,
    /// Reconnect with backoff when a WebSocket connection ends by itself.
    pub auto_reconnect: bool,
    /// A request unanswered after this many seconds is marked timed out.
    pub timeout_s: u32,
}

impl Default for LinkOptions {
    fn default() -> Self {
        LinkOptions {
            url: String::new(),
            protocol: String::new(),
            headers: String::new(),
            auto_reconnect: true,
            timeout_s: DEFAULT_TIMEOUT_S,
        }
    }
}

/// Where the link stands (`data-state` of `link-status`: [`LinkState::as_str`]).
#[derive(Clone, Debug, PartialEq)]
pub enum LinkState {
    Closed,
    Connecting,
    /// Open; an HTTP endpoint that started an MCP session gave its `Mcp-Session-Id`.
    Open {
        session: Option<String>,
    },
    /// The connection ended by itself; the next attempt starts after `delay_ms`.
    Reconnecting {
        attempt: u32,
        delay_ms: u32,
        reason: String,
    },
    /// The link gave up: the reason, in words a user can act on.
    Error(String),
}

impl LinkState {
    pub const fn as_str(&self) -> &'static str {
        match self {
            LinkState::Closed => "closed",
            LinkState::Connecting => "connecting",
            LinkState::Open { .. } => "open",
            LinkState::Reconnecting { .. } => "reconnecting",
            LinkState::Error(_) => "error",
        }
    }
}

impl std::fmt::Display for LinkState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LinkState::Closed => f.write_str("closed"),
            LinkState::Connecting => f.write_str("connecting…"),
            LinkState::Open { session: None } => f.write_str("open"),
            LinkState::Open { session: Some(id) } => write!(f, "open · MCP session {id}"),
            LinkState::Reconnecting {
                attempt,
                delay_ms,
                reason,
            } => write!(
                f,
                "reconnecting: attempt {attempt} of {MAX_ATTEMPTS} in {}.{} s — {reason}",
                delay_ms / 1000,
                delay_ms % 1000 / 100
            ),
            LinkState::Error(reason) => write!(f, "error: {reason}"),
        }
    }
}

/// Which transport a URL asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Transport {
    Ws,
    Http,
}

/// The WebSocket of the current attempt, as its two tasks see it: the writer's queue and the
/// reader's abort handle. Dropping it ends both tasks; with both halves of the gloo-net socket
/// dropped, the socket closes.
struct Socket {
    outbox: UnboundedSender<String>,
    reader: AbortHandle,
}

impl Drop for Socket {
    fn drop(&mut self) {
        self.reader.abort();
        self.outbox.close_channel();
    }
}

/// What only this module touches (not Send: it lives in a local StoredValue).
#[derive(Default)]
struct Conn {
    /// Bumped by every connect and disconnect: handlers and tasks of an older generation stop.
    generation: u32,
    /// The WebSocket of the current attempt.
    socket: Option<Socket>,
    /// Frames received and not yet in the log (recorded in batches, see [`Link::flush`]).
    inbox: Vec<String>,
    /// A flush of the inbox is scheduled.
    flush_due: bool,
    /// When the inbox was last flushed (ms).
    last_flush: f64,
    /// How the current attempt is going (for the words when it ends).
    end: End,
    /// Attempts in a row without an open connection between them.
    attempt: u32,
    transport: Option<Transport>,
    /// The panel's fields as typed (read when Connect is pressed).
    draft: LinkOptions,
    /// The options the current connection started with.
    options: LinkOptions,
    /// The endpoint of the current connection: the log's peer name.
    peer: String,
    /// The MCP session id an HTTP server returned (`Mcp-Session-Id`), resent with every POST.
    session: Option<String>,
    /// HTTP headers parsed from the options.
    headers: Vec<(String, String)>,
}

/// The link: its panel fields, its state, and the connection (provided by [`provide`]).
#[derive(Clone, Copy)]
pub struct Link {
    state: RwSignal<LinkState>,
    /// Ticks every half second while something waits (ages in the pending list).
    now: RwSignal<f64>,
    conn: StoredValue<Conn, LocalStorage>,
    log: LogState,
    app: AppState,
}

/// Provides the [`Link`] (App calls it once, after the log exists) and starts the timeout clock.
pub fn provide(app: AppState, log: LogState) -> Link {
    let link = Link {
        state: RwSignal::new(LinkState::Closed),
        now: RwSignal::new(clock_ms()),
        conn: StoredValue::new_local(Conn {
            draft: LinkOptions::default(),
            ..Conn::default()
        }),
        log,
        app,
    };
    provide_context(link);
    if let Ok(handle) = set_interval_with_handle(move || link.tick(), Duration::from_millis(500)) {
        on_cleanup(move || handle.clear());
    }
    link
}

/// The link provided by [`provide`].
pub fn use_link() -> Link {
    expect_context::<Link>()
}

impl Link {
    /// The connection state, to read: only the link itself writes it. (The signal itself, not a
    /// read-only `Signal` wrapper: that would compile Leptos' wrapper code for this one type.)
    pub fn state(&self) -> RwSignal<LinkState> {
        self.state
    }

    fn current(&self, generation: u32) -> bool {
        self.conn.with_value(|c| c.generation == generation)
    }

    /// Marks what has waited longer than the timeout, and moves the clock of the pending list.
    fn tick(&self) {
        let timeout_ms = f64::from(self.conn.with_value(|c| c.options.timeout_s).max(1)) * 1000.0;
        let now = clock_ms();
        // Messages of an endpoint that is not (or no longer) connected wait for nothing: after a
        // reload the restored log may hold some. They are lost.
        let live = self
            .conn
            .with_value(|c| c.transport.map(|_| c.peer.clone()));
        let orphan = self.log.log.with_untracked(|l| {
            if l.counts().waiting == 0 {
                return None;
            }
            l.entries()
                .iter()
                .find(|e| {
                    e.peer != super::exchange::MOCK_PEER
                        && Some(&e.peer) != live.as_ref()
                        && e.msgs.iter().any(|m| m.status.is_waiting())
                })
                .map(|e| e.peer.clone())
        });
        if let Some(peer) = orphan {
            self.mark_lost(&peer);
        }
        let (waiting, due) = self.log.log.with_untracked(|l| {
            if l.counts().waiting == 0 {
                return (false, false);
            }
            let due = l.entries().iter().any(|e| {
                e.direction == Direction::Out
                    && e.peer != super::exchange::MOCK_PEER
                    && now - e.time_ms >= timeout_ms
                    && e.msgs.iter().any(|m| m.status == Status::Pending)
            });
            (true, due)
        });
        if due {
            self.log.log.update(|l| {
                l.expire(now, timeout_ms);
            });
        }
        if waiting {
            self.now.set(now);
        }
    }

    /// Connects with the panel's options (closing any connection first).
    pub fn connect(&self) {
        self.disconnect();
        let options = self.conn.with_value(|c| c.draft.clone());
        let url = options.url.trim().to_string();
        let transport = match check_url(&url) {
            Ok(t) => t,
            Err(reason) => return self.state.set(LinkState::Error(reason)),
        };
        let headers = match parse_headers(&options.headers) {
            Ok(h) => h,
            Err(reason) => return self.state.set(LinkState::Error(reason)),
        };
        let generation = self.conn.try_update_value(|c| {
            c.generation += 1;
            c.transport = Some(transport);
            c.options = LinkOptions {
                url: url.clone(),
                ..options.clone()
            };
            c.headers = headers;
            c.peer = url.clone();
            c.session = None;
            c.generation
        });
        let Some(generation) = generation else { return };
        match transport {
            // HTTP has no connection to hold: each Send is a POST of its own.
            Transport::Http => self.state.set(LinkState::Open { session: None }),
            Transport::Ws => {
                self.conn.update_value(|c| c.attempt = 0);
                self.open_ws(generation);
            }
        }
    }

    /// Closes the connection; what was in flight is marked lost.
    pub fn disconnect(&self) {
        self.conn.update_value(|c| {
            c.generation += 1;
            // Dropping the socket removes its handlers and closes it; frames not yet logged go.
            c.socket = None;
            c.inbox.clear();
            c.flush_due = false;
            c.transport = None;
        });
        let peer = self.conn.with_value(|c| c.peer.clone());
        if !peer.is_empty() {
            self.mark_lost(&peer);
        }
        if self.state.get_untracked() != LinkState::Closed {
            self.state.set(LinkState::Closed);
        }
    }

    fn mark_lost(&self, peer: &str) {
        if self.log.log.with_untracked(|l| l.counts().waiting > 0) {
            self.log.log.update(|l| {
                l.mark_lost(peer);
            });
        }
    }

    /// The HTTP POST that carried log entry `key` failed: what it carried and still waits is lost,
    /// for `reason`; other POSTs in flight to the endpoint go on.
    fn post_failed(&self, key: u64, reason: String) {
        let waits = self.log.log.with_untracked(|l| {
            l.get(key)
                .is_some_and(|e| e.msgs.iter().any(|m| m.status.is_waiting()))
        });
        if waits {
            self.log.log.update(|l| {
                l.mark_entry_lost(key, &reason);
            });
        }
    }

    /// Sends each client document of `text` over the link. Returns how many were sent, or why
    /// nothing was.
    pub fn send(&self, text: &str) -> Result<usize, String> {
        match self.state.get_untracked() {
            LinkState::Open { .. } => {}
            LinkState::Connecting | LinkState::Reconnecting { .. } => {
                return Err("The link is not open yet: wait until its state says open, or send to the mock server.".into())
            }
            LinkState::Closed | LinkState::Error(_) => {
                return Err("The link is not connected: enter an endpoint and press Connect, or send to the mock server.".into())
            }
        }
        let stream = split_stream(text.as_bytes());
        let docs: Vec<String> = stream
            .segments
            .iter()
            .filter(|s| s.direction != Some(Side::Server))
            .map(|s| text[s.span.start..s.span.end].to_string())
            .collect();
        if docs.is_empty() {
            return Ok(0);
        }
        let (peer, transport, socket, generation) = self.conn.with_value(|c| {
            (
                c.peer.clone(),
                c.transport,
                c.socket.as_ref().map(|s| s.outbox.clone()),
                c.generation,
            )
        });
        match transport {
            Some(Transport::Ws) => {
                let Some(outbox) = socket else {
                    return Err(
                        "The WebSocket is not open: wait until the link's state says open.".into(),
                    );
                };
                self.log.log.update(|l| {
                    for doc in &docs {
                        l.record(&peer, Direction::Out, clock_ms(), doc.as_str());
                    }
                });
                for doc in &docs {
                    if outbox.unbounded_send(doc.clone()).is_err() {
                        return Err(
                            "The message could not be sent: the WebSocket has closed.".into()
                        );
                    }
                }
            }
            Some(Transport::Http) => {
                for doc in docs.iter().cloned() {
                    let Some(key) = self
                        .log
                        .log
                        .try_update(|l| l.record(&peer, Direction::Out, clock_ms(), doc.as_str()))
                    else {
                        continue;
                    };
                    let link = *self;
                    let peer = peer.clone();
                    spawn_local(async move { link.post(generation, peer, doc, key).await });
                }
            }
            None => return Err("The link is not connected.".into()),
        }
        Ok(docs.len())
    }

    /// Opens a WebSocket for this connection (the first attempt, or the next after the last
    /// ended); its reader task drives everything after.
    fn open_ws(&self, generation: u32) {
        if !self.current(generation) {
            return;
        }
        let (url, protocol, attempt) = self.conn.with_value(|c| {
            (
                c.options.url.clone(),
                c.options.protocol.trim().to_string(),
                c.attempt,
            )
        });
        if attempt == 0 {
            self.state.set(LinkState::Connecting);
        }
        let opened = if protocol.is_empty() {
            WebSocket::open(&url)
        } else {
            WebSocket::open_with_protocol(&url, &protocol)
        };
        let ws = match opened {
            Ok(ws) => ws,
            Err(e) => {
                return self
                    .state
                    .set(LinkState::Error(explain_open_error(&url, &e.to_string())))
            }
        };
        let (outbox, queued) = unbounded();
        let (reader, registration) = AbortHandle::new_pair();
        self.conn.update_value(|c| {
            c.end = End::default();
            c.socket = Some(Socket { outbox, reader });
        });
        let link = *self;
        spawn_local(async move {
            let _ = Abortable::new(link.run_ws(generation, ws, queued), registration).await;
        });
    }

    /// The reader of one attempt: waits for the socket to open (or fail), starts the writer, then
    /// hands each frame and the closing to the link.
    async fn run_ws(self, generation: u32, mut ws: WebSocket, queued: UnboundedReceiver<String>) {
        // Ready once the socket is no longer connecting: open, or failed.
        let _ = poll_fn(|cx| std::pin::Pin::new(&mut ws).poll_ready(cx)).await;
        if matches!(ws.state(), State::Open) {
            self.on_open(generation);
        }
        let (sink, mut frames) = ws.split();
        spawn_local(write_ws(queued, sink));
        while let Some(frame) = frames.next().await {
            match frame {
                Ok(Message::Text(text)) => self.on_message(generation, text),
                Ok(Message::Bytes(bytes)) => self.on_message(generation, binary_text(&bytes)),
                Err(WebSocketError::ConnectionError) => self
                    .conn
                    .update_value(|c| c.end.error |= c.generation == generation),
                Err(WebSocketError::ConnectionClose(close)) => {
                    return self.on_close(generation, close.code, close.reason, close.was_clean);
                }
                Err(_) => {}
            }
        }
    }

    fn on_open(&self, generation: u32) {
        if !self.current(generation) {
            return;
        }
        self.conn.update_value(|c| c.end.opened = true);
        self.state.set(LinkState::Open { session: None });
    }

    /// A frame: into the inbox, and a flush scheduled if none is (at once after a quiet spell,
    /// [`SETTLE_MS`] after the last flush in a burst, so a flood costs a few log updates).
    fn on_message(&self, generation: u32, text: String) {
        if !self.current(generation) {
            return;
        }
        let delay = self.conn.try_update_value(|c| {
            c.inbox.push(text);
            if c.flush_due {
                return None;
            }
            c.flush_due = true;
            Some(if clock_ms() - c.last_flush < f64::from(SETTLE_MS) {
                SETTLE_MS
            } else {
                0
            })
        });
        if let Some(ms) = delay.flatten() {
            self.flush_after(generation, ms);
        }
    }

    fn flush_after(&self, generation: u32, ms: u32) {
        let link = *self;
        set_timeout(
            move || link.flush(generation, BATCH),
            Duration::from_millis(u64::from(ms)),
        );
    }

    /// Records up to `most` frames of the inbox with one log update; schedules the rest.
    fn flush(&self, generation: u32, most: usize) {
        if !self.current(generation) {
            return;
        }
        let Some((frames, more, peer)) = self.conn.try_update_value(|c| {
            let frames: Vec<String> = c.inbox.drain(..c.inbox.len().min(most)).collect();
            c.last_flush = clock_ms();
            c.flush_due = !c.inbox.is_empty();
            (frames, c.flush_due, c.peer.clone())
        }) else {
            return;
        };
        if !frames.is_empty() {
            let now = clock_ms();
            self.log.log.update(|l| {
                for t in frames {
                    l.record(&peer, Direction::In, now, t);
                }
            });
        }
        if more {
            self.flush_after(generation, SETTLE_MS);
        }
    }

    /// The attempt ended: what arrived is logged, what waits is lost, and the link reconnects
    /// with backoff (or gives up, saying why).
    fn on_close(&self, generation: u32, code: u16, reason: String, was_clean: bool) {
        if !self.current(generation) {
            return;
        }
        self.flush(generation, usize::MAX);
        let Some((end, url, auto_reconnect, attempt)) = self.conn.try_update_value(|c| {
            let mut end = std::mem::take(&mut c.end);
            end.close = Some((code, reason, was_clean));
            c.socket = None;
            c.flush_due = false;
            c.attempt = if end.opened { 1 } else { c.attempt + 1 };
            (
                end,
                c.options.url.clone(),
                c.options.auto_reconnect,
                c.attempt,
            )
        }) else {
            return;
        };
        self.mark_lost(&url);
        let reason = end.explain(&url);
        if !auto_reconnect || attempt > MAX_ATTEMPTS {
            return self.state.set(LinkState::Error(reason));
        }
        let delay_ms = 500u32 << (attempt - 1).min(5);
        self.state.set(LinkState::Reconnecting {
            attempt,
            delay_ms,
            reason,
        });
        let link = *self;
        set_timeout(
            move || link.open_ws(generation),
            Duration::from_millis(u64::from(delay_ms)),
        );
    }

    /// One HTTP POST (carrying log entry `key`) and its reply (JSON, or Server-Sent Events for
    /// MCP's Streamable HTTP).
    async fn post(self, generation: u32, peer: String, doc: String, key: u64) {
        let (headers, session) = self
            .conn
            .with_value(|c| (c.headers.clone(), c.session.clone()));
        let reply = fetch_post(&peer, &doc, &headers, session.as_deref()).await;
        if !self.current(generation) {
            return;
        }
        let response = match reply {
            Ok(r) => r,
            Err(e) => {
                self.post_failed(key, format!("the POST failed before any reply ({e})"));
                self.state
                    .set(LinkState::Error(explain_fetch_error(&peer, &e)));
                return;
            }
        };
        let reply_headers = response.headers();
        let header = |name: &str| reply_headers.get(name);
        if let Some(id) = header("mcp-session-id") {
            if session.as_deref() != Some(id.as_str()) {
                self.conn.update_value(|c| c.session = Some(id.clone()));
                self.state.set(LinkState::Open { session: Some(id) });
            }
        }
        // The endpoint answers: an error another POST met (no reply at all) is over.
        if matches!(self.state.get_untracked(), LinkState::Error(_)) {
            self.state.set(LinkState::Open {
                session: self.conn.with_value(|c| c.session.clone()),
            });
        }
        let status = response.status();
        let status_line = format!("HTTP {status} {}", response.status_text());
        let status_line = status_line.trim_end();
        // The media type, before any parameter (`text/event-stream; charset=utf-8`), in any case.
        let is_sse = header("content-type").is_some_and(|t| {
            t.split(';')
                .next()
                .is_some_and(|m| m.trim().eq_ignore_ascii_case("text/event-stream"))
        });
        let body = response.text().await.map_err(|e| e.to_string());
        let body = match body {
            Ok(b) => b,
            Err(e) => {
                self.post_failed(
                    key,
                    format!("the reply ({status_line}) could not be read: {e}"),
                );
                self.app.notify(
                    NoticeLevel::Error,
                    format!("The reply from {peer} (HTTP {status}) could not be read: {e}"),
                );
                return;
            }
        };
        if !self.current(generation) {
            return;
        }
        let messages = if is_sse {
            sse_data(&body)
        } else if body.trim().is_empty() {
            Vec::new()
        } else {
            vec![body]
        };
        if messages.is_empty() && !(200..300).contains(&status) {
            self.app.notify(
                NoticeLevel::Error,
                format!(
                    "{peer} answered HTTP {status} {} with an empty body.",
                    response.status_text()
                ),
            );
        }
        let empty = messages.is_empty();
        if !empty {
            let now = clock_ms();
            self.log.log.update(|l| {
                for m in messages {
                    l.record(&peer, Direction::In, now, m);
                }
            });
        }
        if !(200..300).contains(&status) {
            // What the body held is logged (an error reply pairs); what it did not answer never will be.
            let body = if empty {
                "an empty body"
            } else {
                "no reply to it"
            };
            self.post_failed(
                key,
                format!("the server answered {status_line} with {body}"),
            );
        }
    }

    /// Puts a response to the server's request with id `id` in the editor and sends to the link.
    pub fn prefill_reply(&self, id: &str) {
        self.app.text.set(reply_text(id));
        self.app.target.set(super::state::Target::Link);
    }
}

/// The writer of one attempt: sends what the link queues, in order, until the queue closes (the
/// attempt ended) or the socket refuses.
async fn write_ws(mut queued: UnboundedReceiver<String>, mut sink: impl Sink<Message> + Unpin) {
    while let Some(text) = queued.next().await {
        if sink.send(Message::Text(text)).await.is_err() {
            return;
        }
    }
}

/// How a WebSocket connection ended.
#[derive(Default)]
struct End {
    opened: bool,
    error: bool,
    close: Option<(u16, String, bool)>,
}

impl End {
    /// The end in words a user can act on.
    fn explain(&self, url: &str) -> String {
        match (&self.close, self.opened) {
            (Some((code, _, _)), false) if *code == 1006 || self.error => format!(
                "no WebSocket connection to {url} (code 1006, the browser gives no more detail): nothing is listening there, \
                 or the server refused the handshake (wrong path or subprotocol). Check that the server runs and the host, port and path."
            ),
            (Some((1006, _, _)), true) => "the connection dropped without a close frame (code 1006): the server stopped or the network failed".into(),
            (Some((code, reason, _)), _) if reason.is_empty() => format!("the server closed the connection with code {code} and no reason"),
            (Some((code, reason, _)), _) => format!("the server closed the connection with code {code}: “{reason}”"),
            (None, _) => "the connection ended".into(),
        }
    }
}

/// A POST of `body` to `url` with the link's headers; the response, or why there was none.
async fn fetch_post(
    url: &str,
    body: &str,
    headers: &[(String, String)],
    session: Option<&str>,
) -> Result<gloo_net::http::Response, String> {
    let mut all = vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    if let Some(id) = session {
        all.push(("Mcp-Session-Id", id));
    }
    all.extend(headers.iter().map(|(n, v)| (n.as_str(), v.as_str())));
    // The browser refuses some names and values: say which before gloo-net's builder sees them.
    let probe = web_sys::Headers::new().map_err(|e| crate::ui::js_error_text(&e))?;
    let mut request = gloo_net::http::Request::post(url);
    for (name, value) in all {
        probe.set(name, value).map_err(|e| {
            format!(
                "the header {name} cannot be sent ({})",
                crate::ui::js_error_text(&e)
            )
        })?;
        request = request.header(name, value);
    }
    request
        .body(body.to_string())
        .map_err(|e| e.to_string())?
        .send()
        .await
        .map_err(|e| e.to_string())
}

/// The transport a URL asks for, or why it cannot be used from this page.
fn check_url(url: &str) -> Result<Transport, String> {
    if url.is_empty() {
        return Err("Enter an endpoint URL, e.g. ws://127.0.0.1:8765 (jrpc serve --ws 127.0.0.1:8765) or http://127.0.0.1:8766.".into());
    }
    let parsed = web_sys::Url::new(url)
        .map_err(|_| format!("“{url}” is not a URL: write it whole, e.g. ws://127.0.0.1:8765/."))?;
    let scheme = parsed.protocol();
    let transport = match scheme.as_str() {
        "ws:" | "wss:" => Transport::Ws,
        "http:" | "https:" => Transport::Http,
        other => return Err(format!("The scheme {other} is not one the link speaks: use ws://, wss://, http:// or https://.")),
    };
    let page_secure = window().location().protocol().is_ok_and(|p| p == "https:");
    let host = parsed.hostname();
    let local = matches!(host.as_str(), "localhost" | "127.0.0.1" | "[::1]")
        || host.ends_with(".localhost");
    if page_secure && (scheme == "ws:" || scheme == "http:") && !local {
        return Err(format!(
            "This page was loaded over HTTPS, and browsers block {scheme}// connections from it (mixed content). \
             Use {}// on the server, or open the playground over http://.",
            if scheme == "ws:" { "wss:" } else { "https:" }
        ));
    }
    Ok(transport)
}

/// `Name: value` lines (blank lines skipped), or the first line that is not one.
fn parse_headers(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(format!(
                "HTTP headers, line {}: “{line}” has no colon; write Name: value.",
                n + 1
            ));
        };
        let name = name.trim();
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
        {
            return Err(format!(
                "HTTP headers, line {}: “{name}” is not a header name.",
                n + 1
            ));
        }
        out.push((name.to_string(), value.trim().to_string()));
    }
    Ok(out)
}

fn explain_open_error(url: &str, error: &str) -> String {
    // js_error writes a DOMException as "<name>: <message>".
    if error.starts_with("SecurityError") {
        format!("the browser refused to open {url} ({error}): from an HTTPS page only wss:// is allowed (mixed content), and some ports are blocked.")
    } else {
        format!("the browser could not open {url}: {error}")
    }
}

fn explain_fetch_error(url: &str, error: &str) -> String {
    format!(
        "the POST to {url} failed before any reply ({error}). Either nothing listens there (the connection was refused), or the \
         server does not allow this page's origin (CORS: it must answer the preflight with Access-Control-Allow-Origin and allow \
         the Content-Type, Accept, Mcp-Session-Id and any header you added). The browser console names the exact cause."
    )
}

/// The log text of a binary frame: its size and its first bytes in hex.
fn binary_text(bytes: &[u8]) -> String {
    const SHOWN: usize = 32;
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = format!("{BINARY_PREFIX}{} bytes:", bytes.len());
    for b in bytes.iter().take(SHOWN) {
        s.push(' ');
        s.push(char::from(HEX[usize::from(b >> 4)]));
        s.push(char::from(HEX[usize::from(b & 15)]));
    }
    if bytes.len() > SHOWN {
        s.push_str(" …");
    }
    s
}

/// The data of each Server-Sent Event of `body` (`data:` lines joined by newlines).
fn sse_data(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut data: Option<String> = None;
    for line in body.lines().chain(std::iter::once("")) {
        if line.is_empty() {
            if let Some(d) = data.take() {
                if !d.trim().is_empty() {
                    out.push(d);
                }
            }
        } else if let Some(rest) = line.strip_prefix("data:") {
            let rest = rest.strip_prefix(' ').unwrap_or(rest);
            match &mut data {
                Some(d) => {
                    d.push('\n');
                    d.push_str(rest);
                }
                None => data = Some(rest.to_string()),
            }
        }
    }
    out
}

/// A response to a server's request with id `id` (its exact text), for the editor.
pub fn reply_text(id: &str) -> String {
    format!("{{\"jsonrpc\": \"2.0\", \"id\": {id}, \"result\": {{}}}}")
}

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
    let report = rpc::check_text(raw, Profile::JsonRpc);
    let v = report.violations().next()?;
    Some(format!("not JSON at byte {}: {}", v.span.start, v.message))
}
