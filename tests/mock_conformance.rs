//! `jrpc serve --fixtures conformance`: the official MCP conformance suite's tools, resources and
//! prompts (the suite itself runs in tests/conformance/run.sh), and what the friendly set does not
//! declare it does not answer.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use jsonrpc_playground::mock::{Fixtures, MockServer};

mod common;

fn ask(server: &mut MockServer, method: &str, params: &str) -> serde_json::Value {
    let request = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{params}}}"#);
    let reply = server
        .handle(request.as_bytes())
        .expect("a request is answered");
    serde_json::from_str(&reply).expect("the reply is JSON")
}

#[test]
fn the_conformance_set_serves_the_suites_fixtures_by_name() {
    let mut server = MockServer::with_fixtures(Fixtures::Conformance);
    let init = ask(
        &mut server,
        "initialize",
        r#"{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}"#,
    );
    assert_eq!(
        init["result"]["capabilities"]["resources"]["subscribe"],
        true
    );
    let tools = ask(&mut server, "tools/list", "{}");
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"test_simple_text") && names.contains(&"test_error_handling"));
    let text = ask(&mut server, "tools/call", r#"{"name":"test_simple_text"}"#);
    assert_eq!(
        text["result"]["content"][0]["text"],
        "This is a simple text response for testing."
    );
    let failed = ask(
        &mut server,
        "tools/call",
        r#"{"name":"test_error_handling"}"#,
    );
    assert_eq!(failed["result"]["isError"], true);
    let templated = ask(
        &mut server,
        "resources/read",
        r#"{"uri":"test://template/123/data"}"#,
    );
    let data: serde_json::Value =
        serde_json::from_str(templated["result"]["contents"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(data["id"], "123");
    let prompt = ask(
        &mut server,
        "prompts/get",
        r#"{"name":"test_prompt_with_arguments","arguments":{"arg1":"hello","arg2":"world"}}"#,
    );
    assert_eq!(
        prompt["result"]["messages"][0]["content"]["text"],
        "Prompt with arguments: arg1='hello', arg2='world'"
    );
    let subscribed = ask(
        &mut server,
        "resources/subscribe",
        r#"{"uri":"test://watched-resource"}"#,
    );
    assert_eq!(subscribed["result"], serde_json::json!({}));
    let missing = ask(&mut server, "resources/read", r#"{"uri":"test://nothing"}"#);
    assert_eq!(missing["error"]["code"], -32002);
    let unknown = ask(&mut server, "tools/call", r#"{"name":"add"}"#);
    assert_eq!(unknown["error"]["code"], -32602);
}

#[test]
fn the_friendly_set_does_not_serve_the_suites_tools() {
    let mut server = MockServer::new();
    let text = ask(&mut server, "tools/call", r#"{"name":"test_simple_text"}"#);
    assert_eq!(
        text["error"]["code"], -32602,
        "the suite's tools are not in the friendly set"
    );
}

/// On stdio the log lines a tool sends while it runs are written before its result, and
/// `logging/setLevel` decides which are sent.
#[test]
fn log_lines_come_before_the_result_on_stdio_as_the_level_allows() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_jrpc"))
        .args(["serve", "--fixtures", "conformance"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_tool_with_logging"}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"error"}}"#,
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"test_tool_with_logging"}}"#,
    ]
    .join("\n");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = common::finish(child, "jrpc serve --fixtures conformance");
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let what: Vec<String> = lines
        .iter()
        .map(|m| match m["method"].as_str() {
            Some(method) => format!("{method} {}", m["params"]["data"].as_str().unwrap_or("")),
            None => format!("reply {}", m["id"]),
        })
        .collect();
    assert_eq!(
        what,
        [
            "reply 1",
            "notifications/message Tool execution started",
            "notifications/message Tool processing data",
            "notifications/message Tool execution completed",
            "reply 2",
            "reply 3",
            "reply 4",
        ],
        "info lines are not sent once the level is error"
    );
}

#[test]
fn the_json_schema_2020_12_tool_lists_its_schema_keywords_as_written() {
    let mut server = MockServer::with_fixtures(Fixtures::Conformance);
    let listed = ask(&mut server, "tools/list", "{}");
    let tool = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "json_schema_2020_12_tool")
        .expect("the tool is listed")
        .clone();
    let schema = &tool["inputSchema"];
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(schema["$defs"]["address"]["$anchor"], "addressDef");
    assert_eq!(schema["properties"]["address"]["$ref"], "#/$defs/address");
    assert_eq!(schema["additionalProperties"], false);
    for keyword in ["allOf", "if", "then", "else"] {
        assert!(schema.get(keyword).is_some(), "{keyword}");
    }
}
