//! Record, replay, diff: `jrpc serve --replay TRANSCRIPT` serves a recorded session (stdio and
//! HTTP; recorded from `jrpc serve` itself with `jrpc probe --transcript` and `jrpc tap
//! --transcript`), `jrpc replay` re-sends a recording to a live server and diffs its answers, and
//! `jrpc diff` compares two interfaces. Every process has a deadline (tests/common).
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::Server;
use serde_json::Value;

const JRPC: &str = env!("CARGO_BIN_EXE_jrpc");

/// A directory of this test's own under the target directory, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("replay-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

fn run(args: &[&str]) -> Output {
    common::output_of(Command::new(JRPC).args(args))
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).expect("the file was written")
}

/// A transcript with every `"id":…` value taken out (replayed sessions keep their own ids).
fn without_ids(transcript: &str) -> Vec<String> {
    transcript
        .lines()
        .map(|line| {
            let mut out = String::new();
            let mut rest = line;
            while let Some(at) = rest.find("\"id\":") {
                out.push_str(&rest[..at]);
                let after = &rest[at + 5..];
                let end = after.find([',', '}']).unwrap_or(after.len());
                rest = &after[end..];
            }
            out.push_str(rest);
            out
        })
        .collect()
}

/// `jrpc probe --transcript FILE ARGS`: the probe's exit code and its last output line.
fn probe_recording(transcript: &Path, target: &[&str]) -> (Option<i32>, String) {
    let mut args = vec!["probe", "--transcript", transcript.to_str().unwrap()];
    args.extend_from_slice(target);
    let out = run(&args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code(), stdout)
}

#[test]
fn a_probe_session_replayed_on_stdio_passes_the_probe_again_with_the_same_answers() {
    let dir = scratch("stdio-probe");
    let first = dir.join("first.txt");
    let (code, report) = probe_recording(&first, &["--", JRPC, "serve"]);
    assert_eq!(code, Some(0), "{report}");
    let second = dir.join("second.txt");
    let (code, report) = probe_recording(
        &second,
        &["--", JRPC, "serve", "--replay", first.to_str().unwrap()],
    );
    assert_eq!(
        code,
        Some(0),
        "the replayed server passes the probe: {report}"
    );
    assert_eq!(without_ids(&text(&first)), without_ids(&text(&second)));
}

#[test]
fn a_probe_session_replayed_over_http_passes_the_probe_again_with_the_same_answers() {
    let dir = scratch("http-probe");
    let first = dir.join("first.txt");
    let live = Server::jrpc_serve(&["--http", "127.0.0.1:0", "--exit-after", "120"]);
    let (code, report) = probe_recording(&first, &[&live.url("http")]);
    assert_eq!(code, Some(0), "{report}");
    let replayed = Server::jrpc_serve(&[
        "--replay",
        first.to_str().unwrap(),
        "--http",
        "127.0.0.1:0",
        "--exit-after",
        "120",
    ]);
    let second = dir.join("second.txt");
    let (code, report) = probe_recording(&second, &[&replayed.url("http")]);
    assert_eq!(
        code,
        Some(0),
        "the replayed server passes the probe: {report}"
    );
    assert_eq!(without_ids(&text(&first)), without_ids(&text(&second)));
}

const TAPPED: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}"#,
    r#"{"jsonrpc":"2.0","id":4,"method":"subtract","params":[42,23]}"#,
];

/// Records `jrpc serve` (MCP and the JSON-RPC examples) through `jrpc tap --transcript`.
fn tapped_recording(dir: &Path) -> PathBuf {
    let transcript = dir.join("tapped.txt");
    let input = TAPPED.join("\n") + "\n";
    let out = common::jrpc(
        &[
            "tap",
            "--transcript",
            transcript.to_str().unwrap(),
            "--",
            JRPC,
            "serve",
        ],
        input.as_bytes(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    transcript
}

/// The replies of `jrpc serve --replay TRANSCRIPT` to `lines` on stdio, parsed.
fn replayed(transcript: &Path, lines: &[&str]) -> Vec<Value> {
    let input = lines.join("\n") + "\n";
    let out = common::jrpc(
        &["serve", "--replay", transcript.to_str().unwrap()],
        input.as_bytes(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON reply line"))
        .collect()
}

#[test]
fn a_tapped_session_is_answered_by_method_and_canonical_params_with_the_callers_ids() {
    let dir = scratch("tapped");
    let transcript = tapped_recording(&dir);
    let replies = replayed(
        &transcript,
        &[
            // Keys in another order, another id, a number the same as written.
            r#"{"id":"x","jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"b":2,"a":1},"name":"add"}}"#,
            "{not json",
            r#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":7}"#,
        ],
    );
    assert_eq!(replies[0]["id"], "x");
    assert_eq!(replies[0]["result"]["content"][0]["text"], "3");
    // Not one JSON value: a parse error, as the recording has none to give.
    assert_eq!(replies[1]["error"]["code"], -32700);
    assert_eq!(
        replies[2],
        serde_json::json!({"jsonrpc":"2.0","result":19,"id":7})
    );
}

#[test]
fn an_unrecorded_request_is_a_located_error_naming_the_nearest_recorded_ones() {
    let dir = scratch("unmatched");
    let transcript = tapped_recording(&dir);
    let replies = replayed(
        &transcript,
        &[
            r#"{"jsonrpc":"2.0","id":1,"method":"tool/list"}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":3}}}"#,
        ],
    );
    assert_eq!(replies[0]["error"]["code"], -32601);
    assert_eq!(
        replies[0]["error"]["data"]["nearest"][0]["method"],
        "tools/list"
    );
    let at = replies[0]["error"]["data"]["nearest"][0]["at"]
        .as_str()
        .unwrap();
    assert!(at.ends_with("tapped.txt:3"), "{at}");
    assert_eq!(replies[1]["error"]["code"], -32602);
    let message = replies[1]["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("tools/call") && message.contains("tapped.txt:4"),
        "{message}"
    );
    assert_eq!(
        replies[1]["error"]["data"]["nearest"][0]["params"]["arguments"]["b"],
        2
    );
}

#[test]
fn several_transcripts_merge() {
    let dir = scratch("merge");
    let one = dir.join("one.txt");
    let two = dir.join("two.txt");
    std::fs::write(&one, "--> {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}\n<-- {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"A\"}\n").unwrap();
    std::fs::write(&two, "--> {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"b\"}\n<-- {\"jsonrpc\":\"2.0\",\"method\":\"note\"}\n<-- {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"B\"}\n").unwrap();
    let input = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"b\"}\n{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"a\"}\n";
    let out = common::jrpc(
        &[
            "serve",
            "--replay",
            one.to_str().unwrap(),
            "--replay",
            two.to_str().unwrap(),
        ],
        input.as_bytes(),
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "{\"jsonrpc\":\"2.0\",\"method\":\"note\"}\n{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":\"B\"}\n{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":\"A\"}\n"
    );
}

#[test]
fn a_recording_that_cannot_be_used_is_a_usage_error_naming_the_file() {
    let dir = scratch("bad");
    let plain = dir.join("plain.json");
    std::fs::write(&plain, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}\n").unwrap();
    let out = common::jrpc(&["serve", "--replay", plain.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("plain.json: not a transcript"), "{stderr}");
    let missing = dir.join("missing.txt");
    let out = common::jrpc(&["serve", "--replay", missing.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.txt: cannot read it"));
    let out = common::jrpc(
        &[
            "serve",
            "--replay",
            plain.to_str().unwrap(),
            "--openrpc",
            "x.json",
        ],
        b"",
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "--replay and --openrpc contradict"
    );
}
