//! The live link's transport, run in the link's worker (the `link-worker` binary,
//! src/bin/link_worker.rs, which Trunk builds into a wasm of its own that the page fetches on the
//! first Connect): a WebSocket through gloo-net (split into its `Sink` and `Stream`, a reader and
//! a writer task), HTTP POST through `gloo_net::http` with a JSON or Server-Sent Events reply,
//! reconnecting with backoff, and every read bounded (an event at most [`MAX_EVENT`] bytes). What
//! happens is told to the page as [`LinkEvent`]s ([`super::messages`]); the page keeps the
//! state, the log and the timeouts of requests ([`super::page_side`]). Nothing here touches the
//! page's DOM or Leptos: timers are the global `setTimeout` ([`sleep`]) and the clock the global
//! `performance` ([`clock_ms`], [`wall_clock_us`]), which a worker has as a page does.
//! [`fetch_post`], [`sleep`] and [`clock_ms`] serve the Probe's connection too
//! (`super::probe::browser`, in the Probe's worker): one transport, not two.

use std::cell::RefCell;
use std::time::Duration;

use futures_channel::mpsc::{unbounded, UnboundedReceiver, UnboundedSender};
use futures_util::future::{poll_fn, AbortHandle, Abortable};
use futures_util::{Sink, SinkExt, StreamExt};
use gloo_net::websocket::futures::WebSocket;
use gloo_net::websocket::{Message, State, WebSocketError};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::js_sys;
use web_sys::js_sys::futures::spawn_local;

use crate::event_stream::{Event, EventStream};
use crate::web::kit::link_words::{binary_text, explain_fetch_error, explain_open_error};
use crate::web::workers::port;
use crate::wire::link::{Endpoint, LinkEvent, LinkNews, LinkRequest};
use crate::wire::link::{LinkState, RECONNECT_ATTEMPTS};

/// The longest Server-Sent Event read from an HTTP reply (a longer one ends the read).
const MAX_EVENT: usize = 16 * 1024 * 1024;
/// The longest plain HTTP reply body read (a longer one is cancelled, and said) and the longest
/// WebSocket frame handed to the page (a longer one is dropped, and said): a hostile server
/// cannot make the page parse and log more than this in one message.
const MAX_MESSAGE: usize = MAX_EVENT;

#[wasm_bindgen]
extern "C" {
    /// The global `setTimeout` (a window's or a worker's).
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout_ms(handler: &js_sys::Function, ms: f64) -> JsValue;
    /// The global `performance.now()`: milliseconds from a monotonic clock.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    pub(crate) fn clock_ms() -> f64;
}

/// Resolves after `wait`.
pub(crate) async fn sleep(wait: Duration) {
    let (done, waited) = futures_channel::oneshot::channel::<()>();
    let fire = Closure::once_into_js(move || {
        let _ = done.send(());
    });
    let _ = set_timeout_ms(fire.unchecked_ref(), wait.as_secs_f64() * 1000.0);
    let _ = waited.await;
}

/// Now, in microseconds since the Unix epoch: `performance.timeOrigin + performance.now()`, the
/// clock the page's log stamps its entries with (`crate::web::kit::log_words::clock_ms`, in ms). The
/// worker's time origin is its own, but both are on the same wall clock, so a time stamped here
/// compares with one stamped in the page.
fn wall_clock_us() -> u64 {
    let performance = js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .unwrap_or(JsValue::UNDEFINED);
    let origin = js_sys::Reflect::get(&performance, &"timeOrigin".into())
        .ok()
        .and_then(|o| o.as_f64());
    let ms = origin.map_or_else(js_sys::Date::now, |origin| origin + clock_ms());
    // Milliseconds since 1970 with microsecond digits: far below 2^53, never negative.
    (ms * 1000.0) as u64
}

