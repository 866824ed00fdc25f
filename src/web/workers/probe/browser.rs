//! The probe's own connection to the endpoint, in the browser: the engine's [`ProbeLink`] over a
//! gloo-net WebSocket (split into its `Sink` and `Stream`) or HTTP POSTs (the live link's
//! [`fetch_post`], with the `Mcp-Session-Id` the server gave and the negotiated
//! `MCP-Protocol-Version`, and under 2026-07-28 `Mcp-Method`/`Mcp-Name` from each request; a
//! Server-Sent Events reply read as the probe receives, until it carries the reply, so that a
//! request the server sends on it first is answered while it waits). It is not the live link's
//! connection: the probe's messages never reach the page's log. A stream that ends before its
//! reply is resumed as `jrpc probe` does: after the `retry:` time it asked for, a GET with
//! `Last-Event-ID` (at most [`MAX_RESUMES`] times; only when an event id was sent).
//! It runs in the Probe's worker ([`super::worker`]): waits are the global `setTimeout`
//! ([`sleep`]) and the clock the global `performance.now()` ([`clock_ms`]), which a worker has
//! as a page does (Leptos' timers need a window); both are the live link's transport's, which
//! runs in a worker too.

use std::collections::VecDeque;
use std::time::Duration;

use futures_util::future::{select, Either};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{Sink, SinkExt, StreamExt};
use gloo_net::websocket::futures::WebSocket;
use gloo_net::websocket::{Message, State, WebSocketError};

use crate::event_stream::{Event, EventStream};
use crate::probe::link::{
    http_note, is_initialized_notification, is_reply, request_headers, HttpBody, DEFAULT_RETRY,
    MAX_RESUMES, MAX_RETRY,
};
use crate::probe::{Delivery, LinkError, ProbeLink};
use crate::web::kit::link_words::Transport;
use crate::web::kit::link_words::{binary_text, explain_fetch_error, explain_open_error};
use crate::web::workers::link::{clock_ms, fetch_post, sleep};
use wasm_bindgen::JsCast;

/// The largest HTTP response body read (as `jrpc probe`).
const MAX_BODY: usize = 16 * 1024 * 1024;

enum Wire {
    Ws {
        sink: SplitSink<WebSocket, Message>,
        frames: SplitStream<WebSocket>,
    },
    Http {
        /// The session id the server gave (`Mcp-Session-Id`), sent back with every POST.
        session: Option<String>,
        /// The negotiated MCP version, sent as `MCP-Protocol-Version`.
        protocol_version: Option<String>,
        /// The messages of the POSTs' responses, not yet received.
        inbox: VecDeque<String>,
        /// The event stream of the last POST, until it has given its reply.
        stream: Option<OpenStream>,
        /// The standalone event stream (GET), once the session is initialized, if the server
        /// offers one: read beside the POST's; at its end it is closed, not resumed.
        listen: Option<OpenStream>,
    },
}

/// An event stream being read, kept across receives.
struct OpenStream {
    reader: web_sys::ReadableStreamDefaultReader,
    /// The read in flight: kept when a wait ends before it resolves (dropping it would lose the
    /// chunk it brings).
    pending: Option<web_sys::js_sys::futures::JsFuture>,
    events: EventStream,
    /// Bytes read from it and the streams it resumed.
    read: usize,
    /// GETs with Last-Event-ID made for it so far.
    resumes: usize,
    /// A POST's stream is done once it carries its reply; the standalone stream is not.
    until_reply: bool,
}

/// Where a stream stands after [`OpenStream::pump`].
enum Pumped {
    /// Still open: nothing more within the wait, or a message came.
    Open,
    /// Done: its reply came (or it ended and cannot be resumed).
    Done,
    /// It ended before its reply, after the event `last_event_id`: to be resumed.
    Ended {
        last_event_id: String,
        retry: Duration,
    },
}

