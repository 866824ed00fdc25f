//! `jrpc serve --http`: the mock server over HTTP, as MCP's Streamable HTTP transport frames it
//! (JSON replies, or an SSE stream per POST; no GET stream). Any path is the endpoint.
//!
//! - `POST` with `Content-Type: application/json`, the body one document (a message or a batch):
//!   - a reply → `200` with the reply as `application/json` (or as one Server-Sent Event,
//!     `event: message`, when the client's `Accept` takes `text/event-stream` but not JSON);
//!   - a reply the input could not be accepted for (not JSON → `-32700`, not a request → `-32600`,
//!     both with id null) → `400` with that reply as the body, as MCP asks;
//!   - nothing to return (notifications, responses) → `202 Accepted`, empty body;
//!   - something the server sends before the reply (log lines, progress) → `200` with an SSE
//!     stream: those messages, then the reply, each an `event: message`;
//!   - a call that asks the client (sampling, elicitation; in a session) → `200` with an SSE stream
//!     that carries the server's request and stays open; the client POSTs its response in the
//!     same session (answered `202`), and the stream carries the call's result, then ends. A
//!     client that does not answer within [`CLIENT_ANSWER`] gets the call's result as a tool
//!     error saying so; a client whose `Accept` has no `text/event-stream` gets that tool error
//!     at once (as JSON); a stream the client closes gives the call up.
//!   - a 2026-07-28 `subscriptions/listen` → `200` with an SSE stream: the acknowledgement
//!     (`notifications/subscriptions/acknowledged`), then the stream stays open until the client
//!     closes it (its way to cancel), or for [`LISTEN_HOLD`], when the server ends the
//!     subscription with the request's result (graceful closure); past [`MAX_HELD_LISTENS`] open
//!     streams it is ended at once. A stateless POST's server ends with the POST, so nothing else
//!     is sent on it;
//!   - another content type → `415`; an `Accept` taking neither JSON nor SSE → `406`; a body over
//!     [`MAX_BODY`] → `413`. These bodies are JSON-RPC errors with id null too.
//! - An empty body (or only whitespace) holds no JSON value → `400` with `-32700`, id null.
//! - A reply (what the server sends on its own before it included) is at most
//!   [`crate::mock::MAX_REPLY`] bytes: past it the mock answers a batch with one error
//!   (`-32010`, id null), built without ever holding the larger reply.
//! - Bounds: the request head must arrive within [`HEAD_READ`] (a kept-alive connection is closed
//!   after that long without a next request), the body within [`BODY_READ`] (else `408`); every
//!   body is answered on a blocking thread, so other connections go on meanwhile, within
//!   [`ANSWER_BUDGET`] (else `503`). A request's work holds its session's lock, never the lock of
//!   the table of sessions (held only to look one up, add or remove one).
//! - Sessions: a POST without `Mcp-Session-Id` is answered by a fresh mock server, except that a
//!   successful `initialize` starts a session, whose id comes back in `Mcp-Session-Id`; later POSTs
//!   carrying it share that session's mock server. An unknown id → `404` (the client starts over);
//!   a session unused for [`SESSION_IDLE`] is forgotten, and beyond [`MAX_SESSIONS`] the least
//!   recently used one (every request touches its session);
//!   `DELETE` with the id ends the session.
//! - `GET` → `405` with `Allow` and a short text saying how to use the endpoint (MCP's optional
//!   server-to-client stream is not offered); serving an OpenRPC document's API (`--openrpc`),
//!   `GET` → `200` with the document (what `rpc.discover` returns), and a POST is answered by
//!   [`post_openrpc`].
//! - DNS-rebinding protection first of all ([`super::guard`]): a foreign `Host` or `Origin` → `403`.
//! - CORS on every response: `Access-Control-Allow-Origin` echoes the `Origin` (or `*` without
//!   one), `Access-Control-Expose-Headers: Mcp-Session-Id`. `OPTIONS` preflights get `204` allowing
//!   GET, POST, DELETE, OPTIONS and the headers Content-Type, Accept, Authorization, Mcp-Session-Id,
//!   Mcp-Protocol-Version, Last-Event-ID plus whatever else the preflight asks for, and Chrome's
//!   private-network preflight (`Access-Control-Allow-Private-Network: true`).

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use futures_util::future::{select, Either};
use futures_util::stream::{self, StreamExt};
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt, Full, Limited, StreamBody};
use hyper::body::{Bytes, Frame, Incoming};
use hyper::header::{self, HeaderName, HeaderValue};
use hyper::{HeaderMap, Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio::sync::mpsc;

use super::guard::Guard;
use super::{stopped, Context};
use crate::cli::recording::Recording;
use crate::mock::{Answer, CallId, Fixtures, HttpHeaders, HttpReply, MockServer, OutgoingKind};
use crate::openrpc::OpenRpc;

/// The largest request body read.
pub const MAX_BODY: usize = 16 * 1024 * 1024;
/// Sessions kept at once; beyond this the least recently used is forgotten.
const MAX_SESSIONS: usize = 1024;
/// A session unused this long is forgotten (its client gets 404 and starts over, as MCP says).
pub const SESSION_IDLE: Duration = Duration::from_secs(30 * 60);
/// How long a client may take to send a request's head (also: to start the next request on a
/// kept-alive connection)…
pub const HEAD_READ: Duration = Duration::from_secs(10);
/// …and its body.
pub const BODY_READ: Duration = Duration::from_secs(30);
/// How long one POST's answer may take to be worked out (on a blocking thread, whatever its
/// size): past it the client gets `503`.
pub const ANSWER_BUDGET: Duration = Duration::from_secs(30);
/// How long a stopping server lets a connection finish its answer.
const FINISH: Duration = Duration::from_secs(1);
/// How long a call that asked the client waits for its answer (its SSE stream stays open).
pub const CLIENT_ANSWER: Duration = Duration::from_secs(300);
/// How long a `subscriptions/listen` stream stays open before the server ends it gracefully (with
/// the request's result).
pub const LISTEN_HOLD: Duration = Duration::from_secs(30 * 60);
/// The most `subscriptions/listen` streams held open at once by the process; past it a
/// subscription is ended at once, its result right after its acknowledgement.
pub const MAX_HELD_LISTENS: usize = 256;

/// How many `subscriptions/listen` streams are open now.
static HELD_LISTENS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// One held `subscriptions/listen` stream, counted while it lives.
struct HeldListen;

impl HeldListen {
    /// A place among the held streams, if one is free.
    fn take() -> Option<HeldListen> {
        use std::sync::atomic::Ordering;
        let held = HELD_LISTENS.fetch_add(1, Ordering::SeqCst);
        if held >= MAX_HELD_LISTENS {
            HELD_LISTENS.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        Some(HeldListen)
    }
}

impl Drop for HeldListen {
    fn drop(&mut self) {
        HELD_LISTENS.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

const MCP_SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
const ALLOW_HEADERS: &str =
    "Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID";
const ALLOW_METHODS: &str = "GET, POST, DELETE, OPTIONS";

type Reply = Response<UnsyncBoxBody<Bytes, Infallible>>;

/// One MCP session: its mock server and the SSE streams of its POSTs whose call waits for the
/// client's answer. Each session has a lock of its own: a request's work holds its session's,
/// never the table's ([`Sessions`]).
struct Session {
    server: MockServer,
    /// What the server sends for a waiting call goes to that call's POST ([`route`]).
    streams: HashMap<CallId, mpsc::UnboundedSender<String>>,
}

/// A session in the table: its state, and when it was last used.
struct Kept {
    session: Arc<Mutex<Session>>,
    used: Instant,
}

impl Kept {
    /// A call of the session waits for the client on an open stream (a session whose lock is
    /// held is at work, and counts as such too).
    fn in_use(&self) -> bool {
        match self.session.try_lock() {
            Ok(session) => !session.streams.is_empty(),
            Err(std::sync::TryLockError::Poisoned(session)) => {
                !session.get_ref().streams.is_empty()
            }
            Err(std::sync::TryLockError::WouldBlock) => true,
        }
    }
}

/// The MCP sessions of this process, shared by every connection. Its lock is held only to look a
/// session up, add or remove one: never while a request is answered.
#[derive(Default)]
struct Sessions {
    servers: HashMap<String, Kept>,
}

impl Sessions {
    /// Keeps `server` as session `id`. Beyond [`MAX_SESSIONS`] the least recently used session is
    /// forgotten (every request touches its session); one with a call waiting for the client on an
    /// open stream only when all have one. Creating sessions cannot push out one in use.
    fn insert(&mut self, id: String, server: MockServer) {
        while self.servers.len() >= MAX_SESSIONS {
            let least_used = self
                .servers
                .iter()
                .min_by_key(|(_, kept)| (kept.in_use(), kept.used))
                .map(|(id, _)| id.clone());
            let Some(old) = least_used else { break };
            self.servers.remove(&old);
        }
        let session = Session {
            server,
            streams: HashMap::new(),
        };
        let kept = Kept {
            session: Arc::new(Mutex::new(session)),
            used: Instant::now(),
        };
        self.servers.insert(id, kept);
    }

    /// The session, marked as used now.
    fn get(&mut self, id: &str) -> Option<Arc<Mutex<Session>>> {
        let kept = self.servers.get_mut(id)?;
        kept.used = Instant::now();
        Some(Arc::clone(&kept.session))
    }

    fn remove(&mut self, id: &str) -> bool {
        self.servers.remove(id).is_some()
    }

    /// Forgets the sessions unused for [`SESSION_IDLE`].
    fn expire_idle(&mut self) {
        self.servers
            .retain(|_, kept| kept.used.elapsed() < SESSION_IDLE);
    }
}

/// The table of sessions, locked (a poisoned lock is taken over: the table stays consistent,
/// each change being one map operation).
fn sessions() -> std::sync::MutexGuard<'static, Sessions> {
    static SESSIONS: OnceLock<Mutex<Sessions>> = OnceLock::new();
    SESSIONS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The session `id` (unless unknown or expired), marked as used now.
fn session(id: &str) -> Option<Arc<Mutex<Session>>> {
    let mut table = sessions();
    table.expire_idle();
    table.get(id)
}

/// A session's state, locked.
fn lock(session: &Mutex<Session>) -> std::sync::MutexGuard<'_, Session> {
    session
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Serves one HTTP/1.1 connection (keep-alive included) until it ends or the server stops.
pub(super) async fn connection(stream: TcpStream, name: String, context: Context) {
    let verbose = context.verbose;
    let fixtures = context.fixtures;
    let name = Arc::new(name);
    let guard = Arc::clone(&context.guard);
    let openrpc = context.openrpc.clone();
    let replay = context.replay.clone();
    let service = hyper::service::service_fn(move |request| {
        let name = Arc::clone(&name);
        let guard = Arc::clone(&guard);
        let served = Served {
            fixtures,
            openrpc: openrpc.clone(),
            replay: replay.clone(),
        };
        async move { Ok::<_, Infallible>(respond(request, &name, &guard, verbose, served).await) }
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(HEAD_READ)
        .serve_connection(TokioIo::new(stream), service);
    let mut conn = std::pin::pin!(conn);
    let stop = std::pin::pin!(stopped(context.stop.clone()));
    if let Either::Right(_) = select(conn.as_mut(), stop).await {
        conn.as_mut().graceful_shutdown();
        let _ = tokio::time::timeout(FINISH, conn).await;
    }
}

/// Answers one request, CORS headers included.
async fn respond(
    request: Request<Incoming>,
    name: &str,
    guard: &Guard,
    verbose: bool,
    served: Served,
) -> Reply {
    let origin = request.headers().get(header::ORIGIN).cloned();
    let text_of = |name| {
        request
            .headers()
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    // HTTP/1.1 requests carry Host; an absolute-form target (a proxy's) names it in the URI.
    let host = text_of(header::HOST).or(request.uri().authority().map(|a| a.as_str()));
    if let Some(reason) = guard.refuse(host, text_of(header::ORIGIN)) {
        if verbose {
            eprintln!("<-- [{name}] 403 {reason}");
        }
        // No CORS headers: a refused origin learns nothing more.
        return with_type(
            StatusCode::FORBIDDEN,
            "application/json",
            super::guard::body(&reason),
        );
    }
    let mut reply = match *request.method() {
        Method::OPTIONS => preflight(request.headers()),
        Method::POST => post(request, name, verbose, served).await,
        Method::DELETE => delete(request.headers()),
        // The document of the API served (`--openrpc DOC`), for `--openrpc http://…` elsewhere.
        Method::GET if served.openrpc.is_some() => {
            let doc = served.openrpc.as_deref().map(|d| d.value().to_string());
            with_type(StatusCode::OK, "application/json", doc.unwrap_or_default())
        }
        Method::GET | Method::HEAD => {
            let mut reply = text(StatusCode::METHOD_NOT_ALLOWED, "jrpc serve: this is a JSON-RPC 2.0 endpoint (the jsonrpc-playground mock server).\nPOST a JSON-RPC message with Content-Type: application/json, e.g.\n  curl -H 'Content-Type: application/json' -d '{\"jsonrpc\":\"2.0\",\"method\":\"subtract\",\"params\":[42,23],\"id\":1}' URL\nThere is no server-to-client event stream (GET).\n");
            reply.headers_mut().insert(
                header::ALLOW,
                HeaderValue::from_static("POST, DELETE, OPTIONS"),
            );
            reply
        }
        _ => {
            let mut reply = text(StatusCode::METHOD_NOT_ALLOWED, "jrpc serve: use POST\n");
            reply.headers_mut().insert(
                header::ALLOW,
                HeaderValue::from_static("POST, DELETE, OPTIONS"),
            );
            reply
        }
    };
    let headers = reply.headers_mut();
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        origin.unwrap_or(HeaderValue::from_static("*")),
    );
    headers.insert(header::VARY, HeaderValue::from_static("Origin"));
    headers.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static("Mcp-Session-Id"),
    );
    reply
}

/// What a POST is answered by: the MCP mock with its fixtures, or the API of an OpenRPC document.
struct Served {
    fixtures: Fixtures,
    openrpc: Option<Arc<OpenRpc>>,
    /// A recorded session served instead (`--replay`).
    replay: Option<Arc<Recording>>,
}

/// `POST`: one document in, its reply out.
async fn post(request: Request<Incoming>, name: &str, verbose: bool, served: Served) -> Reply {
    let Served {
        fixtures,
        openrpc,
        replay,
    } = served;
    let headers = request.headers();
    let media_type = |value: &HeaderValue| {
        value
            .to_str()
            .unwrap_or("")
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    };
    if headers.get(header::CONTENT_TYPE).map(media_type).as_deref() != Some("application/json") {
        return error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Unsupported Media Type: Content-Type must be application/json",
        );
    }
    let accept: Vec<String> = headers
        .get_all(header::ACCEPT)
        .iter()
        .flat_map(|v| v.to_str().unwrap_or("").split(','))
        .map(|t| {
            t.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .collect();
    let json = accept.is_empty()
        || accept
            .iter()
            .any(|t| matches!(t.as_str(), "application/json" | "application/*" | "*/*"));
    let sse = accept
        .iter()
        .any(|t| t == "text/event-stream" || t == "text/*");
    if !json && !sse {
        return error(
            StatusCode::NOT_ACCEPTABLE,
            "Not Acceptable: Accept must include application/json or text/event-stream",
        );
    }
    let session = match headers
        .get(MCP_SESSION_ID)
        .map(|v| v.to_str().map(str::to_string))
    {
        None => None,
        Some(Ok(id)) => Some(id),
        Some(Err(_)) => {
            return error(
                StatusCode::BAD_REQUEST,
                "Bad Request: Mcp-Session-Id is not visible ASCII",
            )
        }
    };
    let mcp_headers = mcp_headers(headers);
    let read = tokio::time::timeout(
        BODY_READ,
        Limited::new(request.into_body(), MAX_BODY).collect(),
    );
    let Ok(read) = read.await else {
        return error(
            StatusCode::REQUEST_TIMEOUT,
            &format!(
                "Request Timeout: the body did not arrive within {} s",
                BODY_READ.as_secs()
            ),
        );
    };
    let body = match read {
        Ok(body) => body.to_bytes(),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => {
            return error(
                StatusCode::PAYLOAD_TOO_LARGE,
                &format!("Payload Too Large: at most {MAX_BODY} bytes"),
            );
        }
        Err(_) => {
            return error(
                StatusCode::BAD_REQUEST,
                "Bad Request: the body could not be read",
            )
        }
    };
    if verbose {
        eprintln!(
            "--> [{name}] {}",
            crate::cli::diagnostic::printable(String::from_utf8_lossy(&body).trim())
        );
    }
    if body.iter().all(u8::is_ascii_whitespace) {
        // No JSON value at all: what a server reading it answers (RFC 8259 §2: one value).
        if verbose {
            eprintln!("<-- [{name}] 400 (empty body) {}", super::ws::PARSE_ERROR);
        }
        return with_type(
            StatusCode::BAD_REQUEST,
            "application/json",
            super::ws::PARSE_ERROR.to_string(),
        );
    }
    if let Some(doc) = openrpc {
        return post_openrpc(doc, body, name, verbose, json).await;
    }
    if let Some(recording) = replay {
        return post_replay(recording, body, name, verbose, json).await;
    }
    let answered =
        within_budget(move || answer(&body, mcp_headers, session.as_deref(), fixtures, sse)).await;
    let answered = match answered {
        Ok(Ok(answered)) => answered,
        Ok(Err(reply)) | Err(reply) => return *reply,
    };
    let Answered {
        sent,
        reply: answer,
        status: mcp_status,
        new_session,
        waiting,
        listen,
    } = answered;
    let mut reply = if let Some(closing) = listen {
        if verbose {
            for message in &sent {
                eprintln!(
                    "<-- [{name}] (event) {}",
                    crate::cli::diagnostic::printable_of(&message)
                );
            }
            eprintln!("<-- [{name}] 200 (an SSE stream, open until the client closes it)");
        }
        listen_stream(&sent, closing)
    } else if let Some(waiting) = waiting {
        // A call that waits for the client: what was sent so far, then the rest as it comes.
        if verbose {
            for message in &sent {
                eprintln!(
                    "<-- [{name}] (event) {}",
                    crate::cli::diagnostic::printable_of(&message)
                );
            }
            eprintln!("<-- [{name}] 200 (an SSE stream, open until the client answers)");
        }
        sse_stream(sent, waiting, name.to_string(), verbose)
    } else {
        match answer {
            None => {
                if verbose {
                    for message in &sent {
                        eprintln!(
                            "<-- [{name}] (not sent: no stream to carry it) {}",
                            crate::cli::diagnostic::printable_of(&message)
                        );
                    }
                    eprintln!("<-- [{name}] 202 // nothing is returned");
                }
                empty(StatusCode::ACCEPTED)
            }
            Some(Answer {
                text: answer,
                refused,
            }) => {
                // The mock says whether it refused the input as a whole: the reply is not read again.
                let status = if refused {
                    StatusCode::BAD_REQUEST
                } else {
                    mcp_status
                        .and_then(|s| StatusCode::from_u16(s).ok())
                        .unwrap_or(StatusCode::OK)
                };
                if verbose {
                    eprintln!(
                        "<-- [{name}] {} {}",
                        status.as_u16(),
                        crate::cli::diagnostic::printable_of(&answer)
                    );
                }
                if !sent.is_empty() {
                    // The server had something to send before its reply (log lines, progress):
                    // the reply is an SSE stream, those messages first, the reply last.
                    let mut stream = String::new();
                    for message in &sent {
                        if verbose {
                            eprintln!(
                                "<-- [{name}] (event) {}",
                                crate::cli::diagnostic::printable_of(&message)
                            );
                        }
                        stream.push_str(&event(message));
                    }
                    stream.push_str(&event(&answer));
                    with_type(status, "text/event-stream", stream)
                } else if json {
                    with_type(status, "application/json", answer)
                } else {
                    with_type(status, "text/event-stream", event(&answer))
                }
            }
        }
    };
    if let Some(id) = new_session {
        reply.headers_mut().insert(
            MCP_SESSION_ID,
            HeaderValue::from_str(&id).expect("hex is a header value"),
        );
    }
    reply
}

/// A POST to the API of an OpenRPC document (`jrpc serve --openrpc DOC --http ADDR`): no sessions
/// and nothing sent before the reply. `200` with the reply, `202` when there is none, `400` with
/// the reply when the input as a whole is refused (-32700, or -32600 with id null).
async fn post_openrpc(
    doc: Arc<OpenRpc>,
    body: Bytes,
    name: &str,
    verbose: bool,
    json: bool,
) -> Reply {
    let reply = match within_budget(move || crate::openrpc::mock::reply(&doc, &body)).await {
        Ok(reply) => reply,
        Err(refused) => return *refused,
    };
    let Some(reply) = reply else {
        if verbose {
            eprintln!("<-- [{name}] 202 // nothing is returned");
        }
        return empty(StatusCode::ACCEPTED);
    };
    let refused = serde_json::from_str::<serde_json::Value>(&reply).is_ok_and(|v| {
        v.get("id").is_some_and(serde_json::Value::is_null)
            && matches!(
                v.pointer("/error/code").and_then(serde_json::Value::as_i64),
                Some(-32700 | -32600)
            )
    });
    let status = if refused {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::OK
    };
    if verbose {
        eprintln!(
            "<-- [{name}] {} {}",
            status.as_u16(),
            crate::cli::diagnostic::printable_of(&reply)
        );
    }
    if json {
        with_type(status, "application/json", reply)
    } else {
        with_type(status, "text/event-stream", event(&reply))
    }
}

/// Works out one POST's answer off the runtime's thread ([`super::off_thread`]), waiting for it
/// at most [`ANSWER_BUDGET`]: past it the client gets `503` (the work ends on its own, unseen).
async fn within_budget<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Box<Reply>> {
    match tokio::time::timeout(ANSWER_BUDGET, super::off_thread(work)).await {
        Ok(done) => Ok(done),
        Err(_) => Err(Box::new(error(
            StatusCode::SERVICE_UNAVAILABLE,
            &format!(
                "Service Unavailable: the answer was not worked out within {} s",
                ANSWER_BUDGET.as_secs()
            ),
        ))),
    }
}

/// The HTTP endpoint's replay session: HTTP has no connection to hang it on, and the replaying
/// server issues no Mcp-Session-Id, so all POSTs share it (an `initialize` starts it over).
fn replay_session() -> &'static Mutex<crate::cli::recording::Session> {
    static SESSION: OnceLock<Mutex<crate::cli::recording::Session>> = OnceLock::new();
    SESSION.get_or_init(Default::default)
}

/// A POST to a recorded session (`jrpc serve --replay TRANSCRIPT --http ADDR`): `200` with the
/// reply (an SSE stream when the recording sent messages before it, or the client asked for SSE
/// only; a stream of those messages alone when the recording has no reply), `202` when nothing is
/// returned.
async fn post_replay(
    recording: Arc<Recording>,
    body: Bytes,
    name: &str,
    verbose: bool,
    json: bool,
) -> Reply {
    let answered = match within_budget(move || {
        let mut session = replay_session()
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        recording.answer(&mut session, &body)
    })
    .await
    {
        Ok(answered) => answered,
        Err(reply) => return *reply,
    };
    if verbose {
        for message in &answered.sent {
            eprintln!(
                "<-- [{name}] {}",
                crate::cli::diagnostic::printable_of(&message)
            );
        }
    }
    if answered.sent.is_empty() {
        if verbose {
            eprintln!("<-- [{name}] 202 // nothing is returned");
        }
        return empty(StatusCode::ACCEPTED);
    }
    if answered.replied && answered.sent.len() == 1 && json {
        let reply = answered.sent.into_iter().next().unwrap_or_default();
        return with_type(StatusCode::OK, "application/json", reply);
    }
    let stream: String = answered.sent.iter().map(|m| event(m)).collect();
    with_type(StatusCode::OK, "text/event-stream", stream)
}

/// One Server-Sent Event carrying `message`.
fn event(message: &str) -> String {
    format!("event: message\ndata: {message}\n\n")
}

/// The headers a 2026-07-28 request mirrors its body into (SEP-2243), for the mock to compare.
fn mcp_headers(headers: &HeaderMap) -> HttpHeaders {
    let value = |name: &str| {
        headers
            .get(name)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
    };
    let params = headers
        .iter()
        .filter_map(|(name, value)| {
            let suffix = name.as_str().strip_prefix("mcp-param-")?;
            Some((
                suffix.to_string(),
                String::from_utf8_lossy(value.as_bytes()).into_owned(),
            ))
        })
        .collect();
    HttpHeaders {
        protocol_version: value("mcp-protocol-version"),
        method: value("mcp-method"),
        name: value("mcp-name"),
        params,
    }
}

/// What one POST gets.
struct Answered {
    /// What the server sent on its own for this POST, in order (before `reply`).
    sent: Vec<String>,
    reply: Option<Answer>,
    /// The reply's HTTP status when 2026-07-28 gives it one other than 200.
    status: Option<u16>,
    /// The id of the session a successful `initialize` started.
    new_session: Option<String>,
    /// This POST's call waits for the client: its stream's later messages.
    waiting: Option<Waiting>,
    /// This POST opened a subscription (`subscriptions/listen`): the reply that ends it.
    listen: Option<String>,
}

/// A POST's call that waits for the client's answer, and where its messages arrive.
struct Waiting {
    session: String,
    call: CallId,
    messages: mpsc::UnboundedReceiver<String>,
}

/// The mock's answer to `body` (in the session `session`, if any); or the error reply when the
/// session is unknown. `sse`: the client accepts an SSE stream (a call may wait for it).
fn answer(
    body: &[u8],
    headers: HttpHeaders,
    session: Option<&str>,
    fixtures: Fixtures,
    sse: bool,
) -> Result<Answered, Box<Reply>> {
    let Some(id) = session else {
        let mut server = super::super::mock_server(fixtures);
        let HttpReply { reply, status } = server.handle_http(body, headers);
        // A subscription opened by a stateless POST: this server ends with the POST, so nothing
        // more will be sent on it; its stream carries the acknowledgement and stays open.
        let listen = server
            .listening()
            .first()
            .copied()
            .and_then(|call| server.end_listen(call));
        // Without a session no later POST can answer a question: nothing waits here (a fresh
        // server knows no client capability, so its tools do not ask).
        let sent = server.take_sent();
        let mut answered = Answered {
            sent,
            reply,
            status,
            new_session: None,
            waiting: None,
            listen,
        };
        // A successful initialize negotiated a version: that starts a session.
        if server.negotiated_version().is_none() {
            return Ok(answered);
        }
        let Some(id) = session_id() else {
            return Err(Box::new(error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "No session id: the operating system's random source failed",
            )));
        };
        let mut table = sessions();
        table.expire_idle();
        table.insert(id.clone(), server);
        answered.new_session = Some(id);
        return Ok(answered);
    };
    let Some(shared) = self::session(id) else {
        return Err(Box::new(error(
            StatusCode::NOT_FOUND,
            "Session not found: send initialize without Mcp-Session-Id to start a new one",
        )));
    };
    let mut entry = lock(&shared);
    let entry = &mut *entry;
    let listening_before = entry.server.listening().len();
    let HttpReply { mut reply, status } = entry.server.handle_http(body, headers);
    // A subscription opened in a session is held like a stateless one (nothing is routed to it).
    let listen = entry
        .server
        .listening()
        .get(listening_before)
        .copied()
        .and_then(|call| entry.server.end_listen(call));
    let (mut sent, waiting_call) = route(entry);
    let mut waiting = None;
    if let Some(call) = waiting_call {
        if sse {
            let (sender, messages) = mpsc::unbounded_channel();
            entry.streams.insert(call, sender);
            waiting = Some(Waiting {
                session: id.to_string(),
                call,
                messages,
            });
        } else {
            // No stream to carry the question and the later result: the call cannot wait.
            entry.server.give_up(
                call,
                "the client's Accept has no text/event-stream, and a call that asks the client needs an SSE reply",
            );
            sent.clear();
            reply = entry
                .server
                .take_outgoing()
                .into_iter()
                .find(|o| o.kind == OutgoingKind::Reply)
                .map(|o| Answer {
                    text: o.text,
                    refused: false,
                });
        }
    }
    Ok(Answered {
        sent,
        reply,
        status,
        new_session: None,
        waiting,
        listen,
    })
}

/// Sends what the session's server sent on its own: a message for a call whose POST streams is
/// sent there; the rest is this POST's. Streams whose call no longer waits end (their reply went
/// last). Returns this POST's messages, and its call when that call now waits for the client.
fn route(session: &mut Session) -> (Vec<String>, Option<CallId>) {
    let mut mine = Vec::new();
    let mut waiting = None;
    for out in session.server.take_outgoing() {
        match out.call.and_then(|call| session.streams.get(&call)) {
            // A closed stream (its client went away) gives its call up when it is dropped.
            Some(stream) => {
                let _ = stream.send(out.text);
            }
            None => {
                if let Some(call) = out.call.filter(|c| session.server.is_waiting(*c)) {
                    waiting = Some(call);
                }
                mine.push(out.text);
            }
        }
    }
    let server = &session.server;
    session.streams.retain(|call, _| server.is_waiting(*call));
    (mine, waiting)
}

/// The SSE reply of a POST whose call waits: `sent` at once, then each message for the call as
/// it comes, until the call's result (or [`CLIENT_ANSWER`] without an answer: the call is given
/// up, its result a tool error saying so).
fn sse_stream(sent: Vec<String>, waiting: Waiting, name: String, verbose: bool) -> Reply {
    let first: String = sent.iter().map(|m| event(m)).collect();
    let deadline = tokio::time::Instant::now() + CLIENT_ANSWER;
    let state = StreamState {
        waiting,
        deadline,
        ended: false,
        name,
        verbose,
    };
    let later = stream::unfold(state, |mut state| async move {
        if state.ended {
            return None;
        }
        let next = tokio::time::timeout_at(state.deadline, state.waiting.messages.recv()).await;
        let messages = match next {
            Ok(Some(message)) => vec![message],
            Ok(None) => return None,
            Err(_) => {
                state.ended = true;
                let why = format!("no answer within {} s", CLIENT_ANSWER.as_secs());
                let (session, call) = (state.waiting.session.clone(), state.waiting.call);
                super::off_thread(move || give_up(&session, call, &why)).await
            }
        };
        if state.verbose {
            for message in &messages {
                eprintln!(
                    "<-- [{}] (event) {}",
                    state.name,
                    crate::cli::diagnostic::printable_of(&message)
                );
            }
        }
        Some((messages.iter().map(|m| event(m)).collect::<String>(), state))
    });
    let frames = stream::once(std::future::ready(first))
        .chain(later)
        .filter(|chunk| std::future::ready(!chunk.is_empty()))
        .map(|chunk| Ok::<_, Infallible>(Frame::data(Bytes::from(chunk))));
    sse_reply(frames)
}

/// The SSE reply of a POST that opened a subscription: `sent` (the acknowledgement) at once; then
/// the stream stays open until the client closes it, or for [`LISTEN_HOLD`], when the server ends
/// the subscription with `closing` (the request's result). With [`MAX_HELD_LISTENS`] open already
/// it ends at once.
fn listen_stream(sent: &[String], closing: String) -> Reply {
    let first: String = sent.iter().map(|m| event(m)).collect();
    let held = HeldListen::take();
    let last = async move {
        if let Some(held) = held {
            tokio::time::sleep(LISTEN_HOLD).await;
            drop(held);
        }
        event(&closing)
    };
    let frames = stream::once(std::future::ready(first))
        .chain(stream::once(last))
        .map(|chunk| Ok::<_, Infallible>(Frame::data(Bytes::from(chunk))));
    sse_reply(frames)
}

/// A `200` whose body is the SSE stream `frames`.
fn sse_reply(
    frames: impl futures_util::Stream<Item = Result<Frame<Bytes>, Infallible>> + Send + 'static,
) -> Reply {
    let mut reply = Response::new(StreamBody::new(frames).boxed_unsync());
    let headers = reply.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    reply
}

/// The state of a waiting POST's stream. Dropped early (the client closed the connection), it
/// gives its call up so that the call does not wait forever.
struct StreamState {
    waiting: Waiting,
    deadline: tokio::time::Instant,
    ended: bool,
    name: String,
    verbose: bool,
}

impl Drop for StreamState {
    fn drop(&mut self) {
        let (session, call) = (self.waiting.session.clone(), self.waiting.call);
        let give_up = move || {
            give_up(
                &session,
                call,
                "the client closed the stream that was to carry the result",
            );
        };
        // The session's lock may be held by a request at work: wait for it off the runtime.
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => drop(runtime.spawn_blocking(give_up)),
            Err(_) => give_up(),
        }
    }
}

/// Gives up the call `call` of session `id` (if it still waits) and forgets its stream: the
/// messages that end it (the cancellation of the server's request, the call's result as a tool
/// error).
fn give_up(id: &str, call: CallId, why: &str) -> Vec<String> {
    let Some(shared) = session(id) else {
        return Vec::new();
    };
    let mut session = lock(&shared);
    session.streams.remove(&call);
    if !session.server.give_up(call, why) {
        return Vec::new();
    }
    session
        .server
        .take_outgoing()
        .into_iter()
        .filter(|o| o.call == Some(call))
        .map(|o| o.text)
        .collect()
}

/// `DELETE` with `Mcp-Session-Id`: ends the session.
fn delete(headers: &HeaderMap) -> Reply {
    match headers.get(MCP_SESSION_ID).and_then(|v| v.to_str().ok()) {
        None => error(
            StatusCode::BAD_REQUEST,
            "Bad Request: DELETE needs the Mcp-Session-Id header",
        ),
        Some(id) => {
            if sessions().remove(id) {
                empty(StatusCode::NO_CONTENT)
            } else {
                error(StatusCode::NOT_FOUND, "Session not found")
            }
        }
    }
}

/// `OPTIONS`: a CORS preflight allowing what the playground (or any page) needs.
fn preflight(request: &HeaderMap) -> Reply {
    let mut reply = empty(StatusCode::NO_CONTENT);
    let mut allowed = ALLOW_HEADERS.to_string();
    let asked = request
        .get(header::ACCESS_CONTROL_REQUEST_HEADERS)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    for name in asked.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        if !ALLOW_HEADERS
            .split(", ")
            .any(|known| known.eq_ignore_ascii_case(name))
        {
            allowed.push_str(", ");
            allowed.push_str(name);
        }
    }
    let headers = reply.headers_mut();
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static(ALLOW_METHODS),
    );
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_str(&allowed).unwrap_or(HeaderValue::from_static(ALLOW_HEADERS)),
    );
    headers.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static("600"),
    );
    if request
        .get("access-control-request-private-network")
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"true"))
    {
        headers.insert(
            "access-control-allow-private-network",
            HeaderValue::from_static("true"),
        );
    }
    reply
}

