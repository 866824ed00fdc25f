//! What a cooperative MCP client answers to a server's request (`jsonrpc_playground::client`):
//! the page's Reply prefill and its "answer automatically" switch.

use jsonrpc_playground::client::{answers, auto_reply_to, reply_to, AUTO_MODEL};
use jsonrpc_playground::rpc::{check, McpVersion, Profile, Severity};

/// Every reply is a valid MCP response under 2025-11-25 (the engine says so).
fn assert_valid(reply: &str) {
    let errors: Vec<_> = check(reply.as_bytes(), Profile::Mcp(McpVersion::V2025_11_25))
        .violations()
        .filter(|v| v.severity == Severity::Error)
        .map(|v| v.rule.id)
        .collect();
    assert!(errors.is_empty(), "{reply}: {errors:?}");
}

#[test]
fn each_server_request_gets_its_answer_with_the_id_echoed_exactly() {
    let cases = [
        (
            r#"{"jsonrpc":"2.0","id":1.0,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1.0,"result":{}}"#,
        ),
        (
            r#"{"jsonrpc":"2.0","id":"r-1","method":"roots/list"}"#,
            r#"{"jsonrpc":"2.0","id":"r-1","result":{"roots":[]}}"#,
        ),
        (
            r#"{"jsonrpc":"2.0","id":12345678901234567890,"method":"tasks/list"}"#,
            r#"{"jsonrpc":"2.0","id":12345678901234567890,"error":{"code":-32601,"message":"Method not found"}}"#,
        ),
    ];
    for (request, expected) in cases {
        assert_eq!(reply_to(request).as_deref(), Some(expected), "{request}");
    }
}

#[test]
fn sampling_is_answered_with_an_assistant_text_naming_no_model() {
    let reply = reply_to(
        r#"{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Summarize the readme"}}],"maxTokens":100}}"#,
    )
    .unwrap();
    assert!(reply.starts_with(
        r#"{"jsonrpc":"2.0","id":7,"result":{"role":"assistant","content":{"type":"text","text":"#
    ));
    assert!(
        reply.contains("Summarize the readme") && reply.contains(AUTO_MODEL),
        "{reply}"
    );
    assert!(reply.contains(r#""stopReason":"endTurn""#), "{reply}");
    assert_valid(&reply);
}

#[test]
fn elicitation_accepts_with_defaults_then_first_choices_then_plain_values() {
    let reply = reply_to(
        r#"{"jsonrpc":"2.0","id":"e","method":"elicitation/create","params":{"message":"Who are you?","requestedSchema":{"type":"object","properties":{
            "name":{"type":"string","default":"Ada"},
            "colour":{"type":"string","enum":["red","green"]},
            "size":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"l","title":"Large"}]},
            "tags":{"type":"array","items":{"type":"string","enum":["a","b"]}},
            "age":{"type":"integer"},
            "subscribe":{"type":"boolean"},
            "note":{"type":"string"},
            "email":{"type":"string","format":"email"}}}}}"#,
    )
    .unwrap();
    assert_eq!(
        reply,
        r#"{"jsonrpc":"2.0","id":"e","result":{"action":"accept","content":{"name":"Ada","colour":"red","size":"s","tags":["a"],"age":0,"subscribe":false,"note":"example","email":"user@example.com"}}}"#
    );
    assert_valid(&reply);
}

#[test]
fn what_is_not_one_request_with_an_id_gets_no_answer() {
    for text in [
        "",
        "not json",
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#,
        r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"} {"jsonrpc":"2.0","id":2,"method":"ping"}"#,
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
    ] {
        assert_eq!(reply_to(text), None, "{text}");
    }
}

#[test]
fn the_methods_a_client_serves() {
    for m in [
        "sampling/createMessage",
        "elicitation/create",
        "roots/list",
        "ping",
    ] {
        assert!(answers(m), "{m}");
    }
    assert!(!answers("tools/call"));
    // Automatic answers only for those: a request the client cannot serve waits for the learner.
    assert!(auto_reply_to(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).is_some());
    assert_eq!(
        auto_reply_to(r#"{"jsonrpc":"2.0","id":1,"method":"tasks/list"}"#),
        None
    );
}
