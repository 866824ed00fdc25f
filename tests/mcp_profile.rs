//! The MCP profile: its catalogue examples, where its messages point, the shared params checker,
//! and the seeds' quiz (001, Lab 2) and common mistakes (002) under MCP.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;

use jsonrpc_playground::json::parse_document;
use jsonrpc_playground::rpc::mcp::{self, param_problems, ParamProblem};
use jsonrpc_playground::rpc::{check, McpVersion, Profile, Report, Severity};

const V2025_11_25: Profile = Profile::Mcp(McpVersion::V2025_11_25);
const V2026: Profile = Profile::Mcp(McpVersion::V2026_07_28);

fn rule_set(src: &str, profile: Profile) -> BTreeSet<&'static str> {
    check(src.as_bytes(), profile)
        .violations()
        .map(|v| v.rule.id)
        .collect()
}

fn rules(src: &str, profile: Profile) -> Vec<&'static str> {
    check(src.as_bytes(), profile)
        .violations()
        .map(|v| v.rule.id)
        .collect()
}

fn kinds(report: &Report) -> Vec<&'static str> {
    report.documents.iter().map(|d| d.kind.as_str()).collect()
}

/// (rule, path, source text of the span, message) of every violation.
fn located(src: &str, profile: Profile) -> Vec<(&'static str, String, String, String)> {
    check(src.as_bytes(), profile)
        .violations()
        .map(|v| {
            (
                v.rule.id,
                v.path.to_string(),
                src[v.span.start..v.span.end].to_string(),
                v.message.to_string(),
            )
        })
        .collect()
}

