//! The MCP method table against the published schemas (`tests/data/mcp-schema`): every request
//! and notification of each version is in the table for that version and nothing else is, with the
//! same sender, the same `params` members (required or not, and their JSON types) and the same
//! required result members. `MCP_TABLE_UPDATE=1 cargo test --test mcp_schema` rewrites
//! `engine/check/src/rpc/mcp/table.rs` from the schemas.
//!
//! Also: every example of 2026-07-28 that is a whole JSON-RPC message checks clean under that version.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use jsonrpc_playground::rpc::mcp::methods::{self, Call, Sender, Types};
use jsonrpc_playground::rpc::{check, McpVersion, Profile, Severity};
use serde_json::{Map, Value};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mcp-schema")
}

/// One version's schema, with its definitions.
struct Schema {
    defs: Map<String, Value>,
}

impl Schema {
    fn load(version: McpVersion) -> Schema {
        let path = data_dir().join(version.as_str()).join("schema.json");
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let root: Value = serde_json::from_str(&text).unwrap();
        let defs = root
            .get("$defs")
            .or_else(|| root.get("definitions"))
            .and_then(Value::as_object)
            .unwrap()
            .clone();
        Schema { defs }
    }

    fn def(&self, name: &str) -> Option<&Value> {
        self.defs.get(name)
    }

    /// Follows `$ref`s to the schema they name.
    fn resolve<'s>(&'s self, mut schema: &'s Value) -> &'s Value {
        while let Some(r) = schema.get("$ref").and_then(Value::as_str) {
            schema = &self.defs[r.rsplit('/').next().unwrap()];
        }
        schema
    }

    /// The JSON types a schema allows (`0`: unknown, any).
    fn types(&self, schema: &Value) -> Types {
        let schema = self.resolve(schema);
        if let Some(t) = schema.get("type") {
            let names: Vec<&str> = match t {
                Value::String(s) => vec![s.as_str()],
                Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
                _ => vec![],
            };
            return names.iter().fold(0, |acc, n| acc | type_bit(n));
        }
        if let Some(c) = schema.get("const") {
            return value_bit(c);
        }
        if let Some(Value::Array(values)) = schema.get("enum") {
            return values.iter().fold(0, |acc, v| acc | value_bit(v));
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(alts)) = schema.get(key) {
                let bits: Vec<Types> = alts.iter().map(|a| self.types(a)).collect();
                return if bits.contains(&0) {
                    0
                } else {
                    bits.iter().fold(0, |acc, b| acc | b)
                };
            }
        }
        if let Some(Value::Array(parts)) = schema.get("allOf") {
            return parts
                .iter()
                .map(|p| self.types(p))
                .find(|&b| b != 0)
                .unwrap_or(0);
        }
        if schema.get("properties").is_some() {
            return methods::OBJECT;
        }
        0
    }

    /// An object schema's members: name → (required, schema). `allOf` merges, `anyOf` keeps what
    /// every alternative has (required only where all require it).
    fn members<'s>(&'s self, schema: &'s Value) -> BTreeMap<String, (bool, Vec<&'s Value>)> {
        let schema = self.resolve(schema);
        if let Some(Value::Array(parts)) = schema.get("allOf") {
            let mut out = BTreeMap::new();
            for p in parts {
                for (k, (req, s)) in self.members(p) {
                    let e = out.entry(k).or_insert((false, Vec::new()));
                    e.0 |= req;
                    e.1.extend(s);
                }
            }
            return out;
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(alts)) = schema.get(key) {
                let all: Vec<_> = alts.iter().map(|a| self.members(a)).collect();
                let mut out = BTreeMap::new();
                for (k, (req, _)) in &all[0] {
                    if all.iter().all(|m| m.contains_key(k)) {
                        let required = *req && all.iter().all(|m| m[k].0);
                        let schemas = all.iter().flat_map(|m| m[k].1.clone()).collect::<Vec<_>>();
                        out.insert(k.clone(), (required, schemas));
                    }
                }
                return out;
            }
        }
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|props| {
                props
                    .iter()
                    .map(|(k, v)| (k.clone(), (required.contains(&k.as_str()), vec![v])))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The types of a member given by one or more schemas (alternatives): their union, or any.
    fn types_of(&self, schemas: &[&Value]) -> Types {
        let bits: Vec<Types> = schemas.iter().map(|s| self.types(s)).collect();
        if bits.contains(&0) {
            0
        } else {
            bits.iter().fold(0, |acc, b| acc | b)
        }
    }

    /// The table's params rows for a params schema: members of params (all), members of those
    /// (required ones, and optional ones of a known type), and members of those (required ones).
    fn params(&self, schema: &Value) -> Vec<(String, bool, Types)> {
        let mut out = Vec::new();
        self.walk(&[schema], "", 1, false, &mut out);
        out
    }

    /// The table's result rows for a result schema: as [`Schema::params`], and the members of an
    /// array's items too (`tools/*/name`).
    fn result(&self, schema: &Value) -> Vec<(String, bool, Types)> {
        let mut out = Vec::new();
        self.walk(&[schema], "", 1, true, &mut out);
        out
    }

    /// The schema of an array's items (`items`), when there is one.
    fn items<'s>(&'s self, schemas: &[&'s Value]) -> Vec<&'s Value> {
        schemas
            .iter()
            .filter_map(|s| self.resolve(s).get("items"))
            .collect()
    }

    fn walk(
        &self,
        schemas: &[&Value],
        prefix: &str,
        depth: usize,
        items: bool,
        out: &mut Vec<(String, bool, Types)>,
    ) {
        for schema in schemas {
            for (name, (required, member)) in self.members(schema) {
                let types = self.types_of(&member);
                let keep = match depth {
                    1 => true,
                    2 => required || types != 0,
                    _ => required,
                };
                if !keep {
                    continue;
                }
                let path = format!("{prefix}{}", name.replace('~', "~0").replace('/', "~1"));
                if out.iter().any(|(p, _, _)| *p == path) {
                    continue;
                }
                out.push((path.clone(), required, types));
                if depth < 3 && types == methods::OBJECT {
                    self.walk(&member, &format!("{path}/"), depth + 1, items, out);
                }
                if items && depth < 3 && types == methods::ARRAY {
                    let each = self.items(&member);
                    if !each.is_empty() && self.types_of(&each) == methods::OBJECT {
                        self.walk(&each, &format!("{path}/*/"), depth + 1, items, out);
                    }
                }
            }
        }
    }
}

fn type_bit(name: &str) -> Types {
    match name {
        "string" => methods::STRING,
        "number" => methods::NUMBER,
        "integer" => methods::INTEGER,
        "boolean" => methods::BOOLEAN,
        "object" => methods::OBJECT,
        "array" => methods::ARRAY,
        "null" => methods::NULL,
        _ => 0,
    }
}

fn value_bit(v: &Value) -> Types {
    match v {
        Value::String(_) => methods::STRING,
        Value::Number(n) if n.is_i64() || n.is_u64() => methods::INTEGER,
        Value::Number(_) => methods::NUMBER,
        Value::Bool(_) => methods::BOOLEAN,
        Value::Object(_) => methods::OBJECT,
        Value::Array(_) => methods::ARRAY,
        Value::Null => methods::NULL,
    }
}

/// One method of one version, as the schema describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Row {
    name: String,
    call: Call,
    from: Sender,
    params_required: bool,
    params: Vec<(String, bool, Types)>,
    result: Vec<(String, bool, Types)>,
}

