//! One document at a time: what it is, and every rule of JSON-RPC 2.0 §4–§6 it breaks.

use std::collections::hash_map::Entry;

use rustc_hash::FxHashMap;

use crate::json::{
    pointer_to, quote, write_string, Direction, Member, Node, ParseNote, Pointer, Segment, Value,
};

use super::errors::is_reserved_unassigned;
use super::rules::*;
use super::{mcp, Child, Document, Kind, Profile, Severity, Sink, Text, Under, Violation};

/// 2^53 − 1, the largest integer every double (and so every JavaScript peer) holds exactly.
#[cfg(test)]
const MAX_SAFE_INTEGER: u64 = 9_007_199_254_740_991;

/// `found` is a buffer for violations (empty before and after), shared by every message checked.
pub(super) fn segment(
    segment: &Segment<'_>,
    src: &[u8],
    profile: Profile,
    found: &mut Vec<Violation>,
) -> Document {
    let parsed = match &segment.parsed {
        Err(error) => {
            let mut doc = Document::new(Kind::ParseError, segment.span);
            let mut sink = Sink {
                out: &mut doc.violations,
            };
            sink.push(
                &JSON_SYNTAX,
                Pointer::root(),
                error.span,
                error.message.clone(),
            );
            return doc;
        }
        Ok(parsed) => parsed,
    };
    let root = &parsed.root;
    let mut doc = value(root, src, profile, segment.direction, found);
    for note in &parsed.notes {
        attach_note(&mut doc, root, note, profile);
    }
    settle(&mut doc);
    for item in &mut doc.items {
        settle(item);
    }
    doc
}

/// Violations in source order (stable: rules found at one place keep the order they were checked in).
fn settle(doc: &mut Document) {
    crate::order::sort_by_key(&mut doc.violations, |v| v.span.start as u64);
    kind_from_violations(doc);
}

/// An invalid message keeps what it was trying to be as its intent.
fn kind_from_violations(doc: &mut Document) {
    let broken = doc.violations.iter().any(|v| v.severity == Severity::Error);
    if broken
        && matches!(
            doc.kind,
            Kind::Request | Kind::Notification | Kind::Response
        )
    {
        doc.intent = Some(doc.kind);
        doc.kind = Kind::Invalid;
    }
}

/// Puts a parser note on the innermost document (the batch element, or the root) holding it.
fn attach_note(doc: &mut Document, root: &Node<'_>, note: &ParseNote, profile: Profile) {
    let (rule, span, message, related) = match note {
        ParseNote::DuplicateMember { key, first, second } => (
            &JSON_DUPLICATE_MEMBER,
            *second,
            format!("member \"{key}\" appears twice; peers disagree on which value counts (most keep the last)"),
            vec![(*first, format!("\"{key}\" first appears here"))],
        ),
        ParseNote::LoneSurrogate { span } => (
            &JSON_LONE_SURROGATE,
            *span,
            "this \\u escape is half of a surrogate pair with no other half; it names no character".to_string(),
            Vec::new(),
        ),
    };
    // Items are in source order: a binary search (a batch of 100,000 messages may hold as many notes).
    let at = doc
        .items
        .partition_point(|item| item.span.end <= span.start);
    let target = match doc
        .items
        .get(at)
        .is_some_and(|item| item.span.contains(span))
    {
        true => &mut doc.items[at],
        false => doc,
    };
    let mut sink = Sink {
        out: &mut target.violations,
    };
    sink.push_full(rule, pointer_to(root, span), span, message, related);
    // Inside MCP's schema-validated messages a repeated member is ambiguous input: make it an error.
    if matches!(profile, Profile::Mcp(_)) && matches!(note, ParseNote::DuplicateMember { .. }) {
        if let Some(v) = target.violations.last_mut() {
            v.severity = Severity::Error;
        }
    }
}

/// A whole document: a message, a batch, or something that is neither.
fn value(
    root: &Node<'_>,
    src: &[u8],
    profile: Profile,
    direction: Option<Direction>,
    found: &mut Vec<Violation>,
) -> Document {
    let path = Pointer::root();
    match &root.value {
        Value::Object(_) => {
            let mut doc = Document::new(Kind::Invalid, root.span);
            message(&mut doc, root, src, &path, profile, direction, found);
            doc
        }
        Value::Array(items) => batch(root, items, src, profile, direction, found),
        _ => {
            let mut doc = Document::new(Kind::Invalid, root.span);
            let mut sink = Sink {
                out: &mut doc.violations,
            };
            sink.push(
                &MESSAGE_NOT_OBJECT,
                &path,
                root.span,
                format!(
                    "a message is an object (or an array of them), found {}",
                    root.json_type().name()
                ),
            );
            doc
        }
    }
}

