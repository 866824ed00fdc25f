//! Requests the server sends to the client during a call (MCP's `sampling/createMessage` and
//! `elicitation/create`), and the calls that wait for their answers.
//!
//! A tool that needs the client asks a [`Question`] ([`MockServer::ask`]) instead of answering. If
//! the client declared the capability in `initialize`, the call becomes a [`PendingCall`]: the
//! server sends its request with an id of its own (`"mock-1"`, `"mock-2"`, …: an [`Outgoing`] of
//! kind [`OutgoingKind::Request`]) and answers the call only when the client's response with that
//! id arrives, as a later document: an [`OutgoingKind::Reply`] with the call's id echoed exactly.
//! A `notifications/cancelled` naming the call drops it (no reply, as MCP says), and the server
//! cancels its own request in turn.

use crate::json::{quote, Json, Node, Value};
use crate::rpc::{Document, Kind, Severity};

use super::content::tool_error;
use super::{success, MockServer, RpcError, MISSING_REQUIRED_CLIENT_CAPABILITY};

/// One request of the client that the server answers, numbered in the order they arrive. It tags
/// what the server sends while answering it, and its deferred reply ([`Outgoing::call`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CallId(pub u64);

/// What an [`Outgoing`] message is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutgoingKind {
    /// A notification: a log line, progress, the cancellation of the server's own request.
    Notification,
    /// A request to the client (`sampling/createMessage`, `elicitation/create`): its answer is
    /// awaited ([`MockServer::pending_requests`]).
    Request,
    /// The reply to a call that waited for the client's answer (or was given up).
    Reply,
}

/// A message the server sends on its own: not the direct reply to the input just handled.
#[derive(Clone, Debug, PartialEq)]
pub struct Outgoing {
    /// The compact one-line message.
    pub text: String,
    pub kind: OutgoingKind,
    /// The client's call it belongs to: sent while that call runs or waits, or its deferred
    /// reply. `None` for what belongs to no call (e.g. sent while handling a notification).
    pub call: Option<CallId>,
}

/// What a tool can ask the client for, as the client's capability names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Capability {
    Sampling,
    Elicitation,
    /// `roots/list` (asked inside 2026-07-28's input-required results only).
    Roots,
}

impl Capability {
    /// The member of the client's `capabilities` that declares it.
    pub(super) fn name(self) -> &'static str {
        match self {
            Capability::Sampling => "sampling",
            Capability::Elicitation => "elicitation",
            Capability::Roots => "roots",
        }
    }

    /// The request that asks it.
    pub(super) fn method(self) -> &'static str {
        match self {
            Capability::Sampling => "sampling/createMessage",
            Capability::Elicitation => "elicitation/create",
            Capability::Roots => "roots/list",
        }
    }
}

/// What the client declared in `initialize` that the server may ask for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct ClientCapabilities {
    pub(super) sampling: bool,
    pub(super) elicitation: bool,
    pub(super) roots: bool,
    /// The Tasks extension (`extensions["io.modelcontextprotocol/tasks"]`, 2026-07-28).
    pub(super) tasks: bool,
}

impl ClientCapabilities {
    /// From `initialize`'s `params` (`capabilities.sampling`, `capabilities.elicitation`: present
    /// as objects).
    pub(super) fn declared_in(params: Option<&Node<'_>>) -> Self {
        ClientCapabilities::of(params.and_then(|p| p.get("capabilities")))
    }

    /// From a `ClientCapabilities` object (`initialize`'s `capabilities`, a 2026-07-28 request's
    /// `io.modelcontextprotocol/clientCapabilities`).
    pub(super) fn of(capabilities: Option<&Node<'_>>) -> Self {
        let has = |name| {
            capabilities
                .and_then(|c| c.get(name))
                .is_some_and(Node::is_object)
        };
        ClientCapabilities {
            sampling: has("sampling"),
            elicitation: has("elicitation"),
            roots: has("roots"),
            tasks: capabilities
                .and_then(|c| c.get("extensions"))
                .and_then(|e| e.get(TASKS_EXTENSION))
                .is_some_and(Node::is_object),
        }
    }

    pub(super) fn has(self, capability: Capability) -> bool {
        match capability {
            Capability::Sampling => self.sampling,
            Capability::Elicitation => self.elicitation,
            Capability::Roots => self.roots,
        }
    }
}

/// -32021 Missing required client capability: `data.requiredCapabilities` is a
/// `ClientCapabilities` object naming what is missing (`{"sampling": {}}`).
pub(super) fn missing_capability(capability: Capability) -> RpcError {
    RpcError {
        code: MISSING_REQUIRED_CLIENT_CAPABILITY,
        message: format!(
            "Missing required client capability: {} (this request needs it; declare it in io.modelcontextprotocol/clientCapabilities)",
            capability.name()
        ),
        data: Some(Json::obj([(
            "requiredCapabilities",
            Json::obj([(capability.name(), Json::Object(Vec::new()))]),
        )])),
    }
}

