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

/// Under the handshake (2025-11-25) the mock asks the client mid-call (sampling, elicitation,
/// roots): replayed on stdio, what followed each such request waits for the probe's answer, and
/// the conversation is the recorded one, in the recorded order.
#[test]
fn a_handshake_session_with_server_requests_replays_in_the_recorded_order() {
    let dir = scratch("stdio-handshake");
    let first = dir.join("first.txt");
    let version = ["--mcp-version", "2025-11-25", "--"];
    let mut target = version.to_vec();
    target.extend_from_slice(&[JRPC, "serve"]);
    let (code, report) = probe_recording(&first, &target);
    assert_eq!(code, Some(0), "{report}");
    assert!(text(&first).contains("sampling/createMessage"));
    let second = dir.join("second.txt");
    let mut target = version.to_vec();
    target.extend_from_slice(&[JRPC, "serve", "--replay", first.to_str().unwrap()]);
    let (code, report) = probe_recording(&second, &target);
    assert_eq!(code, Some(0), "{report}");
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

#[test]
fn a_probe_session_replayed_over_websocket_passes_the_probe_again() {
    let dir = scratch("ws-probe");
    let first = dir.join("first.txt");
    let (code, report) = probe_recording(&first, &["--", JRPC, "serve"]);
    assert_eq!(code, Some(0), "{report}");
    let replayed = Server::jrpc_serve(&[
        "--replay",
        first.to_str().unwrap(),
        "--ws",
        "127.0.0.1:0",
        "--exit-after",
        "120",
    ]);
    let second = dir.join("second.txt");
    let (code, report) = probe_recording(&second, &[&replayed.url("ws")]);
    assert_eq!(
        code,
        Some(0),
        "the replayed server passes the probe: {report}"
    );
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

/// `jrpc replay --format json ARGS`: the exit code and the report.
fn replay_json(args: &[&str]) -> (Option<i32>, Value) {
    let mut all = vec!["replay", "--format", "json"];
    all.extend_from_slice(args);
    let out = run(&all);
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "a JSON report ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), report)
}

#[test]
fn a_recording_replayed_against_the_server_it_was_recorded_from_is_clean() {
    let dir = scratch("replay-clean");
    let transcript = tapped_recording(&dir);
    let (code, report) = replay_json(&[transcript.to_str().unwrap(), "--", JRPC, "serve"]);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["exchanges"], 4);
    assert_eq!(report["differences"], serde_json::json!([]));
    // A probe's session, its server messages and input-required rounds included.
    let probed = dir.join("probed.txt");
    let (code, out) = probe_recording(&probed, &["--", JRPC, "serve"]);
    assert_eq!(code, Some(0), "{out}");
    let (code, report) = replay_json(&[probed.to_str().unwrap(), "--", JRPC, "serve"]);
    assert_eq!(code, Some(0), "{report:#}");
    assert!(report["exchanges"].as_u64().unwrap() > 20, "{report:#}");
}

#[test]
fn a_recording_replayed_over_http_is_clean() {
    let dir = scratch("replay-http");
    let transcript = tapped_recording(&dir);
    let live = Server::jrpc_serve(&["--http", "127.0.0.1:0", "--exit-after", "120"]);
    let (code, report) = replay_json(&[transcript.to_str().unwrap(), &live.url("http")]);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["differences"], serde_json::json!([]));
}

