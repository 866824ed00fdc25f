//! The mock server: answers the JSON-RPC 2.0 specification's examples (§7) and an MCP server's
//! methods, one document at a time. Pure Rust: the browser runs it in-page, `jrpc serve` on stdio,
//! WebSocket and HTTP.
//!
//! What a document is comes from the engine ([`crate::rpc::check`] under the server's profile, plain
//! JSON-RPC unless [`MockServer::set_profile`] says an MCP version), never
//! from a second reading of the rules here:
//!
//! - not JSON → `-32700 Parse error`, id null;
//! - a request → the method's result or error, its id echoed by its exact source text; or, for a
//!   tool that asks the client (below), no reply yet;
//! - a notification → nothing, whatever the method does or fails to do;
//! - an invalid request (what the engine calls [`Kind::Invalid`]) → `-32600 Invalid Request`, with its
//!   id when the id is a string, number or null, otherwise null;
//! - a response (valid or not) → nothing: answering replies with errors makes two peers bounce
//!   errors forever. One that answers a request the server sent finishes the call waiting for it;
//! - a batch → the array of its replies in order, nothing when all were notifications, and one
//!   `-32600` (not an array) for `[]`.
//!
//! # How a transport uses it
//!
//! One `MockServer` per session (a stdio process, a WebSocket connection, an HTTP
//! `Mcp-Session-Id`, the page). For each document that arrives:
//!
//! 1. `let reply = server.handle(bytes);` — the direct reply, if any;
//! 2. `for out in server.take_outgoing() { … }` — what the server sent on its own meanwhile
//!    ([`Outgoing`]: its text, its [`OutgoingKind`], the [`CallId`] of the call it belongs to);
//!    send these first, in order, then `reply`.
//!
//! Some tools ask the client during a call (MCP's `sampling/createMessage`, `elicitation/create`,
//! when the client declared `sampling` / `elicitation` in `initialize`): `handle` then returns
//! `None` for that call and the outbox holds an [`OutgoingKind::Request`] with an id of the
//! server's own (`"mock-1"`, …). The call waits ([`MockServer::pending_requests`] lists what is
//! awaited, each with an `example_reply`). When the client's response with that id arrives as a
//! later document, `handle` returns `None` for it and the outbox holds the call's deferred
//! [`OutgoingKind::Reply`], with the original call's id. A `notifications/cancelled` naming the
//! call drops it without a reply. Over a stream (stdio, WebSocket, the page's log) everything in
//! the outbox is simply sent in order; over HTTP a POST whose call still waits
//! ([`MockServer::is_waiting`]) stays open as an SSE stream, and the outgoing messages tagged with
//! its call go there. A transport that stops waiting calls [`MockServer::give_up`].
//!
//! A session in the page, by example (a client that declared elicitation):
//!
//! ```text
//! handle(tools/call ask_name, id 7)  -> None;  take_outgoing(): [Request {"id":"mock-1","method":"elicitation/create",…}]
//! pending_requests()                 -> [PendingRequest { id: "mock-1", call_id: "7", example_reply, … }]
//! handle({"result":{"action":"accept",…},"id":"mock-1"}) -> None;  take_outgoing(): [Reply {"result":{…},"id":7}]
//! ```
//!
//! A reply is at most [`MAX_REPLY`] bytes, counting what the server sends on its own while
//! answering: a batch of small requests can ask for far more than itself (2 MiB of `tools/list`
//! asks for 181 MB). The replies are built one after the other and the bound checked as they
//! grow; past it the batch is answered as a whole with one [`REPLY_TOO_LARGE`] error, id null (the
//! requests answered before the bound have run; what they sent on their own is not sent). A
//! single request whose reply passes the bound gets that error with its id.
//!
//! Replies are compact, one line, with members in the order the specification writes them:
//! `{"jsonrpc":"2.0","result"|"error":…,"id":…}` and `{"code":…,"message":…,"data":…}`.
//! -32700, -32600 and -32601 carry exactly the specification's text and no `data`; -32602 carries a
//! `data` of `{"errors":[{"path","message"}]}` saying what is wrong (paths are JSON pointers from the
//! request).

