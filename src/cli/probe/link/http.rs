//! An HTTP server: each message is a POST (Streamable HTTP for MCP, plain JSON-RPC over HTTP
//! otherwise). The response is JSON (the reply), `202` with no body (nothing to reply), or an SSE
//! stream whose events carry the server's messages, read until the reply arrives. The session id
//! (`Mcp-Session-Id`) a response gives is sent back on every later POST, with
//! `MCP-Protocol-Version` once negotiated (under 2026-07-28 with `Mcp-Method` and `Mcp-Name`
//! mirrored from each request's body); the session is deleted at the end. One TCP connection
//! per POST: an SSE stream left open after its reply is simply dropped.

use std::collections::VecDeque;
use std::time::Duration;

use http_body_util::{BodyExt, Empty, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, Uri};
use hyper_util::rt::TokioIo;

use super::tls::{self, Endpoint};
use crate::event_stream::{Event, EventStream};
use crate::probe::link::{http_note, is_reply, request_headers, Delivery, HttpBody, LinkError};

/// The largest response body read.
const MAX_BODY: usize = 16 * 1024 * 1024;

pub struct HttpLink {
    uri: Uri,
    pub session: Option<String>,
    pub protocol_version: Option<String>,
    inbox: VecDeque<String>,
    connect_timeout: Duration,
}

impl HttpLink {
    pub fn new(uri: Uri, connect_timeout: Duration) -> HttpLink {
        HttpLink {
            uri,
            session: None,
            protocol_version: None,
            inbox: VecDeque::new(),
            connect_timeout,
        }
    }

    pub fn queued(&mut self) -> Option<String> {
        self.inbox.pop_front()
    }

    /// `https://`: TLS (port 443 unless the URL names one).
    fn tls(&self) -> bool {
        self.uri.scheme_str() == Some("https")
    }

    fn port(&self) -> u16 {
        self.uri
            .port_u16()
            .unwrap_or(if self.tls() { 443 } else { 80 })
    }

    fn authority(&self) -> String {
        let host = self.uri.host().unwrap_or("localhost");
        let port = self.port();
        if host.contains(':') && !host.starts_with('[') {
            format!("[{host}]:{port}")
        } else {
            format!("{host}:{port}")
        }
    }

    async fn request<B>(&self, request: Request<B>) -> Result<Response<Incoming>, LinkError>
    where
        B: hyper::body::Body + Send + 'static,
        B::Data: Send,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let url = self.uri.to_string();
        let to = Endpoint {
            url: &url,
            host: self.uri.host().unwrap_or("localhost"),
            port: self.port(),
            tls: self.tls(),
        };
        let stream = tls::connect(&to, self.connect_timeout).await?;
        let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| LinkError(format!("HTTP handshake with {} failed: {e}", self.uri)))?;
        tokio::spawn(connection);
        sender
            .send_request(request)
            .await
            .map_err(|e| LinkError(format!("HTTP request to {} failed: {e}", self.uri)))
    }

    fn builder(&self, method: Method) -> hyper::http::request::Builder {
        let path = self
            .uri
            .path_and_query()
            .map_or("/", |p| p.as_str())
            .to_string();
        let mut builder = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, self.authority());
        if let Some(id) = self
            .session
            .as_deref()
            .and_then(|s| HeaderValue::from_str(s).ok())
        {
            builder = builder.header("mcp-session-id", id);
        }
        if let Some(v) = self
            .protocol_version
            .as_deref()
            .and_then(|s| HeaderValue::from_str(s).ok())
        {
            builder = builder.header("mcp-protocol-version", v);
        }
        builder
    }

    /// POSTs `text` (with the headers a 2026-07-28 request mirrors its body into); the messages
    /// of the response are queued. A response that does not arrive in
    /// `timeout` is not an error of the link (the request is then unanswered).
    pub async fn post(&mut self, text: &str, timeout: Duration) -> Result<Delivery, LinkError> {
        let mut builder = self
            .builder(Method::POST)
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "application/json, text/event-stream");
        // Under 2026-07-28 a request mirrors its method and name into headers (SEP-2243).
        for (name, value) in request_headers(self.protocol_version.as_deref(), text) {
            builder = builder.header(name, value);
        }
        let request = builder
            .body(Full::new(Bytes::from(text.to_string())))
            .map_err(|e| LinkError(format!("cannot build the HTTP request: {e}")))?;
        let exchange = async {
            let response = self.request(request).await?;
            let status = response.status().as_u16();
            if let Some(id) = response
                .headers()
                .get("mcp-session-id")
                .and_then(|v| v.to_str().ok())
            {
                self.session = Some(id.to_string());
            }
            let content_type = response
                .headers()
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_ascii_lowercase();
            let mut body = response.into_body();
            let mut messages = Vec::new();
            if content_type.starts_with("text/event-stream") {
                read_events(&mut body, &mut messages).await?;
            }
            let mut error_page = None;
            if !content_type.starts_with("text/event-stream") {
                let bytes = read_body(&mut body).await?;
                match HttpBody::read(status, &content_type, &String::from_utf8_lossy(&bytes)) {
                    HttpBody::Empty => {}
                    HttpBody::Message(text) => messages.push(text),
                    HttpBody::ErrorPage(page) => error_page = Some(page),
                }
            }
            let note = http_note(status, error_page.as_deref(), !messages.is_empty());
            Ok::<_, LinkError>((status, messages, note))
        };
        match tokio::time::timeout(timeout, exchange).await {
            Err(_) => Ok(Delivery {
                http_status: None,
                note: Some(format!("no HTTP response within {timeout:?}")),
            }),
            Ok(Err(e)) => Err(e),
            Ok(Ok((status, messages, note))) => {
                self.inbox.extend(messages);
                Ok(Delivery {
                    http_status: Some(status),
                    note,
                })
            }
        }
    }

    /// Ends the MCP session (`DELETE` with its id), if there is one; a refusal is fine (405).
    pub async fn end_session(self) {
        if self.session.is_none() {
            return;
        }
        if let Ok(request) = self.builder(Method::DELETE).body(Empty::<Bytes>::new()) {
            let _ = tokio::time::timeout(Duration::from_secs(1), self.request(request)).await;
        }
    }
}

