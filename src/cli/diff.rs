//! `jrpc diff A B`: what changed between two interfaces — each an OpenRPC document, a transcript
//! (its recorded listings: tools/list, resources/list, resources/templates/list, prompts/list,
//! the initialize or server/discover result, rpc.discover) or a live server (its listings fetched
//! over the probe's links, then read as a transcript). Added, removed and changed methods, tools,
//! resources, resource templates, prompts, capabilities and protocol revisions, each with a JSON
//! pointer, and breaking changes marked (see [`Change::breaking`] and docs/replay.md).
//!
//! Exit status: 0 nothing at or above `--fail-on`, 1 a change at or above it, 2 a usage error or
//! an input that cannot be read.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::process::ExitCode;

use serde_json::{json, Value};

use super::diagnostic::printable;
use super::recording::{read_bounded, Recording};

/// Compare two interfaces: OpenRPC documents, transcripts or servers.
///
/// A and B are each a file — an OpenRPC document (JSON with an `openrpc` member) or a `-->` /
/// `<--` transcript, as `jrpc tap --transcript` and `jrpc probe --transcript` write — or a server:
/// an http(s):// or ws(s):// URL, or (B only) a command after `--`. Of a server, its listings are
/// fetched (initialize, tools/list, resources/list, resources/templates/list, prompts/list, each
/// page of them); nothing is called. Prints what was added, removed and changed, breaking changes
/// marked.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  jrpc diff petstore-v1.json petstore-v2.json
  jrpc diff yesterday.txt today.txt --format json
  jrpc diff recorded.txt -- ./my-server --stdio
  jrpc diff http://127.0.0.1:8766/mcp http://127.0.0.1:9766/mcp --fail-on any

Breaking: a removed method, tool, prompt, resource, capability or revision; a new required param
(or property, or prompt argument); a param made required; a narrowed type or a removed enum value
of an input; a widened type, a new enum value or a property no longer guaranteed in a result.

Exit status: 0 no change at or above --fail-on, 1 one or more, 2 a usage error or an input that
cannot be read.")]
pub struct Args {
    /// The old interface: an OpenRPC document, a transcript, or a server URL
    #[arg(value_name = "A")]
    a: String,
    /// The new interface: an OpenRPC document, a transcript, or a server URL (or a command after --)
    #[arg(value_name = "B")]
    b: Option<String>,
    /// Which changes exit 1: breaking ones, any, or none
    #[arg(long, value_enum, default_value_t = FailOn::Breaking)]
    fail_on: FailOn,
    /// Output: text, or a JSON report
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// How long one request to a server may wait for its reply, in seconds
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = super::replay::seconds)]
    timeout: std::time::Duration,
    /// How long fetching a server's listings may take, in seconds
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = super::replay::seconds)]
    total_timeout: std::time::Duration,
    /// The server B to start, and its arguments (after `--`)
    #[arg(last = true, value_name = "CMD")]
    command: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum FailOn {
    Breaking,
    Any,
    None,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Json,
}

/// The most schema nodes one diff compares; past it the diff says it stopped.
pub const MAX_SCHEMA_NODES: usize = 1_000_000;
/// The deepest schema nesting compared (`$ref`s followed count as a level).
const MAX_SCHEMA_DEPTH: usize = 64;

/// One difference.
#[derive(Clone, Debug)]
pub struct Change {
    /// `added`, `removed` or `changed`.
    pub kind: &'static str,
    /// `method`, `tool`, `resource`, `resourceTemplate`, `prompt`, `capability`, `revision`.
    pub what: &'static str,
    pub name: String,
    /// Where in the item (a JSON pointer; empty for the item itself).
    pub pointer: String,
    pub old: Option<Value>,
    pub new: Option<Value>,
    /// Whether a client written for A may fail against B.
    pub breaking: bool,
    /// Why, in words.
    pub why: String,
}

