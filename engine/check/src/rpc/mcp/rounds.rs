//! MCP 2026-07-28's own shapes: `resultType` on every result, input-required results (the
//! server's questions in `inputRequests`, its memory in `requestState`), the client's answers in
//! `inputResponses`, the caching fields of list and read results, and the new errors' `data`.
//!
//! One message is checked on its own by [`response`] and [`request`]. A conversation (a transcript,
//! or the live traffic of `jrpc tap`) goes through [`Rounds`]: it pairs each result with the
//! request it answers, remembers what an input-required result asked, and checks the retry
//! against it (every key answered, no key never asked, `requestState` echoed unchanged).
//! Messages are kept short and mostly constant: the whole catalogue ships in the page.
//! <https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr>

use crate::json::{escape_token, Direction, Node, Span, Value};
use crate::rpc::rule::Rule;
use crate::rpc::{Sink, Text};

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
    pub message: Text,
}

type Out = Vec<Finding>;

fn flag(out: &mut Out, rule: &'static Rule, path: String, span: Span, message: impl Into<Text>) {
    out.push(Finding {
        rule,
        path,
        span,
        message: message.into(),
    });
}

/// `a` then `b`: one small function for every pointer built here (each `format!` of its own
/// costs the page's code size).
#[inline(never)]
fn join(a: &str, b: &str) -> String {
    let mut s = String::with_capacity(a.len() + b.len());
    s.push_str(a);
    s.push_str(b);
    s
}

/// `{at}{tail}/{key}` with `key` escaped as a pointer token.
fn child(at: &str, tail: &str, key: &str) -> String {
    join(&join(at, tail), &join("/", &escape_token(key)))
}

/// The three requests a server may ask inside an input-required result.
const INPUT_METHODS: [&str; 3] = ["sampling/createMessage", "elicitation/create", "roots/list"];
const SAMPLING: usize = 0;
const ELICITATION: usize = 1;
const ROOTS: usize = 2;

fn input_method(entry: &Node<'_>) -> Option<usize> {
    let method = entry.get("method").and_then(Node::as_str)?;
    INPUT_METHODS.iter().position(|m| *m == method)
}

/// Checks one response on its own: its result (resultType, an input-required result's shape, the
/// caching fields' values) or its error (the new codes' data).
pub(super) fn response(node: &Node<'_>, path: &str, sink: &mut Sink<'_>) {
    let mut out = Vec::new();
    if let Some(result) = node.get("result").filter(|r| r.is_object()) {
        result_shape(result, &join(path, "/result"), &mut out);
    }
    if let Some(error) = node.get("error").filter(|e| e.is_object()) {
        error_data(error, &join(path, "/error"), &mut out);
    }
    into_sink(out, sink);
}

fn into_sink(found: Out, sink: &mut Sink<'_>) {
    for f in found {
        sink.push_full(f.rule, f.path, f.span, f.message, Vec::new());
    }
}

/// Checks one request on its own (every 2026-07-28 request's `_meta` is a RequestMetaObject):
/// the client named in `_meta`, and each input response an object.
pub(super) fn request(node: &Node<'_>, path: &str, sink: &mut Sink<'_>) {
    let Some(params) = node.get("params").filter(|p| p.is_object()) else {
        return;
    };
    let mut out = Vec::new();
    if let Some(meta) = params.get("_meta").filter(|m| m.is_object()) {
        if meta.get("io.modelcontextprotocol/clientInfo").is_none() {
            flag(&mut out, &META_CLIENT_INFO, join(path, "/params/_meta"), meta.span,
                "_meta should name the client in \"io.modelcontextprotocol/clientInfo\" ({\"name\", \"version\"})");
        }
    }
    if let Some(responses) = params.get("inputResponses") {
        for m in responses.members().iter().filter(|m| !m.value.is_object()) {
            flag(
                &mut out,
                &INPUT_RESPONSE_INVALID,
                child(path, "/params/inputResponses", &m.key),
                m.value.span,
                "an input response is an object: the result of the request it answers",
            );
        }
    }
    into_sink(out, sink);
}

