//! MCP 2026-07-28's own shapes: `resultType` on every result, input-required results (the
//! server's questions in `inputRequests`, its memory in `requestState`), the client's answers in
//! `inputResponses`, the caching fields of list and read results, and the new errors' `data`.
//!
//! One message is checked on its own by [`response`] and [`request`]. A conversation (a transcript,
//! or the live traffic of `jrpc tap`) goes through [`Rounds`]: it pairs each result with the
//! request it answers, remembers what an input-required result asked, and checks the retry
//! against it (every key answered, no key never asked, `requestState` echoed unchanged).
//! <https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr>

use std::collections::VecDeque;

use crate::json::{escape_token, Direction, Node, Span, Value};
use crate::rpc::catalogue::Rule;
use crate::rpc::Sink;

use super::methods::{self, Types, ARRAY, INTEGER, OBJECT, STRING};
use super::params::has_type;
use super::rules::*;
use super::McpVersion;

/// One finding: the rule, the JSON pointer from the message's root (or its batch's), where, why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub rule: &'static Rule,
    pub path: String,
    pub span: Span,
    pub message: String,
}

type Out = Vec<Finding>;

fn flag(out: &mut Out, rule: &'static Rule, path: String, span: Span, message: String) {
    out.push(Finding {
        rule,
        path,
        span,
        message,
    });
}

fn into_sink(found: Out, sink: &mut Sink<'_>) {
    for f in found {
        sink.push_full(f.rule, f.path, f.span, f.message, Vec::new());
    }
}

const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";

/// Checks one response on its own: its result (resultType, an input-required result's shape, the
/// caching fields' values) or its error (the new codes' data, the retired codes).
pub(super) fn response(node: &Node<'_>, path: &str, sink: &mut Sink<'_>) {
    let mut out = Vec::new();
    if let Some(result) = node.get("result").filter(|r| r.is_object()) {
        result_shape(result, &format!("{path}/result"), &mut out);
    }
    if let Some(error) = node.get("error").filter(|e| e.is_object()) {
        error_data(error, &format!("{path}/error"), &mut out);
    }
    into_sink(out, sink);
}

/// Checks one request on its own: the client named in `_meta`, and each input response an object.
pub(super) fn request(node: &Node<'_>, path: &str, method: &str, sink: &mut Sink<'_>) {
    let Some(params) = node.get("params").filter(|p| p.is_object()) else {
        return;
    };
    let mut out = Vec::new();
    let names_client = methods::lookup(method, McpVersion::V2026_07_28).is_some_and(|m| {
        m.params
            .iter()
            .any(|p| p.path == "_meta/io.modelcontextprotocol~1clientInfo")
    });
    if let Some(meta) = params.get("_meta").filter(|m| m.is_object()) {
        if names_client && meta.get(CLIENT_INFO).is_none() {
            flag(
                &mut out,
                &META_CLIENT_INFO,
                format!("{path}/params/_meta"),
                meta.span,
                format!("{method}'s _meta should name the client in \"{CLIENT_INFO}\" ({{\"name\", \"version\"}}): with no initialize, each request is all the server knows of its caller"),
            );
        }
    }
    if let Some(responses) = params.get("inputResponses") {
        for m in responses.members() {
            if !m.value.is_object() {
                flag(
                    &mut out,
                    &INPUT_RESPONSE_INVALID,
                    format!(
                        "{path}/params/inputResponses/{}",
                        escape_token(&m.key)
                    ),
                    m.value.span,
                    format!(
                        "the answer to input request \"{}\" must be an object (the result of the sampling, elicitation or roots request it answers), found {}",
                        m.key,
                        m.value.json_type().name()
                    ),
                );
            }
        }
    }
    into_sink(out, sink);
}

fn result_shape(result: &Node<'_>, at: &str, out: &mut Out) {
    let kind = match result.get("resultType") {
        None => {
            flag(out, &RESULT_TYPE_MISSING, at.to_string(), result.span,
                "a 2026-07-28 result must carry \"resultType\": \"complete\", or \"input_required\" when the server needs more input first".into());
            None
        }
        Some(t) => {
            if t.as_str().is_none() {
                flag(
                    out,
                    &RESULT_TYPE_MISSING,
                    format!("{at}/resultType"),
                    t.span,
                    format!(
                        "\"resultType\" must be a string (\"complete\" or \"input_required\"), found {}",
                        t.json_type().name()
                    ),
                );
            }
            t.as_str()
        }
    };
    if kind == Some("input_required") {
        input_required(result, at, out);
    } else {
        cache_values(result, at, out);
    }
}

