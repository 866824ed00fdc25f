//! A mock of the API a document describes (`jrpc serve --openrpc DOC`): a call matching an
//! example pairing gets that example's result exactly; another valid call gets a deterministic
//! value generated from the result schema; an unknown method -32601 (with the nearest names in
//! `data`); invalid params -32602 with the validator's findings in `data`; a request to a method
//! without a result (a notification only) -32600 with the validator's finding in `data`;
//! `rpc.discover` returns the document. JSON-RPC's own errors (-32700, -32600) as the specification says.

use std::collections::{HashMap, HashSet};

use serde_json::{json, Map, Value};

use crate::json::parse_document;
use crate::reply_bound::{MAX_REPLY, REPLY_TOO_LARGE};
use crate::rpc::{self, Kind, Profile};

use super::document::{value_of, Example, Method, OpenRpc, Param, ParamStructure};
use super::messages::Pairing;
use super::nearest::{not_searched, Nearest, Suggestions};

/// How deep a generated value goes (a recursive schema is cut there with `null`).
const MAX_DEPTH: usize = 16;
/// The most values one generated result (or one call's params) holds; past it, `null`.
const MAX_VALUES: usize = 10_000;

/// The most findings a -32602 reply lists, and the most bytes they take (each path and message
/// cut at [`MAX_FINDING_TEXT`] bytes); `data.omitted` counts those left out.
const MAX_REPLY_FINDINGS: usize = 100;
const MAX_FINDINGS_BYTES: usize = 1 << 20;
const MAX_FINDING_TEXT: usize = 4096;