fn result_shape(result: &Node<'_>, at: &str, out: &mut Out) {
    let kind = result.get("resultType");
    match kind {
        None => flag(
            out,
            &RESULT_TYPE_MISSING,
            at.to_string(),
            result.span,
            "a 2026-07-28 result needs \"resultType\": \"complete\" or \"input_required\"",
        ),
        Some(t) if t.as_str().is_none() => flag(
            out,
            &RESULT_TYPE_MISSING,
            join(at, "/resultType"),
            t.span,
            "\"resultType\" is a string: \"complete\" or \"input_required\"",
        ),
        _ => {}
    }
    if kind.and_then(Node::as_str) == Some("input_required") {
        input_required(result, at, out);
        return;
    }
    // The caching fields, where present, have their types and values.
    if let Some(ttl) = result.get("ttlMs") {
        if !(has_type(ttl, INTEGER) && ttl.as_f64().is_some_and(|f| f >= 0.0)) {
            flag(
                out,
                &CACHE_FIELDS,
                join(at, "/ttlMs"),
                ttl.span,
                "\"ttlMs\" is an integer of milliseconds, 0 or more",
            );
        }
    }
    if let Some(scope) = result.get("cacheScope") {
        if !matches!(scope.as_str(), Some("public" | "private")) {
            flag(
                out,
                &CACHE_FIELDS,
                join(at, "/cacheScope"),
                scope.span,
                "\"cacheScope\" is \"public\" or \"private\"",
            );
        }
    }
}

fn input_required(result: &Node<'_>, at: &str, out: &mut Out) {
    let requests = result.get("inputRequests");
    let state = result.get("requestState");
    if requests.is_none() && state.is_none() {
        flag(
            out,
            &INPUT_REQUIRED_SHAPE,
            at.to_string(),
            result.span,
            "an input_required result needs \"inputRequests\", \"requestState\" or both",
        );
    }
    if let Some(s) = state.filter(|s| s.as_str().is_none()) {
        flag(
            out,
            &INPUT_REQUIRED_SHAPE,
            join(at, "/requestState"),
            s.span,
            "\"requestState\" is a string",
        );
    }
    match requests {
        Some(r) if !r.is_object() => flag(
            out,
            &INPUT_REQUIRED_SHAPE,
            join(at, "/inputRequests"),
            r.span,
            "\"inputRequests\" is an object: key to input request",
        ),
        Some(r) => {
            for m in r.members() {
                input_request(&m.value, &child(at, "/inputRequests", &m.key), out);
            }
        }
        None => {}
    }
}

/// `obj[key]` has one of `types`; flags `rule` when it is absent or of another type.
fn need(obj: &Node<'_>, key: &str, types: Types, at: &str, rule: &'static Rule, out: &mut Out) {
    let (path, span) = match obj.get(key) {
        None => (at.to_string(), obj.span),
        Some(v) if !has_type(v, types) => (child(at, "", key), v.span),
        Some(_) => return,
    };
    let message = format!("\"{key}\" must be {}", methods::types_name(types));
    flag(out, rule, path, span, message);
}

/// [`need`] for each of `wants`.
fn needs(obj: &Node<'_>, wants: &[(&str, Types)], at: &str, rule: &'static Rule, out: &mut Out) {
    for (key, types) in wants {
        need(obj, key, *types, at, rule, out);
    }
}

fn input_request(entry: &Node<'_>, at: &str, out: &mut Out) {
    let rule = &INPUT_REQUEST_INVALID;
    let Some(kind) = input_method(entry) else {
        let (path, span) = match entry.get("method") {
            Some(m) => (join(at, "/method"), m.span),
            None => (at.to_string(), entry.span),
        };
        flag(out, rule, path, span,
            "an input request is {\"method\", \"params\"} of sampling/createMessage, elicitation/create or roots/list");
        return;
    };
    let params_at = join(at, "/params");
    let at = &params_at;
    match entry.get("params") {
        None if kind == ROOTS => {}
        None => flag(
            out,
            rule,
            at.to_string(),
            entry.span,
            "this input request needs \"params\"",
        ),
        Some(p) if p.is_object() => {
            let url = p.get("mode").and_then(Node::as_str) == Some("url");
            let wants: &[(&str, Types)] = match kind {
                SAMPLING => &[("messages", ARRAY), ("maxTokens", INTEGER)],
                ELICITATION if url => &[("message", STRING), ("url", STRING)],
                ELICITATION => &[("message", STRING), ("requestedSchema", OBJECT)],
                _ => &[],
            };
            needs(p, wants, at, rule, out);
        }
        Some(p) => flag(
            out,
            rule,
            params_at.clone(),
            p.span,
            "this input request's \"params\" must be an object",
        ),
    }
}