/// A JSON-RPC error with id null as the body of an HTTP error (as MCP servers answer them).
fn error(status: StatusCode, message: &str) -> Reply {
    let code = if status == StatusCode::NOT_FOUND {
        -32001
    } else {
        -32000
    };
    let body = serde_json::json!({"jsonrpc": "2.0", "error": {"code": code, "message": message}, "id": null});
    with_type(status, "application/json", body.to_string())
}

fn text(status: StatusCode, body: &str) -> Reply {
    with_type(status, "text/plain; charset=utf-8", body.to_string())
}

fn with_type(status: StatusCode, content_type: &'static str, body: String) -> Reply {
    let mut reply = Response::new(Full::new(Bytes::from(body)).boxed_unsync());
    *reply.status_mut() = status;
    reply
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    reply
}

fn empty(status: StatusCode) -> Reply {
    let mut reply = Response::new(Full::new(Bytes::new()).boxed_unsync());
    *reply.status_mut() = status;
    reply
}

/// A new session id: 128 bits from the operating system's random source, as 32 hex digits
/// (visible ASCII, as MCP requires). Unguessable: a session id is the only thing that ties a
/// request to a session.
/// `None` when that source fails (an id from the time would be guessable).
fn session_id() -> Option<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).ok()?;
    Some(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_errors_and_invalid_requests_are_refused_as_a_whole() {
        let mut server = MockServer::new();
        let mut refused = |input: &[u8]| server.answer(input).unwrap().refused;
        assert!(refused(b"{"));
        assert!(refused(b"[]"));
        assert!(refused(br#"{"jsonrpc":"2.0","method":1}"#));
        assert!(!refused(br#"{"jsonrpc":"2.0","method":"nope","id":1}"#));
        assert!(!refused(br#"{"jsonrpc":"2.0","method":"nope","id":null}"#));
        assert!(!refused(br#"[{"jsonrpc":"2.0","method":1}]"#));
    }

    #[test]
    fn session_ids_are_32_hex_digits_and_differ() {
        let (a, b) = (session_id().unwrap(), session_id().unwrap());
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }
}
