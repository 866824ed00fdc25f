//! `jrpc serve --fixtures conformance`: the official MCP conformance suite's tools, resources and
//! prompts (the suite itself runs in tests/conformance/run.sh), and what the friendly set does not
//! declare it does not answer.

use jsonrpc_playground::mock::{Fixtures, MockServer};

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
fn the_friendly_set_neither_declares_nor_answers_subscriptions() {
    let mut server = MockServer::new();
    let init = ask(
        &mut server,
        "initialize",
        r#"{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}"#,
    );
    assert_eq!(
        init["result"]["capabilities"]["resources"],
        serde_json::json!({})
    );
    let subscribed = ask(
        &mut server,
        "resources/subscribe",
        r#"{"uri":"mock://readme"}"#,
    );
    assert_eq!(subscribed["error"]["code"], -32601);
    let text = ask(&mut server, "tools/call", r#"{"name":"test_simple_text"}"#);
    assert_eq!(
        text["error"]["code"], -32602,
        "the suite's tools are not in the friendly set"
    );
}
