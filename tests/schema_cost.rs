//! JSON Schema checks have a cost bound: a small schema whose `$ref`s fan out
//! (`L_i = allOf[L_(i-1), L_(i-1)]`, 2^n subschemas at one place) is answered at once with a
//! "schema too costly to check, not judged" finding on every path that checks values against
//! schemas (`jrpc check --openrpc`, `jrpc serve --openrpc`, `jrpc probe --openrpc … discover`,
//! `jrpc check --profile mcp`), while a normal schema is still checked. Every run has a deadline.
#![cfg(not(target_arch = "wasm32"))]

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};

/// How long one run may take (debug build, a loaded machine); without the bound these runs take
/// minutes or abort out of memory.
const DEADLINE: Duration = Duration::from_secs(20);

/// Runs `jrpc ARGS` with `stdin`, killed and failed past [`DEADLINE`]: (exit code, stdout, stderr).
fn jrpc_within(args: &[&str], stdin: &[u8]) -> (Option<i32>, String, String) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_jrpc"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("jrpc runs");
    let mut to_jrpc = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = to_jrpc.write_all(&input);
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("jrpc is waited for") {
            break status;
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("jrpc {args:?} still runs after {DEADLINE:?}: the schema check is not bounded");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    writer.join().unwrap();
    let out = out_reader.join().unwrap();
    let err = err_reader.join().unwrap();
    (status.code(), out, err)
}

/// `L_0 = {"type": "string"}`, `L_i = {"allOf": [{"$ref": L_(i-1)}, {"$ref": L_(i-1)}]}` under
/// `prefix` (a JSON pointer to the map that holds them).
fn levels(levels: usize, prefix: &str) -> Map<String, Value> {
    let mut defs = Map::new();
    defs.insert("L0".into(), json!({"type": "string"}));
    for i in 1..=levels {
        let prev = format!("#{prefix}/L{}", i - 1);
        defs.insert(
            format!("L{i}"),
            json!({"allOf": [{"$ref": prev}, {"$ref": prev}]}),
        );
    }
    defs
}

/// An OpenRPC document: `deep` takes one param of schema `L_n`, `plain` one integer.
fn document(n: usize) -> String {
    json!({
        "openrpc": "1.3.2",
        "info": {"title": "costly", "version": "1"},
        "methods": [
            {"name": "deep",
             "params": [{"name": "x", "schema": {"$ref": format!("#/components/schemas/L{n}")}}],
             "result": {"name": "r", "schema": {"type": "integer"}}},
            {"name": "plain",
             "params": [{"name": "x", "schema": {"type": "integer"}}],
             "result": {"name": "r", "schema": {"type": "integer"}}}
        ],
        "components": {"schemas": levels(n, "/components/schemas")}
    })
    .to_string()
}

