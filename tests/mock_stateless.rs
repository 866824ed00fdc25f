//! The mock under MCP 2026-07-28's stateless lifecycle (SEP-2575), in the engine: each request
//! carries its version and the client's capabilities in `_meta`; the methods the revision removed
//! are unknown; a log line needs the request's own log level; a capability the client did not
//! declare is -32021; a missing resource is -32602; over HTTP (`handle_http`) the headers must
//! match the body (SEP-2243) and a refusal says its status. The same server keeps serving the
//! handshake versions. `jrpc serve --http` itself: tests/serve_http.rs.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

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
        params: Vec::new(),
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
    let reply = parse(&answer.reply.expect("a reply").text);
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
    let reply = parse(&answer.reply.expect("a reply").text);
    assert_eq!(reply["error"]["code"], -32602);
    assert_eq!(reply["id"], 7);
    assert_eq!(answer.status, Some(400));
}

#[test]
fn http_an_unknown_method_under_2026_is_404() {
    let body = modern(1, "unknown/method", json!({}), json!({}));
    let answer = MockServer::new().handle_http(body.as_bytes(), headers("unknown/method", None));
    assert_eq!(parse(&answer.reply.unwrap().text)["error"]["code"], -32601);
    assert_eq!(answer.status, Some(404));
}

#[test]
fn http_an_unsupported_version_is_400() {
    let body = modern(1, "server/discover", json!({}), json!({})).replace(MODERN, "v999.0.0");
    let mut sent = headers("server/discover", None);
    sent.protocol_version = Some("v999.0.0".into());
    let answer = MockServer::new().handle_http(body.as_bytes(), sent);
    assert_eq!(parse(&answer.reply.unwrap().text)["error"]["code"], -32022);
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
        let reply = parse(&answer.reply.expect("a reply").text);
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
    let reply = parse(&answer.reply.expect("a reply").text);
    assert_eq!(reply["result"]["content"][0]["text"], "hi", "{reply}");
    assert_eq!(answer.status, None);
}

#[test]
fn http_handshake_requests_are_not_held_to_the_2026_headers() {
    let answer = MockServer::new().handle_http(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        HttpHeaders::default(),
    );
    assert!(parse(&answer.reply.unwrap().text)["result"]["tools"].is_array());
    assert_eq!(answer.status, None);
}

// ---- input-required results (SEP-2322) ------------------------------------------------------

/// Every capability a client can be asked for.
fn all_capabilities() -> J {
    json!({"sampling": {}, "elicitation": {}, "roots": {}})
}

/// A `tools/call` of the conformance tool `name`, with `extra` params (inputResponses, requestState).
fn call_tool(server: &mut MockServer, name: &str, extra: J, capabilities: J) -> J {
    let mut params = json!({"name": name, "arguments": {}});
    for (key, value) in extra.as_object().unwrap() {
        params[key] = value.clone();
    }
    reply_of(server, &modern(1, "tools/call", params, capabilities))
}

fn accept(content: J) -> J {
    json!({"action": "accept", "content": content})
}

#[test]
fn an_elicitation_round_asks_then_completes_with_the_answer() {
    let mut server = conformance();
    let tool = "test_input_required_result_elicitation";
    let first = call_tool(&mut server, tool, json!({}), all_capabilities());
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    assert_eq!(
        first["result"]["inputRequests"]["user_name"]["method"],
        "elicitation/create"
    );
    let second = call_tool(
        &mut server,
        tool,
        json!({"inputResponses": {"user_name": accept(json!({"name": "Alice"}))}}),
        all_capabilities(),
    );
    assert_eq!(second["result"]["resultType"], "complete", "{second}");
    assert_eq!(second["result"]["content"][0]["text"], "Hello, Alice!");
}

