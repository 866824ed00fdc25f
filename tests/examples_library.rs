//! The examples library: it reads, every example parses into documents, its verdict under its
//! profile is the one its description promises, the specification's examples are all there with
//! the replies the specification shows (and the mock server gives), and their conversations are
//! consistent.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;

use jsonrpc_playground::examples::{self, by_category, find, parse, parse_profile, Expect};
use jsonrpc_playground::json::{split_stream, Direction};
use jsonrpc_playground::mock::MockServer;
use jsonrpc_playground::rpc::{check, Kind, McpVersion, Profile};

/// Rules about a conversation (a request and its reply), not about one message.
const CONVERSATION_RULES: [&str; 6] = [
    "notification-answered",
    "response-unmatched",
    "response-null-id-detectable",
    "request-unanswered",
    "request-id-reused",
    "batch-reply-mismatch",
];

fn rule_set(text: &str, profile: Profile) -> BTreeSet<&'static str> {
    check(text.as_bytes(), profile)
        .violations()
        .map(|v| v.rule.id)
        .collect()
}

#[test]
fn the_library_reads_and_ids_are_unique() {
    let parsed =
        parse(include_str!("../engine/src/examples/library.txt")).expect("library.txt reads");
    assert_eq!(parsed.as_slice(), examples::all());
    assert!(examples::all().len() >= 25, "{}", examples::all().len());
    let ids: BTreeSet<_> = examples::all().iter().map(|e| e.id).collect();
    assert_eq!(ids.len(), examples::all().len(), "ids are unique");
    let categories: Vec<_> = by_category()
        .into_iter()
        .map(|(c, list)| (c, list.len()))
        .collect();
    assert_eq!(
        categories.iter().map(|(c, _)| *c).collect::<Vec<_>>(),
        [
            "JSON-RPC 2.0 specification §7",
            "MCP: the message flow",
            "Common mistakes",
            "MCP error replies"
        ]
    );
    for (category, n) in categories {
        assert!(n >= 2, "{category} has {n} examples");
    }
}

#[test]
fn every_example_parses_into_documents() {
    for example in examples::all() {
        let report = check(example.text.as_bytes(), example.profile);
        assert!(!report.documents.is_empty(), "{}", example.id);
        let meant_broken =
            matches!(&example.expect, Expect::Rules(r) if r.contains(&"json-syntax"));
        let parse_errors = report
            .documents
            .iter()
            .filter(|d| d.kind == Kind::ParseError)
            .count();
        assert_eq!(
            parse_errors > 0,
            meant_broken,
            "{}: parse errors only where promised",
            example.id
        );
        assert!(
            !example.text.ends_with('\n') && !example.about.is_empty() && !example.title.is_empty(),
            "{}",
            example.id
        );
    }
}

#[test]
fn every_verdict_is_what_the_description_says() {
    for example in examples::all() {
        let found = rule_set(example.text, example.profile);
        match &example.expect {
            Expect::Clean => assert!(
                found.is_empty(),
                "{}: expected clean, found {found:?}",
                example.id
            ),
            Expect::Rules(rules) => {
                let expected: BTreeSet<&str> = rules.iter().copied().collect();
                assert_eq!(found, expected, "{}", example.id);
                for rule in rules {
                    assert!(
                        jsonrpc_playground::rpc::catalogue::find(rule).is_some(),
                        "{}: {rule} is a catalogue rule",
                        example.id
                    );
                }
            }
        }
    }
}

#[test]
fn valid_examples_under_mcp_are_valid_for_every_message_kind_they_show() {
    let flow = find("mcp-flow").unwrap();
    assert_eq!(flow.profile, Profile::Mcp(McpVersion::V2025_11_25));
    let report = check(flow.text.as_bytes(), flow.profile);
    let kinds: Vec<_> = report.documents.iter().map(|d| d.kind.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "request",
            "response",
            "notification",
            "request",
            "response",
            "request",
            "response"
        ]
    );
    let methods: Vec<_> = report
        .documents
        .iter()
        .filter_map(|d| d.method.as_deref())
        .collect();
    assert_eq!(
        methods,
        [
            "initialize",
            "notifications/initialized",
            "tools/list",
            "tools/call"
        ]
    );
    assert!(flow.text.ends_with(
        r#"{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"5"}]},"id":2}"#
    ));
}