/// The extension's identifier (`capabilities.extensions`, and a client's per-request
/// `clientCapabilities.extensions`).
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// -32021 naming the extension: the request needs it and its `_meta` did not declare it.
pub(super) fn missing_extension(why: &str) -> RpcError {
    RpcError {
        code: MISSING_REQUIRED_CLIENT_CAPABILITY,
        message: format!(
            "Missing required client capability: the extension {TASKS_EXTENSION} ({why}; declare it in io.modelcontextprotocol/clientCapabilities.extensions)"
        ),
        data: Some(Json::obj([(
            "requiredCapabilities",
            Json::obj([(
                "extensions",
                Json::obj([(TASKS_EXTENSION, Json::Object(Vec::new()))]),
            )]),
        )])),
    }
}

/// How a tool turns the client's `result` into its own result (a tool error when the result is
/// not usable).
pub(super) type Finish = fn(&Node<'_>) -> Json;

/// What a tool asks the client, raised while its call runs ([`MockServer::ask`]).
#[derive(Clone, Debug)]
pub(super) struct Question {
    capability: Capability,
    params: Json,
    finish: Finish,
}

/// A call waiting for the client's answer to the server's request.
#[derive(Clone, Debug)]
pub(super) struct PendingCall {
    call: CallId,
    /// The call's id as its source text, echoed exactly in the deferred reply.
    call_id_text: String,
    /// The call's id as compact JSON, what a `notifications/cancelled`'s `requestId` is matched with.
    call_id_value: String,
    /// The id of the server's request (`mock-N`).
    request_id: String,
    capability: Capability,
    /// The server's request as sent.
    request: String,
    finish: Finish,
}

/// A request the server sent and still awaits an answer to (the page lists them; a response
/// with [`PendingRequest::id`] answers it).
#[derive(Clone, Debug, PartialEq)]
pub struct PendingRequest {
    /// The client's call that waits for it.
    pub call: CallId,
    /// That call's id, as the client wrote it.
    pub call_id: String,
    /// The id of the server's request (a string, `mock-N`).
    pub id: String,
    /// `sampling/createMessage` or `elicitation/create`.
    pub method: &'static str,
    /// The request as sent.
    pub request: String,
    /// A response the client could send back: a canned model answer for sampling, an accepted
    /// form filled with each field's default (or first choice) for elicitation.
    pub example_reply: String,
}

/// At most this many calls wait at once; a tool asking beyond that answers a tool error.
pub const MAX_PENDING: usize = 16;

impl MockServer {
    /// Whether the client declared `capability`: in the 2026-07-28 request's `_meta`, or in
    /// `initialize` for the handshake versions.
    pub(super) fn client_declared(&self, capability: Capability) -> bool {
        if self.request.modern {
            self.request.client_can.has(capability)
        } else {
            self.client_can.has(capability)
        }
    }

    /// A tool asks the client: when the client declared `capability`, the call will wait for its
    /// answer and `finish` makes the tool's result from it (the returned value is then a
    /// placeholder the call never sends); otherwise the tool's result is a tool error saying so.
    pub(super) fn ask(&mut self, capability: Capability, params: Json, finish: Finish) -> Json {
        if !self.client_can.has(capability) {
            return tool_error(format!(
                "this tool asks the client for {} ({}), but the client did not declare the \"{}\" capability in initialize",
                capability.name(),
                capability.method(),
                capability.name()
            ));
        }
        self.asking = Some(Question {
            capability,
            params,
            finish,
        });
        Json::Null
    }

    /// Makes `call` (id `call_id_text`) wait for the answer to `question`: sends the request.
    /// `Err(result)`: the call cannot wait, and answers that tool error now.
    pub(super) fn defer(
        &mut self,
        call: CallId,
        call_id_text: String,
        call_id_value: String,
        question: Question,
    ) -> Result<(), Json> {
        if self.in_batch {
            return Err(tool_error(format!(
                "this tool asks the client ({}) and waits for the answer, which a batch cannot do (its replies go back together); send the call on its own",
                question.capability.method()
            )));
        }
        if self.pending.len() >= MAX_PENDING {
            return Err(tool_error(format!(
                "{MAX_PENDING} calls already wait for the client's answers; answer or cancel one first"
            )));
        }
        self.requests_sent += 1;
        let request_id = format!("mock-{}", self.requests_sent);
        let request = Json::obj([
            ("jsonrpc", Json::from("2.0")),
            ("id", Json::String(request_id.clone())),
            ("method", Json::from(question.capability.method())),
            ("params", question.params),
        ])
        .compact();
        self.send(request.clone(), OutgoingKind::Request, Some(call));
        self.pending.push(PendingCall {
            call,
            call_id_text,
            call_id_value,
            request_id,
            capability: question.capability,
            request,
            finish: question.finish,
        });
        Ok(())
    }

    /// A response from the client (`doc`, valid or not): when its id is that of a request the
    /// server awaits an answer to, the waiting call is answered (into the outbox).
    pub(super) fn answered(&mut self, doc: &Document, node: &Node<'_>) {
        let Some(id) = node.get("id").and_then(Node::as_str) else {
            return;
        };
        let Some(index) = self.pending.iter().position(|p| p.request_id == id) else {
            return;
        };
        let pending = self.pending.remove(index);
        let method = pending.capability.method();
        let broken = doc
            .violations
            .iter()
            .find(|v| v.severity == Severity::Error);
        let result = match (doc.kind, broken, node.get("result"), node.get("error")) {
            (Kind::Response, None, Some(result), _) => match form_refused(&pending, result) {
                Some(refused) => refused,
                None => (pending.finish)(result),
            },
            (Kind::Response, None, None, Some(error)) => {
                let code = error.get("code").map_or_else(String::new, |c| {
                    format!(" {}", Json::from_node(c).compact())
                });
                let message = error.get("message").and_then(Node::as_str).unwrap_or("");
                tool_error(format!(
                    "the client answered {method} ({id}) with error{code}: {message}"
                ))
            }
            (_, Some(v), _, _) => tool_error(format!(
                "the client's reply to {method} ({id}) is not a valid response: {} (at {})",
                v.message,
                if v.path.is_empty() { "/" } else { &v.path }
            )),
            _ => tool_error(format!(
                "the client's reply to {method} ({id}) is not a valid response"
            )),
        };
        self.send(
            success(&pending.call_id_text, &result),
            OutgoingKind::Reply,
            Some(pending.call),
        );
    }

    /// `notifications/cancelled` for a waiting call: the call is dropped without a reply, and the
    /// server cancels the request it sent for it. Any other `requestId` changes nothing.
    pub(super) fn cancelled(&mut self, params: Option<&Node<'_>>) {
        let Some(request_id) = params.and_then(|p| p.get("requestId")) else {
            return;
        };
        let wanted = Json::from_node(request_id).compact();
        let Some(index) = self.pending.iter().position(|p| p.call_id_value == wanted) else {
            return;
        };
        let pending = self.pending.remove(index);
        self.cancel_request(
            &pending,
            &format!(
                "the call it was for (id {}) was cancelled",
                pending.call_id_text
            ),
        );
    }

    fn cancel_request(&mut self, pending: &PendingCall, reason: &str) {
        let notification = Json::obj([
            ("jsonrpc", Json::from("2.0")),
            ("method", Json::from("notifications/cancelled")),
            (
                "params",
                Json::obj([
                    ("requestId", Json::String(pending.request_id.clone())),
                    ("reason", Json::from(reason)),
                ]),
            ),
        ]);
        self.send(
            notification.compact(),
            OutgoingKind::Notification,
            Some(pending.call),
        );
    }

    /// Stops waiting for the client's answer for `call` (a transport's time limit, a client gone):
    /// the server cancels its request and the call is answered with a tool error saying `why`
    /// (into the outbox). False when `call` was not waiting.
    pub fn give_up(&mut self, call: CallId, why: &str) -> bool {
        let Some(index) = self.pending.iter().position(|p| p.call == call) else {
            return false;
        };
        let pending = self.pending.remove(index);
        self.cancel_request(&pending, why);
        let result = tool_error(format!(
            "no answer from the client to {} ({}): {why}",
            pending.capability.method(),
            pending.request_id
        ));
        self.send(
            success(&pending.call_id_text, &result),
            OutgoingKind::Reply,
            Some(call),
        );
        true
    }

    /// True while `call` waits for the client's answer.
    pub fn is_waiting(&self, call: CallId) -> bool {
        self.pending.iter().any(|p| p.call == call)
    }

    /// The requests the server sent and awaits answers to, oldest first.
    pub fn pending_requests(&self) -> Vec<PendingRequest> {
        self.pending
            .iter()
            .map(|p| PendingRequest {
                call: p.call,
                call_id: p.call_id_text.clone(),
                id: p.request_id.clone(),
                method: p.capability.method(),
                request: p.request.clone(),
                // What a cooperative client answers (one owner: crate::client).
                example_reply: crate::client::reply_to(&p.request).unwrap_or_default(),
            })
            .collect()
    }
}

// ---- reading the client's answers -----------------------------------------------------------

/// The text of a `sampling/createMessage` result (its `content`, one block or an array of them;
/// what is not text is named in brackets) and the model that wrote it. `Err`: what is wrong,
/// with where.
pub(super) fn sampled(result: &Node<'_>) -> Result<(String, String), String> {
    let content = result
        .get("content")
        .ok_or("the sampling result has no \"content\" (at /result)")?;
    let blocks: Vec<&Node<'_>> = match &content.value {
        Value::Array(items) => items.iter().collect(),
        Value::Object(_) => vec![content],
        _ => {
            return Err(
                "the sampling result's \"content\" is not a content block (at /result/content)"
                    .into(),
            )
        }
    };
    let mut text = String::new();
    for block in blocks {
        match block.get("type").and_then(Node::as_str) {
            Some("text") => text.push_str(block.get("text").and_then(Node::as_str).unwrap_or("")),
            Some(other) => text.push_str(&format!("[{other}]")),
            None => {
                return Err(
                    "a content block of the sampling result has no \"type\" (at /result/content)"
                        .into(),
                )
            }
        }
    }
    let model = result
        .get("model")
        .and_then(Node::as_str)
        .unwrap_or("an unnamed model")
        .to_string();
    Ok((text, model))
}