/// Tells the page what happened on connection `generation`.
fn say(generation: u32, news: LinkNews) {
    port::event(&LinkEvent { generation, news });
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

/// The connection the worker runs (one at a time).
#[derive(Default)]
struct Conn {
    /// The page's number of this connection: tasks of an older one stop.
    generation: u32,
    /// Where it goes and how.
    endpoint: Endpoint,
    /// The WebSocket of the current attempt.
    socket: Option<Socket>,
    /// How the current attempt is going (for the words when it ends).
    end: End,
    /// Attempts in a row without an open connection between them.
    attempt: u32,
    /// The MCP session id an HTTP server returned (`Mcp-Session-Id`), resent with every POST.
    session: Option<String>,
    /// The last state said is an error a POST met (HTTP): the next reply ends it.
    post_error: bool,
}

thread_local! {
    static CONN: RefCell<Conn> = RefCell::new(Conn::default());
}

/// Runs `f` on the connection (never across an await, never re-entered).
fn with<R>(f: impl FnOnce(&mut Conn) -> R) -> R {
    CONN.with(|c| f(&mut c.borrow_mut()))
}

fn current(generation: u32) -> bool {
    with(|c| c.generation == generation)
}

/// The worker's main: reads the page's requests from now on.
pub fn start() {
    port::serve(
        |request| match serde_json::from_str::<LinkRequest>(request.body) {
            Ok(request) => handle(request),
            // The page and the worker come from one build: a request it cannot read is a bug the
            // console should show.
            Err(e) => web_sys::console::error_1(&format!("link worker: {e}").into()),
        },
    );
}

fn handle(request: LinkRequest) {
    match request {
        LinkRequest::Connect {
            generation,
            endpoint,
        } => {
            let websocket = endpoint.websocket;
            // The old connection (its socket) is dropped here: its tasks stop.
            let old = with(|c| {
                std::mem::replace(
                    c,
                    Conn {
                        generation,
                        endpoint,
                        ..Conn::default()
                    },
                )
            });
            drop(old);
            if websocket {
                open_ws(generation);
            } else {
                // HTTP has no connection to hold: each Send is a POST of its own.
                say(
                    generation,
                    LinkNews::State(LinkState::Open { session: None }),
                );
            }
        }
        LinkRequest::Send {
            generation,
            text,
            key,
        } => send(generation, text, key),
        LinkRequest::Disconnect { generation } => {
            // Dropping the socket removes its handlers and closes it.
            let socket = with(|c| {
                c.generation = generation;
                c.socket.take()
            });
            drop(socket);
        }
    }
}

/// Sends one document over the current connection: a WebSocket frame, or a POST of its own.
fn send(generation: u32, text: String, key: u64) {
    let Some((websocket, outbox)) = with(|c| {
        (c.generation == generation).then(|| {
            (
                c.endpoint.websocket,
                c.socket.as_ref().map(|s| s.outbox.clone()),
            )
        })
    }) else {
        return;
    };
    if !websocket {
        spawn_local(post(generation, text, key));
        return;
    }
    if !outbox.is_some_and(|outbox| outbox.unbounded_send(text).is_ok()) {
        say(
            generation,
            LinkNews::Lost {
                key,
                why: "the WebSocket closed before it could be sent".into(),
            },
        );
    }
}

/// Opens a WebSocket for this connection (the first attempt, or the next after the last
/// ended); its reader task drives everything after.
fn open_ws(generation: u32) {
    let Some((url, protocol, attempt)) = with(|c| {
        (c.generation == generation).then(|| {
            (
                c.endpoint.url.clone(),
                c.endpoint.protocol.trim().to_string(),
                c.attempt,
            )
        })
    }) else {
        return;
    };
    if attempt == 0 {
        say(generation, LinkNews::State(LinkState::Connecting));
    }
    let opened = if protocol.is_empty() {
        WebSocket::open(&url)
    } else {
        WebSocket::open_with_protocol(&url, &protocol)
    };
    let ws = match opened {
        Ok(ws) => ws,
        Err(e) => {
            let why = explain_open_error(&url, &e.to_string());
            return say(generation, LinkNews::State(LinkState::Error(why)));
        }
    };
    let (outbox, queued) = unbounded();
    let (reader, registration) = AbortHandle::new_pair();
    let old = with(|c| {
        c.end = End::default();
        c.socket.replace(Socket { outbox, reader })
    });
    drop(old);
    spawn_local(async move {
        let _ = Abortable::new(run_ws(generation, ws, queued), registration).await;
    });
}

/// The reader of one attempt: waits for the socket to open (or fail), starts the writer, then
/// tells the page each frame and the closing.
async fn run_ws(generation: u32, mut ws: WebSocket, queued: UnboundedReceiver<String>) {
    // Ready once the socket is no longer connecting: open, or failed.
    let _ = poll_fn(|cx| std::pin::Pin::new(&mut ws).poll_ready(cx)).await;
    if matches!(ws.state(), State::Open) && current(generation) {
        with(|c| c.end.opened = true);
        say(
            generation,
            LinkNews::State(LinkState::Open { session: None }),
        );
    }
    let (sink, mut frames) = ws.split();
    spawn_local(write_ws(queued, sink));
    while let Some(frame) = frames.next().await {
        // Stamped as the frame is taken from the socket (the page logs it with this time).
        let at_us = wall_clock_us();
        let text = match frame {
            Ok(Message::Text(text)) if text.len() > MAX_MESSAGE => {
                say_too_long(generation, "A WebSocket frame", text.len());
                continue;
            }
            Ok(Message::Bytes(bytes)) if bytes.len() > MAX_MESSAGE => {
                say_too_long(generation, "A binary WebSocket frame", bytes.len());
                continue;
            }
            Ok(Message::Text(text)) => text,
            Ok(Message::Bytes(bytes)) => binary_text(&bytes),
            Err(WebSocketError::ConnectionError) => {
                with(|c| c.end.error |= c.generation == generation);
                continue;
            }
            Err(WebSocketError::ConnectionClose(close)) => {
                return on_close(generation, close.code, close.reason);
            }
            Err(_) => continue,
        };
        if current(generation) {
            say(generation, LinkNews::Message { text, at_us });
        }
    }
}

/// The attempt ended: the page marks what waits lost, and the link reconnects with backoff (or
/// gives up, saying why).
fn on_close(generation: u32, code: u16, reason: String) {
    let Some((end, url, auto_reconnect, attempt)) = with(|c| {
        if c.generation != generation {
            return None;
        }
        let mut end = std::mem::take(&mut c.end);
        end.close = Some((code, reason));
        c.attempt = if end.opened { 1 } else { c.attempt + 1 };
        Some((
            end,
            c.endpoint.url.clone(),
            c.endpoint.auto_reconnect,
            c.attempt,
        ))
    }) else {
        return;
    };
    // The socket of this attempt (this task's own: its abort takes effect once it returns).
    let socket = with(|c| c.socket.take());
    drop(socket);
    say(generation, LinkNews::Closed);
    let reason = end.explain(&url);
    if !auto_reconnect || attempt > RECONNECT_ATTEMPTS {
        return say(generation, LinkNews::State(LinkState::Error(reason)));
    }
    let delay_ms = 500u32 << (attempt - 1).min(5);
    say(
        generation,
        LinkNews::State(LinkState::Reconnecting {
            attempt,
            delay_ms,
            reason,
        }),
    );
    spawn_local(async move {
        sleep(Duration::from_millis(u64::from(delay_ms))).await;
        open_ws(generation);
    });
}

/// One HTTP POST (carrying log entry `key`) and its reply (JSON, or Server-Sent Events for
/// MCP's Streamable HTTP).
async fn post(generation: u32, doc: String, key: u64) {
    let (peer, headers, session) = with(|c| {
        (
            c.endpoint.url.clone(),
            c.endpoint.headers.clone(),
            c.session.clone(),
        )
    });
    let reply = fetch_post(&peer, &doc, &headers, session.as_deref()).await;
    if !current(generation) {
        return;
    }
    let response = match reply {
        Ok(r) => r,
        Err(e) => {
            let why = format!("the POST failed before any reply ({e})");
            say(generation, LinkNews::Lost { key, why });
            with(|c| c.post_error = true);
            let why = explain_fetch_error(&peer, &e);
            say(generation, LinkNews::State(LinkState::Error(why)));
            return;
        }
    };
    let reply_headers = response.headers();
    let header = |name: &str| reply_headers.get(name);
    let new_session = header("mcp-session-id").filter(|id| session.as_deref() != Some(id));
    // The endpoint answers: an error another POST met (no reply at all) is over.
    let reopen = with(|c| {
        if let Some(id) = &new_session {
            c.session = Some(id.clone());
        }
        let reopen = new_session.is_some() || c.post_error;
        c.post_error = false;
        reopen.then(|| c.session.clone())
    });
    if let Some(session) = reopen {
        say(generation, LinkNews::State(LinkState::Open { session }));
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
        let read = read_stream(&response, generation, |chunk| {
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
        match read_body(&response).await {
            Ok(body) if body.trim().is_empty() => (Vec::new(), Ok(true)),
            Ok(body) => (vec![body], Ok(false)),
            Err(e) => (Vec::new(), Err(e)),
        }
    };
    let nothing_read = match read {
        Ok(empty) => empty && messages.is_empty(),
        Err(e) => {
            let why = format!("the reply ({status_line}) could not be read: {e}");
            say(generation, LinkNews::Lost { key, why });
            let why = format!("The reply from {peer} (HTTP {status}) could not be read: {e}");
            say(generation, LinkNews::Error { why });
            return;
        }
    };
    if !current(generation) {
        return;
    }
    if nothing_read && !(200..300).contains(&status) {
        let why = format!(
            "{peer} answered HTTP {status} {} with an empty body.",
            response.status_text()
        );
        say(generation, LinkNews::Error { why });
    }
    record_in(generation, messages);
    if !(200..300).contains(&status) {
        // What the body held is logged (an error reply pairs); what it did not answer never will be.
        let body = if nothing_read {
            "an empty body"
        } else {
            "no reply to it"
        };
        let why = format!("the server answered {status_line} with {body}");
        say(generation, LinkNews::Lost { key, why });
    }
}

/// Says that a message of `len` bytes from the server was over [`MAX_MESSAGE`] and not read.
fn say_too_long(generation: u32, what: &str, len: usize) {
    if current(generation) {
        let why = format!(
            "{what} of {len} bytes from the server was dropped: the live link reads messages of at most {} MB.",
            MAX_MESSAGE >> 20
        );
        say(generation, LinkNews::Error { why });
    }
}

/// A plain reply's body as text (UTF-8; a byte sequence that is not is replaced, as `Response.text()` does),
/// read chunk by chunk and refused past [`MAX_MESSAGE`] bytes (the read is cancelled then).
async fn read_body(response: &gloo_net::http::Response) -> Result<String, String> {
    let mut body = Vec::new();
    let mut over = false;
    read_chunks(response, |chunk| {
        over = body.len() + chunk.len() > MAX_MESSAGE;
        if !over {
            body.extend_from_slice(chunk);
        }
        !over
    })
    .await?;
    if over {
        return Err(format!(
            "it is over {} MB, the most the live link reads",
            MAX_MESSAGE >> 20
        ));
    }
    Ok(String::from_utf8_lossy(&body).into_owned())
}

/// Tells the page what the server sent, as received now.
fn record_in(generation: u32, messages: Vec<String>) {
    // Stamped as the messages are read (the page logs them with this time).
    let at_us = wall_clock_us();
    for text in messages {
        say(generation, LinkNews::Message { text, at_us });
    }
}

/// Reads `response`'s body chunk by chunk until it ends, telling the page what `take` makes of
/// each chunk as it arrives; stops (and cancels the read) when the connection is no longer
/// `generation`. `Err`: why the body could not be read (or what `take` refused).
async fn read_stream(
    response: &gloo_net::http::Response,
    generation: u32,
    mut take: impl FnMut(&[u8]) -> Result<Vec<String>, String>,
) -> Result<(), String> {
    let mut refused = None;
    read_chunks(response, |chunk| {
        if !current(generation) {
            return false;
        }
        match take(chunk) {
            Ok(messages) => {
                record_in(generation, messages);
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

/// Reads `response`'s body chunk by chunk as it arrives, handing each to `take`, until the body
/// ends or `take` returns false (then the read is cancelled). `Err`: why the body could not be
/// read.
async fn read_chunks(
    response: &gloo_net::http::Response,
    mut take: impl FnMut(&[u8]) -> bool,
) -> Result<(), String> {
    let Some(body) = response.body() else {
        return Ok(());
    };
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    crate::web::kit::js::read_stream(&reader, &mut take)
        .await
        .map_err(|e| crate::web::kit::js::js_error_text(&e))
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
    close: Option<(u16, String)>,
}

impl End {
    /// The end in words a user can act on.
    fn explain(&self, url: &str) -> String {
        match (&self.close, self.opened) {
            (Some((code, _)), false) if *code == 1006 || self.error => format!(
                "no WebSocket connection to {url} (code 1006, the browser gives no more detail): nothing is listening there, \
                 or the server refused the handshake (wrong path or subprotocol). Check that the server runs and the host, port and path."
            ),
            (Some((1006, _)), true) => "the connection dropped without a close frame (code 1006): the server stopped or the network failed".into(),
            (Some((code, reason)), _) if reason.is_empty() => format!("the server closed the connection with code {code} and no reason"),
            (Some((code, reason)), _) => format!("the server closed the connection with code {code}: “{reason}”"),
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
    let probe = web_sys::Headers::new().map_err(|e| crate::web::kit::js::js_error_text(&e))?;
    let mut request = gloo_net::http::Request::post(url);
    for (name, value) in all {
        probe.set(name, value).map_err(|e| {
            format!(
                "the header {name} cannot be sent ({})",
                crate::web::kit::js::js_error_text(&e)
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
