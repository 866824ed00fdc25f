//! The specification's own examples (§7), as one transcript: every document classified as the spec
//! means it, only the violations the spec's invalid examples exist to show, and no conversation
//! error (every response pairs, nothing is left unanswered).
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use jsonrpc_playground::rpc::{check, Kind, Profile};

const SPEC: &str = include_str!("fixtures/spec_examples.txt");

#[test]
fn every_document_has_the_kind_the_spec_means() {
    let report = check(SPEC.as_bytes(), Profile::JsonRpc);
    assert!(report.transcript);
    let kinds: Vec<&str> = report.documents.iter().map(|d| d.kind.as_str()).collect();
    use Kind::*;
    let expected = [
        Request,
        Response,
        Request,
        Response,
        Request,
        Response,
        Request,
        Response, // subtract ×4
        Notification,
        Notification, // update, foobar
        Request,
        Response, // foobar → -32601
        ParseError,
        Response, // invalid JSON → -32700
        Invalid,
        Response, // invalid Request → -32600
        ParseError,
        Response, // invalid JSON batch → -32700
        Invalid,
        Response, // [] is not a batch → -32600
        Batch,
        Batch, // [1]
        Batch,
        Batch, // [1,2,3]
        Batch,
        Batch, // mixed batch and its reply
        Batch, // all notifications, nothing returned
    ];
    assert_eq!(
        kinds,
        expected.iter().map(|k| k.as_str()).collect::<Vec<_>>()
    );
    let mixed = &report.documents[24];
    let items: Vec<&str> = mixed.items.iter().map(|d| d.kind.as_str()).collect();
    assert_eq!(
        items,
        [
            "request",
            "notification",
            "request",
            "invalid",
            "request",
            "request"
        ]
    );
}

#[test]
fn only_the_deliberately_invalid_examples_break_rules() {
    let report = check(SPEC.as_bytes(), Profile::JsonRpc);
    let mut hits: Vec<(usize, Option<usize>, &str)> = Vec::new();
    for (i, d) in report.documents.iter().enumerate() {
        hits.extend(d.violations.iter().map(|v| (i, None, v.rule.id)));
        for (j, item) in d.items.iter().enumerate() {
            hits.extend(item.violations.iter().map(|v| (i, Some(j), v.rule.id)));
        }
    }
    assert_eq!(
        hits,
        vec![
            (12, None, "json-syntax"),
            (14, None, "method-not-string"),
            (14, None, "params-not-structured"),
            (16, None, "json-syntax"),
            (18, None, "batch-empty"),
            (20, Some(0), "batch-element-not-object"),
            (22, Some(0), "batch-element-not-object"),
            (22, Some(1), "batch-element-not-object"),
            (22, Some(2), "batch-element-not-object"),
            (24, Some(3), "jsonrpc-missing"),
            (24, Some(3), "method-result-or-error-required"),
            (24, Some(3), "member-unknown"),
        ]
    );
}

#[test]
fn a_missing_reply_in_the_spec_transcript_is_noticed() {
    let broken = SPEC.replace(
        "<-- {\"jsonrpc\": \"2.0\", \"result\": -19, \"id\": 2}\n",
        "",
    );
    let report = check(broken.as_bytes(), Profile::JsonRpc);
    let unanswered: Vec<_> = report
        .violations()
        .filter(|v| v.rule.id == "request-unanswered")
        .collect();
    assert_eq!(unanswered.len(), 1);
    assert_eq!(
        unanswered[0].message,
        "request id 2 never gets a response in this transcript"
    );
}

#[test]
fn a_reply_to_the_all_notification_batch_is_an_error() {
    let broken = SPEC.replace(
        "<-- //Nothing is returned for all notification batches",
        "<-- []",
    );
    let report = check(broken.as_bytes(), Profile::JsonRpc);
    let rules: Vec<_> = report
        .documents
        .last()
        .unwrap()
        .violations
        .iter()
        .map(|v| v.rule.id)
        .collect();
    assert_eq!(rules, ["batch-reply-empty"]);
}
