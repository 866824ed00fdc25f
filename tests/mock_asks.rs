//! The mock's tools that ask the client during a call (`sampling/createMessage`,
//! `elicitation/create`): the server's request goes out with an id of its own, the call waits, and
//! the client's response (a later document) finishes it with the original id; cancellation drops
//! it; a client that did not declare the capability gets a tool error. Both fixture sets.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use jsonrpc_playground::mock::{CallId, Fixtures, MockServer, Outgoing, OutgoingKind, MAX_PENDING};
use jsonrpc_playground::rpc::{check, McpVersion, Profile, Severity};
use serde_json::{json, Value};

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// A server initialized under `version` by a client declaring `capabilities` (a JSON object).
fn session(fixtures: Fixtures, version: &str, capabilities: &str) -> MockServer {
    let mut server = MockServer::with_fixtures(fixtures);
    let init = format!(
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{capabilities},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
    );
    server
        .handle(init.as_bytes())
        .expect("initialize is answered");
    server.handle(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    server
}

fn both() -> MockServer {
    session(
        Fixtures::Friendly,
        "2025-11-25",
        r#"{"sampling":{},"elicitation":{}}"#,
    )
}

/// Calls `tool` with `arguments` (id `id`, as written): the direct reply and the outbox.
fn call(
    server: &mut MockServer,
    id: &str,
    tool: &str,
    arguments: &str,
) -> (Option<String>, Vec<Outgoing>) {
    let request = format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
    );
    let reply = server.handle(request.as_bytes());
    (reply, server.take_outgoing())
}

/// The one request to the client a call sent (and the call waits).
fn asked(server: &mut MockServer, id: &str, tool: &str, arguments: &str) -> Value {
    let (reply, outgoing) = call(server, id, tool, arguments);
    assert_eq!(reply, None, "{tool}: the call waits for the client");
    let [request] = outgoing.as_slice() else {
        panic!("{tool}: one request to the client, got {outgoing:?}");
    };
    assert_eq!(request.kind, OutgoingKind::Request);
    parse(&request.text)
}

/// Sends the client's response `body` (a JSON text with "result" or "error") to request `id`:
/// the deferred reply, checked to be the outbox's only reply.
fn answer(server: &mut MockServer, response: Value) -> Value {
    let text = response.to_string();
    assert_eq!(
        server.handle(text.as_bytes()),
        None,
        "a response is never answered"
    );
    let outgoing = server.take_outgoing();
    let replies: Vec<&Outgoing> = outgoing
        .iter()
        .filter(|o| o.kind == OutgoingKind::Reply)
        .collect();
    let [reply] = replies.as_slice() else {
        panic!("one deferred reply, got {outgoing:?}");
    };
    parse(&reply.text)
}