mod ask;
#[cfg(feature = "conformance")]
mod conformance;
mod content;
mod examples;
#[cfg(feature = "mcp-schemas")]
mod input_schema;
mod mcp;
mod params;
mod rounds;
// Only the conformance catalogue has tools that make tasks.
#[cfg(feature = "tasks")]
#[cfg_attr(not(feature = "conformance"), allow(dead_code))]
mod tasks;

use crate::json::{parse_document, quote, split_stream, Direction, Json, Node, Span, Value};
use crate::rpc::errors::{INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR};
use crate::rpc::{self, rules, Document, Kind, McpVersion, Profile};

pub use ask::TASKS_EXTENSION;
pub use ask::{CallId, Outgoing, OutgoingKind, PendingRequest, MAX_PENDING};
pub use mcp::{
    HttpHeaders, HEADER_MISMATCH, MAX_LISTENS, MISSING_REQUIRED_CLIENT_CAPABILITY, SERVER_NAME,
    SUPPORTED_VERSIONS, UNSUPPORTED_PROTOCOL_VERSION,
};
pub use rounds::STATE_KEY_BYTES;
#[cfg(feature = "tasks")]
pub use tasks::{Clock, TaskStore, MAX_ANSWER_BYTES, MAX_TASKS, POLL_INTERVAL_MS, TASK_TTL_MS};

pub use crate::reply_bound::{MAX_REPLY, REPLY_TOO_LARGE};

/// A JSON-RPC error object to send.
#[derive(Clone, Debug, PartialEq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Json>,
}

impl RpcError {
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// The message the specification gives a predefined code.
    fn predefined(code: i64) -> Self {
        let message = rpc::errors::predefined(code).map_or("Server error", |c| c.message);
        RpcError::new(code, message)
    }

    /// `-32602 Invalid params` with `data.errors`: `(path from the request, what is wrong)`.
    pub fn invalid_params<P: Into<String>, M: Into<String>>(
        errors: impl IntoIterator<Item = (P, M)>,
    ) -> Self {
        RpcError::predefined(INVALID_PARAMS).with_errors(errors)
    }

    /// Sets `data` to `{"errors": [{"path", "message"}, …]}`.
    pub fn with_errors<P: Into<String>, M: Into<String>>(
        mut self,
        errors: impl IntoIterator<Item = (P, M)>,
    ) -> Self {
        let errors = errors.into_iter().map(|(path, message)| {
            Json::obj([
                ("path", Json::String(path.into())),
                ("message", Json::String(message.into())),
            ])
        });
        self.data = Some(Json::obj([("errors", Json::arr(errors))]));
        self
    }

    fn to_json(&self) -> Json {
        let mut error = vec![
            ("code".to_string(), Json::from(self.code)),
            ("message".to_string(), Json::from(self.message.as_str())),
        ];
        if let Some(data) = &self.data {
            error.push(("data".to_string(), data.clone()));
        }
        Json::Object(error)
    }
}

/// What a method call produced.
pub type Outcome = Result<Json, RpcError>;

/// The mock's reply to one input, and whether it refuses the input as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The compact one-line reply.
    pub text: String,
    /// The input as a whole was not accepted: it is not JSON (`-32700`), or not a request (one
    /// `-32600` for an invalid request, `[]`, or a batch the MCP version does not allow), id null.
    /// Over HTTP this is the `400` MCP asks for.
    pub refused: bool,
}

impl Answer {
    fn accepted(text: String) -> Self {
        Answer {
            text,
            refused: false,
        }
    }

    fn refused(text: String) -> Self {
        Answer {
            text,
            refused: true,
        }
    }
}

/// One document of a stream and what the server answered to it.
#[derive(Clone, Debug, PartialEq)]
pub struct Exchange {
    /// The document in the input.
    pub span: Span,
    /// The compact one-line reply; `None` when nothing is returned (notifications, responses).
    pub reply: Option<String>,
}