/// The caching fields, where present, have their types and values.
fn cache_values(result: &Node<'_>, at: &str, out: &mut Out) {
    if let Some(ttl) = result.get("ttlMs") {
        let ok = has_type(ttl, INTEGER) && ttl.as_f64().is_some_and(|f| f >= 0.0);
        if !ok {
            let text = match ttl.value {
                Value::Number(n) => n.to_string(),
                _ => ttl.json_type().name().to_string(),
            };
            flag(out, &CACHE_FIELDS, format!("{at}/ttlMs"), ttl.span, format!(
                "\"ttlMs\" is how many milliseconds the result stays fresh: an integer, 0 or more, not {text}"
            ));
        }
    }
    if let Some(scope) = result.get("cacheScope") {
        if !matches!(scope.as_str(), Some("public" | "private")) {
            flag(
                out,
                &CACHE_FIELDS,
                format!("{at}/cacheScope"),
                scope.span,
                "\"cacheScope\" is \"public\" (any cache may share it) or \"private\" (only within the same authorization)".into(),
            );
        }
    }
}

/// The required caching fields of the result of `method` are present.
fn cache_present(method: &str, result: &Node<'_>, at: &str, out: &mut Out) {
    let Some(row) = methods::lookup(method, McpVersion::V2026_07_28) else {
        return;
    };
    for name in ["ttlMs", "cacheScope"] {
        let required = row.result.iter().any(|p| p.path == name && p.required);
        if required && result.get(name).is_none() {
            flag(out, &CACHE_FIELDS, at.to_string(), result.span, format!(
                "the result of {method} is cacheable and must carry \"{name}\" (ttlMs: an integer of milliseconds, 0 or more; cacheScope: \"public\" or \"private\")"
            ));
        }
    }
}

fn input_required(result: &Node<'_>, at: &str, out: &mut Out) {
    let requests = result.get("inputRequests");
    let state = result.get("requestState");
    if requests.is_none() && state.is_none() {
        flag(out, &INPUT_REQUIRED_SHAPE, at.to_string(), result.span,
            "an input_required result needs \"inputRequests\" (what the client must answer), \"requestState\" (what it must echo back), or both".into());
    }
    if let Some(s) = state.filter(|s| s.as_str().is_none()) {
        flag(
            out,
            &INPUT_REQUIRED_SHAPE,
            format!("{at}/requestState"),
            s.span,
            format!(
                "\"requestState\" is opaque text the client echoes back: a string, found {}",
                s.json_type().name()
            ),
        );
    }
    let Some(requests) = requests else { return };
    if !requests.is_object() {
        flag(
            out,
            &INPUT_REQUIRED_SHAPE,
            format!("{at}/inputRequests"),
            requests.span,
            format!(
                "\"inputRequests\" maps keys to input requests: an object, found {}",
                requests.json_type().name()
            ),
        );
        return;
    }
    for m in requests.members() {
        input_request(
            &m.key,
            &m.value,
            &format!("{at}/inputRequests/{}", escape_token(&m.key)),
            out,
        );
    }
}

/// `obj[key]` has one of `types` (`what` names them); flags `rule` when absent or another type.
fn need(
    obj: &Node<'_>,
    key: &str,
    types: Types,
    at: &str,
    rule: &'static Rule,
    whose: &str,
    out: &mut Out,
) {
    match obj.get(key) {
        None => flag(
            out,
            rule,
            at.to_string(),
            obj.span,
            format!("{whose} needs \"{key}\" ({})", methods::types_name(types)),
        ),
        Some(v) if !has_type(v, types) => flag(
            out,
            rule,
            format!("{at}/{}", escape_token(key)),
            v.span,
            format!(
                "{whose}'s \"{key}\" must be {}, found {}",
                methods::types_name(types),
                v.json_type().name()
            ),
        ),
        Some(_) => {}
    }
}

