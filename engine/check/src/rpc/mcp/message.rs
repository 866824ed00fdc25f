//! One message under the MCP profile: ids, request or notification as the method demands, who
//! sends it, and its params (through [`super::params`]); and batches.

use crate::json::{Direction, Node, Pointer, Value};
use crate::rpc::rule::Rule;
use crate::rpc::rules::{ID_FRACTIONAL, ID_NULL_IN_REQUEST};
use crate::rpc::{Kind, Sink};

use super::methods::{self, Call, Sender};
use super::params::{self, ProblemKind};
use super::rules::*;
use super::McpVersion;

/// Drops a JSON-RPC violation that an MCP rule states more strictly at the same place.
fn supersede(sink: &mut Sink<'_>, rule: &'static Rule, path: &str) {
    sink.out.retain(|v| !(v.rule == rule && v.path == path));
}

pub(super) fn check(
    node: &Node<'_>,
    path: &Pointer,
    kind: Kind,
    direction: Option<Direction>,
    version: McpVersion,
    sink: &mut Sink<'_>,
) {
    let name = node.get("method").and_then(Node::as_str);
    let known = name.and_then(|n| methods::lookup(n, version));
    id(node, path, kind, known.map(|m| m.call), sink);
    let v2026 = version == McpVersion::V2026_07_28;
    if v2026 && kind == Kind::Response {
        super::rounds::response(node, path.as_str(), sink);
    }
    let (Some(name), Kind::Request | Kind::Notification) = (name, kind) else {
        return;
    };
    if v2026 && kind == Kind::Request && known.is_some() {
        super::rounds::request(node, path.as_str(), sink);
    }
    if name.starts_with("rpc.") {
        return; // method-rpc-reserved says it
    }
    let method_span = node.member("method").map_or(node.span, |m| m.value.span);
    let method_path = path.key("method");
    match known {
        None => sink.push(
            if removed_in_2026(name, version) {
                &METHOD_REMOVED
            } else {
                &METHOD_UNKNOWN
            },
            &method_path,
            method_span,
            unknown_method(name, version),
        ),
        Some(m) => {
            match (m.call, kind) {
                (Call::Request, Kind::Notification) => sink.push(
                    &REQUEST_WITHOUT_ID,
                    path,
                    node.span,
                    format!("{name} is a request and needs an id (a string or an integer); without one it is a notification and never gets a response"),
                ),
                (Call::Notification, Kind::Request) => {
                    let span = node.member("id").map_or(node.span, |m| m.value.span);
                    supersede(sink, &ID_NULL_IN_REQUEST, path.key("id").as_str());
                    sink.push(
                        &NOTIFICATION_WITH_ID,
                        path.key("id"),
                        span,
                        format!("{name} is a notification and must not have an id; with one it is a request that expects a response"),
                    );
                }
                _ => {}
            }
            let wrong = match (m.from, direction) {
                (Sender::Client, Some(Direction::Server)) => Some(("the client", "the server")),
                (Sender::Server, Some(Direction::Client)) => Some(("the server", "the client")),
                _ => None,
            };
            if let Some((sender, here)) = wrong {
                sink.push(
                    &WRONG_DIRECTION,
                    &method_path,
                    method_span,
                    format!(
                        "{name} is sent by {sender} in MCP {version}, but here {here} sends it"
                    ),
                );
            }
        }
    }
    params(node, path, name, version, sink);
}

/// MCP ids are strings or integers, never null.
fn id(node: &Node<'_>, path: &Pointer, kind: Kind, call: Option<Call>, sink: &mut Sink<'_>) {
    let Some(id) = node.member("id") else { return };
    let at = path.key("id");
    match &id.value.value {
        Value::Null if kind == Kind::Request && call != Some(Call::Notification) => {
            supersede(sink, &ID_NULL_IN_REQUEST, at.as_str());
            sink.push(
                &ID_NULL,
                &at,
                id.value.span,
                "MCP request ids must be a string or an integer, never null",
            );
        }
        Value::Number(text) if text.contains(['.', 'e', 'E']) => {
            supersede(sink, &ID_FRACTIONAL, at.as_str());
            sink.push(
                &ID_NOT_INTEGER,
                &at,
                id.value.span,
                format!("MCP ids are strings or integers; {text} is written with a fraction or an exponent"),
            );
        }
        _ => {}
    }
}

