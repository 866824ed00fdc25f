//! An HTTP server: each message is a POST (Streamable HTTP for MCP, plain JSON-RPC over HTTP
//! otherwise). The response is JSON (the reply), `202` with no body (nothing to reply), or an SSE
//! stream whose events carry the server's messages. An open stream is read as the probe receives
//! ([`HttpLink::receive`]), so a request the server sends on it before the reply (sampling,
//! elicitation, roots under the handshake revisions) is answered while the stream waits. A stream
//! that ends (or breaks) before its reply is resumed: after the `retry:` time it asked for, a GET
//! with `Last-Event-ID` (at most [`MAX_RESUMES`] times; only when an event id was sent, as
//! Streamable HTTP's resumability needs). The session id (`Mcp-Session-Id`) a response gives is
//! sent back on every later request, with `MCP-Protocol-Version` once negotiated (under 2026-07-28
//! with `Mcp-Method` and `Mcp-Name` mirrored from each request's body); the session is deleted at
//! the end. One TCP connection per request; a stream left open after its reply is dropped.

use std::collections::VecDeque;
use std::time::Duration;

use http_body_util::{BodyExt, Empty, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, Uri};
use hyper_util::rt::TokioIo;

use super::super::headers::Headers;
use super::oauth::{Authorizer, ClientOptions};
use super::tls::{self, Endpoint};
use crate::event_stream::{Event, EventStream};
pub use crate::probe::link::MAX_RESUMES;
use crate::probe::link::{
    called_tool, http_note, is_initialized_notification, is_reply, param_headers, request_headers,
    Delivery, HeaderParam, HttpBody, LinkError, DEFAULT_RETRY, MAX_RETRY,
};

/// The largest response body read (an event stream: in all, across its resumptions).
const MAX_BODY: usize = 16 * 1024 * 1024;
/// The most event streams open at once (a POST answering the server may open its own): past
/// it the oldest is dropped.
const MAX_OPEN_STREAMS: usize = 4;

/// An event stream being read: a POST's, or the GET that resumed it.
struct OpenStream {
    body: Incoming,
    events: EventStream,
    /// Bytes read from it and the streams it resumed.
    read: usize,
    /// GETs with Last-Event-ID made for it so far.
    resumes: usize,
}

impl OpenStream {
    /// Reads `data` (bounded: [`MAX_BODY`] in all); the messages of the events it completes.
    /// `what` names the stream in an error.
    fn messages(&mut self, data: &[u8], what: &str) -> Result<Vec<String>, LinkError> {
        self.read += data.len();
        if self.read > MAX_BODY {
            return Err(LinkError(format!(
                "the {what} sent more than {MAX_BODY} bytes"
            )));
        }
        let complete = self
            .events
            .push(data)
            .map_err(|e| LinkError(format!("reading the {what}: {e}")))?;
        Ok(complete.into_iter().filter_map(Event::message).collect())
    }
}

pub struct HttpLink {
    uri: Uri,
    pub session: Option<String>,
    pub protocol_version: Option<String>,
    inbox: VecDeque<String>,
    connect_timeout: Duration,
    /// The event streams still open (the newest last): read before anything else is received.
    streams: Vec<OpenStream>,
    /// The standalone stream (GET), once the session is initialized.
    listen: Option<OpenStream>,
    /// The next POST's `Mcp-Method` names another method (then this is reset).
    pub mismatch_method: bool,
    /// The user's headers (`--header`, the token), sent with every request.
    headers: Headers,
    /// The arguments each tool mirrors into `Mcp-Param-*` headers (2026-07-28), by tool name.
    pub header_params: std::collections::HashMap<String, Vec<HeaderParam>>,
    /// MCP authorization, unless the user sends an Authorization header of their own.
    pub auth: Option<Box<Authorizer>>,
    /// The access token authorization got, as its header value.
    bearer: Option<HeaderValue>,
}

impl HttpLink {
    pub fn new(uri: Uri, connect_timeout: Duration, headers: Headers) -> HttpLink {
        HttpLink::authorizing(uri, connect_timeout, headers, None)
    }