fn input_request(key: &str, entry: &Node<'_>, at: &str, out: &mut Out) {
    let rule = &INPUT_REQUEST_INVALID;
    if !entry.is_object() {
        flag(
            out,
            rule,
            at.to_string(),
            entry.span,
            format!(
                "input request \"{key}\" must be an object {{\"method\", \"params\"}}, found {}",
                entry.json_type().name()
            ),
        );
        return;
    }
    let method = entry.get("method").and_then(Node::as_str);
    let whose = format!("input request \"{key}\"");
    let Some(method @ ("sampling/createMessage" | "elicitation/create" | "roots/list")) = method
    else {
        let (path, span) = match entry.get("method") {
            Some(m) => (format!("{at}/method"), m.span),
            None => (at.to_string(), entry.span),
        };
        flag(
            out,
            rule,
            path,
            span,
            format!(
            "{whose} must have \"method\" sampling/createMessage, elicitation/create or roots/list"
        ),
        );
        return;
    };
    let params = entry.get("params");
    match (method, params) {
        ("roots/list", None) => {}
        (_, Some(p)) if !p.is_object() => flag(
            out,
            rule,
            format!("{at}/params"),
            p.span,
            format!(
                "{whose}'s params must be an object, found {}",
                p.json_type().name()
            ),
        ),
        (_, None) => flag(
            out,
            rule,
            at.to_string(),
            entry.span,
            format!("{whose} ({method}) needs \"params\""),
        ),
        ("sampling/createMessage", Some(p)) => {
            let at = format!("{at}/params");
            need(p, "messages", ARRAY, &at, rule, &whose, out);
            need(p, "maxTokens", INTEGER, &at, rule, &whose, out);
        }
        ("elicitation/create", Some(p)) => {
            let at = format!("{at}/params");
            need(p, "message", STRING, &at, rule, &whose, out);
            if p.get("mode").and_then(Node::as_str) == Some("url") {
                need(p, "url", STRING, &at, rule, &whose, out);
            } else {
                need(p, "requestedSchema", OBJECT, &at, rule, &whose, out);
            }
        }
        _ => {}
    }
}

/// An answer to an input request of `method` is that request's result.
fn input_response(key: &str, method: &str, answer: &Node<'_>, at: &str, out: &mut Out) {
    if !answer.is_object() {
        return; // said on its own by `request`
    }
    let rule = &INPUT_RESPONSE_INVALID;
    let whose = format!("the answer to \"{key}\" ({method})");
    match method {
        "elicitation/create" => match answer.get("action") {
            Some(a) if matches!(a.as_str(), Some("accept" | "decline" | "cancel")) => {}
            Some(a) => flag(
                out,
                rule,
                format!("{at}/action"),
                a.span,
                format!("{whose}: \"action\" is \"accept\", \"decline\" or \"cancel\""),
            ),
            None => flag(
                out,
                rule,
                at.to_string(),
                answer.span,
                format!("{whose} needs \"action\": \"accept\", \"decline\" or \"cancel\""),
            ),
        },
        "sampling/createMessage" => {
            need(answer, "role", STRING, at, rule, &whose, out);
            need(answer, "content", OBJECT | ARRAY, at, rule, &whose, out);
            need(answer, "model", STRING, at, rule, &whose, out);
        }
        "roots/list" => need(answer, "roots", ARRAY, at, rule, &whose, out),
        _ => {}
    }
}

/// The 2026-07-28 error codes with required data, and the codes it retired.
fn error_data(error: &Node<'_>, at: &str, out: &mut Out) {
    let Some(code) = error.get("code") else {
        return;
    };
    let data_at = format!("{at}/data");
    match code.as_i64() {
        Some(-32021) | Some(-32022) => {
            let Some(data) = error.get("data").filter(|d| d.is_object()) else {
                let span = error.get("data").map_or(error.span, |d| d.span);
                let path = if error.get("data").is_some() { data_at } else { at.to_string() };
                let wants = if code.as_i64() == Some(-32021) {
                    "{\"requiredCapabilities\": {...}}"
                } else {
                    "{\"requested\": \"...\", \"supported\": [...]}"
                };
                flag(out, &ERROR_DATA, path, span, format!(
                    "error {} needs \"data\": {wants}", code.as_i64().unwrap_or_default()
                ));
                return;
            };
            let whose = format!("error {}'s data", code.as_i64().unwrap_or_default());
            if code.as_i64() == Some(-32021) {
                need(data, "requiredCapabilities", OBJECT, &data_at, &ERROR_DATA, &whose, out);
            } else {
                need(data, "requested", STRING, &data_at, &ERROR_DATA, &whose, out);
                need(data, "supported", ARRAY, &data_at, &ERROR_DATA, &whose, out);
            }
        }
        Some(-32002) => flag(out, &ERROR_CODE_RETIRED, format!("{at}/code"), code.span,
            "2026-07-28 answers a missing resource with -32602 (Invalid params, SEP-2164), not -32002".into()),
        Some(-32042) => flag(out, &ERROR_CODE_RETIRED, format!("{at}/code"), code.span,
            "2026-07-28 has no -32042 (URL elicitation required): answer input_required with an elicitation of mode \"url\"".into()),
        _ => {}
    }
}

