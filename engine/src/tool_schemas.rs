//! MCP tool schemas in messages (`jrpc check` and `jrpc tap` under the mcp profile): when a
//! `tools/list` result declared a tool's `inputSchema` or `outputSchema`, a later `tools/call`'s
//! `arguments` are checked against the first and its result's `structuredContent` against the
//! second, by the JSON Schema engine the OpenRPC validator uses (boon: 2020-12 unless a schema's
//! `$schema` names another draft, nothing fetched). Native only (feature `openrpc`), like it.

use std::collections::HashMap;

use serde_json::Value;

use crate::json::{Direction, Node, Value as Tree};
use crate::openrpc::document::value_of;
use crate::openrpc::messages::{answering, each_message, node_at, pairing_key as key};
use crate::openrpc::CompiledSchema;
use crate::probe::rules::{STRUCTURED_CONTENT_INVALID, TOOL_ARGUMENTS_INVALID};
use crate::rpc::{Document, Kind, Report, Rule, Violation};

/// The largest schema kept (its JSON text, in bytes): a bigger one is not checked against.
pub const MAX_SCHEMA_BYTES: usize = 64 * 1024;
/// The deepest schema kept (nested arrays and objects): deeper ones are not checked against.
pub const MAX_SCHEMA_DEPTH: usize = 64;
/// The most tools remembered, and the most requests waiting for their replies.
const MAX_TOOLS: usize = 4096;
const MAX_PENDING: usize = 65_536;
/// The most findings one value gets.
const MAX_FINDINGS: usize = 20;

/// A tool's declared schemas, compiled (each only when usable: within the bounds above, and a
/// schema the engine compiles without fetching anything).
#[derive(Debug, Default)]
struct Schemas {
    input: Option<CompiledSchema>,
    output: Option<CompiledSchema>,
}

/// What a request waiting for its reply asked.
#[derive(Debug)]
enum Asked {
    List,
    Call(String),
}

/// The tools seen in `tools/list` results and the requests waiting for their replies, across the
/// messages of one input or of a live session (`jrpc tap`).
#[derive(Debug, Default)]
pub struct ToolSchemas {
    tools: HashMap<String, Schemas>,
    pending: HashMap<(u8, String), Asked>,
}

/// [`ToolSchemas::check`] of one whole input (a message, a stream or a transcript).
pub fn check(src: &[u8], report: &mut Report) {
    ToolSchemas::default().check(src, report);
}

fn depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(members) => 1 + members.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// `schema` compiled, when it is small and shallow enough to be checked against and compiles.
fn usable(schema: Option<&Node<'_>>) -> Option<CompiledSchema> {
    let node = schema?;
    if node.span.end.saturating_sub(node.span.start) > MAX_SCHEMA_BYTES {
        return None;
    }
    let value = value_of(node);
    if depth(&value) > MAX_SCHEMA_DEPTH {
        return None;
    }
    CompiledSchema::new(&value).ok()
}

/// The findings of `value` (at `path`) against `schema`, one per place in the value.
fn against(
    rule: &'static Rule,
    what: &str,
    schema: &CompiledSchema,
    value: &Node<'_>,
    path: &str,
    out: &mut Vec<Violation>,
) {
    let errors = schema.errors(&value_of(value));
    let mut merged: Vec<crate::openrpc::SchemaError> = Vec::new();
    for e in errors {
        match merged.iter_mut().find(|o| o.instance == e.instance) {
            Some(o) => {
                o.message.push_str("; or ");
                o.message.push_str(&e.message);
            }
            None => merged.push(e),
        }
    }
    for e in merged.into_iter().take(MAX_FINDINGS) {
        let at = node_at(value, &e.instance).unwrap_or(value);
        let schema_at = if e.schema.is_empty() { "/" } else { &e.schema };
        let where_ = if e.instance.is_empty() {
            String::new()
        } else {
            format!(" at {}", e.instance)
        };
        out.push(Violation::new(
            rule,
            format!("{path}{}", e.instance),
            at.span,
            format!("{what}{where_}: {} (schema {schema_at})", e.message),
        ));
    }
}