/// The mock server. It keeps only what the MCP lifecycle negotiates; every other method is stateless.
#[derive(Clone, Debug, Default)]
pub struct MockServer {
    /// The version `initialize` agreed on, if it ran.
    negotiated: Option<McpVersion>,
    /// `notifications/initialized` arrived.
    initialized: bool,
    /// The least severe log level (an index into MCP's levels) the client asked for with
    /// `logging/setLevel`, if it did.
    log_level: Option<usize>,
    /// Which server it is: under plain JSON-RPC (the default) it answers the specification's
    /// examples and MCP's methods; under an MCP profile it is an MCP server only, and it reads
    /// each message under that profile, so what the page's verdict calls an invalid request it
    /// answers -32600 and a method MCP does not have -32601 (the verdict and the mock agree).
    profile: Profile,
    /// Which tools, resources and prompts it serves (without the `conformance` feature, as in
    /// the web build, only the friendly set exists and this is never read).
    #[cfg_attr(not(feature = "conformance"), allow(dead_code))]
    fixtures: Fixtures,
    /// Messages the server sent on its own (log lines, progress, requests to the client, deferred
    /// replies), oldest first, until a transport takes them ([`MockServer::take_outgoing`]).
    sent: Vec<Outgoing>,
    /// What the client declared it can be asked in `initialize` (sampling, elicitation).
    client_can: ask::ClientCapabilities,
    /// The call being answered now: it tags what the server sends meanwhile.
    current_call: Option<CallId>,
    /// How many client calls have been numbered ([`CallId`]).
    calls_seen: u64,
    /// How many requests the server has sent to the client (their ids are `mock-N`).
    requests_sent: u64,
    /// What the tool running now asked the client, if it did ([`MockServer::ask`]).
    asking: Option<ask::Question>,
    /// Calls waiting for the client's answer to the server's request, oldest first.
    pending: Vec<ask::PendingCall>,
    /// A batch is being answered (its calls cannot wait for the client).
    in_batch: bool,
    /// The resources the client subscribed to (`resources/subscribe`), by URI.
    subscriptions: Vec<String>,
    /// What the add_note tool keeps (the resource mock://notes), oldest first.
    notes: Vec<String>,
    /// The headers of the HTTP POST being answered ([`MockServer::handle_http`]).
    http: Option<HttpHeaders>,
    /// What the request being answered says in its 2026-07-28 `_meta` (nothing for the
    /// handshake versions' requests).
    request: mcp::RequestMeta,
    /// The HTTP status the reply being made asks for, when not 200 ([`HttpReply::status`]).
    reply_status: Option<u16>,
    /// The key that signs the `requestState` of input-required results ([`rounds`]) and makes
    /// task ids ([`tasks`]).
    state_key: [u8; rounds::STATE_KEY_BYTES],
    /// The tasks of the Tasks extension, shared with the other servers of the process; `None`:
    /// the extension is not served ([`MockServer::serve_tasks`]).
    #[cfg(feature = "tasks")]
    tasks: Option<TaskStore>,
    /// The id of the request being answered (its value).
    current_id: Option<Json>,
    /// The open `subscriptions/listen` requests (2026-07-28), oldest first.
    listens: Vec<mcp::Listen>,
    /// The request being answered opened a subscription: it gets no reply now.
    listen_opened: bool,
}

/// [`MockServer::handle_http`]'s answer to one POST.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpReply {
    /// What [`MockServer::answer`] returns.
    pub reply: Option<Answer>,
    /// The HTTP status 2026-07-28 gives the reply when it is not 200: 400 Bad Request for a
    /// request refused for what it is (a broken `_meta` envelope, an unsupported version,
    /// headers that do not match the body, a capability the client did not declare), 404 Not
    /// Found for a method the server does not have.
    pub status: Option<u16>,
}

impl MockServer {
    /// Whether it serves MCP's Tasks extension (with the `tasks` feature, once given a store).
    fn serves_tasks(&self) -> bool {
        #[cfg(feature = "tasks")]
        return self.tasks.is_some();
        #[cfg(not(feature = "tasks"))]
        false
    }
}

/// The catalogue an MCP mock serves: the friendly one learners see (add, echo, divide, a tool
/// per content type, mock://readme, explain-error, …) or the official conformance suite's
/// (`test_simple_text`, `test://static-text`, `test_prompt_with_arguments`, …).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Fixtures {
    #[default]
    Friendly,
    Conformance,
}

