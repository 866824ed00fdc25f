//! A transcript as an MCP session: the lifecycle (initialize first, its response, then
//! notifications/initialized before other requests) and ids never reused by the same side.
//!
//! The lifecycle is checked only when the transcript shows the client's initialize: one without
//! it is taken as the middle of a session. 2026-07-28 has no handshake and no session, so neither
//! check applies there: its conversations are input-required rounds and their retries instead.

use crate::json::{Direction, Node, Span, Stream, Value};
use crate::rpc::rule::Rule;
use crate::rpc::rules::REQUEST_ID_REUSED;
use crate::rpc::{Document, Kind, Sink};

use super::methods::{self, Call};
use super::rules::*;
use super::McpVersion;

/// One message of the transcript.
struct Message<'n, 'a> {
    doc: usize,
    item: Option<usize>,
    node: &'n Node<'a>,
    from: Direction,
    /// What the JSON-RPC layer made of it (its intent when invalid).
    kind: Kind,
}

impl Message<'_, '_> {
    fn method(&self) -> Option<&str> {
        self.node.get("method").and_then(Node::as_str)
    }
    fn base(&self) -> String {
        self.item.map_or_else(String::new, |j| format!("/{j}"))
    }
    fn method_at(&self) -> (String, Span) {
        let span = self
            .node
            .member("method")
            .map_or(self.node.span, |m| m.value.span);
        (format!("{}/method", self.base()), span)
    }
    /// A call of `name` sent by `from`.
    fn is_call(&self, name: &str, from: Direction, kind: Kind) -> bool {
        self.from == from && self.kind == kind && self.method() == Some(name)
    }
}

/// An id as a key: strings by value, numbers by their text.
fn id_key(id: &Node<'_>) -> Option<String> {
    match &id.value {
        Value::String(s) => Some(format!("s:{s}")),
        Value::Number(n) => Some(format!("n:{n}")),
        _ => None,
    }
}