impl ToolSchemas {
    /// Checks every message of `report` (the report of `src`), adding the findings to the
    /// messages they are about; a response is paired with the request of the same id sent before
    /// it (in a transcript, by the other side).
    pub fn check(&mut self, src: &[u8], report: &mut Report) {
        each_message(src, report, |node, base, d, direction| {
            self.message(node, base, d, direction);
        });
    }

    fn message(
        &mut self,
        node: &Node<'_>,
        base: &str,
        d: &mut Document,
        direction: Option<Direction>,
    ) {
        match d.kind {
            Kind::Request | Kind::Notification => {
                let asked = match d.method.as_deref() {
                    Some("tools/list") => Asked::List,
                    Some("tools/call") => {
                        let params = node.get("params");
                        let Some(name) =
                            params.and_then(|p| p.get("name")).and_then(|n| n.as_str())
                        else {
                            return;
                        };
                        let input = self.tools.get(name).and_then(|t| t.input.as_ref());
                        if let (Some(schema), Some(arguments)) =
                            (input, params.and_then(|p| p.get("arguments")))
                        {
                            against(
                                &TOOL_ARGUMENTS_INVALID,
                                &format!("the arguments of \"{name}\""),
                                schema,
                                arguments,
                                &format!("{base}/params/arguments"),
                                &mut d.violations,
                            );
                        }
                        Asked::Call(name.to_string())
                    }
                    _ => return,
                };
                if let Some(id) = d.id.as_deref().filter(|_| self.pending.len() < MAX_PENDING) {
                    self.pending.insert(key(direction, id), asked);
                }
            }
            Kind::Response => {
                let Some(id) = d.id.as_deref() else { return };
                let Some(asked) = self.pending.remove(&key(answering(direction), id)) else {
                    return;
                };
                let Some(result) = node.get("result") else {
                    return;
                };
                match asked {
                    Asked::List => self.listed(result),
                    Asked::Call(name) => self.called(&name, result, base, &mut d.violations),
                }
            }
            _ => {}
        }
    }

    /// Remembers the tools a `tools/list` result declares.
    fn listed(&mut self, result: &Node<'_>) {
        let Some(Tree::Array(tools)) = result.get("tools").map(|t| &t.value) else {
            return;
        };
        for tool in tools {
            let Some(name) = tool.get("name").and_then(|n| n.as_str()) else {
                continue;
            };
            if self.tools.len() >= MAX_TOOLS && !self.tools.contains_key(name) {
                continue;
            }
            let schemas = Schemas {
                input: usable(tool.get("inputSchema")),
                output: usable(tool.get("outputSchema")),
            };
            self.tools.insert(name.to_string(), schemas);
        }
    }

    /// Checks a `tools/call` result's `structuredContent` against the tool's `outputSchema`.
    fn called(&self, name: &str, result: &Node<'_>, base: &str, out: &mut Vec<Violation>) {
        let Some(schema) = self.tools.get(name).and_then(|t| t.output.as_ref()) else {
            return;
        };
        // An error result owes no structured content.
        if result
            .get("isError")
            .is_some_and(|e| matches!(e.value, Tree::Bool(true)))
        {
            return;
        }
        // A result that asks for input first (2026-07-28) or starts a task has none yet.
        if result.get("content").is_none() && result.get("structuredContent").is_none() {
            return;
        }
        match result.get("structuredContent") {
            Some(content) => against(
                &STRUCTURED_CONTENT_INVALID,
                &format!("the structuredContent of \"{name}\""),
                schema,
                content,
                &format!("{base}/result/structuredContent"),
                out,
            ),
            None => out.push(Violation::new(
                &STRUCTURED_CONTENT_INVALID,
                format!("{base}/result"),
                result.span,
                format!("{name} declares an outputSchema, and its result has no structuredContent"),
            )),
        }
    }
}