impl MockServer {
    pub fn new() -> Self {
        MockServer::default()
    }

    /// A mock serving `fixtures`.
    pub fn with_fixtures(fixtures: Fixtures) -> Self {
        MockServer {
            fixtures,
            ..MockServer::default()
        }
    }

    /// Makes it the server of `profile` (see the field). The session state is kept, unless the
    /// profile changes to an MCP version other than the one the session negotiated: that is
    /// another server, and a new session starts (so a page whose profile says 2025-11-25 is not
    /// answered by a session that negotiated 2024-11-05 under the profile before).
    pub fn set_profile(&mut self, profile: Profile) {
        let other_version = match (profile, self.negotiated) {
            (Profile::Mcp(wanted), Some(negotiated)) => wanted != negotiated,
            _ => false,
        };
        if profile != self.profile && other_version {
            *self = MockServer::with_fixtures(self.fixtures);
        }
        self.profile = profile;
    }

    /// The texts of [`Self::take_outgoing`], for a transport that needs no more than the order.
    pub fn take_sent(&mut self) -> Vec<String> {
        self.take_outgoing().into_iter().map(|o| o.text).collect()
    }

    /// What the server sent on its own while handling the input just handled, in order: log
    /// lines and progress, requests to the client, and the deferred replies of calls that
    /// waited for the client. A transport sends them before that input's reply (over HTTP, see
    /// the module's documentation); taking them empties the outbox.
    pub fn take_outgoing(&mut self) -> Vec<Outgoing> {
        std::mem::take(&mut self.sent)
    }

    /// Puts `text` in the outbox.
    fn send(&mut self, text: String, kind: OutgoingKind, call: Option<CallId>) {
        self.sent.push(Outgoing { text, kind, call });
    }

    /// Sends the notification `method` with `params` (into the outbox), as part of the call
    /// being answered.
    fn notify(&mut self, method: &str, params: Json) {
        let message = Json::obj([
            ("jsonrpc", Json::from("2.0")),
            ("method", Json::from(method)),
            ("params", params),
        ]);
        self.send(
            message.compact(),
            OutgoingKind::Notification,
            self.current_call,
        );
    }

    /// The MCP version agreed by `initialize`, if a client initialized.
    pub fn negotiated_version(&self) -> Option<McpVersion> {
        self.negotiated
    }

    /// True once the client sent `notifications/initialized`.
    pub fn is_initialized(&self) -> bool {
        self.initialized
    }

    /// Answers ONE document (a message or a batch). Surrounding whitespace is fine; anything after
    /// the document makes the whole input not JSON (as a line of the stdio transport would be).
    /// Returns the compact one-line reply, or `None` when nothing is to be returned (notifications,
    /// responses, batches of notifications, blank input).
    pub fn handle(&mut self, input: &[u8]) -> Option<String> {
        self.answer(input).map(|answer| answer.text)
    }

    /// [`Self::handle`], saying also whether the reply refuses the input as a whole ([`Answer`]):
    /// a transport that answers such input otherwise (HTTP's `400`) need not read the reply again.
    pub fn answer(&mut self, input: &[u8]) -> Option<Answer> {
        if input.iter().all(u8::is_ascii_whitespace) {
            return None;
        }
        let root = match parse_document(input, 0) {
            Ok((parsed, end)) if input[end..].iter().all(u8::is_ascii_whitespace) => parsed.root,
            _ => return Some(Answer::refused(parse_error())),
        };
        // The same bytes hold exactly one document, so the report has exactly one.
        let report = rpc::check(input, self.profile);
        let [doc] = report.documents.as_slice() else {
            return Some(Answer::refused(parse_error()));
        };
        self.document(input, doc, &root)
    }

    /// [`Self::handle`] for the body of an HTTP POST with its `headers`: a 2026-07-28 request's
    /// headers are checked against its body (SEP-2243), and the reply comes with its status.
    pub fn handle_http(&mut self, input: &[u8], headers: HttpHeaders) -> HttpReply {
        self.http = Some(headers);
        self.reply_status = None;
        let reply = self.answer(input);
        self.http = None;
        HttpReply {
            reply,
            status: self.reply_status.take(),
        }
    }

