//! The MCP profile under 2026-07-28: each of its rules flagged at its place and quiet on the fix,
//! the conversation rules of input-required rounds in transcripts and in `jrpc tap`, and a
//! conversation recorded from the real mock checking clean. (The catalogue's own examples are
//! checked by tests/mcp_profile.rs and tests/catalogue.rs.)
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

mod common;

use jsonrpc_playground::json::{parse_document, Node};
use jsonrpc_playground::rpc::{check, McpVersion, Profile, Severity};

const JRPC: &str = env!("CARGO_BIN_EXE_jrpc");
const V2026: Profile = Profile::Mcp(McpVersion::V2026_07_28);
const V2025: Profile = Profile::Mcp(McpVersion::V2025_11_25);

/// A complete request `_meta` of 2026-07-28, as JSON members.
const META: &str = r#""_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}, "sampling": {}, "roots": {}}, "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"}}"#;

/// (document, rule, path, severity) of every violation.
fn found(src: &str, profile: Profile) -> Vec<(usize, &'static str, String, Severity)> {
    let report = check(src.as_bytes(), profile);
    report
        .documents
        .iter()
        .enumerate()
        .flat_map(|(i, d)| {
            d.all_violations()
                .map(move |v| (i, v.rule.id, v.path.to_string(), v.severity))
        })
        .collect()
}

/// (rule, path) of every violation of a single message.
fn at(src: &str) -> Vec<(&'static str, String)> {
    found(src, V2026)
        .into_iter()
        .map(|(_, rule, path, _)| (rule, path))
        .collect()
}

fn one(rule: &'static str, path: &str) -> Vec<(&'static str, String)> {
    vec![(rule, path.to_string())]
}

fn request(id: u32, method: &str, params: &str) -> String {
    let sep = if params.is_empty() { "" } else { ", " };
    format!(
        r#"{{"jsonrpc": "2.0", "id": {id}, "method": "{method}", "params": {{{META}{sep}{params}}}}}"#
    )
}