fn batch(
    root: &Node<'_>,
    items: &[Node<'_>],
    src: &[u8],
    profile: Profile,
    direction: Option<Direction>,
    found: &mut Vec<Violation>,
) -> Document {
    let path = Pointer::root();
    // `[]` is not a batch (§6: "an Array with at least one value"); §7 answers it with one Invalid Request.
    let kind = if items.is_empty() {
        Kind::Invalid
    } else {
        Kind::Batch
    };
    let mut doc = Document::new(kind, root.span);
    {
        let mut sink = Sink {
            out: &mut doc.violations,
        };
        if items.is_empty() {
            if direction == Some(Direction::Server) {
                sink.push(
                    &BATCH_REPLY_EMPTY,
                    &path,
                    root.span,
                    "a batch reply with nothing in it must not be sent at all, not as []",
                );
            } else {
                sink.push(&BATCH_EMPTY, &path, root.span, "an empty array is not a batch; a server answers it with one -32600 Invalid Request");
            }
        }
    }
    doc.items.reserve_exact(items.len());
    // One buffer for every element's pointer ("/0", "/1", ...), not one allocation each.
    let mut item_path = Pointer::root();
    for (i, item) in items.iter().enumerate() {
        item_path.set_index(&path, i);
        // Each element's document is filled in where it stays (a document is over 100 bytes:
        // returned and then pushed, it would be copied twice, by a call each in wasm).
        doc.items.push(Document::new(Kind::Invalid, item.span));
        let Some(element) = doc.items.last_mut() else {
            continue;
        };
        match &item.value {
            Value::Object(_) => message(element, item, src, &item_path, profile, direction, found),
            Value::Array(_) => Sink {
                out: &mut element.violations,
            }
            .push(
                &BATCH_NESTED,
                &item_path,
                item.span,
                "an array inside a batch is not a message (batches do not nest)",
            ),
            _ => Sink {
                out: &mut element.violations,
            }
            .push(
                &BATCH_ELEMENT_NOT_OBJECT,
                &item_path,
                item.span,
                format!(
                    "batch element {i} is {}, not a request or response object",
                    item.json_type().name()
                ),
            ),
        }
    }
    duplicate_request_ids(&mut doc.items, items);
    let intent = |d: &Document| d.intent.unwrap_or(d.kind);
    let calls = doc
        .items
        .iter()
        .filter(|d| matches!(intent(d), Kind::Request | Kind::Notification))
        .count();
    let replies = doc
        .items
        .iter()
        .filter(|d| intent(d) == Kind::Response)
        .count();
    let mut sink = Sink {
        out: &mut doc.violations,
    };
    if calls > 0 && replies > 0 {
        sink.push(
            &BATCH_MIXED,
            &path,
            root.span,
            format!(
                "this batch mixes {calls} request(s)/notification(s) with {replies} response(s)"
            ),
        );
    }
    if let Profile::Mcp(version) = profile {
        mcp::check_batch(root, direction, version, &mut sink);
    }
    doc
}

/// Members each kind of object may hold, and how a message lists them.
/// Member names an object may hold, and the same list as messages write it (no `join` per message).
struct Allowed {
    names: &'static [&'static str],
    /// `names` joined by ", ".
    list: &'static str,
}

const RESPONSE_MEMBERS: Allowed = Allowed {
    names: &["jsonrpc", "result", "error", "id"],
    list: "jsonrpc, result, error, id",
};
const ERROR_MEMBERS: Allowed = Allowed {
    names: &["code", "message", "data"],
    list: "code, message, data",
};
const MESSAGE_MEMBERS: Allowed = Allowed {
    names: &["jsonrpc", "method", "params", "id", "result", "error"],
    list: "jsonrpc, method, params, id, result, error",
};
/// A request's or notification's own members.
const CALL_MEMBERS: Allowed = Allowed {
    names: &["jsonrpc", "method", "params", "id"],
    list: "jsonrpc, method, params, id",
};

/// A short name (at most 7 bytes) as one number: its bytes and its length. A longer name gets
/// `u64::MAX`, which no short name has. Finding a member by name then compares integers, not
/// strings (the hot path of every message, and no call to `memcmp` per member).
#[inline(always)]
pub(crate) const fn name_code(name: &[u8]) -> u64 {
    if name.len() > 7 {
        return u64::MAX;
    }
    let mut code = (name.len() as u64) << 56;
    let mut i = 0;
    while i < name.len() {
        code |= (name[i] as u64) << (8 * i);
        i += 1;
    }
    code
}

const JSONRPC: u64 = name_code(b"jsonrpc");
const METHOD: u64 = name_code(b"method");
const PARAMS: u64 = name_code(b"params");
const ID: u64 = name_code(b"id");
const RESULT: u64 = name_code(b"result");
const ERROR_: u64 = name_code(b"error");
const CODE: u64 = name_code(b"code");
const MESSAGE: u64 = name_code(b"message");
const DATA: u64 = name_code(b"data");
const V2_0: u64 = name_code(b"2.0");

/// The members of a message object that JSON-RPC names, found in one pass: the last of each name
/// (as [`Node::member`] finds it), and whether any other member is there.
#[derive(Default)]
struct Members<'n, 'a> {
    jsonrpc: Option<&'n Member<'a>>,
    method: Option<&'n Member<'a>>,
    params: Option<&'n Member<'a>>,
    id: Option<&'n Member<'a>>,
    result: Option<&'n Member<'a>>,
    error: Option<&'n Member<'a>>,
    /// A member none of the six names.
    others: bool,
}

impl<'n, 'a> Members<'n, 'a> {
    fn of(node: &'n Node<'a>) -> Self {
        let mut k = Members::default();
        for m in node.members() {
            match name_code(m.key.as_bytes()) {
                JSONRPC => k.jsonrpc = Some(m),
                METHOD => k.method = Some(m),
                PARAMS => k.params = Some(m),
                ID => k.id = Some(m),
                RESULT => k.result = Some(m),
                ERROR_ => k.error = Some(m),
                _ => k.others = true,
            }
        }
        k
    }
}