#[test]
fn sampling_and_roots_rounds_use_the_clients_answers() {
    let mut server = conformance();
    let sampling = call_tool(
        &mut server,
        "test_input_required_result_sampling",
        json!({"inputResponses": {"capital_question": {"role": "assistant", "content": {"type": "text", "text": "Paris."}, "model": "m"}}}),
        all_capabilities(),
    );
    assert!(
        sampling["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("Paris."),
        "{sampling}"
    );
    let first = call_tool(
        &mut server,
        "test_input_required_result_list_roots",
        json!({}),
        all_capabilities(),
    );
    assert_eq!(
        first["result"]["inputRequests"]["client_roots"]["method"],
        "roots/list"
    );
    let roots = call_tool(
        &mut server,
        "test_input_required_result_list_roots",
        json!({"inputResponses": {"client_roots": {"roots": [{"uri": "file:///r", "name": "R"}]}}}),
        all_capabilities(),
    );
    assert!(
        roots["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("file:///r (R)"),
        "{roots}"
    );
}

#[test]
fn several_input_requests_in_one_result_complete_when_all_are_answered() {
    let mut server = conformance();
    let tool = "test_input_required_result_multiple_inputs";
    let first = call_tool(&mut server, tool, json!({}), all_capabilities());
    let requests = first["result"]["inputRequests"].as_object().unwrap();
    let methods: Vec<&str> = requests
        .values()
        .map(|r| r["method"].as_str().unwrap())
        .collect();
    assert_eq!(
        methods,
        ["elicitation/create", "sampling/createMessage", "roots/list"]
    );
    let state = first["result"]["requestState"].clone();
    let partial = call_tool(
        &mut server,
        tool,
        json!({"inputResponses": {"user_name": accept(json!({"name": "Alice"}))}, "requestState": state}),
        all_capabilities(),
    );
    let asked_again: Vec<&String> = partial["result"]["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(
        asked_again,
        ["greeting", "client_roots"],
        "only what is missing: {partial}"
    );
    let all = call_tool(
        &mut server,
        tool,
        json!({"inputResponses": {
            "user_name": accept(json!({"name": "Alice"})),
            "greeting": {"role": "assistant", "content": {"type": "text", "text": "Hi"}, "model": "m"},
            "client_roots": {"roots": [{"uri": "file:///r"}]},
            "never_asked": {"anything": true}
        }, "requestState": state}),
        all_capabilities(),
    );
    assert_eq!(all["result"]["resultType"], "complete", "{all}");
}

#[test]
fn several_rounds_carry_the_earlier_answers_in_a_new_request_state() {
    let mut server = conformance();
    let tool = "test_input_required_result_multi_round";
    let r1 = call_tool(&mut server, tool, json!({}), all_capabilities());
    let r2 = call_tool(
        &mut server,
        tool,
        json!({"inputResponses": {"step1": accept(json!({"name": "Ada"}))}, "requestState": r1["result"]["requestState"]}),
        all_capabilities(),
    );
    assert!(r2["result"]["inputRequests"]["step2"].is_object(), "{r2}");
    assert_ne!(r2["result"]["requestState"], r1["result"]["requestState"]);
    let r3 = call_tool(
        &mut server,
        tool,
        json!({"inputResponses": {"step2": accept(json!({"color": "blue"}))}, "requestState": r2["result"]["requestState"]}),
        all_capabilities(),
    );
    assert_eq!(
        r3["result"]["content"][0]["text"], "Ada's favourite colour is blue.",
        "{r3}"
    );
}

#[test]
fn a_changed_request_state_is_invalid_params() {
    let mut server = conformance();
    let tool = "test_input_required_result_tampered_state";
    let first = call_tool(&mut server, tool, json!({}), all_capabilities());
    let state = first["result"]["requestState"]
        .as_str()
        .unwrap()
        .to_string();
    let (payload, mac) = state.rsplit_once('.').unwrap();
    for changed in [
        format!("{state}-TAMPERED"),
        state.replacen("awaiting", "Awaiting", 1),
        "x".into(),
        // The same MAC in upper case: another string than the one signed.
        format!("{payload}.{}", mac.to_ascii_uppercase()),
    ] {
        let reply = call_tool(
            &mut server,
            tool,
            json!({"inputResponses": {"confirm": accept(json!({"ok": true}))}, "requestState": changed}),
            all_capabilities(),
        );
        assert_eq!(reply["error"]["code"], -32602, "{changed}: {reply}");
    }
}

#[test]
fn a_request_state_from_another_server_or_another_tool_is_refused() {
    let mut signer = conformance();
    signer.set_state_key([7; 32]);
    let first = call_tool(
        &mut signer,
        "test_input_required_result_request_state",
        json!({}),
        all_capabilities(),
    );
    let state = first["result"]["requestState"].clone();
    let answer = json!({"confirm": accept(json!({"ok": true}))});
    // The same server, the same tool: accepted.
    let ok = call_tool(
        &mut signer,
        "test_input_required_result_request_state",
        json!({"inputResponses": answer, "requestState": state}),
        all_capabilities(),
    );
    assert!(
        ok["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("state-ok"),
        "{ok}"
    );
    // Another server (another key).
    let mut other = conformance();
    other.set_state_key([8; 32]);
    let foreign = call_tool(
        &mut other,
        "test_input_required_result_request_state",
        json!({"inputResponses": answer, "requestState": state}),
        all_capabilities(),
    );
    assert_eq!(foreign["error"]["code"], -32602, "{foreign}");
    // Another tool of the same server.
    let elsewhere = call_tool(
        &mut signer,
        "test_input_required_result_tampered_state",
        json!({"inputResponses": answer, "requestState": state}),
        all_capabilities(),
    );
    assert_eq!(elsewhere["error"]["code"], -32602, "{elsewhere}");
}

#[test]
fn a_missing_or_unusable_answer_is_asked_for_again() {
    let mut server = conformance();
    let tool = "test_input_required_result_elicitation";
    for responses in [
        json!({"wrong_key": accept(json!({"data": 1}))}),
        json!({"user_name": 12345}),
    ] {
        let reply = call_tool(
            &mut server,
            tool,
            json!({"inputResponses": responses}),
            all_capabilities(),
        );
        assert_eq!(
            reply["result"]["resultType"], "input_required",
            "{responses}: {reply}"
        );
    }
}

#[test]
fn a_conformance_form_answer_that_breaks_its_requested_schema_is_invalid_params() {
    let mut server = conformance();
    let confirm = "test_input_required_result_request_state";
    let first = call_tool(&mut server, confirm, json!({}), all_capabilities());
    let state = first["result"]["requestState"].clone();
    let cases = [
        (
            "test_input_required_result_elicitation",
            json!({"inputResponses": {"user_name": accept(json!({"name": 5}))}}),
            "/params/inputResponses/user_name/content/name",
        ),
        (
            confirm,
            json!({"inputResponses": {"confirm": accept(json!({"ok": "yes"}))}, "requestState": state}),
            "/params/inputResponses/confirm/content/ok",
        ),
        (
            "test_input_required_result_multi_round",
            json!({"inputResponses": {"step1": accept(json!({}))}}),
            "/params/inputResponses/step1/content",
        ),
    ];
    for (tool, extra, at) in cases {
        let reply = call_tool(&mut server, tool, extra, all_capabilities());
        assert_eq!(reply["error"]["code"], -32602, "{tool}: {reply}");
        assert!(reply.to_string().contains(at), "{tool}: {at} in {reply}");
    }
    let prompt = reply_of(
        &mut server,
        &modern(
            1,
            "prompts/get",
            json!({"name": "test_input_required_result_prompt",
                   "inputResponses": {"user_context": accept(json!({"context": [1]}))}}),
            all_capabilities(),
        ),
    );
    assert_eq!(prompt["error"]["code"], -32602, "{prompt}");
}

#[test]
fn input_responses_that_are_not_an_object_are_invalid_params() {
    let reply = call_tool(
        &mut conformance(),
        "test_input_required_result_elicitation",
        json!({"inputResponses": null}),
        all_capabilities(),
    );
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
}

#[test]
fn only_the_declared_capabilities_are_asked() {
    let reply = call_tool(
        &mut conformance(),
        "test_input_required_result_capabilities",
        json!({}),
        json!({"sampling": {}}),
    );
    let methods: Vec<&str> = reply["result"]["inputRequests"]
        .as_object()
        .unwrap()
        .values()
        .map(|r| r["method"].as_str().unwrap())
        .collect();
    assert_eq!(methods, ["sampling/createMessage"], "{reply}");
    let undeclared = call_tool(
        &mut conformance(),
        "test_input_required_result_elicitation",
        json!({}),
        json!({}),
    );
    assert_eq!(undeclared["error"]["code"], -32021, "{undeclared}");
}

#[test]
fn a_prompt_asks_too_and_completes_as_a_get_prompt_result() {
    let mut server = conformance();
    let get = |server: &mut MockServer, extra: J| {
        let mut params = json!({"name": "test_input_required_result_prompt"});
        for (key, value) in extra.as_object().unwrap() {
            params[key] = value.clone();
        }
        reply_of(
            server,
            &modern(1, "prompts/get", params, all_capabilities()),
        )
    };
    let first = get(&mut server, json!({}));
    assert_eq!(
        first["result"]["inputRequests"]["user_context"]["method"],
        "elicitation/create"
    );
    let second = get(
        &mut server,
        json!({"inputResponses": {"user_context": accept(json!({"context": "tests"}))}}),
    );
    assert!(
        second["result"]["messages"][0]["content"]["text"]
            .as_str()
            .unwrap()
            .contains("tests"),
        "{second}"
    );
}

// ---- the friendly tools that ask, under 2026-07-28 -------------------------------------------

/// A friendly `tools/call` of `name` with `arguments` and `extra` params.
fn call_friendly(
    server: &mut MockServer,
    name: &str,
    arguments: J,
    extra: J,
    capabilities: J,
) -> J {
    let mut params = json!({"name": name, "arguments": arguments});
    for (key, value) in extra.as_object().unwrap() {
        params[key] = value.clone();
    }
    reply_of(server, &modern(1, "tools/call", params, capabilities))
}

/// A friendly tool's two rounds: the first call asks `method` under the key `answer`; the retry
/// carries `answer` and its reply is returned.
fn two_rounds(tool: &str, arguments: J, method: &str, answer: J) -> J {
    let mut server = MockServer::new();
    let first = call_friendly(
        &mut server,
        tool,
        arguments.clone(),
        json!({}),
        all_capabilities(),
    );
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    assert_eq!(
        first["result"]["inputRequests"]["answer"]["method"], method,
        "{first}"
    );
    let responses = json!({"inputResponses": {"answer": answer}});
    call_friendly(&mut server, tool, arguments, responses, all_capabilities())
}

#[test]
fn summarize_asks_the_model_inside_its_result_and_completes_with_the_summary() {
    let answer =
        json!({"role": "assistant", "content": {"type": "text", "text": "Short."}, "model": "m1"});
    let done = two_rounds(
        "summarize",
        json!({"text": "A long text."}),
        "sampling/createMessage",
        answer,
    );
    assert_eq!(
        done["result"]["content"][0]["text"], "Summary by m1: Short.",
        "{done}"
    );
}

#[test]
fn ask_name_asks_the_user_inside_its_result_and_greets_them() {
    let answer = accept(json!({"name": "Ada", "colour": "green"}));
    let done = two_rounds("ask_name", json!({}), "elicitation/create", answer);
    let text = &done["result"]["content"][0]["text"];
    assert_eq!(
        text, "Hello, Ada! Your favourite colour is green.",
        "{done}"
    );
}

#[test]
fn list_roots_asks_the_roots_inside_its_result_and_names_them() {
    let answer = json!({"roots": [{"uri": "file:///home/ada/project", "name": "project"}]});
    let done = two_rounds("list_roots", json!({}), "roots/list", answer);
    let text = &done["result"]["content"][0]["text"];
    assert_eq!(
        text, "The client's roots: file:///home/ada/project (project)",
        "{done}"
    );
}

#[test]
fn a_friendly_tool_that_asks_an_undeclared_capability_is_32021() {
    let reply = call_friendly(
        &mut MockServer::new(),
        "list_roots",
        json!({}),
        json!({}),
        json!({"sampling": {}}),
    );
    assert_eq!(reply["error"]["code"], -32021, "{reply}");
    assert_eq!(
        reply["error"]["data"]["requiredCapabilities"],
        json!({"roots": {}})
    );
}

#[test]
fn an_unusable_answer_to_a_friendly_tool_is_asked_for_again() {
    let reply = call_friendly(
        &mut MockServer::new(),
        "summarize",
        json!({"text": "t"}),
        json!({"inputResponses": {"answer": {"no": "content"}}}),
        all_capabilities(),
    );
    assert_eq!(reply["result"]["resultType"], "input_required", "{reply}");
}

// ---- Mcp-Param-* headers (x-mcp-header, SEP-2243) ------------------------------------------

/// `jrpc serve --fixtures conformance`'s test_header_param with `region`, and the
/// `Mcp-Param-Region` header `sent`.
fn header_param_call(region: &str, sent: Option<&str>) -> jsonrpc_playground::mock::HttpReply {
    let call = modern(
        1,
        "tools/call",
        json!({"name": "test_header_param", "arguments": {"region": region}}),
        json!({}),
    );
    let mut sent_headers = headers("tools/call", Some("test_header_param"));
    sent_headers.params = sent
        .map(|v| vec![("region".to_string(), v.to_string())])
        .unwrap_or_default();
    conformance().handle_http(call.as_bytes(), sent_headers)
}

#[test]
fn the_header_tool_marks_its_mirrored_argument_with_x_mcp_header() {
    let listed = reply_of(
        &mut conformance(),
        &modern(1, "tools/list", json!({}), json!({})),
    );
    let tool = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "test_header_param")
        .unwrap()
        .clone();
    assert_eq!(
        tool["inputSchema"]["properties"]["region"]["x-mcp-header"],
        "Region"
    );
}

#[test]
fn a_param_header_matching_its_argument_plain_or_base64_is_accepted() {
    for sent in ["us-west1", "=?base64?dXMtd2VzdDE=?="] {
        let answer = header_param_call("us-west1", Some(sent));
        let reply = parse(&answer.reply.unwrap().text);
        assert_eq!(
            reply["result"]["content"][0]["text"], "Region: us-west1",
            "{sent}: {reply}"
        );
        assert_eq!(answer.status, None);
    }
}

#[test]
fn a_value_without_the_whole_sentinel_is_compared_as_written() {
    let answer = header_param_call("=?base64?SGVsbG8=", Some("=?base64?SGVsbG8="));
    assert_eq!(answer.status, None, "{:?}", answer.reply);
}

#[test]
fn a_param_header_missing_differing_or_badly_encoded_is_32020_and_400() {
    for sent in [
        None,
        Some("eu-north1"),
        Some("=?base64?SGVsbG8?="),
        Some("=?base64?SGVs!!!bG8=?="),
    ] {
        let answer = header_param_call("Hello", sent);
        let reply = parse(&answer.reply.unwrap().text);
        assert_eq!(reply["error"]["code"], -32020, "{sent:?}: {reply}");
        assert_eq!(answer.status, Some(400));
    }
}

#[test]
fn an_mcp_name_in_the_base64_sentinel_is_decoded_before_it_is_compared() {
    let call = modern(
        1,
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "hi"}}),
        json!({}),
    );
    let answer = MockServer::new().handle_http(
        call.as_bytes(),
        headers("tools/call", Some("=?base64?ZWNobw==?=")),
    );
    assert_eq!(answer.status, None, "{:?}", answer.reply);
}