impl OpenStream {
    fn new(
        body: web_sys::ReadableStream,
        events: EventStream,
        read: usize,
        resumes: usize,
    ) -> OpenStream {
        OpenStream {
            reader: body.get_reader().unchecked_into(),
            pending: None,
            events,
            read,
            resumes,
            until_reply: true,
        }
    }

    /// Reads the stream into `inbox` until a message comes or `wait` passes; whether the stream
    /// is done (it gave its reply), open, or ended before its reply.
    async fn pump(
        &mut self,
        inbox: &mut VecDeque<String>,
        wait: Duration,
    ) -> Result<Pumped, LinkError> {
        use web_sys::js_sys::{Reflect, Uint8Array};
        let failed = |e: wasm_bindgen::JsValue| {
            LinkError(format!(
                "reading the event stream failed: {}",
                crate::web::kit::js::js_error_text(&e)
            ))
        };
        let until = clock_ms() + wait.as_secs_f64() * 1000.0;
        while inbox.is_empty() {
            let left = until - clock_ms();
            if left <= 0.0 {
                return Ok(Pumped::Open);
            }
            // The read in flight stays in `pending` while awaited: a pump dropped mid-wait (the
            // other stream gave a message first) loses no chunk.
            let reader = &self.reader;
            let read = self
                .pending
                .get_or_insert_with(|| web_sys::js_sys::futures::JsFuture::from(reader.read()));
            let chunk = match select(
                read,
                std::pin::pin!(sleep(Duration::from_secs_f64(left / 1000.0))),
            )
            .await
            {
                Either::Left((chunk, _)) => {
                    self.pending = None;
                    chunk.map_err(failed)?
                }
                Either::Right(_) => return Ok(Pumped::Open),
            };
            if Reflect::get(&chunk, &"done".into())
                .map_err(failed)?
                .is_truthy()
            {
                let events = std::mem::replace(&mut self.events, EventStream::new(MAX_BODY));
                let retry = events.retry_ms.map_or(DEFAULT_RETRY, Duration::from_millis);
                let last_event_id = events.last_event_id().to_string();
                let mut answered = false;
                if let Some(message) = events.finish().and_then(Event::message) {
                    answered = is_reply(&message);
                    inbox.push_back(message);
                }
                // Without an event id there is nothing to resume from; the request then stays
                // unanswered (and is reported so).
                if answered || last_event_id.is_empty() || self.resumes == MAX_RESUMES {
                    return Ok(Pumped::Done);
                }
                return Ok(Pumped::Ended {
                    last_event_id,
                    retry: retry.min(MAX_RETRY),
                });
            }
            let data = Reflect::get(&chunk, &"value".into())
                .map_err(failed)?
                .unchecked_into::<Uint8Array>()
                .to_vec();
            self.read += data.len();
            if self.read > MAX_BODY {
                return Err(LinkError(format!(
                    "the event stream sent more than {MAX_BODY} bytes"
                )));
            }
            let complete = self
                .events
                .push(&data)
                .map_err(|e| LinkError(format!("reading the event stream: {e}")))?;
            let mut answered = false;
            for message in complete.into_iter().filter_map(Event::message) {
                answered |= is_reply(&message);
                inbox.push_back(message);
            }
            if answered && self.until_reply {
                let _ = self.reader.cancel();
                return Ok(Pumped::Done);
            }
        }
        Ok(Pumped::Open)
    }
}

/// The probe's connection (WebSocket or HTTP) and its clock.
pub struct BrowserLink {
    url: String,
    /// The link panel's extra HTTP headers.
    headers: Vec<(String, String)>,
    wire: Wire,
    started_ms: f64,
}