#[test]
fn every_mcp_rule_example_triggers_exactly_its_rule_and_its_fix_none() {
    let mut wrong = Vec::new();
    for rule in mcp::rules::RULES {
        let profile = Profile::Mcp(rule.example_version.unwrap_or_default());
        let bad = rule_set(rule.bad, profile);
        if bad != BTreeSet::from([rule.id]) {
            wrong.push(format!("{}: bad example triggers {bad:?}", rule.id));
        }
        let good = rule_set(rule.good, profile);
        if !good.is_empty() {
            wrong.push(format!("{}: good example triggers {good:?}", rule.id));
        }
        assert!(
            rule.id.starts_with("mcp-")
                && rule
                    .section
                    .url
                    .starts_with("https://modelcontextprotocol.io/specification/")
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn mcp_rules_have_the_severities_of_their_requirements() {
    let warnings: Vec<&str> = mcp::rules::RULES
        .iter()
        .filter(|r| r.severity == Severity::Warning)
        .map(|r| r.id)
        .collect();
    assert_eq!(
        warnings,
        [
            "mcp-method-unknown",
            "mcp-request-during-initialization",
            "mcp-meta-client-info",
            "mcp-input-response-unrequested"
        ]
    );
}

// ---- ids -------------------------------------------------------------------------------------

#[test]
fn null_id_is_an_error_that_replaces_the_json_rpc_warning() {
    let v = located(
        r#"{"jsonrpc": "2.0", "method": "ping", "id": null}"#,
        V2025_11_25,
    );
    assert_eq!(v.len(), 1);
    assert_eq!(
        (v[0].0, v[0].1.as_str(), v[0].2.as_str()),
        ("mcp-id-null", "/id", "null")
    );
    // Plain JSON-RPC keeps its warning.
    assert_eq!(
        rules(
            r#"{"jsonrpc": "2.0", "method": "ping", "id": null}"#,
            Profile::JsonRpc
        ),
        ["id-null-in-request"]
    );
}

#[test]
fn fractional_and_exponent_ids_are_errors_in_requests_and_responses() {
    for src in [
        r#"{"jsonrpc": "2.0", "method": "ping", "id": 1.0}"#,
        r#"{"jsonrpc": "2.0", "method": "ping", "id": 1e3}"#,
        r#"{"jsonrpc": "2.0", "result": {}, "id": 2.5}"#,
    ] {
        assert_eq!(rules(src, V2025_11_25), ["mcp-id-not-integer"], "{src}");
    }
    assert!(rules(
        r#"{"jsonrpc": "2.0", "method": "ping", "id": "abc"}"#,
        V2025_11_25
    )
    .is_empty());
}

#[test]
fn the_seed_notification_with_an_id_also_lacks_its_progress_token() {
    // ../shared/seeds/002: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":50},"id":1}
    let src =
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":50},"id":1}"#;
    let v = located(src, V2025_11_25);
    let ids: Vec<&str> = v.iter().map(|v| v.0).collect();
    assert_eq!(ids, ["mcp-param-missing", "mcp-notification-with-id"]);
    assert_eq!(v[1].1, "/id");
    assert_eq!(v[0].1, "/params");
    assert_eq!(
        v[0].2, r#"{"progress":50}"#,
        "a missing member points at the object lacking it"
    );
    assert!(v[0].3.contains("\"progressToken\""), "{}", v[0].3);
}

#[test]
fn a_notification_method_with_a_null_id_is_only_a_notification_with_an_id() {
    assert_eq!(
        rules(
            r#"{"jsonrpc": "2.0", "method": "notifications/initialized", "id": null}"#,
            V2025_11_25
        ),
        ["mcp-notification-with-id"]
    );
}

// ---- params ----------------------------------------------------------------------------------

#[test]
fn initialize_missing_client_name_points_at_client_info() {
    let src = r#"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"version": "1.0"}}}"#;
    let v = located(src, V2025_11_25);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(
        (v[0].0, v[0].1.as_str(), v[0].2.as_str()),
        (
            "mcp-param-missing",
            "/params/clientInfo",
            r#"{"version": "1.0"}"#
        )
    );
    assert_eq!(
        v[0].3,
        "\"/params/clientInfo\" is missing \"name\", which initialize requires (a string)"
    );
}

#[test]
fn initialize_needs_all_three_members() {
    let src = r#"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}"#;
    let v = located(src, V2025_11_25);
    let messages: Vec<&str> = v.iter().map(|v| v.3.as_str()).collect();
    assert_eq!(
        v.iter()
            .filter(|v| v.0 == "mcp-param-missing" && v.1 == "/params")
            .count(),
        3,
        "{messages:?}"
    );
    for member in ["capabilities", "clientInfo", "protocolVersion"] {
        assert!(
            messages
                .iter()
                .any(|m| m.contains(&format!("\"{member}\""))),
            "{member}: {messages:?}"
        );
    }
    let no_params = located(
        r#"{"jsonrpc": "2.0", "id": 1, "method": "initialize"}"#,
        V2025_11_25,
    );
    assert_eq!(no_params.len(), 1);
    assert_eq!(
        (no_params[0].0, no_params[0].1.as_str()),
        ("mcp-param-missing", "")
    );
    assert!(
        no_params[0].3.starts_with("initialize needs \"params\""),
        "{}",
        no_params[0].3
    );
}

#[test]
fn wrong_types_point_at_the_value() {
    let cases = [
        (
            r#"{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": 42}}"#,
            "/params/name",
            "42",
            "\"/params/name\" must be a string, found a number",
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": ["file:///a"]}}"#,
            "/params/uri",
            r#"["file:///a"]"#,
            "\"/params/uri\" must be a string, found an array",
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 1, "method": "prompts/get", "params": {"name": "p", "arguments": []}}"#,
            "/params/arguments",
            "[]",
            "\"/params/arguments\" must be an object, found an array",
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": 1}}}"#,
            "/params/clientInfo/version",
            "1",
            "\"/params/clientInfo/version\" must be a string, found a number",
        ),
    ];
    for (src, path, text, message) in cases {
        let v = located(src, V2025_11_25);
        assert_eq!(
            v,
            [(
                "mcp-param-wrong-type",
                path.to_string(),
                text.to_string(),
                message.to_string()
            )],
            "{src}"
        );
    }
}

#[test]
fn required_params_of_resources_read_and_prompts_get() {
    assert_eq!(
        rules(
            r#"{"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {}}"#,
            V2025_11_25
        ),
        ["mcp-param-missing"]
    );
    assert_eq!(
        rules(
            r#"{"jsonrpc": "2.0", "id": 1, "method": "prompts/get", "params": {"arguments": {}}}"#,
            V2025_11_25
        ),
        ["mcp-param-missing"]
    );
    assert!(rules(r#"{"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": "file:///a"}}"#, V2025_11_25).is_empty());
}

#[test]
fn integer_params_accept_integral_numbers_only() {
    let call = |max: &str| {
        format!(
            r#"{{"jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage", "params": {{"messages": [], "maxTokens": {max}}}}}"#
        )
    };
    assert!(rules(&call("100"), V2025_11_25).is_empty());
    assert_eq!(rules(&call("100.5"), V2025_11_25), ["mcp-param-wrong-type"]);
}

#[test]
fn param_problems_paths_are_relative_to_params() {
    let src = br#"{"clientInfo": {"name": 7}, "capabilities": {}}"#;
    let (parsed, _) = parse_document(src, 0).unwrap();
    let problems = param_problems("initialize", Some(&parsed.root), McpVersion::V2025_11_25);
    let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(
        paths,
        ["/clientInfo/name", "/clientInfo", ""],
        "{problems:?}"
    );
    assert!(problems[1].message.contains("\"version\""));
    assert!(problems[2].message.contains("\"protocolVersion\""));
}

#[test]
fn param_problems_for_absent_array_and_unknown() {
    assert_eq!(
        param_problems("tools/call", None, McpVersion::V2025_11_25),
        [ParamProblem {
            path: String::new(),
            message: "tools/call needs \"params\": an object with \"name\" (MCP 2025-11-25)".into()
        }]
    );
    let (array, _) = parse_document(b"[1]", 0).unwrap();
    let p = param_problems("tools/call", Some(&array.root), McpVersion::V2025_11_25);
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].path, "");
    assert!(param_problems("tools/run", Some(&array.root), McpVersion::V2025_11_25).is_empty());
    assert!(param_problems("tools/list", None, McpVersion::V2025_11_25).is_empty());
}

#[test]
fn positional_params_are_an_mcp_error_even_for_unknown_methods() {
    assert_eq!(
        rules(
            r#"{"jsonrpc": "2.0", "id": 1, "method": "custom/thing", "params": [1]}"#,
            V2025_11_25
        ),
        ["mcp-method-unknown", "mcp-params-not-object"]
    );
    // A scalar is JSON-RPC's own error, said once.
    assert_eq!(
        rules(
            r#"{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": "x"}"#,
            V2025_11_25
        ),
        ["params-not-structured"]
    );
}

// ---- methods and versions --------------------------------------------------------------------

#[test]
fn unknown_methods_say_where_they_exist_or_what_was_meant() {
    let message = |src: &str, profile| {
        located(src, profile)
            .into_iter()
            .find(|v| v.0 == "mcp-method-unknown")
            .unwrap()
            .3
    };
    let m = message(
        r#"{"jsonrpc": "2.0", "method": "elicitation/create", "params": {"message": "m", "requestedSchema": {}}, "id": 1}"#,
        Profile::Mcp(McpVersion::V2024_11_05),
    );
    assert!(m.contains("exists in 2025-06-18, 2025-11-25"), "{m}");
    let m = message(
        r#"{"jsonrpc": "2.0", "method": "initialized"}"#,
        V2025_11_25,
    );
    assert!(m.contains("did you mean notifications/initialized?"), "{m}");
}

#[test]
fn version_2026_has_no_initialize_and_asks_for_meta() {
    let init = r#"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2026-07-28", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}"#;
    let v = located(init, V2026);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].0, "mcp-method-removed");
    assert!(
        v[0].3.contains("server/discover") && v[0].3.contains("params._meta"),
        "{}",
        v[0].3
    );

    let discover = located(
        r#"{"jsonrpc": "2.0", "id": 1, "method": "server/discover"}"#,
        V2026,
    );
    assert_eq!(discover.len(), 1);
    assert_eq!(
        (discover[0].0, discover[0].1.as_str()),
        ("mcp-meta-required", "")
    );

    let no_meta = located(
        r#"{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t"}}"#,
        V2026,
    );
    assert_eq!(no_meta.len(), 1);
    assert_eq!(
        (no_meta[0].0, no_meta[0].1.as_str()),
        ("mcp-meta-required", "/params")
    );

    let bad_caps = r#"{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": true, "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"}}}}"#;
    let v = located(bad_caps, V2026);
    assert_eq!(v.len(), 1);
    assert_eq!(
        (v[0].0, v[0].1.as_str(), v[0].2.as_str()),
        (
            "mcp-meta-required",
            "/params/_meta/io.modelcontextprotocol~1clientCapabilities",
            "true"
        )
    );

    let sampling = r#"{"jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}}"#;
    let v = located(sampling, V2026);
    assert_eq!(v.len(), 1);
    assert!(v[0].3.contains("input_required"), "{}", v[0].3);
    // Notifications carry no required _meta.
    assert!(rules(
        r#"{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}"#,
        V2026
    )
    .is_empty());
}