/// The roots of a `roots/list` result, each `uri (name)` or `uri`. `Err`: what is wrong, with
/// where.
pub(super) fn roots(result: &Node<'_>) -> Result<Vec<String>, String> {
    let Some(Value::Array(items)) = result.get("roots").map(|r| &r.value) else {
        return Err("the roots/list result has no \"roots\" array (at /result/roots)".into());
    };
    items
        .iter()
        .enumerate()
        .map(|(i, root)| {
            let uri = root.get("uri").and_then(Node::as_str).ok_or_else(|| {
                format!("a root has no \"uri\" string (at /result/roots/{i}/uri)")
            })?;
            Ok(match root.get("name").and_then(Node::as_str) {
                Some(name) => format!("{uri} ({name})"),
                None => uri.to_string(),
            })
        })
        .collect()
}

/// With the tool schemas (feature `mcp-schemas`), the tool error for an accepted elicitation answer whose content breaks the
/// requestedSchema the server sent; `None` when it conforms (or for any other request).
fn form_refused(pending: &PendingCall, result: &Node<'_>) -> Option<Json> {
    #[cfg(feature = "mcp-schemas")]
    if pending.capability == Capability::Elicitation {
        let sent: serde_json::Value = serde_json::from_str(&pending.request).ok()?;
        let problems = super::input_schema::answer_problems(&sent["params"], result);
        if !problems.is_empty() {
            let named: Vec<String> = problems
                .into_iter()
                .map(|(at, m)| format!("{m} (at /result/content{at})"))
                .collect();
            return Some(tool_error(format!(
                "the client's answer to elicitation/create ({}) is refused: {}",
                pending.request_id,
                named.join("; ")
            )));
        }
    }
    #[cfg(not(feature = "mcp-schemas"))]
    let _ = (pending, result);
    None
}

