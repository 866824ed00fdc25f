//! The live link's transport: a WebSocket through gloo-net (split into its `Sink` and `Stream`,
//! a reader and a writer task on `spawn_local`), HTTP POST through `gloo_net::http` with a JSON
//! or Server-Sent Events reply, reconnecting with backoff, timeouts, and what reaches the log.

use crate::event_stream::{Event, EventStream};
use crate::exchange::{Direction, Status};
use crate::json::{split_stream, Direction as Side};
use crate::ui::exchange::clock_ms;
use crate::ui::prelude::spawn_local;
use crate::ui::prelude::*;
use crate::ui::state::NoticeLevel;
use futures_channel::mpsc::{unbounded, UnboundedReceiver};
use futures_util::future::{poll_fn, AbortHandle, Abortable};
use futures_util::{Sink, SinkExt, StreamExt};
use gloo_net::websocket::futures::WebSocket;
use gloo_net::websocket::{Message, State, WebSocketError};
use std::time::Duration;

use super::wording::{
    binary_text, check_url, explain_fetch_error, explain_open_error, parse_headers,
};
use super::{Link, LinkOptions, LinkState, Socket, Transport, BATCH, MAX_ATTEMPTS, SETTLE_MS};

/// The longest Server-Sent Event read from an HTTP reply (a longer one ends the read).
const MAX_EVENT: usize = 16 * 1024 * 1024;

impl Link {
    /// The connection state, to read: only the link itself writes it. (The signal itself, not a
    /// read-only `Signal` wrapper: that would compile Leptos' wrapper code for this one type;
    /// docs/size-rules.md, 4.)
    pub fn state(&self) -> RwSignal<LinkState> {
        self.state
    }

    fn current(&self, generation: u32) -> bool {
        self.conn.with_value(|c| c.generation == generation)
    }

    /// Marks what has waited longer than the timeout, and moves the clock of the pending list.
    pub(super) fn tick(&self) {
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
                    e.peer != crate::ui::exchange::MOCK_PEER
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
                    && e.peer != crate::ui::exchange::MOCK_PEER
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
        let options = self.draft.get_untracked();
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
        // An SSE reply is read as it arrives: MCP's server may send its own request (sampling,
        // elicitation) on the stream and hold the result until the client answers in another
        // POST, so waiting for the end of the body would wait forever.
        let (messages, read) = if is_sse {
            let mut events = EventStream::new(MAX_EVENT);
            let mut seen = 0;
            let read = self
                .read_stream(&response, generation, &peer, |chunk| {
                    let complete: Vec<String> = events
                        .push(chunk)
                        .map_err(|e| e.to_string())?
                        .into_iter()
                        .filter_map(Event::message)
                        .collect();
                    seen += complete.len();
                    Ok(complete)
                })
                .await;
            let rest: Vec<String> = events
                .finish()
                .and_then(Event::message)
                .into_iter()
                .collect();
            let empty = seen + rest.len() == 0;
            (rest, read.map(|()| empty))
        } else {
            match response.text().await {
                Ok(body) if body.trim().is_empty() => (Vec::new(), Ok(true)),
                Ok(body) => (vec![body], Ok(false)),
                Err(e) => (Vec::new(), Err(e.to_string())),
            }
        };
        let nothing_read = match read {
            Ok(empty) => empty && messages.is_empty(),
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
        if nothing_read && !(200..300).contains(&status) {
            self.app.notify(
                NoticeLevel::Error,
                format!(
                    "{peer} answered HTTP {status} {} with an empty body.",
                    response.status_text()
                ),
            );
        }
        let empty = nothing_read;
        self.record_in(&peer, messages);
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

    /// Logs what the server sent, as received now.
    fn record_in(&self, peer: &str, messages: Vec<String>) {
        if messages.is_empty() {
            return;
        }
        let now = clock_ms();
        self.log.log.update(|l| {
            for m in messages {
                l.record(peer, Direction::In, now, m);
            }
        });
    }

    /// Reads `response`'s body chunk by chunk until it ends, logging what `take` makes of each
    /// chunk as it arrives; stops (and cancels the read) when the connection is no longer
    /// `generation`. `Err`: why the body could not be read (or what `take` refused).
    async fn read_stream(
        &self,
        response: &gloo_net::http::Response,
        generation: u32,
        peer: &str,
        mut take: impl FnMut(&[u8]) -> Result<Vec<String>, String>,
    ) -> Result<(), String> {
        let mut refused = None;
        read_chunks(response, |chunk| {
            if !self.current(generation) {
                return false;
            }
            match take(chunk) {
                Ok(messages) => {
                    self.record_in(peer, messages);
                    true
                }
                Err(why) => {
                    refused = Some(why);
                    false
                }
            }
        })
        .await?;
        refused.map_or(Ok(()), Err)
    }

    /// Puts `answer` (a response to a request the server sent) in the editor, as one undoable
    /// edit, and sends to the link.
    pub fn prefill_reply(&self, answer: &str) {
        self.app.replace_text_undoably(answer);
        self.app.target.set(crate::ui::state::Target::Link);
    }
}

/// Reads `response`'s body chunk by chunk as it arrives, handing each to `take`, until the body
/// ends or `take` returns false (then the read is cancelled). `Err`: why the body could not be
/// read.
pub(super) async fn read_chunks(
    response: &gloo_net::http::Response,
    mut take: impl FnMut(&[u8]) -> bool,
) -> Result<(), String> {
    use wasm_bindgen::JsCast;
    let Some(body) = response.body() else {
        return Ok(());
    };
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    crate::ui::js::read_stream(&reader, &mut take)
        .await
        .map_err(|e| crate::ui::js_error_text(&e))
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
pub(super) struct End {
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
pub(crate) async fn fetch_post(
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