/// The id's source text (a parsed value's text is UTF-8; the lossy copy is never expected).
fn source_text(src: &[u8], span: crate::json::Span) -> Text {
    let bytes = src.get(span.start..span.end).unwrap_or_default();
    match std::str::from_utf8(bytes) {
        Ok(text) => Text::copy(text),
        Err(_) => Text::from(String::from_utf8_lossy(bytes).into_owned()),
    }
}

/// One object: a request, a notification, a response, or invalid, described in `doc` (new: invalid,
/// with the object's span; filled in place). Its violations are collected in `found` (empty before and after: a buffer shared by the messages of a batch) and handed to the
/// document in one allocation of exactly their number.
fn message(
    doc: &mut Document,
    node: &Node<'_>,
    src: &[u8],
    path: &Pointer,
    profile: Profile,
    direction: Option<Direction>,
    found: &mut Vec<Violation>,
) {
    let k = Members::of(node);
    let (method, result, error, id) = (k.method, k.result, k.error, k.id);
    doc.id = id.map(|m| source_text(src, m.value.span));
    doc.method = method.and_then(|m| m.value.as_str()).map(Text::copy);
    let mut sink = Sink { out: found };

    version_member(node, &k, path, &mut sink);

    let kind = if let Some(method) = method {
        if let Some(extra) = result.or(error) {
            sink.push(
                &METHOD_WITH_RESULT,
                Child(path, &extra.key),
                extra.key_span,
                format!("\"method\" makes this a request, \"{}\" makes it a response; it cannot be both", extra.key),
            );
        }
        method_member(method, path, &mut sink);
        if let Some(params) = k.params {
            if !matches!(params.value.value, Value::Array(_) | Value::Object(_)) {
                sink.push(
                    &PARAMS_NOT_STRUCTURED,
                    Under(path, "/params"),
                    params.value.span,
                    format!(
                        "\"params\" must be an array (by position) or an object (by name), found {}{}",
                        params.value.json_type().name(),
                        if matches!(params.value.value, Value::Null) { "; leave it out when there are no parameters" } else { "" }
                    ),
                );
            }
        }
        if let Some(id) = id {
            id_member(&id.value, path, true, &mut sink);
        }
        // "result" / "error" beside "method" are reported above, not again as unknown; only a
        // member none of the six names can be unknown here.
        if k.others {
            unknown_members(
                node,
                path,
                if result.or(error).is_some() {
                    &MESSAGE_MEMBERS
                } else {
                    &CALL_MEMBERS
                },
                &mut sink,
            );
        }
        if id.is_some() {
            Kind::Request
        } else {
            Kind::Notification
        }
    } else if result.is_some() || error.is_some() {
        if let (Some(_), Some(e)) = (result, error) {
            let v1 = k.jsonrpc.is_none()
                && (result.is_some_and(|r| matches!(r.value.value, Value::Null))
                    || matches!(e.value.value, Value::Null));
            sink.push(
                &RESULT_AND_ERROR,
                Under(path, "/error"),
                e.key_span,
                if v1 {
                    "a response has \"result\" or \"error\", not both (this is JSON-RPC 1.0's shape, which sent the unused one as null)"
                } else {
                    "a response has \"result\" on success or \"error\" on failure, never both"
                },
            );
        }
        match id {
            None => sink.push(
                &RESPONSE_ID_MISSING,
                path,
                node.span,
                "a response must carry the id of its request (null only if that id could not be read)",
            ),
            Some(id) => {
                id_member(&id.value, path, false, &mut sink);
                if matches!(id.value.value, Value::Null) && result.is_some() && error.is_none() {
                    sink.push(
                        &RESPONSE_NULL_ID_WITH_RESULT,
                        Under(path, "/id"),
                        id.value.span,
                        "id null means the request could not be read, so this response must be an error, not a result (unless it answers a request whose own id was null)",
                    );
                }
            }
        }
        if let Some(e) = error {
            doc.error_code = error_object(&e.value, path, &mut sink);
        }
        // No "method" here: "params" or a member none of the six names is unknown.
        if k.others || k.params.is_some() {
            unknown_members(node, path, &RESPONSE_MEMBERS, &mut sink);
        }
        Kind::Response
    } else {
        // Constant either way (no text is built for it).
        let message = if k.params.is_some() || id.is_some() && node.members().len() > 2 {
            "this object has no \"method\", \"result\" or \"error\": it is neither a request nor a response (it has no \"method\", so no server can tell what to call)"
        } else {
            "this object has no \"method\", \"result\" or \"error\": it is neither a request nor a response"
        };
        sink.push(&KIND_UNKNOWN, path, node.span, message);
        if k.others {
            unknown_members(node, path, &MESSAGE_MEMBERS, &mut sink);
        }
        if let Some(id) = id {
            id_member(&id.value, path, false, &mut sink);
        }
        Kind::Invalid
    };
    doc.kind = kind;
    if let Profile::Mcp(version) = profile {
        mcp::check_message(node, path, kind, direction, version, &mut sink);
    }
    // Exactly as many as were found (no spare room, nothing to give back later); `found` keeps its
    // room for the next message, which `mem::take` would hand over with these.
    if !found.is_empty() {
        #[allow(clippy::drain_collect)]
        let exact = found.drain(..).collect();
        doc.violations = exact;
    }
}

