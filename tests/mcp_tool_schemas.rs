//! MCP tool schemas on the command line: `jrpc check` and `jrpc tap` under the mcp profile check
//! a `tools/call`'s `arguments` against the `inputSchema` a `tools/list` result declared, and its
//! result's `structuredContent` against the `outputSchema`; `jrpc serve` refuses arguments that
//! break a tool's `inputSchema` (boon, native only).
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

mod common;
use common::jrpc;

const LIST: &str = r#"--> {"jsonrpc":"2.0","id":1,"method":"tools/list"}
<-- {"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number","minimum":0}},"required":["a","b"]},"outputSchema":{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}}]}}
"#;

/// `jrpc check --profile mcp --format json` of `transcript`: its exit code and (rule, path) of
/// every finding.
fn check(transcript: &str) -> (Option<i32>, Vec<(String, String)>) {
    checked(
        &["check", "--profile", "mcp", "--format", "json"],
        transcript,
    )
}

/// `jrpc ARGS` (a check with a JSON report) of `transcript`: its exit code and (rule, path) of
/// every finding.
fn checked(args: &[&str], transcript: &str) -> (Option<i32>, Vec<(String, String)>) {
    let out = jrpc(args, transcript.as_bytes());
    let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    let mut found = Vec::new();
    for d in report["documents"].as_array().unwrap() {
        for v in d["violations"].as_array().unwrap() {
            found.push((
                v["rule"].as_str().unwrap().to_string(),
                v["path"].as_str().unwrap().to_string(),
            ));
        }
    }
    (out.status.code(), found)
}

fn call(arguments: &str) -> String {
    format!(
        r#"--> {{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"add","arguments":{arguments}}}}}
"#
    )
}

fn result(structured: &str) -> String {
    format!(
        r#"<-- {{"jsonrpc":"2.0","id":2,"result":{{"content":[{{"type":"text","text":"3"}}],"structuredContent":{structured}}}}}
"#
    )
}

/// A result for a tool without an outputSchema.
const ANSWER: &str = r#"<-- {"jsonrpc":"2.0","id":2,"result":{"content":[]}}
"#;

fn pairs(found: &[(&str, &str)]) -> Vec<(String, String)> {
    found
        .iter()
        .map(|(r, p)| (r.to_string(), p.to_string()))
        .collect()
}