fn side(d: Direction) -> usize {
    match d {
        Direction::Client => 0,
        Direction::Server => 1,
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Phase {
    /// Nothing may happen before the client's initialize.
    BeforeInitialize,
    /// Initialize sent (with this id key); only pings until its response.
    AwaitingResponse(Option<String>),
    /// Initialize answered; the client owes notifications/initialized.
    AwaitingInitialized,
    /// Normal operation (or a failed initialize: nothing more to check).
    Operating,
}

struct Flag {
    doc: usize,
    item: Option<usize>,
    rule: &'static Rule,
    path: String,
    span: Span,
    message: String,
    /// A JSON-RPC violation this one states more strictly.
    supersedes: Option<&'static Rule>,
}

pub(super) fn check(stream: &Stream<'_>, documents: &mut [Document], version: McpVersion) {
    let mut messages = Vec::new();
    for (doc, segment) in stream.segments.iter().enumerate() {
        let (Some(from), Ok(parsed)) = (segment.direction, &segment.parsed) else {
            continue;
        };
        let kind_of = |d: &Document| d.intent.unwrap_or(d.kind);
        match &parsed.root.value {
            Value::Object(_) => messages.push(Message {
                doc,
                item: None,
                node: &parsed.root,
                from,
                kind: kind_of(&documents[doc]),
            }),
            Value::Array(items) => {
                for (j, node) in items.iter().enumerate() {
                    if let (true, Some(d)) = (node.is_object(), documents[doc].items.get(j)) {
                        messages.push(Message {
                            doc,
                            item: Some(j),
                            node,
                            from,
                            kind: kind_of(d),
                        });
                    }
                }
            }
            _ => {}
        }
    }
    let mut flags = Vec::new();
    if version == McpVersion::V2026_07_28 {
        rounds(&messages, &mut flags);
    } else {
        lifecycle(&messages, version, &mut flags);
        reused_ids(&messages, version, &mut flags);
    }
    for f in flags {
        let target = match f.item {
            Some(j) => &mut documents[f.doc].items[j],
            None => &mut documents[f.doc],
        };
        if let Some(old) = f.supersedes {
            target
                .violations
                .retain(|v| !(v.rule == old && v.span == f.span));
        }
        Sink {
            out: &mut target.violations,
        }
        .push_full(f.rule, f.path, f.span, f.message, Vec::new());
    }
}

/// 2026-07-28: each input-required round and its retry (see [`super::rounds`]).
fn rounds(messages: &[Message<'_, '_>], flags: &mut Vec<Flag>) {
    let mut rounds = super::Rounds::default();
    for m in messages {
        for f in rounds.observe(m.from, m.node, &m.base()) {
            flags.push(Flag {
                doc: m.doc,
                item: m.item,
                rule: f.rule,
                path: f.path,
                span: f.span,
                message: f.message.to_string(),
                supersedes: None,
            });
        }
    }
}

fn lifecycle(messages: &[Message<'_, '_>], version: McpVersion, flags: &mut Vec<Flag>) {
    let initialized = messages
        .iter()
        .any(|m| m.is_call("initialize", Direction::Client, Kind::Request));
    if !initialized {
        return;
    }
    let mut phase = Phase::BeforeInitialize;
    let mut flag = |m: &Message<'_, '_>, rule: &'static Rule, message: String| {
        let (path, span) = m.method_at();
        flags.push(Flag {
            doc: m.doc,
            item: m.item,
            rule,
            path,
            span,
            message,
            supersedes: None,
        });
    };
    for m in messages {
        let method = m.method().unwrap_or("");
        let call = matches!(m.kind, Kind::Request | Kind::Notification) && m.method().is_some();
        let who = m.from.as_str();
        match phase.clone() {
            Phase::BeforeInitialize => {
                if m.is_call("initialize", Direction::Client, Kind::Request) {
                    phase = Phase::AwaitingResponse(m.node.get("id").and_then(id_key));
                } else if call {
                    flag(m, &INITIALIZE_FIRST, format!(
                        "the {who} sends {method} before initialize; an MCP {version} session begins with the client's initialize request"
                    ));
                }
            }
            Phase::AwaitingResponse(key) => {
                if m.from == Direction::Server
                    && m.kind == Kind::Response
                    && m.node.get("id").and_then(id_key) == key
                {
                    phase = if m.node.get("result").is_some() {
                        Phase::AwaitingInitialized
                    } else {
                        Phase::Operating
                    };
                } else if m.is_call(
                    "notifications/initialized",
                    Direction::Client,
                    Kind::Notification,
                ) {
                    flag(m, &INITIALIZED_ORDER, "notifications/initialized is sent before the server has answered initialize; it comes after the initialize result".into());
                } else if m.kind == Kind::Request && call && method != "ping" {
                    let message = match m.from {
                        Direction::Client => format!("the client sends {method} before the server has answered initialize; only ping should come before that answer"),
                        Direction::Server => format!("the server sends {method} before the client's notifications/initialized; only ping (and logging) should come before it"),
                    };
                    flag(m, &REQUEST_DURING_INITIALIZATION, message);
                }
            }
            Phase::AwaitingInitialized => {
                if m.is_call(
                    "notifications/initialized",
                    Direction::Client,
                    Kind::Notification,
                ) {
                    phase = Phase::Operating;
                } else if m.kind == Kind::Request && call && method != "ping" {
                    match m.from {
                        Direction::Client => {
                            flag(m, &INITIALIZED_ORDER, format!(
                                "the client sends {method} without having sent notifications/initialized after the initialize result"
                            ));
                            phase = Phase::Operating;
                        }
                        Direction::Server => flag(m, &REQUEST_DURING_INITIALIZATION, format!(
                            "the server sends {method} before the client's notifications/initialized; only ping (and logging) should come before it"
                        )),
                    }
                }
            }
            Phase::Operating => {}
        }
    }
}

fn reused_ids(messages: &[Message<'_, '_>], version: McpVersion, flags: &mut Vec<Flag>) {
    let mut seen: [Vec<(String, usize)>; 2] = [Vec::new(), Vec::new()];
    for m in messages {
        if m.kind != Kind::Request {
            continue;
        }
        let notification = m
            .method()
            .and_then(|n| methods::lookup(n, version))
            .is_some_and(|e| e.call == Call::Notification);
        let Some(id) = m.node.member("id") else {
            continue;
        };
        let (Some(key), false) = (id_key(&id.value), notification) else {
            continue;
        };
        let earlier = &mut seen[side(m.from)];
        if let Some((_, first)) = earlier.iter().find(|(k, _)| *k == key) {
            let shown = match &id.value.value {
                Value::String(s) => crate::json::quote(s),
                Value::Number(n) => (*n).to_string(),
                _ => String::new(),
            };
            flags.push(Flag {
                doc: m.doc,
                item: m.item,
                rule: &ID_REUSED,
                path: format!("{}/id", m.base()),
                span: id.value.span,
                message: format!(
                    "the {} already used id {shown} (message {}); MCP ids are never reused within a session, even after the response",
                    m.from.as_str(),
                    first + 1
                ),
                supersedes: Some(&REQUEST_ID_REUSED),
            });
        } else {
            earlier.push((key, m.doc));
        }
    }
}
