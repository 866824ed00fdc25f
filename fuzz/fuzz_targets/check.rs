//! The whole `rpc::check`, under plain JSON-RPC and every MCP version: any bytes give a report,
//! never a panic; every span lies inside the input; the streamed JSON report is byte for byte the
//! serde_json rendering of `Report::to_json`.
#![no_main]

use jsonrpc_playground::json::LineIndex;
use jsonrpc_playground::rpc::{check, McpVersion, Profile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the profile, so one corpus covers both without running each input six times.
    let Some((&pick, src)) = data.split_first() else { return };
    let profile = match pick as usize % (McpVersion::ALL.len() + 1) {
        0 => Profile::JsonRpc,
        n => Profile::Mcp(McpVersion::ALL[n - 1]),
    };
    let report = check(src, profile);
    let lines = LineIndex::new(src);
    for d in &report.documents {
        assert!(d.span.start <= d.span.end && d.span.end <= src.len());
    }
    for v in report.violations() {
        assert!(v.span.start <= v.span.end && v.span.end <= src.len(), "span {:?} outside {}", v.span, src.len());
        assert!(!v.message.is_empty());
    }
    let reference = serde_json::to_string(&report.to_json(src, &lines)).unwrap();
    let mut streamed = Vec::new();
    report.write_json(src, &lines, &mut streamed).unwrap();
    assert_eq!(String::from_utf8(streamed).unwrap(), reference);
});