#[test]
fn check_flags_arguments_breaking_the_input_schema_at_their_pointers() {
    let transcript = format!(
        "{LIST}{}{}",
        call(r#"{"a":"one","b":-1}"#),
        result(r#"{"sum":3}"#)
    );
    let (code, found) = check(&transcript);
    assert_eq!(code, Some(1));
    assert_eq!(
        found,
        pairs(&[
            ("mcp-tool-arguments-invalid", "/params/arguments/a"),
            ("mcp-tool-arguments-invalid", "/params/arguments/b"),
        ])
    );
}

#[test]
fn check_flags_a_missing_required_argument_at_the_arguments_object() {
    let transcript = format!("{LIST}{}{}", call(r#"{"a":1}"#), result(r#"{"sum":3}"#));
    let (_, found) = check(&transcript);
    assert_eq!(
        found,
        pairs(&[("mcp-tool-arguments-invalid", "/params/arguments")])
    );
}

#[test]
fn check_is_quiet_on_a_tool_conversation_that_keeps_its_schemas() {
    let transcript = format!(
        "{LIST}{}{}",
        call(r#"{"a":1,"b":2}"#),
        result(r#"{"sum":3}"#)
    );
    let (code, found) = check(&transcript);
    assert_eq!(found, pairs(&[]));
    assert_eq!(code, Some(0));
}

#[test]
fn check_flags_structured_content_breaking_the_output_schema_at_its_pointer() {
    let transcript = format!(
        "{LIST}{}{}",
        call(r#"{"a":1,"b":2}"#),
        result(r#"{"sum":"3"}"#)
    );
    let (code, found) = check(&transcript);
    assert_eq!(code, Some(1));
    assert_eq!(
        found,
        pairs(&[(
            "mcp-structured-content-invalid",
            "/result/structuredContent/sum"
        )])
    );
}

#[test]
fn check_flags_a_result_without_the_structured_content_its_tool_declares() {
    let transcript = format!(
        "{LIST}{}{}",
        call(r#"{"a":1,"b":2}"#),
        r#"<-- {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"3"}]}}
"#
    );
    let (_, found) = check(&transcript);
    assert_eq!(
        found,
        pairs(&[("mcp-structured-content-invalid", "/result")])
    );
}

#[test]
fn check_under_the_jsonrpc_profile_leaves_tool_schemas_alone() {
    let transcript = format!(
        "{LIST}{}{}",
        call(r#"{"a":"one","b":-1}"#),
        result(r#"{"sum":3}"#)
    );
    let out = jrpc(&["check", "--format", "json"], transcript.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("mcp-tool-arguments-invalid"));
}

#[test]
fn check_honours_a_schemas_draft_07_dialect() {
    // Draft-07's array form of `items` checks each position; 2020-12 spells it prefixItems.
    let list = r#"--> {"jsonrpc":"2.0","id":1,"method":"tools/list"}
<-- {"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"pair":{"type":"array","items":[{"type":"string"},{"type":"number"}]}}}}]}}
"#;
    let transcript = format!("{list}{}{ANSWER}", call(r#"{"pair":["x","y"]}"#));
    let (_, found) = check(&transcript);
    assert_eq!(
        found,
        pairs(&[("mcp-tool-arguments-invalid", "/params/arguments/pair/1")])
    );
}

#[test]
fn check_fetches_no_remote_ref_and_reports_the_schema_it_cannot_use() {
    let list = r#"--> {"jsonrpc":"2.0","id":1,"method":"tools/list"}
<-- {"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"$ref":"http://127.0.0.1:9/schema.json"}}]}}
"#;
    let transcript = format!("{list}{}{ANSWER}", call(r#"{"a":1}"#));
    let started = std::time::Instant::now();
    let (code, found) = check(&transcript);
    // A warning where the schema is declared; the call is not checked against it.
    assert_eq!(
        (code, found),
        (
            Some(0),
            pairs(&[("mcp-schema-unusable", "/result/tools/0/inputSchema")])
        )
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn check_reports_a_tool_schema_that_does_not_compile() {
    let list = r#"--> {"jsonrpc":"2.0","id":1,"method":"tools/list"}
<-- {"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"sum":{"type":"nmuber"}}}}]}}
"#;
    let (_, found) = check(list);
    assert_eq!(
        found,
        pairs(&[("mcp-schema-unusable", "/result/tools/0/outputSchema")])
    );
}

#[test]
fn check_reports_a_tool_schema_past_the_size_it_checks() {
    let big = format!(
        r#"{{"type":"object","description":"{}"}}"#,
        "x".repeat(70 * 1024)
    );
    let list = format!(
        r#"--> {{"jsonrpc":"2.0","id":1,"method":"tools/list"}}
<-- {{"jsonrpc":"2.0","id":1,"result":{{"tools":[{{"name":"add","inputSchema":{big}}}]}}}}
"#
    );
    let out = jrpc(&["check", "--profile", "mcp"], list.as_bytes());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("mcp-schema-unusable") && text.contains("larger than 64 KB"),
        "{text}"
    );
}

// ---- elicitation answers against their requested schema ---------------------------------------

/// `jrpc check --profile mcp --mcp-version VERSION --format json`: (rule, path) of every finding.
fn check_under(version: &str, transcript: &str) -> Vec<(String, String)> {
    let args = [
        "check",
        "--profile",
        "mcp",
        "--mcp-version",
        version,
        "--format",
        "json",
    ];
    checked(&args, transcript).1
}

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}"#;
const FORM: &str = r#"{"type":"object","properties":{"name":{"type":"string","minLength":1},"age":{"type":"integer","minimum":0},"colour":{"type":"string","enum":["red","blue"]}},"required":["name"]}"#;

/// A 2026-07-28 call of `ask` asking key "who" for FORM, then `then` (client lines and replies).
fn round(then: &str) -> String {
    format!(
        r#"--> {{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{{META},"name":"ask"}}}}
<-- {{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","inputRequests":{{"who":{{"method":"elicitation/create","params":{{"message":"Who?","requestedSchema":{FORM}}}}}}},"requestState":"s1"}}}}
{then}"#
    )
}

/// The retry (id 2) answering "who" with `answer`, and its reply.
fn retry(answer: &str) -> String {
    format!(
        r#"--> {{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{{META},"name":"ask","inputResponses":{{"who":{answer}}},"requestState":"s1"}}}}
<-- {{"jsonrpc":"2.0","id":2,"result":{{"resultType":"complete","content":[]}}}}
"#
    )
}

#[test]
fn check_flags_an_accepted_answer_breaking_its_requested_schema_at_its_pointers() {
    let answer = r#"{"action":"accept","content":{"name":"Ada","age":-3,"colour":"green"}}"#;
    assert_eq!(
        check_under("2026-07-28", &round(&retry(answer))),
        pairs(&[
            (
                "mcp-elicitation-answer-invalid",
                "/params/inputResponses/who/content/age"
            ),
            (
                "mcp-elicitation-answer-invalid",
                "/params/inputResponses/who/content/colour"
            ),
        ])
    );
}

#[test]
fn check_flags_an_accepted_answer_missing_a_required_field() {
    let answer = r#"{"action":"accept","content":{"age":3}}"#;
    assert_eq!(
        check_under("2026-07-28", &round(&retry(answer))),
        pairs(&[(
            "mcp-elicitation-answer-invalid",
            "/params/inputResponses/who/content"
        )])
    );
}

#[test]
fn check_is_quiet_on_a_conforming_answer_and_on_a_declined_one() {
    let conforming = r#"{"action":"accept","content":{"name":"Ada","age":36,"colour":"red"}}"#;
    assert_eq!(check_under("2026-07-28", &round(&retry(conforming))), []);
    let declined = r#"{"action":"decline"}"#;
    assert_eq!(check_under("2026-07-28", &round(&retry(declined))), []);
}

#[test]
fn check_does_not_hold_a_fresh_call_to_an_abandoned_rounds_schema() {
    // The client gave the round up and called again; a later stray answer belongs to no round.
    let fresh = format!(
        r#"--> {{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{{META},"name":"ask"}}}}
<-- {{"jsonrpc":"2.0","id":2,"result":{{"resultType":"complete","content":[]}}}}
"#
    );
    let stray =
        retry(r#"{"action":"accept","content":{"age":"old"}}"#).replace("\"id\":2", "\"id\":3");
    let found = check_under("2026-07-28", &round(&format!("{fresh}{stray}")));
    assert!(
        !found
            .iter()
            .any(|(r, _)| r == "mcp-elicitation-answer-invalid"),
        "{found:?}"
    );
}

#[test]
fn check_flags_a_handshake_era_elicitation_result_breaking_its_schema() {
    let transcript = format!(
        r#"<-- {{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{{"message":"Who?","requestedSchema":{FORM}}}}}
--> {{"jsonrpc":"2.0","id":"e1","result":{{"action":"accept","content":{{"name":""}}}}}}
"#
    );
    assert_eq!(
        check_under("2025-11-25", &transcript),
        pairs(&[("mcp-elicitation-answer-invalid", "/result/content/name")])
    );
}

#[test]
fn check_reports_a_requested_schema_that_does_not_compile() {
    let transcript = round("").replace(r#""minLength":1"#, r#""minLength":"one""#);
    assert_eq!(
        check_under("2026-07-28", &transcript),
        pairs(&[(
            "mcp-schema-unusable",
            "/result/inputRequests/who/params/requestedSchema"
        )])
    );
}

#[test]
fn the_schema_rules_examples_break_exactly_their_rule_and_their_fixes_none() {
    use jsonrpc_playground::probe::rules::SCHEMA_RULES;
    use jsonrpc_playground::rpc::{self, Profile};
    let hits = |rule: &jsonrpc_playground::rpc::Rule, text: &str| {
        let profile = Profile::Mcp(rule.example_version.unwrap_or_default());
        let mut report = rpc::check(text.as_bytes(), profile);
        jsonrpc_playground::tool_schemas::check(text.as_bytes(), &mut report);
        let ids: std::collections::BTreeSet<&str> =
            report.violations().map(|v| v.rule.id).collect();
        ids
    };
    for rule in SCHEMA_RULES {
        assert_eq!(hits(rule, rule.bad), [rule.id].into(), "{}", rule.id);
        assert!(
            hits(rule, rule.good).is_empty(),
            "{}: {:?}",
            rule.id,
            hits(rule, rule.good)
        );
        assert!(rule
            .section
            .url
            .starts_with("https://modelcontextprotocol.io/"));
    }
}

#[test]
fn tap_checks_live_tool_calls_and_results_against_the_listed_schemas() {
    let list = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"number"}},"required":["a"]},"outputSchema":{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}}]}}"#;
    let reply =
        r#"{"jsonrpc":"2.0","id":2,"result":{"content":[],"structuredContent":{"sum":"3"}}}"#;
    let server = format!("read l; echo '{list}'; read l; echo '{reply}'");
    // The client calls once the list has come back, as a client does.
    let mut tap = Command::new(env!("CARGO_BIN_EXE_jrpc"))
        .args(["tap", "--profile", "mcp", "--", "/bin/sh", "-c", &server])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("jrpc tap runs");
    let mut to_tap = tap.stdin.take().unwrap();
    let from_tap = common::lines_of(tap.stdout.take().unwrap());
    to_tap
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n")
        .unwrap();
    let line = common::next_line(&from_tap, "jrpc tap");
    assert!(line.contains("\"tools\""), "{line}");
    to_tap.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"add\",\"arguments\":{\"a\":true}}}\n").unwrap();
    drop(to_tap);
    let line = common::next_line(&from_tap, "jrpc tap");
    assert!(line.contains("structuredContent"), "{line}");
    let out = common::finish(tap, "jrpc tap");
    let findings = String::from_utf8_lossy(&out.stderr);
    assert!(
        findings.contains("tap: client message 2: error[mcp-tool-arguments-invalid]")
            && findings.contains("(at /params/arguments/a,"),
        "{findings}"
    );
    assert!(
        findings.contains("tap: server message 2: error[mcp-structured-content-invalid]")
            && findings.contains("(at /result/structuredContent/sum,"),
        "{findings}"
    );
    assert_eq!(out.status.code(), Some(0));
}

/// The replies of `jrpc serve --fixtures conformance` on stdio to an initialized session then
/// `calls`, by id.
fn served(calls: &[&str]) -> Vec<Value> {
    let mut input = String::from(
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
"#,
    );
    for c in calls {
        input.push_str(c);
        input.push('\n');
    }
    let out = jrpc(&["serve", "--fixtures", "conformance"], input.as_bytes());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &Value| v["id"] != 0)
        .collect()
}

const SCHEMA_TOOL_CALL: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"json_schema_2020_12_tool","arguments":ARGS}}"#;

#[test]
fn serve_refuses_arguments_breaking_the_input_schema_as_a_tool_error() {
    let call = SCHEMA_TOOL_CALL.replace("ARGS", r#"{"contactMethod":"fax","email":"a@b"}"#);
    let replies = served(&[&call]);
    assert_eq!(replies[0]["result"]["isError"], true, "{replies:?}");
    let text = replies[0]["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("inputSchema") && text.contains("/contactMethod"),
        "{text}"
    );
}

#[test]
fn serve_runs_a_call_whose_arguments_keep_the_input_schema() {
    let call = SCHEMA_TOOL_CALL.replace("ARGS", r#"{"contactMethod":"email","email":"a@b"}"#);
    let replies = served(&[&call]);
    assert!(replies[0]["result"].get("isError").is_none(), "{replies:?}");
}

/// Every reply line of `jrpc serve` on stdio (the friendly mock) to `lines`.
fn serve_lines(lines: &[String]) -> Vec<Value> {
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let out = jrpc(&["serve"], input.as_bytes());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A 2026-07-28 `tools/call` of `ask_name` (id `id`), answering its form with `answer` when given.
fn ask_name(id: u32, answer: Option<&str>) -> String {
    let responses = answer.map_or(String::new(), |a| {
        format!(r#","inputResponses":{{"answer":{a}}}"#)
    });
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{{META},"name":"ask_name"{responses}}}}}"#
    )
}

#[test]
fn serve_refuses_a_2026_answer_breaking_the_requested_schema_with_invalid_params() {
    let replies = serve_lines(&[
        ask_name(1, None),
        ask_name(
            2,
            Some(r#"{"action":"accept","content":{"name":"","colour":"mauve"}}"#),
        ),
    ]);
    assert_eq!(replies[0]["result"]["resultType"], "input_required");
    let error = &replies[1]["error"];
    assert_eq!(error["code"], -32602, "{replies:?}");
    let paths: Vec<&str> = error["data"]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "/params/inputResponses/answer/content/name",
            "/params/inputResponses/answer/content/colour"
        ]
    );
}

#[test]
fn serve_completes_a_2026_round_whose_answer_keeps_the_requested_schema() {
    let replies = serve_lines(&[ask_name(
        1,
        Some(r#"{"action":"accept","content":{"name":"Ada","colour":"red"}}"#),
    )]);
    assert_eq!(
        replies[0]["result"]["resultType"], "complete",
        "{replies:?}"
    );
    let text = replies[0]["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("Hello, Ada!"), "{text}");
}

#[test]
fn serve_ends_a_handshake_call_whose_elicitation_answer_breaks_the_schema_with_a_tool_error() {
    let replies = serve_lines(&[
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"t","version":"1"}}}"#.to_string(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_string(),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_name"}}"#.to_string(),
        r#"{"jsonrpc":"2.0","id":"mock-1","result":{"action":"accept","content":{"name":7}}}"#.to_string(),
    ]);
    let asked = replies.iter().find(|r| r["method"] == "elicitation/create");
    assert!(asked.is_some(), "{replies:?}");
    let answered = replies
        .iter()
        .find(|r| r["id"] == 1)
        .expect("the call's reply");
    assert_eq!(answered["result"]["isError"], true, "{answered}");
    let text = answered["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("requestedSchema") && text.contains("/result/content/name"),
        "{text}"
    );
}

/// `lines` sent to `jrpc serve ARGS` and its replies, as a transcript (each request, then what
/// came back before the next one is irrelevant here: the checker pairs by id).
fn served_transcript(args: &[&str], lines: &[String]) -> String {
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let out = jrpc(args, input.as_bytes());
    let mut transcript: String = lines.iter().map(|l| format!("--> {l}\n")).collect();
    for reply in String::from_utf8_lossy(&out.stdout).lines() {
        transcript.push_str(&format!("<-- {reply}\n"));
    }
    transcript
}

#[test]
fn every_schema_the_mock_serves_compiles() {
    let list = format!(r#"{{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{{{META}}}}}"#);
    // The friendly tools under 2026-07-28 and ask_name's form; the conformance fixtures' tools.
    let friendly = served_transcript(&["serve"], &[list.clone(), ask_name(1, None)]);
    let fixtures = served_transcript(&["serve", "--fixtures", "conformance"], &[list]);
    for transcript in [friendly, fixtures] {
        assert!(transcript.contains("inputSchema"), "{transcript}");
        let found = check_under("2026-07-28", &transcript);
        assert!(
            !found.iter().any(|(r, _)| r == "mcp-schema-unusable"),
            "{found:?}"
        );
    }
}

#[test]
fn open_rounds_hold_a_bounded_amount_of_schema() {
    use jsonrpc_playground::rpc::{self, McpVersion, Profile};
    use jsonrpc_playground::tool_schemas::{ToolSchemas, MAX_ROUND_SCHEMA_BYTES};
    // 300 calls left in their rounds, each asking 8 forms of ~10 KB: 24 MB of schemas offered.
    let padding = "x".repeat(10 * 1024);
    let form = format!(
        r#"{{"type":"object","description":"{padding}","properties":{{"n":{{"type":"string"}}}}}}"#
    );
    let asks: Vec<String> = (0..8)
        .map(|k| format!(r#""k{k}":{{"method":"elicitation/create","params":{{"message":"?","requestedSchema":{form}}}}}"#))
        .collect();
    let mut schemas = ToolSchemas::default();
    for i in 0..300 {
        let text = format!(
            "--> {{\"jsonrpc\":\"2.0\",\"id\":{i},\"method\":\"tools/call\",\"params\":{{{META},\"name\":\"t{i}\"}}}}\n<-- {{\"jsonrpc\":\"2.0\",\"id\":{i},\"result\":{{\"resultType\":\"input_required\",\"inputRequests\":{{{}}}}}}}\n",
            asks.join(",")
        );
        let mut report = rpc::check(text.as_bytes(), Profile::Mcp(McpVersion::V2026_07_28));
        schemas.check(text.as_bytes(), &mut report);
        assert!(schemas.round_bytes() <= MAX_ROUND_SCHEMA_BYTES);
    }
    assert!(
        schemas.round_bytes() > MAX_ROUND_SCHEMA_BYTES / 2,
        "rounds were remembered"
    );
}