    /// Answers every document of a multi-document input in order (whitespace-separated, as
    /// [`split_stream`] reads it). In a transcript only the client's documents (`-->`, or unmarked)
    /// are answered. One [`Exchange`] per answered document, replies `None` included.
    pub fn handle_stream(&mut self, input: &[u8]) -> Vec<Exchange> {
        let stream = split_stream(input);
        stream
            .segments
            .iter()
            .filter(|s| s.direction != Some(Direction::Server))
            .map(|segment| {
                let span = segment.span;
                let reply = match &segment.parsed {
                    Err(_) => Some(parse_error()),
                    Ok(_) => self.handle(&input[span.start..span.end]),
                };
                Exchange { span, reply }
            })
            .collect()
    }

    /// The replies [`Self::handle_stream`] produces, without the documents' places.
    pub fn replies(&mut self, input: &[u8]) -> Vec<String> {
        self.handle_stream(input)
            .into_iter()
            .filter_map(|e| e.reply)
            .collect()
    }

    fn document(&mut self, src: &[u8], doc: &Document, node: &Node<'_>) -> Option<Answer> {
        match (doc.kind, &node.value) {
            // `[]`: not a batch; §7 answers it with one Invalid Request object, not an array.
            (_, Value::Array(items)) if items.is_empty() => Some(Answer::refused(failure(
                "null",
                &RpcError::predefined(INVALID_REQUEST),
            ))),
            // MCP has batches in 2025-03-26 only: once a session speaks another version (or the
            // profile says one, or an element's 2026-07-28 envelope), a batch is refused as a
            // whole with one Invalid Request, id null — when it holds something that would be
            // answered; one of notifications and responses only is dropped without a word (a
            // reply to it would answer nothing the client sent).
            (Kind::Batch, Value::Array(items))
                if !self.batches_allowed() || items.iter().any(mcp::in_modern_envelope) =>
            {
                let answerable = doc.items.iter().any(|item| {
                    let intent = item.intent.unwrap_or(item.kind);
                    item.kind != Kind::Notification && intent != Kind::Response
                });
                answerable.then(|| {
                    Answer::refused(failure("null", &RpcError::predefined(INVALID_REQUEST)))
                })
            }
            (Kind::Batch, Value::Array(items)) => {
                self.in_batch = true;
                let replies = self.batch(src, &doc.items, items);
                self.in_batch = false;
                replies.map(Answer::accepted)
            }
            _ => {
                let sent_before = self.sent.len();
                let reply = self.message(src, doc, node)?;
                let sent = self.sent[sent_before..].iter().map(|o| o.text.len());
                if reply.len().saturating_add(sent.sum()) > MAX_REPLY {
                    self.sent.truncate(sent_before);
                    return Some(Answer::accepted(failure(
                        &id_text(src, doc, node),
                        &reply_too_large(),
                    )));
                }
                let refused = doc.intent.unwrap_or(doc.kind) != Kind::Response
                    && !matches!(doc.kind, Kind::Request | Kind::Notification);
                Some(Answer {
                    text: reply,
                    refused,
                })
            }
        }
    }

