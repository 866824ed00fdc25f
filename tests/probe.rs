//! `jrpc probe`: against `jrpc serve` (stdio, HTTP, WebSocket) every check passes; against the
//! jsonrpsee example server the plain JSON-RPC checks run with the user's calls; against the broken
//! example server each planted defect is reported with its rule and nothing else; bad targets exit
//! 2 with the reason; the transcript opens in `jrpc check`; https:// and wss:// go over TLS.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::collections::BTreeSet;
use std::process::{Command, Output};

use common::{jrpc, Server};
use serde_json::Value;

const JRPC: &str = env!("CARGO_BIN_EXE_jrpc");

fn probe(args: &[&str]) -> Output {
    common::output_of(Command::new(JRPC).arg("probe").args(args))
}

/// `jrpc probe --format json ARGS`: the exit code and the report.
fn probe_json(args: &[&str]) -> (Option<i32>, Value) {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let out = probe(&all);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "JSON report ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), report)
}

/// Every rule id found in the report's documents.
fn rules(report: &Value) -> BTreeSet<String> {
    fn walk(doc: &Value, into: &mut BTreeSet<String>) {
        for v in doc["violations"].as_array().into_iter().flatten() {
            into.insert(v["rule"].as_str().unwrap().to_string());
        }
        for item in doc["items"].as_array().into_iter().flatten() {
            walk(item, into);
        }
    }
    let mut found = BTreeSet::new();
    for doc in report["documents"].as_array().unwrap() {
        walk(doc, &mut found);
    }
    found
}

/// The checks of a report with the given status.
fn checks(report: &Value, status: &str) -> Vec<String> {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == status)
        .map(|c| {
            format!(
                "{}: {}",
                c["id"].as_str().unwrap(),
                c["detail"].as_str().unwrap()
            )
        })
        .collect()
}

/// The detail of the check `id` in a report.
fn check_detail<'r>(report: &'r Value, id: &str) -> &'r str {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .and_then(|c| c["detail"].as_str())
        .unwrap_or_else(|| panic!("no check {id}: {report}"))
}

fn assert_all_pass(code: Option<i32>, report: &Value) {
    assert!(
        checks(report, "fail").is_empty(),
        "{:#?}",
        checks(report, "fail")
    );
    assert!(rules(report).is_empty(), "{:?}", rules(report));
    assert_eq!(code, Some(0));
}

#[test]
fn jrpc_serve_on_stdio_passes_every_check_of_the_revision_it_chose_from_server_discover() {
    let (code, report) = probe_json(&["--", JRPC, "serve"]);
    assert_all_pass(code, &report);
    assert_eq!(report["profile"]["mcp_version"], "2026-07-28");
    assert_eq!(
        check_detail(&report, "lifecycle/discover"),
        "2026-07-28 chosen from supportedVersions"
    );
    assert_passed(
        &report,
        &[
            "tools/call",
            "tools/call-invalid-arguments",
            "resources/read",
            "prompts/get",
            "completion/complete",
            "mcp/input-required",
            "jsonrpc/parse-error",
            "jsonrpc/invalid-request",
            "jsonrpc/ids-echoed",
            "mcp/batch-refused",
        ],
    );
}

/// Each of `ids` passed.
fn assert_passed(report: &Value, ids: &[&str]) {
    let passed = checks(report, "pass");
    for id in ids {
        assert!(
            passed.iter().any(|c| c.starts_with(&format!("{id}:"))),
            "{id} passed: {passed:#?}"
        );
    }
}

#[test]
fn jrpc_serve_on_stdio_passes_every_check_of_the_handshake_when_2025_11_25_is_forced() {
    let (code, report) = probe_json(&["--mcp-version", "2025-11-25", "--", JRPC, "serve"]);
    assert_all_pass(code, &report);
    assert_eq!(report["profile"]["mcp_version"], "2025-11-25");
    assert!(!report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["id"] == "lifecycle/discover"));
    assert_passed(
        &report,
        &[
            "lifecycle/initialize",
            "tools/call",
            "tools/call-invalid-arguments",
            "resources/read",
            "prompts/get",
            "completion/complete",
            "logging/setLevel",
            "jsonrpc/parse-error",
            "jsonrpc/invalid-request",
            "jsonrpc/ids-echoed",
            "mcp/batch-refused",
        ],
    );
}

/// `jrpc serve` on HTTP and WebSocket, both on free ports, for a minute.
const HTTP_AND_WS: &[&str] = &[
    "--http",
    "127.0.0.1:0",
    "--ws",
    "127.0.0.1:0",
    "--exit-after",
    "60",
];

#[test]
fn jrpc_serve_over_http_and_websocket_passes_every_check() {
    let server = Server::jrpc_serve(HTTP_AND_WS);
    for url in [server.url("http"), server.url("ws")] {
        let (code, report) = probe_json(&[&url]);
        assert_all_pass(code, &report);
        assert_eq!(report["profile"]["mcp_version"], "2026-07-28", "{url}");
    }
    let (code, report) = probe_json(&["--mcp-version", "2026-07-28", &server.url("http")]);
    assert_all_pass(code, &report);
    // 2025-03-26 has batches: answered as one.
    let (code, report) = probe_json(&["--mcp-version", "2025-03-26", &server.url("http")]);
    assert_all_pass(code, &report);
    assert!(checks(&report, "pass")
        .iter()
        .any(|c| c.starts_with("jsonrpc/batch:")));
}

#[test]
fn over_http_a_2026_request_with_a_mismatching_mcp_method_header_is_refused() {
    let server = Server::jrpc_serve(HTTP_AND_WS);
    let (code, report) = probe_json(&[&server.url("http")]);
    assert_all_pass(code, &report);
    assert_eq!(
        check_detail(&report, "http/header-mismatch"),
        "refused: HTTP 400, error -32020"
    );
    // The header check is an HTTP one: a WebSocket sends no headers per request.
    let (_, report) = probe_json(&[&server.url("ws")]);
    assert!(!checks(&report, "pass")
        .iter()
        .any(|c| c.starts_with("http/header-mismatch")));
}

#[test]
fn the_jsonrpsee_server_is_probed_as_plain_json_rpc_with_the_users_calls() {
    let server = Server::spawn(
        env!("CARGO_BIN_EXE_jrpc").replace("/jrpc", "/examples/jsonrpsee_server"),
        &["--exit-after", "60"],
    );
    let (code, report) = probe_json(&[
        "--profile",
        "jsonrpc",
        "--call",
        "subtract",
        "[42, 23]",
        "--call",
        "fail",
        "{}",
        &server.url("ws"),
    ]);
    assert_eq!(report["profile"]["name"], "jsonrpc");
    let passed = checks(&report, "pass");
    for id in [
        "call/subtract",
        "call/fail",
        "jsonrpc/unknown-method",
        "jsonrpc/parse-error",
        "jsonrpc/ids-echoed",
        "jsonrpc/batch",
        "jsonrpc/notification-not-answered",
    ] {
        assert!(
            passed.iter().any(|c| c.starts_with(&format!("{id}:"))),
            "{id} passed: {passed:#?}"
        );
    }
    // jsonrpsee answers the specification's own invalid request (§7: method 1, no id) with
    // -32700, not -32600: it reads a message without an id that is no notification as unparseable.
    assert_eq!(
        checks(&report, "fail").len(),
        1,
        "{:#?}",
        checks(&report, "fail")
    );
    assert!(checks(&report, "fail")[0].starts_with("jsonrpc/invalid-request:"));
    assert_eq!(
        rules(&report),
        BTreeSet::from(["invalid-request-code".to_string()])
    );
    assert_eq!(code, Some(1));
}