    /// A link that authorizes with `client` on a 401 (None: it does not), unless `headers` hold
    /// an Authorization header.
    pub fn authorizing(
        uri: Uri,
        connect_timeout: Duration,
        headers: Headers,
        client: Option<ClientOptions>,
    ) -> HttpLink {
        let auth = client
            .filter(|_| !headers.authorizes())
            .map(|client| Box::new(Authorizer::new(client, uri.to_string(), connect_timeout)));
        HttpLink {
            uri,
            session: None,
            protocol_version: None,
            inbox: VecDeque::new(),
            connect_timeout,
            streams: Vec::new(),
            listen: None,
            mismatch_method: false,
            headers,
            header_params: std::collections::HashMap::new(),
            auth,
            bearer: None,
        }
    }

    /// The next message: one queued, else one read from the open event streams within `wait`
    /// (resuming a stream that ends before its reply).
    pub async fn receive(&mut self, wait: Duration) -> Result<Option<String>, LinkError> {
        if self.inbox.is_empty() && (!self.streams.is_empty() || self.listen.is_some()) {
            self.pump(wait).await?;
        }
        Ok(self.inbox.pop_front())
    }

    /// Reads the newest open stream until it gives a message, ends with its reply, or `wait`
    /// passes; a stream that ends before its reply is resumed.
    async fn pump(&mut self, wait: Duration) -> Result<(), LinkError> {
        let until = tokio::time::Instant::now() + wait;
        while self.inbox.is_empty() {
            let read = match (self.streams.last_mut(), self.listen.as_mut()) {
                (None, None) => return Ok(()),
                (Some(post), None) => tokio::time::timeout_at(until, post.body.frame())
                    .await
                    .map(|f| (false, f)),
                (None, Some(listen)) => tokio::time::timeout_at(until, listen.body.frame())
                    .await
                    .map(|f| (true, f)),
                (Some(post), Some(listen)) => {
                    tokio::time::timeout_at(until, async {
                        tokio::select! {
                            f = post.body.frame() => (false, f),
                            f = listen.body.frame() => (true, f),
                        }
                    })
                    .await
                }
            };
            let Ok((from_listen, frame)) = read else {
                return Ok(());
            };
            if from_listen {
                self.listened(frame)?;
                continue;
            }
            let stream = self.streams.last_mut().expect("the stream just read");
            let ended = match frame {
                Some(Ok(frame)) => {
                    let Some(data) = frame.data_ref() else {
                        continue;
                    };
                    let mut answered = false;
                    for message in stream.messages(data, "event stream")? {
                        answered |= is_reply(&message);
                        self.inbox.push_back(message);
                    }
                    if answered {
                        // Its reply came: the stream's work is done.
                        self.streams.pop();
                        return Ok(());
                    }
                    continue;
                }
                Some(Err(_)) | None => true,
            };
            if ended {
                let mut stream = self.streams.pop().expect("the stream just read");
                let last = std::mem::replace(&mut stream.events, EventStream::new(MAX_BODY));
                let retry = last.retry_ms.map(Duration::from_millis);
                let last_event_id = last.last_event_id().to_string();
                if let Some(message) = last.finish().and_then(Event::message) {
                    let answered = is_reply(&message);
                    self.inbox.push_back(message);
                    if answered {
                        return Ok(());
                    }
                }
                // Without an event id there is nothing to resume from; the request then stays
                // unanswered (and is reported so).
                if last_event_id.is_empty() || stream.resumes == MAX_RESUMES {
                    continue;
                }
                let pause = retry.unwrap_or(DEFAULT_RETRY).min(MAX_RETRY);
                if tokio::time::Instant::now() + pause >= until {
                    return Ok(());
                }
                tokio::time::sleep(pause).await;
                let left = until.saturating_duration_since(tokio::time::Instant::now());
                match tokio::time::timeout(left, self.resume(&last_event_id)).await {
                    Ok(Ok(Some(body))) => {
                        let mut events = EventStream::new(MAX_BODY);
                        // The resumed stream goes on from the same last event id.
                        let _ = events.push(format!("id: {last_event_id}\n").as_bytes());
                        self.streams.push(OpenStream {
                            body,
                            events,
                            read: stream.read,
                            resumes: stream.resumes + 1,
                        });
                    }
                    Ok(Ok(None)) => {}
                    Ok(Err(e)) => return Err(e),
                    Err(_) => return Ok(()),
                }
            }
        }
        Ok(())
    }