fn write_temp(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("jrpc-schema-cost-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn check_openrpc_answers_an_exponential_schema_at_once_with_too_costly() {
    for n in [20, 26] {
        let doc = write_temp(&format!("deep{n}.json"), &document(n));
        let doc = doc.to_str().unwrap();
        // A value of the right type (2^n passes) and one of the wrong type (2^n errors).
        for value in ["\"s\"", "5"] {
            let call =
                format!(r#"{{"jsonrpc": "2.0", "method": "deep", "params": [{value}], "id": 1}}"#);
            let (_, out, err) = jrpc_within(&["check", "--openrpc", doc], call.as_bytes());
            assert!(
                out.contains("openrpc-schema-too-costly")
                    && out.contains("schema too costly to check, not judged"),
                "{n} levels, {value}: {out}{err}"
            );
        }
        // A normal schema of the same document is still checked.
        let call = r#"{"jsonrpc": "2.0", "method": "plain", "params": ["x"], "id": 1}"#;
        let (code, out, _) = jrpc_within(&["check", "--openrpc", doc], call.as_bytes());
        assert_eq!(code, Some(1), "{out}");
        assert!(out.contains("openrpc-param-invalid"), "{out}");
        assert!(!out.contains("too-costly"), "{out}");
    }
}

#[test]
fn serve_openrpc_answers_a_small_call_to_an_exponential_schema_at_once() {
    let doc = write_temp("served26.json", &document(26));
    let calls = concat!(
        r#"{"jsonrpc": "2.0", "method": "deep", "params": [5], "id": 1}"#,
        "\n",
        r#"{"jsonrpc": "2.0", "method": "plain", "params": [5], "id": 2}"#,
        "\n"
    );
    let (_, out, err) = jrpc_within(
        &["serve", "--openrpc", doc.to_str().unwrap()],
        calls.as_bytes(),
    );
    let replies: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies.len(), 2, "{out}{err}");
    assert_eq!(replies[0]["error"]["code"], -32602, "{out}");
    assert!(
        replies[0].to_string().contains("too costly"),
        "{}",
        replies[0]
    );
    assert!(replies[1]["result"].is_i64(), "{out}");
}

#[test]
fn probe_openrpc_discover_of_an_exponential_document_ends_at_once() {
    let doc = write_temp("probed26.json", &document(26));
    let jrpc = env!("CARGO_BIN_EXE_jrpc");
    let (code, out, err) = jrpc_within(
        &[
            "probe",
            "--openrpc",
            "discover",
            "--format",
            "json",
            "--",
            jrpc,
            "serve",
            "--openrpc",
            doc.to_str().unwrap(),
        ],
        b"",
    );
    assert!(code.is_some(), "{out}{err}");
    let report: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    assert!(report["checks"].is_array(), "{out}");
}

/// A transcript: a tools/list declaring `add` with `schema` as its inputSchema, then a call of it
/// with `arguments`.
fn tool_transcript(schema: &Value, arguments: &str) -> String {
    let list = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
        {"name": "add", "inputSchema": schema}
    ]}});
    format!(
        "--> {{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}}\n<-- {list}\n--> {{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{{\"name\":\"add\",\"arguments\":{arguments}}}}}\n"
    )
}

#[test]
fn check_mcp_says_an_exponential_input_schema_is_too_costly_and_checks_a_normal_one() {
    for n in [20, 26] {
        let mut schema =
            json!({"type": "object", "properties": {"a": {"$ref": format!("#/$defs/L{n}")}}});
        schema["$defs"] = Value::Object(levels(n, "/$defs"));
        for arguments in [r#"{"a": "s"}"#, r#"{"a": 5}"#] {
            let transcript = tool_transcript(&schema, arguments);
            let (_, out, err) = jrpc_within(
                &["check", "--profile", "mcp", "--format", "json"],
                transcript.as_bytes(),
            );
            assert!(
                out.contains("mcp-schema-unusable") && out.contains("too costly to check"),
                "{n} levels, {arguments}: {out}{err}"
            );
            assert!(!out.contains("mcp-tool-arguments-invalid"), "{out}");
        }
    }
    let normal = json!({"type": "object", "properties": {"a": {"type": "integer"}}});
    let (code, out, _) = jrpc_within(
        &["check", "--profile", "mcp", "--format", "json"],
        tool_transcript(&normal, r#"{"a": "s"}"#).as_bytes(),
    );
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("mcp-tool-arguments-invalid"), "{out}");
    assert!(!out.contains("too costly"), "{out}");
}

#[test]
fn check_mcp_does_not_judge_a_value_whose_check_grows_with_its_depth() {
    // Each level of the value doubles the subschemas applied below it: small at the top, 2^40 at
    // the bottom of a 40-deep value.
    let schema = json!({"$defs": {"n": {"type": "object", "properties": {"k": {"allOf": [{"$ref": "#/$defs/n"}, {"$ref": "#/$defs/n"}]}}}}, "$ref": "#/$defs/n"});
    let mut value = String::from("{}");
    for _ in 0..40 {
        value = format!("{{\"k\": {value}}}");
    }
    let (_, out, err) = jrpc_within(
        &["check", "--profile", "mcp", "--format", "json"],
        tool_transcript(&schema, &value).as_bytes(),
    );
    assert!(
        out.contains("mcp-schema-unusable") && out.contains("not judged"),
        "{out}{err}"
    );
}