impl BrowserLink {
    /// Connects to `url` (a WebSocket opens within `timeout`; HTTP has nothing to open).
    pub(super) async fn open(
        url: &str,
        transport: Transport,
        protocol: &str,
        headers: Vec<(String, String)>,
        timeout: Duration,
    ) -> Result<BrowserLink, LinkError> {
        let started_ms = clock_ms();
        let wire = match transport {
            Transport::Http => Wire::Http {
                session: None,
                protocol_version: None,
                inbox: VecDeque::new(),
                stream: None,
                listen: None,
            },
            Transport::Ws => {
                let opened = if protocol.is_empty() {
                    WebSocket::open(url)
                } else {
                    WebSocket::open_with_protocol(url, protocol)
                };
                let mut ws =
                    opened.map_err(|e| LinkError(explain_open_error(url, &e.to_string())))?;
                // Ready once the socket is no longer connecting: open, or failed.
                let ready =
                    futures_util::future::poll_fn(|cx| std::pin::Pin::new(&mut ws).poll_ready(cx));
                let in_time = matches!(
                    select(std::pin::pin!(ready), std::pin::pin!(sleep(timeout))).await,
                    Either::Left(_)
                );
                match in_time {
                    true if matches!(ws.state(), State::Open) => {}
                    true => {
                        return Err(LinkError(format!(
                            "no WebSocket connection to {url}: nothing is listening there, or the server refused the handshake"
                        )))
                    }
                    false => {
                        return Err(LinkError(format!(
                            "no WebSocket connection to {url} within {timeout:?}"
                        )))
                    }
                }
                let (sink, frames) = ws.split();
                Wire::Ws { sink, frames }
            }
        };
        Ok(BrowserLink {
            url: url.to_string(),
            headers,
            wire,
            started_ms,
        })
    }

    /// Ends the HTTP session (`DELETE` with its id), if there is one; a refusal is fine. A
    /// WebSocket closes when the link is dropped.
    pub(super) async fn close(self) {
        let Wire::Http {
            session: Some(id), ..
        } = &self.wire
        else {
            return;
        };
        let mut request = gloo_net::http::Request::delete(&self.url).header("Mcp-Session-Id", id);
        for (name, value) in &self.headers {
            request = request.header(name, value);
        }
        let request = request.send();
        let _ = select(
            std::pin::pin!(request),
            std::pin::pin!(sleep(Duration::from_secs(1))),
        )
        .await;
    }

    /// One POST of `text`; the messages of its response are queued.
    async fn post(&mut self, text: &str) -> Result<Delivery, LinkError> {
        let Wire::Http {
            session,
            protocol_version,
            inbox,
            stream,
            ..
        } = &mut self.wire
        else {
            return Ok(Delivery::default());
        };
        let mut headers = self.headers.clone();
        if let Some(version) = protocol_version {
            headers.push(("MCP-Protocol-Version".into(), version.clone()));
        }
        // Under 2026-07-28 a request mirrors its method and name into headers (SEP-2243).
        headers.extend(
            request_headers(protocol_version.as_deref(), text)
                .into_iter()
                .map(|(name, value)| (name.to_string(), value)),
        );
        let response = fetch_post(&self.url, text, &headers, session.as_deref())
            .await
            .map_err(|e| LinkError(explain_fetch_error(&self.url, &e)))?;
        let status = response.status();
        let reply_headers = response.headers();
        if let Some(id) = reply_headers.get("mcp-session-id") {
            *session = Some(id);
        }
        let content_type = reply_headers
            .get("content-type")
            .unwrap_or_default()
            .to_ascii_lowercase();
        let mut messages = Vec::new();
        let mut error_page = None;
        let mut streaming = false;
        if content_type.starts_with("text/event-stream") {
            // Read as the probe receives ([`OpenStream::pump`]): the stream may carry the
            // server's own requests before the reply.
            if let Some(body) = response.body() {
                if let Some(old) = stream.take() {
                    let _ = old.reader.cancel();
                }
                *stream = Some(OpenStream::new(body, EventStream::new(MAX_BODY), 0, 0));
                streaming = true;
            }
        } else {
            let body = response
                .text()
                .await
                .map_err(|e| LinkError(format!("reading the HTTP response failed: {e}")))?;
            match HttpBody::read(status, &content_type, &body) {
                HttpBody::Empty => {}
                HttpBody::Message(text) => messages.push(text),
                HttpBody::ErrorPage(page) => error_page = Some(page),
            }
        }
        let note = http_note(
            status,
            error_page.as_deref(),
            streaming || !messages.is_empty(),
        );
        inbox.extend(messages);
        if (200..300).contains(&status) && is_initialized_notification(text) {
            self.listen().await;
        }
        Ok(Delivery {
            http_status: Some(status),
            note,
        })
    }
}