    /// A frame of the standalone stream: its messages queued; at its end (or break) it is
    /// closed, not resumed.
    fn listened(
        &mut self,
        frame: Option<Result<hyper::body::Frame<Bytes>, hyper::Error>>,
    ) -> Result<(), LinkError> {
        let Some(listen) = self.listen.as_mut() else {
            return Ok(());
        };
        let Some(Ok(frame)) = frame else {
            if let Some(listen) = self.listen.take() {
                self.inbox
                    .extend(listen.events.finish().and_then(Event::message));
            }
            return Ok(());
        };
        let Some(data) = frame.data_ref() else {
            return Ok(());
        };
        let messages = listen.messages(data, "standalone event stream (GET)")?;
        self.inbox.extend(messages);
        Ok(())
    }

    /// Opens the standalone event stream (`GET`, no Last-Event-ID) on which a server sends its
    /// own requests and notifications outside any POST: once the session is initialized. A server
    /// that offers none (405) is fine.
    async fn listen(&mut self, timeout: Duration) {
        let Ok(request) = self
            .builder(Method::GET)
            .header(header::ACCEPT, "text/event-stream")
            .body(Empty::<Bytes>::new())
        else {
            return;
        };
        let Ok(Ok(response)) = tokio::time::timeout(timeout, self.request(request)).await else {
            return;
        };
        let event_stream = content_type(&response).starts_with("text/event-stream");
        if response.status().is_success() && event_stream {
            self.listen = Some(OpenStream {
                body: response.into_body(),
                events: EventStream::new(MAX_BODY),
                read: 0,
                resumes: 0,
            });
        }
    }

    /// `GET` with `Last-Event-ID`: the event stream that goes on after `last_event_id`, or `None`
    /// when the server offers none (another status or content type).
    async fn resume(&self, last_event_id: &str) -> Result<Option<Incoming>, LinkError> {
        let mut builder = self
            .builder(Method::GET)
            .header(header::ACCEPT, "text/event-stream");
        if let Ok(id) = HeaderValue::from_str(last_event_id) {
            builder = builder.header("last-event-id", id);
        }
        let request = builder
            .body(Empty::<Bytes>::new())
            .map_err(|e| LinkError(format!("cannot build the HTTP request: {e}")))?;
        let response = self.request(request).await?;
        let status = response.status().as_u16();
        let content_type = content_type(&response);
        Ok(
            ((200..300).contains(&status) && content_type.starts_with("text/event-stream"))
                .then(|| response.into_body()),
        )
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
        for (name, value) in self.headers.iter() {
            builder = builder.header(name, value);
        }
        if let Some(id) = self
            .session
            .as_deref()
            .and_then(|s| HeaderValue::from_str(s).ok())
        {
            builder = builder.header("mcp-session-id", id);
        }
        if let Some(bearer) = &self.bearer {
            builder = builder.header(header::AUTHORIZATION, bearer.clone());
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
        let mismatch = std::mem::take(&mut self.mismatch_method);
        let first = self.post_request(text, mismatch)?;
        let mut response = match tokio::time::timeout(timeout, self.request(first)).await {
            Err(_) => {
                return Ok(Delivery {
                    http_status: None,
                    note: Some(format!("no HTTP response within {timeout:?}")),
                })
            }
            Ok(response) => response?,
        };
        // A 401 (or a 403 asking for more scope): authorize, and send again (each authorization
        // step has its own bounds; a person authorizing in a browser is not held to --timeout).
        while matches!(response.status().as_u16(), 401 | 403) {
            let Some(authorizer) = self.auth.as_mut() else {
                break;
            };
            let challenge = response
                .headers()
                .get(header::WWW_AUTHENTICATE)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string);
            let status = response.status().as_u16();
            let Some(token) = authorizer.refused(status, challenge.as_deref()).await? else {
                break;
            };
            let mut bearer = HeaderValue::from_str(&format!("Bearer {token}"))
                .map_err(|_| LinkError("the access token cannot be sent in a header".into()))?;
            bearer.set_sensitive(true);
            self.bearer = Some(bearer);
            let again = self.post_request(text, mismatch)?;
            response = match tokio::time::timeout(timeout, self.request(again)).await {
                Err(_) => {
                    return Ok(Delivery {
                        http_status: None,
                        note: Some(format!("no HTTP response within {timeout:?}")),
                    })
                }
                Ok(response) => response?,
            };
        }
        self.read_response(response, text, timeout).await
    }

