//! Nothing panics: every JSONTestSuite file and thousands of mutated spec examples go through the
//! whole `check` (both profiles, every MCP version) and the CLI-style JSON report.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use jsonrpc_playground::json::LineIndex;
use jsonrpc_playground::rpc::{check, McpVersion, Profile};

fn profiles() -> Vec<Profile> {
    let mut p = vec![Profile::JsonRpc];
    p.extend(McpVersion::ALL.iter().map(|&v| Profile::Mcp(v)));
    p
}

fn check_all(src: &[u8]) {
    for profile in profiles() {
        let report = check(src, profile);
        let json = report.to_json(src, &LineIndex::new(src));
        assert!(json["documents"].is_array());
        for v in report.violations() {
            assert!(
                v.span.start <= v.span.end && v.span.end <= src.len(),
                "span {:?} outside input of {}",
                v.span,
                src.len()
            );
        }
    }
}

#[test]
fn every_json_test_suite_file_is_checked_without_panic() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/JSONTestSuite/test_parsing");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        check_all(&std::fs::read(entry.unwrap().path()).unwrap());
        n += 1;
    }
    assert!(n > 300);
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn mutated_spec_examples_never_panic() {
    let base = include_bytes!("fixtures/spec_examples.txt");
    let alphabet = b"{}[]\",:-0123456789.eE \n\\u\xff\xc3truefalsnl>-<";
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..1500 {
        let mut src = base.to_vec();
        for _ in 0..(1 + rng.next() % 8) {
            let at = (rng.next() as usize) % src.len();
            match rng.next() % 3 {
                0 => src[at] = alphabet[(rng.next() as usize) % alphabet.len()],
                1 => {
                    src.remove(at);
                }
                _ => src.insert(at, alphabet[(rng.next() as usize) % alphabet.len()]),
            }
        }
        let profile = profiles()[(rng.next() as usize) % 6];
        let report = check(&src, profile);
        let _ = report.to_json(&src, &LineIndex::new(&src));
    }
}

#[test]
fn hostile_shapes_are_handled() {
    check_all(&b"[".repeat(100_000));
    check_all(&b"{\"a\":".repeat(100_000));
    check_all(
        format!(
            "[{}]",
            vec!["{\"jsonrpc\":\"2.0\",\"method\":\"a\"}"; 5_000].join(",")
        )
        .as_bytes(),
    );
    check_all(
        format!(
            "{{\"jsonrpc\":\"2.0\",\"method\":\"a\",\"id\":{}}}",
            "9".repeat(10_000)
        )
        .as_bytes(),
    );
    check_all(b"--> \n<-- \n-->");
    check_all(b"\xef\xbb\xbf{}");
    check_all(b"\"\\ud800\\udbff\"");
}