#[test]
fn each_planted_difference_is_found_at_its_pointer() {
    let dir = scratch("replay-planted");
    let transcript = tapped_recording(&dir);
    // The "new build": the recording with three answers changed, served by `--replay`.
    let planted = dir.join("planted.txt");
    let changed = text(&transcript)
        .replace(r#""text":"3""#, r#""text":"4""#)
        .replace(r#""title":"Addition Tool""#, r#""title":"Sum Tool""#)
        .replace(r#""result":19"#, r#""result":-19"#);
    std::fs::write(&planted, changed).unwrap();
    let server = ["--", JRPC, "serve", "--replay", planted.to_str().unwrap()];
    let mut args = vec![transcript.to_str().unwrap()];
    args.extend_from_slice(&server);
    let (code, report) = replay_json(&args);
    assert_eq!(code, Some(1), "{report:#}");
    let found: Vec<(String, Value, Value)> = report["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["pointer"].as_str().unwrap().to_string(),
                d["old"].clone(),
                d["new"].clone(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                "/result/tools/0/title".to_string(),
                "Addition Tool".into(),
                "Sum Tool".into()
            ),
            ("/result/content/0/text".to_string(), "3".into(), "4".into()),
            ("/result".to_string(), 19.into(), (-19).into()),
        ]
    );
    // Ignored: only the third is left; and JUnit names the failing exchange.
    let mut args = vec![
        transcript.to_str().unwrap(),
        "--ignore",
        "/result/tools/*/title",
        "--ignore",
        "**/text",
        "--format",
        "junit",
    ];
    args.extend_from_slice(&server);
    let mut all = vec!["replay"];
    all.extend_from_slice(&args);
    let out = run(&all);
    assert_eq!(out.status.code(), Some(1));
    let junit = String::from_utf8_lossy(&out.stdout);
    assert!(junit.contains(r#"failures="1""#), "{junit}");
    assert!(junit.contains("tapped.txt:5 subtract\">"), "{junit}");
}

#[test]
fn replay_usage_and_connection_errors_exit_2() {
    let dir = scratch("replay-errors");
    let transcript = tapped_recording(&dir);
    let t = transcript.to_str().unwrap();
    assert_eq!(run(&["replay", t]).status.code(), Some(2), "no server");
    assert_eq!(
        run(&["replay", t, "--ignore", "result", "--", JRPC, "serve"])
            .status
            .code(),
        Some(2),
        "not a pointer"
    );
    let out = run(&["replay", t, "--", "/nonexistent/server"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["replay", "/nonexistent.txt", "--", JRPC, "serve"]);
    assert_eq!(out.status.code(), Some(2));
}

const PETS_V1: &str = r##"{"openrpc":"1.3.2","info":{"title":"pets","version":"1"},"methods":[
 {"name":"list_pets","params":[{"name":"limit","schema":{"type":["integer","string"]}}],"result":{"name":"pets","schema":{"type":"array","items":{"$ref":"#/components/schemas/Pet"}}}},
 {"name":"create_pet","params":[{"name":"name","required":true,"schema":{"type":"string"}},{"name":"kind","schema":{"enum":["cat","dog","fish"]}}],"result":{"name":"pet","schema":{"$ref":"#/components/schemas/Pet"}}},
 {"name":"delete_pet","params":[{"name":"id","required":true,"schema":{"type":"integer"}}],"result":{"name":"ok","schema":{"type":"boolean"}}}
],"components":{"schemas":{"Pet":{"type":"object","required":["id","name"],"properties":{"id":{"type":"integer"},"name":{"type":"string"}}}}}}"##;

/// A change of `jrpc diff`'s report: (kind, name, pointer, breaking).
type Change = (String, String, String, bool);

/// `jrpc diff --format json A B`: the exit code and the changes.
fn diff_json(a: &Path, b: &Path, extra: &[&str]) -> (Option<i32>, Vec<Change>) {
    let mut args = vec![
        "diff",
        "--format",
        "json",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let out = run(&args);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "a JSON report ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let changes = report["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["kind"].as_str().unwrap().to_string(),
                c["name"].as_str().unwrap().to_string(),
                c["pointer"].as_str().unwrap().to_string(),
                c["breaking"].as_bool().unwrap(),
            )
        })
        .collect();
    (out.status.code(), changes)
}

fn change(kind: &str, name: &str, pointer: &str, breaking: bool) -> Change {
    (kind.into(), name.into(), pointer.into(), breaking)
}

#[test]
fn a_diff_of_two_openrpc_documents_marks_breaking_and_compatible_changes() {
    let dir = scratch("diff-docs");
    let v1 = dir.join("v1.json");
    std::fs::write(&v1, PETS_V1).unwrap();
    // Compatible only: a new optional param, a new method, a widened param type.
    let compatible = dir.join("compatible.json");
    std::fs::write(
        &compatible,
        PETS_V1
            .replace(
                r#"{"name":"limit","schema":{"type":["integer","string"]}}"#,
                r#"{"name":"limit","schema":{"type":["integer","string","null"]}},{"name":"offset","schema":{"type":"integer"}}"#,
            )
            .replace(
                r#"{"name":"delete_pet""#,
                r#"{"name":"count_pets","params":[],"result":{"name":"n","schema":{"type":"integer"}}},{"name":"delete_pet""#,
            ),
    )
    .unwrap();
    let (code, changes) = diff_json(&v1, &compatible, &[]);
    assert_eq!(code, Some(0), "{changes:?}");
    assert_eq!(
        changes,
        [
            change("changed", "list_pets", "/params/limit/schema/type", false),
            change("added", "list_pets", "/params/offset", false),
            change("added", "count_pets", "", false),
        ]
    );
    let (code, _) = diff_json(&v1, &compatible, &["--fail-on", "any"]);
    assert_eq!(code, Some(1));
    // Breaking: a removed method, a new required param, a narrowed type, a removed enum value,
    // a result property (through a $ref) no longer guaranteed.
    let breaking = dir.join("breaking.json");
    std::fs::write(
        &breaking,
        PETS_V1
            .replace(r#""type":["integer","string"]"#, r#""type":"integer""#)
            .replace(r#"["cat","dog","fish"]"#, r#"["cat","dog"]"#)
            .replace(
                r#"{"name":"kind","#,
                r#"{"name":"owner","required":true,"schema":{"type":"string"}},{"name":"kind","#,
            )
            .replace(r#""required":["id","name"]"#, r#""required":["id"]"#)
            .replace(
                r#",
 {"name":"delete_pet","params":[{"name":"id","required":true,"schema":{"type":"integer"}}],"result":{"name":"ok","schema":{"type":"boolean"}}}"#,
                "",
            ),
    )
    .unwrap();
    let (code, changes) = diff_json(&v1, &breaking, &[]);
    assert_eq!(code, Some(1), "{changes:?}");
    for expected in [
        change("removed", "delete_pet", "", true),
        change("added", "create_pet", "/params/owner", true),
        change("changed", "list_pets", "/params/limit/schema/type", true),
        change("removed", "create_pet", "/params/kind/schema/enum", true),
        change("changed", "create_pet", "/result/required", true),
        change("changed", "list_pets", "/result/items/required", true),
    ] {
        assert!(changes.contains(&expected), "{expected:?} in {changes:?}");
    }
    let (code, _) = diff_json(&v1, &breaking, &["--fail-on", "none"]);
    assert_eq!(code, Some(0));
}

#[test]
fn a_diff_of_two_transcripts_reads_their_recorded_listings() {
    let dir = scratch("diff-transcripts");
    let old = tapped_recording(&dir);
    let new = dir.join("new.txt");
    // The add tool's b becomes a string (narrowed for callers sending numbers) and loses its title.
    let text = text(&old);
    let start = text.find(r#""inputSchema":{"type":"object","properties":{"a":{"type":"number""#);
    assert!(start.is_some(), "the add tool's schema is recorded: {text}");
    let changed = text
        .replacen(r#""b":{"type":"number""#, r#""b":{"type":"string""#, 1)
        .replace(r#""title":"Addition Tool","#, "");
    std::fs::write(&new, changed).unwrap();
    let (code, changes) = diff_json(&old, &new, &[]);
    assert_eq!(code, Some(1), "{changes:?}");
    assert!(
        changes.contains(&change(
            "changed",
            "add",
            "/inputSchema/properties/b/type",
            true
        )),
        "{changes:?}"
    );
    assert!(
        changes.contains(&change("changed", "add", "/title", false)),
        "{changes:?}"
    );
    let (code, changes) = diff_json(&old, &old, &[]);
    assert_eq!((code, changes), (Some(0), vec![]));
}

#[test]
fn a_diff_against_a_live_server_fetches_its_listings() {
    let dir = scratch("diff-server");
    let old = tapped_recording(&dir);
    // The conformance fixtures have none of the friendly tools: each is a removed tool.
    let out = run(&[
        "diff",
        "--format",
        "json",
        old.to_str().unwrap(),
        "--",
        JRPC,
        "serve",
        "--fixtures",
        "conformance",
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let removed_add = report["changes"].as_array().unwrap().iter().any(|c| {
        c["kind"] == "removed" && c["what"] == "tool" && c["name"] == "add" && c["breaking"] == true
    });
    assert!(removed_add, "{report:#}");
    let out = run(&["diff", old.to_str().unwrap(), "--", JRPC, "serve"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
