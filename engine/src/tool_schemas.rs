//! MCP schemas in messages (`jrpc check` and `jrpc tap` under the mcp profile, and the page's
//! API worker: src/web/workers/api.rs), checked by the JSON Schema engine the OpenRPC validator uses (boon:
//! 2020-12 unless a schema's `$schema` names another draft, nothing fetched). Feature `openrpc`,
//! like it: the page's own wasm never calls it, so only the API worker links boon.
//!
//! - When a `tools/list` result declared a tool's `inputSchema` or `outputSchema`, a later
//!   `tools/call`'s `arguments` are checked against the first and its result's
//!   `structuredContent` against the second.
//! - An elicitation's accepted `content` is checked against the `requestedSchema` it answers: a
//!   2026-07-28 retry's `inputResponses` against the input-required result that asked (the same
//!   call: method and tool, prompt or uri), and a handshake-era client's result against the
//!   server's `elicitation/create` request.
//! - A schema the engine cannot compile (or one past the bounds below) is reported where it is
//!   declared ([`SCHEMA_UNUSABLE`]) instead of being skipped in silence.

use std::collections::HashMap;

use serde_json::Value;

use crate::json::escape_token;
use crate::json::{Direction, Node, Value as Tree};
use crate::openrpc::document::node_at;
use crate::openrpc::document::value_of;
use crate::openrpc::messages::{answering, each_message, pairing_key as key};
use crate::openrpc::CompiledSchema;
use crate::probe::rules::{
    ELICITATION_ANSWER_INVALID, SCHEMA_UNUSABLE, STRUCTURED_CONTENT_INVALID, TOOL_ARGUMENTS_INVALID,
};
use crate::rpc::{Document, Kind, Report, Rule, Violation};

/// The rules these checks raise (the page finds them here: they are not in the validator's
/// catalogue, which holds what the engine checks without a schema engine).
pub static RULES: &[&Rule] = &[
    &TOOL_ARGUMENTS_INVALID,
    &STRUCTURED_CONTENT_INVALID,
    &ELICITATION_ANSWER_INVALID,
    &SCHEMA_UNUSABLE,
];

/// The largest schema kept (its JSON text, in bytes): a bigger one is not checked against.
pub const MAX_SCHEMA_BYTES: usize = 64 * 1024;
/// The deepest schema kept (nested arrays and objects): deeper ones are not checked against.
pub const MAX_SCHEMA_DEPTH: usize = 64;
/// The most tools remembered, and the most requests waiting for their replies.
const MAX_TOOLS: usize = 4096;
const MAX_PENDING: usize = 65_536;
/// The most calls with an elicitation round open (each holding its compiled requested schemas).
const MAX_ROUNDS: usize = 256;
/// The most elicitations one input-required result is remembered by.
const MAX_ASKED: usize = 64;
/// The most schema text (bytes of JSON) the open rounds hold together: a round past it is not
/// remembered (its answers go unchecked), so a peer cannot make a session hold more.
pub const MAX_ROUND_SCHEMA_BYTES: usize = 1 << 20;
/// The most findings one value gets.
const MAX_FINDINGS: usize = 20;
/// The most schema text (bytes of JSON) the remembered tools' compiled schemas hold together: a
/// compiled schema weighs tens of times its text, so past it a tool's schemas are not kept
/// (`mcp-schema-unusable`: "not checked: the tools' schema budget is spent").
pub const MAX_TOOL_SCHEMA_BYTES: usize = 4 << 20;

/// A tool's declared schemas, compiled (each only when usable: within the bounds above, and a
/// schema the engine compiles without fetching anything).
#[derive(Debug, Default)]
struct Schemas {
    input: Option<CompiledSchema>,
    output: Option<CompiledSchema>,
    /// The text bytes of the schemas kept (counted in [`ToolSchemas::tool_bytes`]).
    bytes: usize,
}

/// What a request waiting for its reply asked.
#[derive(Debug)]
enum Asked {
    List,
    /// A client's request: the tool it calls (for `tools/call`) and the call as a round knows it.
    Call {
        tool: Option<String>,
        call: String,
    },
    /// A handshake-era server's `elicitation/create`: its requested schema, when usable.
    Elicit(Option<CompiledSchema>),
}

