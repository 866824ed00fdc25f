//! The mock server: any bytes, as one document (`handle`), as a stream (`handle_stream`) and line
//! by line through one stateful server (the stdio transport): never a panic, and every reply is one
//! line of valid JSON that, checked together with the request it answers as a transcript
//! (`--> REQUEST`, `<-- REPLY`), the engine classifies as a response (or a batch of them) breaking
//! no rule. (A reply alone cannot always be judged: a request with `"id": null` gets its null back
//! with a result, which is right only beside that request. A batch refused whole under an MCP
//! version without batches gets one Invalid Request, id null, which JSON-RPC pairing cannot match.)
#![no_main]

use jsonrpc_playground::json::Direction;
use jsonrpc_playground::mock::MockServer;
use jsonrpc_playground::rpc::{check, Document, Kind, Profile, Severity};
use libfuzzer_sys::fuzz_target;

/// The reply with its request, as the engine checks it.
fn exchange(request: &[u8], reply: &str) -> Vec<u8> {
    jsonrpc_playground::mock::exchange_transcript(request, reply)
}

/// How the mock refuses a non-empty batch under an MCP version without batches: one Invalid
/// Request, id null, for the whole array (JSON-RPC pairing, which wants an array, cannot match it).
const BATCH_REFUSED: &str = r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"},"id":null}"#;

fn assert_reply(request: &[u8], reply: &str) {
    assert!(!reply.contains('\n'), "reply spans lines: {reply}");
    if reply == BATCH_REFUSED && request.trim_ascii_start().starts_with(b"[") {
        return;
    }
    let alone = check(reply.as_bytes(), Profile::JsonRpc);
    assert!(alone.documents.len() == 1, "reply is not one document: {reply}");
    let report = check(&exchange(request, reply), Profile::JsonRpc);
    let replies: Vec<&Document> = report.documents.iter().filter(|d| d.direction == Some(Direction::Server)).collect();
    let [doc] = replies[..] else { panic!("the transcript does not hold the reply as one document: {reply}") };
    let response = |d: &Document| d.kind == Kind::Response;
    match doc.kind {
        Kind::Batch => assert!(doc.items.iter().all(response), "batch reply holds a non-response: {reply}"),
        _ => assert!(response(doc), "reply is a {:?}: {reply}", doc.kind),
    }
    let broken: Vec<_> = doc.all_violations().filter(|v| v.severity == Severity::Error).map(|v| v.rule.id).collect();
    assert!(broken.is_empty(), "reply breaks {broken:?}: {reply}");
}

fuzz_target!(|data: &[u8]| {
    if let Some(reply) = MockServer::new().handle(data) {
        assert_reply(data, &reply);
    }
    for e in MockServer::new().handle_stream(data) {
        assert!(e.span.end <= data.len());
        if let Some(reply) = e.reply {
            assert_reply(&data[e.span.start..e.span.end], &reply);
        }
    }
    let mut server = MockServer::new();
    for line in data.split(|&b| b == b'\n') {
        if let Some(reply) = server.handle(line) {
            assert_reply(line, &reply);
        }
    }
});