/// True when `key`, without case and without '-', '_' and ' ', is `name` (lowercase ASCII).
fn loosely(key: &str, name: &[u8]) -> bool {
    let mut want = name.iter();
    for b in key.bytes() {
        if matches!(b, b'-' | b'_' | b' ') {
            continue;
        }
        if want.next() != Some(&b.to_ascii_lowercase()) {
            return false;
        }
    }
    want.next().is_none()
}

fn version_member(node: &Node<'_>, k: &Members<'_, '_>, path: &Pointer, sink: &mut Sink<'_>) {
    match k.jsonrpc {
        None => {
            // The name without case, '-', '_' and ' ' (compared without building it).
            let near = node
                .members()
                .iter()
                .find(|m| loosely(&m.key, b"jsonrpc") || loosely(&m.key, b"version"));
            let is_v1 = k.method.is_some() && k.params.is_some() && k.id.is_some()
                || k.result.is_some() && k.error.is_some();
            let message: Text = match near {
                Some(m) => format!("the member \"jsonrpc\" is missing; found \"{}\", which is not the member's name: write \"jsonrpc\": \"2.0\"", m.key).into(),
                None if is_v1 => "the member \"jsonrpc\": \"2.0\" is missing (without it this looks like JSON-RPC 1.0)".into(),
                None => "the member \"jsonrpc\": \"2.0\" is missing".into(),
            };
            let span = near.map_or(node.span, |m| m.key_span);
            sink.push(&JSONRPC_MISSING, path, span, message);
        }
        // The right version: nothing to say, nothing built.
        Some(m) if matches!(&m.value.value, Value::String(s) if name_code(s.as_bytes()) == V2_0) => {
        }
        Some(m) => {
            // Room for the longest fixed text and a short value: one allocation, no regrowth.
            let mut message = String::with_capacity(96 + m.value.span.len());
            message.push_str("\"jsonrpc\" must be exactly \"2.0\"; ");
            match &m.value.value {
                Value::String(s) if s == "2" || s == "2.00" || s.trim() == "2.0" => {
                    message.push_str("found ");
                    write_string(&mut message, s);
                    message.push_str(": the version is exactly \"2.0\"");
                }
                Value::String(s) => {
                    message.push_str("found ");
                    write_string(&mut message, s);
                }
                Value::Number(n) => {
                    message.push_str("found the number ");
                    message.push_str(n);
                    message.push_str(": write it as the string \"2.0\"");
                }
                other => {
                    message.push_str("found ");
                    message.push_str(other.json_type().name());
                }
            }
            sink.push(
                &JSONRPC_NOT_2_0,
                Under(path, "/jsonrpc"),
                m.value.span,
                message,
            );
        }
    }
}

fn method_member(method: &crate::json::Member<'_>, path: &Pointer, sink: &mut Sink<'_>) {
    match method.value.as_str() {
        None => sink.push(
            &METHOD_NOT_STRING,
            Under(path, "/method"),
            method.value.span,
            format!("\"method\" must be a string, found {}", method.value.json_type().name()),
        ),
        Some(name) if name.starts_with("rpc.") => sink.push(
            &METHOD_RPC_RESERVED,
            Under(path, "/method"),
            method.value.span,
            format!("\"{name}\": names starting with \"rpc.\" are reserved for rpc-internal methods and extensions (fine if this is one, such as OpenRPC's rpc.discover; otherwise rename it)"),
        ),
        Some(_) => {}
    }
}

/// Flags each request of a batch whose id an earlier request of the batch already has (ids compared
/// as JSON values: `"a"` and `"\u0061"` are the same id, `1` and `"1"` are not; numbers by their text,
/// as the exchange log pairs them). One hash-map lookup per request (FxHash: the ids are the
/// input's own text, and SipHash cost 7% of a 1 MB batch in wasm), not pairwise comparisons or a
/// sort: a batch may hold 100,000 requests.
#[inline(never)]
fn duplicate_request_ids(docs: &mut [Document], nodes: &[Node<'_>]) {
    // The first request of each id: (is a string, the id's text) → its index.
    let mut first_of: FxHashMap<(bool, &str), usize> = FxHashMap::default();
    let mut repeats: Vec<(usize, usize)> = Vec::new();
    for (i, (doc, node)) in docs.iter().zip(nodes).enumerate() {
        if doc.intent.unwrap_or(doc.kind) != Kind::Request {
            continue;
        }
        let key = match node.get("id").map(|id| &id.value) {
            Some(Value::String(s)) => (true, s.as_str()),
            Some(Value::Number(text)) => (false, *text),
            _ => continue,
        };
        if first_of.is_empty() {
            first_of.reserve(nodes.len() - i);
        }
        match first_of.entry(key) {
            Entry::Occupied(first) => repeats.push((*first.get(), i)),
            Entry::Vacant(slot) => {
                slot.insert(i);
            }
        }
    }
    for (first, later) in repeats {
        let (Some(first_id), Some(id)) = (nodes[first].get("id"), nodes[later].get("id")) else {
            continue;
        };
        let message = format!("request {later} of this batch has the id of request {first}; their responses cannot be told apart");
        let related = vec![(first_id.span, format!("request {first} has this id"))];
        Sink {
            out: &mut docs[later].violations,
        }
        .push_full(
            &BATCH_DUPLICATE_ID,
            Pointer::root().index(later).key("id").into_string(),
            id.span,
            message,
            related,
        );
    }
}

/// The id of a request (`in_request`) or of a response.
fn id_member(id: &Node<'_>, path: &Pointer, in_request: bool, sink: &mut Sink<'_>) {
    // The pointer is only built for a violation (most ids are fine).
    let at = || Under(path, "/id");
    match &id.value {
        Value::String(_) => {}
        Value::Null => {
            if in_request {
                sink.push(
                    &ID_NULL_IN_REQUEST,
                    at(),
                    id.span,
                    "id null in a request cannot be told apart from the server's \"could not read your id\"; use a number or a string (or no id, for a notification)",
                );
            }
        }
        Value::Number(text) => {
            // The rule and what follows "id <text>" in its message.
            let (rule, rest) = if text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
                if crate::json::is_integer(text) == Some(true) {
                    (&ID_FRACTIONAL, " is written with a fraction or exponent; peers may echo it back as a different text (write it as an integer)")
                } else {
                    (
                        &ID_FRACTIONAL,
                        " has a fractional part; peers may round it (use an integer or a string)",
                    )
                }
            } else if *text == "-0" {
                (&ID_NEGATIVE_ZERO, " is a negative zero: peers read it as 0 and answer with id 0 (use 0, or a string)")
            } else if beyond_safe_integer(text) {
                (&ID_BEYOND_SAFE_INTEGER, " is beyond 2^53 − 1: JavaScript peers round it and the reply may not pair (send it as a string)")
            } else {
                return;
            };
            sink.push(rule, at(), id.span, Text::concat(&["id ", text, rest]));
        }
        other => sink.push(
            &ID_WRONG_TYPE,
            at(),
            id.span,
            format!(
                "an id is a string, a number or null, found {}",
                other.json_type().name()
            ),
        ),
    }
}