fn text_of(reply: &Value) -> &str {
    reply["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
}

fn sampling_result(text: &str) -> Value {
    json!({"role": "assistant", "content": {"type": "text", "text": text}, "model": "m-1", "stopReason": "endTurn"})
}

#[test]
fn summarize_asks_the_clients_model_and_returns_what_it_wrote() {
    let mut server = both();
    let request = asked(&mut server, "7", "summarize", r#"{"text":"A long story."}"#);
    assert_eq!(request["method"], "sampling/createMessage");
    assert_eq!(request["id"], "mock-1");
    assert_eq!(request["params"]["maxTokens"], 100);
    assert!(request["params"]["messages"][0]["content"]["text"]
        .as_str()
        .unwrap()
        .ends_with("A long story."));
    let reply = answer(
        &mut server,
        json!({"jsonrpc": "2.0", "id": "mock-1", "result": sampling_result("Short.")}),
    );
    assert_eq!(reply["id"], 7);
    assert_eq!(text_of(&reply), "Summary by m-1: Short.");
    assert_eq!(reply["result"].get("isError"), None);
}

#[test]
fn ask_name_greets_with_what_the_user_answered() {
    let cases = [
        (
            json!({"action": "accept", "content": {"name": "Bo", "colour": "red"}}),
            "Hello, Bo! Your favourite colour is red.",
        ),
        (
            json!({"action": "accept", "content": {"name": "Bo"}}),
            "Hello, Bo!",
        ),
        (
            json!({"action": "decline"}),
            "You declined to give your name. Hello anyway, stranger!",
        ),
        (
            json!({"action": "cancel"}),
            "You dismissed the question: no name, no greeting.",
        ),
    ];
    for (result, expected) in cases {
        let mut server = both();
        let request = asked(&mut server, "1", "ask_name", "{}");
        assert_eq!(request["method"], "elicitation/create");
        let reply = answer(
            &mut server,
            json!({"jsonrpc": "2.0", "id": request["id"], "result": result}),
        );
        assert_eq!(text_of(&reply), expected, "{result}");
        assert_eq!(reply["result"].get("isError"), None);
    }
}

#[test]
fn ask_names_form_has_a_default_and_titled_choices_from_2025_11_25_on() {
    let cases = [
        ("2025-06-18", None, false),
        ("2025-11-25", Some("Ada"), true),
    ];
    for (version, default, titled) in cases {
        let mut server = session(Fixtures::Friendly, version, r#"{"elicitation":{}}"#);
        let request = asked(&mut server, "1", "ask_name", "{}");
        let fields = &request["params"]["requestedSchema"]["properties"];
        assert_eq!(fields["name"]["default"].as_str(), default, "{version}");
        assert_eq!(fields["colour"]["oneOf"].is_array(), titled, "{version}");
        assert_eq!(
            fields["colour"]["enumNames"].is_array(),
            !titled,
            "{version}"
        );
    }
}

#[test]
fn asking_tools_are_listed_by_the_versions_that_can_ask() {
    let cases = [
        ("2024-11-05", true, false),
        ("2025-03-26", true, false),
        ("2025-06-18", true, true),
        ("2025-11-25", true, true),
    ];
    for (version, summarize, ask_name) in cases {
        let mut server = session(Fixtures::Friendly, version, "{}");
        let listed = server
            .handle(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#)
            .unwrap();
        let names: Vec<String> = parse(&listed)["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(names.contains(&"summarize".into()), summarize, "{version}");
        assert_eq!(names.contains(&"ask_name".into()), ask_name, "{version}");
    }
    // 2026-07-28 asks inside a result (input_required), not by a request of its own: it lists
    // them all (tests/mock_stateless.rs plays the rounds).
    let mut server = MockServer::new();
    let modern = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{"sampling":{},"elicitation":{}}}}}"#;
    let listed = parse(&server.handle(modern.as_bytes()).unwrap());
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    for tool in ["summarize", "ask_name", "list_roots"] {
        assert!(names.contains(&tool), "{tool}: {names:?}");
    }
}

#[test]
fn a_client_that_did_not_declare_the_capability_gets_a_tool_error() {
    let cases = [
        (
            Fixtures::Friendly,
            "summarize",
            r#"{"text":"x"}"#,
            r#"{"elicitation":{}}"#,
            "\"sampling\"",
        ),
        (
            Fixtures::Friendly,
            "ask_name",
            "{}",
            r#"{"sampling":{}}"#,
            "\"elicitation\"",
        ),
        (
            Fixtures::Conformance,
            "test_sampling",
            r#"{"prompt":"x"}"#,
            "{}",
            "\"sampling\"",
        ),
        (
            Fixtures::Conformance,
            "test_elicitation",
            r#"{"message":"x"}"#,
            "{}",
            "\"elicitation\"",
        ),
        (
            Fixtures::Conformance,
            "test_elicitation_sep1034_defaults",
            "{}",
            "{}",
            "\"elicitation\"",
        ),
        (
            Fixtures::Conformance,
            "test_elicitation_sep1330_enums",
            "{}",
            "{}",
            "\"elicitation\"",
        ),
    ];
    for (fixtures, tool, arguments, capabilities, named) in cases {
        let mut server = session(fixtures, "2025-11-25", capabilities);
        let (reply, outgoing) = call(&mut server, "1", tool, arguments);
        let reply = parse(&reply.expect("answered at once"));
        assert_eq!(reply["result"]["isError"], true, "{tool}");
        assert!(text_of(&reply).contains(named), "{tool}: {reply}");
        assert!(outgoing.is_empty(), "{tool}: nothing is asked");
        assert!(server.pending_requests().is_empty());
    }
}

#[test]
fn an_error_response_finishes_the_call_with_a_tool_error_naming_it() {
    let mut server = both();
    asked(&mut server, "1", "summarize", r#"{"text":"x"}"#);
    let reply = answer(
        &mut server,
        json!({"jsonrpc": "2.0", "id": "mock-1", "error": {"code": -1, "message": "User rejected sampling"}}),
    );
    assert_eq!(reply["result"]["isError"], true);
    assert_eq!(
        text_of(&reply),
        "the client answered sampling/createMessage (mock-1) with error -1: User rejected sampling"
    );
}

#[test]
fn an_unusable_answer_finishes_the_call_with_a_located_tool_error() {
    let cases = [
        (
            "summarize",
            r#"{"text":"x"}"#,
            r#"{"jsonrpc":"2.0","id":"mock-1","result":{"model":"m"}}"#,
            "(at /result)",
        ),
        (
            "ask_name",
            "{}",
            r#"{"jsonrpc":"2.0","id":"mock-1","result":{"action":"maybe"}}"#,
            "(at /result/action)",
        ),
        (
            "ask_name",
            "{}",
            r#"{"jsonrpc":"2.0","id":"mock-1","result":{"action":"accept","content":{}}}"#,
            "(at /result/content)",
        ),
        // Not a valid response at all: the engine's finding, with its place.
        (
            "ask_name",
            "{}",
            r#"{"jsonrpc":"1.0","id":"mock-1","result":{"action":"accept"}}"#,
            "(at /jsonrpc)",
        ),
    ];
    for (tool, arguments, response, place) in cases {
        let mut server = both();
        asked(&mut server, "1", tool, arguments);
        assert_eq!(server.handle(response.as_bytes()), None);
        let outgoing = server.take_outgoing();
        let reply = parse(&outgoing.last().expect("a deferred reply").text);
        assert_eq!(reply["result"]["isError"], true, "{response}");
        assert!(text_of(&reply).ends_with(place), "{response}: {reply}");
    }
}

#[test]
fn the_deferred_reply_echoes_the_calls_id_exactly() {
    for id in [
        "1",
        "\"abc\"",
        "1.0",
        "-0",
        "12345678901234567890",
        "\"\\u0041\"",
    ] {
        let mut server = both();
        asked(&mut server, id, "summarize", r#"{"text":"x"}"#);
        let response = json!({"jsonrpc": "2.0", "id": "mock-1", "result": sampling_result("ok")});
        server.handle(response.to_string().as_bytes());
        let outgoing = server.take_outgoing();
        assert!(
            outgoing[0].text.ends_with(&format!(",\"id\":{id}}}")),
            "{id}: {}",
            outgoing[0].text
        );
    }
}

#[test]
fn a_cancelled_call_gets_no_reply_and_the_servers_request_is_cancelled() {
    let mut server = both();
    asked(&mut server, "\"call-9\"", "ask_name", "{}");
    let cancel = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"call-9","reason":"changed my mind"}}"#;
    assert_eq!(server.handle(cancel.as_bytes()), None);
    let outgoing = server.take_outgoing();
    let [only] = outgoing.as_slice() else {
        panic!("only the server's own cancellation: {outgoing:?}");
    };
    assert_eq!(only.kind, OutgoingKind::Notification);
    let notification = parse(&only.text);
    assert_eq!(notification["method"], "notifications/cancelled");
    assert_eq!(notification["params"]["requestId"], "mock-1");
    assert!(server.pending_requests().is_empty());
    // A late answer to the cancelled request changes nothing.
    let late = json!({"jsonrpc": "2.0", "id": "mock-1", "result": {"action": "cancel"}});
    assert_eq!(server.handle(late.to_string().as_bytes()), None);
    assert!(server.take_outgoing().is_empty());
}

#[test]
fn a_cancellation_naming_another_request_changes_nothing() {
    let mut server = both();
    asked(&mut server, "1", "ask_name", "{}");
    for other in ["2", "\"1\"", "\"mock-1\"", "null"] {
        let cancel = format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{other}}}}}"#
        );
        server.handle(cancel.as_bytes());
        assert!(server.take_outgoing().is_empty(), "{other}");
    }
    assert_eq!(server.pending_requests().len(), 1);
}