// ---- Conversations ---------------------------------------------------------------------------

/// Client requests awaiting their answers, at most (the oldest is forgotten past it).
const MAX_PENDING: usize = 1024;
/// Open input-required rounds, at most.
const MAX_OPEN: usize = 256;
/// Bytes of text (ids, methods, targets, keys, states) remembered at most, requests and rounds
/// each: past it the oldest are forgotten, and one larger on its own is not remembered.
pub const MAX_REMEMBERED_BYTES: usize = 1 << 20;

/// A client request as a round knows it: the method and what it names (a tool, a prompt, a uri).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Call {
    method: String,
    target: String,
}

impl Call {
    fn bytes(&self) -> usize {
        self.method.len() + self.target.len()
    }
    fn of(method: &str, node: &Node<'_>) -> Call {
        let params = node.get("params");
        let target = ["name", "uri"]
            .iter()
            .find_map(|k| params.and_then(|p| p.get(k)).and_then(Node::as_str))
            .unwrap_or_default();
        Call {
            method: method.to_string(),
            target: target.to_string(),
        }
    }
    fn shown(&self) -> String {
        if self.target.is_empty() {
            self.method.clone()
        } else {
            format!("{} {}", self.method, self.target)
        }
    }
}

/// What an input-required result asked of one call.
#[derive(Debug)]
struct Round {
    call: Call,
    /// (key, method) of each input request.
    asked: Vec<(String, String)>,
    /// The requestState to echo, when the server gave one.
    state: Option<String>,
}

impl Round {
    fn bytes(&self) -> usize {
        let asked: usize = self.asked.iter().map(|(k, m)| k.len() + m.len()).sum();
        self.call.bytes() + asked + self.state.as_ref().map_or(0, String::len)
    }
}

/// A 2026-07-28 conversation as it goes: the client's requests awaiting answers and the
/// input-required rounds awaiting their retries. Feed it every message in order with
/// [`Rounds::observe`]. Memory is bounded: at most [`MAX_PENDING`] requests and [`MAX_OPEN`]
/// rounds are remembered (the oldest are forgotten first).
#[derive(Debug, Default)]
pub struct Rounds {
    pending: VecDeque<(String, Call)>,
    open: VecDeque<Round>,
    /// Bytes held by `pending` and by `open`.
    pending_bytes: usize,
    open_bytes: usize,
}

/// An id as a key: strings by value, numbers by their text.
fn id_key(node: &Node<'_>) -> Option<String> {
    match &node.get("id")?.value {
        Value::String(s) => Some(format!("s:{s}")),
        Value::Number(n) => Some(format!("n:{n}")),
        _ => None,
    }
}

impl Rounds {
    /// Checks one object message sent by `from` against the conversation so far and remembers
    /// what later messages are checked against. `base` is the message's pointer ("" on its own,
    /// "/2" as a batch's third element).
    pub fn observe(&mut self, from: Direction, node: &Node<'_>, base: &str) -> Vec<Finding> {
        let mut out = Vec::new();
        let Some(id) = id_key(node) else {
            return out;
        };
        match (from, node.get("method").and_then(Node::as_str)) {
            (Direction::Client, Some(method)) => {
                let call = Call::of(method, node);
                if let Some(i) = self.open.iter().position(|r| r.call == call) {
                    if let Some(round) = self.open.remove(i) {
                        self.open_bytes -= round.bytes();
                        retry(&round, node, base, &mut out);
                    }
                }
                self.forget_request(&id);
                self.remember_request(id, call);
            }
            (Direction::Server, None) => {
                let Some(call) = self.forget_request(&id) else {
                    return out;
                };
                let Some(result) = node.get("result").filter(|r| r.is_object()) else {
                    return out;
                };
                if result.get("resultType").and_then(Node::as_str) == Some("input_required") {
                    let asked = result
                        .get("inputRequests")
                        .map(Node::members)
                        .unwrap_or_default()
                        .iter()
                        .map(|m| {
                            let method = m.value.get("method").and_then(Node::as_str);
                            (m.key.to_string(), method.unwrap_or_default().to_string())
                        })
                        .collect();
                    let state = result
                        .get("requestState")
                        .and_then(Node::as_str)
                        .map(str::to_string);
                    self.remember_round(Round { call, asked, state });
                } else {
                    cache_present(&call.method, result, &format!("{base}/result"), &mut out);
                }
            }
            _ => {}
        }
        out
    }
}

