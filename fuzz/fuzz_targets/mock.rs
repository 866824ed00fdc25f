//! The mock server: any bytes, as one document (`handle`), as a stream (`handle_stream`) and line
//! by line through one stateful server (the stdio transport): never a panic, and every reply is one
//! line of valid JSON that the engine classifies as a response (or a batch of them).
#![no_main]

use jsonrpc_playground::mock::MockServer;
use jsonrpc_playground::rpc::{check, Kind, Profile};
use libfuzzer_sys::fuzz_target;

fn assert_reply(reply: &str) {
    assert!(!reply.contains('\n'), "reply spans lines: {reply}");
    let report = check(reply.as_bytes(), Profile::JsonRpc);
    let [doc] = report.documents.as_slice() else { panic!("reply is not one document: {reply}") };
    match doc.kind {
        Kind::Response => {}
        Kind::Batch => assert!(doc.items.iter().all(|i| i.kind == Kind::Response), "batch reply holds a non-response: {reply}"),
        other => panic!("reply is a {other:?}: {reply}"),
    }
    assert!(!report.has_errors(), "reply breaks a rule: {reply}");
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
