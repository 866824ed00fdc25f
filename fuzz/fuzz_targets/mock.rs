//! The mock server: any bytes, as one document (`handle`), as a stream (`handle_stream`) and line
//! by line through one stateful server (the stdio transport): never a panic, and every reply is one
//! line of valid JSON that the engine classifies as a response (or a batch of them).
#![no_main]

use jsonrpc_playground::mock::MockServer;
use jsonrpc_playground::rpc::{check, Document, Kind, Profile, Severity};
use libfuzzer_sys::fuzz_target;

/// The one rule a reply may break: a request with `"id": null` (legal, if unwise) gets its id back as
/// the specification says ("the same as the value of the id member"), and the engine flags a result
/// with id null (tests/hostile.rs, fuzz_regressions, pins both).
const ALLOWED: &str = "response-null-id-with-result";

fn assert_reply(reply: &str) {
    assert!(!reply.contains('\n'), "reply spans lines: {reply}");
    let report = check(reply.as_bytes(), Profile::JsonRpc);
    let [doc] = report.documents.as_slice() else { panic!("reply is not one document: {reply}") };
    let null_id = |d: &Document| d.violations.iter().any(|v| v.rule.id == ALLOWED);
    let response = |d: &Document| d.kind == Kind::Response || (d.kind == Kind::Invalid && null_id(d));
    match doc.kind {
        Kind::Batch => assert!(doc.items.iter().all(response), "batch reply holds a non-response: {reply}"),
        _ => assert!(response(doc), "reply is a {:?}: {reply}", doc.kind),
    }
    let broken: Vec<_> = report.violations().filter(|v| v.severity == Severity::Error && v.rule.id != ALLOWED).collect();
    assert!(broken.is_empty(), "reply breaks {:?}: {reply}", broken.iter().map(|v| v.rule.id).collect::<Vec<_>>());
}

fuzz_target!(|data: &[u8]| {
    if let Some(reply) = MockServer::new().handle(data) {
        assert_reply(&reply);
    }
    for e in MockServer::new().handle_stream(data) {
        assert!(e.span.end <= data.len());
        if let Some(reply) = e.reply {
            assert_reply(&reply);
        }
    }
    let mut server = MockServer::new();
    for line in data.split(|&b| b == b'\n') {
        if let Some(reply) = server.handle(line) {
            assert_reply(&reply);
        }
    }
});
