//! The client's side of a server's request: what a cooperative MCP client answers when the server
//! asks it something during a session (`sampling/createMessage`, `elicitation/create`,
//! `roots/list`, `ping`). The page prefills its Reply action with it and its "answer
//! automatically" switch sends it; a learner edits the prefilled text to answer otherwise.
//!
//! - sampling → an assistant message of text, saying which model "answered" (this client has none);
//! - elicitation → `accept` with a value for every field of the requested schema: its `default`,
//!   else its first choice(s), else a plain value of its type within the field's bounds (so the
//!   answer conforms to the schema: tests/client_answers.rs checks it with the schema engine);
//! - roots → no roots; ping → `{}`;
//! - any other method → `-32601 Method not found`, as a client without that feature must answer.

use crate::json::{parse_document, Json, Node, Value};
use crate::rpc::errors::METHOD_NOT_FOUND;

/// The model name the automatic sampling answer gives (there is no model behind it).
pub const AUTO_MODEL: &str = "playground-auto-answer";

/// The response a cooperative client sends to `request` (one JSON-RPC request, as text), compact
/// on one line with the request's id echoed by its exact source text: a result for the methods it
/// [`answers`], -32601 for the rest; `None` when `request` is not one JSON request with an id.
pub fn reply_to(request: &str) -> Option<String> {
    reply(request, false)
}

/// Like [`reply_to`], but only for the methods a client [`answers`]: what the page sends on its
/// own when "answer automatically" is on (a request it cannot serve is left to the learner).
pub fn auto_reply_to(request: &str) -> Option<String> {
    reply(request, true)
}

fn reply(request: &str, served_only: bool) -> Option<String> {
    let bytes = request.as_bytes();
    let (parsed, end) = parse_document(bytes, 0).ok()?;
    if !bytes[end..].iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    let root = parsed.root;
    let method = root.get("method").and_then(Node::as_str)?;
    let id = root
        .get("id")
        .filter(|id| matches!(id.value, Value::String(_) | Value::Number(_)))?;
    if served_only && !answers(method) {
        return None;
    }
    let (member, value) = match result_for(method, root.get("params")) {
        Some(result) => ("result", result),
        None => (
            "error",
            Json::obj([
                ("code", Json::from(METHOD_NOT_FOUND)),
                ("message", Json::from("Method not found")),
            ]),
        ),
    };
    Some(
        Json::obj([
            ("jsonrpc", Json::from("2.0")),
            ("id", Json::from_node(id)),
            (member, value),
        ])
        .compact(),
    )
}

/// The result a cooperative client gives to the server's `method` with `params`: the same
/// answer [`reply_to`] sends, and what an input-required round answers by key
/// ([`crate::exchange::round`]); `None` for a method it does not [`answers`].
pub fn result_for(method: &str, params: Option<&Node<'_>>) -> Option<Json> {
    match method {
        "sampling/createMessage" => Some(sampling(params)),
        "elicitation/create" => Some(elicitation(params)),
        "roots/list" => Some(Json::obj([("roots", Json::arr([]))])),
        "ping" => Some(Json::Object(Vec::new())),
        _ => None,
    }
}

/// The methods [`reply_to`] answers with a result (the rest get -32601).
pub fn answers(method: &str) -> bool {
    matches!(
        method,
        "sampling/createMessage" | "elicitation/create" | "roots/list" | "ping"
    )
}

/// `sampling/createMessage`: an assistant's text that says what it was asked.
fn sampling(params: Option<&Node<'_>>) -> Json {
    let asked = params
        .and_then(|p| p.get("messages"))
        .and_then(Node::as_array)
        .and_then(|m| m.last())
        .and_then(|m| m.get("content"))
        .and_then(|c| c.get("text"))
        .and_then(Node::as_str)
        .unwrap_or("(no text)");
    Json::obj([
        ("role", Json::from("assistant")),
        (
            "content",
            Json::obj([
                ("type", Json::from("text")),
                (
                    "text",
                    Json::String(format!("An automatic answer (no model here) to: {asked}")),
                ),
            ]),
        ),
        ("model", Json::from(AUTO_MODEL)),
        ("stopReason", Json::from("endTurn")),
    ])
}

