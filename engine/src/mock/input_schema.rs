//! A tool call's `arguments` against the `inputSchema` the mock lists for the tool, checked by the
//! JSON Schema engine (boon, feature `mcp-schemas`: `jrpc serve`, and the page's mock under MCP,
//! the `mcp-mock-worker` binary). Arguments that break it get a tool execution error
//! (`isError: true`), as a missing argument does. Without the feature (the page's JSON-RPC mock,
//! `mock-worker`) this module is left out: there the tools' own checks (required arguments and
//! their types) stand alone.
//!
//! An accepted elicitation answer's `content` is checked the same way against the
//! `requestedSchema` the server asked with ([`answer_problems`]): the 2026-07-28 retry carrying a
//! breaking answer is refused with -32602 (at `/params/inputResponses/KEY/content…`), and a
//! handshake-era client's breaking result ends the waiting call with a tool error.

use crate::json::{Json, Node};

/// The most schema findings one refusal names.
const MAX_NAMED: usize = 5;

/// The tool named `name` in a `tools/list` result.
#[cfg(feature = "conformance")]
pub(super) fn listed_tool<'j>(list: &'j Json, name: &str) -> Option<&'j Json> {
    let Some(Json::Array(tools)) = list.get("tools") else {
        return None;
    };
    tools
        .iter()
        .find(|t| matches!(t.get("name"), Some(Json::String(n)) if n == name))
}

/// The tool error refusing the call's arguments when they break `tool`'s `inputSchema`; `None`
/// when they conform (an absent `arguments` is checked as `{}`), or the schema cannot be used.
pub(super) fn refused(tool: &Json, params: Option<&Node<'_>>) -> Option<Json> {
    let schema: serde_json::Value =
        serde_json::from_str(&tool.get("inputSchema")?.compact()).ok()?;
    let arguments = match params.and_then(|p| p.get("arguments")) {
        Some(node) => crate::openrpc::document::value_of(node),
        None => serde_json::Value::Object(serde_json::Map::new()),
    };
    let errors = crate::openrpc::schema_errors(&schema, &arguments).ok()?;
    if errors.is_empty() {
        return None;
    }
    let named: Vec<String> = errors
        .iter()
        .take(MAX_NAMED)
        .map(|e| {
            let at = if e.instance.is_empty() {
                "/"
            } else {
                &e.instance
            };
            format!("at {at}: {}", e.message)
        })
        .collect();
    Some(super::content::tool_error(format!(
        "the arguments break the tool's inputSchema: {}",
        named.join("; ")
    )))
}

/// What is wrong with `answer` (an elicitation result: `action`, `content`) against the
/// `requestedSchema` of `request` (the `elicitation/create` params the server sent): each place
/// (a JSON pointer under `content`) and why. Empty when it conforms, when it is not accepted (a
/// decline or cancel owes no content), or when the schema cannot be used (the mock's own
/// schemas all compile: tests/mcp_tool_schemas.rs).
pub(super) fn answer_problems(
    request: &serde_json::Value,
    answer: &Node<'_>,
) -> Vec<(String, String)> {
    if answer.get("action").and_then(Node::as_str) != Some("accept") {
        return Vec::new();
    }
    let Some(schema) = request.get("requestedSchema") else {
        return Vec::new();
    };
    let content = match answer.get("content") {
        Some(node) => crate::openrpc::document::value_of(node),
        None => serde_json::Value::Object(serde_json::Map::new()),
    };
    let Ok(errors) = crate::openrpc::schema_errors(schema, &content) else {
        return Vec::new();
    };
    crate::openrpc::document::by_place(errors)
        .into_iter()
        .take(MAX_NAMED)
        .map(|e| {
            let message = format!(
                "the answer breaks the requestedSchema at {}: {}",
                if e.instance.is_empty() {
                    "/"
                } else {
                    &e.instance
                },
                e.message
            );
            (e.instance, message)
        })
        .collect()
}

/// `json` (the mock's own value) as serde's.
pub(super) fn serde_of(json: &Json) -> serde_json::Value {
    serde_json::from_str(&json.compact()).unwrap_or(serde_json::Value::Null)
}