#[test]
fn serve_openrpc_lists_at_most_a_hundred_findings_and_says_how_many_it_left_out() {
    let doc = json!({
        "openrpc": "1.3.2",
        "info": {"title": "ints", "version": "1"},
        "methods": [{"name": "ints",
            "params": [{"name": "x", "schema": {"type": "array", "items": {"type": "integer"}}}],
            "result": {"name": "r", "schema": {"type": "integer"}}}]
    })
    .to_string();
    let doc = jsonrpc_playground::openrpc::OpenRpc::load(doc.as_bytes()).unwrap();
    let call = json!({"jsonrpc": "2.0", "method": "ints", "params": [vec!["ab"; 5000]], "id": 1});
    let started = Instant::now();
    let reply = jsonrpc_playground::openrpc::mock::reply(&doc, call.to_string().as_bytes())
        .expect("a reply");
    assert!(started.elapsed() < DEADLINE);
    let reply: Value = serde_json::from_str(&reply).unwrap();
    assert_eq!(reply["error"]["code"], -32602);
    let data = &reply["error"]["data"];
    assert_eq!(
        data["findings"].as_array().map(Vec::len),
        Some(100),
        "{data}"
    );
    assert_eq!(data["omitted"], 4900, "{data}");
}

#[test]
fn a_pattern_too_large_to_compile_is_refused_before_it_is_read() {
    let pattern = format!(
        "^({})$",
        (0..20_000)
            .map(|i| format!("a{i}"))
            .collect::<Vec<_>>()
            .join("|")
    );
    let doc = json!({
        "openrpc": "1.3.2",
        "info": {"title": "p", "version": "1"},
        "methods": [{"name": "p",
            "params": [{"name": "x", "schema": {"type": "string", "pattern": pattern}}],
            "result": {"name": "r", "schema": {}}}]
    })
    .to_string();
    let refused = jsonrpc_playground::openrpc::OpenRpc::load(doc.as_bytes())
        .expect_err("a pattern past the bound is refused");
    let v = &refused.violations[0];
    assert_eq!(&*v.path, "/methods/0/params/0/schema/pattern");
    assert!(v.message.contains("too large to compile"), "{}", v.message);
    // A tool's schema likewise.
    let schema = json!({"type": "string", "pattern": pattern});
    let why = jsonrpc_playground::openrpc::CompiledSchema::new(&schema).unwrap_err();
    assert!(why.contains("too large to compile"), "{why}");
}

#[test]
fn tools_past_the_schema_budget_are_listed_as_not_checked() {
    // 80 tools of 60 KB schemas: 4.8 MB, past the 4 MiB the tools' schemas may hold together.
    let properties: Map<String, Value> = (0..600)
        .map(|i| {
            (
                format!("p{i}_{}", "x".repeat(60)),
                json!({"type": "string", "maxLength": 10}),
            )
        })
        .collect();
    let schema = json!({"type": "object", "properties": properties});
    let tools: Vec<Value> = (0..80)
        .map(|i| json!({"name": format!("t{i}"), "inputSchema": schema}))
        .collect();
    let list = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}});
    let transcript = format!(
        "--> {{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}}\n<-- {list}\n--> {{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{{\"name\":\"t79\",\"arguments\":{{}}}}}}\n"
    );
    let (_, out, err) = jrpc_within(
        &["check", "--profile", "mcp", "--format", "json"],
        transcript.as_bytes(),
    );
    let report: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    let spent: Vec<&str> = report["documents"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| d["violations"].as_array().unwrap())
        .filter(|v| {
            v["rule"] == "mcp-schema-unusable"
                && v["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("schema budget is spent"))
        })
        .map(|v| v["path"].as_str().unwrap())
        .collect();
    assert!(
        (5..=20).contains(&spent.len()),
        "{} tools past the budget: {spent:?}",
        spent.len()
    );
    assert_eq!(spent.last().copied(), Some("/result/tools/79/inputSchema"));
}