/// GETs `uri` (an OpenRPC document named by URL): its body, at most 16 MiB, all of it within
/// `timeout`. A status other than 2xx is an error naming it (a redirect's `Location` too: it is not
/// followed).
pub async fn get(uri: Uri, timeout: Duration) -> Result<Vec<u8>, LinkError> {
    let link = HttpLink::new(uri.clone(), timeout);
    let request = link
        .builder(Method::GET)
        .header(header::ACCEPT, "application/json")
        .body(Empty::<Bytes>::new())
        .map_err(|e| LinkError(format!("cannot build the HTTP request: {e}")))?;
    let fetch = async {
        let response = link.request(request).await?;
        let status = response.status();
        if !status.is_success() {
            let moved = response
                .headers()
                .get(header::LOCATION)
                .and_then(|v| v.to_str().ok())
                .map_or(String::new(), |to| {
                    format!(" (to {to}: redirects are not followed; give that URL)")
                });
            return Err(LinkError(format!("{uri} answered HTTP {status}{moved}")));
        }
        read_body(&mut response.into_body()).await
    };
    tokio::time::timeout(timeout, fetch).await.map_err(|_| {
        LinkError(format!(
            "{uri} did not send the whole document within {timeout:?}"
        ))
    })?
}

async fn read_body(body: &mut Incoming) -> Result<Vec<u8>, LinkError> {
    let mut bytes = Vec::new();
    while let Some(frame) = body.frame().await {
        let frame =
            frame.map_err(|e| LinkError(format!("reading the HTTP response failed: {e}")))?;
        if let Some(data) = frame.data_ref() {
            bytes.extend_from_slice(data);
            if bytes.len() > MAX_BODY {
                return Err(LinkError(format!(
                    "the HTTP response is larger than {MAX_BODY} bytes"
                )));
            }
        }
    }
    Ok(bytes)
}

/// Reads Server-Sent Events until one carries a response (the reply the POST waits for) or the
/// stream ends; every event's data is a message (the engine's [`EventStream`] reads them).
async fn read_events(body: &mut Incoming, messages: &mut Vec<String>) -> Result<(), LinkError> {
    let mut events = EventStream::new(MAX_BODY);
    let mut read = 0usize;
    while let Some(frame) = body.frame().await {
        let frame =
            frame.map_err(|e| LinkError(format!("reading the event stream failed: {e}")))?;
        let Some(data) = frame.data_ref() else {
            continue;
        };
        read += data.len();
        if read > MAX_BODY {
            return Err(LinkError(format!(
                "the event stream sent more than {MAX_BODY} bytes"
            )));
        }
        let complete = events
            .push(data)
            .map_err(|e| LinkError(format!("reading the event stream: {e}")))?;
        for message in complete.into_iter().filter_map(Event::message) {
            let answers = is_reply(&message);
            messages.push(message);
            if answers {
                return Ok(());
            }
        }
    }
    messages.extend(events.finish().and_then(Event::message));
    Ok(())
}