/// An answer to an input request of kind `kind` is that request's result.
fn input_response(kind: usize, answer: &Node<'_>, at: &str, out: &mut Out) {
    let rule = &INPUT_RESPONSE_INVALID;
    if !answer.is_object() {
        return; // said on its own by `request`
    }
    match kind {
        ELICITATION => {
            if !matches!(
                answer.get("action").and_then(Node::as_str),
                Some("accept" | "decline" | "cancel")
            ) {
                let (path, span) = answer
                    .get("action")
                    .map_or((at.to_string(), answer.span), |a| {
                        (join(at, "/action"), a.span)
                    });
                flag(
                    out,
                    rule,
                    path,
                    span,
                    "an elicitation's answer has \"action\": \"accept\", \"decline\" or \"cancel\"",
                );
            }
        }
        SAMPLING => needs(
            answer,
            &[
                ("role", STRING),
                ("content", OBJECT | ARRAY),
                ("model", STRING),
            ],
            at,
            rule,
            out,
        ),
        ROOTS => needs(answer, &[("roots", ARRAY)], at, rule, out),
        _ => {}
    }
}

/// The 2026-07-28 error codes with required data.
fn error_data(error: &Node<'_>, at: &str, out: &mut Out) {
    let Some(code) = error.get("code") else {
        return;
    };
    let data_at = join(at, "/data");
    let wants: &[(&str, Types)] = match code.as_i64() {
        Some(-32021) => &[("requiredCapabilities", OBJECT)],
        Some(-32022) => &[("requested", STRING), ("supported", ARRAY)],
        _ => return,
    };
    match error.get("data") {
        Some(data) if data.is_object() => needs(data, wants, &data_at, &ERROR_DATA, out),
        other => {
            let path = if other.is_some() {
                data_at
            } else {
                at.to_string()
            };
            flag(
                out,
                &ERROR_DATA,
                path,
                other.map_or(error.span, |d| d.span),
                "this error code needs its \"data\" object",
            );
        }
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

/// What an input-required result asked of one call.
#[derive(Debug)]
struct Round {
    call: Call,
    /// Each input request's key and kind (an index of [`INPUT_METHODS`], or past it: unknown).
    asked: Vec<(String, usize)>,
    /// The requestState to echo, when the server gave one.
    state: Option<String>,
}

/// Something remembered, and the bytes of text it holds.
trait Held {
    fn bytes(&self) -> usize;
}

impl Held for (String, Call) {
    fn bytes(&self) -> usize {
        self.0.len() + self.1.method.len() + self.1.target.len()
    }
}

impl Held for Round {
    fn bytes(&self) -> usize {
        let asked: usize = self.asked.iter().map(|(k, _)| k.len()).sum();
        let call = self.call.method.len() + self.call.target.len();
        call + asked + self.state.as_ref().map_or(0, String::len)
    }
}

/// Appends `item`, first forgetting the oldest while more than `max` items or
/// [`MAX_REMEMBERED_BYTES`] would be held; an item larger than that on its own is not kept.
fn remember<T: Held>(list: &mut Vec<T>, item: T, max: usize) {
    let size = item.bytes();
    if size > MAX_REMEMBERED_BYTES {
        return;
    }
    let mut held: usize = list.iter().map(Held::bytes).sum();
    while !list.is_empty() && (list.len() >= max || held + size > MAX_REMEMBERED_BYTES) {
        held -= list.remove(0).bytes();
    }
    list.push(item);
}

/// A 2026-07-28 conversation as it goes: the client's requests awaiting answers and the
/// input-required rounds awaiting their retries. Feed it every message in order with
/// [`Rounds::observe`]. Memory is bounded: at most [`MAX_PENDING`] requests and [`MAX_OPEN`]
/// rounds, each list at most [`MAX_REMEMBERED_BYTES`] of text (the oldest are forgotten first).
#[derive(Debug, Default)]
pub struct Rounds {
    pending: Vec<(String, Call)>,
    open: Vec<Round>,
}

/// An id as a key: strings by value, numbers by their text.
fn id_key(node: &Node<'_>) -> Option<String> {
    match &node.get("id")?.value {
        Value::String(s) => Some(join("s:", s)),
        Value::Number(n) => Some(join("n:", n)),
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
                let params = node.get("params");
                let target = ["name", "uri"]
                    .iter()
                    .find_map(|k| params.and_then(|p| p.get(k)).and_then(Node::as_str));
                let call = Call {
                    method: method.to_string(),
                    target: target.unwrap_or_default().to_string(),
                };
                // A retry is the same call carrying `inputResponses` or `requestState` (the fields
                // that exist only for it); the same call with neither is a fresh one (the client
                // gave the round up), which closes the round unchecked.
                if let Some(i) = self.open.iter().position(|r| r.call == call) {
                    let round = self.open.remove(i);
                    if is_retry(params) {
                        retry(&round, node, base, &mut out);
                    }
                }
                // Ids are kept unique: a reused one replaces the request it named.
                if let Some(i) = self.pending.iter().position(|(k, _)| *k == id) {
                    self.pending.remove(i);
                }
                remember(&mut self.pending, (id, call), MAX_PENDING);
            }
            (Direction::Server, None) => {
                let earlier = self.pending.iter().position(|(k, _)| *k == id);
                let earlier = earlier.map(|i| self.pending.remove(i).1);
                let (Some(call), Some(result)) =
                    (earlier, node.get("result").filter(|r| r.is_object()))
                else {
                    return out;
                };
                if result.get("resultType").and_then(Node::as_str) != Some("input_required") {
                    cache_present(&call.method, result, &join(base, "/result"), &mut out);
                    return out;
                }
                let asked = result.get("inputRequests").map_or(&[][..], Node::members);
                let asked = asked
                    .iter()
                    .map(|m| (m.key.to_string(), input_method(&m.value).unwrap_or(3)))
                    .collect();
                let state = result.get("requestState").and_then(Node::as_str);
                if let Some(i) = self.open.iter().position(|r| r.call == call) {
                    self.open.remove(i);
                }
                let state = state.map(str::to_string);
                remember(&mut self.open, Round { call, asked, state }, MAX_OPEN);
            }
            _ => {}
        }
        out
    }

    /// Bytes of text remembered now (requests and rounds).
    pub fn remembered_bytes(&self) -> usize {
        let pending: usize = self.pending.iter().map(Held::bytes).sum();
        pending + self.open.iter().map(Held::bytes).sum::<usize>()
    }
}

