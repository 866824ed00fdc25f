//! What a peer, a document or an input supplies never reaches the terminal as a raw control
//! character: ESC, BEL and a C1 control (CSI, U+009B) fed through every output of every command
//! (`check`'s text and JSON, the refusals of `serve`, `tap` and `probe`, `tap`'s findings, `serve
//! --verbose`'s log, `probe`'s text, JSON and JUnit) come out escaped or replaced.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;
use std::process::Command;

use serde_json::json;

mod common;

const JRPC: &str = env!("CARGO_BIN_EXE_jrpc");

/// ESC [31m (red), BEL, CSI 2J (clear the screen, in its one-character C1 form).
const HOSTILE: &str = "\u{1b}[31m\u{7}\u{9b}2J";

/// The raw control characters in `bytes` (tab and line breaks excepted): C0, DEL and C1.
fn raw_controls(bytes: &[u8]) -> Vec<char> {
    String::from_utf8_lossy(bytes)
        .chars()
        .filter(|&c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
        .collect()
}

fn assert_inert(what: &str, out: &std::process::Output) {
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        let raw = raw_controls(bytes);
        assert!(
            raw.is_empty(),
            "{what}: {stream} holds raw {raw:?}: {}",
            String::from_utf8_lossy(bytes)
        );
    }
}

/// A directory with: `good.json`, a document with one method named [`HOSTILE`]; `bad.json`, a
/// document whose dangling `$ref` sits under a key named [`HOSTILE`]; `call.json`, a call of that
/// method with a param, a member and an unknown param named [`HOSTILE`].
fn files(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jrpc-escapes-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = json!({
        "openrpc": "1.3.2",
        "info": {"title": "t", "version": "1"},
        "methods": [{"name": HOSTILE, "paramStructure": "by-name",
                     "params": [{"name": "a", "schema": {"type": "string"}}],
                     "result": {"name": "r", "schema": {"type": "string"}}}]
    });
    let bad = json!({
        "openrpc": "1.3.2",
        "info": {"title": "t", "version": "1"},
        "methods": [],
        "components": {"schemas": {HOSTILE: {"$ref": format!("#/nowhere{HOSTILE}")}}}
    });
    let call = format!(
        "{}\n",
        json!({"jsonrpc": "2.0", "id": 1, "method": HOSTILE, "params": {"a": 1, HOSTILE: 2}, HOSTILE: 3})
    );
    std::fs::write(dir.join("good.json"), good.to_string()).unwrap();
    std::fs::write(dir.join("bad.json"), bad.to_string()).unwrap();
    std::fs::write(dir.join("call.json"), call).unwrap();
    dir
}

fn path(dir: &std::path::Path, file: &str) -> String {
    dir.join(file).to_str().unwrap().to_string()
}

#[test]
fn check_text_and_json_and_its_refusal_of_a_document_are_inert() {
    let dir = files("check");
    let (good, bad, call) = (
        path(&dir, "good.json"),
        path(&dir, "bad.json"),
        path(&dir, "call.json"),
    );
    for format in ["text", "json"] {
        let out = common::output_of(Command::new(JRPC).args([
            "check",
            "--openrpc",
            &good,
            "--format",
            format,
            &call,
        ]));
        assert_eq!(out.status.code(), Some(1), "check {format}");
        assert_inert(&format!("check --format {format}"), &out);
        let refused = common::output_of(Command::new(JRPC).args([
            "check",
            "--openrpc",
            &bad,
            "--format",
            format,
            &call,
        ]));
        assert_eq!(refused.status.code(), Some(2), "check bad.json {format}");
        assert_inert(
            &format!("check --openrpc bad.json --format {format}"),
            &refused,
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_refusals_of_serve_tap_and_probe_are_inert() {
    let dir = files("refusals");
    let bad = path(&dir, "bad.json");
    for args in [
        vec!["serve", "--openrpc", &bad],
        vec!["tap", "--openrpc", &bad, "--", "cat"],
        vec!["probe", "--openrpc", &bad, "--", "cat"],
    ] {
        let out = common::jrpc(&args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("(at /components/schemas/"),
            "{args:?}: {said}"
        );
        assert_inert(&args.join(" "), &out);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn taps_findings_and_serves_verbose_log_are_inert() {
    let dir = files("tap");
    let (good, call) = (path(&dir, "good.json"), path(&dir, "call.json"));
    let sent = std::fs::read(&call).unwrap();
    let tapped = common::jrpc(&["tap", "--openrpc", &good, "--", "cat"], &sent);
    let findings = String::from_utf8_lossy(&tapped.stderr);
    assert!(findings.contains("tap: client message 1:"), "{findings}");
    // stdout is the server's bytes, passed through unchanged: only the findings are ours.
    assert!(raw_controls(&tapped.stderr).is_empty(), "{findings}");
    let served = common::jrpc(&["serve", "--verbose", "--openrpc", &good], &sent);
    let log = String::from_utf8_lossy(&served.stderr);
    assert!(log.contains("--> "), "{log}");
    assert!(raw_controls(&served.stderr).is_empty(), "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn probe_text_json_and_junit_of_a_discovered_method_name_are_inert() {
    let dir = files("probe");
    let good = path(&dir, "good.json");
    for format in ["text", "json", "junit"] {
        let out = common::output_of(Command::new(JRPC).args([
            "probe",
            "--openrpc",
            "discover",
            "--format",
            format,
            "--",
            JRPC,
            "serve",
            "--openrpc",
            &good,
        ]));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("openrpc/"), "{format}: {text}");
        assert_inert(&format!("probe --format {format}"), &out);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
