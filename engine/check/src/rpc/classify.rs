//! One document at a time: what it is, and every rule of JSON-RPC 2.0 §4–§6 it breaks.

use crate::json::{pointer_to, Direction, Node, ParseNote, Pointer, Segment, Value};

use super::errors::is_reserved_unassigned;
use super::rules::*;
use super::{mcp, Document, Kind, Profile, Severity, Sink};

/// 2^53 − 1, the largest integer every double (and so every JavaScript peer) holds exactly.
#[cfg(test)]
const MAX_SAFE_INTEGER: u64 = 9_007_199_254_740_991;

pub(super) fn segment(segment: &Segment<'_>, src: &[u8], profile: Profile) -> Document {
    let parsed = match &segment.parsed {
        Err(error) => {
            let mut doc = Document::new(Kind::ParseError, segment.span);
            let mut sink = Sink { out: &mut doc.violations };
            sink.push(&JSON_SYNTAX, Pointer::root(), error.span, error.message.clone());
            return doc;
        }
        Ok(parsed) => parsed,
    };
    let root = &parsed.root;
    let mut doc = value(root, src, profile, segment.direction);
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
    if broken && matches!(doc.kind, Kind::Request | Kind::Notification | Kind::Response) {
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
    let target = match doc.items.iter_mut().find(|item| item.span.contains(span)) {
        Some(item) => item,
        None => doc,
    };
    let mut sink = Sink { out: &mut target.violations };
    sink.push_full(rule, pointer_to(root, span), span, message, related);
    // Inside MCP's schema-validated messages a repeated member is ambiguous input: make it an error.
    if matches!(profile, Profile::Mcp(_)) && matches!(note, ParseNote::DuplicateMember { .. }) {
        if let Some(v) = target.violations.last_mut() {
            v.severity = Severity::Error;
        }
    }
}

/// A whole document: a message, a batch, or something that is neither.
fn value(root: &Node<'_>, src: &[u8], profile: Profile, direction: Option<Direction>) -> Document {
    let path = Pointer::root();
    match &root.value {
        Value::Object(_) => message(root, src, &path, profile, direction),
        Value::Array(items) => batch(root, items, src, profile, direction),
        _ => {
            let mut doc = Document::new(Kind::Invalid, root.span);
            let mut sink = Sink { out: &mut doc.violations };
            sink.push(
                &MESSAGE_NOT_OBJECT,
                &path,
                root.span,
                format!("a message is an object (or an array of them), found {}", root.json_type().name()),
            );
            doc
        }
    }
}

fn batch(root: &Node<'_>, items: &[Node<'_>], src: &[u8], profile: Profile, direction: Option<Direction>) -> Document {
    let path = Pointer::root();
    let mut doc = Document::new(Kind::Batch, root.span);
    {
        let mut sink = Sink { out: &mut doc.violations };
        if items.is_empty() {
            if direction == Some(Direction::Server) {
                sink.push(&BATCH_REPLY_EMPTY, &path, root.span, "a batch reply with nothing in it must not be sent at all, not as []");
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
        let element = match &item.value {
            Value::Object(_) => message(item, src, &item_path, profile, direction),
            Value::Array(_) => {
                let mut d = Document::new(Kind::Invalid, item.span);
                Sink { out: &mut d.violations }.push(
                    &BATCH_NESTED,
                    &item_path,
                    item.span,
                    "an array inside a batch is not a message (batches do not nest)",
                );
                d
            }
            _ => {
                let mut d = Document::new(Kind::Invalid, item.span);
                Sink { out: &mut d.violations }.push(
                    &BATCH_ELEMENT_NOT_OBJECT,
                    &item_path,
                    item.span,
                    format!("batch element {i} is {}, not a request or response object", item.json_type().name()),
                );
                d
            }
        };
        doc.items.push(element);
    }
    let intent = |d: &Document| d.intent.unwrap_or(d.kind);
    let calls = doc.items.iter().filter(|d| matches!(intent(d), Kind::Request | Kind::Notification)).count();
    let replies = doc.items.iter().filter(|d| intent(d) == Kind::Response).count();
    let mut sink = Sink { out: &mut doc.violations };
    if calls > 0 && replies > 0 {
        sink.push(
            &BATCH_MIXED,
            &path,
            root.span,
            format!("this batch mixes {calls} request(s)/notification(s) with {replies} response(s)"),
        );
    }
    if let Profile::Mcp(version) = profile {
        mcp::check_batch(root, direction, version, &mut sink);
    }
    doc
}

/// Members each kind of object may hold.
const RESPONSE_MEMBERS: &[&str] = &["jsonrpc", "result", "error", "id"];
const ERROR_MEMBERS: &[&str] = &["code", "message", "data"];

/// One object: a request, a notification, a response, or invalid.
fn message(node: &Node<'_>, src: &[u8], path: &Pointer, profile: Profile, direction: Option<Direction>) -> Document {
    let mut doc = Document::new(Kind::Invalid, node.span);
    let method = node.member("method");
    let result = node.member("result");
    let error = node.member("error");
    let id = node.member("id");
    doc.id = id.map(|m| String::from_utf8_lossy(&src[m.value.span.start..m.value.span.end]).into_owned());
    doc.method = method.and_then(|m| m.value.as_str()).map(str::to_string);
    let mut sink = Sink { out: &mut doc.violations };

    version_member(node, path, &mut sink);

    let kind = if let Some(method) = method {
        if let Some(extra) = result.or(error) {
            sink.push(
                &METHOD_WITH_RESULT,
                path.key(&extra.key),
                extra.key_span,
                format!("\"method\" makes this a request, \"{}\" makes it a response; it cannot be both", extra.key),
            );
        }
        method_member(method, path, &mut sink);
        if let Some(params) = node.member("params") {
            if !matches!(params.value.value, Value::Array(_) | Value::Object(_)) {
                sink.push(
                    &PARAMS_NOT_STRUCTURED,
                    path.key("params"),
                    params.value.span,
                    format!(
                        "\"params\" must be an array (by position) or an object (by name), found {}{}",
                        params.value.json_type().name(),
                        if params.value.value == Value::Null { "; leave it out when there are no parameters" } else { "" }
                    ),
                );
            }
        }
        if let Some(id) = id {
            id_member(&id.value, path, true, &mut sink);
        }
        // "result" / "error" beside "method" are reported above, not again as unknown.
        unknown_members(node, &|| path.clone(), &["jsonrpc", "method", "params", "id", "result", "error"][..if result.or(error).is_some() { 6 } else { 4 }], &mut sink);
        if id.is_some() {
            Kind::Request
        } else {
            Kind::Notification
        }
    } else if result.is_some() || error.is_some() {
        if let (Some(_), Some(e)) = (result, error) {
            let v1 = node.member("jsonrpc").is_none()
                && (result.is_some_and(|r| r.value.value == Value::Null) || e.value.value == Value::Null);
            sink.push(
                &RESULT_AND_ERROR,
                path.key("error"),
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
                if id.value.value == Value::Null && result.is_some() && error.is_none() {
                    sink.push(
                        &RESPONSE_NULL_ID_WITH_RESULT,
                        path.key("id"),
                        id.value.span,
                        "id null means the request could not be read, so this response must be an error, not a result",
                    );
                }
            }
        }
        if let Some(e) = error {
            doc.error_code = error_object(&e.value, path, &mut sink);
        }
        unknown_members(node, &|| path.clone(), RESPONSE_MEMBERS, &mut sink);
        Kind::Response
    } else {
        let hint = if node.member("params").is_some() || id.is_some() && node.members().len() > 2 {
            " (it has no \"method\", so no server can tell what to call)"
        } else {
            ""
        };
        sink.push(
            &KIND_UNKNOWN,
            path,
            node.span,
            format!("this object has no \"method\", \"result\" or \"error\": it is neither a request nor a response{hint}"),
        );
        unknown_members(node, &|| path.clone(), &["jsonrpc", "method", "params", "id", "result", "error"], &mut sink);
        if let Some(id) = id {
            id_member(&id.value, path, false, &mut sink);
        }
        Kind::Invalid
    };
    doc.kind = kind;
    if let Profile::Mcp(version) = profile {
        mcp::check_message(node, path, kind, direction, version, &mut sink);
    }
    doc
}

fn version_member(node: &Node<'_>, path: &Pointer, sink: &mut Sink<'_>) {
    match node.member("jsonrpc") {
        None => {
            // The name without case, '-', '_' and ' ' (compared without building it).
            let loosely = |key: &str, name: &str| {
                key.bytes().filter(|b| !matches!(b, b'-' | b'_' | b' ')).map(|b| b.to_ascii_lowercase()).eq(name.bytes())
            };
            let near = node.members().iter().find(|m| loosely(&m.key, "jsonrpc") || loosely(&m.key, "version"));
            let is_v1 = node.member("method").is_some() && node.member("params").is_some() && node.member("id").is_some()
                || node.member("result").is_some() && node.member("error").is_some();
            let message = match near {
                Some(m) => format!("the member \"jsonrpc\" is missing; found \"{}\", which is not the member's name: write \"jsonrpc\": \"2.0\"", m.key),
                None if is_v1 => "the member \"jsonrpc\": \"2.0\" is missing (without it this looks like JSON-RPC 1.0)".to_string(),
                None => "the member \"jsonrpc\": \"2.0\" is missing".to_string(),
            };
            let span = near.map_or(node.span, |m| m.key_span);
            sink.push(&JSONRPC_MISSING, path, span, message);
        }
        Some(m) => {
            let found = match &m.value.value {
                Value::String(s) if s == "2.0" => return,
                Value::String(s) if s == "2" || s == "2.00" || s.trim() == "2.0" => {
                    format!("found \"{}\": the version is exactly \"2.0\"", s.escape_debug())
                }
                Value::String(s) => format!("found \"{}\"", s.escape_debug()),
                Value::Number(n) => format!("found the number {n}: write it as the string \"2.0\""),
                other => format!("found {}", other.json_type().name()),
            };
            sink.push(
                &JSONRPC_NOT_2_0,
                path.key("jsonrpc"),
                m.value.span,
                format!("\"jsonrpc\" must be exactly \"2.0\"; {found}"),
            );
        }
    }
}

fn method_member(method: &crate::json::Member<'_>, path: &Pointer, sink: &mut Sink<'_>) {
    match method.value.as_str() {
        None => sink.push(
            &METHOD_NOT_STRING,
            path.key("method"),
            method.value.span,
            format!("\"method\" must be a string, found {}", method.value.json_type().name()),
        ),
        Some(name) if name.starts_with("rpc.") => sink.push(
            &METHOD_RPC_RESERVED,
            path.key("method"),
            method.value.span,
            format!("\"{name}\": names starting with \"rpc.\" are reserved for rpc-internal methods and extensions"),
        ),
        Some(_) => {}
    }
}

/// The id of a request (`in_request`) or of a response.
fn id_member(id: &Node<'_>, path: &Pointer, in_request: bool, sink: &mut Sink<'_>) {
    // The pointer is only built for a violation (most ids are fine).
    let at = || path.key("id");
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
            if text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
                let integral = crate::json::is_integer(text) == Some(true);
                let message = if integral {
                    format!("id {text} is written with a fraction or exponent; peers may echo it back as a different text (write it as an integer)")
                } else {
                    format!("id {text} has a fractional part; peers may round it (use an integer or a string)")
                };
                sink.push(&ID_FRACTIONAL, at(), id.span, message);
            } else if beyond_safe_integer(text) {
                sink.push(
                    &ID_BEYOND_SAFE_INTEGER,
                    at(),
                    id.span,
                    format!("id {text} is beyond 2^53 − 1: JavaScript peers round it and the reply may not pair (send it as a string)"),
                );
            }
        }
        other => sink.push(
            &ID_WRONG_TYPE,
            at(),
            id.span,
            format!("an id is a string, a number or null, found {}", other.json_type().name()),
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

/// Checks `error`; returns its code when that is an integer.
fn error_object(error: &Node<'_>, parent: &Pointer, sink: &mut Sink<'_>) -> Option<i64> {
    // "/error", built only for a violation.
    let path = || parent.key("error");
    if !error.is_object() {
        sink.push(
            &ERROR_NOT_OBJECT,
            path(),
            error.span,
            format!("\"error\" must be an object with \"code\" and \"message\", found {}", error.json_type().name()),
        );
        return None;
    }
    let code = match error.get("code") {
        None => {
            sink.push(&ERROR_CODE_NOT_INTEGER, path(), error.span, "the error object has no \"code\" (an integer is required)");
            None
        }
        Some(code) => match code.as_i64() {
            Some(n) => Some(n),
            None => {
                let found = match &code.value {
                    Value::Number(text) if code.as_integer_text().is_some() => format!("{text}, which is too large"),
                    Value::Number(text) => format!("{text}, which is not an integer"),
                    Value::String(s) => format!("the string \"{}\" (drop the quotes)", s.escape_debug()),
                    other => other.json_type().name().to_string(),
                };
                sink.push(&ERROR_CODE_NOT_INTEGER, path().key("code"), code.span, format!("\"code\" must be an integer, found {found}"));
                None
            }
        },
    };
    match error.get("message") {
        None => sink.push(&ERROR_MESSAGE_NOT_STRING, path(), error.span, "the error object has no \"message\" (a string is required)"),
        Some(message) => match message.as_str() {
            None => sink.push(
                &ERROR_MESSAGE_NOT_STRING,
                path().key("message"),
                message.span,
                format!("\"message\" must be a string, found {}", message.json_type().name()),
            ),
            Some(text) if text.contains('\n') || text.chars().count() > 200 => sink.push(
                &ERROR_MESSAGE_CONCISE,
                path().key("message"),
                message.span,
                "keep \"message\" to one short sentence; put details (traces, lists) in \"data\"",
            ),
            Some(_) => {}
        },
    }
    if let Some(n) = code.filter(|&n| is_reserved_unassigned(n)) {
        let span = error.get("code").map_or(error.span, |c| c.span);
        sink.push(
            &ERROR_CODE_RESERVED,
            path().key("code"),
            span,
            format!("{n} lies in the reserved range -32768..-32000 but is not a predefined code; application errors take codes outside it (servers may use -32099..-32000)"),
        );
    }
    unknown_members(error, &path, ERROR_MEMBERS, sink);
    code
}

/// Near misses for member names people type.
fn suggestion(key: &str, allowed: &[&str]) -> Option<&'static str> {
    const KNOWN: &[(&str, &str)] = &[
        ("parms", "params"), ("param", "params"), ("parameters", "params"), ("arguments", "params"), ("args", "params"),
        ("json-rpc", "jsonrpc"), ("json_rpc", "jsonrpc"), ("jsonrpc ", "jsonrpc"), ("version", "jsonrpc"),
        ("results", "result"), ("err", "error"), ("errors", "error"), ("methods", "method"), ("msg", "message"),
    ];
    KNOWN
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(key))
        .map(|(_, v)| *v)
        .or_else(|| {
            ["jsonrpc", "method", "params", "id", "result", "error", "code", "message", "data"]
                .into_iter()
                .find(|name| name.eq_ignore_ascii_case(key))
        })
        .filter(|s| allowed.contains(s))
}