impl BrowserLink {
    /// The next message over HTTP: one queued, else one read from the open event stream within
    /// `wait`, resuming a stream that ends before its reply.
    async fn receive_http(&mut self, wait: Duration) -> Result<Option<String>, LinkError> {
        let until = clock_ms() + wait.as_secs_f64() * 1000.0;
        loop {
            let Wire::Http {
                inbox,
                stream,
                listen,
                ..
            } = &mut self.wire
            else {
                return Ok(None);
            };
            let left = Duration::from_secs_f64(((until - clock_ms()) / 1000.0).max(0.0));
            if !inbox.is_empty() {
                return Ok(inbox.pop_front());
            }
            let pumped = match (stream.as_mut(), listen.as_mut()) {
                (None, None) => return Ok(None),
                (Some(open), None) => open.pump(inbox, left).await?,
                (open, Some(standalone)) => {
                    let mut heard = VecDeque::new();
                    let from_post = match open {
                        None => Either::Right(standalone.pump(&mut heard, left).await),
                        Some(open) => match select(
                            std::pin::pin!(open.pump(inbox, left)),
                            std::pin::pin!(standalone.pump(&mut heard, left)),
                        )
                        .await
                        {
                            Either::Left((pumped, _)) => Either::Left(pumped),
                            Either::Right((pumped, _)) => Either::Right(pumped),
                        },
                    };
                    inbox.extend(heard);
                    match from_post {
                        Either::Left(pumped) => pumped?,
                        // The standalone stream: at its end (or break) it is closed.
                        Either::Right(Ok(Pumped::Open)) if left.is_zero() => {
                            return Ok(inbox.pop_front())
                        }
                        Either::Right(Ok(Pumped::Open)) => continue,
                        Either::Right(_) => {
                            *listen = None;
                            continue;
                        }
                    }
                }
            };
            let Some(open) = stream.as_mut() else {
                return Ok(inbox.pop_front());
            };
            let (last_event_id, retry) = match pumped {
                Pumped::Open => return Ok(inbox.pop_front()),
                Pumped::Done => {
                    *stream = None;
                    return Ok(inbox.pop_front());
                }
                Pumped::Ended {
                    last_event_id,
                    retry,
                } => (last_event_id, retry),
            };
            let (read, resumes) = (open.read, open.resumes);
            *stream = None;
            if !inbox.is_empty() || clock_ms() + retry.as_secs_f64() * 1000.0 >= until {
                return Ok(inbox.pop_front());
            }
            sleep(retry).await;
            let left = Duration::from_secs_f64(((until - clock_ms()) / 1000.0).max(0.0));
            let resumed = match select(
                std::pin::pin!(self.get_stream(Some(&last_event_id))),
                std::pin::pin!(sleep(left)),
            )
            .await
            {
                Either::Left((resumed, _)) => resumed?,
                Either::Right(_) => return Ok(None),
            };
            let Some(body) = resumed else {
                return Ok(None);
            };
            let mut events = EventStream::new(MAX_BODY);
            // The resumed stream goes on from the same last event id.
            let _ = events.push(format!("id: {last_event_id}\n").as_bytes());
            if let Wire::Http { stream, .. } = &mut self.wire {
                *stream = Some(OpenStream::new(body, events, read, resumes + 1));
            }
        }
    }

    /// Opens the standalone event stream (`GET`, no Last-Event-ID) on which a server sends its
    /// own requests and notifications outside any POST, once the session is initialized. A server
    /// that offers none (405) is fine; so is one that fails to (the probe goes on without it).
    async fn listen(&mut self) {
        let opened = match self.get_stream(None).await {
            Ok(Some(body)) => body,
            Ok(None) | Err(_) => return,
        };
        if let Wire::Http { listen, .. } = &mut self.wire {
            let mut standalone = OpenStream::new(opened, EventStream::new(MAX_BODY), 0, 0);
            standalone.until_reply = false;
            *listen = Some(standalone);
        }
    }