#[test]
fn the_quiz_has_the_seed_answers() {
    let quiz = find("quiz-001").unwrap();
    let report = check(quiz.text.as_bytes(), quiz.profile);
    let verdicts: Vec<(&str, Vec<&str>)> = report
        .documents
        .iter()
        .map(|d| {
            (
                d.kind.as_str(),
                d.violations.iter().map(|v| v.rule.id).collect(),
            )
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            ("invalid", vec!["mcp-request-without-id"]),
            ("invalid", vec!["jsonrpc-not-2-0"]),
            ("invalid", vec!["mcp-param-missing"]),
            ("request", vec![]),
        ]
    );
}

#[test]
fn the_mistakes_break_the_rule_they_name_and_mcp_errors_carry_data() {
    for example in examples::all()
        .iter()
        .filter(|e| e.id.starts_with("mistake-"))
    {
        assert!(
            matches!(example.expect, Expect::Rules(_)),
            "{} is a mistake",
            example.id
        );
    }
    for example in examples::all()
        .iter()
        .filter(|e| e.id.starts_with("mcp-error-"))
    {
        let reply = example
            .text
            .lines()
            .find_map(|l| l.strip_prefix("<-- "))
            .unwrap();
        let reply: serde_json::Value = serde_json::from_str(reply).unwrap();
        assert!(
            reply["error"]["code"].is_i64() && reply["error"]["data"].is_object(),
            "{}: {reply}",
            example.id
        );
    }
    let with_data = examples::all()
        .iter()
        .filter(|e| e.text.contains("\"code\":-32602"))
        .count();
    assert!(with_data >= 3);
}

#[test]
fn the_spec_examples_are_all_there_in_order() {
    let spec: Vec<_> = examples::all()
        .iter()
        .filter(|e| e.id.starts_with("spec-"))
        .collect();
    assert_eq!(spec.len(), 12);
    let joined = spec.iter().map(|e| e.text).collect::<Vec<_>>().join("\n\n");
    assert_eq!(
        joined,
        include_str!("fixtures/spec_examples.txt").trim_end()
    );
    for example in spec {
        assert_eq!(example.profile, Profile::JsonRpc);
        assert!(
            check(example.text.as_bytes(), example.profile).transcript,
            "{}",
            example.id
        );
    }
}

#[test]
fn every_spec_transcript_has_no_conversation_errors() {
    for example in examples::all()
        .iter()
        .filter(|e| e.id.starts_with("spec-") || e.id.starts_with("mcp-"))
    {
        let found = rule_set(example.text, example.profile);
        let conversation: Vec<_> = found
            .iter()
            .filter(|r| CONVERSATION_RULES.contains(r))
            .collect();
        assert!(conversation.is_empty(), "{}: {conversation:?}", example.id);
    }
}

#[test]
fn the_mock_gives_the_replies_the_examples_show() {
    for example in examples::all()
        .iter()
        .filter(|e| e.id.starts_with("spec-") || e.id.starts_with("mcp-"))
    {
        let src = example.text.as_bytes();
        let shown: Vec<serde_json::Value> = split_stream(src)
            .segments
            .iter()
            .filter(|s| s.direction == Some(Direction::Server))
            .map(|s| s.parsed.as_ref().unwrap().root.to_serde())
            .collect();
        let replies: Vec<serde_json::Value> = MockServer::new()
            .replies(src)
            .iter()
            .map(|r| serde_json::from_str(r).unwrap())
            .collect();
        assert_eq!(replies, shown, "{}", example.id);
    }
}

#[test]
fn profiles_read() {
    assert_eq!(parse_profile("jsonrpc"), Some(Profile::JsonRpc));
    assert_eq!(
        parse_profile("mcp 2024-11-05"),
        Some(Profile::Mcp(McpVersion::V2024_11_05))
    );
    assert_eq!(
        parse_profile("mcp"),
        Some(Profile::Mcp(McpVersion::default()))
    );
    assert_eq!(parse_profile("mcp 1999"), None);
    assert_eq!(parse_profile("xml-rpc"), None);
}

#[test]
fn a_broken_library_is_an_error_with_its_line() {
    let e = parse("=== a\ncategory: c\ntitle: t\n---\n{}").unwrap_err();
    assert!(e.message.contains("about"), "{e:?}");
    assert_eq!(parse("stray").unwrap_err().line, 1);
    assert_eq!(parse("=== a\nprofile: soap\n---\n{}").unwrap_err().line, 2);
    assert!(parse("=== a\ncategory: c").is_err());
}