#[test]
fn batches_only_in_2025_03_26() {
    let batch = r#"[{"jsonrpc": "2.0", "method": "tools/list", "id": 1}, {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 0}}]"#;
    assert!(rules(batch, Profile::Mcp(McpVersion::V2025_03_26)).is_empty());
    for v in [
        McpVersion::V2024_11_05,
        McpVersion::V2025_06_18,
        McpVersion::V2025_11_25,
        McpVersion::V2026_07_28,
    ] {
        let hit = located(batch, Profile::Mcp(v));
        assert_eq!(
            hit.iter()
                .filter(|h| h.0 == "mcp-batch-not-supported")
                .count(),
            1,
            "{v}: {hit:?}"
        );
        assert_eq!(
            hit.iter()
                .find(|h| h.0 == "mcp-batch-not-supported")
                .unwrap()
                .1,
            ""
        );
    }
}

#[test]
fn wrong_direction_in_a_transcript() {
    let src = "--> {\"jsonrpc\": \"2.0\", \"method\": \"sampling/createMessage\", \"params\": {\"messages\": [], \"maxTokens\": 10}, \"id\": 1}\n<-- {\"jsonrpc\": \"2.0\", \"result\": {\"role\": \"assistant\", \"content\": {\"type\": \"text\", \"text\": \"hi\"}, \"model\": \"m\"}, \"id\": 1}";
    let v = located(src, V2025_11_25);
    assert_eq!(v.len(), 1);
    assert_eq!(
        (v[0].0, v[0].1.as_str(), v[0].2.as_str()),
        (
            "mcp-wrong-direction",
            "/method",
            "\"sampling/createMessage\""
        )
    );
    assert_eq!(v[0].3, "sampling/createMessage is sent by the server in MCP 2025-11-25, but here the client sends it");
    // ping goes both ways.
    assert!(rules("<-- {\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"id\": 1}\n--> {\"jsonrpc\": \"2.0\", \"result\": {}, \"id\": 1}", V2025_11_25).is_empty());
}

