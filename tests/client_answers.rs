//! What a cooperative MCP client answers to a server's request (`jsonrpc_playground::client`):
//! the page's Reply prefill and its "answer automatically" switch.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

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

/// The requested schemas of the spec's elicitation forms (2025-11-25's PrimitiveSchemaDefinition:
/// text with a format or length, numbers with bounds, booleans, single and multi selects, titled
/// or not, and the legacy enumNames), each answered by the client.
const FORMS: [&str; 8] = [
    r#"{"type":"object","properties":{"name":{"type":"string","minLength":12,"maxLength":20},"code":{"type":"string","maxLength":3}},"required":["name","code"]}"#,
    r#"{"type":"object","properties":{"mail":{"type":"string","format":"email"},"site":{"type":"string","format":"uri"},"day":{"type":"string","format":"date"},"at":{"type":"string","format":"date-time"}},"required":["mail","site","day","at"]}"#,
    r#"{"type":"object","properties":{"n":{"type":"number","minimum":10,"maximum":20},"k":{"type":"integer","minimum":2.5},"below":{"type":"integer","maximum":-4}},"required":["n","k","below"]}"#,
    r#"{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}"#,
    r#"{"type":"object","properties":{"size":{"type":"string","enum":["s","m","l"]},"tone":{"type":"string","oneOf":[{"const":"warm","title":"Warm"},{"const":"cool","title":"Cool"}]}},"required":["size","tone"]}"#,
    r#"{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string","enum":["a","b","c"]},"minItems":2,"maxItems":3,"uniqueItems":true},"picks":{"type":"array","items":{"anyOf":[{"const":"x","title":"X"},{"const":"y","title":"Y"}]},"minItems":1}},"required":["tags","picks"]}"#,
    r#"{"type":"object","properties":{"colour":{"type":"string","enum":["red","green"],"enumNames":["Red","Green"]}},"required":["colour"]}"#,
    r#"{"type":"object","properties":{"name":{"type":"string","default":"Ada","minLength":1},"age":{"type":"integer","default":36,"minimum":0}},"required":["name"]}"#,
];

#[test]
fn every_elicitation_answer_conforms_to_the_requested_schema() {
    use jsonrpc_playground::openrpc::schema_errors;
    for form in FORMS {
        let request = format!(
            r#"{{"jsonrpc":"2.0","id":"e","method":"elicitation/create","params":{{"message":"?","requestedSchema":{form}}}}}"#
        );
        let reply: serde_json::Value =
            serde_json::from_str(&reply_to(&request).expect("an answer")).unwrap();
        assert_eq!(reply["result"]["action"], "accept", "{reply}");
        let schema: serde_json::Value = serde_json::from_str(form).unwrap();
        let errors = schema_errors(&schema, &reply["result"]["content"]).unwrap();
        assert!(errors.is_empty(), "{form}\n{reply}\n{errors:?}");
    }
}

#[test]
fn a_formatted_field_gets_a_value_of_its_format() {
    let request = format!(
        r#"{{"jsonrpc":"2.0","id":"e","method":"elicitation/create","params":{{"message":"?","requestedSchema":{}}}}}"#,
        FORMS[1]
    );
    let reply: serde_json::Value = serde_json::from_str(&reply_to(&request).unwrap()).unwrap();
    let content = &reply["result"]["content"];
    assert_eq!(content["mail"], "user@example.com");
    assert_eq!(content["site"], "https://example.com/");
    assert_eq!(content["day"], "2026-01-01");
    assert_eq!(content["at"], "2026-01-01T00:00:00Z");
}

#[test]
fn a_huge_min_length_is_answered_within_the_clients_bound() {
    let request = r#"{"jsonrpc":"2.0","id":"e","method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{"t":{"type":"string","minLength":1e12}}}}}"#;
    let reply: serde_json::Value = serde_json::from_str(&reply_to(request).unwrap()).unwrap();
    assert_eq!(
        reply["result"]["content"]["t"].as_str().unwrap().len(),
        1024
    );
}