/// The tools seen in `tools/list` results, the requests waiting for their replies, and the
/// elicitations of open input-required rounds, across the messages of one input or of a live
/// session (`jrpc tap`).
#[derive(Debug, Default)]
pub struct ToolSchemas {
    tools: HashMap<String, Schemas>,
    pending: HashMap<(u8, String), Asked>,
    /// By call (method and target): the schema bytes it holds, and each elicitation key of its
    /// open round with its schema.
    rounds: HashMap<String, (usize, Vec<(String, CompiledSchema)>)>,
    /// The schema bytes all open rounds hold (at most [`MAX_ROUND_SCHEMA_BYTES`]).
    round_bytes: usize,
    /// The schema bytes the remembered tools hold (at most [`MAX_TOOL_SCHEMA_BYTES`]).
    tool_bytes: usize,
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
/// Otherwise a [`SCHEMA_UNUSABLE`] finding at `path` says why (`what`: "the inputSchema of
/// \"add\"", ...).
fn usable(
    schema: Option<&Node<'_>>,
    what: &str,
    path: &str,
    out: &mut Vec<Violation>,
) -> Option<CompiledSchema> {
    let node = schema?;
    let why = if node.span.end.saturating_sub(node.span.start) > MAX_SCHEMA_BYTES {
        format!(
            "it is larger than {} KB, the most checked here",
            MAX_SCHEMA_BYTES / 1024
        )
    } else {
        let value = value_of(node);
        if depth(&value) > MAX_SCHEMA_DEPTH {
            format!("it nests deeper than {MAX_SCHEMA_DEPTH} levels, the most checked here")
        } else {
            match CompiledSchema::new(&value) {
                Ok(compiled) => match compiled.usable() {
                    Ok(()) => return Some(compiled),
                    Err(too_costly) => too_costly.to_string(),
                },
                Err(why) => format!("it does not compile as a JSON Schema: {why}"),
            }
        }
    };
    out.push(Violation::new(
        &SCHEMA_UNUSABLE,
        path.to_string(),
        node.span,
        format!("{what} cannot be checked against: {why}"),
    ));
    None
}

/// A client request as a round knows it: its method and what it names (a tool, prompt or uri).
fn call_of(method: &str, params: Option<&Node<'_>>) -> String {
    let target = ["name", "uri"]
        .iter()
        .find_map(|k| params.and_then(|p| p.get(k)).and_then(|n| n.as_str()));
    format!("{method}\u{0}{}", target.unwrap_or_default())
}

/// An accepted elicitation answer's `content` (at `{at}/content`) against `schema`; a declined
/// or cancelled one owes none.
fn answer_against(
    schema: &CompiledSchema,
    key: Option<&str>,
    answer: &Node<'_>,
    at: &str,
    out: &mut Vec<Violation>,
) {
    if answer.get("action").and_then(|a| a.as_str()) != Some("accept") {
        return;
    }
    let what = match key {
        Some(key) => format!("the answer to \"{key}\""),
        None => "the elicitation's answer".to_string(),
    };
    match answer.get("content") {
        Some(content) => against(
            &ELICITATION_ANSWER_INVALID,
            &format!("{what} (its content)"),
            schema,
            content,
            &format!("{at}/content"),
            out,
        ),
        None => {
            // Accepted without content: checked as the empty form it is.
            match schema.errors(&Value::Object(serde_json::Map::new())) {
                Ok(errors) => {
                    if let Some(e) = errors.first() {
                        out.push(Violation::new(
                            &ELICITATION_ANSWER_INVALID,
                            at.to_string(),
                            answer.span,
                            format!("{what} accepts the form without content: {}", e.message),
                        ));
                    }
                }
                Err(too_costly) => out.push(Violation::new(
                    &SCHEMA_UNUSABLE,
                    at.to_string(),
                    answer.span,
                    format!("{what}: {too_costly}"),
                )),
            }
        }
    }
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
    let errors = match schema.errors(&value_of(value)) {
        Ok(errors) => errors,
        Err(too_costly) => {
            out.push(Violation::new(
                &SCHEMA_UNUSABLE,
                path.to_string(),
                value.span,
                format!("{what}: {too_costly}"),
            ));
            return;
        }
    };
    let merged = crate::openrpc::document::by_place(errors);
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
                let Some(method) = d.method.as_deref() else {
                    return;
                };
                let params = node.get("params");
                let asked = match method {
                    "tools/list" => Asked::List,
                    "elicitation/create" => Asked::Elicit(usable(
                        params.and_then(|p| p.get("requestedSchema")),
                        "the elicitation's requestedSchema",
                        &format!("{base}/params/requestedSchema"),
                        &mut d.violations,
                    )),
                    _ => {
                        let tool = if method == "tools/call" {
                            let Some(name) =
                                params.and_then(|p| p.get("name")).and_then(|n| n.as_str())
                            else {
                                return;
                            };
                            self.arguments(name, params, base, &mut d.violations);
                            Some(name.to_string())
                        } else {
                            None
                        };
                        let call = call_of(method, params);
                        self.retried(&call, params, base, &mut d.violations);
                        Asked::Call { tool, call }
                    }
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
                let out = &mut d.violations;
                match asked {
                    Asked::List => self.listed(result, base, out),
                    Asked::Call { tool, call } => {
                        if result.get("resultType").and_then(|t| t.as_str())
                            == Some("input_required")
                        {
                            self.asked(call, result, base, out);
                        } else if let Some(name) = tool {
                            self.called(&name, result, base, out);
                        }
                    }
                    Asked::Elicit(Some(schema)) => {
                        answer_against(&schema, None, result, &format!("{base}/result"), out);
                    }
                    Asked::Elicit(None) => {}
                }
            }
            _ => {}
        }
    }

    /// Checks a `tools/call`'s `arguments` against the tool's `inputSchema`.
    fn arguments(
        &self,
        name: &str,
        params: Option<&Node<'_>>,
        base: &str,
        out: &mut Vec<Violation>,
    ) {
        let input = self.tools.get(name).and_then(|t| t.input.as_ref());
        if let (Some(schema), Some(arguments)) = (input, params.and_then(|p| p.get("arguments"))) {
            against(
                &TOOL_ARGUMENTS_INVALID,
                &format!("the arguments of \"{name}\""),
                schema,
                arguments,
                &format!("{base}/params/arguments"),
                out,
            );
        }
    }

    /// Remembers the elicitations an input-required result asks of `call` (replacing what an
    /// earlier round of it asked).
    fn asked(&mut self, call: String, result: &Node<'_>, base: &str, out: &mut Vec<Violation>) {
        let mut schemas = Vec::new();
        let mut bytes = 0;
        let requests = result.get("inputRequests");
        for m in requests
            .map_or(&[][..], |r| r.members())
            .iter()
            .take(MAX_ASKED)
        {
            let request = &m.value;
            if request.get("method").and_then(|x| x.as_str()) != Some("elicitation/create") {
                continue;
            }
            let path = format!(
                "{base}/result/inputRequests/{}/params/requestedSchema",
                escape_token(&m.key)
            );
            let what = format!("the requestedSchema of \"{}\"", m.key);
            let schema = request.get("params").and_then(|p| p.get("requestedSchema"));
            if let Some(compiled) = usable(schema, &what, &path, out) {
                bytes += schema.map_or(0, |n| n.span.end.saturating_sub(n.span.start));
                schemas.push((m.key.to_string(), compiled));
            }
        }
        self.close(&call);
        let fits = self.round_bytes + bytes <= MAX_ROUND_SCHEMA_BYTES;
        if !schemas.is_empty() && self.rounds.len() < MAX_ROUNDS && fits {
            self.round_bytes += bytes;
            self.rounds.insert(call, (bytes, schemas));
        }
    }

    /// Forgets the open round of `call`, giving back its bytes; what it asked, if any.
    fn close(&mut self, call: &str) -> Option<Vec<(String, CompiledSchema)>> {
        let (bytes, asked) = self.rounds.remove(call)?;
        self.round_bytes -= bytes;
        Some(asked)
    }

    /// The schema bytes the open rounds hold now.
    pub fn round_bytes(&self) -> usize {
        self.round_bytes
    }

    /// A request of `call` while its round is open: a retry (it carries `inputResponses` or
    /// `requestState`) has each accepted elicitation answer checked against its schema; either way
    /// the round is closed (a fresh call abandons it).
    fn retried(
        &mut self,
        call: &str,
        params: Option<&Node<'_>>,
        base: &str,
        out: &mut Vec<Violation>,
    ) {
        let Some(asked) = self.close(call) else {
            return;
        };
        let Some(responses) = params.and_then(|p| p.get("inputResponses")) else {
            return;
        };
        for (key, schema) in &asked {
            if let Some(answer) = responses.get(key) {
                let at = format!("{base}/params/inputResponses/{}", escape_token(key));
                answer_against(schema, Some(key), answer, &at, out);
            }
        }
    }

    /// Remembers the tools a `tools/list` result declares.
    fn listed(&mut self, result: &Node<'_>, base: &str, out: &mut Vec<Violation>) {
        let Some(Tree::Array(tools)) = result.get("tools").map(|t| &t.value) else {
            return;
        };
        for (i, tool) in tools.iter().enumerate() {
            let Some(name) = tool.get("name").and_then(|n| n.as_str()) else {
                continue;
            };
            if self.tools.len() >= MAX_TOOLS && !self.tools.contains_key(name) {
                continue;
            }
            // A tool listed again gives back what its earlier schemas held.
            if let Some(earlier) = self.tools.remove(name) {
                self.tool_bytes -= earlier.bytes;
            }
            let mut bytes = 0;
            let mut schema = |member: &str| {
                let node = tool.get(member)?;
                let path = format!("{base}/result/tools/{i}/{member}");
                let text_bytes = node.span.end.saturating_sub(node.span.start);
                if self.tool_bytes + bytes + text_bytes > MAX_TOOL_SCHEMA_BYTES {
                    out.push(Violation::new(
                        &SCHEMA_UNUSABLE,
                        path,
                        node.span,
                        format!(
                            "the {member} of \"{name}\" is not checked: the tools' schema budget is spent ({} KB of schemas kept, at most {} KB)",
                            (self.tool_bytes + bytes) / 1024,
                            MAX_TOOL_SCHEMA_BYTES / 1024
                        ),
                    ));
                    return None;
                }
                let compiled = usable(
                    Some(node),
                    &format!("the {member} of \"{name}\""),
                    &path,
                    out,
                )?;
                bytes += text_bytes;
                Some(compiled)
            };
            let input = schema("inputSchema");
            let output = schema("outputSchema");
            self.tool_bytes += bytes;
            self.tools.insert(
                name.to_string(),
                Schemas {
                    input,
                    output,
                    bytes,
                },
            );
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