// ---- sessions --------------------------------------------------------------------------------

const HANDSHAKE: &str = "--> {\"jsonrpc\": \"2.0\", \"method\": \"initialize\", \"params\": {\"protocolVersion\": \"2025-11-25\", \"capabilities\": {}, \"clientInfo\": {\"name\": \"c\", \"version\": \"1\"}}, \"id\": 1}\n<-- {\"jsonrpc\": \"2.0\", \"result\": {\"protocolVersion\": \"2025-11-25\", \"capabilities\": {}, \"serverInfo\": {\"name\": \"s\", \"version\": \"1\"}}, \"id\": 1}\n";

#[test]
fn an_id_reused_while_pending_is_only_the_mcp_error() {
    let src = format!(
        "{HANDSHAKE}--> {{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}}\n--> {{\"jsonrpc\": \"2.0\", \"method\": \"tools/list\", \"id\": 2}}\n--> {{\"jsonrpc\": \"2.0\", \"method\": \"prompts/list\", \"id\": 2}}\n<-- {{\"jsonrpc\": \"2.0\", \"result\": {{\"tools\": []}}, \"id\": 2}}\n<-- {{\"jsonrpc\": \"2.0\", \"result\": {{\"prompts\": []}}, \"id\": 2}}"
    );
    let v = located(&src, V2025_11_25);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(
        (v[0].0, v[0].1.as_str(), v[0].2.as_str()),
        ("mcp-id-reused", "/id", "2")
    );
}