/// `text` cut at [`MAX_FINDING_TEXT`] bytes (on a character boundary), with `…` when cut.
fn clipped(text: &str) -> String {
    if text.len() <= MAX_FINDING_TEXT {
        return text.to_string();
    }
    let mut end = MAX_FINDING_TEXT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

fn error(id: Value, code: i64, message: &str, data: Option<Value>) -> Value {
    let mut e = json!({"code": code, "message": message});
    if let Some(data) = data {
        e["data"] = data;
    }
    json!({"jsonrpc": "2.0", "error": e, "id": id})
}

/// The reply to one line of input (a message or a batch); `None` when nothing is answered
/// (notifications, a batch of notifications).
pub fn reply(doc: &OpenRpc, input: &[u8]) -> Option<String> {
    let report = rpc::check(input, Profile::JsonRpc);
    let Some(first) = report.documents.first() else {
        return Some(error(Value::Null, -32700, "Parse error", None).to_string());
    };
    if first.kind == Kind::ParseError || report.documents.len() > 1 {
        return Some(error(Value::Null, -32700, "Parse error", None).to_string());
    }
    let Ok((parsed, _)) = parse_document(input, first.span.start) else {
        return Some(error(Value::Null, -32700, "Parse error", None).to_string());
    };
    let message = value_of(&parsed.root);
    if first.kind == Kind::Batch {
        let Value::Array(items) = &message else {
            return None;
        };
        // Built one reply at a time, bounded as the MCP mock bounds a batch's replies: a batch of
        // rpc.discover calls would otherwise be the document as many times over.
        let mut out = String::from("[");
        let mut nearest = Nearest::default();
        for (item, d) in items.iter().zip(&first.items) {
            let Some(reply) = one(doc, item, d.kind, &mut nearest) else {
                continue;
            };
            if out.len() > 1 {
                out.push(',');
            }
            out.push_str(&reply.to_string());
            if out.len() > MAX_REPLY {
                let message = format!("Reply too large: the replies would pass {MAX_REPLY} bytes (16 MiB); send fewer requests per batch");
                return Some(error(Value::Null, REPLY_TOO_LARGE, &message, None).to_string());
            }
        }
        return (out.len() > 1).then(|| {
            out.push(']');
            out
        });
    }
    one(doc, &message, first.kind, &mut Nearest::default()).map(|v| v.to_string())
}

/// The reply to one message; `nearest` is the budget of the suggestions for unknown methods.
fn one(doc: &OpenRpc, message: &Value, kind: Kind, nearest: &mut Nearest) -> Option<Value> {
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    let name = message
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default();
    // rpc.* names are reserved, which the JSON-RPC rules flag; rpc.discover is OpenRPC's own.
    if name == "rpc.discover"
        && message.get("id").is_some()
        && message.get("jsonrpc") == Some(&json!("2.0"))
    {
        return Some(json!({"jsonrpc": "2.0", "result": doc.value(), "id": id}));
    }
    match kind {
        Kind::Request => {}
        Kind::Notification | Kind::Response => return None,
        _ => {
            let id = if matches!(id, Value::String(_) | Value::Number(_)) {
                id
            } else {
                Value::Null
            };
            return Some(error(id, -32600, "Invalid Request", None));
        }
    }
    let Some(method) = doc.method(name) else {
        let data = match doc.nearest(name, nearest) {
            Suggestions::Found(names) => json!({"nearest": names}),
            Suggestions::NotSearched => json!({"nearest": [], "note": not_searched()}),
        };
        return Some(error(id, -32601, "Method not found", Some(data)));
    };
    // The validator's findings on this call, under the document.
    let text = message.to_string();
    let mut report = rpc::check(text.as_bytes(), Profile::JsonRpc);
    Pairing::default().check(doc, text.as_bytes(), &mut report);
    // A request (with an id) to a method without a result: the document makes it a notification
    // only, and the validator calls the request an error; the mock refuses it the same way.
    let refused: Vec<Value> = report
        .violations()
        .filter(|v| v.rule.id == "openrpc-notification-only")
        .map(|v| json!({"rule": v.rule.id, "path": &*v.path, "message": &*v.message}))
        .collect();
    if !refused.is_empty() {
        return Some(error(
            id,
            -32600,
            "Invalid Request: the document makes this method a notification (send it without an id)",
            Some(json!({"findings": refused})),
        ));
    }
    let mut findings: Vec<Value> = Vec::new();
    let mut findings_bytes = 0;
    let mut omitted = 0usize;
    for v in report.violations().filter(|v| {
        v.rule.id.starts_with("openrpc-param") || v.rule.id == "openrpc-schema-too-costly"
    }) {
        let finding = json!({
            "rule": v.rule.id,
            "path": clipped(&v.path),
            "message": clipped(&v.message),
        });
        let bytes = finding.to_string().len();
        if findings.len() < MAX_REPLY_FINDINGS && findings_bytes + bytes <= MAX_FINDINGS_BYTES {
            findings_bytes += bytes;
            findings.push(finding);
        } else {
            omitted += 1;
        }
    }
    if !findings.is_empty() {
        let mut data = json!({"findings": findings});
        if omitted > 0 {
            data["omitted"] = json!(omitted);
        }
        return Some(error(id, -32602, "Invalid params", Some(data)));
    }
    let params = message.get("params");
    let result = example_result(method, params).unwrap_or_else(|| {
        method
            .result
            .as_ref()
            .map_or(Value::Null, |r| accepted_value(doc, r))
    });
    Some(json!({"jsonrpc": "2.0", "result": result, "id": id}))
}

/// The result of the example pairing whose params are exactly these: matched by name (an object
/// under `by-name` or `either`) or by position (an array, under `by-position` or `either`, in the
/// method's order of names), the optional params an example leaves out omitted.
fn example_result(method: &Method, params: Option<&Value>) -> Option<Value> {
    method.examples.iter().find_map(|example| {
        let matches = match params {
            None => example.params.is_empty(),
            Some(Value::Array(items)) => {
                method.param_structure != ParamStructure::ByName
                    && *items == example_by_position(method, example)
            }
            Some(Value::Object(members)) => {
                method.param_structure != ParamStructure::ByPosition
                    && *members == example_by_name(example)
            }
            Some(_) => false,
        };
        matches.then(|| example.result.clone()).flatten()
    })
}

/// An example pairing's params as a call sends them: by name under `by-name`, else by position.
pub fn example_params(method: &Method, example: &Example) -> Value {
    if method.param_structure == ParamStructure::ByName {
        Value::Object(example_by_name(example))
    } else {
        Value::Array(example_by_position(method, example))
    }
}

/// An example pairing's params by name.
fn example_by_name(example: &Example) -> Map<String, Value> {
    example.params.iter().cloned().collect()
}

/// An example pairing's params by position in the method's order, each taken from the example's
/// param of its name, the optional ones it leaves out omitted from the end; in the pairing's own
/// order when its names are not the method's (or it leaves out one before another it gives).
fn example_by_position(method: &Method, example: &Example) -> Vec<Value> {
    let named: HashMap<&str, &Value> = example
        .params
        .iter()
        .map(|(name, value)| (name.as_str(), value))
        .collect();
    let known: HashSet<&str> = method.params.iter().map(|p| p.name.as_str()).collect();
    let in_order: Vec<Option<&Value>> = method
        .params
        .iter()
        .map(|p| named.get(p.name.as_str()).copied())
        .collect();
    let given = in_order
        .iter()
        .rposition(Option::is_some)
        .map_or(0, |at| at + 1);
    let every_name_known = named.len() == example.params.len()
        && example
            .params
            .iter()
            .all(|(name, _)| known.contains(name.as_str()));
    match in_order[..given]
        .iter()
        .copied()
        .collect::<Option<Vec<&Value>>>()
    {
        Some(values) if every_name_known => values.into_iter().cloned().collect(),
        _ => example.params.iter().map(|(_, v)| v.clone()).collect(),
    }
}

/// A value for the schema at `pointer` in the document: always the same one for the same schema.
/// `default`, `const`, `examples`, `enum` first; otherwise the smallest value of its type that the
/// common keywords allow (required members, `minItems`, `minimum`, a hex `pattern`).
/// `choice` picks the branch of each `oneOf` and `anyOf` (modulo their length).
fn generate(doc: &OpenRpc, pointer: &str, choice: usize, depth: usize, left: &mut Budget) -> Value {
    // Every value costs one of the budget: a schema whose objects require several members that
    // are themselves such objects would otherwise grow as (members)^depth.
    if left.values == 0 {
        return Value::Null;
    }
    left.values -= 1;
    let Some(schema) = doc.resolved(pointer) else {
        return Value::Null;
    };
    let (schema, pointer) = schema;
    if depth > MAX_DEPTH {
        return Value::Null;
    }
    let Some(object) = schema.as_object() else {
        return Value::Null;
    };
    for key in ["const", "default"] {
        if let Some(v) = object.get(key) {
            return v.clone();
        }
    }
    for key in ["examples", "enum"] {
        if let Some(v) = object
            .get(key)
            .and_then(Value::as_array)
            .and_then(|a| a.first())
        {
            return v.clone();
        }
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        if object
            .get(key)
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty())
        {
            if key == "allOf" {
                let mut merged = Map::new();
                let n = object[key].as_array().map_or(0, Vec::len);
                for i in 0..n {
                    if let Value::Object(part) = generate(
                        doc,
                        &format!("{pointer}/{key}/{i}"),
                        choice,
                        depth + 1,
                        left,
                    ) {
                        merged.extend(part);
                    }
                }
                return Value::Object(merged);
            }
            let n = object[key].as_array().map_or(1, Vec::len).max(1);
            left.branched |= n > 1;
            let at = format!("{pointer}/{key}/{}", choice % n);
            return generate(doc, &at, choice, depth + 1, left);
        }
    }
    let kind = match object.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(types)) => types.first().and_then(Value::as_str).unwrap_or("null"),
        _ if object.contains_key("properties") => "object",
        _ if object.contains_key("items") => "array",
        _ => "null",
    };
    match kind {
        "object" => {
            let mut out = Map::new();
            let required = object.get("required").and_then(Value::as_array);
            for name in required.into_iter().flatten().filter_map(Value::as_str) {
                let at = format!("{pointer}/properties/{}", crate::json::escape_token(name));
                let value = if object.get("properties").and_then(|p| p.get(name)).is_some() {
                    generate(doc, &at, choice, depth + 1, left)
                } else {
                    Value::Null
                };
                out.insert(name.to_string(), value);
            }
            Value::Object(out)
        }
        "array" => {
            let n = object
                .get("minItems")
                .and_then(Value::as_u64)
                .unwrap_or(0)
                .min(16);
            Value::Array(
                (0..n)
                    .map(|_| generate(doc, &format!("{pointer}/items"), choice, depth + 1, left))
                    .collect(),
            )
        }
        "integer" | "number" => object
            .get("minimum")
            .cloned()
            .filter(Value::is_number)
            .unwrap_or(json!(0)),
        "string" => {
            let pattern = object
                .get("pattern")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if pattern.starts_with("^0x") {
                json!("0x0")
            } else {
                let n = object
                    .get("minLength")
                    .and_then(Value::as_u64)
                    .unwrap_or(0)
                    .min(64) as usize;
                json!("a".repeat(n))
            }
        }
        "boolean" => json!(false),
        _ => Value::Null,
    }
}

