//! The mock server, table-driven: every example of JSON-RPC 2.0 §7 (replies compared as JSON values
//! and by member order), the MCP methods, -32602 with its `data`, notifications never answered, and
//! garbage never panicking.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;

use jsonrpc_playground::json::{parse_document, split_stream, Direction};
use jsonrpc_playground::mock::MockServer;
use serde_json::Value as J;

const SPEC: &str = include_str!("fixtures/spec_examples.txt");

fn reply(input: &str) -> Option<String> {
    MockServer::new().handle(input.as_bytes())
}

/// Parses with members in source order (serde_json's `preserve_order` is on).
fn parse(text: &str) -> J {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// Equal as JSON values, and with members in the same order.
fn assert_same(actual: &str, expected: &str, input: &str) {
    let (a, e) = (parse(actual), parse(expected));
    assert_eq!(
        a, e,
        "\ninput:    {input}\nreply:    {actual}\nexpected: {expected}"
    );
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&e).unwrap(),
        "member order differs\ninput: {input}"
    );
    assert!(!actual.contains('\n'), "a reply is one line: {actual}");
}

fn assert_reply(input: &str, expected: Option<&str>) {
    match (reply(input), expected) {
        (Some(actual), Some(expected)) => assert_same(&actual, expected, input),
        (None, None) => {}
        (actual, expected) => {
            panic!("\ninput:    {input}\nreply:    {actual:?}\nexpected: {expected:?}")
        }
    }
}

/// The error object of a reply, checking the envelope on the way.
fn error_of(reply: &str) -> J {
    let v = parse(reply);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["jsonrpc", "error", "id"], "{reply}");
    v["error"].clone()
}

fn result_of(reply: &str) -> J {
    let v = parse(reply);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["jsonrpc", "result", "id"], "{reply}");
    v["result"].clone()
}

// ---- JSON-RPC 2.0 §7 -------------------------------------------------------------------------

const INVALID_REQUEST: &str =
    r#"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}"#;
const PARSE_ERROR: &str =
    r#"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#;