#[test]
fn the_two_sides_have_their_own_ids() {
    let src = format!(
        "{HANDSHAKE}--> {{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}}\n<-- {{\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"id\": 1}}\n--> {{\"jsonrpc\": \"2.0\", \"result\": {{}}, \"id\": 1}}"
    );
    assert!(rules(&src, V2025_11_25).is_empty());
}

#[test]
fn a_transcript_without_initialize_is_the_middle_of_a_session() {
    let src = "--> {\"jsonrpc\": \"2.0\", \"method\": \"tools/list\", \"id\": 7}\n<-- {\"jsonrpc\": \"2.0\", \"result\": {\"tools\": []}, \"id\": 7}";
    assert!(rules(src, V2025_11_25).is_empty());
}

#[test]
fn initialized_before_the_initialize_result_is_out_of_order() {
    let src = "--> {\"jsonrpc\": \"2.0\", \"method\": \"initialize\", \"params\": {\"protocolVersion\": \"2025-11-25\", \"capabilities\": {}, \"clientInfo\": {\"name\": \"c\", \"version\": \"1\"}}, \"id\": 1}\n--> {\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}\n<-- {\"jsonrpc\": \"2.0\", \"result\": {\"protocolVersion\": \"2025-11-25\", \"capabilities\": {}, \"serverInfo\": {\"name\": \"s\", \"version\": \"1\"}}, \"id\": 1}";
    let v = located(src, V2025_11_25);
    let ids: Vec<&str> = v.iter().map(|v| v.0).collect();
    assert_eq!(ids, ["mcp-initialized-order"]);
    assert!(v[0].3.contains("before the server has answered initialize"));
}

#[test]
fn a_server_request_before_initialized_is_a_warning() {
    let src = format!(
        "{HANDSHAKE}<-- {{\"jsonrpc\": \"2.0\", \"method\": \"roots/list\", \"id\": 1}}\n--> {{\"jsonrpc\": \"2.0\", \"result\": {{\"roots\": []}}, \"id\": 1}}\n--> {{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}}"
    );
    let report = check(src.as_bytes(), V2025_11_25);
    let v: Vec<_> = report
        .violations()
        .map(|v| (v.rule.id, v.severity))
        .collect();
    assert_eq!(
        v,
        [("mcp-request-during-initialization", Severity::Warning)]
    );
}

#[test]
fn version_2026_has_no_session_checks() {
    let meta = r#""_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"}}"#;
    let src = format!(
        "--> {{\"jsonrpc\": \"2.0\", \"method\": \"tools/list\", \"params\": {{{meta}}}, \"id\": 1}}\n<-- {{\"jsonrpc\": \"2.0\", \"result\": {{\"resultType\": \"complete\", \"tools\": [], \"ttlMs\": 0, \"cacheScope\": \"private\"}}, \"id\": 1}}\n--> {{\"jsonrpc\": \"2.0\", \"method\": \"tools/list\", \"params\": {{{meta}}}, \"id\": 1}}\n<-- {{\"jsonrpc\": \"2.0\", \"result\": {{\"resultType\": \"complete\", \"tools\": [], \"ttlMs\": 0, \"cacheScope\": \"private\"}}, \"id\": 1}}"
    );
    assert!(rules(&src, V2026).is_empty());
}

// ---- seeds -----------------------------------------------------------------------------------