#[test]
fn a_call_in_a_batch_cannot_wait_and_says_so() {
    // 2025-03-26, the one MCP version with batches (later ones refuse a batch whole).
    let mut server = session(Fixtures::Friendly, "2025-03-26", r#"{"sampling":{}}"#);
    let batch = r#"[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"summarize","arguments":{"text":"x"}}}]"#;
    let reply = parse(&server.handle(batch.as_bytes()).unwrap());
    assert_eq!(reply[0]["result"]["isError"], true);
    assert!(text_of(&reply[0]).contains("batch"), "{reply}");
    assert!(server.take_outgoing().is_empty());
}

#[test]
fn pending_requests_list_what_is_awaited_and_the_example_reply_finishes_it() {
    let mut server = both();
    asked(&mut server, "5", "summarize", r#"{"text":"x"}"#);
    asked(&mut server, "6", "ask_name", "{}");
    let pending = server.pending_requests();
    let summary: Vec<(&str, &str, &str)> = pending
        .iter()
        .map(|p| (p.id.as_str(), p.call_id.as_str(), p.method))
        .collect();
    assert_eq!(
        summary,
        [
            ("mock-1", "5", "sampling/createMessage"),
            ("mock-2", "6", "elicitation/create"),
        ]
    );
    // The example reply answers with each field's default: ask_name's name is Ada, colour blue.
    let example = pending[1].example_reply.clone();
    assert_eq!(server.handle(example.as_bytes()), None);
    let reply = parse(&server.take_outgoing()[0].text);
    assert_eq!(reply["id"], 6);
    assert_eq!(
        text_of(&reply),
        "Hello, Ada! Your favourite colour is blue."
    );
    let example = pending[0].example_reply.clone();
    server.handle(example.as_bytes());
    let reply = parse(&server.take_outgoing()[0].text);
    assert_eq!(reply["id"], 5);
    assert_eq!(reply["result"].get("isError"), None, "{reply}");
}

#[test]
fn what_is_sent_for_a_call_is_tagged_with_it() {
    let mut server = both();
    let (_, first) = call(&mut server, "1", "summarize", r#"{"text":"x"}"#);
    let (_, second) = call(&mut server, "2", "ask_name", "{}");
    let (a, b) = (first[0].call.unwrap(), second[0].call.unwrap());
    assert_ne!(a, b);
    assert!(server.is_waiting(a) && server.is_waiting(b));
    let response = json!({"jsonrpc": "2.0", "id": "mock-2", "result": {"action": "decline"}});
    server.handle(response.to_string().as_bytes());
    let outgoing = server.take_outgoing();
    assert_eq!(outgoing[0].call, Some(b));
    assert_eq!(outgoing[0].kind, OutgoingKind::Reply);
    assert!(server.is_waiting(a) && !server.is_waiting(b));
}

#[test]
fn giving_up_answers_the_call_with_a_tool_error_and_cancels_the_request() {
    let mut server = both();
    let (_, sent) = call(&mut server, "3", "summarize", r#"{"text":"x"}"#);
    let call_id = sent[0].call.unwrap();
    assert!(server.give_up(call_id, "no answer within 300 s"));
    let outgoing = server.take_outgoing();
    let kinds: Vec<OutgoingKind> = outgoing.iter().map(|o| o.kind).collect();
    assert_eq!(kinds, [OutgoingKind::Notification, OutgoingKind::Reply]);
    let reply = parse(&outgoing[1].text);
    assert_eq!(reply["id"], 3);
    assert_eq!(reply["result"]["isError"], true);
    assert!(text_of(&reply).ends_with("no answer within 300 s"));
    assert!(!server.give_up(call_id, "again"), "not waiting any more");
    assert!(!server.give_up(CallId(999), "never seen"));
}

#[test]
fn at_most_max_pending_calls_wait() {
    let mut server = both();
    for id in 0..MAX_PENDING {
        asked(&mut server, &id.to_string(), "ask_name", "{}");
    }
    let (reply, outgoing) = call(&mut server, "99", "ask_name", "{}");
    let reply = parse(&reply.expect("answered at once"));
    assert_eq!(reply["result"]["isError"], true);
    assert!(outgoing.is_empty());
    assert_eq!(server.pending_requests().len(), MAX_PENDING);
}

#[test]
fn the_conformance_tools_ask_what_the_suite_checks_and_report_the_answer() {
    let cases = [
        (
            "test_sampling",
            r#"{"prompt":"Test prompt for sampling"}"#,
            json!({"role": "assistant", "content": {"type": "text", "text": "This is a test response from the client"}, "model": "test-model", "stopReason": "endTurn"}),
            "LLM response: This is a test response from the client",
        ),
        (
            "test_elicitation",
            r#"{"message":"Please provide your information"}"#,
            json!({"action": "accept", "content": {"username": "testuser", "email": "test@example.com"}}),
            r#"User response: action=accept, content={"username":"testuser","email":"test@example.com"}"#,
        ),
        (
            "test_elicitation_sep1034_defaults",
            "{}",
            json!({"action": "decline"}),
            "Elicitation completed: action=decline",
        ),
        (
            "test_elicitation_sep1330_enums",
            "{}",
            json!({"action": "accept", "content": {"untitledMulti": ["option1"]}}),
            r#"Elicitation completed: action=accept, content={"untitledMulti":["option1"]}"#,
        ),
    ];
    for (tool, arguments, result, expected) in cases {
        let mut server = session(
            Fixtures::Conformance,
            "2025-11-25",
            r#"{"sampling":{},"elicitation":{}}"#,
        );
        let request = asked(&mut server, "1", tool, arguments);
        let reply = answer(
            &mut server,
            json!({"jsonrpc": "2.0", "id": request["id"], "result": result}),
        );
        assert_eq!(text_of(&reply), expected, "{tool}");
    }
}

#[test]
fn the_sep1034_form_has_a_default_for_every_primitive_type() {
    let mut server = session(Fixtures::Conformance, "2025-11-25", r#"{"elicitation":{}}"#);
    let request = asked(&mut server, "1", "test_elicitation_sep1034_defaults", "{}");
    let fields = &request["params"]["requestedSchema"]["properties"];
    let defaults: Vec<(&str, Value)> = ["name", "age", "score", "status", "verified"]
        .iter()
        .map(|f| {
            (
                fields[f]["type"].as_str().unwrap(),
                fields[f]["default"].clone(),
            )
        })
        .collect();
    assert_eq!(
        defaults,
        [
            ("string", json!("John Doe")),
            ("integer", json!(30)),
            ("number", json!(95.5)),
            ("string", json!("active")),
            ("boolean", json!(true)),
        ]
    );
    assert_eq!(
        fields["status"]["enum"],
        json!(["active", "inactive", "pending"])
    );
}

#[test]
fn the_sep1330_form_has_the_five_kinds_of_enum() {
    let mut server = session(Fixtures::Conformance, "2025-11-25", r#"{"elicitation":{}}"#);
    let request = asked(&mut server, "1", "test_elicitation_sep1330_enums", "{}");
    let f = &request["params"]["requestedSchema"]["properties"];
    assert!(f["untitledSingle"]["enum"].is_array() && f["untitledSingle"].get("oneOf").is_none());
    assert!(
        f["titledSingle"]["oneOf"][0]["const"].is_string()
            && f["titledSingle"]["oneOf"][0]["title"].is_string()
    );
    assert_eq!(
        f["legacyEnum"]["enum"].as_array().unwrap().len(),
        f["legacyEnum"]["enumNames"].as_array().unwrap().len()
    );
    assert_eq!(f["untitledMulti"]["type"], "array");
    assert!(f["untitledMulti"]["items"]["enum"].is_array());
    assert!(f["titledMulti"]["items"]["anyOf"][0]["title"].is_string());
}

/// Every message of a session both ways, as a transcript the engine checks under `version`.
#[test]
fn the_whole_conversation_is_valid_mcp_of_its_version() {
    for version in [McpVersion::V2025_06_18, McpVersion::V2025_11_25] {
        let mut server = MockServer::new();
        let mut transcript = String::new();
        let mut exchange = |server: &mut MockServer, client: &str| {
            transcript.push_str(&format!("--> {client}\n"));
            let reply = server.handle(client.as_bytes());
            for out in server.take_outgoing() {
                transcript.push_str(&format!("<-- {}\n", out.text));
            }
            if let Some(reply) = reply {
                transcript.push_str(&format!("<-- {reply}\n"));
            }
        };
        let v = version.as_str();
        exchange(
            &mut server,
            &format!(
                r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{v}","capabilities":{{"sampling":{{}},"elicitation":{{}}}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
            ),
        );
        exchange(
            &mut server,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        );
        exchange(
            &mut server,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"summarize","arguments":{"text":"x"}}}"#,
        );
        let example = server.pending_requests()[0].example_reply.clone();
        exchange(&mut server, &example);
        exchange(
            &mut server,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask_name","arguments":{}}}"#,
        );
        let example = server.pending_requests()[0].example_reply.clone();
        exchange(&mut server, &example);
        let report = check(transcript.as_bytes(), Profile::Mcp(version));
        let errors: Vec<String> = report
            .documents
            .iter()
            .flat_map(|d| {
                d.violations
                    .iter()
                    .chain(d.items.iter().flat_map(|i| i.violations.iter()))
            })
            .filter(|v| v.severity == Severity::Error)
            .map(|v| format!("{} at {}: {}", v.rule.id, v.path, v.message))
            .collect();
        assert!(errors.is_empty(), "{v}:\n{transcript}\n{errors:#?}");
        assert_eq!(transcript.matches("<-- ").count(), 5, "{transcript}");
    }
}