fn params(node: &Node<'_>, path: &Pointer, name: &str, version: McpVersion, sink: &mut Sink<'_>) {
    let member = node.member("params");
    match member.map(|m| &m.value) {
        Some(p) if matches!(p.value, Value::Array(_)) => {
            sink.push(
                &PARAMS_NOT_OBJECT,
                path.key("params"),
                p.span,
                "MCP passes parameters by name: \"params\" must be an object, not an array",
            );
            return;
        }
        Some(p) if !p.is_object() => return, // params-not-structured says it
        _ => {}
    }
    for problem in params::problems(name, member.map(|m| &m.value), version) {
        let rule = match (problem.kind, problem.meta) {
            (_, true) => &META_REQUIRED,
            (ProblemKind::ParamsMissing | ProblemKind::Missing, false) => &PARAM_MISSING,
            (ProblemKind::WrongType, false) => &PARAM_WRONG_TYPE,
            (ProblemKind::NotObject, false) => &PARAMS_NOT_OBJECT,
        };
        let (at, span) = match problem.span {
            None => (path.as_str().to_string(), node.span),
            Some(span) => (format!("{}/params{}", path.as_str(), problem.path), span),
        };
        sink.push_full(rule, at, span, problem.message, Vec::new());
    }
}

/// `name` was a method of 2025-11-25 that 2026-07-28 removed (the Tasks methods moved to an
/// extension, which may still serve them).
fn removed_in_2026(name: &str, version: McpVersion) -> bool {
    version == McpVersion::V2026_07_28
        && methods::versions_having(name) & methods::IN_2025_11_25 != 0
        && !name.starts_with("tasks/")
        && !name.starts_with("notifications/tasks/")
}

/// Says why `name` is not a method of `version`, and what to use instead when that is known.
fn unknown_method(name: &str, version: McpVersion) -> String {
    if version == McpVersion::V2026_07_28
        && matches!(
            name,
            "sampling/createMessage" | "elicitation/create" | "roots/list"
        )
    {
        return format!(
            "in MCP 2026-07-28 {name} is not a request of its own: the server asks for it inside a result with resultType \"input_required\" (inputRequests), and the client retries its request with inputResponses"
        );
    }
    let elsewhere = methods::versions_having(name);
    if elsewhere != 0 {
        let list: Vec<&str> = methods::versions_of(elsewhere)
            .map(McpVersion::as_str)
            .collect();
        let mut message = format!(
            "{name} is not a method of MCP {version} (it exists in {})",
            list.join(", ")
        );
        if version == McpVersion::V2026_07_28
            && matches!(name, "initialize" | "notifications/initialized" | "ping")
        {
            message.push_str(
                "; 2026-07-28 has no initialization handshake: every request carries its protocol version and capabilities in params._meta, and server/discover tells what the server supports",
            );
        }

        return message;
    }
    let tail = format!("/{name}");
    let near = methods::METHODS
        .iter()
        .filter(|m| m.versions & methods::bit(version) != 0)
        .find(|m| m.name.ends_with(&tail) || m.name.eq_ignore_ascii_case(name));
    match near {
        Some(m) => format!("{name} is not a method of MCP {version}: did you mean {}?", m.name),
        None => format!(
            "{name} is not a method of MCP {version}; a server answers -32601 (Method not found) unless it adds it as an extension"
        ),
    }
}

pub(super) fn check_batch(node: &Node<'_>, version: McpVersion, sink: &mut Sink<'_>) {
    let Some(items) = node.as_array() else { return };
    if version != McpVersion::V2025_03_26 {
        sink.push(
            &BATCH_NOT_SUPPORTED,
            Pointer::root(),
            node.span,
            format!("MCP {version} has no JSON-RPC batches (only 2025-03-26 has them): send each message on its own"),
        );
        return;
    }
    for (i, item) in items.iter().enumerate() {
        if let Some(method) = item
            .member("method")
            .filter(|m| m.value.as_str() == Some("initialize"))
        {
            sink.push(
                &BATCH_INITIALIZE,
                Pointer::root().index(i).key("method"),
                method.value.span,
                "initialize must be sent on its own, never inside a batch",
            );
        }
    }
}