/// Whether JSON integer text lies beyond ±(2^53 − 1), by its digits (JSON integers have no
/// leading zeros, so the longer text is the larger number).
fn beyond_safe_integer(text: &str) -> bool {
    const MAX: &str = "9007199254740991";
    let digits = text.strip_prefix('-').unwrap_or(text);
    digits.len() > MAX.len() || (digits.len() == MAX.len() && digits > MAX)
}

/// The value of a number written with a fraction or exponent (`-32700.0`, `-3.27e4`) when it is
/// an integer all the same and within ±2^53 (where `f64` holds every integer exactly).
fn integer_written_with_fraction<'a>(node: &Node<'a>) -> Option<(i64, &'a str)> {
    let Value::Number(text) = node.value else {
        return None;
    };
    if node.as_integer_text().is_some() || crate::json::is_integer(text) != Some(true) {
        return None;
    }
    let value = node.as_f64()?;
    (value.abs() <= 9_007_199_254_740_991.0).then_some((value as i64, text))
}

/// Checks `error`; returns its code when that is an integer (in value, however it is written).
fn error_object(error: &Node<'_>, parent: &Pointer, sink: &mut Sink<'_>) -> Option<i64> {
    // "/error", built only for a violation.
    let path = || Under(parent, "/error");
    if !error.is_object() {
        sink.push(
            &ERROR_NOT_OBJECT,
            path(),
            error.span,
            format!(
                "\"error\" must be an object with \"code\" and \"message\", found {}",
                error.json_type().name()
            ),
        );
        return None;
    }
    // "code", "message" (the last of each) and whether anything else is there, in one pass.
    let (mut code_node, mut message_node, mut others) = (None, None, false);
    for m in error.members() {
        match name_code(m.key.as_bytes()) {
            CODE => code_node = Some(&m.value),
            MESSAGE => message_node = Some(&m.value),
            DATA => {}
            _ => others = true,
        }
    }
    let code = match code_node {
        None => {
            sink.push(
                &ERROR_CODE_NOT_INTEGER,
                path(),
                error.span,
                "the error object has no \"code\" (an integer is required)",
            );
            None
        }
        Some(code) => match (code.as_i64(), integer_written_with_fraction(code)) {
            (Some(n), _) => Some(n),
            (None, Some((n, text))) => {
                sink.push(
                    &ERROR_CODE_WRITTEN_WITH_FRACTION,
                    Under(parent, "/error/code"),
                    code.span,
                    Text::concat(&["code ", text, " is an integer written with a fraction or exponent; peers that expect an integer may reject it (write it as plain digits)"]),
                );
                Some(n)
            }
            (None, None) => {
                let found = match &code.value {
                    Value::Number(text)
                        if code.as_integer_text().is_some()
                            || crate::json::is_integer(text) == Some(true) =>
                    {
                        format!("{text}, which is too large")
                    }
                    Value::Number(text) => format!("{text}, which is not an integer"),
                    Value::String(s) => format!("the string {} (drop the quotes)", quote(s)),
                    other => other.json_type().name().to_string(),
                };
                sink.push(
                    &ERROR_CODE_NOT_INTEGER,
                    Under(parent, "/error/code"),
                    code.span,
                    format!("\"code\" must be an integer, found {found}"),
                );
                None
            }
        },
    };
    match message_node {
        None => sink.push(&ERROR_MESSAGE_NOT_STRING, path(), error.span, "the error object has no \"message\" (a string is required)"),
        Some(message) => match message.as_str() {
            None => sink.push(
                &ERROR_MESSAGE_NOT_STRING,
                Under(parent, "/error/message"),
                message.span,
                format!("\"message\" must be a string, found {}", message.json_type().name()),
            ),
            Some(text) if text.contains('\n') || text.len() > 200 && text.chars().count() > 200 => sink.push(
                &ERROR_MESSAGE_CONCISE,
                Under(parent, "/error/message"),
                message.span,
                "keep \"message\" to one short sentence; put details (traces, lists) in \"data\"",
            ),
            Some(_) => {}
        },
    }
    if let Some(n) = code.filter(|&n| is_reserved_unassigned(n)) {
        let span = code_node.map_or(error.span, |c| c.span);
        sink.push(
            &ERROR_CODE_RESERVED,
            Under(parent, "/error/code"),
            span,
            format!("{n} lies in the reserved range -32768..-32000 but is not a predefined code; application errors take codes outside it (servers may use -32099..-32000)"),
        );
    }
    if others {
        unknown_members(error, &parent.key("error"), &ERROR_MEMBERS, sink);
    }
    code
}