/// How many choices of `oneOf`/`anyOf` branches [`accepted_value`] tries.
const CHOICES: usize = 8;

/// A value generated for the schema of `param` that the schema accepts: every `oneOf` and `anyOf`
/// takes its first branch, and when the schema refuses that value (a value of a `oneOf`'s first
/// branch that its second matches too) its second, and so on, [`CHOICES`] times; then the first.
/// A value cut short (its budget spent) or one that never chose a branch is not checked: no
/// other choice would do better.
fn accepted_value(doc: &OpenRpc, param: &Param) -> Value {
    let mut budget = Budget::new();
    let first = generate(doc, &param.schema_pointer, 0, 0, &mut budget);
    if !budget.branched
        || budget.values == 0
        || doc
            .schema_errors(param, &first)
            .map_or(true, |e| e.is_empty())
    {
        return first;
    }
    (1..CHOICES)
        .map(|choice| generate(doc, &param.schema_pointer, choice, 0, &mut Budget::new()))
        .find(|value| doc.schema_errors(param, value).is_ok_and(|e| e.is_empty()))
        .unwrap_or(first)
}

/// What one generated value may still spend, and whether it chose among branches.
struct Budget {
    /// Values left of [`MAX_VALUES`].
    values: usize,
    /// A `oneOf` or `anyOf` of several branches was met.
    branched: bool,
}

impl Budget {
    fn new() -> Budget {
        Budget {
            values: MAX_VALUES,
            branched: false,
        }
    }
}

/// Params for a call of `method` generated from its params' schemas (as the mock generates
/// results): by name when the method takes them by name, else by position.
pub fn generated_params(doc: &OpenRpc, method: &Method) -> Value {
    let values = method
        .params
        .iter()
        .map(|p| (p.name.clone(), accepted_value(doc, p)));
    if method.param_structure == ParamStructure::ByName {
        Value::Object(values.collect())
    } else {
        Value::Array(values.map(|(_, v)| v).collect())
    }
}
