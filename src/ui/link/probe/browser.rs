//! The probe's own connection to the endpoint, in the browser: the engine's [`ProbeLink`] over a
//! gloo-net WebSocket (split into its `Sink` and `Stream`) or HTTP POSTs (the live link's
//! [`fetch_post`], with the `Mcp-Session-Id` the server gave and the negotiated
//! `MCP-Protocol-Version`, and under 2026-07-28 `Mcp-Method`/`Mcp-Name` from each request; a
//! Server-Sent Events reply read as it arrives, until it carries the reply). It is not the live
//! link's connection: the probe's messages never reach the page's log.
//! Waits are Leptos timers ([`sleep`]); the clock is the page's ([`clock_ms`]).

use std::collections::VecDeque;
use std::time::Duration;

use futures_util::future::{select, Either};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{Sink, SinkExt, StreamExt};
use gloo_net::websocket::futures::WebSocket;
use gloo_net::websocket::{Message, State, WebSocketError};

use super::super::transport::{fetch_post, read_chunks};
use super::super::wording::{binary_text, explain_fetch_error, explain_open_error};
use super::super::Transport;
use crate::event_stream::{Event, EventStream};
use crate::probe::link::{http_note, is_reply, request_headers, HttpBody};
use crate::probe::{Delivery, LinkError, ProbeLink};
use crate::ui::exchange::clock_ms;
use crate::ui::prelude::*;

/// The largest HTTP response body read (as `jrpc probe`).
const MAX_BODY: usize = 16 * 1024 * 1024;

/// Resolves after `wait` (a Leptos timer).
async fn sleep(wait: Duration) {
    let (done, waited) = futures_channel::oneshot::channel::<()>();
    set_timeout(
        move || {
            let _ = done.send(());
        },
        wait,
    );
    let _ = waited.await;
}

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
    },
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
        if content_type.starts_with("text/event-stream") {
            // Read as it arrives, until an event carries the reply: the stream may stay open.
            let mut events = EventStream::new(MAX_BODY);
            let mut read = 0;
            let mut answered = false;
            let mut refused = None;
            read_chunks(&response, |chunk| {
                read += chunk.len();
                match events.push(chunk) {
                    Ok(complete) => {
                        for message in complete.into_iter().filter_map(Event::message) {
                            answered |= is_reply(&message);
                            messages.push(message);
                        }
                    }
                    Err(e) => refused = Some(e),
                }
                !answered && read <= MAX_BODY && refused.is_none()
            })
            .await
            .map_err(|e| LinkError(format!("reading the event stream failed: {e}")))?;
            if let Some(e) = refused {
                return Err(LinkError(format!("reading the event stream: {e}")));
            }
            if read > MAX_BODY {
                return Err(LinkError(format!(
                    "the event stream sent more than {MAX_BODY} bytes"
                )));
            }
            if !answered {
                messages.extend(events.finish().and_then(Event::message));
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
        let note = http_note(status, error_page.as_deref(), !messages.is_empty());
        inbox.extend(messages);
        Ok(Delivery {
            http_status: Some(status),
            note,
        })
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
            Wire::Http { inbox, .. } => return Ok(inbox.pop_front()),
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