fn result(id: u32, body: &str) -> String {
    format!(r#"{{"jsonrpc": "2.0", "id": {id}, "result": {{{body}}}}}"#)
}

/// A transcript: `-->` before each even line (the client's), `<--` before each odd one.
fn transcript(lines: &[String]) -> String {
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{} {l}\n", if i % 2 == 0 { "-->" } else { "<--" }))
        .collect()
}

const ASK_NAME: &str = r#""resultType": "input_required", "inputRequests": {"name": {"method": "elicitation/create", "params": {"message": "Name?", "requestedSchema": {"type": "object", "properties": {}}}}}, "requestState": "s1""#;
const DONE: &str = r#""resultType": "complete", "content": []"#;

/// tools/call ask (id 1) answered by an input-required result asking "name" with state "s1", then
/// the retry (id 2) with `retry_params`, answered.
fn round_then_retry(retry_params: &str) -> String {
    transcript(&[
        request(1, "tools/call", r#""name": "ask""#),
        result(1, ASK_NAME),
        request(
            2,
            "tools/call",
            &format!(r#""name": "ask", {retry_params}"#),
        ),
        result(2, DONE),
    ])
}

// ---- one message -----------------------------------------------------------------------------

#[test]
fn methods_removed_in_2026_are_errors_that_name_their_replacement() {
    for (method, hint) in [
        ("ping", "server/discover"),
        ("initialize", "server/discover"),
        ("logging/setLevel", "2025-11-25"),
        ("resources/subscribe", "2025-11-25"),
        ("elicitation/create", "input_required"),
    ] {
        let src = request(1, method, "");
        let report = check(src.as_bytes(), V2026);
        let v: Vec<_> = report.violations().collect();
        assert_eq!(v.len(), 1, "{method}: {v:?}");
        assert_eq!(
            (v[0].rule.id, v[0].path.as_ref()),
            ("mcp-method-removed", "/method")
        );
        assert_eq!(v[0].severity, Severity::Error);
        assert!(v[0].message.contains(hint), "{method}: {}", v[0].message);
    }
    // The Tasks methods moved to an extension: unknown to the core, not removed.
    assert_eq!(
        at(&request(1, "tasks/get", r#""taskId": "t""#)),
        one("mcp-method-unknown", "/method")
    );
    // Earlier revisions keep ping.
    assert!(found(r#"{"jsonrpc": "2.0", "id": 1, "method": "ping"}"#, V2025).is_empty());
}

#[test]
fn a_request_without_client_info_is_a_warning_at_its_meta() {
    let src = r#"{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}"#;
    assert_eq!(
        found(src, V2026),
        [(
            0,
            "mcp-meta-client-info",
            "/params/_meta".to_string(),
            Severity::Warning
        )]
    );
    assert!(at(&request(1, "tools/list", "")).is_empty());
    // Notifications carry no client.
    assert!(at(r#"{"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1, "_meta": {}}}"#).is_empty());
}

#[test]
fn a_result_without_result_type_is_an_error_at_the_result() {
    assert_eq!(
        at(&result(1, r#""tools": []"#)),
        one("mcp-result-type-missing", "/result")
    );
    assert_eq!(
        at(&result(1, r#""resultType": 1"#)),
        one("mcp-result-type-missing", "/result/resultType")
    );
    assert!(at(&result(1, DONE)).is_empty());
    // Before 2026-07-28 results have no resultType.
    assert!(found(&result(1, r#""tools": []"#), V2025).is_empty());
}

#[test]
fn an_input_required_result_needs_requests_or_a_string_state() {
    let shape = |body: &str| {
        at(&result(
            1,
            &format!(r#""resultType": "input_required"{body}"#),
        ))
    };
    assert_eq!(shape(""), one("mcp-input-required-shape", "/result"));
    assert_eq!(
        shape(r#", "inputRequests": []"#),
        one("mcp-input-required-shape", "/result/inputRequests")
    );
    assert_eq!(
        shape(r#", "requestState": {"step": 1}"#),
        one("mcp-input-required-shape", "/result/requestState")
    );
    assert!(shape(r#", "requestState": "s""#).is_empty());
    assert!(shape(r#", "inputRequests": {}"#).is_empty());
}

#[test]
fn each_kind_of_input_request_is_checked_with_its_params() {
    let asking = |entry: &str| {
        at(&result(
            1,
            &format!(r#""resultType": "input_required", "inputRequests": {{"q": {entry}}}"#),
        ))
    };
    let q = "/result/inputRequests/q";
    assert_eq!(
        asking(r#"{"method": "sampling/createMessage", "params": {"messages": []}}"#),
        one("mcp-input-request-invalid", &format!("{q}/params"))
    );
    assert_eq!(
        asking(
            r#"{"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": "9"}}"#
        ),
        one(
            "mcp-input-request-invalid",
            &format!("{q}/params/maxTokens")
        )
    );
    assert_eq!(
        asking(r#"{"method": "elicitation/create", "params": {"message": "Name?"}}"#),
        one("mcp-input-request-invalid", &format!("{q}/params"))
    );
    assert_eq!(
        asking(
            r#"{"method": "elicitation/create", "params": {"message": "Sign in", "mode": "url"}}"#
        ),
        one("mcp-input-request-invalid", &format!("{q}/params"))
    );
    assert_eq!(
        asking(r#"{"method": "roots/list", "params": "all"}"#),
        one("mcp-input-request-invalid", &format!("{q}/params"))
    );
    assert_eq!(
        asking(r#"{"method": "tools/call", "params": {}}"#),
        one("mcp-input-request-invalid", &format!("{q}/method"))
    );
    assert_eq!(asking("[]"), one("mcp-input-request-invalid", q));
    for fine in [
        r#"{"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 100}}"#,
        r#"{"method": "elicitation/create", "params": {"message": "Name?", "requestedSchema": {"type": "object", "properties": {}}}}"#,
        r#"{"method": "elicitation/create", "params": {"message": "Sign in", "mode": "url", "url": "https://example.com", "elicitationId": "e1"}}"#,
        r#"{"method": "roots/list"}"#,
    ] {
        assert!(asking(fine).is_empty(), "{fine}");
    }
}

#[test]
fn an_input_response_that_is_no_object_is_flagged_in_the_request_alone() {
    assert_eq!(
        at(&request(
            1,
            "tools/call",
            r#""name": "ask", "inputResponses": {"name": "Ada"}"#
        )),
        one("mcp-input-response-invalid", "/params/inputResponses/name")
    );
}

#[test]
fn caching_fields_have_their_types_and_values() {
    let cached = |fields: &str| {
        at(&result(
            1,
            &format!(r#""resultType": "complete", "tools": [], {fields}"#),
        ))
    };
    assert_eq!(
        cached(r#""ttlMs": -1, "cacheScope": "public""#),
        one("mcp-cache-fields", "/result/ttlMs")
    );
    assert_eq!(
        cached(r#""ttlMs": 1.5, "cacheScope": "public""#),
        one("mcp-cache-fields", "/result/ttlMs")
    );
    assert_eq!(
        cached(r#""ttlMs": 0, "cacheScope": "shared""#),
        one("mcp-cache-fields", "/result/cacheScope")
    );
    assert!(cached(r#""ttlMs": 0, "cacheScope": "private""#).is_empty());
}

#[test]
fn a_list_result_without_caching_fields_is_flagged_in_a_transcript() {
    let src = transcript(&[
        request(1, "tools/list", ""),
        result(1, r#""resultType": "complete", "tools": []"#),
        request(2, "resources/read", r#""uri": "mock://readme""#),
        result(
            2,
            r#""resultType": "complete", "contents": [], "ttlMs": 0, "cacheScope": "public""#,
        ),
        request(3, "tools/call", r#""name": "add""#),
        result(3, DONE),
    ]);
    let v = found(&src, V2026);
    // The fields are missing from the tools/list result; the read has them, tools/call needs none.
    assert_eq!(
        v,
        [(
            1,
            "mcp-cache-fields",
            "/result".to_string(),
            Severity::Error
        )]
    );
}

#[test]
fn the_new_error_codes_carry_their_data() {
    let error = |code: i32, data: &str| {
        at(&format!(
            r#"{{"jsonrpc": "2.0", "id": 1, "error": {{"code": {code}, "message": "m"{data}}}}}"#
        ))
    };
    assert_eq!(error(-32021, ""), one("mcp-error-data", "/error"));
    assert_eq!(
        error(-32021, r#", "data": {}"#),
        one("mcp-error-data", "/error/data")
    );
    assert_eq!(
        error(-32022, r#", "data": {"requested": "1999-01-01"}"#),
        one("mcp-error-data", "/error/data")
    );
    assert_eq!(
        error(
            -32022,
            r#", "data": {"requested": "1999-01-01", "supported": "2026-07-28"}"#
        ),
        one("mcp-error-data", "/error/data/supported")
    );
    assert!(error(
        -32021,
        r#", "data": {"requiredCapabilities": {"sampling": {}}}"#
    )
    .is_empty());
    assert!(error(-32020, "").is_empty());
}

// ---- conversations ---------------------------------------------------------------------------

#[test]
fn a_retry_that_answers_every_key_and_echoes_the_state_is_clean() {
    let src = round_then_retry(
        r#""inputResponses": {"name": {"action": "accept", "content": {"name": "Ada"}}}, "requestState": "s1""#,
    );
    assert_eq!(found(&src, V2026), []);
}

#[test]
fn a_retry_without_the_responses_is_an_error() {
    let v = found(&round_then_retry(r#""requestState": "s1""#), V2026);
    assert_eq!(
        v,
        [(
            2,
            "mcp-retry-missing-responses",
            "/params".to_string(),
            Severity::Error
        )]
    );
    let v = found(
        &round_then_retry(r#""inputResponses": {}, "requestState": "s1""#),
        V2026,
    );
    assert_eq!(
        v,
        [(
            2,
            "mcp-retry-missing-responses",
            "/params/inputResponses".to_string(),
            Severity::Error
        )]
    );
}

#[test]
fn a_fresh_call_after_an_abandoned_round_is_not_a_retry() {
    // The client gave the round up and called the same tool afresh: no inputResponses, no
    // requestState. That is a new call, not a retry without its answers.
    let again = transcript(&[
        request(1, "tools/call", r#""name": "ask""#),
        result(1, ASK_NAME),
        request(2, "tools/call", r#""name": "ask""#),
        result(2, DONE),
    ]);
    assert_eq!(found(&again, V2026), []);
    let other_arguments = round_then_retry(r#""arguments": {"greeting": "hi"}"#);
    assert_eq!(found(&other_arguments, V2026), []);
}

#[test]
fn a_fresh_call_closes_the_round_so_a_later_retry_is_not_checked_against_it() {
    // ask (1) asks; ask again afresh (2) is answered at once; a third call (3) carrying only a
    // requestState belongs to no open round and is not checked as a retry.
    let src = transcript(&[
        request(1, "tools/call", r#""name": "ask""#),
        result(1, ASK_NAME),
        request(2, "tools/call", r#""name": "ask""#),
        result(2, DONE),
        request(3, "tools/call", r#""name": "ask", "requestState": "s1""#),
        result(3, DONE),
    ]);
    assert_eq!(found(&src, V2026), []);
}

#[test]
fn a_real_retry_after_another_call_is_still_checked() {
    // Another tool called between the round and its retry leaves the round open.
    let src = transcript(&[
        request(1, "tools/call", r#""name": "ask""#),
        result(1, ASK_NAME),
        request(2, "tools/call", r#""name": "echo""#),
        result(2, DONE),
        request(3, "tools/call", r#""name": "ask", "requestState": "s1""#),
        result(3, DONE),
    ]);
    assert_eq!(
        found(&src, V2026),
        [(
            4,
            "mcp-retry-missing-responses",
            "/params".to_string(),
            Severity::Error
        )]
    );
}

#[test]
fn a_response_for_a_key_never_requested_is_a_warning() {
    let v = found(
        &round_then_retry(
            r#""inputResponses": {"name": {"action": "decline"}, "nmae": {"action": "decline"}}, "requestState": "s1""#,
        ),
        V2026,
    );
    assert_eq!(
        v,
        [(
            2,
            "mcp-input-response-unrequested",
            "/params/inputResponses/nmae".to_string(),
            Severity::Warning
        )]
    );
}

#[test]
fn a_changed_or_dropped_request_state_is_an_error() {
    let answer = r#""inputResponses": {"name": {"action": "cancel"}}"#;
    let changed = found(
        &round_then_retry(&format!(r#"{answer}, "requestState": "s2""#)),
        V2026,
    );
    assert_eq!(
        changed,
        [(
            2,
            "mcp-request-state-changed",
            "/params/requestState".to_string(),
            Severity::Error
        )]
    );
    let dropped = found(&round_then_retry(answer), V2026);
    assert_eq!(
        dropped,
        [(
            2,
            "mcp-request-state-changed",
            "/params".to_string(),
            Severity::Error
        )]
    );
    // A state the server never gave.
    let src = transcript(&[
        request(1, "tools/call", r#""name": "ask""#),
        result(
            1,
            r#""resultType": "input_required", "inputRequests": {"r": {"method": "roots/list"}}"#,
        ),
        request(
            2,
            "tools/call",
            r#""name": "ask", "inputResponses": {"r": {"roots": []}}, "requestState": "x""#,
        ),
        result(2, DONE),
    ]);
    assert_eq!(
        found(&src, V2026),
        [(
            2,
            "mcp-request-state-changed",
            "/params/requestState".to_string(),
            Severity::Error
        )]
    );
}

#[test]
fn each_answer_is_the_result_its_input_request_asks_for() {
    let src = transcript(&[
        request(1, "prompts/get", r#""name": "p""#),
        result(
            1,
            r#""resultType": "input_required", "inputRequests": {"s": {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 9}}, "r": {"method": "roots/list"}, "e": {"method": "elicitation/create", "params": {"message": "?", "requestedSchema": {"type": "object", "properties": {}}}}}"#,
        ),
        request(
            2,
            "prompts/get",
            r#""name": "p", "inputResponses": {"s": {"role": "assistant", "content": {"type": "text", "text": "hi"}}, "r": {"roots": {}}, "e": {"action": "ok"}}"#,
        ),
        result(2, r#""resultType": "complete", "messages": []"#),
    ]);
    let v: Vec<_> = found(&src, V2026)
        .into_iter()
        .map(|(d, r, p, _)| (d, r, p))
        .collect();
    assert_eq!(
        v,
        [
            (
                2,
                "mcp-input-response-invalid",
                "/params/inputResponses/s".to_string()
            ),
            (
                2,
                "mcp-input-response-invalid",
                "/params/inputResponses/r/roots".to_string()
            ),
            (
                2,
                "mcp-input-response-invalid",
                "/params/inputResponses/e/action".to_string()
            ),
        ]
    );
}

#[test]
fn a_second_round_is_checked_against_its_own_keys_and_other_calls_are_no_retries() {
    let src = transcript(&[
        request(1, "tools/call", r#""name": "ask""#),
        result(1, ASK_NAME),
        // Another tool in between: not a retry of ask.
        request(2, "tools/call", r#""name": "add""#),
        result(2, DONE),
        request(
            3,
            "tools/call",
            r#""name": "ask", "inputResponses": {"name": {"action": "accept", "content": {"name": "Ada"}}}, "requestState": "s1""#,
        ),
        result(
            3,
            r#""resultType": "input_required", "inputRequests": {"colour": {"method": "elicitation/create", "params": {"message": "Colour?", "requestedSchema": {"type": "object", "properties": {}}}}}, "requestState": "s2""#,
        ),
        request(
            4,
            "tools/call",
            r#""name": "ask", "inputResponses": {"colour": {"action": "accept", "content": {"colour": "red"}}}, "requestState": "s2""#,
        ),
        result(4, DONE),
    ]);
    assert_eq!(found(&src, V2026), []);
}

#[test]
fn earlier_revisions_have_no_round_checks() {
    // The same conversation under 2025-11-25: inputResponses is no param there, nothing of 2026-07-28 applies.
    let src = round_then_retry(r#""requestState": "s2""#);
    let rules: Vec<_> = found(&src, V2025)
        .into_iter()
        .map(|(_, r, _, _)| r)
        .collect();
    assert!(
        rules
            .iter()
            .all(|r| !r.contains("retry") && !r.contains("state") && !r.contains("result-type")),
        "{rules:?}"
    );
}

// ---- the real mock, through the tap ----------------------------------------------------------

/// `jrpc tap --mcp-version 2026-07-28 --transcript … --log … -- jrpc serve --fixtures conformance`,
/// driven one request at a time (each answer read before the next request is written, so the
/// transcript holds them in conversation order).
struct Tapped {
    child: Child,
    replies: std::sync::mpsc::Receiver<String>,
    transcript: PathBuf,
    log: PathBuf,
}

impl Tapped {
    fn start(name: &str) -> Tapped {
        let dir = std::env::temp_dir().join(format!("jrpc-mcp-2026-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (transcript, log) = (dir.join("session.txt"), dir.join("findings.log"));
        let mut child = Command::new(JRPC)
            .args(["tap", "--mcp-version", "2026-07-28", "--transcript"])
            .arg(&transcript)
            .arg("--log")
            .arg(&log)
            .args(["--", JRPC, "serve", "--fixtures", "conformance"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("jrpc runs");
        let replies = common::lines_of(child.stdout.take().unwrap());
        Tapped {
            child,
            replies,
            transcript,
            log,
        }
    }

    /// Sends one request and returns the reply line.
    fn call(&mut self, line: &str) -> String {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        common::next_line(&self.replies, "jrpc tap -- jrpc serve")
    }

    /// Ends the session: (transcript, findings).
    fn finish(mut self) -> (String, String) {
        drop(self.child.stdin.take());
        assert!(common::wait_within(&mut self.child, common::WAIT, "jrpc tap").success());
        (
            std::fs::read_to_string(&self.transcript).unwrap(),
            std::fs::read_to_string(&self.log).unwrap_or_default(),
        )
    }
}

/// The keys an input-required reply asks and its requestState.
fn asked(reply: &str) -> (Vec<String>, String) {
    let (parsed, _) = parse_document(reply.trim().as_bytes(), 0).expect("the mock answers JSON");
    let result = parsed.root.get("result").expect("a result");
    assert_eq!(
        result.get("resultType").and_then(Node::as_str),
        Some("input_required"),
        "{reply}"
    );
    let keys = result
        .get("inputRequests")
        .map(|r| r.members().iter().map(|m| m.key.to_string()).collect())
        .unwrap_or_default();
    let state = result
        .get("requestState")
        .and_then(Node::as_str)
        .unwrap_or_default()
        .to_string();
    (keys, state)
}

const MULTI_ROUND: &str = r#""name": "test_input_required_result_multi_round", "arguments": {}"#;

#[test]
fn a_conversation_recorded_from_the_mock_checks_clean() {
    let mut tap = Tapped::start("clean");
    assert!(tap
        .call(&request(1, "server/discover", ""))
        .contains("\"ttlMs\""));
    tap.call(&request(2, "tools/list", ""));
    let (keys, state) = asked(&tap.call(&request(3, "tools/call", MULTI_ROUND)));
    assert_eq!(keys, ["step1"]);
    let answer = format!(
        r#"{MULTI_ROUND}, "inputResponses": {{"step1": {{"action": "accept", "content": {{"name": "Ada"}}}}}}, "requestState": "{state}""#
    );
    let (keys, state) = asked(&tap.call(&request(4, "tools/call", &answer)));
    assert_eq!(keys, ["step2"]);
    let answer = format!(
        r#"{MULTI_ROUND}, "inputResponses": {{"step2": {{"action": "accept", "content": {{"color": "red"}}}}}}, "requestState": "{state}""#
    );
    let done = tap.call(&request(5, "tools/call", &answer));
    assert!(done.contains(r#""resultType":"complete""#), "{done}");
    let (recorded, findings) = tap.finish();
    assert_eq!(findings, "", "the tap saw nothing wrong");
    assert_eq!(recorded.lines().count(), 10);
    assert_eq!(found(&recorded, V2026), [], "{recorded}");
}

#[test]
fn the_tap_reports_a_tampered_round_live() {
    let mut tap = Tapped::start("tampered");
    let (keys, _) = asked(&tap.call(&request(1, "tools/call", MULTI_ROUND)));
    assert_eq!(keys, ["step1"]);
    // The retry answers a key never asked and changes the state: the mock refuses it (-32602).
    let refused = tap.call(&request(
        2,
        "tools/call",
        &format!(r#"{MULTI_ROUND}, "inputResponses": {{"step9": {{"action": "accept", "content": {{"name": "Ada"}}}}}}, "requestState": "forged""#),
    ));
    assert!(refused.contains("-32602"), "{refused}");
    let (recorded, findings) = tap.finish();
    for line in [
        "tap: client message 2: error[mcp-retry-missing-responses]",
        "tap: client message 2: warning[mcp-input-response-unrequested]",
        "tap: client message 2: error[mcp-request-state-changed]",
    ] {
        assert!(findings.contains(line), "{line} in:\n{findings}");
    }
    // The recorded transcript says the same.
    let rules: Vec<_> = found(&recorded, V2026)
        .into_iter()
        .map(|(_, r, _, _)| r)
        .collect();
    assert_eq!(
        rules,
        [
            "mcp-retry-missing-responses",
            "mcp-input-response-unrequested",
            "mcp-request-state-changed"
        ]
    );
}

#[test]
fn the_tap_checks_an_elicitation_answer_against_its_requested_schema_live() {
    let mut tap = Tapped::start("elicitation-schema");
    let (keys, state) = asked(&tap.call(&request(1, "tools/call", MULTI_ROUND)));
    assert_eq!(keys, ["step1"]);
    // step1 asks {"name": string} (required): a number is no name.
    tap.call(&request(
        2,
        "tools/call",
        &format!(r#"{MULTI_ROUND}, "inputResponses": {{"step1": {{"action": "accept", "content": {{"name": 7}}}}}}, "requestState": "{state}""#),
    ));
    let (_, findings) = tap.finish();
    assert!(
        findings.contains("tap: client message 2: error[mcp-elicitation-answer-invalid]")
            && findings.contains("/params/inputResponses/step1/content/name"),
        "{findings}"
    );
}

#[test]
fn a_conversation_remembers_a_bounded_amount() {
    use jsonrpc_playground::json::Direction;
    use jsonrpc_playground::rpc::mcp::rounds::MAX_REMEMBERED_BYTES;
    use jsonrpc_playground::rpc::mcp::Rounds;
    let mut rounds = Rounds::default();
    let mut observe = |from, text: &str| {
        let (parsed, _) = parse_document(text.as_bytes(), 0).unwrap();
        rounds.observe(from, &parsed.root, "");
    };
    // 400 calls left in the middle of their rounds, each round asking 40 keys of 250 bytes (10 KB).
    let keys: String = (0..40)
        .map(|k| format!(r#""{k:0>250}": {{"method": "roots/list"}}"#))
        .collect::<Vec<_>>()
        .join(", ");
    for i in 0..400 {
        observe(
            Direction::Client,
            &request(i, "tools/call", &format!(r#""name": "t{i}""#)),
        );
        observe(
            Direction::Server,
            &result(
                i,
                &format!(r#""resultType": "input_required", "inputRequests": {{{keys}}}"#),
            ),
        );
    }
    // 3,000 requests never answered, and one round larger than the whole budget.
    for i in 400..3400 {
        observe(Direction::Client, &request(i, "tools/list", ""));
    }
    let huge = "k".repeat(MAX_REMEMBERED_BYTES + 1);
    observe(
        Direction::Client,
        &request(9999, "tools/call", r#""name": "big""#),
    );
    observe(
        Direction::Server,
        &result(
            9999,
            &format!(r#""resultType": "input_required", "requestState": "{huge}""#),
        ),
    );
    drop(observe);
    assert!(
        rounds.remembered_bytes() <= 2 * MAX_REMEMBERED_BYTES,
        "{} bytes",
        rounds.remembered_bytes()
    );
}