#[test]
fn a_tool_schema_checked_on_its_own_is_not_judged_past_the_budget() {
    // What the probe's outputSchema check and the MCP mock's inputSchema check call.
    for n in [20, 26] {
        let mut schema = json!({"$ref": format!("#/$defs/L{n}")});
        schema["$defs"] = Value::Object(levels(n, "/$defs"));
        let started = Instant::now();
        let why = jsonrpc_playground::openrpc::schema_errors(&schema, &json!(5)).unwrap_err();
        assert!(started.elapsed() < DEADLINE);
        assert!(why.contains("too costly to check, not judged"), "{why}");
    }
    let normal = json!({"type": "object", "required": ["a"]});
    let errors = jsonrpc_playground::openrpc::schema_errors(&normal, &json!({})).unwrap();
    assert_eq!(errors.len(), 1);
}

#[test]
fn a_document_of_more_methods_than_are_read_is_refused_at_the_first_one_past_the_bound() {
    let methods: Vec<Value> = (0..10_001)
        .map(|i| json!({"name": format!("m{i}"), "params": [], "result": {"name": "r", "schema": {}}}))
        .collect();
    let doc =
        json!({"openrpc": "1.3.2", "info": {"title": "many", "version": "1"}, "methods": methods})
            .to_string();
    let started = Instant::now();
    let refused = jsonrpc_playground::openrpc::OpenRpc::load(doc.as_bytes())
        .expect_err("past the most methods read");
    assert!(started.elapsed() < DEADLINE);
    let v = &refused.violations[0];
    assert_eq!(&*v.path, "/methods/10000");
    assert!(v.message.contains("at most 10000"), "{}", v.message);
}

#[test]
fn tap_answers_a_costly_tool_schema_at_once_and_ends_with_its_server() {
    use std::io::{BufRead, BufReader};
    let mut input = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/L26"}}});
    input["$defs"] = Value::Object(levels(26, "/$defs"));
    // Each level of structuredContent doubles the subschemas applied below it.
    let output = json!({"$defs": {"n": {"type": "object", "properties": {"k": {"allOf": [{"$ref": "#/$defs/n"}, {"$ref": "#/$defs/n"}]}}}}, "$ref": "#/$defs/n"});
    let list = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
        {"name": "add", "inputSchema": input, "outputSchema": output}
    ]}});
    let mut deep = json!({});
    for _ in 0..40 {
        deep = json!({ "k": deep });
    }
    let reply =
        json!({"jsonrpc": "2.0", "id": 2, "result": {"content": [], "structuredContent": deep}});
    let server = format!("read l; echo '{list}'; read l; echo '{reply}'");
    let mut tap = Command::new(env!("CARGO_BIN_EXE_jrpc"))
        .args(["tap", "--profile", "mcp", "--", "/bin/sh", "-c", &server])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("jrpc tap runs");
    let pid = tap.id();
    let mut to_tap = tap.stdin.take().unwrap();
    let mut from_tap = BufReader::new(tap.stdout.take().unwrap());
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        to_tap
            .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n")
            .unwrap();
        let mut line = String::new();
        from_tap.read_line(&mut line).unwrap();
        to_tap.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"add\",\"arguments\":{\"a\":5}}}\n").unwrap();
        drop(to_tap);
        line.clear();
        from_tap.read_line(&mut line).unwrap();
        let out = tap.wait_with_output().expect("jrpc tap exits");
        let _ = done.send(out);
    });
    let Ok(out) = finished.recv_timeout(DEADLINE) else {
        let _ = Command::new("kill").arg(pid.to_string()).status();
        panic!("jrpc tap still runs after {DEADLINE:?}: the schema checks are not bounded");
    };
    let findings = String::from_utf8_lossy(&out.stderr);
    assert!(
        findings.contains("mcp-schema-unusable")
            && findings.contains("too costly to check")
            && findings.contains("structuredContent"),
        "{findings}"
    );
    assert!(
        !findings.contains("mcp-tool-arguments-invalid"),
        "{findings}"
    );
}