/// `elicitation/create`: accept, with a value for each property of `requestedSchema`.
fn elicitation(params: Option<&Node<'_>>) -> Json {
    let properties = params
        .and_then(|p| p.get("requestedSchema"))
        .and_then(|s| s.get("properties"))
        .map(Node::members)
        .unwrap_or_default();
    let content = properties
        .iter()
        .map(|m| (m.key.to_string(), field_value(&m.value)))
        .collect::<Vec<_>>();
    Json::obj([
        ("action", Json::from("accept")),
        ("content", Json::Object(content)),
    ])
}

/// The longest text this client writes for one field (a schema asking a longer `minLength` is
/// answered with this many characters: a server cannot make it allocate more).
const MAX_FIELD_CHARS: usize = 1024;
/// The most choices a multi-select answer picks.
const MAX_PICKED: usize = 64;

/// A value for one field of an elicitation schema: its `default`, else its first choice (`enum`,
/// or the `const` of the first `oneOf`/`anyOf` option; for a multi-select, of its `items`, as
/// many as `minItems` asks), else a plain value of its type that keeps the field's bounds (a
/// number at its `minimum`, or its `maximum` when that is below 0; a text of its `format`,
/// padded to `minLength` and cut to `maxLength`).
fn field_value(schema: &Node<'_>) -> Json {
    if let Some(default) = schema.get("default") {
        return Json::from_node(default);
    }
    if let Some(choice) = first_choice(schema) {
        return Json::from_node(choice);
    }
    let bound = |key: &str| schema.get(key).and_then(Node::as_f64);
    match schema.get("type").and_then(Node::as_str) {
        Some("array") => {
            let wanted = bound("minItems").map_or(1, |n| n.clamp(1.0, MAX_PICKED as f64) as usize);
            let wanted = bound("maxItems").map_or(wanted, |m| wanted.min(m.max(0.0) as usize));
            Json::Array(
                schema
                    .get("items")
                    .map(choices)
                    .unwrap_or_default()
                    .into_iter()
                    .take(wanted)
                    .map(Json::from_node)
                    .collect(),
            )
        }
        Some("boolean") => Json::from(false),
        Some(kind @ ("number" | "integer")) => {
            // (the bound, and whether it is a floor)
            let (at, floor) = match (schema.get("minimum"), schema.get("maximum")) {
                (Some(min), _) if min.as_f64().is_some() => (min, true),
                (_, Some(max)) if max.as_f64().is_some_and(|m| m < 0.0) => (max, false),
                _ => return Json::from(0u64),
            };
            match at.as_f64() {
                // An integer field's bound is met by the nearest whole number inside it.
                Some(f) if kind == "integer" && f.fract() != 0.0 && f.abs() < 1e15 => {
                    Json::from(if floor { f.ceil() } else { f.floor() } as i64)
                }
                _ => Json::from_node(at),
            }
        }
        _ => {
            let mut text = match schema.get("format").and_then(Node::as_str) {
                Some("email") => "user@example.com",
                Some("uri") => "https://example.com/",
                Some("date") => "2026-01-01",
                Some("date-time") => "2026-01-01T00:00:00Z",
                _ => "example",
            }
            .to_string();
            if let Some(min) = bound("minLength") {
                let min = min.clamp(0.0, MAX_FIELD_CHARS as f64) as usize;
                while text.chars().count() < min {
                    text.push('x');
                }
            }
            if let Some(max) = bound("maxLength") {
                let max = max.max(0.0) as usize;
                if text.chars().count() > max {
                    text = text.chars().take(max).collect();
                }
            }
            Json::String(text)
        }
    }
}

/// Every value a choice field offers: its `enum`, or the `const` of each `oneOf`/`anyOf` option.
fn choices<'s, 'a>(schema: &'s Node<'a>) -> Vec<&'s Node<'a>> {
    let list = |key: &str| schema.get(key).and_then(Node::as_array).unwrap_or_default();
    if let Some(values) = schema.get("enum").and_then(Node::as_array) {
        return values.iter().take(MAX_PICKED).collect();
    }
    let options = if list("oneOf").is_empty() {
        list("anyOf")
    } else {
        list("oneOf")
    };
    options
        .iter()
        .filter_map(|o| o.get("const"))
        .take(MAX_PICKED)
        .collect()
}

/// The first value a choice field offers.
fn first_choice<'s, 'a>(schema: &'s Node<'a>) -> Option<&'s Node<'a>> {
    choices(schema).into_iter().next()
}
