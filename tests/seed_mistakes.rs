//! The "Common Mistakes" of ../shared/seeds/002_*.txt, in plain JSON-RPC 2.0: each wrong message
//! gets the rule the article names, each right one is clean.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use jsonrpc_playground::rpc::{check, Profile};

fn rules(src: &str) -> Vec<&'static str> {
    check(src.as_bytes(), Profile::JsonRpc)
        .violations()
        .map(|v| v.rule.id)
        .collect()
}

fn kinds(src: &str) -> Vec<&'static str> {
    check(src.as_bytes(), Profile::JsonRpc)
        .documents
        .iter()
        .map(|d| d.kind.as_str())
        .collect()
}

#[test]
fn mistake_1_notification_with_id_is_a_request_in_plain_json_rpc() {
    // Adding an id makes it a request (valid JSON-RPC; the MCP profile rejects it for this method).
    let wrong = r#"{"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 50}, "id": 1}"#;
    assert_eq!(kinds(wrong), ["request"]);
    let right =
        r#"{"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 50}}"#;
    assert_eq!(kinds(right), ["notification"]);
    assert!(rules(right).is_empty());
}

#[test]
fn mistake_2_wrong_version_and_wrong_field_name() {
    assert_eq!(
        rules(r#"{"jsonrpc": "1.0", "method": "tools/list", "id": 1}"#),
        ["jsonrpc-not-2-0"]
    );
    let report = check(
        br#"{"json-rpc": "2.0", "method": "tools/list", "id": 1}"#,
        Profile::JsonRpc,
    );
    let v: Vec<_> = report.violations().collect();
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].rule.id, "jsonrpc-missing");
    assert!(
        v[0].message.contains("found \"json-rpc\""),
        "{}",
        v[0].message
    );
    assert_eq!(v[0].span.start, 1, "points at the misspelt member");
    assert!(rules(r#"{"jsonrpc": "2.0", "method": "tools/list", "id": 1}"#).is_empty());
}

#[test]
fn mistake_2_near_misses_of_the_version_get_hints() {
    let message = |src: &str| {
        check(src.as_bytes(), Profile::JsonRpc)
            .violations()
            .next()
            .unwrap()
            .message
            .clone()
    };
    assert_eq!(
        message(r#"{"jsonrpc": "2", "method": "a", "id": 1}"#),
        "\"jsonrpc\" must be exactly \"2.0\"; found \"2\": the version is exactly \"2.0\""
    );
    assert_eq!(
        message(r#"{"jsonrpc": 2.0, "method": "a", "id": 1}"#),
        "\"jsonrpc\" must be exactly \"2.0\"; found the number 2.0: write it as the string \"2.0\""
    );
    assert_eq!(
        message(r#"{"method": "echo", "params": ["Hello"], "id": 1}"#),
        "the member \"jsonrpc\": \"2.0\" is missing (without it this looks like JSON-RPC 1.0)"
    );
}

#[test]
fn mistake_3_result_and_error() {
    let wrong =
        r#"{"jsonrpc": "2.0", "result": {}, "error": {"code": -32603, "message": "x"}, "id": 1}"#;
    assert_eq!(rules(wrong), ["result-and-error"]);
    assert_eq!(kinds(wrong), ["invalid"]);
    let v1 = check(
        br#"{"result": 1, "error": null, "id": 1}"#,
        Profile::JsonRpc,
    );
    let v: Vec<_> = v1
        .violations()
        .map(|v| (v.rule.id, v.message.clone()))
        .collect();
    assert!(
        v.iter()
            .any(|(r, m)| *r == "result-and-error" && m.contains("JSON-RPC 1.0")),
        "{v:?}"
    );
    assert!(rules(r#"{"jsonrpc": "2.0", "result": {}, "id": 1}"#).is_empty());
}

#[test]
fn mistake_4_error_as_a_string() {
    assert_eq!(
        rules(r#"{"jsonrpc": "2.0", "error": "Something went wrong", "id": 1}"#),
        ["error-not-object"]
    );
    assert!(rules(r#"{"jsonrpc": "2.0", "error": {"code": -32603, "message": "Something went wrong"}, "id": 1}"#).is_empty());
}

#[test]
fn mistake_5_mismatched_ids_in_a_transcript() {
    let wrong = "--> {\"jsonrpc\": \"2.0\", \"method\": \"test\", \"id\": 5}\n<-- {\"jsonrpc\": \"2.0\", \"result\": {}, \"id\": 10}";
    assert_eq!(rules(wrong), ["request-unanswered", "response-unmatched"]);
    let report = check(wrong.as_bytes(), Profile::JsonRpc);
    assert_eq!(
        report.documents[1].violations[0].message,
        "id 10 answers no pending request (waiting: 5)"
    );
    let right = "--> {\"jsonrpc\": \"2.0\", \"method\": \"test\", \"id\": 5}\n<-- {\"jsonrpc\": \"2.0\", \"result\": {}, \"id\": 5}";
    assert!(rules(right).is_empty());
}

#[test]
fn mistake_6_parse_errors_get_minus_32700_with_id_null() {
    let transcript = "--> {\"jsonrpc\": \"2.0\", \"method\": \"a\"\n<-- {\"jsonrpc\": \"2.0\", \"error\": {\"code\": -32700, \"message\": \"Parse error\"}, \"id\": null}";
    assert_eq!(rules(transcript), ["json-syntax"]);
    assert_eq!(kinds(transcript), ["parse-error", "response"]);
}

#[test]
fn mistake_7_structure_is_validated_not_assumed() {
    assert_eq!(
        rules(r#"["not", "objects"]"#),
        ["batch-element-not-object", "batch-element-not-object"]
    );
    assert_eq!(
        rules(r#"{"jsonrpc": "2.0", "id": 1}"#),
        ["method-result-or-error-required"]
    );
}

#[test]
fn ids_keep_their_exact_text() {
    let report = check(br#"[{"jsonrpc": "2.0", "method": "a", "id": 1.0}, {"jsonrpc": "2.0", "method": "a", "id": 12345678901234567890}, {"jsonrpc": "2.0", "method": "a", "id": "1"}]"#, Profile::JsonRpc);
    let items = &report.documents[0].items;
    let ids: Vec<_> = items.iter().map(|d| d.id.clone().unwrap()).collect();
    assert_eq!(ids, ["1.0", "12345678901234567890", "\"1\""]);
    let rules: Vec<_> = items
        .iter()
        .map(|d| d.violations.iter().map(|v| v.rule.id).collect::<Vec<_>>())
        .collect();
    assert_eq!(
        rules,
        [
            vec!["id-fractional"],
            vec!["id-beyond-safe-integer"],
            vec![]
        ]
    );
}