    /// The array of a batch's replies, built one reply at a time: past [`MAX_REPLY`] (with what
    /// the server sent meanwhile) it stops, forgets what it sent, and the batch gets one
    /// [`REPLY_TOO_LARGE`] error. `None` when nothing is returned.
    fn batch(&mut self, src: &[u8], docs: &[Document], nodes: &[Node<'_>]) -> Option<String> {
        let sent_before = self.sent.len();
        let mut sent_size = 0usize;
        let mut out = String::from("[");
        for (doc, node) in docs.iter().zip(nodes) {
            let counted = self.sent.len();
            if let Some(reply) = self.message(src, doc, node) {
                if out.len() > 1 {
                    out.push(',');
                }
                out.push_str(&reply);
            }
            sent_size += self.sent[counted..]
                .iter()
                .map(|o| o.text.len())
                .sum::<usize>();
            if out.len().saturating_add(sent_size) > MAX_REPLY {
                self.sent.truncate(sent_before);
                return Some(failure("null", &reply_too_large()));
            }
        }
        (out.len() > 1).then(|| {
            out.push(']');
            out
        })
    }

    /// Whether a batch is answered: always in plain JSON-RPC before an MCP session, in MCP only in
    /// 2025-03-26 (the one version with JSON-RPC batches).
    fn batches_allowed(&self) -> bool {
        let version = self.negotiated.or(self.profile.mcp_version());
        version.is_none_or(|v| v == McpVersion::V2025_03_26)
    }

    /// One message (top level or batch element).
    fn message(&mut self, src: &[u8], doc: &Document, node: &Node<'_>) -> Option<String> {
        let intent = doc.intent.unwrap_or(doc.kind);
        match (doc.kind, intent) {
            // A reply is never answered: one to a request the server sent answers the call
            // that waits for it (into the outbox); any other is ignored.
            (_, Kind::Response) => {
                self.answered(doc, node);
                None
            }
            (Kind::Request | Kind::Notification, _) => {
                let method = doc.method.as_deref().unwrap_or_default();
                let params = node.get("params");
                let notification = doc.kind == Kind::Notification;
                self.request = mcp::RequestMeta::default();
                if !notification {
                    self.calls_seen += 1;
                    self.current_call = Some(CallId(self.calls_seen));
                    self.current_id = node.get("id").map(Json::from_node);
                }
                let outcome = self.call(method, params, notification);
                let question = self.asking.take();
                let call = self.current_call.take();
                self.current_id = None;
                if notification || std::mem::take(&mut self.listen_opened) {
                    return None;
                }
                let id = id_text(src, doc, node);
                if let (Some(question), Some(call)) = (question, call) {
                    let id_value = node
                        .get("id")
                        .map_or_else(|| "null".to_string(), |n| Json::from_node(n).compact());
                    return match self.defer(call, id.clone(), id_value, question) {
                        Ok(()) => None,
                        Err(result) => Some(success(&id, &result)),
                    };
                }
                Some(match outcome {
                    Ok(result) => success(&id, &result),
                    Err(error) => failure(&id, &error),
                })
            }
            _ => Some(failure(
                &id_text(src, doc, node),
                &RpcError::predefined(INVALID_REQUEST),
            )),
        }
    }

    /// Runs `method`. For a notification the outcome is dropped, but state changes still happen.
    fn call(&mut self, method: &str, params: Option<&Node<'_>>, notification: bool) -> Outcome {
        if self.profile == Profile::JsonRpc {
            if let Some(outcome) = examples::call(method, params) {
                return outcome;
            }
        }
        match method {
            // MCP's notifications change state at most; as requests they are unknown methods.
            "notifications/initialized" if notification => {
                self.initialized = true;
                Ok(Json::Null)
            }
            "notifications/cancelled" if notification => {
                self.cancelled(params);
                mcp::listen_cancelled(self, params);
                Ok(Json::Null)
            }
            _ if notification && method.starts_with("notifications/") => Ok(Json::Null),
            _ => mcp::call(self, method, params)
                .unwrap_or_else(|| Err(RpcError::predefined(METHOD_NOT_FOUND))),
        }
    }
}

/// The reply to text that is not JSON.
fn parse_error() -> String {
    failure("null", &RpcError::predefined(PARSE_ERROR))
}

/// The error that replaces a reply past [`MAX_REPLY`].
fn reply_too_large() -> RpcError {
    RpcError::new(
        REPLY_TOO_LARGE,
        format!(
            "Reply too large: the replies would pass {MAX_REPLY} bytes (16 MiB); send fewer requests per batch"
        ),
    )
}

/// The id to echo: its exact source text when the engine found it usable (a string, a number or
/// null), otherwise `null` (the id could not be read).
fn id_text(src: &[u8], doc: &Document, node: &Node<'_>) -> String {
    let broken = doc
        .violations
        .iter()
        .any(|v| *v.rule == rules::ID_WRONG_TYPE);
    match node.get("id") {
        Some(id) if !broken => {
            String::from_utf8_lossy(src.get(id.span.start..id.span.end).unwrap_or(b"null"))
                .into_owned()
        }
        _ => "null".to_string(),
    }
}

fn success(id: &str, result: &Json) -> String {
    reply("result", result, id)
}

fn failure(id: &str, error: &RpcError) -> String {
    reply("error", &error.to_json(), id)
}

/// `{"jsonrpc":"2.0","<member>":<value>,"id":<id>}`.
fn reply(member: &str, value: &Json, id: &str) -> String {
    let mut out = String::from("{\"jsonrpc\":\"2.0\",\"");
    out.push_str(member);
    out.push_str("\":");
    value.write(&mut out);
    out.push_str(",\"id\":");
    out.push_str(id);
    out.push('}');
    out
}

/// A number a method computes with: integers stay exact while they fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Num {
    Int(i64),
    Float(f64),
}