#[test]
fn the_transcript_opens_in_jrpc_check() {
    let dir = std::env::temp_dir().join(format!("jrpc-probe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("probe.txt");
    let out = probe(&["--transcript", path.to_str().unwrap(), "--", JRPC, "serve"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.lines()
            .all(|l| l.starts_with("--> ") || l.starts_with("<-- ")),
        "{text}"
    );
    let check = common::output_of(
        Command::new(JRPC)
            .args(["check", "--profile", "mcp", "--format", "json"])
            .arg(&path),
    );
    let report: Value = serde_json::from_slice(&check.stdout).unwrap();
    let documents = report["documents"].as_array().unwrap();
    assert_eq!(documents.len(), text.lines().count());
    assert!(documents.iter().all(|d| d["direction"].is_string()));
    // What it finds is only what the probe sent broken on purpose (malformed JSON, an invalid
    // request, a request before initialize, an unknown notification, a batch, refused as a whole
    // with one error: its requests stay unanswered, the error pairs with none of them; a tool
    // called with arguments its inputSchema refuses, to see the tool refuse them).
    let found = rules(&report);
    for rule in &found {
        assert!(
            [
                "json-syntax",
                "method-not-string",
                "params-not-structured",
                "mcp-initialize-first",
                "mcp-method-unknown",
                "mcp-batch-not-supported",
                "mcp-params-not-object",
                "mcp-tool-arguments-invalid",
                "request-unanswered",
                "response-unmatched"
            ]
            .contains(&rule.as_str()),
            "{rule}: {found:?}"
        );
    }
}

#[test]
fn junit_and_text_formats_list_every_check() {
    let out = probe(&["--format", "junit", "--", JRPC, "serve"]);
    let xml = String::from_utf8_lossy(&out.stdout);
    assert!(xml.starts_with("<?xml"), "{xml}");
    assert!(
        xml.contains(r#"<testcase classname="jrpc.probe" name="lifecycle/discover">"#),
        "{xml}"
    );
    assert!(xml.contains(r#"failures="0""#), "{xml}");
    let out = probe(&["--", JRPC, "serve"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("pass  lifecycle/discover"), "{text}");
    assert!(text.contains("result: "), "{text}");
}

#[test]
fn a_target_that_cannot_be_reached_exits_2_with_the_reason() {
    for (args, says) in [
        (
            vec!["--", "/nonexistent/server"],
            "cannot start /nonexistent/server",
        ),
        (vec!["http://127.0.0.1:1/mcp"], "cannot connect"),
        (vec!["ws://127.0.0.1:1"], "cannot connect"),
        (vec!["--", "sh", "-c", "exit 3"], "exited"),
        (
            vec!["--timeout", "0.3", "--", "sh", "-c", "cat > /dev/null"],
            "never answered",
        ),
    ] {
        let out = probe(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

#[test]
fn bad_options_are_usage_errors() {
    for args in [
        vec!["https://example.com"],
        vec!["ftp://x"],
        vec![],
        vec![
            "--profile",
            "jsonrpc",
            "--mcp-version",
            "2025-06-18",
            "ws://127.0.0.1:1",
        ],
        vec!["--call", "m", "not json", "ws://127.0.0.1:1"],
        vec!["--call", "m", "3", "ws://127.0.0.1:1"],
        vec!["--timeout", "-1", "ws://127.0.0.1:1"],
    ] {
        let out = probe(&args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn garbage_from_the_server_is_reported_not_fatal() {
    // A "server" that answers every line with text that is not JSON.
    let (code, report) = probe_json(&[
        "--timeout",
        "1",
        "--",
        "sh",
        "-c",
        "while read -r line; do echo 'not json'; done",
    ]);
    assert_eq!(code, Some(1));
    assert!(
        rules(&report).contains("json-syntax"),
        "{:?}",
        rules(&report)
    );
}

/// The broken example server with `defects` planted (none: a correct server).
fn broken(defects: &[&str]) -> (Option<i32>, Value) {
    let program = env!("CARGO_BIN_EXE_jrpc").replace("/jrpc", "/examples/broken_server");
    let mut args = vec!["--timeout", "2", "--"];
    args.push(&program);
    for defect in defects {
        args.extend_from_slice(&["--defect", defect]);
    }
    probe_json(&args)
}

#[test]
fn the_broken_server_without_defects_passes_every_check() {
    let (code, report) = broken(&[]);
    assert_all_pass(code, &report);
}

#[test]
fn a_tool_schema_that_does_not_compile_is_said_in_the_tools_call_check() {
    let (_, report) = broken(&["tool-schema-unusable"]);
    let detail = check_detail(&report, "tools/call");
    assert!(
        detail.contains("add: its inputSchema cannot be used"),
        "{detail}"
    );
}

#[test]
fn each_planted_defect_is_reported_with_its_rule_and_nothing_else() {
    for (defect, expected, failed) in [
        // The reply pairs with no request, and the request stays unanswered.
        (
            "wrong-id",
            &["request-unanswered", "response-unmatched"][..],
            &["ping", "jsonrpc/ids-echoed"][..],
        ),
        (
            "result-and-error",
            &["result-and-error"],
            &["ping", "jsonrpc/ids-echoed"],
        ),
        (
            "notification-answered",
            &["notification-answered"],
            &["lifecycle/initialize", "jsonrpc/notification-not-answered"],
        ),
        // A warning: the check passes, the finding is there.
        ("undeclared-capability", &["mcp-capability-undeclared"], &[]),
        (
            "invalid-tool-result",
            &["mcp-content-invalid"],
            &["tools/call"],
        ),
        (
            "wrong-version",
            &["mcp-protocol-version-unsupported"],
            &["lifecycle/initialize"],
        ),
        // The reply's code and id are both wrong, and id 1 answers no pending request.
        (
            "parse-error-id",
            &[
                "parse-error-code",
                "response-unmatched",
                "unreadable-request-id-not-null",
            ],
            &["jsonrpc/parse-error"],
        ),
        (
            "batch-answered",
            &["mcp-batch-not-supported"],
            &["mcp/batch-refused"],
        ),
        // It answers every method it lacks, so resources/list (not declared) too.
        (
            "unknown-method-result",
            &["mcp-capability-undeclared", "unknown-method-code"],
            &["jsonrpc/unknown-method"],
        ),
        (
            "invalid-arguments-accepted",
            &["mcp-tool-invalid-arguments-accepted"],
            &[],
        ),
        // Without a schema the probe calls add with no arguments (refused: fine) and finds no
        // tool to send invalid arguments to (skipped).
        (
            "tool-without-schema",
            &["mcp-result-member-missing"],
            &["tools/list"],
        ),
        // The schema of the version types each listed tool's members: a description is a string.
        (
            "tool-description-number",
            &["mcp-result-member-type"],
            &["tools/list"],
        ),
    ] {
        let (code, report) = broken(&[defect]);
        let expected: BTreeSet<String> = expected.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            rules(&report),
            expected,
            "{defect}: {:#?}",
            checks(&report, "fail")
        );
        let failing: Vec<String> = checks(&report, "fail")
            .iter()
            .map(|c| c.split(':').next().unwrap().to_string())
            .collect();
        assert_eq!(failing, failed, "{defect}");
        assert_eq!(
            code,
            Some(if failed.is_empty() { 0 } else { 1 }),
            "{defect}"
        );
    }
}

#[test]
fn the_spawned_server_and_its_process_group_are_stopped_when_the_probe_ends() {
    let dir = std::env::temp_dir().join(format!("jrpc-probe-group-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pid_file = dir.join("sleeper.pid");
    // The server leaves a child of its own behind (in its process group).
    let script = format!(
        "sleep 300 & echo $! > {}; exec {JRPC} serve",
        pid_file.display()
    );
    let out = probe(&["--", "sh", "-c", &script]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    // Gone, or a zombie nobody reaps (a container's init may not): killed either way. kill(2)
    // returns before the process is gone (on a busy machine it may still be running to its
    // death for a moment), so it gets up to 5 s.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        let status =
            std::fs::read_to_string(format!("/proc/{}/status", pid.trim())).unwrap_or_default();
        let running = status
            .lines()
            .any(|l| l.starts_with("State:") && !l.contains("Z (zombie)"));
        if !running {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the server's child {pid} outlived the probe by 5 s: {status}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn the_total_timeout_stops_the_probe_with_a_failure() {
    // Answers the first request, then nothing: every later request waits its --timeout.
    let script = r#"read l; echo '{"jsonrpc":"2.0","id":1,"result":{}}'; cat > /dev/null"#;
    let started = std::time::Instant::now();
    let (code, report) = probe_json(&[
        "--timeout",
        "0.5",
        "--total-timeout",
        "2",
        "--",
        "sh",
        "-c",
        script,
    ]);
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    assert_eq!(code, Some(1));
    assert!(
        report["stopped"]
            .as_str()
            .unwrap()
            .contains("--total-timeout"),
        "{report}"
    );
}

#[test]
fn a_server_that_dies_mid_probe_is_a_failure_with_the_reason() {
    // Answers the first request, then exits.
    let script = r#"read l; echo '{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"not initialized"}}'; echo 'bye' >&2; exit 0"#;
    let (code, report) = probe_json(&["--timeout", "2", "--", "sh", "-c", script]);
    assert_eq!(code, Some(1), "{report}");
    let stopped = report["stopped"].as_str().unwrap();
    assert!(
        stopped.contains("sh exited") && stopped.contains("bye"),
        "{stopped}"
    );
}

#[test]
fn every_mcp_version_of_jrpc_serve_passes() {
    // 2026-07-28 has no initialize: server/discover, and an envelope on every request.
    for version in [
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
        "2026-07-28",
    ] {
        let (code, report) = probe_json(&["--mcp-version", version, "--", JRPC, "serve"]);
        assert_all_pass(code, &report);
        assert_eq!(report["profile"]["mcp_version"], version);
    }
}

#[test]
fn a_handshake_only_server_gets_initialize_after_server_discover_is_not_served() {
    let (code, report) = broken(&[]);
    assert_all_pass(code, &report);
    assert_eq!(report["profile"]["mcp_version"], "2025-11-25");
    let skipped = checks(&report, "skipped");
    assert!(
        skipped.contains(&"lifecycle/discover: server/discover answered with error -32601: the initialize handshake instead (asking for 2025-11-25)".to_string()),
        "{skipped:#?}"
    );
    assert!(checks(&report, "pass")
        .iter()
        .any(|c| c.starts_with("lifecycle/initialize:")));
}

/// The detail of mcp/input-required when every round trip of `jrpc serve`'s friendly tools
/// ended in a final result.
const ROUND_TRIPS: &str = "tools/call summarize: 1 round (sampling/createMessage), then a final result; tools/call ask_name: 1 round (elicitation/create), then a final result; tools/call list_roots: 1 round (roots/list), then a final result";

#[test]
fn input_required_rounds_are_answered_and_retried_on_stdio_http_and_websocket() {
    let server = Server::jrpc_serve(HTTP_AND_WS);
    let (http, ws) = (server.url("http"), server.url("ws"));
    for target in [vec!["--", JRPC, "serve"], vec![&http], vec![&ws]] {
        let mut args = vec!["--mcp-version", "2026-07-28"];
        args.extend(target);
        let (code, report) = probe_json(&args);
        assert_all_pass(code, &report);
        assert_eq!(
            check_detail(&report, "mcp/input-required"),
            ROUND_TRIPS,
            "{args:?}"
        );
    }
}

#[test]
fn server_requests_under_the_handshake_are_answered_over_http_while_its_stream_waits() {
    let server = Server::jrpc_serve(HTTP_AND_WS);
    for url in [server.url("http"), server.url("ws")] {
        let (code, report) = probe_json(&["--mcp-version", "2025-11-25", &url]);
        assert_all_pass(code, &report);
        let detail = check_detail(&report, "mcp/input-required");
        assert!(
            detail.ends_with("server requests answered as a cooperative client")
                && !detail.contains("; 0 server requests"),
            "{url}: {detail}"
        );
    }
}

#[test]
fn an_event_stream_that_ends_before_its_reply_is_resumed_with_last_event_id() {
    let server = misbehaving();
    let (code, report, transcript) = call_over_http(&server, "sse-drop", r#"{"n":1}"#, "3");
    assert!(
        transcript.contains(r#""result":{"echo":{"n":1}}"#),
        "{transcript}"
    );
    assert!(checks(&report, "pass")
        .iter()
        .any(|c| c.starts_with("call/sse-drop:")));
    assert_eq!(code, Some(1), "the misbehaving server fails other checks");
}

#[test]
fn ping_and_logging_set_level_are_skipped_under_2026_07_28_naming_the_revision() {
    let (code, report) = probe_json(&["--mcp-version", "2026-07-28", "--", JRPC, "serve"]);
    assert_eq!(code, Some(0));
    let skipped = checks(&report, "skipped");
    for id in ["ping", "logging/setLevel"] {
        assert!(
            skipped.contains(&format!("{id}: 2026-07-28 has no {id}")),
            "{id}: {skipped:#?}"
        );
    }
    let methods: Vec<&str> = report["documents"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["method"].as_str())
        .collect();
    assert!(
        !methods
            .iter()
            .any(|m| *m == "ping" || *m == "logging/setLevel"),
        "{methods:?}"
    );
}

#[test]
fn tool_calls_are_bounded_and_skippable() {
    let (code, report) = probe_json(&[
        "--max-calls",
        "2",
        "--skip-tool",
        "add",
        "--",
        JRPC,
        "serve",
    ]);
    assert_eq!(code, Some(0));
    let detail = check_detail(&report, "tools/call");
    assert!(detail.contains("add: skipped (--skip-tool)"), "{detail}");
    assert!(
        detail.contains("stopped after 2 calls (--max-calls)"),
        "{detail}"
    );
    let transcript = report["documents"].as_array().unwrap();
    let tool_calls = transcript
        .iter()
        .filter(|d| d["method"] == "tools/call")
        .count();
    // Two calls, and the one with invalid arguments (a tool other than add).
    assert_eq!(tool_calls, 3);
}

#[test]
fn the_jsonrpsee_server_over_http_answers_a_notification_with_a_null_body() {
    let server = Server::spawn(
        env!("CARGO_BIN_EXE_jrpc").replace("/jrpc", "/examples/jsonrpsee_server"),
        &["--exit-after", "60"],
    );
    let (code, report) = probe_json(&[
        "--profile",
        "jsonrpc",
        "--call",
        "subtract",
        "[42, 23]",
        &server.url("http"),
    ]);
    assert_eq!(code, Some(1));
    // Over HTTP jsonrpsee answers a notification with `200` and the body `null` (not a message),
    // and the §7 invalid request with -32700, as over WebSocket.
    assert_eq!(
        rules(&report),
        BTreeSet::from([
            "invalid-request-code".to_string(),
            "message-not-object".to_string()
        ])
    );
    let failing: Vec<String> = checks(&report, "fail")
        .iter()
        .map(|c| c.split(':').next().unwrap().to_string())
        .collect();
    assert_eq!(
        failing,
        [
            "jsonrpc/invalid-request",
            "jsonrpc/notification-not-answered"
        ]
    );
}

#[test]
fn an_http_server_that_only_sends_error_pages_exits_2_with_its_status() {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { break };
            let mut buf = [0u8; 4096];
            let _ = stream.read(&mut buf);
            let _ = stream.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\nContent-Length: 16\r\nConnection: close\r\n\r\n<h1>nothing</h1>");
        }
    });
    let out = probe(&["--timeout", "1", &url]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("HTTP 404 (text/html: <h1>nothing</h1>)"),
        "{stderr}"
    );
}

#[test]
fn a_server_flooding_the_probe_is_stopped_quickly() {
    let script = r#"read l; yes '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":1}}'"#;
    let started = std::time::Instant::now();
    let (code, report) = probe_json(&["--", "sh", "-c", script]);
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    assert_eq!(code, Some(1));
    assert!(
        report["stopped"]
            .as_str()
            .unwrap()
            .contains("20000 messages"),
        "{}",
        report["stopped"]
    );
}

/// A TLS front for a plain server: listens on 127.0.0.1 with a certificate for `localhost` made
/// here (written to `pem`), and passes the bytes of each connection to `backend` (`host:port`).
/// Returns its port.
fn tls_front(backend: String, pem: &std::path::Path) -> u16 {
    use std::sync::Arc;
    use tokio_rustls::rustls::pki_types::PrivatePkcs8KeyDer;
    use tokio_rustls::rustls::{self, ServerConfig};

    let made = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    std::fs::write(pem, made.cert.pem()).unwrap();
    let key = PrivatePkcs8KeyDer::from(made.key_pair.serialize_der());
    let config =
        ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(vec![made.cert.der().clone()], key.into())
            .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            while let Ok((tcp, _)) = listener.accept().await {
                let (acceptor, backend) = (acceptor.clone(), backend.clone());
                tokio::spawn(async move {
                    let Ok(mut tls) = acceptor.accept(tcp).await else {
                        return;
                    };
                    if let Ok(mut plain) = tokio::net::TcpStream::connect(&backend).await {
                        let _ = tokio::io::copy_bidirectional(&mut tls, &mut plain).await;
                    }
                });
            }
        });
    });
    port
}

#[test]
fn https_and_wss_servers_are_probed_over_tls_checked_against_the_root_certificates() {
    let server = Server::jrpc_serve(HTTP_AND_WS);
    let dir = std::env::temp_dir().join(format!("jrpc-probe-tls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for scheme in ["http", "ws"] {
        let pem = dir.join(format!("{scheme}.pem"));
        let port = tls_front(server.addr(scheme), &pem);
        let plain = server.url(scheme);
        let path = plain[scheme.len() + 3..]
            .find('/')
            .map_or("/", |at| &plain[scheme.len() + 3 + at..]);
        let url = format!("{scheme}s://localhost:{port}{path}");
        // The front's certificate as the only root (SSL_CERT_FILE, as for OpenSSL): every check
        // passes over TLS.
        let out = common::output_of(
            Command::new(JRPC)
                .args(["probe", "--format", "json", &url])
                .env("SSL_CERT_FILE", &pem)
                .env_remove("SSL_CERT_DIR"),
        );
        let report: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{url}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
        assert_all_pass(out.status.code(), &report);
        // A certificate no root vouches for: the handshake fails, exit 2 with the reason.
        let other = dir.join(format!("{scheme}-other.pem"));
        let _ = tls_front(server.addr(scheme), &other);
        let out = common::output_of(
            Command::new(JRPC)
                .args(["probe", &url])
                .env("SSL_CERT_FILE", &other)
                .env_remove("SSL_CERT_DIR"),
        );
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{url}: {said}");
        assert!(said.contains("TLS handshake with"), "{url}: {said}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- Hostile servers (#29): each attack in small, bounded in time and memory ----------------------

/// The misbehaving example server (`examples/misbehaving_server.rs`), for a minute.
fn misbehaving() -> Server {
    Server::spawn(
        env!("CARGO_BIN_EXE_jrpc").replace("/jrpc", "/examples/misbehaving_server"),
        &["--exit-after", "60"],
    )
}

/// A transcript file of this test process named `name`.
fn transcript_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("jrpc-probe-{name}-{}.txt", std::process::id()))
}

/// `jrpc probe --profile jsonrpc --call METHOD PARAMS` against `server` over HTTP, each request
/// waiting `timeout` seconds: the exit code, the report and the transcript.
fn call_over_http(
    server: &Server,
    method: &str,
    params: &str,
    timeout: &str,
) -> (Option<i32>, Value, String) {
    let path = transcript_path(method);
    let (code, report) = probe_json(&[
        "--profile",
        "jsonrpc",
        "--timeout",
        timeout,
        "--transcript",
        path.to_str().unwrap(),
        "--call",
        method,
        params,
        &server.url("http"),
    ]);
    let transcript = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    (code, report, transcript)
}

#[test]
fn sse_split_inside_a_character_and_between_cr_and_lf_reads_whole() {
    let server = misbehaving();
    let (_, report, transcript) = call_over_http(&server, "sse-split", r#"{"text":"ééé"}"#, "2");
    assert!(!transcript.contains('\u{FFFD}'), "{transcript}");
    // Two events, two messages: the notification and the reply, each whole on its own line.
    assert!(
        transcript.contains(
            "\n<-- {\"jsonrpc\":\"2.0\",\"method\":\"sse/notice\",\"params\":{\"text\":\"é\"}}\n"
        ),
        "{transcript}"
    );
    assert!(
        transcript.contains(r#""result":{"echo":{"text":"ééé"}}"#),
        "{transcript}"
    );
    assert!(
        !rules(&report).contains("json-syntax"),
        "{:?}",
        rules(&report)
    );
}

/// Runs `jrpc probe --format json ARGS`, sampling its peak resident memory (VmHWM, in KiB) until
/// it ends: the exit code, the report and the peak.
fn probe_json_peak(args: &[&str]) -> (Option<i32>, Value, u64) {
    use std::process::Stdio;
    let child = Command::new(JRPC)
        .args(["probe", "--format", "json"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("jrpc probe runs");
    let status = format!("/proc/{}/status", child.id());
    let reading = std::thread::spawn(move || {
        let mut peak = 0;
        loop {
            let text = std::fs::read_to_string(&status).unwrap_or_default();
            let hwm = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok());
            match hwm {
                Some(kib) => peak = peak.max(kib),
                None => return peak,
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    });
    let out = common::finish(child, "jrpc probe");
    let peak = reading.join().unwrap();
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "JSON report ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), report, peak)
}

/// The most memory (KiB) a debug `jrpc probe` of `jrpc serve` needs here, with room to spare:
/// above it the probe held what a hostile server sent.
const MODEST_PEAK_KIB: u64 = 48 * 1024;

#[test]
fn stderr_without_a_newline_is_read_in_bounded_memory() {
    // 96 MiB of progress on stderr with no line end, then a correct server.
    let script = format!("head -c 100663296 /dev/zero | tr '\\0' '#' >&2; exec {JRPC} serve");
    let (code, report, peak) = probe_json_peak(&["--", "sh", "-c", &script]);
    assert_all_pass(code, &report);
    assert!(peak < MODEST_PEAK_KIB, "peak {peak} KiB");
}

#[test]
fn stderr_that_is_not_utf8_is_drained_and_the_server_lives() {
    // Each line the server reads is logged with bytes that are not UTF-8.
    let script = format!(
        r#"while IFS= read -r l; do printf '\377\376 got a line\n' >&2; printf '%s\n' "$l"; done | {JRPC} serve"#
    );
    let (code, report) = probe_json(&["--", "sh", "-c", &script]);
    assert_all_pass(code, &report);
}

/// Whether process `pid` is running (a zombie nobody reaps counts as gone).
fn running(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .any(|l| l.starts_with("State:") && !l.contains("Z (zombie)"))
}

#[test]
fn sigterm_and_sighup_stop_the_probe_and_the_server_it_started() {
    for (signal, name) in [(libc::SIGTERM, "SIGTERM"), (libc::SIGHUP, "SIGHUP")] {
        let pid_file = transcript_path(&format!("server-pid-{name}"));
        let _ = std::fs::remove_file(&pid_file);
        // A server that never answers nor reads (so it does not end when its input closes): the
        // probe waits for its first reply.
        let script = format!("echo $$ > {}; exec sleep 300", pid_file.display());
        let mut probe = Command::new(JRPC)
            .args(["probe", "--timeout", "60", "--", "sh", "-c", &script])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let waited = std::time::Instant::now();
        let server = loop {
            match std::fs::read_to_string(&pid_file) {
                Ok(pid) if pid.ends_with('\n') => break pid.trim().to_string(),
                _ => {}
            }
            assert!(waited.elapsed().as_secs() < 10, "the server never started");
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        // SAFETY: kill(2) on the probe's pid, a process this test started.
        unsafe {
            libc::kill(probe.id() as i32, signal);
        }
        let out = {
            let started = std::time::Instant::now();
            loop {
                if let Some(_status) = probe.try_wait().unwrap() {
                    break probe.wait_with_output().unwrap();
                }
                assert!(
                    started.elapsed().as_secs() < 5,
                    "{name}: the probe still runs after 5 s"
                );
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        };
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(
            stderr.contains(&format!("interrupted ({name})")),
            "{stderr}"
        );
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while running(&server) {
            assert!(
                std::time::Instant::now() < deadline,
                "{name}: the server {server} outlived the probe by 5 s"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let _ = std::fs::remove_file(&pid_file);
    }
}

#[test]
fn a_server_that_stops_reading_cannot_hold_the_probe_past_its_total_timeout() {
    let pid_file = transcript_path("deaf-pid");
    let _ = std::fs::remove_file(&pid_file);
    // Never reads: it writes a reply every 20 ms (so the probe gets through its checks
    // quickly), then sleeps; the 120 KB call fills the pipe. Only the total timeout ends the
    // write.
    let script = format!(
        r#"echo $$ > {}; for i in $(seq 1 150); do echo "{{\"jsonrpc\":\"2.0\",\"id\":$i,\"result\":{{}}}}"; sleep 0.02; done; exec sleep 300"#,
        pid_file.display()
    );
    let params = format!("[\"{}\"]", "x".repeat(120_000));
    let started = std::time::Instant::now();
    let (code, report) = probe_json(&[
        "--profile",
        "jsonrpc",
        "--timeout",
        "30",
        "--total-timeout",
        "3",
        "--call",
        "big",
        &params,
        "--",
        "sh",
        "-c",
        &script,
    ]);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(6),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(code, Some(1));
    let stopped = report["stopped"].as_str().unwrap();
    assert!(stopped.contains("stopped reading"), "{stopped}");
    let server = std::fs::read_to_string(&pid_file).unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while running(server.trim()) {
        assert!(
            std::time::Instant::now() < deadline,
            "the server {server} outlived the probe by 5 s"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let _ = std::fs::remove_file(&pid_file);
}

/// A minimal MCP server in `sh` declaring tools: `tools/list` is answered with the items in the
/// file `items` (a JSON array's elements, each followed by a comma) and a last `1`; every other
/// request with -32601.
fn sh_tools_server(items: &std::path::Path) -> String {
    format!(
        r#"while IFS= read -r l; do
  id=$(printf '%s' "$l" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  case "$l" in
    *'"method":"initialize"'*) echo "{{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{{\"tools\":{{}}}},\"serverInfo\":{{\"name\":\"sh\",\"version\":\"1\"}}}}}}";;
    *'"method":"tools/list"'*) printf '{{"jsonrpc":"2.0","id":%s,"result":{{"tools":[' "$id"; cat '{}'; echo '1]}}}}';;
    *) [ -n "$id" ] && echo "{{\"jsonrpc\":\"2.0\",\"id\":$id,\"error\":{{\"code\":-32601,\"message\":\"no\"}}}}";;
  esac
done"#,
        items.display()
    )
}

#[test]
fn a_reply_listing_many_broken_items_is_judged_in_linear_time() {
    let items = transcript_path("items");
    std::fs::write(&items, "1,".repeat(200_000)).unwrap();
    let started = std::time::Instant::now();
    let (code, report) =
        probe_json(&["--timeout", "1", "--", "sh", "-c", &sh_tools_server(&items)]);
    let took = started.elapsed();
    let _ = std::fs::remove_file(&items);
    assert_eq!(code, Some(1));
    let detail = check_detail(&report, "tools/list");
    assert!(
        detail.contains("199901 more findings not listed (at most 100 a check)"),
        "{}",
        &detail[detail.len().saturating_sub(300)..]
    );
    // 200 000 broken items: about 6 s in a debug build, of which 4 s are the sh server's
    // unanswered requests (it was minutes: each finding parsed the whole reply again).
    assert!(took < std::time::Duration::from_secs(20), "{took:?}");
}

#[test]
fn a_schema_asking_for_gigabytes_of_arguments_gets_64_kib() {
    // minItems 16, six levels deep: 16^6 strings (2.6 GB of arguments made before the bound).
    let mut schema = serde_json::json!({"type": "string"});
    for _ in 0..6 {
        schema = serde_json::json!({"type": "array", "minItems": 16, "items": schema});
    }
    let tool = serde_json::json!({"name": "amp", "inputSchema": {"type": "object", "properties": {"a": schema}, "required": ["a"]}});
    let items = transcript_path("amp");
    std::fs::write(&items, format!("{tool},")).unwrap();
    let (_, report, peak) =
        probe_json_peak(&["--timeout", "1", "--", "sh", "-c", &sh_tools_server(&items)]);
    let _ = std::fs::remove_file(&items);
    let detail = check_detail(&report, "tools/call");
    assert!(
        detail.contains("amp: arguments cut to 65536 bytes (its inputSchema asks for more)"),
        "{detail}"
    );
    assert!(peak < MODEST_PEAK_KIB, "peak {peak} KiB");
}

#[test]
fn a_flood_of_large_notifications_stops_at_16_mib_kept_saying_what_was_dropped() {
    // 8 MB notifications, endlessly: 1 GB after 120 of them before the bound.
    let line = serde_json::json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "x".repeat(8 << 20)}});
    let file = transcript_path("flood-8mb");
    std::fs::write(&file, format!("{line}\n")).unwrap();
    let script = format!("read l; while :; do cat '{}'; done", file.display());
    let (code, report, peak) = probe_json_peak(&["--timeout", "2", "--", "sh", "-c", &script]);
    let _ = std::fs::remove_file(&file);
    assert_eq!(code, Some(1));
    let stopped = report["stopped"].as_str().unwrap();
    assert!(
        stopped.contains("the conversation passed 16777216 bytes")
            && stopped.contains("a message of 8388")
            && stopped.contains("from the server and all after it dropped"),
        "{stopped}"
    );
    // 16 MiB kept, 32 MiB read ahead at most, and the judging.
    assert!(peak < 256 * 1024, "peak {peak} KiB");
}

#[test]
fn judging_a_large_conversation_cannot_hold_the_probe_past_its_total_timeout() {
    // 15 000 notifications of 1 KB at once (15 MB, under the 16 MiB a probe keeps), then silence:
    // judging them after the run is seconds of linear work in a debug build, past the deadline.
    let flood = transcript_path("judged-late");
    let line = serde_json::json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": vec![0; 450]}});
    std::fs::write(&flood, format!("{line}\n").repeat(15_000)).unwrap();
    let transcript = transcript_path("judged-late-transcript");
    let script = format!(
        "cat '{}'; while IFS= read -r l; do :; done",
        flood.display()
    );
    let started = std::time::Instant::now();
    let (code, report) = probe_json(&[
        "--profile",
        "mcp",
        "--timeout",
        "1",
        "--total-timeout",
        "1",
        "--transcript",
        transcript.to_str().unwrap(),
        "--",
        "sh",
        "-c",
        &script,
    ]);
    let took = started.elapsed();
    let _ = std::fs::remove_file(&flood);
    // --total-timeout, its grace (1 s), and the report's writing.
    assert!(
        took < std::time::Duration::from_secs(3),
        "the probe took {took:?} with --total-timeout 1"
    );
    assert_eq!(code, Some(1));
    let stopped = report["stopped"].as_str().unwrap_or_default();
    if took > std::time::Duration::from_secs(2) {
        assert!(
            stopped.contains("not finished within --total-timeout (1 s, and 1 s of grace): judging the conversation"),
            "{stopped}"
        );
    }
    // Nothing is lost: the conversation is in the transcript either way.
    let kept = std::fs::read_to_string(&transcript).unwrap();
    assert!(
        kept.lines().count() > 1_000,
        "{} lines",
        kept.lines().count()
    );
    let _ = std::fs::remove_file(&transcript);
}

#[test]
fn loading_a_large_openrpc_document_counts_toward_the_total_timeout() {
    // 10 000 methods (the most a document may have), each with a param of a few members:
    // loading them is seconds of linear work in a debug build, and it came before the probe's
    // clock started.
    let schema = serde_json::json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}, "c": {"type": "array", "items": {"type": "number"}}}, "required": ["a"]});
    let methods: Vec<Value> = (0..10_000)
        .map(|i| serde_json::json!({"name": format!("method_{i}"), "params": [{"name": "p", "schema": schema}], "result": {"name": "r", "schema": {"type": "integer"}}}))
        .collect();
    let doc = serde_json::json!({"openrpc": "1.3.2", "info": {"title": "many", "version": "1"}, "methods": methods});
    let path = transcript_path("many-methods.json");
    std::fs::write(&path, doc.to_string()).unwrap();
    let started = std::time::Instant::now();
    let out = probe(&[
        "--openrpc",
        path.to_str().unwrap(),
        "--timeout",
        "1",
        "--total-timeout",
        "1",
        "--",
        "sh",
        "-c",
        "while IFS= read -r l; do :; done",
    ]);
    let took = started.elapsed();
    let _ = std::fs::remove_file(&path);
    assert!(
        took < std::time::Duration::from_secs(3),
        "the probe took {took:?} with --total-timeout 1"
    );
    // Never reached: the document was still being loaded, or the silent server never answered.
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("not finished within --total-timeout (1 s, and 1 s of grace): loading the OpenRPC document was stopped")
            || said.contains("ran out of time"),
        "{said}"
    );
}

// ---- A protected server (#47): headers given on the command line or by the environment --------

/// A front for a plain server that requires the header line `required` (lower-case name, e.g.
/// `x-api-key: s3cret`) in each connection's request head: without it the connection is answered
/// 401 (`WWW-Authenticate: Bearer`) and closed; with it, the head and the rest are passed on to
/// `backend` (`host:port`): HTTP requests and the WebSocket handshake alike. Returns its port and
/// the count of refused connections.
fn header_front(
    backend: String,
    required: &'static str,
) -> (u16, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let refused = Arc::new(AtomicUsize::new(0));
    let counted = refused.clone();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            while let Ok((mut tcp, _)) = listener.accept().await {
                let (backend, counted) = (backend.clone(), counted.clone());
                tokio::spawn(async move {
                    let mut head = Vec::new();
                    let mut buf = [0u8; 4096];
                    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 65536 {
                        match tcp.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => head.extend_from_slice(&buf[..n]),
                        }
                    }
                    let text = String::from_utf8_lossy(&head).to_ascii_lowercase();
                    if !text.lines().any(|line| line.trim_end() == required) {
                        counted.fetch_add(1, Ordering::SeqCst);
                        let _ = tcp
                            .write_all(b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
                            .await;
                        return;
                    }
                    if let Ok(mut plain) = tokio::net::TcpStream::connect(&backend).await {
                        if plain.write_all(&head).await.is_ok() {
                            let _ = tokio::io::copy_bidirectional(&mut tcp, &mut plain).await;
                        }
                    }
                });
            }
        });
    });
    (port, refused)
}

/// `server`'s `scheme` URL with its port replaced by a front's `port`.
fn fronted_url(server: &Server, scheme: &str, port: u16) -> String {
    let plain = server.url(scheme);
    let path = plain[scheme.len() + 3..]
        .find('/')
        .map_or("/", |at| &plain[scheme.len() + 3 + at..]);
    format!("{scheme}://127.0.0.1:{port}{path}")
}

#[test]
fn a_server_requiring_a_header_is_probed_with_header_over_http_and_websocket_never_showing_it() {
    let server = Server::jrpc_serve(HTTP_AND_WS);
    for scheme in ["http", "ws"] {
        let (port, refused) = header_front(server.addr(scheme), "x-api-key: s3cret-key");
        let url = fronted_url(&server, scheme, port);
        let path = transcript_path(&format!("header-{scheme}"));
        let out = probe(&[
            "--format",
            "json",
            "--header",
            "X-Api-Key: s3cret-key",
            "--transcript",
            path.to_str().unwrap(),
            &url,
        ]);
        let report: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{url}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
        assert_all_pass(out.status.code(), &report);
        assert_eq!(
            refused.load(std::sync::atomic::Ordering::SeqCst),
            0,
            "{url}"
        );
        let transcript = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        for shown in [
            &transcript,
            &*String::from_utf8_lossy(&out.stdout),
            &*String::from_utf8_lossy(&out.stderr),
        ] {
            assert!(
                !shown.contains("s3cret"),
                "{url}: the header's value is shown"
            );
        }
        // Without it: refused.
        let out = probe(&[&url]);
        assert_ne!(out.status.code(), Some(0), "{url}");
        assert!(
            refused.load(std::sync::atomic::Ordering::SeqCst) > 0,
            "{url}"
        );
    }
}

#[test]
fn the_bearer_token_variable_authorizes_over_http_and_is_never_shown() {
    let server = Server::jrpc_serve(HTTP_AND_WS);
    let (port, refused) = header_front(server.addr("http"), "authorization: bearer t0ken-xyz");
    let url = fronted_url(&server, "http", port);
    let out = common::output_of(
        Command::new(JRPC)
            .args(["probe", "--format", "json", &url])
            .env("JRPC_BEARER_TOKEN", "t0ken-xyz"),
    );
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_all_pass(out.status.code(), &report);
    assert_eq!(refused.load(std::sync::atomic::Ordering::SeqCst), 0);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("t0ken"));
    // A bad value is refused as a usage error, without repeating it.
    let out = probe(&["--header", "X-Key: s3cret\u{7}", &url]);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("x-key") && !said.contains("s3cret"), "{said}");
    // A command on stdio has no headers.
    let out = probe(&["--header", "X-Key: v", "--", JRPC, "serve"]);
    assert_eq!(out.status.code(), Some(2));
}

/// What a test authorization front saw and how it behaves.
#[derive(Default)]
struct OauthSeen {
    /// The authorization requests' and token requests' query/form pairs, as text.
    authorize: Vec<String>,
    token: Vec<String>,
    refused: usize,
}

/// A protected MCP server and its authorization server in one front for `backend` (`host:port`,
/// a plain `jrpc serve --http`): the MCP endpoint answers 401 with a Bearer challenge naming its
/// protected resource metadata until a request carries the token the token endpoint gave; the
/// metadata (RFC 9728, RFC 8414), registration, an authorization endpoint and a token endpoint are
/// served here. The authorization endpoint (`mode`): `redirect` redirects at once with the right
/// `iss`, `wrong-iss` with another issuer's, `login` shows a login page (a person must act).
/// Returns its port and what it saw.
fn oauth_front(
    backend: String,
    mode: &'static str,
) -> (u16, std::sync::Arc<std::sync::Mutex<OauthSeen>>) {
    use std::sync::{Arc, Mutex};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let seen = Arc::new(Mutex::new(OauthSeen::default()));
    let kept = seen.clone();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    let origin = format!("http://127.0.0.1:{port}");
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            while let Ok((mut tcp, _)) = listener.accept().await {
                let (backend, seen, origin) = (backend.clone(), kept.clone(), origin.clone());
                tokio::spawn(async move {
                    let mut head = Vec::new();
                    let mut buf = [0u8; 4096];
                    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 65536 {
                        match tcp.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => head.extend_from_slice(&buf[..n]),
                        }
                    }
                    let text = String::from_utf8_lossy(&head).to_string();
                    let end = text.find("\r\n\r\n").unwrap() + 4;
                    let lower = text[..end].to_ascii_lowercase();
                    let length: usize = lower
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length:"))
                        .map_or(0, |v| v.trim().parse().unwrap());
                    let mut body = head[end..].to_vec();
                    let target = text.split(' ').nth(1).unwrap_or("").to_string();
                    let json = |status: &str, value: Value| {
                        let body = value.to_string();
                        format!("HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}", body.len())
                    };
                    let answer = if target.starts_with("/.well-known/oauth-protected-resource") {
                        let path = target.trim_start_matches("/.well-known/oauth-protected-resource");
                        json("200 OK", serde_json::json!({"resource": format!("{origin}{path}"), "authorization_servers": [origin], "scopes_supported": ["mcp:read"]}))
                    } else if target == "/.well-known/oauth-authorization-server" {
                        json("200 OK", serde_json::json!({
                            "issuer": origin,
                            "authorization_endpoint": format!("{origin}/authorize"),
                            "token_endpoint": format!("{origin}/token"),
                            "registration_endpoint": format!("{origin}/register"),
                            "response_types_supported": ["code"],
                            "code_challenge_methods_supported": ["S256"],
                            "authorization_response_iss_parameter_supported": true,
                            "token_endpoint_auth_methods_supported": ["none"]
                        }))
                    } else if target == "/register" {
                        json("201 Created", serde_json::json!({"client_id": "client-1"}))
                    } else if let Some(query) = target.strip_prefix("/authorize?") {
                        seen.lock().unwrap().authorize.push(query.to_string());
                        if mode == "login" {
                            let page = "<html>log in</html>";
                            let answer = format!("HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{page}", page.len());
                            let _ = tcp.write_all(answer.as_bytes()).await;
                            return;
                        }
                        let get = |name: &str| {
                            query
                                .split('&')
                                .find_map(|p| p.strip_prefix(&format!("{name}=")))
                                .unwrap_or("")
                                .to_string()
                        };
                        let redirect = get("redirect_uri").replace("%3A", ":").replace("%2F", "/");
                        let iss = if mode == "wrong-iss" { "https%3A%2F%2Fevil.example" } else { &origin.replace(':', "%3A").replace('/', "%2F") };
                        format!("HTTP/1.1 302 Found\r\nlocation: {redirect}?code=code-1&state={}&iss={iss}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n", get("state"))
                    } else if target == "/token" {
                        while body.len() < length {
                            match tcp.read(&mut buf).await {
                                Ok(0) | Err(_) => return,
                                Ok(n) => body.extend_from_slice(&buf[..n]),
                            }
                        }
                        seen.lock().unwrap().token.push(String::from_utf8_lossy(&body).to_string());
                        json("200 OK", serde_json::json!({"access_token": "tok-secret-1", "token_type": "Bearer", "expires_in": 60}))
                    } else if mode == "insufficient" && lower.contains("authorization: bearer") {
                        seen.lock().unwrap().refused += 1;
                        "HTTP/1.1 403 Forbidden\r\nwww-authenticate: Bearer error=\"insufficient_scope\", scope=\"mcp:admin\"\r\ncontent-length: 0\r\nconnection: close\r\n\r\n".to_string()
                    } else if lower.lines().any(|l| l.trim_end() == "authorization: bearer tok-secret-1") {
                        if let Ok(mut plain) = tokio::net::TcpStream::connect(&backend).await {
                            if plain.write_all(&head).await.is_ok() {
                                let _ = tokio::io::copy_bidirectional(&mut tcp, &mut plain).await;
                            }
                        }
                        return;
                    } else {
                        seen.lock().unwrap().refused += 1;
                        format!("HTTP/1.1 401 Unauthorized\r\nwww-authenticate: Bearer resource_metadata=\"{origin}/.well-known/oauth-protected-resource{}\"\r\ncontent-length: 0\r\nconnection: close\r\n\r\n", target.split('?').next().unwrap_or(""))
                    };
                    let _ = tcp.write_all(answer.as_bytes()).await;
                });
            }
        });
    });
    (port, seen)
}

#[test]
fn a_protected_server_is_authorized_with_pkce_and_resource_and_every_step_is_a_check() {
    let server = Server::jrpc_serve(HTTP_AND_WS);
    let (port, seen) = oauth_front(server.addr("http"), "redirect");
    let url = fronted_url(&server, "http", port);
    let path = transcript_path("oauth");
    let out = probe(&[
        "--format",
        "json",
        "--transcript",
        path.to_str().unwrap(),
        &url,
    ]);
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_all_pass(out.status.code(), &report);
    assert_passed(
        &report,
        &[
            "auth/protected-resource-metadata",
            "auth/authorization-server-metadata",
            "auth/client",
            "auth/authorization",
            "auth/token",
        ],
    );
    let seen = seen.lock().unwrap();
    assert!(seen.refused >= 1);
    let resource = format!("resource=http%3A%2F%2F127.0.0.1%3A{port}");
    let (authorize, token) = (&seen.authorize[0], &seen.token[0]);
    for needed in [
        "code_challenge_method=S256",
        "code_challenge=",
        &resource,
        "scope=mcp%3Aread",
        "client_id=client-1",
    ] {
        assert!(authorize.contains(needed), "{needed}: {authorize}");
    }
    for needed in ["grant_type=authorization_code", "code_verifier=", &resource] {
        assert!(token.contains(needed), "{needed}: {token}");
    }
    let transcript = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    for shown in [
        &transcript,
        &*String::from_utf8_lossy(&out.stdout),
        &*String::from_utf8_lossy(&out.stderr),
    ] {
        assert!(!shown.contains("tok-secret"), "the token is shown");
    }
}

#[test]
fn an_authorization_response_from_another_issuer_is_refused_with_its_rule() {
    let server = Server::jrpc_serve(HTTP_AND_WS);
    let (port, seen) = oauth_front(server.addr("http"), "wrong-iss");
    let url = fronted_url(&server, "http", port);
    let out = probe(&["--format", "json", &url]);
    assert_ne!(out.status.code(), Some(0));
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("oauth-iss-mismatch"), "{said}");
    // The code never reached the token endpoint.
    assert!(seen.lock().unwrap().token.is_empty());
}

#[test]
fn a_person_authorizes_in_the_browser_through_the_loopback_listener() {
    use std::io::{BufRead, Read, Write};
    let server = Server::jrpc_serve(HTTP_AND_WS);
    let (port, _seen) = oauth_front(server.addr("http"), "login");
    let url = fronted_url(&server, "http", port);
    let mut child = Command::new(JRPC)
        .args(["probe", "--format", "json", &url])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let (lines, said) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    // The probe prints the URL to open; the "browser" here follows it to the redirect URI with a
    // code, as the authorization server would after the person logged in.
    let line = said
        .recv_timeout(common::WAIT)
        .expect("the probe prints the URL to open");
    let authorize = line
        .split_once("authorize in a browser: ")
        .unwrap_or_else(|| panic!("{line}"))
        .1
        .to_string();
    let get = |name: &str| {
        authorize
            .split(['?', '&'])
            .find_map(|p| p.strip_prefix(&format!("{name}=")))
            .unwrap()
            .replace("%3A", ":")
            .replace("%2F", "/")
    };
    let (redirect, state) = (get("redirect_uri"), get("state"));
    let listener = redirect
        .strip_prefix("http://")
        .and_then(|r| r.split_once('/'))
        .unwrap()
        .0
        .to_string();
    let issuer = format!("http%3A%2F%2F127.0.0.1%3A{port}");
    let mut browser = std::net::TcpStream::connect(&listener).unwrap();
    write!(
        browser,
        "GET /callback?code=code-1&state={state}&iss={issuer} HTTP/1.1\r\nhost: {listener}\r\n\r\n"
    )
    .unwrap();
    let mut page = String::new();
    browser.set_read_timeout(Some(common::WAIT)).unwrap();
    let _ = browser.read_to_string(&mut page);
    assert!(page.contains("authorization received"), "{page}");
    let out = common::finish(child, "jrpc probe");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_all_pass(out.status.code(), &report);
    assert!(check_detail(&report, "auth/authorization").contains("authorized in the browser"));
}

#[test]
fn a_server_asking_for_more_scope_forever_is_authorized_three_times_then_left() {
    let server = Server::jrpc_serve(HTTP_AND_WS);
    let (port, seen) = oauth_front(server.addr("http"), "insufficient");
    let url = fronted_url(&server, "http", port);
    let out = probe(&["--format", "json", &url]);
    assert_ne!(out.status.code(), Some(0));
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains("auth/retry-limit") && said.contains("oauth-token-refused"),
        "{said}"
    );
    let seen = seen.lock().unwrap();
    assert_eq!(seen.authorize.len(), 3, "{:?}", seen.authorize);
    // Each step-up asks for the challenged scope joined with those held.
    assert!(
        seen.authorize[1].contains("scope=mcp%3Aread%20mcp%3Aadmin"),
        "{}",
        seen.authorize[1]
    );
}

#[test]
fn warnings_show_in_junit_and_fail_the_probe_with_fail_on_warning() {
    let program = env!("CARGO_BIN_EXE_jrpc").replace("/jrpc", "/examples/broken_server");
    let run = |extra: &[&str]| {
        let mut args = vec!["probe", "--timeout", "2"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--", &program, "--defect", "undeclared-capability"]);
        jrpc(&args, b"")
    };
    let plain = run(&["--format", "junit"]);
    assert_eq!(plain.status.code(), Some(0));
    let junit = String::from_utf8_lossy(&plain.stdout);
    assert!(
        junit.contains("<system-out>warning[mcp-capability-undeclared]"),
        "{junit}"
    );
    assert!(junit.contains(r#"failures="0""#), "{junit}");
    let strict = run(&["--format", "junit", "--fail-on", "warning"]);
    assert_eq!(strict.status.code(), Some(1));
    let junit = String::from_utf8_lossy(&strict.stdout);
    assert!(!junit.contains(r#"failures="0""#), "{junit}");
    assert!(junit.contains("<failure"), "{junit}");
}