/// What one side offers.
#[derive(Debug, Default)]
pub struct Interface {
    /// Items by (kind, name): the item's description as JSON.
    items: BTreeMap<(&'static str, String), Value>,
    /// The document the items' `$ref`s point into (an OpenRPC document).
    root: Value,
    capabilities: Option<Value>,
    revisions: Option<BTreeSet<String>>,
    /// How the revisions were learned: `listed` (server/discover's supportedVersions: all of
    /// them), or `asked V` (the one initialize agreed on when the client asked for V).
    revisions_from: String,
}

/// Runs `jrpc diff`.
pub fn main(args: Args) -> ExitCode {
    let b = match (&args.b, args.command.is_empty()) {
        (Some(b), true) => Source::Named(b.clone()),
        (None, false) => Source::Command(args.command.clone()),
        (Some(_), false) => {
            return super::usage_error(
                "diff",
                clap::error::ErrorKind::ArgumentConflict,
                "give B either as a file or URL, or as a command after --, not both",
            )
        }
        (None, true) => {
            return super::usage_error(
                "diff",
                clap::error::ErrorKind::MissingRequiredArgument,
                "B is missing: a second document, transcript or server (or a command after --)",
            )
        }
    };
    let deadlines = (args.timeout, args.total_timeout);
    let old = match read_interface(&Source::Named(args.a.clone()), deadlines) {
        Ok(old) => old,
        Err(message) => {
            eprintln!("jrpc diff: {}", printable(&message));
            return ExitCode::from(2);
        }
    };
    let new = match read_interface(&b, deadlines) {
        Ok(new) => new,
        Err(message) => {
            eprintln!("jrpc diff: {}", printable(&message));
            return ExitCode::from(2);
        }
    };
    let mut differ = Differ::default();
    differ.interfaces(&old, &new);
    let changes = differ.changes;
    let breaking = changes.iter().filter(|c| c.breaking).count();
    let b_name = match &b {
        Source::Named(name) => name.clone(),
        Source::Command(command) => command.join(" "),
    };
    let mut out = Vec::new();
    match args.format {
        Format::Text => {
            let _ = writeln!(
                out,
                "jrpc diff: {} → {}",
                printable(&args.a),
                printable(&b_name)
            );
            for change in &changes {
                let _ = writeln!(out, "{}", text_line(change));
            }
            if differ.truncated {
                let _ = writeln!(
                    out,
                    "note: stopped comparing schemas after {MAX_SCHEMA_NODES} nodes"
                );
            }
            let _ = writeln!(
                out,
                "result: {} change(s), {breaking} breaking",
                changes.len()
            );
        }
        Format::Json => {
            let report = json!({
                "a": args.a,
                "b": b_name,
                "changes": changes.iter().map(change_json).collect::<Vec<_>>(),
                "breaking": breaking,
                "total": changes.len(),
                "truncated": differ.truncated,
            });
            let _ = writeln!(out, "{report:#}");
        }
    }
    let written = super::write_stdout(&out);
    if written != ExitCode::SUCCESS {
        return written;
    }
    let fail = match args.fail_on {
        FailOn::Breaking => breaking > 0,
        FailOn::Any => !changes.is_empty(),
        FailOn::None => false,
    };
    ExitCode::from(u8::from(fail))
}

fn text_line(change: &Change) -> String {
    let mut line = format!(
        "  {:<8} {} {}",
        change.kind,
        change.what,
        printable(&change.name)
    );
    if !change.pointer.is_empty() {
        line.push(' ');
        line.push_str(&printable(&change.pointer));
    }
    if change.breaking {
        line.push_str("  BREAKING");
    }
    line.push_str(&format!(": {}", printable(&change.why)));
    if change.kind == "changed" {
        let shown = |v: &Option<Value>| {
            v.as_ref().map_or("(absent)".to_string(), |v| {
                let text = v.to_string();
                if text.chars().count() > 80 {
                    format!("{}…", text.chars().take(80).collect::<String>())
                } else {
                    text
                }
            })
        };
        line.push_str(&format!(
            " ({} → {})",
            printable(&shown(&change.old)),
            printable(&shown(&change.new))
        ));
    }
    line
}

fn change_json(change: &Change) -> Value {
    json!({
        "kind": change.kind,
        "what": change.what,
        "name": change.name,
        "pointer": change.pointer,
        "old": change.old,
        "new": change.new,
        "breaking": change.breaking,
        "why": change.why,
    })
}

/// A or B as given.
pub enum Source {
    /// A file or a URL.
    Named(String),
    /// A command to start (after `--`).
    Command(Vec<String>),
}

/// Reads one side: a server's listings, a transcript or an OpenRPC document.
fn read_interface(
    source: &Source,
    deadlines: (std::time::Duration, std::time::Duration),
) -> Result<Interface, String> {
    let name = match source {
        Source::Command(command) => {
            let transcript = super::replay::listings(None, command, deadlines)?;
            return from_transcript(&command.join(" "), transcript.as_bytes());
        }
        Source::Named(name) => name,
    };
    let lower = name.to_ascii_lowercase();
    if ["http://", "https://", "ws://", "wss://"]
        .iter()
        .any(|scheme| lower.starts_with(scheme))
    {
        let transcript = super::replay::listings(Some(name), &[], deadlines)?;
        return from_transcript(name, transcript.as_bytes());
    }
    let bytes = read_bounded(name, super::recording::MAX_TRANSCRIPT_BYTES)?;
    if crate::json::has_marker_line(&bytes) {
        return from_transcript(name, &bytes);
    }
    from_document(name, &bytes)
}

/// An OpenRPC document's methods.
fn from_document(name: &str, bytes: &[u8]) -> Result<Interface, String> {
    let doc = crate::openrpc::OpenRpc::load(bytes).map_err(|e| {
        let first = e
            .violations
            .first()
            .map(|v| format!(": {} (at {})", v.message, if v.path.is_empty() { "/" } else { &v.path }))
            .unwrap_or_default();
        format!(
            "{name}: neither a transcript (no `-->` / `<--` line) nor an OpenRPC document that can be used ({} problem(s){first})",
            e.violations.len()
        )
    })?;
    let mut interface = Interface {
        root: doc.value().clone(),
        ..Interface::default()
    };
    for method in doc.methods() {
        let params: Vec<Value> = method
            .params
            .iter()
            .map(|param| {
                let schema = doc
                    .resolved(&param.schema_pointer)
                    .map_or(Value::Null, |(schema, _)| schema.clone());
                json!({"name": param.name, "required": param.required, "schema": schema})
            })
            .collect();
        let result = method.result.as_ref().map(|result| {
            doc.resolved(&result.schema_pointer)
                .map_or(Value::Null, |(schema, _)| schema.clone())
        });
        let structure = match method.param_structure {
            crate::openrpc::ParamStructure::ByName => "by-name",
            crate::openrpc::ParamStructure::ByPosition => "by-position",
            crate::openrpc::ParamStructure::Either => "either",
        };
        interface.items.insert(
            ("method", method.name.clone()),
            json!({"params": params, "result": result, "paramStructure": structure}),
        );
    }
    Ok(interface)
}

/// A transcript's recorded listings (or, with none, the methods it recorded answered).
fn from_transcript(name: &str, bytes: &[u8]) -> Result<Interface, String> {
    let mut recording = Recording::default();
    recording.add(name, bytes)?;
    let mut interface = Interface::default();
    let mut mcp = false;
    let mut answered = BTreeSet::new();
    for exchange in &recording.exchanges {
        let Some(reply) = exchange.reply() else {
            continue;
        };
        let Ok(reply) = serde_json::from_str::<Value>(&reply.text) else {
            continue;
        };
        let Some(result) = reply.get("result") else {
            continue;
        };
        answered.insert(exchange.method.clone());
        let list = |key: &str| {
            result
                .get(key)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        };
        match exchange.method.as_str() {
            "initialize" => {
                mcp = true;
                interface.capabilities = result.get("capabilities").cloned();
                if interface.revisions_from != "listed" {
                    let asked: Value =
                        serde_json::from_str(&exchange.params).unwrap_or(Value::Null);
                    interface.revisions_from = format!(
                        "asked {}",
                        asked.get("protocolVersion").unwrap_or(&Value::Null)
                    );
                    interface.revisions = None;
                }
                if let Some(version) = result.get("protocolVersion").and_then(Value::as_str) {
                    interface
                        .revisions
                        .get_or_insert_with(BTreeSet::new)
                        .insert(version.to_string());
                }
            }
            "server/discover" => {
                mcp = true;
                interface.capabilities = result.get("capabilities").cloned();
                if interface.revisions_from != "listed" {
                    interface.revisions = None;
                    interface.revisions_from = "listed".into();
                }
                for version in list("supportedVersions") {
                    if let Some(version) = version.as_str() {
                        interface
                            .revisions
                            .get_or_insert_with(BTreeSet::new)
                            .insert(version.to_string());
                    }
                }
            }
            "rpc.discover" => {
                let text = result.to_string();
                if let Ok(doc) = from_document(name, text.as_bytes()) {
                    interface.root = doc.root;
                    interface.items.extend(doc.items);
                }
            }
            "tools/list" => add_listed(&mut interface, "tool", "name", &list("tools")),
            "resources/list" => add_listed(&mut interface, "resource", "uri", &list("resources")),
            "resources/templates/list" => add_listed(
                &mut interface,
                "resourceTemplate",
                "uriTemplate",
                &list("resourceTemplates"),
            ),
            "prompts/list" => add_listed(&mut interface, "prompt", "name", &list("prompts")),
            _ => {}
        }
    }
    if !mcp && interface.items.is_empty() {
        for method in answered {
            interface.items.insert(("method", method), json!({}));
        }
    }
    Ok(interface)
}

/// Adds the listed items (each found by its `key` member), leaving out `_meta` (volatile).
fn add_listed(interface: &mut Interface, what: &'static str, key: &str, listed: &[Value]) {
    for item in listed {
        let Some(name) = item.get(key).and_then(Value::as_str) else {
            continue;
        };
        let mut item = item.clone();
        if let Some(object) = item.as_object_mut() {
            object.remove("_meta");
        }
        if what == "prompt" {
            // Arguments compared as params: by name, required or not.
            if let Some(arguments) = item.get("arguments").and_then(Value::as_array).cloned() {
                let params: Vec<Value> = arguments
                    .iter()
                    .map(|a| {
                        json!({
                            "name": a.get("name").cloned().unwrap_or(Value::Null),
                            "required": a.get("required").and_then(Value::as_bool).unwrap_or(false),
                            "schema": {},
                        })
                    })
                    .collect();
                item["params"] = Value::Array(params);
                if let Some(object) = item.as_object_mut() {
                    object.remove("arguments");
                }
            }
        }
        interface.items.insert((what, name.to_string()), item);
    }
}

/// Whether a schema is read by the server (params: narrowing breaks callers) or written by it
/// (results: widening breaks callers).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Input,
    Output,
}

