//! `jrpc check` as scripts use it: exit codes, the text format and the JSON report.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::process::{Command, Output, Stdio};

mod common;
use common::jrpc;

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn clean_input_exits_0_and_says_ok() {
    let out = jrpc(
        &["check"],
        br#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#,
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "<stdin>: 1 document (request): ok\n"
    );
}

#[test]
fn warnings_alone_exit_0() {
    let out = jrpc(
        &["check"],
        br#"{"jsonrpc": "2.0", "method": "ping", "id": null}"#,
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("warning[id-null-in-request]"));
}

#[test]
fn fail_on_warning_makes_a_warning_exit_1_in_text_and_json() {
    let input = br#"{"jsonrpc": "2.0", "method": "ping", "id": null}"#;
    for format in ["text", "json"] {
        for (fail_on, code) in [("error", 0), ("warning", 1), ("warn", 1)] {
            let out = jrpc(&["check", "--format", format, "--fail-on", fail_on], input);
            assert_eq!(
                out.status.code(),
                Some(code),
                "{format} --fail-on {fail_on}"
            );
        }
    }
    let clean = br#"{"jsonrpc": "2.0", "method": "ping", "id": 1}"#;
    assert_eq!(
        jrpc(&["check", "--fail-severity", "warning"], clean)
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn an_error_exits_1_with_a_located_compiler_style_message() {
    let out = jrpc(
        &["check"],
        b"{\"jsonrpc\": \"2.0\",\n \"method\": 7, \"id\": 1}",
    );
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("error[method-not-string]: \"method\" must be a string, found a number\n  --> <stdin>:2:12\n"), "{text}");
    assert!(
        text.contains("2 |  \"method\": 7, \"id\": 1}\n  |            ^\n"),
        "{text}"
    );
    assert!(text.contains("= spec: JSON-RPC 2.0 §4 Request object <https://www.jsonrpc.org/specification#request_object>"));
}

#[test]
fn usage_errors_and_missing_files_exit_2_without_panicking() {
    for args in [
        &["check", "--format", "yaml"][..],
        &["check", "--profile"],
        &["frobnicate"],
        &[],
    ] {
        let out = jrpc(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("error: ") || err.contains("Usage: jrpc"),
            "{args:?}: {err}"
        );
    }
    let out = jrpc(&["check", "/no/such/file.json"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "jrpc check: cannot read /no/such/file.json: No such file or directory (os error 2)\n"
    );
}

#[test]
fn bytes_that_are_not_utf8_are_a_located_parse_error() {
    let out = jrpc(
        &["check", "--format", "json"],
        b"{\"jsonrpc\": \"2.0\", \"method\": \"a\xffb\", \"id\": 1}",
    );
    assert_eq!(out.status.code(), Some(1));
    let report = json(&out);
    let doc = &report["documents"][0];
    assert_eq!(doc["kind"], "parse-error");
    let v = &doc["violations"][0];
    assert_eq!(v["rule"], "json-syntax");
    assert_eq!(v["span"]["start"], 31);
    assert!(v["message"].as_str().unwrap().contains("0xFF"));
}

#[test]
fn json_report_has_the_contract_shape() {
    let out = jrpc(
        &["check", "--format", "json"],
        br#"[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"}, 5]"#,
    );
    assert_eq!(out.status.code(), Some(1));
    let report = json(&out);
    let batch = &report["documents"][0];
    assert_eq!(batch["kind"], "batch");
    assert_eq!(
        batch["span"],
        serde_json::json!({"start": 0, "end": 70, "line": 1, "column": 1, "end_line": 1, "end_column": 71})
    );
    assert_eq!(batch["items"][0]["kind"], "request");
    assert_eq!(batch["items"][0]["method"], "sum");
    assert_eq!(batch["items"][0]["id"], "\"1\"");
    let v = &batch["items"][1]["violations"][0];
    assert_eq!(v["rule"], "batch-element-not-object");
    assert_eq!(v["severity"], "error");
    assert_eq!(v["path"], "/1");
    assert_eq!(v["span"]["column"], 69);
    assert_eq!(
        v["spec"]["url"],
        "https://www.jsonrpc.org/specification#batch"
    );
}

#[test]
fn transcripts_report_direction() {
    let out = jrpc(
        &["check", "--format", "json"],
        b"--> {\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"id\": 1}\n<-- {\"jsonrpc\": \"2.0\", \"result\": {}, \"id\": 2}\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let report = json(&out);
    let docs = report["documents"].as_array().unwrap();
    assert_eq!(docs[0]["direction"], "client");
    assert_eq!(docs[1]["direction"], "server");
    let rules: Vec<_> = report["documents"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| {
            d["violations"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v["rule"].as_str().unwrap().to_string())
        })
        .collect();
    assert_eq!(rules, ["request-unanswered", "response-unmatched"]);
}

#[test]
fn a_transcript_file_with_comment_lines_and_blank_lines_is_clean() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/commented_transcript.txt"
    );
    let out = jrpc(&["check", path], b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = jrpc(&["check", "--format", "json", path], b"");
    let report = json(&out);
    let docs = report["documents"].as_array().unwrap();
    let directions: Vec<_> = docs
        .iter()
        .map(|d| d["direction"].as_str().unwrap())
        .collect();
    // Five messages; none of the five comment lines is a document.
    assert_eq!(
        directions,
        ["client", "server", "client", "client", "server"]
    );
    assert!(docs
        .iter()
        .all(|d| d["violations"].as_array().unwrap().is_empty()));
}

#[test]
fn a_comment_line_outside_a_transcript_stays_a_parse_error() {
    let out = jrpc(
        &["check", "--format", "json"],
        b"// a note\n{\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"id\": 1}\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json(&out)["documents"][0]["kind"], "parse-error");
}

#[test]
fn a_batch_of_notifications_only_waits_for_no_reply() {
    // The issue's transcript: the reply answers the second batch, not the first.
    let out = jrpc(
        &["check"],
        br#"--> [{"jsonrpc":"2.0","method":"echo","params":["x",99]}]
--> [{"jsonrpc":"2.0","id":2,"method":"echo","params":[]},{"jsonrpc":"2.0","id":3,"method":"echo","params":["x",3]}]
<-- [{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"missing value"}},{"jsonrpc":"2.0","id":3,"result":"x"}]
"#,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn several_files_are_checked_in_order_and_named() {
    let dir = std::env::temp_dir().join(format!("jrpc-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = dir.join("a.json");
    let b = dir.join("b.json");
    std::fs::write(&a, br#"{"jsonrpc": "2.0", "method": "a"}"#).unwrap();
    std::fs::write(&b, br#"{"jsonrpc": "2.0", "result": 1, "id": 1}"#).unwrap();
    let out = jrpc(
        &[
            "check",
            "--format",
            "json",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    let report = json(&out);
    let docs = report["documents"].as_array().unwrap();
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[0]["kind"], "notification");
    assert_eq!(docs[0]["file"], a.to_str().unwrap());
    assert_eq!(docs[1]["kind"], "response");
    let text = jrpc(
        &["check", a.to_str().unwrap(), "-"],
        br#"{"jsonrpc": "2.0", "method": 1}"#,
    );
    assert_eq!(text.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(
        stdout.contains("a.json: 1 document (notification): ok"),
        "{stdout}"
    );
    assert!(
        stdout.contains("<stdin>: 1 document (invalid): 1 error, 0 warnings"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn input_with_no_value_is_a_parse_error_at_the_end_of_input() {
    for (stdin, line_col) in [(&b""[..], "1:1"), (b"  \n\n", "3:1"), (b"\t", "1:2")] {
        let out = jrpc(&["check"], stdin);
        assert_eq!(out.status.code(), Some(1), "{stdin:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.starts_with("error[json-syntax]: expected a JSON value"),
            "{text}"
        );
        assert!(
            text.contains(&format!(" --> <stdin>:{line_col}\n")),
            "{stdin:?}: {text}"
        );
        assert!(
            text.ends_with("<stdin>: 1 document (parse-error): 1 error, 0 warnings\n"),
            "{text}"
        );
        let report = json(&jrpc(&["check", "--format", "json"], stdin));
        assert_eq!(report["documents"][0]["kind"], "parse-error", "{stdin:?}");
        assert_eq!(
            report["documents"][0]["violations"][0]["span"]["start"],
            stdin.len(),
            "{stdin:?}"
        );
    }
    // Blank lines between the documents of a stream stay fine.
    let out = jrpc(&["check"], b"\n{\"jsonrpc\": \"2.0\", \"method\": \"a\"}\n\n\n{\"jsonrpc\": \"2.0\", \"method\": \"b\"}\n\n");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn an_empty_array_is_an_invalid_document_not_a_batch() {
    let out = jrpc(&["check"], b"[]");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("error[batch-empty]: an empty array is not a batch"),
        "{text}"
    );
    assert!(
        text.ends_with("<stdin>: 1 document (invalid): 1 error, 0 warnings\n"),
        "{text}"
    );
    let report = json(&jrpc(&["check", "--format", "json"], b"[]"));
    assert_eq!(report["documents"][0]["kind"], "invalid");
    assert!(report["documents"][0]
        .get("items")
        .is_none_or(|items| items.as_array().is_some_and(Vec::is_empty)));
}

#[test]
fn related_spans_are_secondary_labels_under_the_line() {
    let out = jrpc(
        &["check"],
        br#"{"id": 1, "jsonrpc": "2.0", "method": "m", "id": 2}"#,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let source = "1 | {\"id\": 1, \"jsonrpc\": \"2.0\", \"method\": \"m\", \"id\": 2}";
    let marks = text
        .lines()
        .skip_while(|l| *l != source)
        .nth(1)
        .unwrap_or_default();
    // The first "id" underlined as the secondary label (-), the second as the primary (^).
    assert_eq!(
        (marks.find('-'), marks.find('^')),
        (source.find("\"id\""), source.rfind("\"id\"")),
        "{text}"
    );
    assert!(text.contains("  |  \"id\" first appears here\n"), "{text}");
    assert!(!text.contains("= note"), "{text}");
}

#[test]
fn wide_characters_are_underlined_to_their_width() {
    let out = jrpc(
        &["check"],
        "{\"jsonrpc\": \"2.0\", \"method\": \"日本\", \"名前\": 1, \"id\": 1}".as_bytes(),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // "名前" with its quotes is 6 columns wide; the caret starts under its opening quote.
    let line = text.lines().find(|l| l.starts_with("1 | ")).unwrap();
    let carets = text.lines().find(|l| l.contains('^')).unwrap();
    let col = |s: &str, upto: usize| unicode_width::UnicodeWidthStr::width(&s[..upto]);
    assert_eq!(
        col(carets, carets.find('^').unwrap()),
        col(line, line.find("\"名前\"").unwrap()),
        "{text}"
    );
    assert_eq!(carets.matches('^').count(), 6, "{text}");
}

#[test]
fn control_characters_never_reach_the_terminal_raw() {
    // An escaped ESC in a member name (quoted by the message and the pointer), raw ESC/BEL/NUL
    // in a source line, and a CR-only line ending.
    for input in [
        &br#"{"jsonrpc": "2.0", "method": "m", "\u001b]0;owned\u0007": 1, "id": 1}"#[..],
        b"{\"jsonrpc\": \"2.0\", \"method\": \"a\x1b[2Jb\x07\x00\", \"id\": 1}",
        b"{\"jsonrpc\": \"1.0\", \"method\": \"m\", \"id\": 1}\r{\"jsonrpc\": \"1.0\"}",
    ] {
        let out = jrpc(&["check"], input);
        let raw: Vec<u8> = out
            .stdout
            .iter()
            .copied()
            .filter(|&b| b < 0x20 && b != b'\n')
            .collect();
        assert!(
            raw.is_empty(),
            "{:?} printed raw control bytes {raw:?}:\n{}",
            String::from_utf8_lossy(input),
            String::from_utf8_lossy(&out.stdout)
        );
    }
    let out = jrpc(
        &["check"],
        br#"{"jsonrpc": "2.0", "method": "m", "\u001b]0;owned\u0007": 1, "id": 1}"#,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(r"\u001b]0;owned\u0007"), "{text}");
}

#[test]
fn a_long_one_line_batch_prints_a_bounded_window_per_finding() {
    let batch: Vec<String> = (0..3000)
        .map(|i| format!(r#"{{"jsonrpc": "1.0", "method": "m", "params": [1, 2, 3], "id": {i}}}"#))
        .collect();
    let input = format!("[{}]", batch.join(", "));
    assert!(input.len() > 170_000);
    let out = jrpc(&["check"], input.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.stdout.len() < 16 * 1024, "{} bytes", out.stdout.len());
    assert!(
        text.contains(
            "note: 2980 more [jsonrpc-not-2-0] findings not shown (--format json lists every one)"
        ),
        "{text}"
    );
    assert!(
        text.ends_with("<stdin>: 1 document (batch of 3000): 3000 errors, 0 warnings\n"),
        "{text}"
    );
    // The window keeps the real line and column.
    assert!(text.contains("  --> <stdin>:1:"), "{text}");
    assert!(text.contains('…'), "{text}");
}

#[test]
fn a_write_error_is_reported_and_exits_2() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return;
    };
    for args in [
        &["check"][..],
        &["check", "--format", "json"],
        &["completions", "bash"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_jrpc"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(full.try_clone().unwrap())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // `completions` reads no input and may be gone already: a closed pipe here is no failure.
        let _ = child.stdin.take().unwrap().write_all(b"[1]");
        let out = common::finish(child, &format!("jrpc {args:?}"));
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("cannot write the output"),
            "{args:?}"
        );
    }
}

#[test]
fn an_input_past_the_size_limit_stops_with_exit_2() {
    let out = jrpc(
        &["check", "--max-bytes", "10"],
        br#"{"jsonrpc": "2.0", "method": "m"}"#,
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "jrpc check: standard input is larger than 10 bytes (--max-bytes sets the limit)\n"
    );
    if std::path::Path::new("/dev/zero").exists() {
        let started = std::time::Instant::now();
        let out = jrpc(&["check", "/dev/zero"], b"");
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr)
            .contains("/dev/zero is larger than 67108864 bytes"));
        assert!(started.elapsed().as_secs() < 20);
    }
}

#[test]
fn completions_are_generated_for_the_shells() {
    for shell in ["bash", "zsh", "fish"] {
        let out = jrpc(&["completions", shell], b"");
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = String::from_utf8_lossy(&out.stdout);
        assert!(
            script.contains("jrpc") && script.contains("--mcp-version"),
            "{shell}"
        );
    }
}