    /// `GET` with `Last-Event-ID`: the event stream that goes on after `last_event_id`; without
    /// one, the standalone event stream. `None` when the server offers none (another status or
    /// content type).
    async fn get_stream(
        &self,
        last_event_id: Option<&str>,
    ) -> Result<Option<web_sys::ReadableStream>, LinkError> {
        let Wire::Http {
            session,
            protocol_version,
            ..
        } = &self.wire
        else {
            return Ok(None);
        };
        let mut request =
            gloo_net::http::Request::get(&self.url).header("Accept", "text/event-stream");
        if let Some(id) = last_event_id {
            request = request.header("Last-Event-ID", id);
        }
        if let Some(id) = session {
            request = request.header("Mcp-Session-Id", id);
        }
        if let Some(version) = protocol_version {
            request = request.header("MCP-Protocol-Version", version);
        }
        for (name, value) in &self.headers {
            request = request.header(name, value);
        }
        let response = request
            .send()
            .await
            .map_err(|e| LinkError(explain_fetch_error(&self.url, &e.to_string())))?;
        let event_stream = response
            .headers()
            .get("content-type")
            .unwrap_or_default()
            .to_ascii_lowercase()
            .starts_with("text/event-stream");
        Ok(((200..300).contains(&response.status()) && event_stream)
            .then(|| response.body())
            .flatten())
    }
}

impl ProbeLink for BrowserLink {
    async fn send(&mut self, text: &str, timeout: Duration) -> Result<Delivery, LinkError> {
        if let Wire::Ws { sink, .. } = &mut self.wire {
            return sink
                .send(Message::Text(text.to_string()))
                .await
                .map(|()| Delivery::default())
                .map_err(|e| LinkError(format!("the WebSocket refused the message: {e}")));
        }
        // A response that does not come in time is not an error: the request is unanswered.
        match select(
            std::pin::pin!(self.post(text)),
            std::pin::pin!(sleep(timeout)),
        )
        .await
        {
            Either::Left((delivery, _)) => delivery,
            Either::Right(_) => Ok(Delivery {
                http_status: None,
                note: Some(format!("no HTTP response within {timeout:?}")),
            }),
        }
    }

    async fn receive(&mut self, wait: Duration) -> Result<Option<String>, LinkError> {
        let frames = match &mut self.wire {
            Wire::Http { .. } => return self.receive_http(wait).await,
            Wire::Ws { frames, .. } => frames,
        };
        if wait.is_zero() {
            return Ok(None);
        }
        let next = match select(frames.next(), std::pin::pin!(sleep(wait))).await {
            Either::Left((next, _)) => next,
            Either::Right(_) => return Ok(None),
        };
        match next {
            Some(Ok(Message::Text(text))) => Ok(Some(text)),
            Some(Ok(Message::Bytes(bytes))) => Ok(Some(binary_text(&bytes))),
            Some(Err(WebSocketError::ConnectionClose(close))) => Err(LinkError(format!(
                "the server closed the WebSocket (code {}{})",
                close.code,
                if close.reason.is_empty() {
                    String::new()
                } else {
                    format!(": {}", close.reason)
                }
            ))),
            Some(Err(e)) => Err(LinkError(format!("the WebSocket failed: {e}"))),
            None => Err(LinkError("the WebSocket closed".into())),
        }
    }

    fn set_protocol_version(&mut self, version: Option<&str>) {
        if let Wire::Http {
            protocol_version, ..
        } = &mut self.wire
        {
            *protocol_version = version.map(str::to_string);
        }
    }

    fn elapsed(&self) -> Duration {
        Duration::from_secs_f64(((clock_ms() - self.started_ms) / 1000.0).max(0.0))
    }
}