impl Rounds {
    /// Takes the request with id key `id` out of the pending ones.
    fn forget_request(&mut self, id: &str) -> Option<Call> {
        let i = self.pending.iter().position(|(k, _)| k == id)?;
        let (key, call) = self.pending.remove(i)?;
        self.pending_bytes -= key.len() + call.bytes();
        Some(call)
    }

    fn remember_request(&mut self, id: String, call: Call) {
        let size = id.len() + call.bytes();
        if size > MAX_REMEMBERED_BYTES {
            return;
        }
        while self.pending.len() >= MAX_PENDING || self.pending_bytes + size > MAX_REMEMBERED_BYTES
        {
            let Some((key, old)) = self.pending.pop_front() else {
                break;
            };
            self.pending_bytes -= key.len() + old.bytes();
        }
        self.pending_bytes += size;
        self.pending.push_back((id, call));
    }

    /// Opens `round`, replacing an open one of the same call.
    fn remember_round(&mut self, round: Round) {
        if let Some(i) = self.open.iter().position(|r| r.call == round.call) {
            if let Some(old) = self.open.remove(i) {
                self.open_bytes -= old.bytes();
            }
        }
        let size = round.bytes();
        if size > MAX_REMEMBERED_BYTES {
            return;
        }
        while self.open.len() >= MAX_OPEN || self.open_bytes + size > MAX_REMEMBERED_BYTES {
            let Some(old) = self.open.pop_front() else {
                break;
            };
            self.open_bytes -= old.bytes();
        }
        self.open_bytes += size;
        self.open.push_back(round);
    }

    /// Bytes of text remembered now (requests and rounds).
    pub fn remembered_bytes(&self) -> usize {
        self.pending_bytes + self.open_bytes
    }
}

/// Checks a retry of `round`'s call: every key answered, none unasked, the state echoed.
fn retry(round: &Round, node: &Node<'_>, base: &str, out: &mut Out) {
    let call = round.call.shown();
    let params = node.get("params");
    let params_at = format!("{base}/params");
    let params_span = params.map_or(node.span, |p| p.span);
    let responses = params.and_then(|p| p.get("inputResponses"));
    let answered = |key: &str| responses.is_some_and(|r| r.get(key).is_some());
    let missing: Vec<&str> = round
        .asked
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| !answered(k))
        .collect();
    if !missing.is_empty() {
        let (path, span) = match responses {
            Some(r) => (format!("{params_at}/inputResponses"), r.span),
            None => (params_at.clone(), params_span),
        };
        let keys: Vec<String> = missing
            .iter()
            .take(8)
            .map(|k| crate::json::quote(k))
            .collect();
        flag(out, &RETRY_MISSING_RESPONSES, path, span, format!(
            "this retries {call} after its input_required result but does not answer {} in \"inputResponses\" (a fresh call would not follow an open round)",
            keys.join(", ")
        ));
    }
    if let Some(r) = responses {
        for m in r.members() {
            let at = format!("{params_at}/inputResponses/{}", escape_token(&m.key));
            match round.asked.iter().find(|(k, _)| *k == m.key) {
                Some((key, method)) => input_response(key, method, &m.value, &at, out),
                None => flag(
                    out,
                    &INPUT_RESPONSE_UNREQUESTED,
                    at,
                    m.key_span,
                    format!(
                        "the server never asked \"{}\" (it asked {}): the answer is ignored",
                        m.key,
                        if round.asked.is_empty() {
                            "nothing".to_string()
                        } else {
                            round
                                .asked
                                .iter()
                                .take(8)
                                .map(|(k, _)| crate::json::quote(k))
                                .collect::<Vec<_>>()
                                .join(", ")
                        }
                    ),
                ),
            }
        }
    }
    let echoed = params.and_then(|p| p.get("requestState"));
    match (&round.state, echoed) {
        (Some(s), Some(e)) if e.as_str() == Some(s.as_str()) => {}
        (Some(_), Some(e)) => flag(out, &REQUEST_STATE_CHANGED, format!("{params_at}/requestState"), e.span, format!(
            "this retry of {call} sends a requestState other than the one the server gave: echo it unchanged"
        )),
        (Some(_), None) => flag(out, &REQUEST_STATE_CHANGED, params_at, params_span, format!(
            "this retry of {call} leaves out the requestState the server gave: echo it unchanged"
        )),
        (None, Some(e)) => flag(out, &REQUEST_STATE_CHANGED, format!("{params_at}/requestState"), e.span, format!(
            "the server gave no requestState for {call}, yet this retry sends one"
        )),
        (None, None) => {}
    }
}
