//! The mock under MCP 2026-07-28's stateless lifecycle (SEP-2575), in the engine: each request
//! carries its version and the client's capabilities in `_meta`; the methods the revision removed
//! are unknown; a log line needs the request's own log level; a capability the client did not
//! declare is -32021; a missing resource is -32602; over HTTP (`handle_http`) the headers must
//! match the body (SEP-2243) and a refusal says its status. The same server keeps serving the
//! handshake versions. `jrpc serve --http` itself: tests/serve_http.rs.

use jsonrpc_playground::mock::{Fixtures, HttpHeaders, MockServer};
use serde_json::{json, Value as J};

const MODERN: &str = "2026-07-28";

/// A 2026-07-28 request: `params` with the envelope added (`capabilities` declared).
fn modern(id: u32, method: &str, mut params: J, capabilities: J) -> String {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    });
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// The headers a conforming client sends with `method` (and `name`, for Mcp-Name).
fn headers(method: &str, name: Option<&str>) -> HttpHeaders {
    HttpHeaders {
        protocol_version: Some(MODERN.into()),
        method: Some(method.into()),
        name: name.map(str::to_string),
    }
}

fn parse(text: &str) -> J {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn reply_of(server: &mut MockServer, input: &str) -> J {
    parse(&server.handle(input.as_bytes()).expect("a reply"))
}

fn conformance() -> MockServer {
    MockServer::with_fixtures(Fixtures::Conformance)
}

#[test]
fn removed_methods_are_method_not_found_under_2026() {
    for method in [
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
    ] {
        let reply = reply_of(
            &mut MockServer::new(),
            &modern(
                1,
                method,
                json!({"uri": "mock://notes", "level": "info"}),
                json!({}),
            ),
        );
        assert_eq!(reply["error"]["code"], -32601, "{method}: {reply}");
    }
}

#[test]
fn the_handshake_versions_still_have_ping_and_initialize() {
    let mut server = MockServer::new();
    let ping = reply_of(&mut server, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
    assert_eq!(ping["result"], json!({}));
    let init = reply_of(
        &mut server,
        r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
    );
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18");
}

#[test]
fn discover_lists_the_versions_the_unsupported_version_error_lists() {
    let mut server = MockServer::new();
    let discover = reply_of(
        &mut server,
        &modern(1, "server/discover", json!({}), json!({})),
    );
    let mut wrong = modern(2, "server/discover", json!({}), json!({}));
    wrong = wrong.replace(MODERN, "v999.0.0");
    let error = reply_of(&mut server, &wrong);
    assert_eq!(error["error"]["code"], -32022);
    assert_eq!(
        error["error"]["data"]["supported"],
        discover["result"]["supportedVersions"]
    );
    assert_eq!(error["error"]["data"]["requested"], "v999.0.0");
}

#[test]
fn a_missing_resource_is_invalid_params_with_its_uri_under_2026() {
    let reply = reply_of(
        &mut conformance(),
        &modern(
            1,
            "resources/read",
            json!({"uri": "test://nothing"}),
            json!({}),
        ),
    );
    assert_eq!(reply["error"]["code"], -32602);
    assert_eq!(reply["error"]["data"]["uri"], "test://nothing");
}

#[test]
fn a_missing_resource_is_still_32002_under_the_handshake_versions() {
    let reply = reply_of(
        &mut conformance(),
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"test://nothing"}}"#,
    );
    assert_eq!(reply["error"]["code"], -32002);
}

#[test]
fn a_tool_needing_an_undeclared_capability_is_32021_naming_it() {
    let mut server = conformance();
    let call = modern(
        1,
        "tools/call",
        json!({"name": "test_missing_capability", "arguments": {}}),
        json!({}),
    );
    let answer = server.handle_http(
        call.as_bytes(),
        headers("tools/call", Some("test_missing_capability")),
    );
    let reply = parse(&answer.reply.expect("a reply"));
    assert_eq!(reply["error"]["code"], -32021, "{reply}");
    assert_eq!(
        reply["error"]["data"]["requiredCapabilities"],
        json!({"sampling": {}})
    );
    assert_eq!(answer.status, Some(400));
}

#[test]
fn a_tool_needing_a_declared_capability_runs() {
    let reply = reply_of(
        &mut conformance(),
        &modern(
            1,
            "tools/call",
            json!({"name": "test_missing_capability", "arguments": {}}),
            json!({"sampling": {}}),
        ),
    );
    assert_eq!(reply["result"]["resultType"], "complete", "{reply}");
}