fn input_side(direction: Direction) -> bool {
    direction == Direction::Input
}

#[derive(Default)]
struct Differ {
    /// Whether the two sides' `$ref` targets are the same (then equal schemas as written are
    /// equal; else they are walked, as what their `$ref`s point to may differ).
    same_roots: bool,
    changes: Vec<Change>,
    nodes: usize,
    truncated: bool,
    /// The (`$ref`, `$ref`) pairs compared already: a schema reached again through the same
    /// references is not walked again (a recursive type is compared once, where first met).
    /// Per item and direction (emptied for each item).
    refs_compared: BTreeSet<(bool, String, String)>,
}

/// The JSON pointer token of `name`.
fn token(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

impl Differ {
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        kind: &'static str,
        what: &'static str,
        name: &str,
        pointer: String,
        old: Option<Value>,
        new: Option<Value>,
        breaking: bool,
        why: impl Into<String>,
    ) {
        self.changes.push(Change {
            kind,
            what,
            name: name.to_string(),
            pointer,
            old,
            new,
            breaking,
            why: why.into(),
        });
    }

    fn interfaces(&mut self, old: &Interface, new: &Interface) {
        self.same_roots = old.root == new.root;
        for ((what, name), item) in &old.items {
            match new.items.get(&(*what, name.clone())) {
                None => self.push(
                    "removed",
                    what,
                    name,
                    String::new(),
                    Some(item.clone()),
                    None,
                    true,
                    format!("the {what} is gone"),
                ),
                Some(new_item) => self.item(what, name, item, new_item, old, new),
            }
        }
        for ((what, name), item) in &new.items {
            if !old.items.contains_key(&(*what, name.clone())) {
                self.push(
                    "added",
                    what,
                    name,
                    String::new(),
                    None,
                    Some(item.clone()),
                    false,
                    format!("a new {what}"),
                );
            }
        }
        // Revisions compare when both sides listed theirs, or both agreed on one asked the same.
        let comparable = old.revisions_from == new.revisions_from;
        if let (Some(a), Some(b), true) = (&old.revisions, &new.revisions, comparable) {
            for gone in a.difference(b) {
                self.push(
                    "removed",
                    "revision",
                    gone,
                    String::new(),
                    None,
                    None,
                    true,
                    "the protocol revision is no longer spoken",
                );
            }
            for added in b.difference(a) {
                self.push(
                    "added",
                    "revision",
                    added,
                    String::new(),
                    None,
                    None,
                    false,
                    "a protocol revision spoken now",
                );
            }
        }
        if let (Some(a), Some(b)) = (&old.capabilities, &new.capabilities) {
            self.capabilities("", a, b);
        }
    }

    fn capabilities(&mut self, pointer: &str, a: &Value, b: &Value) {
        match (a.as_object(), b.as_object()) {
            (Some(a), Some(b)) => {
                for (key, value) in a {
                    let here = format!("{pointer}/{}", token(key));
                    match b.get(key) {
                        None => self.push(
                            "removed",
                            "capability",
                            &here,
                            String::new(),
                            Some(value.clone()),
                            None,
                            true,
                            "the capability is no longer declared",
                        ),
                        Some(other) => self.capabilities(&here, value, other),
                    }
                }
                for (key, value) in b {
                    if !a.contains_key(key) {
                        let here = format!("{pointer}/{}", token(key));
                        self.push(
                            "added",
                            "capability",
                            &here,
                            String::new(),
                            None,
                            Some(value.clone()),
                            false,
                            "a capability declared now",
                        );
                    }
                }
            }
            _ if a != b => {
                let breaking = a == &Value::Bool(true) && b != &Value::Bool(true);
                self.push(
                    "changed",
                    "capability",
                    pointer,
                    String::new(),
                    Some(a.clone()),
                    Some(b.clone()),
                    breaking,
                    if breaking {
                        "no longer offered"
                    } else {
                        "changed"
                    },
                );
            }
            _ => {}
        }
    }

    fn item(
        &mut self,
        what: &'static str,
        name: &str,
        a: &Value,
        b: &Value,
        old: &Interface,
        new: &Interface,
    ) {
        if a == b && self.same_roots {
            return;
        }
        self.refs_compared.clear();
        let empty = Value::Null;
        // Params (OpenRPC methods, prompt arguments): by name.
        if let (Some(pa), Some(pb)) = (
            a.get("params").and_then(Value::as_array),
            b.get("params").and_then(Value::as_array),
        ) {
            let named = |list: &Vec<Value>| -> Vec<(String, bool, Value)> {
                list.iter()
                    .map(|p| {
                        (
                            p.get("name")
                                .and_then(Value::as_str)
                                .unwrap_or("")
                                .to_string(),
                            p.get("required").and_then(Value::as_bool).unwrap_or(false),
                            p.get("schema").cloned().unwrap_or(Value::Null),
                        )
                    })
                    .collect()
            };
            let (pa, pb) = (named(pa), named(pb));
            for (i, (param, required, schema)) in pa.iter().enumerate() {
                let here = format!("/params/{}", token(param));
                match pb.iter().position(|(n, _, _)| n == param) {
                    None => self.push(
                        "removed",
                        what,
                        name,
                        here,
                        Some(schema.clone()),
                        None,
                        true,
                        "a param removed (callers that send it are refused or ignored)",
                    ),
                    Some(j) => {
                        let (_, now_required, now_schema) = &pb[j];
                        if *now_required && !required {
                            self.push(
                                "changed",
                                what,
                                name,
                                format!("{here}/required"),
                                Some(json!(false)),
                                Some(json!(true)),
                                true,
                                "the param is now required",
                            );
                        } else if !now_required && *required {
                            self.push(
                                "changed",
                                what,
                                name,
                                format!("{here}/required"),
                                Some(json!(true)),
                                Some(json!(false)),
                                false,
                                "the param is now optional",
                            );
                        }
                        if i != j && a.get("paramStructure") != Some(&json!("by-name")) {
                            self.push(
                                "changed",
                                what,
                                name,
                                format!("{here}/position"),
                                Some(json!(i)),
                                Some(json!(j)),
                                true,
                                "the param moved (by-position callers send it in the wrong place)",
                            );
                        }
                        self.schema(
                            what,
                            name,
                            format!("{here}/schema"),
                            schema,
                            now_schema,
                            Direction::Input,
                            old,
                            new,
                            0,
                        );
                    }
                }
            }
            for (param, required, schema) in &pb {
                if !pa.iter().any(|(n, _, _)| n == param) {
                    let here = format!("/params/{}", token(param));
                    if *required {
                        self.push(
                            "added",
                            what,
                            name,
                            here,
                            None,
                            Some(schema.clone()),
                            true,
                            "a new required param",
                        );
                    } else {
                        self.push(
                            "added",
                            what,
                            name,
                            here,
                            None,
                            Some(schema.clone()),
                            false,
                            "a new optional param",
                        );
                    }
                }
            }
        }
        if let (Some(sa), Some(sb)) = (a.get("paramStructure"), b.get("paramStructure")) {
            if sa != sb {
                let breaking = sa == "either" || sb != "either";
                self.push(
                    "changed",
                    what,
                    name,
                    "/paramStructure".into(),
                    Some(sa.clone()),
                    Some(sb.clone()),
                    breaking,
                    if breaking {
                        "callers of the old structure are refused"
                    } else {
                        "both structures accepted now"
                    },
                );
            }
        }
        for (key, direction) in [
            ("result", Direction::Output),
            ("inputSchema", Direction::Input),
            ("outputSchema", Direction::Output),
        ] {
            match (a.get(key), b.get(key)) {
                (None, None) => {}
                (Some(sa), Some(sb)) => self.schema(
                    what,
                    name,
                    format!("/{key}"),
                    sa,
                    sb,
                    direction,
                    old,
                    new,
                    0,
                ),
                (Some(sa), None) => {
                    let breaking = key != "outputSchema";
                    self.push(
                        "removed",
                        what,
                        name,
                        format!("/{key}"),
                        Some(sa.clone()),
                        None,
                        breaking,
                        if key == "result" {
                            "no result any more (a notification)"
                        } else {
                            "removed"
                        },
                    );
                }
                (None, Some(sb)) => self.push(
                    "added",
                    what,
                    name,
                    format!("/{key}"),
                    None,
                    Some(sb.clone()),
                    key == "result",
                    "added",
                ),
            }
        }
        // Everything else (title, description, mimeType, annotations…): said, not breaking.
        if let (Some(oa), Some(ob)) = (a.as_object(), b.as_object()) {
            for (key, value) in oa {
                if matches!(
                    key.as_str(),
                    "params" | "paramStructure" | "result" | "inputSchema" | "outputSchema"
                ) {
                    continue;
                }
                let now = ob.get(key).unwrap_or(&empty);
                if now != value {
                    self.push(
                        "changed",
                        what,
                        name,
                        format!("/{}", token(key)),
                        Some(value.clone()),
                        ob.get(key).cloned(),
                        false,
                        "changed",
                    );
                }
            }
            for (key, value) in ob {
                if !oa.contains_key(key)
                    && !matches!(
                        key.as_str(),
                        "params" | "paramStructure" | "result" | "inputSchema" | "outputSchema"
                    )
                {
                    self.push(
                        "added",
                        what,
                        name,
                        format!("/{}", token(key)),
                        None,
                        Some(value.clone()),
                        false,
                        "added",
                    );
                }
            }
        }
    }

    /// Follows a local `$ref` (`#/…`) of `schema` into `root`.
    fn resolve<'v>(schema: &'v Value, root: &'v Value) -> &'v Value {
        let mut schema = schema;
        for _ in 0..MAX_SCHEMA_DEPTH {
            match schema.get("$ref").and_then(Value::as_str) {
                Some(reference) if reference.starts_with('#') => {
                    match root.pointer(&reference[1..]) {
                        Some(target) => schema = target,
                        None => return schema,
                    }
                }
                _ => return schema,
            }
        }
        schema
    }

    #[allow(clippy::too_many_arguments)]
    fn schema(
        &mut self,
        what: &'static str,
        name: &str,
        pointer: String,
        a: &Value,
        b: &Value,
        direction: Direction,
        old: &Interface,
        new: &Interface,
        depth: usize,
    ) {
        if self.truncated {
            return;
        }
        self.nodes += 1;
        if self.nodes > MAX_SCHEMA_NODES || depth > MAX_SCHEMA_DEPTH {
            self.truncated = true;
            return;
        }
        if let (Some(ref_a), Some(ref_b)) = (
            a.get("$ref").and_then(Value::as_str),
            b.get("$ref").and_then(Value::as_str),
        ) {
            if !self.refs_compared.insert((
                input_side(direction),
                ref_a.to_string(),
                ref_b.to_string(),
            )) {
                return;
            }
        }
        let a = Self::resolve(a, &old.root);
        let b = Self::resolve(b, &new.root);
        if a == b && (self.same_roots || !a.to_string().contains("\"$ref\"")) {
            return;
        }
        let input = direction == Direction::Input;
        let types = |s: &Value| -> Option<BTreeSet<String>> {
            match s.get("type")? {
                Value::String(t) => Some([t.clone()].into()),
                Value::Array(ts) => Some(
                    ts.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect(),
                ),
                _ => None,
            }
        };
        let (ta, tb) = (types(a), types(b));
        if ta != tb {
            // None: any type.
            let narrowed = match (&ta, &tb) {
                (None, Some(_)) => true,
                (Some(_), None) => false,
                (Some(x), Some(y)) => !x.is_subset(y),
                (None, None) => false,
            };
            let widened = match (&ta, &tb) {
                (None, Some(_)) => false,
                (Some(_), None) => true,
                (Some(x), Some(y)) => !y.is_subset(x),
                (None, None) => false,
            };
            let breaking = if input { narrowed } else { widened };
            let why = match (narrowed, widened) {
                (true, false) => "a narrowed type",
                (false, true) => "a widened type",
                _ => "another type",
            };
            self.push(
                "changed",
                what,
                name,
                format!("{pointer}/type"),
                a.get("type").cloned(),
                b.get("type").cloned(),
                breaking,
                why,
            );
        }
        if let (Some(ea), Some(eb)) = (
            a.get("enum").and_then(Value::as_array),
            b.get("enum").and_then(Value::as_array),
        ) {
            for value in ea {
                if !eb.contains(value) {
                    self.push(
                        "removed",
                        what,
                        name,
                        format!("{pointer}/enum"),
                        Some(value.clone()),
                        None,
                        input,
                        "an enum value removed",
                    );
                }
            }
            for value in eb {
                if !ea.contains(value) {
                    self.push(
                        "added",
                        what,
                        name,
                        format!("{pointer}/enum"),
                        None,
                        Some(value.clone()),
                        !input,
                        "an enum value added",
                    );
                }
            }
        } else if a.get("enum") != b.get("enum") {
            let breaking = if input {
                b.get("enum").is_some()
            } else {
                a.get("enum").is_some()
            };
            self.push(
                "changed",
                what,
                name,
                format!("{pointer}/enum"),
                a.get("enum").cloned(),
                b.get("enum").cloned(),
                breaking,
                "the allowed values changed",
            );
        }
        let required = |s: &Value| -> BTreeSet<String> {
            s.get("required")
                .and_then(Value::as_array)
                .map(|r| {
                    r.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default()
        };
        let (ra, rb) = (required(a), required(b));
        let empty = serde_json::Map::new();
        let pa = a
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let pb = b
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        for (key, schema) in pa {
            let here = format!("{pointer}/properties/{}", token(key));
            match pb.get(key) {
                None => self.push(
                    "removed",
                    what,
                    name,
                    here,
                    Some(schema.clone()),
                    None,
                    true,
                    if input {
                        "a property removed (callers that send it may be refused)"
                    } else {
                        "a property the callers read is gone"
                    },
                ),
                Some(now) => self.schema(
                    what,
                    name,
                    here,
                    schema,
                    now,
                    direction,
                    old,
                    new,
                    depth + 1,
                ),
            }
        }
        for (key, schema) in pb {
            if !pa.contains_key(key) {
                let here = format!("{pointer}/properties/{}", token(key));
                let now_required = rb.contains(key);
                let breaking = input && now_required;
                self.push(
                    "added",
                    what,
                    name,
                    here,
                    None,
                    Some(schema.clone()),
                    breaking,
                    if breaking {
                        "a new required param"
                    } else {
                        "a new optional property"
                    },
                );
            }
        }
        for key in rb.difference(&ra) {
            if pa.contains_key(key) {
                self.push(
                    "changed",
                    what,
                    name,
                    format!("{pointer}/required"),
                    None,
                    Some(json!(key)),
                    input,
                    if input {
                        "a param made required"
                    } else {
                        "a property now always present"
                    },
                );
            }
        }
        for key in ra.difference(&rb) {
            if pb.contains_key(key) {
                self.push(
                    "changed",
                    what,
                    name,
                    format!("{pointer}/required"),
                    Some(json!(key)),
                    None,
                    !input,
                    if input {
                        "a param made optional"
                    } else {
                        "a property no longer always present"
                    },
                );
            }
        }
        match (a.get("items"), b.get("items")) {
            (Some(ia), Some(ib)) => self.schema(
                what,
                name,
                format!("{pointer}/items"),
                ia,
                ib,
                direction,
                old,
                new,
                depth + 1,
            ),
            (ia, ib) if ia != ib => self.push(
                "changed",
                what,
                name,
                format!("{pointer}/items"),
                ia.cloned(),
                ib.cloned(),
                false,
                "the items' schema changed",
            ),
            _ => {}
        }
        for keyword in [
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "minLength",
            "maxLength",
            "pattern",
            "format",
            "minItems",
            "maxItems",
            "const",
            "additionalProperties",
        ] {
            if a.get(keyword) != b.get(keyword) {
                self.push(
                    "changed",
                    what,
                    name,
                    format!("{pointer}/{keyword}"),
                    a.get(keyword).cloned(),
                    b.get(keyword).cloned(),
                    false,
                    "a constraint changed (check whether it narrows)",
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn document(extra_property: &str) -> Interface {
        let doc = format!(
            r##"{{"openrpc":"1.3.2","info":{{"title":"t","version":"1"}},"methods":[{{"name":"walk","params":[{{"name":"tree","schema":{{"$ref":"#/components/schemas/Tree"}}}}],"result":{{"name":"r","schema":{{"type":"integer"}}}}}}],
            "components":{{"schemas":{{"Tree":{{"type":"object","properties":{{"left":{{"$ref":"#/components/schemas/Tree"}},"right":{{"$ref":"#/components/schemas/Tree"}}{extra_property}}}}}}}}}}}"##
        );
        from_document("t.json", doc.as_bytes()).expect("a document")
    }

    /// A recursive schema whose target differs between the sides (two self-references a level:
    /// 2^64 paths) is compared once, where first met.
    #[test]
    fn a_recursive_schema_is_compared_once() {
        let old = document("");
        let new = document(r#","label":{"type":"string"}"#);
        let started = std::time::Instant::now();
        let mut differ = Differ::default();
        differ.interfaces(&old, &new);
        assert!(!differ.truncated);
        assert!(differ.nodes < 10, "{} nodes", differ.nodes);
        assert!(differ
            .changes
            .iter()
            .any(|c| c.pointer == "/params/tree/schema/properties/label" && !c.breaking));
        assert!(started.elapsed() < std::time::Duration::from_secs(60));
    }
}