/// Largest integer a double holds exactly (2^53).
const EXACT_F64: f64 = 9_007_199_254_740_992.0;

impl Num {
    pub(crate) fn of(node: &Node<'_>) -> Option<Num> {
        match node.as_i64() {
            Some(n) => Some(Num::Int(n)),
            None => node.as_f64().map(Num::Float),
        }
    }

    fn float(self) -> f64 {
        match self {
            Num::Int(n) => n as f64,
            Num::Float(f) => f,
        }
    }

    pub(crate) fn add(self, other: Num) -> Num {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => a
                .checked_add(b)
                .map_or(Num::Float(a as f64 + b as f64), Num::Int),
            _ => Num::Float(self.float() + other.float()),
        }
    }

    pub(crate) fn sub(self, other: Num) -> Num {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => a
                .checked_sub(b)
                .map_or(Num::Float(a as f64 - b as f64), Num::Int),
            _ => Num::Float(self.float() - other.float()),
        }
    }

    pub(crate) fn div(self, other: Num) -> Num {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) if b != 0 && a.checked_rem(b) == Some(0) => Num::Int(a / b),
            _ => Num::Float(self.float() / other.float()),
        }
    }

    pub(crate) fn is_zero(self) -> bool {
        self.float() == 0.0
    }

    /// As JSON: integral values without a fraction, `None` when not finite.
    pub(crate) fn to_json(self) -> Option<Json> {
        self.to_text().map(Json::Number)
    }

    /// As text (`5`, `2.5`, `-0.1`), `None` when not finite.
    pub(crate) fn to_text(self) -> Option<String> {
        match self {
            Num::Int(n) => Some(n.to_string()),
            Num::Float(f) if !f.is_finite() => None,
            Num::Float(f) if f.fract() == 0.0 && f.abs() < EXACT_F64 => {
                Some((f as i64).to_string())
            }
            Num::Float(f) => Some(crate::json::shortest(f)),
        }
    }
}

/// "a string", "an array" … with the value when it is short, for error messages.
pub(crate) fn describe(node: &Node<'_>) -> String {
    let name = node.json_type().name();
    match &node.value {
        Value::String(s) if s.chars().count() <= 40 => format!("{name} {}", quote(s)),
        Value::Number(n) if n.len() <= 40 => format!("{name} {n}"),
        Value::Bool(b) => format!("{name} {b}"),
        _ => name.to_string(),
    }
}

/// One exchange with the mock written as a transcript: `--> REQUEST`, then `<-- REPLY`, so the
/// engine checks the reply beside the request it answers (a result with id null is right after a
/// request with id null, and only there). A request that is not exactly one JSON document (the
/// mock answers it with an error and id null) is written as a line no JSON reader takes, so the
/// transcript reads it as unreadable too (its own text could otherwise run into the reply's line).
/// Used by the `mock` fuzz target and its regression tests.
pub fn exchange_transcript(request: &[u8], reply: &str) -> Vec<u8> {
    let ws = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    let start = request.iter().position(|b| !ws(b)).unwrap_or(request.len());
    let end = request
        .iter()
        .rposition(|b| !ws(b))
        .map_or(start, |i| i + 1);
    let doc = &request[start..end.max(start)];
    let one = matches!(parse_document(doc, 0), Ok((_, end)) if end == doc.len());
    let mut text = b"--> ".to_vec();
    text.extend_from_slice(if one { doc } else { b"(unreadable)" });
    text.extend_from_slice(b"\n<-- ");
    text.extend_from_slice(reply.as_bytes());
    text
}