/// ../shared/seeds/001 "Lab 2 -- Spot the Invalid Messages": 1 lacks its id, 2 says "1.0",
/// 3 is a tools/call without params.name, 4 is valid.
#[test]
fn seed_001_quiz_under_mcp() {
    let quiz = [
        r#"{"jsonrpc": "2.0", "method": "tools/list", "params": {}}"#,
        r#"{"jsonrpc": "1.0", "id": 2, "method": "tools/list", "params": {}}"#,
        r#"{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"arguments": {"a": 2, "b": 3}}}"#,
        r#"{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 3}}}"#,
    ];
    let expected: [(&str, &[&str]); 4] = [
        ("invalid", &["mcp-request-without-id"]),
        ("invalid", &["jsonrpc-not-2-0"]),
        ("invalid", &["mcp-param-missing"]),
        ("request", &[]),
    ];
    for (src, (kind, ids)) in quiz.iter().zip(expected) {
        let report = check(src.as_bytes(), V2025_11_25);
        assert_eq!(kinds(&report), [kind], "{src}");
        assert_eq!(rules(src, V2025_11_25), ids, "{src}");
    }
    // The quiz as one stream gives the same verdicts, document by document.
    let report = check(quiz.join("\n").as_bytes(), V2025_11_25);
    assert_eq!(kinds(&report), ["invalid", "invalid", "invalid", "request"]);
    let third = &report.documents[2].violations[0];
    assert_eq!(third.path, "/params");
    assert!(third.message.contains("\"name\""), "{}", third.message);
    // The first is a notification by shape: it was meant as a request.
    assert_eq!(
        report.documents[0].intent.map(|k| k.as_str()),
        Some("notification")
    );
}

/// ../shared/seeds/002 "Common Mistakes", under the MCP profile.
#[test]
fn seed_002_mistakes_under_mcp() {
    let p = V2025_11_25;
    // 1. notification with id (the article's own example also lacks progressToken).
    assert_eq!(
        rules(
            r#"{"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t", "progress": 50}, "id": 1}"#,
            p
        ),
        ["mcp-notification-with-id"]
    );
    assert!(rules(r#"{"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t", "progress": 50}}"#, p).is_empty());
    // 2. wrong version, and the wrong field name.
    assert_eq!(
        rules(r#"{"jsonrpc": "1.0", "method": "tools/list", "id": 1}"#, p),
        ["jsonrpc-not-2-0"]
    );
    assert_eq!(
        rules(r#"{"json-rpc": "2.0", "method": "tools/list", "id": 1}"#, p),
        ["jsonrpc-missing"]
    );
    assert!(rules(r#"{"jsonrpc": "2.0", "method": "tools/list", "id": 1}"#, p).is_empty());
    // 3. result and error.
    assert_eq!(
        rules(
            r#"{"jsonrpc": "2.0", "result": {}, "error": {"code": -32603, "message": "x"}, "id": 1}"#,
            p
        ),
        ["result-and-error"]
    );
    // 4. error as a string.
    assert_eq!(
        rules(
            r#"{"jsonrpc": "2.0", "error": "Something went wrong", "id": 1}"#,
            p
        ),
        ["error-not-object"]
    );
    assert!(rules(r#"{"jsonrpc": "2.0", "error": {"code": -32603, "message": "Something went wrong"}, "id": 1}"#, p).is_empty());
    // 5. mismatched ids ("test" is no MCP method: a warning beside the two errors).
    let mismatched = "--> {\"jsonrpc\": \"2.0\", \"method\": \"test\", \"id\": 5}\n<-- {\"jsonrpc\": \"2.0\", \"result\": {}, \"id\": 10}";
    assert_eq!(
        rule_set(mismatched, p),
        BTreeSet::from([
            "mcp-method-unknown",
            "request-unanswered",
            "response-unmatched"
        ])
    );
    let matched = "--> {\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"id\": 5}\n<-- {\"jsonrpc\": \"2.0\", \"result\": {}, \"id\": 5}";
    assert!(rules(matched, p).is_empty());
}