/// The required caching fields of the result of `method` are present.
fn cache_present(method: &str, result: &Node<'_>, at: &str, out: &mut Out) {
    let Some(row) = methods::lookup(method, McpVersion::V2026_07_28) else {
        return;
    };
    let cacheable = row.result.iter().any(|p| p.path == "ttlMs" && p.required);
    if cacheable && (result.get("ttlMs").is_none() || result.get("cacheScope").is_none()) {
        flag(
            out,
            &CACHE_FIELDS,
            at.to_string(),
            result.span,
            "this result is cacheable: it needs \"ttlMs\" and \"cacheScope\"",
        );
    }
}

/// The request's params carry what only a retry carries: `inputResponses` or `requestState`.
fn is_retry(params: Option<&Node<'_>>) -> bool {
    params.is_some_and(|p| p.get("inputResponses").is_some() || p.get("requestState").is_some())
}

/// Checks a retry of `round`'s call: every key answered, none unasked, the state echoed.
fn retry(round: &Round, node: &Node<'_>, base: &str, out: &mut Out) {
    let params = node.get("params");
    let params_at = join(base, "/params");
    let params_span = params.map_or(node.span, |p| p.span);
    let responses = params.and_then(|p| p.get("inputResponses"));
    let missing = round
        .asked
        .iter()
        .find(|(k, _)| responses.and_then(|r| r.get(k)).is_none());
    if let Some((key, _)) = missing {
        let (path, span) = match responses {
            Some(r) => (join(&params_at, "/inputResponses"), r.span),
            None => (params_at.clone(), params_span),
        };
        let message = format!("this retry does not answer \"{key}\", which the server asked");
        flag(out, &RETRY_MISSING_RESPONSES, path, span, message);
    }
    for m in responses.map_or(&[][..], Node::members) {
        let at = child(&params_at, "/inputResponses", &m.key);
        match round.asked.iter().find(|(k, _)| *k == m.key) {
            Some((_, kind)) => input_response(*kind, &m.value, &at, out),
            None => flag(
                out,
                &INPUT_RESPONSE_UNREQUESTED,
                at,
                m.key_span,
                "the server never asked this key: its answer is ignored",
            ),
        }
    }
    let echoed = params.and_then(|p| p.get("requestState"));
    let (path, span) = echoed.map_or((params_at.clone(), params_span), |e| {
        (join(&params_at, "/requestState"), e.span)
    });
    let message = match (&round.state, echoed) {
        (Some(s), Some(e)) if e.as_str() == Some(s.as_str()) => return,
        (None, None) => return,
        (Some(_), Some(_)) => "the requestState differs from the server's: echo it unchanged",
        (Some(_), None) => "the retry leaves out the server's requestState: echo it unchanged",
        (None, Some(_)) => "the server gave no requestState, yet the retry sends one",
    };
    flag(out, &REQUEST_STATE_CHANGED, path, span, message);
}