/// What the user did with an elicitation form (`accept`, `decline` or `cancel`) and the form's
/// `content` (an object, when accepted). `Err`: what is wrong, with where.
pub(super) fn elicited<'n, 'a>(
    result: &'n Node<'a>,
) -> Result<(&'n str, Option<&'n Node<'a>>), String> {
    let action = match result.get("action").map(|a| (a, a.as_str())) {
        Some((_, Some(action @ ("accept" | "decline" | "cancel")))) => action,
        Some((node, _)) => {
            return Err(format!(
                "the elicitation result's \"action\" must be \"accept\", \"decline\" or \"cancel\", found {} (at /result/action)",
                super::describe(node)
            ))
        }
        None => return Err("the elicitation result has no \"action\" (at /result)".into()),
    };
    let content = result.get("content");
    if let Some(c) = content.filter(|c| !c.is_object()) {
        return Err(format!(
            "the elicitation result's \"content\" must be an object, found {} (at /result/content)",
            super::describe(c)
        ));
    }
    Ok((action, content))
}

/// `action=accept, content={…}`: how the conformance tools report an elicitation's outcome.
#[cfg(feature = "conformance")]
pub(super) fn elicitation_outcome(result: &Node<'_>) -> Result<String, String> {
    let (action, content) = elicited(result)?;
    Ok(match content {
        Some(content) => format!(
            "action={action}, content={}",
            Json::from_node(content).compact()
        ),
        None => format!("action={action}"),
    })
}

/// A string field of an accepted form, quoted for a message when it is not a string.
pub(super) fn form_text(content: Option<&Node<'_>>, field: &str) -> Option<String> {
    let value = content?.get(field)?;
    Some(match value.as_str() {
        Some(s) => s.to_string(),
        None => quote(&Json::from_node(value).compact()),
    })
}