/// The definitions a union (`ClientRequest`, …) lists; a plain definition stands for itself.
fn union_members<'s>(schema: &'s Schema, union: &str) -> Vec<(String, &'s Value)> {
    let Some(u) = schema.def(union) else {
        return Vec::new();
    };
    match u.get("anyOf").and_then(Value::as_array) {
        Some(alts) => alts
            .iter()
            .map(|a| {
                let name = a["$ref"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_string();
                let def = schema.resolve(a);
                (name, def)
            })
            .collect(),
        None => vec![(union.to_string(), u)],
    }
}

/// Every request and notification of a version: the members of the Client/Server Request/Notification unions.
fn schema_rows(version: McpVersion) -> Vec<Row> {
    let schema = Schema::load(version);
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    for (union, call, side) in [
        ("ClientRequest", Call::Request, Sender::Client),
        ("ServerRequest", Call::Request, Sender::Server),
        ("ClientNotification", Call::Notification, Sender::Client),
        ("ServerNotification", Call::Notification, Sender::Server),
    ] {
        for (def_name, def) in union_members(&schema, union) {
            let name = def["properties"]["method"]["const"]
                .as_str()
                .unwrap_or_else(|| panic!("{version} {def_name}: no method const"))
                .to_string();
            if let Some(row) = rows.get_mut(&name) {
                assert_eq!(
                    row.call, call,
                    "{version} {name}: both a request and a notification"
                );
                if row.from != side {
                    row.from = Sender::Both;
                }
                continue;
            }
            let required: Vec<&str> = def
                .get("required")
                .and_then(Value::as_array)
                .unwrap()
                .iter()
                .filter_map(Value::as_str)
                .collect();
            let params = def["properties"]
                .get("params")
                .map(|p| schema.params(p))
                .unwrap_or_default();
            let result = if call == Call::Request {
                let result_def = def_name
                    .strip_suffix("Request")
                    .map(|b| format!("{b}Result"));
                let result_schema = result_def
                    .as_deref()
                    .and_then(|n| schema.def(n))
                    .or_else(|| schema.def("Result"))
                    .unwrap();
                schema.result(result_schema)
            } else {
                Vec::new()
            };
            rows.insert(
                name.clone(),
                Row {
                    name,
                    call,
                    from: side,
                    params_required: required.contains(&"params"),
                    params,
                    result,
                },
            );
        }
    }
    rows.into_values().collect()
}

/// The table's rows for a version, in the same shape.
fn table_rows(version: McpVersion) -> Vec<Row> {
    let bit = methods::bit(version);
    let mut rows: Vec<Row> = methods::METHODS
        .iter()
        .filter(|m| m.versions & bit != 0)
        .map(|m| Row {
            name: m.name.to_string(),
            call: m.call,
            from: m.from,
            params_required: m.params_required,
            params: m
                .params
                .iter()
                .map(|p| (p.path.to_string(), p.required, p.types))
                .collect(),
            result: m
                .result
                .iter()
                .map(|p| (p.path.to_string(), p.required, p.types))
                .collect(),
        })
        .collect();
    rows.sort_by(|a, b| a.name.cmp(&b.name));
    rows
}

fn sorted(mut params: Vec<(String, bool, Types)>) -> Vec<(String, bool, Types)> {
    params.sort();
    params
}

#[test]
fn method_table_matches_every_schema() {
    if std::env::var_os("MCP_TABLE_UPDATE").is_some() {
        write_table();
    }
    let mut wrong = Vec::new();
    for version in McpVersion::ALL {
        let expected = schema_rows(version);
        let actual = table_rows(version);
        for row in &expected {
            match actual.iter().find(|r| r.name == row.name) {
                None => wrong.push(format!(
                    "{version}: {} is in the schema, not in the table",
                    row.name
                )),
                Some(have) => {
                    if (have.call, have.from, have.params_required)
                        != (row.call, row.from, row.params_required)
                    {
                        wrong.push(format!(
                            "{version} {}: table says {:?} from {:?} (params required: {}), schema says {:?} from {:?} ({})",
                            row.name, have.call, have.from, have.params_required, row.call, row.from, row.params_required
                        ));
                    }
                    if sorted(have.params.clone()) != sorted(row.params.clone()) {
                        wrong.push(format!(
                            "{version} {}: params\n  table:  {:?}\n  schema: {:?}",
                            row.name, have.params, row.params
                        ));
                    }
                    if sorted(have.result.clone()) != sorted(row.result.clone()) {
                        wrong.push(format!(
                            "{version} {}: result\n  table:  {:?}\n  schema: {:?}",
                            row.name, have.result, row.result
                        ));
                    }
                }
            }
        }
        for row in &actual {
            if !expected.iter().any(|r| r.name == row.name) {
                wrong.push(format!(
                    "{version}: {} is in the table, not in the schema",
                    row.name
                ));
            }
            if actual.iter().filter(|r| r.name == row.name).count() > 1 {
                wrong.push(format!("{version}: {} has more than one row", row.name));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "the method table disagrees with the schemas (MCP_TABLE_UPDATE=1 rewrites it):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_table_knows_the_methods_everyone_uses() {
    let v = McpVersion::V2025_11_25;
    let init = methods::lookup("initialize", v).unwrap();
    let required: Vec<&str> = init
        .params
        .iter()
        .filter(|p| p.required)
        .map(|p| p.path)
        .collect();
    for p in [
        "protocolVersion",
        "capabilities",
        "clientInfo",
        "clientInfo/name",
        "clientInfo/version",
    ] {
        assert!(required.contains(&p), "initialize requires {p}");
    }
    let call = methods::lookup("tools/call", v).unwrap();
    assert!(call.params.contains(&methods::req("name", methods::STRING)));
    assert!(call
        .params
        .contains(&methods::opt("arguments", methods::OBJECT)));
    assert_eq!(
        methods::lookup("sampling/createMessage", v).unwrap().from,
        Sender::Server
    );
    assert_eq!(
        methods::lookup("notifications/initialized", v)
            .unwrap()
            .call,
        Call::Notification
    );
    assert!(methods::lookup("initialize", McpVersion::V2026_07_28).is_none());
    assert!(methods::lookup("server/discover", McpVersion::V2026_07_28).is_some());
}

/// The rows of all versions, merged: one row per method and shape, with the versions it holds for.
fn write_table() {
    let mut merged: Vec<(Row, methods::Versions)> = Vec::new();
    for version in McpVersion::ALL {
        for row in schema_rows(version) {
            match merged.iter_mut().find(|(r, _)| *r == row) {
                Some((_, set)) => *set |= methods::bit(version),
                None => merged.push((row, methods::bit(version))),
            }
        }
    }
    merged
        .sort_by(|a, b| (&a.0.name, a.1.trailing_zeros()).cmp(&(&b.0.name, b.1.trailing_zeros())));
    let mut out = String::from(
        "//! Generated by `MCP_TABLE_UPDATE=1 cargo test --test mcp_schema` from tests/data/mcp-schema; do not edit.\n\
         //! Rows: method, request or notification, sender, versions, params required, params members, result members.\n\n\
         use super::row::*;\n\n\
         pub static METHODS: &[Method] = &[\n",
    );
    for (row, set) in &merged {
        let versions: Vec<String> = methods::versions_of(*set)
            .map(|v| format!("IN_{}", v.as_str().replace('-', "_")))
            .collect();
        let params = members_source(&row.params);
        let result = members_source(&row.result);
        let _ = writeln!(
            out,
            "    Method {{\n        name: {:?},\n        call: Call::{:?},\n        from: Sender::{:?},\n        versions: {},\n        params_required: {},\n        params: &[{}],\n        result: &[{}],\n    }},",
            row.name,
            row.call,
            row.from,
            versions.join(" | "),
            row.params_required,
            if params.is_empty() { String::new() } else { format!("\n            {},\n        ", params.join(",\n            ")) },
            if result.is_empty() { String::new() } else { format!("\n            {},\n        ", result.join(",\n            ")) }
        );
    }
    out.push_str("];\n");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/check/src/rpc/mcp/table.rs");
    std::fs::write(&path, out).unwrap();
    panic!("rewrote {}; build and test again", path.display());
}

/// A row's members as the table writes them: `req("name", STRING)`, `opt(…)`.
fn members_source(members: &[(String, bool, Types)]) -> Vec<String> {
    members
        .iter()
        .map(|(p, req, t)| {
            format!(
                "{}({p:?}, {})",
                if *req { "req" } else { "opt" },
                types_source(*t)
            )
        })
        .collect()
}

fn types_source(t: Types) -> String {
    let names: Vec<&str> = [
        (methods::STRING, "STRING"),
        (methods::NUMBER, "NUMBER"),
        (methods::INTEGER, "INTEGER"),
        (methods::BOOLEAN, "BOOLEAN"),
        (methods::OBJECT, "OBJECT"),
        (methods::ARRAY, "ARRAY"),
        (methods::NULL, "NULL"),
    ]
    .into_iter()
    .filter(|(b, _)| t & b != 0)
    .map(|(_, n)| n)
    .collect();
    if names.is_empty() {
        "ANY".into()
    } else {
        names.join(" | ")
    }
}

/// The 2026-07-28 examples that are whole messages (they have "jsonrpc"), and the error examples
/// (bare error objects) wrapped into an error response.
fn example_messages() -> Vec<(String, String)> {
    let dir = data_dir().join("2026-07-28/examples");
    let mut out = Vec::new();
    let mut folders: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    folders.sort();
    for folder in folders {
        let name = folder.file_name().unwrap().to_string_lossy().to_string();
        let mut files: Vec<_> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let value: Value = serde_json::from_str(&text).unwrap();
            let label = format!("{name}/{}", file.file_name().unwrap().to_string_lossy());
            if value.get("jsonrpc").is_some() {
                out.push((label, text));
            } else if name.ends_with("Error") && value.get("code").is_some() {
                out.push((
                    label,
                    format!("{{\"jsonrpc\": \"2.0\", \"id\": 1, \"error\": {text}}}"),
                ));
            }
        }
    }
    out
}

#[test]
fn every_2026_example_message_checks_clean() {
    let examples = example_messages();
    assert!(
        examples.len() >= 30,
        "only {} example messages found",
        examples.len()
    );
    let mut wrong = Vec::new();
    for (label, text) in &examples {
        let report = check(text.as_bytes(), Profile::Mcp(McpVersion::V2026_07_28));
        let problems: Vec<String> = report
            .violations()
            .filter(|v| v.severity == Severity::Error || v.rule.id.starts_with("mcp-"))
            .map(|v| format!("{} at {:?}: {}", v.rule.id, v.path, v.message))
            .collect();
        if !problems.is_empty() || report.documents.len() != 1 {
            wrong.push(format!("{label}: {}", problems.join("; ")));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