/// Near misses for member names people type.
fn suggestion(key: &str, allowed: &[&str]) -> Option<&'static str> {
    const KNOWN: &[(&str, &str)] = &[
        ("parms", "params"),
        ("param", "params"),
        ("parameters", "params"),
        ("arguments", "params"),
        ("args", "params"),
        ("json-rpc", "jsonrpc"),
        ("json_rpc", "jsonrpc"),
        ("jsonrpc ", "jsonrpc"),
        ("version", "jsonrpc"),
        ("results", "result"),
        ("err", "error"),
        ("errors", "error"),
        ("methods", "method"),
        ("msg", "message"),
    ];
    KNOWN
        .iter()
        .find(|(k, _)| k.len() == key.len() && k.eq_ignore_ascii_case(key))
        .map(|(_, v)| *v)
        .or_else(|| {
            [
                "jsonrpc", "method", "params", "id", "result", "error", "code", "message", "data",
            ]
            .into_iter()
            .find(|name| name.len() == key.len() && name.eq_ignore_ascii_case(key))
        })
        .filter(|s| allowed.contains(s))
}

/// `path` is the object's pointer.
fn unknown_members(node: &Node<'_>, path: &Pointer, allowed: &Allowed, sink: &mut Sink<'_>) {
    for m in node.members() {
        if allowed.names.contains(&&*m.key) {
            continue;
        }
        let near = suggestion(&m.key, allowed.names);
        // A misspelt "jsonrpc" is already named by jsonrpc-missing.
        if near == Some("jsonrpc") && node.member("jsonrpc").is_none() {
            continue;
        }
        // Built in one exact allocation (no `format!`).
        let message = match near {
            Some(name) if node.member(name).is_none() => Text::concat(&[
                "unknown member \"",
                &m.key,
                "\": did you mean \"",
                name,
                "\"?",
            ]),
            _ => Text::concat(&[
                "unknown member \"",
                &m.key,
                "\" (allowed here: ",
                allowed.list,
                ")",
            ]),
        };
        sink.push(&MEMBER_UNKNOWN, Child(path, &m.key), m.key_span, message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse_document;
    use crate::rpc::{check, Profile};

    fn rules_of(src: &str) -> Vec<(&'static str, String)> {
        check(src.as_bytes(), Profile::JsonRpc)
            .violations()
            .map(|v| (v.rule.id, v.path.to_string()))
            .collect()
    }

    #[test]
    fn batch_ids_repeat_by_value_and_only_among_requests() {
        let src = r#"[{"jsonrpc": "2.0", "method": "a", "id": "a"}, {"jsonrpc": "2.0", "method": "b", "id": "\u0061"},
            {"jsonrpc": "2.0", "method": "c", "id": 1}, {"jsonrpc": "2.0", "method": "d", "id": "1"},
            {"jsonrpc": "2.0", "method": "e"}, {"jsonrpc": "2.0", "method": "f"}, {"jsonrpc": "2.0", "method": "g", "id": 1}]"#;
        assert_eq!(
            rules_of(src),
            [
                ("batch-duplicate-id", "/1/id".to_string()),
                ("batch-duplicate-id", "/6/id".to_string())
            ]
        );
        let report = check(src.as_bytes(), Profile::JsonRpc);
        let last = report.violations().last().unwrap();
        assert_eq!(&src[last.related[0].0.start..last.related[0].0.end], "1");
        assert_eq!(last.related[0].1, "request 2 has this id");
    }

    #[test]
    fn negative_zero_ids_are_flagged_but_not_zero() {
        assert_eq!(
            rules_of(r#"{"jsonrpc": "2.0", "method": "a", "id": -0}"#),
            [("id-negative-zero", "/id".to_string())]
        );
        assert!(rules_of(r#"{"jsonrpc": "2.0", "method": "a", "id": 0}"#).is_empty());
        assert_eq!(
            rules_of(r#"{"jsonrpc": "2.0", "result": 1, "id": -0}"#),
            [("id-negative-zero", "/id".to_string())]
        );
    }

    #[test]
    fn name_codes_tell_names_apart_by_every_byte_and_the_length() {
        let names: &[&[u8]] = &[
            b"jsonrpc", b"method", b"params", b"id", b"result", b"error", b"code", b"message",
            b"data", b"2.0",
        ];
        for (i, a) in names.iter().enumerate() {
            for (j, b) in names.iter().enumerate() {
                assert_eq!(name_code(a) == name_code(b), i == j, "{a:?} {b:?}");
            }
        }
        for other in [
            &b"i"[..],
            b"id\0",
            b"Id",
            b"ID",
            b"idd",
            b"",
            b"jsonrpc2",
            b"methods",
            b"mEthod",
            b"\0id",
            b"2.00",
            b"2,0",
        ] {
            assert!(
                names.iter().all(|n| name_code(n) != name_code(other)),
                "{other:?}"
            );
        }
        // Longer than 7 bytes: one code for all, matching no short name.
        assert_eq!(name_code(b"parameters"), u64::MAX);
        assert_eq!(name_code(b"jsonrpc "), u64::MAX);
    }

    #[test]
    fn member_scan_finds_the_last_of_each_name_and_notes_others() {
        let cases: &[(&str, &[&str], bool)] = &[
            (
                r#"{"jsonrpc": "2.0", "method": "a", "params": [], "id": 1}"#,
                &["jsonrpc", "method", "params", "id"],
                false,
            ),
            (r#"{"result": 1, "error": 2}"#, &["result", "error"], false),
            (r#"{"id": 1, "ID": 2}"#, &["id"], true),
            (r#"{"id\u0000": 1}"#, &[], true),
            (r#"{"method ": 1}"#, &[], true),
            (r#"{}"#, &[], false),
        ];
        for (src, present, others) in cases {
            let (parsed, _) = parse_document(src.as_bytes(), 0).unwrap();
            let k = Members::of(&parsed.root);
            let found = [
                ("jsonrpc", k.jsonrpc),
                ("method", k.method),
                ("params", k.params),
                ("id", k.id),
                ("result", k.result),
                ("error", k.error),
            ];
            for (name, m) in found {
                assert_eq!(m.is_some(), present.contains(&name), "{src}: {name}");
                if let Some(m) = m {
                    // The same member `Node::member` finds: the last of that name.
                    assert!(
                        std::ptr::eq(m, parsed.root.member(name).unwrap()),
                        "{src}: {name}"
                    );
                }
            }
            assert_eq!(k.others, *others, "{src}");
        }
        let (parsed, _) = parse_document(br#"{"id": 1, "id": "two"}"#, 0).unwrap();
        assert_eq!(
            Members::of(&parsed.root).id.unwrap().value.as_str(),
            Some("two")
        );
    }

    #[test]
    fn allowed_lists_are_their_names_joined() {
        for allowed in [
            &RESPONSE_MEMBERS,
            &ERROR_MEMBERS,
            &MESSAGE_MEMBERS,
            &CALL_MEMBERS,
        ] {
            assert_eq!(allowed.list, allowed.names.join(", "));
        }
        assert_eq!(CALL_MEMBERS.names, &MESSAGE_MEMBERS.names[..4]);
    }

    #[test]
    fn beyond_safe_integer_at_the_boundary() {
        for (text, beyond) in [
            ("0", false),
            ("-0", false),
            ("999999999999999", false),
            ("-999999999999999", false),
            ("1000000000000000", false),
            ("9007199254740991", false),
            ("-9007199254740991", false),
            ("9007199254740992", true),
            ("-9007199254740992", true),
            ("18446744073709551615", true),
            ("18446744073709551616", true),
            ("123456789012345678901234567890", true),
        ] {
            assert_eq!(beyond_safe_integer(text), beyond, "{text}");
        }
    }

    #[test]
    fn a_wrong_version_string_is_quoted_as_json() {
        // Messages quote what was typed as JSON does (not as Rust's Debug would: no \' or \u{..}).
        for (typed, shown) in [
            ("2.1", r#""2.1""#),
            ("it's", r#""it's""#),
            ("a\"b\\c", r#""a\"b\\c""#),
            ("tab\t", r#""tab\t""#),
            ("\u{7f}é", "\"\u{7f}é\""),
        ] {
            let src = format!(r#"{{"jsonrpc": {}, "method": "m", "id": 1}}"#, quote(typed));
            let report = crate::rpc::check(src.as_bytes(), Profile::JsonRpc);
            let v = report
                .violations()
                .find(|v| v.rule.id == JSONRPC_NOT_2_0.id)
                .expect("jsonrpc-not-2-0");
            assert_eq!(
                v.message,
                format!("\"jsonrpc\" must be exactly \"2.0\"; found {shown}"),
                "{typed:?}"
            );
        }
    }

    #[test]
    fn loosely_ignores_case_and_separators_only() {
        for (key, name, same) in [
            ("jsonrpc", "jsonrpc", true),
            ("JSON-RPC", "jsonrpc", true),
            ("json_rpc", "jsonrpc", true),
            ("json rpc ", "jsonrpc", true),
            ("Version", "version", true),
            ("jsonrp", "jsonrpc", false),
            ("jsonrpcc", "jsonrpc", false),
            ("json.rpc", "jsonrpc", false),
            ("", "jsonrpc", false),
        ] {
            assert_eq!(loosely(key, name.as_bytes()), same, "{key} ~ {name}");
        }
    }

    #[test]
    fn unknown_members_are_reported_only_where_a_name_is_not_allowed() {
        let cases: &[(&str, &[(&str, &str)])] = &[
            (
                r#"{"jsonrpc": "2.0", "method": "a", "params": [], "id": 1}"#,
                &[],
            ),
            (
                r#"{"jsonrpc": "2.0", "method": "a", "parms": [], "id": 1}"#,
                &[("member-unknown", "/parms")],
            ),
            (
                r#"{"jsonrpc": "2.0", "result": 1, "params": [], "id": 1}"#,
                &[("member-unknown", "/params")],
            ),
            (r#"{"jsonrpc": "2.0", "result": 1, "id": 1}"#, &[]),
            (
                r#"{"jsonrpc": "2.0", "error": {"code": 1, "message": "m", "data": 2, "extra": 3}, "id": 1}"#,
                &[("member-unknown", "/error/extra")],
            ),
            (
                r#"{"jsonrpc": "2.0", "error": {"code": 1, "message": "m", "data": 2}, "id": 1}"#,
                &[],
            ),
        ];
        for (src, want) in cases {
            let got = rules_of(src);
            let want: Vec<_> = want.iter().map(|(r, p)| (*r, p.to_string())).collect();
            assert_eq!(got, want, "{src}");
        }
    }

    #[test]
    fn error_messages_are_long_by_characters_not_bytes() {
        for (chars, concise) in [(200, true), (201, false)] {
            let text = "é".repeat(chars);
            let src = format!(
                r#"{{"jsonrpc": "2.0", "error": {{"code": 1, "message": "{text}"}}, "id": 1}}"#
            );
            let flagged = rules_of(&src)
                .iter()
                .any(|(r, _)| *r == "error-message-concise");
            assert_eq!(!flagged, concise, "{chars} characters");
        }
    }

    /// The rules an error object with this `code` text breaks, and their severities.
    fn code_verdict(code: &str) -> Vec<(&'static str, Severity)> {
        let src = format!(
            r#"{{"jsonrpc": "2.0", "error": {{"code": {code}, "message": "Parse error"}}, "id": null}}"#
        );
        check(src.as_bytes(), Profile::JsonRpc)
            .violations()
            .map(|v| (v.rule.id, v.severity))
            .collect()
    }

    #[test]
    fn an_integer_code_written_with_a_fraction_or_exponent_is_a_spelling_warning() {
        for code in ["-32700.0", "-32700.000", "-3.27e4", "-327E2", "1.0", "-0.0"] {
            assert_eq!(
                code_verdict(code),
                [("error-code-written-with-fraction", Severity::Warning)],
                "{code}"
            );
        }
    }

    #[test]
    fn a_code_with_a_fractional_part_is_still_not_an_integer() {
        for code in [
            "-32700.5",
            "1.0000000000000000001",
            "-3.27e-4",
            "\"-32700\"",
            "true",
        ] {
            assert_eq!(
                code_verdict(code),
                [("error-code-not-integer", Severity::Error)],
                "{code}"
            );
        }
        // An integer too large for the code to be read exactly is not taken for a spelling nit.
        assert_eq!(
            code_verdict("1e300"),
            [("error-code-not-integer", Severity::Error)]
        );
    }

    #[test]
    fn a_code_written_with_a_fraction_counts_by_its_value() {
        // -32500.0 is -32500: reserved and unassigned, like -32500 itself.
        assert_eq!(
            code_verdict("-32500.0"),
            [
                ("error-code-written-with-fraction", Severity::Warning),
                ("error-code-reserved", Severity::Warning)
            ]
        );
    }

    #[test]
    fn rpc_methods_are_a_warning_naming_the_reservation() {
        let report = check(
            br#"{"jsonrpc": "2.0", "method": "rpc.discover", "id": 1}"#,
            Profile::JsonRpc,
        );
        let found: Vec<_> = report
            .violations()
            .map(|v| (v.rule.id, v.severity, v.message.to_string()))
            .collect();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].0, found[0].1),
            ("method-rpc-reserved", Severity::Warning)
        );
        assert!(
            found[0]
                .2
                .contains("reserved for rpc-internal methods and extensions")
                && found[0].2.contains("rpc.discover"),
            "{}",
            found[0].2
        );
        assert!(!report.has_errors());
    }

    #[test]
    fn violations_come_in_source_order_whatever_order_the_rules_ran_in() {
        // jsonrpc-not-2-0 is checked first but sits after the id's violation in the text.
        let doc = &check(
            br#"{"id": 1.5, "method": "a", "jsonrpc": "1.0"}"#,
            Profile::JsonRpc,
        )
        .documents[0];
        let starts: Vec<_> = doc.violations.iter().map(|v| v.span.start).collect();
        assert_eq!(doc.violations.len(), 2);
        assert!(starts.windows(2).all(|w| w[0] <= w[1]), "{starts:?}");
        assert_eq!(doc.violations[0].rule.id, "id-fractional");
        // Each document's violations take no more room than they need.
        assert_eq!(doc.violations.capacity(), doc.violations.len());
    }
}

#[cfg(test)]
mod safe_integer {
    use super::*;

    #[test]
    fn safe_integers_end_at_two_to_the_53_minus_one() {
        for text in [
            "0",
            "1",
            "-1",
            "9007199254740991",
            "-9007199254740991",
            "999999999999999",
            "1000000000000000",
        ] {
            assert!(!beyond_safe_integer(text), "{text}");
        }
        for text in [
            "9007199254740992",
            "-9007199254740992",
            "9999999999999999",
            "10000000000000000",
            "18446744073709551616",
        ] {
            assert!(beyond_safe_integer(text), "{text}");
        }
        // The same answer as reading the digits as a number.
        for n in [
            MAX_SAFE_INTEGER - 1,
            MAX_SAFE_INTEGER,
            MAX_SAFE_INTEGER + 1,
            u64::MAX,
        ] {
            assert_eq!(
                beyond_safe_integer(&n.to_string()),
                n > MAX_SAFE_INTEGER,
                "{n}"
            );
        }
    }
}