    /// The POST of `text`, with every header it carries.
    fn post_request(&self, text: &str, mismatch: bool) -> Result<Request<Full<Bytes>>, LinkError> {
        let mut builder = self
            .builder(Method::POST)
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "application/json, text/event-stream");
        // Under 2026-07-28 a request mirrors its method and name into headers (SEP-2243); asked
        // to, once, the method header names another method (the probe's header check).
        for (name, mut value) in request_headers(self.protocol_version.as_deref(), text) {
            if mismatch && name == "Mcp-Method" {
                value = crate::probe::link::mismatched_method(&value).to_string();
            }
            builder = builder.header(name, value);
        }
        // The arguments the called tool marks x-mcp-header, as Mcp-Param-* headers.
        if let Some(params) = called_tool(text).and_then(|name| self.header_params.get(&name)) {
            for (name, value) in param_headers(self.protocol_version.as_deref(), text, params) {
                builder = builder.header(name, value);
            }
        }
        builder
            .body(Full::new(Bytes::from(text.to_string())))
            .map_err(|e| LinkError(format!("cannot build the HTTP request: {e}")))
    }

    /// Reads the response to the POST of `text` (within `timeout`): its messages queued.
    async fn read_response(
        &mut self,
        response: Response<Incoming>,
        text: &str,
        timeout: Duration,
    ) -> Result<Delivery, LinkError> {
        let exchange = async {
            let status = response.status().as_u16();
            if let Some(id) = response
                .headers()
                .get("mcp-session-id")
                .and_then(|v| v.to_str().ok())
            {
                self.session = Some(id.to_string());
            }
            let content_type = content_type(&response);
            let mut body = response.into_body();
            let mut messages = Vec::new();
            let mut stream = None;
            let mut error_page = None;
            if content_type.starts_with("text/event-stream") {
                stream = Some(body);
            } else {
                let bytes = read_body(&mut body).await?;
                match HttpBody::read(status, &content_type, &String::from_utf8_lossy(&bytes)) {
                    HttpBody::Empty => {}
                    HttpBody::Message(text) => messages.push(text),
                    HttpBody::ErrorPage(page) => error_page = Some(page),
                }
            }
            let note = http_note(
                status,
                error_page.as_deref(),
                stream.is_some() || !messages.is_empty(),
            );
            Ok::<_, LinkError>((status, messages, stream, note))
        };
        match tokio::time::timeout(timeout, exchange).await {
            Err(_) => Ok(Delivery {
                http_status: None,
                note: Some(format!("no HTTP response within {timeout:?}")),
            }),
            Ok(Err(e)) => Err(e),
            Ok(Ok((status, messages, stream, note))) => {
                self.inbox.extend(messages);
                if (200..300).contains(&status)
                    && is_initialized_notification(text)
                    && self.listen.is_none()
                {
                    self.listen(timeout).await;
                }
                if let Some(body) = stream {
                    if self.streams.len() == MAX_OPEN_STREAMS {
                        self.streams.remove(0);
                    }
                    self.streams.push(OpenStream {
                        body,
                        events: EventStream::new(MAX_BODY),
                        read: 0,
                        resumes: 0,
                    });
                }
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
    let link = HttpLink::new(uri.clone(), timeout, Headers::default());
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

/// `text` is the `notifications/initialized` notification (after it, the session is open).
/// The response's content type, in lower case ("" when it has none).
fn content_type(response: &Response<Incoming>) -> String {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase()
}