#[test]
fn no_log_lines_for_a_request_without_a_log_level() {
    let mut server = conformance();
    let call = modern(
        1,
        "tools/call",
        json!({"name": "test_logging_tool", "arguments": {}}),
        json!({}),
    );
    let reply = reply_of(&mut server, &call);
    assert!(reply["result"].is_object(), "{reply}");
    assert!(server.take_sent().is_empty());
}

#[test]
fn log_lines_at_or_above_the_requests_log_level() {
    let mut server = conformance();
    let mut call: J = parse(&modern(
        1,
        "tools/call",
        json!({"name": "test_logging_tool", "arguments": {}}),
        json!({}),
    ));
    call["params"]["_meta"]["io.modelcontextprotocol/logLevel"] = json!("info");
    server.handle(call.to_string().as_bytes());
    assert_eq!(server.take_sent().len(), 3);
    call["params"]["_meta"]["io.modelcontextprotocol/logLevel"] = json!("error");
    server.handle(call.to_string().as_bytes());
    assert!(server.take_sent().is_empty(), "info lines are below error");
}

#[test]
fn http_a_request_whose_meta_lacks_the_envelope_is_400_invalid_params() {
    let body = r#"{"jsonrpc":"2.0","id":7,"method":"server/discover","params":{}}"#;
    let answer = MockServer::new().handle_http(body.as_bytes(), headers("server/discover", None));
    let reply = parse(&answer.reply.expect("a reply"));
    assert_eq!(reply["error"]["code"], -32602);
    assert_eq!(reply["id"], 7);
    assert_eq!(answer.status, Some(400));
}

#[test]
fn http_an_unknown_method_under_2026_is_404() {
    let body = modern(1, "unknown/method", json!({}), json!({}));
    let answer = MockServer::new().handle_http(body.as_bytes(), headers("unknown/method", None));
    assert_eq!(parse(&answer.reply.unwrap())["error"]["code"], -32601);
    assert_eq!(answer.status, Some(404));
}

#[test]
fn http_an_unsupported_version_is_400() {
    let body = modern(1, "server/discover", json!({}), json!({})).replace(MODERN, "v999.0.0");
    let mut sent = headers("server/discover", None);
    sent.protocol_version = Some("v999.0.0".into());
    let answer = MockServer::new().handle_http(body.as_bytes(), sent);
    assert_eq!(parse(&answer.reply.unwrap())["error"]["code"], -32022);
    assert_eq!(answer.status, Some(400));
}

#[test]
fn http_headers_that_differ_from_the_body_are_32020_and_400() {
    let list = modern(1, "tools/list", json!({}), json!({}));
    let call = modern(
        2,
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "hi"}}),
        json!({}),
    );
    let version_differs = {
        let mut h = headers("tools/list", None);
        h.protocol_version = Some("2025-11-25".into());
        h
    };
    for (body, sent) in [
        (&list, headers("prompts/list", None)),
        (&list, headers("TOOLS/LIST", None)),
        (
            &list,
            HttpHeaders {
                method: None,
                ..headers("tools/list", None)
            },
        ),
        (&list, version_differs),
        (&call, headers("tools/call", Some("wrong_tool"))),
        (&call, headers("tools/call", None)),
    ] {
        let answer = MockServer::new().handle_http(body.as_bytes(), sent.clone());
        let reply = parse(&answer.reply.expect("a reply"));
        assert_eq!(reply["error"]["code"], -32020, "{sent:?}: {reply}");
        assert_eq!(answer.status, Some(400), "{sent:?}");
    }
}

#[test]
fn http_matching_headers_are_accepted_with_whitespace_around_values() {
    let call = modern(
        1,
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "hi"}}),
        json!({}),
    );
    let answer =
        MockServer::new().handle_http(call.as_bytes(), headers("  tools/call ", Some(" echo  ")));
    let reply = parse(&answer.reply.expect("a reply"));
    assert_eq!(reply["result"]["content"][0]["text"], "hi", "{reply}");
    assert_eq!(answer.status, None);
}

#[test]
fn http_handshake_requests_are_not_held_to_the_2026_headers() {
    let answer = MockServer::new().handle_http(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        HttpHeaders::default(),
    );
    assert!(parse(&answer.reply.unwrap())["result"]["tools"].is_array());
    assert_eq!(answer.status, None);
}