/// Every example of https://www.jsonrpc.org/specification#examples, as the specification writes it.
const SPEC_EXAMPLES: &[(&str, Option<&str>)] = &[
    // rpc call with positional parameters
    (r#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#, Some(r#"{"jsonrpc": "2.0", "result": 19, "id": 1}"#)),
    (r#"{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}"#, Some(r#"{"jsonrpc": "2.0", "result": -19, "id": 2}"#)),
    // rpc call with named parameters
    (
        r#"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#,
        Some(r#"{"jsonrpc": "2.0", "result": 19, "id": 3}"#),
    ),
    (
        r#"{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}"#,
        Some(r#"{"jsonrpc": "2.0", "result": 19, "id": 4}"#),
    ),
    // a Notification
    (r#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#, None),
    (r#"{"jsonrpc": "2.0", "method": "foobar"}"#, None),
    // rpc call of non-existent method
    (
        r#"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#,
        Some(r#"{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "1"}"#),
    ),
    // rpc call with invalid JSON
    (r#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#, Some(PARSE_ERROR)),
    // rpc call with invalid Request object
    (r#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#, Some(INVALID_REQUEST)),
    // rpc call Batch, invalid JSON
    (
        "[\n  {\"jsonrpc\": \"2.0\", \"method\": \"sum\", \"params\": [1,2,4], \"id\": \"1\"},\n  {\"jsonrpc\": \"2.0\", \"method\"\n]",
        Some(PARSE_ERROR),
    ),
    // rpc call with an empty Array
    ("[]", Some(INVALID_REQUEST)),
    // rpc call with an invalid Batch (but not empty)
    ("[1]", Some(r#"[{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}]"#)),
    // rpc call with invalid Batch
    (
        "[1,2,3]",
        Some(
            r#"[
            {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
            {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
            {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}
        ]"#,
        ),
    ),
    // rpc call Batch
    (
        r#"[
        {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
        {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
        {"foo": "boo"},
        {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
        {"jsonrpc": "2.0", "method": "get_data", "id": "9"}
    ]"#,
        Some(
            r#"[
        {"jsonrpc": "2.0", "result": 7, "id": "1"},
        {"jsonrpc": "2.0", "result": 19, "id": "2"},
        {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
        {"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "5"},
        {"jsonrpc": "2.0", "result": ["hello", 5], "id": "9"}
    ]"#,
        ),
    ),
    // rpc call Batch (all notifications)
    (
        r#"[
        {"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}
    ]"#,
        None,
    ),
];

#[test]
fn every_spec_example_gets_the_spec_reply() {
    for (input, expected) in SPEC_EXAMPLES {
        assert_reply(input, *expected);
    }
}

/// The same examples, read from the transcript fixture the validator uses: each `-->` document is
/// answered by the `<--` document after it, or by nothing.
#[test]
fn the_spec_transcript_is_answered_document_by_document() {
    let stream = split_stream(SPEC.as_bytes());
    let mut expected: Vec<Option<String>> = Vec::new();
    for (i, segment) in stream.segments.iter().enumerate() {
        if segment.direction != Some(Direction::Client) {
            continue;
        }
        let next = stream
            .segments
            .get(i + 1)
            .filter(|s| s.direction == Some(Direction::Server));
        expected.push(next.map(|s| SPEC[s.span.start..s.span.end].to_string()));
    }
    let exchanges = MockServer::new().handle_stream(SPEC.as_bytes());
    assert_eq!(
        exchanges.len(),
        expected.len(),
        "one exchange per client document"
    );
    for (exchange, expected) in exchanges.iter().zip(&expected) {
        let input = &SPEC[exchange.span.start..exchange.span.end];
        match (&exchange.reply, expected) {
            (Some(actual), Some(expected)) => assert_same(actual, expected, input),
            (None, None) => {}
            (actual, expected) => {
                panic!("\ninput: {input}\nreply: {actual:?}\nexpected: {expected:?}")
            }
        }
    }
}

#[test]
fn a_stream_of_documents_is_answered_in_order() {
    let input = "{\"jsonrpc\":\"2.0\",\"method\":\"sum\",\"params\":[1],\"id\":1}\n{\"jsonrpc\":\"2.0\",\"method\":\"update\"}\n[1] {\"jsonrpc\":\"2.0\",\"method\":\"sum\",\"params\":[2],\"id\":2}";
    let replies = MockServer::new().replies(input.as_bytes());
    assert_eq!(
        replies,
        [
            r#"{"jsonrpc":"2.0","result":1,"id":1}"#,
            r#"[{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"},"id":null}]"#,
            r#"{"jsonrpc":"2.0","result":2,"id":2}"#,
        ]
    );
}

// ---- ids, invalid requests, responses --------------------------------------------------------

#[test]
fn ids_are_echoed_by_their_exact_source_text() {
    for id in [
        r#""1""#,
        "1",
        "12345678901234567890",
        "1.0",
        "1e2",
        "-0",
        r#""a\u0062""#,
        "null",
        r#""""#,
    ] {
        let input = format!(r#"{{"jsonrpc":"2.0","method":"get_data","id":{id}}}"#);
        let reply = reply(&input).unwrap();
        assert!(
            reply.ends_with(&format!(r#","id":{id}}}"#)),
            "{input} → {reply}"
        );
        assert_eq!(
            reply,
            format!(r#"{{"jsonrpc":"2.0","result":["hello",5],"id":{id}}}"#)
        );
    }
}

#[test]
fn an_invalid_request_keeps_a_readable_id() {
    let table: &[(&str, &str)] = &[
        (
            r#"{"jsonrpc":"1.0","method":"sum","params":[1],"id":7}"#,
            "7",
        ),
        (r#"{"method":"sum","params":[1],"id":"x"}"#, r#""x""#),
        (r#"{"jsonrpc":"2.0","method":1,"id":3}"#, "3"),
        (
            r#"{"jsonrpc":"2.0","method":"sum","params":"bar","id":4}"#,
            "4",
        ),
        (
            r#"{"jsonrpc":"2.0","method":"sum","params":null,"id":5}"#,
            "5",
        ),
        (r#"{"jsonrpc":"2.0","method":"sum","id":{"a":1}}"#, "null"),
        (r#"{"jsonrpc":"2.0","method":"sum","id":[1]}"#, "null"),
        (r#"{"jsonrpc":"2.0","id":1}"#, "1"),
        (r#""subtract""#, "null"),
        ("42", "null"),
        ("[[]]", "null"),
    ];
    for (input, id) in table {
        let reply = reply(input).unwrap_or_else(|| panic!("no reply to {input}"));
        let reply = reply
            .strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
            .unwrap_or(&reply)
            .to_string();
        assert_same(
            &reply,
            &format!(
                r#"{{"jsonrpc":"2.0","error":{{"code":-32600,"message":"Invalid Request"}},"id":{id}}}"#
            ),
            input,
        );
    }
}

#[test]
fn responses_sent_to_the_server_get_no_reply() {
    for input in [
        r#"{"jsonrpc":"2.0","result":19,"id":1}"#,
        r#"{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"},"id":"1"}"#,
        r#"{"jsonrpc":"2.0","result":1}"#,
        r#"[{"jsonrpc":"2.0","result":1,"id":1},{"jsonrpc":"2.0","result":2,"id":2}]"#,
    ] {
        assert_reply(input, None);
    }
}

#[test]
fn a_batch_mixing_requests_and_responses_answers_the_requests() {
    assert_reply(
        r#"[{"jsonrpc":"2.0","result":1,"id":1},{"jsonrpc":"2.0","method":"sum","params":[2,3],"id":2}]"#,
        Some(r#"[{"jsonrpc":"2.0","result":5,"id":2}]"#),
    );
}

#[test]
fn input_with_something_after_the_document_is_not_json() {
    assert_reply(
        r#"{"jsonrpc":"2.0","method":"get_data","id":1} x"#,
        Some(PARSE_ERROR),
    );
    assert_reply(
        r#"{"jsonrpc":"2.0","method":"get_data","id":1} {}"#,
        Some(PARSE_ERROR),
    );
    assert_reply("  \n\t ", None);
    assert_reply("", None);
}

// ---- -32602 with data ----------------------------------------------------------------------

/// (input, [(path, words the message must hold)])
const PARAM_ERRORS: &[(&str, &[(&str, &str)])] = &[
    (
        r#"{"jsonrpc":"2.0","method":"subtract","params":["42",23],"id":1}"#,
        &[(
            "/params/0",
            "minuend must be a number, found a string \"42\"",
        )],
    ),
    (
        r#"{"jsonrpc":"2.0","method":"subtract","params":[42,"x"],"id":1}"#,
        &[("/params/1", "subtrahend must be a number")],
    ),
    (
        r#"{"jsonrpc":"2.0","method":"subtract","params":[42],"id":1}"#,
        &[(
            "/params",
            "expected 2 numbers (minuend, subtrahend), found 1",
        )],
    ),
    (
        r#"{"jsonrpc":"2.0","method":"subtract","params":[1,2,3],"id":1}"#,
        &[("/params", "found 3")],
    ),
    (
        r#"{"jsonrpc":"2.0","method":"subtract","id":1}"#,
        &[("/params", "\"params\" is missing")],
    ),
    (
        r#"{"jsonrpc":"2.0","method":"subtract","params":{"minuend":42},"id":1}"#,
        &[("/params", "the parameter \"subtrahend\" is missing")],
    ),
    (
        r#"{"jsonrpc":"2.0","method":"subtract","params":{"minuend":42,"subtrahend":true},"id":1}"#,
        &[(
            "/params/subtrahend",
            "must be a number, found a boolean true",
        )],
    ),
    (
        r#"{"jsonrpc":"2.0","method":"subtract","params":{"minuend":42,"subtrahend":1,"extra":0},"id":1}"#,
        &[("/params/extra", "unknown parameter \"extra\"")],
    ),
    (
        r#"{"jsonrpc":"2.0","method":"sum","params":[1,"2",null],"id":1}"#,
        &[
            ("/params/1", "must be a number, found a string \"2\""),
            ("/params/2", "found null"),
        ],
    ),
    (
        r#"{"jsonrpc":"2.0","method":"sum","params":{"a":1},"id":1}"#,
        &[("/params", "by position")],
    ),
    (
        r#"{"jsonrpc":"2.0","method":"get_data","params":[1],"id":1}"#,
        &[("/params", "takes no parameters")],
    ),
];

#[test]
fn wrong_params_are_invalid_params_with_data_saying_what_is_wrong() {
    for (input, expected) in PARAM_ERRORS {
        let reply = reply(input).unwrap();
        assert!(reply.ends_with(r#""id":1}"#), "{reply}");
        let error = error_of(&reply);
        assert_eq!(error["code"], -32602, "{input} → {reply}");
        assert_eq!(error["message"], "Invalid params");
        let keys: Vec<&str> = error
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["code", "message", "data"]);
        let errors = error["data"]["errors"].as_array().unwrap();
        assert_eq!(errors.len(), expected.len(), "{input} → {reply}");
        for (e, (path, words)) in errors.iter().zip(*expected) {
            assert_eq!(e["path"], *path, "{input} → {reply}");
            assert!(
                e["message"].as_str().unwrap().contains(words),
                "{input} → {reply}: wanted {words:?}"
            );
        }
    }
}

#[test]
fn arithmetic_keeps_integers_exact_and_fractions_as_numbers() {
    let table = [
        (r#"[9007199254740993, 0]"#, "9007199254740993"),
        (r#"[1.5, 0.25]"#, "1.25"),
        (r#"[2.0, 1]"#, "1"),
        (r#"[-9223372036854775808, 1]"#, "-9223372036854775809"),
    ];
    for (params, expected) in table {
        let input = format!(r#"{{"jsonrpc":"2.0","method":"subtract","params":{params},"id":1}}"#);
        let reply = reply(&input).unwrap();
        let result = result_of(&reply);
        assert_eq!(result, parse(expected), "{input} → {reply}");
    }
    let reply = reply(r#"{"jsonrpc":"2.0","method":"sum","params":[1e308,1e308],"id":1}"#).unwrap();
    assert_eq!(
        error_of(&reply)["code"],
        -32602,
        "an infinite sum is no JSON number: {reply}"
    );
}

// ---- notifications are never answered -------------------------------------------------------

#[test]
fn notifications_are_never_answered_even_failing_ones() {
    for input in [
        r#"{"jsonrpc":"2.0","method":"update","params":[1,2,3,4,5]}"#,
        r#"{"jsonrpc":"2.0","method":"notify_hello","params":[7]}"#,
        r#"{"jsonrpc":"2.0","method":"notify_sum","params":["a"]}"#,
        r#"{"jsonrpc":"2.0","method":"foobar"}"#,
        r#"{"jsonrpc":"2.0","method":"subtract","params":["x"]}"#,
        r#"{"jsonrpc":"2.0","method":"sum","params":{"a":1}}"#,
        r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"nope"}}"#,
        r#"{"jsonrpc":"2.0","method":"resources/read","params":{"uri":"mock://nope"}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
        r#"[{"jsonrpc":"2.0","method":"foobar"},{"jsonrpc":"2.0","method":"subtract","params":[]}]"#,
    ] {
        assert_reply(input, None);
    }
}

// ---- MCP -------------------------------------------------------------------------------------

fn request(id: u32, method: &str, params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{params}}}"#)
}

fn initialize(version: &str) -> String {
    request(
        1,
        "initialize",
        &format!(
            r#"{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"test","version":"1"}}}}"#
        ),
    )
}

/// params `_meta` of a 2026-07-28 request, with `extra` members after it.
fn modern(extra: &str) -> String {
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}"#;
    if extra.is_empty() {
        format!("{{{meta}}}")
    } else {
        format!("{{{meta},{extra}}}")
    }
}

#[test]
fn initialize_answers_the_clients_version_when_it_is_a_handshake_version() {
    for (asked, answered) in [
        ("2024-11-05", "2024-11-05"),
        ("2025-03-26", "2025-03-26"),
        ("2025-06-18", "2025-06-18"),
        ("2025-11-25", "2025-11-25"),
        // 2026-07-28 has no initialize: a handshake cannot reach it.
        ("2026-07-28", "2025-11-25"),
        ("1999-01-01", "2025-11-25"),
        ("latest", "2025-11-25"),
    ] {
        let mut server = MockServer::new();
        let reply = server.handle(initialize(asked).as_bytes()).unwrap();
        let result = result_of(&reply);
        assert_eq!(result["protocolVersion"], answered, "{asked}: {reply}");
        let keys: Vec<&str> = result
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "protocolVersion",
                "capabilities",
                "serverInfo",
                "instructions"
            ]
        );
        // Completions have a capability from 2025-03-26 on; resource subscriptions are served
        // by every handshake version.
        let capabilities = if answered == "2024-11-05" {
            r#"{"tools":{},"resources":{"subscribe":true,"listChanged":true},"prompts":{},"logging":{}}"#
        } else {
            r#"{"tools":{},"resources":{"subscribe":true,"listChanged":true},"prompts":{},"logging":{},"completions":{}}"#
        };
        assert_eq!(result["capabilities"], parse(capabilities), "{asked}");
        assert_eq!(result["serverInfo"]["name"], "jrpc-mock");
        assert!(result["serverInfo"]["version"].is_string());
        // serverInfo.title exists from 2025-06-18 on.
        assert_eq!(
            result["serverInfo"].get("title").is_some(),
            answered >= "2025-06-18",
            "{reply}"
        );
        assert_eq!(
            server.negotiated_version().map(|v| v.as_str()),
            Some(answered)
        );
    }
}

#[test]
fn the_lifecycle_notification_is_not_answered_and_ping_is_empty() {
    let mut server = MockServer::new();
    server.handle(initialize("2025-06-18").as_bytes()).unwrap();
    assert!(!server.is_initialized());
    assert_eq!(
        server.handle(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
        None
    );
    assert!(server.is_initialized());
    let reply = server
        .handle(br#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#)
        .unwrap();
    assert_eq!(reply, r#"{"jsonrpc":"2.0","result":{},"id":"p"}"#);
}

#[test]
fn the_seed_workflow_lists_the_tools_without_a_handshake() {
    let reply = reply(&request(1, "tools/list", "{}")).unwrap();
    let tools = result_of(&reply)["tools"].clone();
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "add",
            "echo",
            "divide",
            "countdown",
            "show_image",
            "play_sound",
            "embed_readme",
            "link_resources",
            "mixed_content",
            "add_structured",
            "add_note",
            "summarize",
            "ask_name",
            "list_roots"
        ]
    );
    assert_eq!(
        tools[0]["inputSchema"],
        parse(
            r#"{"type":"object","properties":{"a":{"type":"number","description":"First number"},"b":{"type":"number","description":"Second number"}},"required":["a","b"]}"#
        )
    );
    assert_eq!(
        tools[1]["inputSchema"]["properties"]["text"]["type"],
        "string"
    );
}

#[test]
fn tool_titles_follow_the_negotiated_version() {
    let mut server = MockServer::new();
    server.handle(initialize("2024-11-05").as_bytes()).unwrap();
    let old = result_of(
        &server
            .handle(request(2, "tools/list", "{}").as_bytes())
            .unwrap(),
    );
    assert!(
        old["tools"][0].get("title").is_none(),
        "no title in 2024-11-05: {old}"
    );
    server.handle(initialize("2025-06-18").as_bytes()).unwrap();
    let new = result_of(
        &server
            .handle(request(2, "tools/list", "{}").as_bytes())
            .unwrap(),
    );
    assert_eq!(new["tools"][0]["title"], "Addition Tool");
}

/// (arguments, expected text, isError)
const TOOL_CALLS: &[(&str, &str, bool)] = &[
    (r#""name":"add","arguments":{"a":2,"b":3}"#, "5", false),
    (
        r#""name":"add","arguments":{"a":0.1,"b":0.2}"#,
        "0.30000000000000004",
        false,
    ),
    (r#""name":"add","arguments":{"a":-2,"b":2.5}"#, "0.5", false),
    (
        r#""name":"echo","arguments":{"text":"héllo \"you\""}"#,
        "héllo \"you\"",
        false,
    ),
    (r#""name":"divide","arguments":{"a":7,"b":2}"#, "3.5", false),
    (r#""name":"divide","arguments":{"a":8,"b":2}"#, "4", false),
    (
        r#""name":"divide","arguments":{"a":1,"b":0}"#,
        "cannot divide by zero (b is 0)",
        true,
    ),
    (
        r#""name":"divide","arguments":{"a":1,"b":0.0}"#,
        "cannot divide by zero (b is 0)",
        true,
    ),
    (
        r#""name":"add","arguments":{"a":2}"#,
        "missing argument \"b\" (number)",
        true,
    ),
    (r#""name":"add""#, "missing argument \"a\" (number)", true),
    (
        r#""name":"add","arguments":{"a":"2","b":3}"#,
        "argument \"a\" must be a number, found a string \"2\"",
        true,
    ),
    (
        r#""name":"echo","arguments":{"text":5}"#,
        "argument \"text\" must be a string, found a number 5",
        true,
    ),
];

#[test]
fn tools_call_answers_with_text_content_and_tool_errors_with_is_error() {
    for (params, text, is_error) in TOOL_CALLS {
        let input = request(2, "tools/call", &format!("{{{params}}}"));
        let reply = reply(&input).unwrap();
        let mut expected = serde_json::json!({ "content": [{ "type": "text", "text": text }] });
        if *is_error {
            expected["isError"] = true.into();
        }
        assert_same(
            &serde_json::to_string(&result_of(&reply)).unwrap(),
            &expected.to_string(),
            &input,
        );
    }
    // The seed's exact reply.
    assert_reply(
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}"#,
        Some(r#"{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"5"}]},"id":2}"#),
    );
}

#[test]
fn an_unknown_tool_is_a_protocol_error_naming_it() {
    let reply = reply(&request(
        3,
        "tools/call",
        r#"{"name":"subtract","arguments":{}}"#,
    ))
    .unwrap();
    let error = error_of(&reply);
    assert_eq!(error["code"], -32602);
    assert_eq!(error["message"], "Unknown tool: subtract");
    assert_eq!(error["data"]["errors"][0]["path"], "/params/name");
}

#[test]
fn resources_list_and_read_and_a_missing_one_is_32002() {
    let listed = result_of(&reply(&request(1, "resources/list", "{}")).unwrap());
    let uris: Vec<&str> = listed["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        uris,
        [
            "mock://readme",
            "mock://error-codes",
            "mock://logo.png",
            "mock://notes"
        ]
    );
    let read = result_of(
        &reply(&request(
            2,
            "resources/read",
            r#"{"uri":"mock://error-codes"}"#,
        ))
        .unwrap(),
    );
    assert_eq!(read["contents"][0]["uri"], "mock://error-codes");
    assert_eq!(read["contents"][0]["mimeType"], "text/plain");
    assert!(read["contents"][0]["text"]
        .as_str()
        .unwrap()
        .contains("-32601 Method not found"));
    assert_reply(
        &request(3, "resources/read", r#"{"uri":"mock://nope"}"#),
        Some(
            r#"{"jsonrpc":"2.0","error":{"code":-32002,"message":"Resource not found","data":{"uri":"mock://nope"}},"id":3}"#,
        ),
    );
    let templates = result_of(&reply(&request(4, "resources/templates/list", "{}")).unwrap());
    assert_eq!(
        templates["resourceTemplates"].as_array().map(Vec::len),
        Some(1)
    );
}

#[test]
fn prompts_list_and_get_and_their_errors() {
    let listed = result_of(&reply(&request(1, "prompts/list", "{}")).unwrap());
    assert_eq!(listed["prompts"][0]["name"], "explain-error");
    assert_eq!(
        listed["prompts"][0]["arguments"][0],
        parse(r#"{"name":"code","description":"The error code, e.g. -32601","required":true}"#)
    );
    let got = result_of(
        &reply(&request(
            2,
            "prompts/get",
            r#"{"name":"write-request","arguments":{"method":"sum","params":"[1,2]"}}"#,
        ))
        .unwrap(),
    );
    assert_eq!(got["messages"][0]["role"], "user");
    assert_eq!(got["messages"][0]["content"]["type"], "text");
    assert!(got["messages"][0]["content"]["text"]
        .as_str()
        .unwrap()
        .contains("\"sum\" with these params: [1,2]"));

    let missing = error_of(
        &reply(&request(
            3,
            "prompts/get",
            r#"{"name":"explain-error","arguments":{}}"#,
        ))
        .unwrap(),
    );
    assert_eq!(missing["code"], -32602);
    assert_eq!(missing["message"], "Missing required argument: code");
    assert_eq!(missing["data"]["errors"][0]["path"], "/params/arguments");
    let missing =
        error_of(&reply(&request(3, "prompts/get", r#"{"name":"write-request"}"#)).unwrap());
    assert_eq!(missing["code"], -32602);

    let unknown = error_of(&reply(&request(4, "prompts/get", r#"{"name":"nope"}"#)).unwrap());
    assert_eq!(
        (unknown["code"].as_i64(), unknown["message"].as_str()),
        (Some(-32602), Some("Unknown prompt: nope"))
    );
}

#[test]
fn server_discover_advertises_2026_07_28() {
    let reply = reply(&request(1, "server/discover", &modern(""))).unwrap();
    let result = result_of(&reply);
    let keys: Vec<&str> = result
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "resultType",
            "supportedVersions",
            "capabilities",
            "instructions",
            "ttlMs",
            "cacheScope",
            "_meta"
        ]
    );
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["supportedVersions"], parse(r#"["2026-07-28"]"#));
    assert_eq!(result["cacheScope"], "public");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "jrpc-mock"
    );
}

#[test]
fn requests_in_the_2026_envelope_get_2026_shaped_results() {
    let mut server = MockServer::new();
    let list = result_of(
        &server
            .handle(request(1, "tools/list", &modern("")).as_bytes())
            .unwrap(),
    );
    assert_eq!(list["resultType"], "complete");
    assert!(
        list["ttlMs"].is_u64() && list["cacheScope"].is_string(),
        "{list}"
    );
    let call = result_of(
        &server
            .handle(
                request(
                    2,
                    "tools/call",
                    &modern(r#""name":"add","arguments":{"a":2,"b":3}"#),
                )
                .as_bytes(),
            )
            .unwrap(),
    );
    assert_eq!(call["resultType"], "complete");
    assert_eq!(call["content"], parse(r#"[{"type":"text","text":"5"}]"#));
    assert!(
        call.get("ttlMs").is_none(),
        "a tool result is not cacheable: {call}"
    );
    let read = result_of(
        &server
            .handle(request(3, "resources/read", &modern(r#""uri":"mock://readme""#)).as_bytes())
            .unwrap(),
    );
    assert_eq!(read["resultType"], "complete");
    assert!(read["ttlMs"].is_u64());
    // Stateless: nothing was negotiated.
    assert_eq!(server.negotiated_version(), None);
}

#[test]
fn an_envelope_with_a_version_we_do_not_speak_is_32022() {
    // `supported` lists what the envelope reaches, the same as server/discover's
    // supportedVersions (the handshake versions are reached through initialize).
    let params = r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}}"#;
    assert_reply(
        &request(1, "server/discover", params),
        Some(
            r#"{"jsonrpc":"2.0","error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"1900-01-01"}},"id":1}"#,
        ),
    );
}

#[test]
fn mcp_param_problems_are_invalid_params_with_data() {
    // Params the methods cannot read at all; whoever names the problem (the MCP profile's
    // param_problems or the mock's own guard), the reply is -32602 with data.errors.
    for (method, params) in [
        ("tools/call", "{}"),
        ("tools/call", r#"{"name":5}"#),
        ("tools/call", r#"{"name":"add","arguments":[2,3]}"#),
        ("resources/read", "{}"),
        ("resources/read", r#"{"uri":1}"#),
        ("prompts/get", r#"{"arguments":{}}"#),
        (
            "prompts/get",
            r#"{"name":"explain-error","arguments":{"code":-32601}}"#,
        ),
    ] {
        let input = request(9, method, params);
        let reply = reply(&input).unwrap();
        let error = error_of(&reply);
        assert_eq!(error["code"], -32602, "{input} → {reply}");
        let errors = error["data"]["errors"]
            .as_array()
            .unwrap_or_else(|| panic!("no data.errors: {reply}"));
        assert!(
            !errors.is_empty()
                && errors
                    .iter()
                    .all(|e| e["path"].is_string() && e["message"].is_string()),
            "{reply}"
        );
    }
}

#[test]
fn unknown_methods_are_method_not_found() {
    for method in [
        "foobar",
        "foo.get",
        "tools/lists",
        "logging/setlevel",
        "Initialize",
        "notifications/initialized",
    ] {
        assert_reply(
            &request(1, method, "{}"),
            Some(
                r#"{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"},"id":1}"#,
            ),
        );
    }
}

// ---- never panics ----------------------------------------------------------------------------

fn garbage(seed: u64, len: usize) -> Vec<u8> {
    // xorshift: reproducible bytes, biased toward JSON's own characters.
    let alphabet = b"{}[]:,\"\\ 0123456789-.eE+truefalsnl\n\tjsonrpcmethodidparams2";
    let mut x = seed.max(1);
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if x % 8 == 0 {
                (x >> 8) as u8
            } else {
                alphabet[(x >> 16) as usize % alphabet.len()]
            }
        })
        .collect()
}

#[test]
fn huge_and_garbage_input_never_panics() {
    let mut server = MockServer::new();
    let mut inputs: Vec<Vec<u8>> = vec![
        vec![b'['; 100_000],
        vec![b'{'; 100_000],
        "[".repeat(600).into_bytes(),
        format!("{}{}", "[".repeat(511), "]".repeat(511)).into_bytes(),
        b"\xff\xfe\x00".to_vec(),
        br#"{"jsonrpc":"2.0","method":"sum","params":[1e999999,-1e999999],"id":1}"#.to_vec(),
        br#"{"jsonrpc":"2.0","method":"subtract","params":[9223372036854775807,-9223372036854775808],"id":1}"#.to_vec(),
        br#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"divide","arguments":{"a":1e308,"b":1e-308}},"id":1}"#.to_vec(),
        br#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"divide","arguments":{"a":-9223372036854775808,"b":-1}},"id":1}"#.to_vec(),
        br#"{"jsonrpc":"2.0","method":"\ud800","id":"\udc00"}"#.to_vec(),
        format!(r#"{{"jsonrpc":"2.0","method":"sum","params":[{}],"id":1}}"#, vec!["1"; 100_000].join(",")).into_bytes(),
        format!("[{}]", vec![r#"{"jsonrpc":"2.0","method":"get_data","id":1}"#; 10_000].join(",")).into_bytes(),
    ];
    inputs.extend((1..400).map(|seed| garbage(seed, (seed as usize * 7) % 300)));
    // Replies are JSON as RFC 8259 reads it (an id with a lone surrogate escape is echoed as sent,
    // which serde_json would refuse): our own parser must read each one whole.
    let is_one_json_document = |reply: &str| {
        let (_, end) =
            parse_document(reply.as_bytes(), 0).unwrap_or_else(|e| panic!("{e}: {reply}"));
        assert_eq!(end, reply.len(), "{reply}");
    };
    for input in &inputs {
        if let Some(reply) = server.handle(input) {
            is_one_json_document(&reply);
        }
        for exchange in server.handle_stream(input) {
            if let Some(reply) = exchange.reply {
                is_one_json_document(&reply);
            }
        }
    }
}

#[test]
fn every_json_test_suite_file_gets_a_json_reply_or_none() {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/JSONTestSuite/test_parsing");
    let entries = std::fs::read_dir(&dir)
        .expect("tests/data/JSONTestSuite/test_parsing is in the repository");
    let mut server = MockServer::new();
    for entry in entries {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        if let Some(reply) = server.handle(&bytes) {
            let v = parse(&reply);
            let name = path.file_name().unwrap().to_string_lossy();
            if name.starts_with("n_") {
                assert_eq!(v["error"]["code"], -32700, "{name}: {reply}");
            }
        }
    }
}

#[test]
fn logging_set_level_takes_the_mcp_levels_only() {
    for level in [
        "debug",
        "info",
        "notice",
        "warning",
        "error",
        "critical",
        "alert",
        "emergency",
    ] {
        let ok = result_of(
            &reply(&request(
                1,
                "logging/setLevel",
                &format!(r#"{{"level":"{level}"}}"#),
            ))
            .unwrap(),
        );
        assert_eq!(ok, parse("{}"), "{level}");
    }
    for params in [r#"{"level":"verbose"}"#, r#"{"level":3}"#, "{}"] {
        let error = error_of(&reply(&request(2, "logging/setLevel", params)).unwrap());
        assert_eq!(error["code"], -32602, "{params}");
        assert!(
            error["data"]["errors"][0]["path"]
                .as_str()
                .unwrap()
                .starts_with("/params"),
            "{params}: {error}"
        );
    }
}

#[test]
fn completion_complete_offers_prompt_argument_values_by_prefix() {
    let complete = |params: &str| reply(&request(1, "completion/complete", params)).unwrap();
    let codes = result_of(&complete(
        r#"{"ref":{"type":"ref/prompt","name":"explain-error"},"argument":{"name":"code","value":"-3260"}}"#,
    ));
    assert_eq!(
        codes["completion"],
        parse(r#"{"values":["-32600","-32601","-32602","-32603"],"total":4,"hasMore":false}"#)
    );
    let methods = result_of(&complete(
        r#"{"ref":{"type":"ref/prompt","name":"write-request"},"argument":{"name":"method","value":"su"}}"#,
    ));
    assert_eq!(
        methods["completion"]["values"],
        parse(r#"["subtract","sum"]"#)
    );
    let none = result_of(&complete(
        r#"{"ref":{"type":"ref/resource","uri":"mock://x/{id}"},"argument":{"name":"id","value":""}}"#,
    ));
    assert_eq!(none["completion"]["values"], parse("[]"));
    let unknown = error_of(&complete(
        r#"{"ref":{"type":"ref/prompt","name":"nope"},"argument":{"name":"a","value":""}}"#,
    ));
    assert_eq!(unknown["code"], -32602);
    assert_eq!(unknown["data"]["errors"][0]["path"], "/params/ref/name");
}

#[test]
fn a_resource_template_lists_and_its_uris_read() {
    let listed = result_of(&reply(&request(1, "resources/templates/list", "{}")).unwrap());
    assert_eq!(
        listed["resourceTemplates"][0]["uriTemplate"],
        "mock://error-codes/{code}"
    );
    let read = result_of(
        &reply(&request(
            2,
            "resources/read",
            r#"{"uri":"mock://error-codes/-32601"}"#,
        ))
        .unwrap(),
    );
    assert_eq!(read["contents"][0]["uri"], "mock://error-codes/-32601");
    assert!(read["contents"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("-32601 Method not found: "));
    let missing = error_of(
        &reply(&request(
            3,
            "resources/read",
            r#"{"uri":"mock://error-codes/7"}"#,
        ))
        .unwrap(),
    );
    assert_eq!(missing["code"], -32002);
}

/// Under an MCP profile the mock is an MCP server only, and it reads each message under that
/// profile: what the page's verdict calls invalid it answers -32600, a method MCP does not have
/// -32601 (the specification's `subtract` included); under plain JSON-RPC it answers the spec.
#[test]
fn under_an_mcp_profile_the_mock_agrees_with_the_verdict() {
    use jsonrpc_playground::rpc::{McpVersion, Profile};
    let mut mcp = MockServer::new();
    mcp.set_profile(Profile::Mcp(McpVersion::default()));
    let positional = br#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#;
    let verdict = jsonrpc_playground::rpc::check(positional, Profile::Mcp(McpVersion::default()));
    assert_eq!(verdict.documents[0].kind.as_str(), "invalid");
    let reply = mcp.handle(positional).unwrap();
    assert!(reply.contains("-32600"), "{reply}");
    let named = br#"{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 2}"#;
    let reply = mcp.handle(named).unwrap();
    assert!(reply.contains("-32601"), "{reply}");
    let ping = mcp
        .handle(br#"{"jsonrpc": "2.0", "method": "ping", "id": 3}"#)
        .unwrap();
    assert_eq!(ping, r#"{"jsonrpc":"2.0","result":{},"id":3}"#);
    // Plain JSON-RPC: the specification's answer.
    assert_eq!(
        MockServer::new().handle(positional).unwrap(),
        r#"{"jsonrpc":"2.0","result":19,"id":1}"#
    );
}

/// One tool per content type, each listed and run only by the versions that have it: image and
/// embedded resources since 2024-11-05, audio since 2025-03-26, resource links and structured
/// content (with an outputSchema) since 2025-06-18.
#[test]
fn each_content_type_has_a_tool_in_the_versions_that_have_it() {
    let call = |version: &str, tool: &str, args: &str| {
        let mut server = MockServer::new();
        let init = format!(
            r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
        );
        server.handle(init.as_bytes()).unwrap();
        let list = server
            .handle(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#)
            .unwrap();
        let call = format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"{tool}","arguments":{args}}}}}"#
        );
        (
            list.contains(&format!(r#""name":"{tool}""#)),
            server.handle(call.as_bytes()).unwrap(),
        )
    };
    let (listed, reply) = call("2024-11-05", "show_image", "{}");
    assert!(
        listed
            && reply.contains(r#""type":"image""#)
            && reply.contains(r#""mimeType":"image/png""#),
        "{reply}"
    );
    let (listed, reply) = call("2024-11-05", "embed_readme", "{}");
    assert!(
        listed
            && reply.contains(r#""type":"resource""#)
            && reply.contains(r#""uri":"mock://readme""#),
        "{reply}"
    );
    let (listed, reply) = call("2024-11-05", "mixed_content", "{}");
    assert!(
        listed && reply.contains(r#""type":"text""#) && reply.contains(r#""type":"image""#),
        "{reply}"
    );
    let (listed, reply) = call("2024-11-05", "play_sound", "{}");
    assert!(
        !listed && reply.contains("-32602"),
        "no audio in 2024-11-05: {reply}"
    );
    let (listed, reply) = call("2025-03-26", "play_sound", "{}");
    assert!(listed && reply.contains(r#""type":"audio""#), "{reply}");
    let (listed, reply) = call("2025-03-26", "link_resources", "{}");
    assert!(!listed && reply.contains("-32602"), "{reply}");
    let (listed, reply) = call("2025-06-18", "link_resources", "{}");
    assert!(
        listed && reply.contains(r#""type":"resource_link""#),
        "{reply}"
    );
    let (listed, reply) = call("2025-11-25", "add_structured", r#"{"a":2,"b":3}"#);
    assert!(listed, "{reply}");
    assert_eq!(
        reply,
        r#"{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"{\"sum\":5}"}],"structuredContent":{"sum":5}},"id":2}"#
    );
}

/// A binary resource reads as base64 in "blob"; two prompts carry content that is not text: an
/// embedded resource and an image.
#[test]
fn a_binary_resource_and_prompts_with_a_resource_and_an_image() {
    let mut server = MockServer::new();
    let logo = server
        .handle(br#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"mock://logo.png"}}"#)
        .unwrap();
    assert!(
        logo.contains(r#""mimeType":"image/png","blob":"iVBOR"#),
        "{logo}"
    );
    assert!(!logo.contains(r#""text""#), "{logo}");
    let listed = server
        .handle(br#"{"jsonrpc":"2.0","id":2,"method":"resources/list","params":{}}"#)
        .unwrap();
    assert!(listed.contains(r#""uri":"mock://logo.png""#), "{listed}");
    let readme = server
        .handle(
            br#"{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"review-readme"}}"#,
        )
        .unwrap();
    assert!(
        readme.contains(r#""type":"resource","resource":{"uri":"mock://readme""#),
        "{readme}"
    );
    let image = server
        .handle(br#"{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":"describe-image","arguments":{}}}"#)
        .unwrap();
    assert!(image.contains(r#""type":"image","data":"iVBOR"#), "{image}");
}

/// 2026-07-28 replaced `logging/setLevel` with a per-request `_meta` log level: the mock does not
/// answer the old method in that version (-32601), and still does in the handshake versions.
#[test]
fn logging_set_level_is_gone_in_2026_07_28() {
    let modern = r#"{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"info","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
    let reply = MockServer::new().handle(modern.as_bytes()).unwrap();
    assert!(reply.contains("-32601"), "{reply}");
    let legacy =
        r#"{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"info"}}"#;
    assert_eq!(
        MockServer::new().handle(legacy.as_bytes()).unwrap(),
        r#"{"jsonrpc":"2.0","result":{},"id":1}"#
    );
}

/// The friendly countdown sends what it does while it runs, before its result: a log line per
/// step, and progress when the call asks for it; a bad start is a tool error, with nothing sent.
#[test]
fn the_countdown_logs_and_reports_progress_before_its_result() {
    let mut server = MockServer::new();
    let call = r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"countdown","arguments":{"n":3},"_meta":{"progressToken":7}}}"#;
    let reply = server.handle(call.as_bytes()).unwrap();
    let sent: Vec<serde_json::Value> = server
        .take_sent()
        .iter()
        .map(|m| serde_json::from_str(m).unwrap())
        .collect();
    let said: Vec<String> = sent
        .iter()
        .map(|m| match m["method"].as_str().unwrap() {
            "notifications/message" => format!("log {}", m["params"]["data"].as_str().unwrap()),
            _ => format!(
                "progress {}/{} token {}",
                m["params"]["progress"], m["params"]["total"], m["params"]["progressToken"]
            ),
        })
        .collect();
    assert_eq!(
        said,
        [
            "log 3…",
            "progress 1/3 token 7",
            "log 2…",
            "progress 2/3 token 7",
            "log 1…",
            "progress 3/3 token 7",
        ]
    );
    assert_eq!(
        result_of(&reply)["content"][0]["text"],
        "Liftoff! Counted down from 3."
    );
    assert!(
        server.take_sent().is_empty(),
        "taking them empties the outbox"
    );
    let bad = r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"countdown","arguments":{"n":11}}}"#;
    let reply = server.handle(bad.as_bytes()).unwrap();
    assert_eq!(result_of(&reply)["isError"], true);
    assert!(server.take_sent().is_empty());
}

#[test]
fn a_profile_for_another_mcp_version_starts_a_new_session_the_same_one_keeps_it() {
    use jsonrpc_playground::rpc::{McpVersion, Profile};
    let init = |v: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{v}","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
        )
    };
    let structured = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add_structured","arguments":{"a":1,"b":2}}}"#;
    let mut server = MockServer::new();
    server.set_profile(Profile::Mcp(McpVersion::V2024_11_05));
    assert!(server.handle(init("2024-11-05").as_bytes()).is_some());
    // 2024-11-05 has no structured tool output: the session answers in its version.
    server.set_profile(Profile::Mcp(McpVersion::V2024_11_05));
    assert!(server
        .handle(structured.as_bytes())
        .unwrap()
        .contains("-32602"));
    // The page's profile moves to 2025-11-25: a new session, answered in that version.
    server.set_profile(Profile::Mcp(McpVersion::V2025_11_25));
    assert!(server
        .handle(structured.as_bytes())
        .unwrap()
        .contains("structuredContent"));
}