/// `path` gives the object's pointer (built only when a member is unknown).
fn unknown_members(node: &Node<'_>, path: &dyn Fn() -> Pointer, allowed: &[&str], sink: &mut Sink<'_>) {
    for m in node.members() {
        if allowed.contains(&&*m.key) {
            continue;
        }
        let near = suggestion(&m.key, allowed);
        // A misspelt "jsonrpc" is already named by jsonrpc-missing.
        if near == Some("jsonrpc") && node.member("jsonrpc").is_none() {
            continue;
        }
        let message = match near {
            Some(name) if node.member(name).is_none() => format!("unknown member \"{}\": did you mean \"{name}\"?", m.key),
            _ => format!("unknown member \"{}\" (allowed here: {})", m.key, allowed.join(", ")),
        };
        sink.push(&MEMBER_UNKNOWN, path().key(&m.key), m.key_span, message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_integers_end_at_two_to_the_53_minus_one() {
        for text in ["0", "1", "-1", "9007199254740991", "-9007199254740991", "999999999999999", "1000000000000000"] {
            assert!(!beyond_safe_integer(text), "{text}");
        }
        for text in ["9007199254740992", "-9007199254740992", "9999999999999999", "10000000000000000", "18446744073709551616"] {
            assert!(beyond_safe_integer(text), "{text}");
        }
        // The same answer as reading the digits as a number.
        for n in [MAX_SAFE_INTEGER - 1, MAX_SAFE_INTEGER, MAX_SAFE_INTEGER + 1, u64::MAX] {
            assert_eq!(beyond_safe_integer(&n.to_string()), n > MAX_SAFE_INTEGER, "{n}");
        }
    }
}
