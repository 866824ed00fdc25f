//! OpenRPC documents drive the validator: the OpenRPC project's example documents and a real,
//! large API (Starknet's node API), vendored in tests/data/openrpc. For each, the example calls
//! pass and planted ones fail with the right rule at the right pointer; the meta-schema check of a
//! broken document is located; `jrpc check --openrpc` does the same on the command line.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;

use jsonrpc_playground::json::{LineIndex, Position};
use jsonrpc_playground::openrpc::{self, OpenRpc, ParamStructure};
use jsonrpc_playground::rpc::Profile;
use serde_json::{json, Map, Value};

mod common;
use common::{jrpc, Server};

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/openrpc")
        .join(path)
}

fn load(path: &str) -> OpenRpc {
    let src = std::fs::read(data(path)).unwrap();
    OpenRpc::load(&src).unwrap_or_else(|e| panic!("{path} does not load: {:#?}", e.violations))
}

/// Every (rule, pointer) the input breaks under the document, JSON-RPC's rules included.
fn findings(doc: &OpenRpc, input: &str) -> Vec<(&'static str, String)> {
    openrpc::check_messages(doc, input.as_bytes(), Profile::JsonRpc)
        .violations()
        .map(|v| (v.rule.id, v.path.to_string()))
        .collect()
}

const EXAMPLE_DOCUMENTS: [&str; 8] = [
    "examples/api-with-examples-openrpc.json",
    "examples/empty-openrpc.json",
    "examples/link-example-openrpc.json",
    "examples/metrics-openrpc.json",
    "examples/params-by-name-petstore-openrpc.json",
    "examples/petstore-expanded-openrpc.json",
    "examples/petstore-openrpc.json",
    "examples/simple-math-openrpc.json",
];

#[test]
fn every_vendored_document_loads() {
    for path in EXAMPLE_DOCUMENTS
        .iter()
        .chain(&["starknet/starknet_api_openrpc.json"])
    {
        load(path);
    }
    assert_eq!(
        load("starknet/starknet_api_openrpc.json").methods().len(),
        25
    );
}

/// The call and reply of each example pairing, as a transcript: params by position, or by name
/// (the method's param names in order) when the method takes them by name; a notification when
/// the method has no result.
fn example_transcripts(doc: &OpenRpc) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (n, m) in doc.methods().iter().enumerate() {
        for example in &m.examples {
            let params = if m.param_structure == ParamStructure::ByName {
                let mut named = Map::new();
                for (p, (_, value)) in m.params.iter().zip(&example.params) {
                    named.insert(p.name.clone(), value.clone());
                }
                Value::Object(named)
            } else {
                Value::Array(example.params.iter().map(|(_, v)| v.clone()).collect())
            };
            let mut call = json!({"jsonrpc": "2.0", "method": m.name, "params": params});
            let mut text = String::new();
            if m.result.is_some() {
                call["id"] = json!(n);
            }
            text.push_str(&format!("--> {call}\n"));
            if let (Some(result), Some(_)) = (&example.result, &m.result) {
                text.push_str(&format!(
                    "<-- {}\n",
                    json!({"jsonrpc": "2.0", "result": result, "id": n})
                ));
            }
            out.push((format!("{}: {}", m.name, example.name), text));
        }
    }
    out
}

#[test]
fn every_example_pairing_of_the_example_documents_passes() {
    let mut count = 0;
    for path in EXAMPLE_DOCUMENTS {
        let doc = load(path);
        for (name, transcript) in example_transcripts(&doc) {
            let found = findings(&doc, &transcript);
            assert!(found.is_empty(), "{path} {name}: {found:?}\n{transcript}");
            count += 1;
        }
    }
    // simple-math 4, petstore 3, params-by-name 1, api-with-examples 2, metrics 1.
    assert_eq!(count, 11);
}

/// (document, input, the one rule it breaks, at this pointer).
const PLANTED: &[(&str, &str, &str, &str)] = &[
    ("examples/simple-math-openrpc.json", r#"{"jsonrpc": "2.0", "method": "additon", "params": [2, 2], "id": 1}"#, "openrpc-method-unknown", "/method"),
    ("examples/simple-math-openrpc.json", r#"{"jsonrpc": "2.0", "method": "addition", "params": [2, "2"], "id": 1}"#, "openrpc-param-invalid", "/params/1"),
    ("examples/simple-math-openrpc.json", r#"{"jsonrpc": "2.0", "method": "addition", "params": [2, 2, 2], "id": 1}"#, "openrpc-param-unexpected", "/params/2"),
    ("examples/simple-math-openrpc.json", "--> {\"jsonrpc\": \"2.0\", \"method\": \"subtraction\", \"params\": [4, 2], \"id\": 7}\n<-- {\"jsonrpc\": \"2.0\", \"result\": 2.5, \"id\": 7}", "openrpc-result-invalid", "/result"),
    ("examples/petstore-openrpc.json", r#"{"jsonrpc": "2.0", "method": "create_pet", "params": [], "id": 1}"#, "openrpc-param-missing", "/params"),
    ("examples/petstore-openrpc.json", r#"{"jsonrpc": "2.0", "method": "list_pets", "params": [0], "id": 1}"#, "openrpc-param-invalid", "/params/0"),
    ("examples/petstore-openrpc.json", "--> {\"jsonrpc\": \"2.0\", \"method\": \"get_pet\", \"params\": [7], \"id\": 1}\n<-- {\"jsonrpc\": \"2.0\", \"result\": {\"id\": 7}, \"id\": 1}", "openrpc-result-invalid", "/result"),
    ("examples/petstore-openrpc.json", "--> {\"jsonrpc\": \"2.0\", \"method\": \"get_pet\", \"params\": [7], \"id\": 1}\n<-- {\"jsonrpc\": \"2.0\", \"error\": {\"code\": 404, \"message\": \"no pet\"}, \"id\": 1}", "openrpc-error-undeclared", "/error/code"),
    ("examples/params-by-name-petstore-openrpc.json", r#"{"jsonrpc": "2.0", "method": "list_pets", "params": [5], "id": 1}"#, "openrpc-params-by-name", "/params"),
    ("examples/params-by-name-petstore-openrpc.json", r#"{"jsonrpc": "2.0", "method": "list_pets", "params": {"limit": 5, "offset": 2}, "id": 1}"#, "openrpc-param-unexpected", "/params/offset"),
    ("examples/params-by-name-petstore-openrpc.json", r#"{"jsonrpc": "2.0", "method": "get_pet", "params": {"petId": "7"}, "id": 1}"#, "openrpc-params-by-position", "/params"),
    ("examples/petstore-expanded-openrpc.json", r#"{"jsonrpc": "2.0", "method": "get_pet_by_id", "id": 1}"#, "openrpc-param-missing", ""),
    ("examples/petstore-expanded-openrpc.json", r#"{"jsonrpc": "2.0", "method": "create_pet", "params": [{"tag": "cat"}], "id": 1}"#, "openrpc-param-invalid", "/params/0"),
    ("examples/link-example-openrpc.json", r#"{"jsonrpc": "2.0", "method": "get_pull_requests_by_repository", "params": ["ann", "repo", "closed"], "id": 1}"#, "openrpc-param-invalid", "/params/2"),
    ("examples/metrics-openrpc.json", r#"{"jsonrpc": "2.0", "method": "link_clicked", "params": ["https://example.org", "home"], "id": 1}"#, "openrpc-notification-only", "/id"),
    ("examples/api-with-examples-openrpc.json", r#"{"jsonrpc": "2.0", "method": "get_versions"}"#, "openrpc-result-unheard", "/method"),
    ("examples/empty-openrpc.json", r#"[{"jsonrpc": "2.0", "method": "anything", "id": 1}]"#, "openrpc-method-unknown", "/0/method"),
];

#[test]
fn planted_violations_of_the_example_documents_are_found_at_their_pointer() {
    for (path, input, rule, pointer) in PLANTED {
        let found = findings(&load(path), input);
        assert_eq!(found, [(*rule, pointer.to_string())], "{path}\n{input}");
    }
}

/// The Starknet node API: calls and replies as a client and a node exchange them.
const STARKNET_CLEAN: &str = r#"--> {"jsonrpc": "2.0", "method": "starknet_specVersion", "id": 1}
<-- {"jsonrpc": "2.0", "result": "0.10.4", "id": 1}
--> {"jsonrpc": "2.0", "method": "starknet_blockNumber", "params": [], "id": 2}
<-- {"jsonrpc": "2.0", "result": 812345, "id": 2}
--> {"jsonrpc": "2.0", "method": "starknet_getStorageAt", "params": ["0x49d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7", "0x5", "latest"], "id": 3}
<-- {"jsonrpc": "2.0", "result": "0x1a2b", "id": 3}
--> {"jsonrpc": "2.0", "method": "starknet_getBlockWithTxHashes", "params": {"block_id": {"block_number": 100}}, "id": 4}
<-- {"jsonrpc": "2.0", "error": {"code": 24, "message": "Block not found"}, "id": 4}
--> {"jsonrpc": "2.0", "method": "starknet_getNonce", "params": ["latest", "0x1"], "id": 5}
<-- {"jsonrpc": "2.0", "result": "0x0", "id": 5}
"#;

#[test]
fn starknet_messages_that_follow_the_api_pass() {
    let found = findings(&load("starknet/starknet_api_openrpc.json"), STARKNET_CLEAN);
    assert!(found.is_empty(), "{found:?}");
}

const STARKNET_PLANTED: &[(&str, &str, &str)] = &[
    (r#"{"jsonrpc": "2.0", "method": "starknet_getStorageAt", "params": ["0x49d3", "0x5", "newest"], "id": 3}"#, "openrpc-param-invalid", "/params/2"),
    (r#"{"jsonrpc": "2.0", "method": "starknet_getStorageAt", "params": ["49d3", "0x5", "latest"], "id": 3}"#, "openrpc-param-invalid", "/params/0"),
    (r#"{"jsonrpc": "2.0", "method": "starknet_getStorageAt", "params": ["0x49d3", "0x5"], "id": 3}"#, "openrpc-param-missing", "/params"),
    (r#"{"jsonrpc": "2.0", "method": "starknet_getTransactionStatus", "params": ["0x1"], "id": 3}"#, "openrpc-params-by-name", "/params"),
    (r#"{"jsonrpc": "2.0", "method": "starknet_blockNumbr", "id": 3}"#, "openrpc-method-unknown", "/method"),
    ("--> {\"jsonrpc\": \"2.0\", \"method\": \"starknet_blockNumber\", \"id\": 2}\n<-- {\"jsonrpc\": \"2.0\", \"result\": -1, \"id\": 2}", "openrpc-result-invalid", "/result"),
    ("--> {\"jsonrpc\": \"2.0\", \"method\": \"starknet_blockNumber\", \"id\": 2}\n<-- {\"jsonrpc\": \"2.0\", \"error\": {\"code\": 24, \"message\": \"Block not found\"}, \"id\": 2}", "openrpc-error-undeclared", "/error/code"),
];

#[test]
fn planted_violations_of_the_starknet_api_are_found_at_their_pointer() {
    let doc = load("starknet/starknet_api_openrpc.json");
    for (input, rule, pointer) in STARKNET_PLANTED {
        let found = findings(&doc, input);
        assert_eq!(found, [(*rule, pointer.to_string())], "{input}");
    }
}

#[test]
fn a_method_the_document_lacks_is_named_with_the_nearest_ones() {
    let doc = load("starknet/starknet_api_openrpc.json");
    let report = openrpc::check_messages(
        &doc,
        br#"{"jsonrpc": "2.0", "method": "starknet_getBlockWithTx", "id": 1}"#,
        Profile::JsonRpc,
    );
    let message = report.violations().next().unwrap().message.to_string();
    assert!(
        message.contains("nearest: starknet_getBlockWithTxs, starknet_getBlockWithTxHashes"),
        "{message}"
    );
}

#[test]
fn a_param_finding_says_where_the_method_and_schema_are_in_the_document() {
    let src = std::fs::read(data("examples/simple-math-openrpc.json")).unwrap();
    let doc = OpenRpc::load(&src).unwrap();
    let report = openrpc::check_messages(
        &doc,
        br#"{"jsonrpc": "2.0", "method": "subtraction", "params": [1, "x"], "id": 1}"#,
        Profile::JsonRpc,
    );
    let place = report.violations().next().unwrap().place.clone().unwrap();
    let method = place.method.unwrap();
    assert_eq!(method.pointer, "/methods/1");
    let lines = LineIndex::new(&src);
    let text = String::from_utf8_lossy(&src);
    let at = text.find("\"name\": \"subtraction\"").unwrap();
    // The method object opens on the line before its name.
    assert_eq!(method.line + 1, lines.position(&src, at).line);
    let schema = place.schema.unwrap();
    // The failing schema itself, where the param's schema refers to it.
    assert_eq!(schema.pointer, "/components/schemas/Integer");
}

fn position(src: &str, needle: &str) -> Position {
    let at = src.find(needle).unwrap();
    LineIndex::new(src.as_bytes()).position(src.as_bytes(), at)
}

#[test]
fn a_document_breaking_the_meta_schema_is_reported_at_the_member() {
    let src = "{\n  \"openrpc\": \"1.3.2\",\n  \"info\": {\"title\": \"Pets\", \"version\": 1},\n  \"methods\": []\n}\n";
    let e = OpenRpc::load(src.as_bytes()).unwrap_err();
    assert_eq!(e.violations.len(), 1, "{:#?}", e.violations);
    let v = &e.violations[0];
    assert_eq!(
        (v.rule.id, &*v.path),
        ("openrpc-document-invalid", "/info/version")
    );
    let at = LineIndex::new(src.as_bytes()).position(src.as_bytes(), v.span.start);
    assert_eq!(at, position(src, "1}"));
    assert_eq!((at.line, at.column), (3, 40));
}

#[test]
fn a_dangling_reference_is_reported_at_its_ref() {
    let src = r##"{"openrpc": "1.3.2", "info": {"title": "t", "version": "1"}, "methods": [{"name": "m", "params": [{"name": "x", "schema": {"$ref": "#/components/schemas/Nope"}}]}]}"##;
    let e = OpenRpc::load(src.as_bytes()).unwrap_err();
    let found: Vec<_> = e
        .violations
        .iter()
        .map(|v| (v.rule.id, v.path.to_string()))
        .collect();
    assert_eq!(
        found,
        [(
            "openrpc-reference-unresolved",
            "/methods/0/params/0/schema/$ref".to_string()
        )]
    );
    assert_eq!(
        &src[e.violations[0].span.start..e.violations[0].span.end],
        "\"#/components/schemas/Nope\""
    );
}

#[test]
fn a_reference_cycle_is_reported_at_its_ref() {
    let src = r##"{"openrpc": "1.3.2", "info": {"title": "t", "version": "1"}, "methods": [{"name": "m", "params": [{"name": "x", "schema": {"$ref": "#/components/schemas/A"}}]}], "components": {"schemas": {"A": {"$ref": "#/components/schemas/B"}, "B": {"$ref": "#/components/schemas/A"}}}}"##;
    let e = OpenRpc::load(src.as_bytes()).unwrap_err();
    assert!(
        e.violations
            .iter()
            .all(|v| v.rule.id == "openrpc-reference-cycle"),
        "{:#?}",
        e.violations
    );
    assert!(!e.violations.is_empty());
}

#[test]
fn a_document_that_is_not_json_is_a_located_syntax_error() {
    let e = OpenRpc::load(b"{\"openrpc\": \"1.3.2\",}").unwrap_err();
    assert_eq!(e.violations[0].rule.id, "json-syntax");
    assert_eq!(e.violations[0].span.start, 20);
}

const STARKNET: &str = "tests/data/openrpc/starknet/starknet_api_openrpc.json";

#[test]
fn jrpc_check_openrpc_passes_the_starknet_transcript() {
    let out = jrpc(&["check", "--openrpc", STARKNET], STARKNET_CLEAN.as_bytes());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn jrpc_check_openrpc_reports_a_planted_violation_with_its_place_in_the_document() {
    let input = br#"{"jsonrpc": "2.0", "method": "starknet_getStorageAt", "params": ["0x49d3", "0x5", "newest"], "id": 3}"#;
    let out = jrpc(&["check", "--openrpc", STARKNET], input);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("error[openrpc-param-invalid]"), "{text}");
    assert!(text.contains("= at /params/2"), "{text}");
    assert!(text.contains("method in the OpenRPC document at"), "{text}");
    let out = jrpc(&["check", "--format", "json", "--openrpc", STARKNET], input);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let v = &report["documents"][0]["violations"][0];
    assert_eq!(v["rule"], "openrpc-param-invalid");
    assert_eq!(v["path"], "/params/2");
    assert_eq!(v["openrpc"]["method"]["pointer"], "/methods/5");
    assert!(v["openrpc"]["method"]["line"].as_u64().unwrap() > 1);
    assert!(v["openrpc"]["schema"]["pointer"]
        .as_str()
        .unwrap()
        .starts_with("/"));
}

#[test]
fn jrpc_check_openrpc_with_a_broken_document_shows_its_findings_and_exits_2() {
    let dir = std::env::temp_dir().join(format!("jrpc-openrpc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let doc = dir.join("broken.json");
    std::fs::write(
        &doc,
        "{\n  \"openrpc\": \"1.3.2\",\n  \"info\": {\"title\": \"Pets\"},\n  \"methods\": []\n}\n",
    )
    .unwrap();
    let out = jrpc(
        &["check", "--openrpc", doc.to_str().unwrap()],
        br#"{"jsonrpc": "2.0", "method": "m", "id": 1}"#,
    );
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("error[openrpc-document-invalid]"), "{text}");
    assert!(text.contains("broken.json:3:11"), "{text}");
    assert!(text.contains("= at /info"), "{text}");
}

#[test]
fn the_engines_meta_schema_is_upstreams_with_the_documented_edits() {
    let upstream: Value =
        serde_json::from_slice(&std::fs::read(data("meta-schema.json")).unwrap()).unwrap();
    let ours: Value =
        serde_json::from_str(include_str!("../engine/src/openrpc/meta-schema.json")).unwrap();
    let mut edited = upstream.clone();
    edited["$schema"] = json!("http://json-schema.org/draft-07/schema#");
    let openrpc = edited["properties"]["openrpc"].as_object_mut().unwrap();
    openrpc.remove("enum");
    openrpc.insert("pattern".into(), json!("^1\\.[0-9]+\\.[0-9]+(-rc[0-9]+)?$"));
    edited["definitions"]["JSONSchema"] =
        json!({"$ref": "http://json-schema.org/draft-07/schema#"});
    edited["definitions"]["referenceObject"]["properties"]["$ref"] =
        json!({"type": "string", "format": "uri-reference"});
    edited["definitions"]["serverObject"]["properties"]["url"]
        .as_object_mut()
        .unwrap()
        .remove("format");
    assert_eq!(ours, edited);
}

/// `subtract` as the document says it is: two integers in, a *string* out (the mock answers an
/// integer, so its reply breaks the document).
const SUBTRACT_DOCUMENT: &str = r#"{"openrpc": "1.3.2", "info": {"title": "Spec examples", "version": "1"}, "methods": [
  {"name": "subtract", "params": [{"name": "minuend", "required": true, "schema": {"type": "integer"}},
    {"name": "subtrahend", "required": true, "schema": {"type": "integer"}}],
   "result": {"name": "difference", "schema": {"type": "string"}}}]}"#;

#[test]
fn jrpc_tap_openrpc_checks_live_calls_and_replies_against_the_document() {
    let dir = std::env::temp_dir().join(format!("jrpc-openrpc-tap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let doc = dir.join("subtract.json");
    std::fs::write(&doc, SUBTRACT_DOCUMENT).unwrap();
    let session =
        b"{\"jsonrpc\": \"2.0\", \"method\": \"subtract\", \"params\": [42, 23], \"id\": 1}\n\
{\"jsonrpc\": \"2.0\", \"method\": \"subtrac\", \"params\": [42, 23], \"id\": 2}\n";
    let out = jrpc(
        &[
            "tap",
            "--openrpc",
            doc.to_str().unwrap(),
            "--",
            env!("CARGO_BIN_EXE_jrpc"),
            "serve",
        ],
        session,
    );
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(out.status.code(), Some(0));
    let findings = String::from_utf8_lossy(&out.stderr);
    assert!(
        findings.contains("tap: server message 1: error[openrpc-result-invalid]"),
        "{findings}"
    );
    assert!(
        findings.contains("tap: client message 2: error[openrpc-method-unknown]"),
        "{findings}"
    );
    assert!(!findings.contains("client message 1:"), "{findings}");
    // The bytes still pass through: the client got both answers.
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 2);
}

#[test]
fn jrpc_tap_openrpc_with_a_broken_document_does_not_start_the_server() {
    let dir = std::env::temp_dir().join(format!("jrpc-openrpc-tap-broken-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let doc = dir.join("broken.json");
    std::fs::write(&doc, r#"{"openrpc": "1.3.2", "methods": []}"#).unwrap();
    let out = jrpc(
        &[
            "tap",
            "--openrpc",
            doc.to_str().unwrap(),
            "--",
            "/bin/sh",
            "-c",
            "echo started",
        ],
        b"",
    );
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("broken.json:1:1: error[openrpc-document-invalid]"),
        "{stderr}"
    );
}

/// The mock's reply to one call.
fn served(doc: &OpenRpc, call: &Value) -> Value {
    let reply =
        openrpc::mock::reply(doc, call.to_string().as_bytes()).expect("a request is answered");
    serde_json::from_str(&reply).unwrap()
}

#[test]
fn the_mock_answers_each_example_call_with_its_example_result_exactly() {
    for path in EXAMPLE_DOCUMENTS {
        let doc = load(path);
        for m in doc.methods().iter().filter(|m| m.result.is_some()) {
            for example in m.examples.iter().filter(|e| e.result.is_some()) {
                let params: Vec<Value> = example.params.iter().map(|(_, v)| v.clone()).collect();
                let params = if m.param_structure == ParamStructure::ByName {
                    Value::Object(
                        m.params
                            .iter()
                            .map(|p| p.name.clone())
                            .zip(params)
                            .collect(),
                    )
                } else {
                    Value::Array(params)
                };
                let reply = served(
                    &doc,
                    &json!({"jsonrpc": "2.0", "method": m.name, "params": params, "id": 9}),
                );
                assert_eq!(
                    reply["result"],
                    *example.result.as_ref().unwrap(),
                    "{path} {}",
                    m.name
                );
            }
        }
    }
}

#[test]
fn the_mocks_generated_calls_and_replies_pass_the_validator() {
    for path in EXAMPLE_DOCUMENTS {
        let doc = load(path);
        let mut transcript = String::new();
        for (n, m) in doc
            .methods()
            .iter()
            .enumerate()
            .filter(|(_, m)| m.result.is_some())
        {
            let call = json!({"jsonrpc": "2.0", "method": m.name, "params": openrpc::mock::generated_params(&doc, m), "id": n});
            let reply = served(&doc, &call);
            assert!(reply.get("result").is_some(), "{path} {}: {reply}", m.name);
            transcript.push_str(&format!("--> {call}\n<-- {reply}\n"));
        }
        // (empty: no methods; metrics: only a notification)
        if transcript.is_empty() {
            continue;
        }
        let found = findings(&doc, &transcript);
        assert!(found.is_empty(), "{path}: {found:?}\n{transcript}");
    }
}

#[test]
fn the_mock_answers_unknown_methods_invalid_params_and_rpc_discover() {
    let doc = load("examples/simple-math-openrpc.json");
    let unknown = served(
        &doc,
        &json!({"jsonrpc": "2.0", "method": "additon", "params": [1, 2], "id": 1}),
    );
    assert_eq!(unknown["error"]["code"], -32601);
    assert_eq!(unknown["error"]["data"]["nearest"], json!(["addition"]));
    let invalid = served(
        &doc,
        &json!({"jsonrpc": "2.0", "method": "addition", "params": [1, "2"], "id": 2}),
    );
    assert_eq!(invalid["error"]["code"], -32602);
    assert_eq!(
        invalid["error"]["data"]["findings"][0]["rule"],
        "openrpc-param-invalid"
    );
    assert_eq!(invalid["error"]["data"]["findings"][0]["path"], "/params/1");
    let discover = served(
        &doc,
        &json!({"jsonrpc": "2.0", "method": "rpc.discover", "id": 3}),
    );
    assert_eq!(discover["result"], *doc.value());
    assert_eq!(discover["id"], 3);
}

#[test]
fn jrpc_serve_openrpc_serves_the_starknet_api_so_that_its_replies_pass_jrpc_check() {
    let calls = [
        r#"{"jsonrpc": "2.0", "method": "starknet_blockNumber", "id": 1}"#,
        r#"{"jsonrpc": "2.0", "method": "starknet_getStorageAt", "params": ["0x1", "0x5", "latest"], "id": 2}"#,
        r#"{"jsonrpc": "2.0", "method": "starknet_chainId", "id": 3}"#,
        r#"{"jsonrpc": "2.0", "method": "starknet_getNonce", "params": ["latest", "0x1"], "id": 4}"#,
    ];
    let out = jrpc(
        &["serve", "--openrpc", STARKNET],
        (calls.join("\n") + "\n").as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0));
    let replies = String::from_utf8(out.stdout).unwrap();
    assert_eq!(replies.lines().count(), calls.len(), "{replies}");
    let transcript: String = calls
        .iter()
        .zip(replies.lines())
        .map(|(call, reply)| format!("--> {call}\n<-- {reply}\n"))
        .collect();
    let checked = jrpc(&["check", "--openrpc", STARKNET], transcript.as_bytes());
    assert_eq!(
        checked.status.code(),
        Some(0),
        "{}\n{transcript}",
        String::from_utf8_lossy(&checked.stdout)
    );
}

#[test]
fn a_result_schema_that_grows_without_end_gives_a_bounded_value_at_once() {
    // Each Node requires eight Nodes: 8^16 values if nothing stopped it.
    let members: Vec<String> = (0..8).map(|i| format!("\"m{i}\"")).collect();
    let properties: Vec<String> = (0..8)
        .map(|i| format!("\"m{i}\": {{\"$ref\": \"#/components/schemas/Node\"}}"))
        .collect();
    let src = format!(
        r##"{{"openrpc": "1.3.2", "info": {{"title": "t", "version": "1"}}, "methods": [{{"name": "tree", "params": [], "result": {{"name": "root", "schema": {{"$ref": "#/components/schemas/Node"}}}}}}],
        "components": {{"schemas": {{"Node": {{"type": "object", "required": [{}], "properties": {{{}}}}}}}}}}}"##,
        members.join(", "),
        properties.join(", ")
    );
    let doc = OpenRpc::load(src.as_bytes()).unwrap();
    let started = std::time::Instant::now();
    let reply = served(&doc, &json!({"jsonrpc": "2.0", "method": "tree", "id": 1}));
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert!(reply["result"].is_object());
    assert!(reply.to_string().len() < 1 << 20);
}

/// `jrpc probe --format json ARGS`: the exit code and the report.
fn probe(args: &[&str]) -> (Option<i32>, Value) {
    let mut all = vec!["probe", "--format", "json"];
    all.extend_from_slice(args);
    let out = jrpc(&all, b"");
    match serde_json::from_slice(&out.stdout) {
        Ok(report) => (out.status.code(), report),
        Err(e) => panic!(
            "no JSON report ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

/// `(id, status, detail)` of each check of a probe's report.
fn probe_checks(report: &Value) -> Vec<(String, String, String)> {
    let text = |c: &Value, key: &str| c[key].as_str().unwrap_or_default().to_string();
    report["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .map(|c| (text(c, "id"), text(c, "status"), text(c, "detail")))
        .collect()
}

/// Every `(rule, path)` found in a probe's report, in transcript order.
fn probe_findings(report: &Value) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let documents = report["documents"].as_array().expect("documents");
    for doc in documents.iter().chain(
        documents
            .iter()
            .flat_map(|d| d["items"].as_array().into_iter().flatten()),
    ) {
        for v in doc["violations"].as_array().into_iter().flatten() {
            found.push((
                v["rule"].as_str().unwrap().to_string(),
                v["path"].as_str().unwrap().to_string(),
            ));
        }
    }
    found
}

/// Asserts that the probe passed every check, found nothing, and called each method of `doc`.
fn assert_probe_passes(what: &str, doc: &OpenRpc, code: Option<i32>, report: &Value) {
    let checks = probe_checks(report);
    // A method whose params the probe could not generate valid is "not tested" (skipped), never
    // passed: the generator's limits, not the server's fault.
    let failed: Vec<_> = checks
        .iter()
        .filter(|c| c.1 != "pass" && !(c.1 == "skipped" && c.2.contains("not tested")))
        .collect();
    assert!(failed.is_empty(), "{what}: {failed:#?}");
    assert!(
        probe_findings(report).is_empty(),
        "{what}: {:?}",
        probe_findings(report)
    );
    assert_eq!(code, Some(0), "{what}");
    for m in doc.methods().iter().filter(|m| !m.name.starts_with("rpc.")) {
        let id = format!("openrpc/{}", m.name);
        assert!(checks.iter().any(|c| c.0 == id), "{what}: no check {id}");
    }
    let discover = checks
        .iter()
        .find(|c| c.0 == "openrpc/discover")
        .expect("openrpc/discover");
    assert_eq!(discover.2, "the same document as the one given", "{what}");
}

fn path_of(document: &str) -> String {
    data(document).to_string_lossy().into_owned()
}

/// `jrpc probe --format json ARGS -- jrpc serve --openrpc SERVED` (SERVED under tests/data/openrpc).
fn probe_serving(args: &[&str], served: &str) -> (Option<i32>, Value) {
    let served = path_of(served);
    let mut all = args.to_vec();
    all.extend_from_slice(&[
        "--",
        env!("CARGO_BIN_EXE_jrpc"),
        "serve",
        "--openrpc",
        &served,
    ]);
    probe(&all)
}

#[test]
fn jrpc_probe_openrpc_passes_jrpc_serve_openrpc_on_stdio_for_every_document() {
    for document in EXAMPLE_DOCUMENTS
        .iter()
        .chain(&["starknet/starknet_api_openrpc.json"])
    {
        let (code, report) = probe_serving(&["--openrpc", &path_of(document)], document);
        assert_probe_passes(document, &load(document), code, &report);
    }
}

#[test]
fn jrpc_probe_openrpc_passes_jrpc_serve_openrpc_over_http_and_websocket() {
    for document in [
        "examples/petstore-openrpc.json",
        "examples/params-by-name-petstore-openrpc.json",
        "starknet/starknet_api_openrpc.json",
    ] {
        let path = path_of(document);
        let server = Server::jrpc_serve(&["--openrpc", &path, "--ws", "0", "--http", "0"]);
        for url in [server.url("http"), server.url("ws")] {
            let (code, report) = probe(&["--openrpc", &path, &url]);
            assert_probe_passes(
                &format!("{document} at {url}"),
                &load(document),
                code,
                &report,
            );
        }
    }
}

/// The Python that runs the test servers of tests/fixtures (the system's when there is one).
fn python3() -> &'static str {
    if std::path::Path::new("/usr/bin/python3").exists() {
        "/usr/bin/python3"
    } else {
        "python3"
    }
}

/// tests/fixtures/wrong_servers.py (its first argument says which server it is).
fn wrong_servers() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/wrong_servers.py")
        .to_string_lossy()
        .into_owned()
}

/// `jrpc probe --openrpc` of the petstore example against tests/fixtures/wrong_servers.py's
/// petstore.
fn probe_wrong_petstore(extra: &[&str]) -> (Option<i32>, Value) {
    let script = wrong_servers();
    let path = path_of("examples/petstore-openrpc.json");
    let mut args = vec!["--openrpc"];
    args.extend_from_slice(extra);
    if extra.is_empty() {
        args.push(&path);
    }
    args.extend_from_slice(&["--", python3(), &script, "petstore"]);
    probe(&args)
}

#[test]
fn jrpc_probe_openrpc_reports_each_planted_api_defect_with_its_rule_and_nothing_else() {
    let (code, report) = probe_wrong_petstore(&[]);
    assert_eq!(code, Some(1));
    assert_eq!(
        probe_findings(&report),
        [
            ("openrpc-result-invalid".to_string(), "/result".to_string()),
            (
                "openrpc-error-undeclared".to_string(),
                "/error/code".to_string()
            ),
            ("openrpc-result-invalid".to_string(), "/result".to_string()),
        ]
    );
    let status: Vec<(String, String)> = probe_checks(&report)
        .into_iter()
        .filter(|c| c.0.starts_with("openrpc/"))
        .map(|c| (c.0, c.1))
        .collect();
    let expected = [
        ("openrpc/discover", "pass"),
        ("openrpc/list_pets", "fail"),
        ("openrpc/create_pet", "fail"),
        ("openrpc/get_pet", "fail"),
    ];
    assert_eq!(
        status,
        expected.map(|(a, b)| (a.to_string(), b.to_string()))
    );
    let checks = probe_checks(&report);
    for (id, says) in [
        ("openrpc/list_pets", "want array, but got string"),
        ("openrpc/get_pet", "missing properties 'name'"),
        ("openrpc/create_pet", "409 is not among them"),
        ("openrpc/discover", "-32601"),
    ] {
        let detail = &checks.iter().find(|c| c.0 == id).unwrap().2;
        assert!(detail.contains(says), "{id}: {detail}");
    }
}

#[test]
fn wrong_servers_petstore_over_http_gets_the_same_findings_as_on_stdio() {
    // The page's Probe meets the planted defects over HTTP (tests/e2e/openrpc_probe.test.mjs):
    // the same server, the same report's findings as `-- python3 wrong_servers.py petstore`.
    let server = Server::spawn(python3(), &[&wrong_servers(), "petstore", "--http"]);
    let path = path_of("examples/petstore-openrpc.json");
    let (code, over_http) = probe(&["--openrpc", &path, &server.url("http")]);
    let (_, on_stdio) = probe_wrong_petstore(&[]);
    assert_eq!(code, Some(1));
    assert_eq!(probe_findings(&over_http), probe_findings(&on_stdio));
    assert_eq!(probe_findings(&over_http).len(), 3);
    let api = |report: &Value| -> Vec<(String, String)> {
        probe_checks(report)
            .into_iter()
            .filter(|c| c.0.starts_with("openrpc/"))
            .map(|c| (c.0, c.1))
            .collect()
    };
    assert_eq!(api(&over_http), api(&on_stdio));
}

#[test]
fn jrpc_probe_openrpc_discover_probes_with_the_servers_own_document() {
    let (code, report) = probe_serving(
        &["--openrpc", "discover"],
        "examples/simple-math-openrpc.json",
    );
    assert_eq!(code, Some(0), "{report}");
    let checks = probe_checks(&report);
    assert!(checks.iter().all(|c| c.1 == "pass"), "{checks:#?}");
    assert_eq!(checks[0].0, "openrpc/discover");
    assert_eq!(
        checks[0].2,
        "a valid document with 2 methods: the methods probed"
    );
    for id in ["openrpc/addition", "openrpc/subtraction"] {
        assert!(checks.iter().any(|c| c.0 == id), "{id}: {checks:#?}");
    }
}

#[test]
fn jrpc_probe_openrpc_discover_fails_when_the_server_describes_nothing() {
    let (code, report) = probe_wrong_petstore(&["discover"]);
    assert_eq!(code, Some(1));
    let checks = probe_checks(&report);
    let discover = checks.iter().find(|c| c.0 == "openrpc/discover").unwrap();
    assert_eq!(discover.1, "fail");
    assert!(discover.2.contains("error -32601"), "{}", discover.2);
    let methods = checks.iter().find(|c| c.0 == "openrpc/methods").unwrap();
    assert_eq!(methods.1, "skipped");
}

#[test]
fn jrpc_probe_openrpc_compares_the_servers_document_with_the_given_one() {
    let (_, report) = probe_serving(
        &["--openrpc", &path_of("examples/petstore-openrpc.json")],
        "examples/simple-math-openrpc.json",
    );
    let checks = probe_checks(&report);
    assert_eq!(
        checks[0].2,
        "a valid document that differs from the one given; it lacks list_pets, create_pet, get_pet; it adds addition, subtraction"
    );
    let get_pet = checks.iter().find(|c| c.0 == "openrpc/get_pet").unwrap();
    assert!(
        get_pet.2.contains("the server lacks this method"),
        "{}",
        get_pet.2
    );
}

#[test]
fn jrpc_probe_openrpc_skips_methods_by_name_and_stops_at_max_calls() {
    let path = path_of("examples/petstore-openrpc.json");
    let (code, report) = probe_serving(
        &[
            "--openrpc",
            &path,
            "--skip-method",
            "create_pet",
            "--max-calls",
            "1",
        ],
        "examples/petstore-openrpc.json",
    );
    assert_eq!(code, Some(0));
    let checks = probe_checks(&report);
    let find = |id: &str| checks.iter().find(|c| c.0 == id).unwrap().clone();
    assert_eq!(find("openrpc/list_pets").1, "pass");
    let create = find("openrpc/create_pet");
    assert_eq!(
        (create.1.as_str(), create.2.as_str()),
        ("skipped", "--skip-method")
    );
    let get = find("openrpc/get_pet");
    assert_eq!(
        (get.1.as_str(), get.2.as_str()),
        ("skipped", "--max-calls 1 reached")
    );
    // Nothing of create_pet was sent.
    assert!(!report.to_string().contains("newPetName"));
}

#[test]
fn jrpc_probe_openrpc_sends_a_method_without_result_as_a_notification() {
    let path = path_of("examples/metrics-openrpc.json");
    let jrpc_bin = env!("CARGO_BIN_EXE_jrpc");
    let out = jrpc(
        &[
            "probe",
            "--openrpc",
            &path,
            "--transcript",
            "/dev/stdout",
            "--",
            jrpc_bin,
            "serve",
            "--openrpc",
            &path,
        ],
        b"",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let sent = text
        .lines()
        .find(|l| l.contains("\"method\":\"link_clicked\""))
        .unwrap_or_else(|| panic!("link_clicked was sent: {text}"));
    assert!(
        sent.starts_with("--> ") && !sent.contains("\"id\""),
        "{sent}"
    );
    assert!(text.contains("sent as a notification"), "{text}");
}

#[test]
fn an_openrpc_document_is_fetched_by_url_from_jrpc_serve_openrpc_http() {
    let served = path_of("examples/simple-math-openrpc.json");
    let server = Server::jrpc_serve(&["--openrpc", &served, "--http", "0"]);
    let url = server.url("http");
    let out = jrpc(
        &["check", "--openrpc", &url],
        br#"{"jsonrpc": "2.0", "method": "addition", "params": [2, "2"], "id": 1}"#,
    );
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("error[openrpc-param-invalid]"), "{text}");
    // And a probe by URL of the server it came from passes.
    let (code, report) = probe(&["--openrpc", &url, &url]);
    assert_probe_passes(
        &url,
        &load("examples/simple-math-openrpc.json"),
        code,
        &report,
    );
}

#[test]
fn an_openrpc_url_that_answers_an_error_status_exits_2_saying_so() {
    // The MCP mock answers GET with 405.
    let server = Server::jrpc_serve(&["--http", "0"]);
    let out = jrpc(
        &["check", "--openrpc", &server.url("http")],
        br#"{"jsonrpc": "2.0", "method": "m", "id": 1}"#,
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot fetch the OpenRPC document"),
        "{stderr}"
    );
    assert!(stderr.contains("answered HTTP 405"), "{stderr}");
}

#[test]
fn the_probe_checks_structured_content_against_the_tools_output_schema() {
    let (code, report) = probe(&["--", python3(), &wrong_servers(), "structured-content"]);
    assert_eq!(code, Some(1));
    let found: Vec<(String, String)> = probe_findings(&report)
        .into_iter()
        .filter(|(rule, _)| rule == "mcp-structured-content-invalid")
        .collect();
    let expected = [("/result/structuredContent/sum"), ("/result")].map(|path| {
        (
            "mcp-structured-content-invalid".to_string(),
            path.to_string(),
        )
    });
    assert_eq!(found, expected);
    let checks = probe_checks(&report);
    let failed: Vec<&str> = checks
        .iter()
        .filter(|c| c.1 == "fail")
        .map(|c| c.0.as_str())
        .collect();
    assert_eq!(failed, ["tools/call"]);
    let detail = &checks.iter().find(|c| c.0 == "tools/call").unwrap().2;
    assert!(
        detail.contains("want number, but got string (outputSchema /properties/sum)"),
        "{detail}"
    );
    assert!(
        !detail.contains("ok_sum:") && !detail.contains("echo:"),
        "{detail}"
    );
}

#[test]
fn a_standalone_schema_is_json_schema_2020_12_unless_it_names_another_draft() {
    let instance = json!([1]);
    let tuple = json!({"type": "array", "prefixItems": [{"type": "string"}]});
    let errors = openrpc::schema_errors(&tuple, &instance).unwrap();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].instance, "/0");
    assert_eq!(errors[0].schema, "/prefixItems/0");
    let mut draft7 = tuple.clone();
    draft7["$schema"] = json!("http://json-schema.org/draft-07/schema#");
    assert_eq!(openrpc::schema_errors(&draft7, &instance).unwrap(), []);
}

#[test]
fn a_standalone_schema_referring_outside_itself_cannot_be_used_and_says_so() {
    let schema = json!({"$ref": "https://example.com/schema.json"});
    let why = openrpc::schema_errors(&schema, &json!(1)).unwrap_err();
    assert!(why.contains("example.com"), "{why}");
}

/// POSTs `body` to `jrpc serve --http` at `addr` on a connection of its own: the status and body.
fn post_to(addr: &str, body: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).expect("the server listens");
    stream
        .set_read_timeout(Some(common::WAIT))
        .expect("a timeout is set");
    let request = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).expect("sent");
    let mut raw = String::new();
    stream.read_to_string(&mut raw).expect("answered");
    let (head, body) = raw.split_once("\r\n\r\n").expect("a head and a body");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    (status, body.to_string())
}

#[test]
fn jrpc_serve_openrpc_over_http_answers_calls_notifications_and_unreadable_text() {
    let server = Server::jrpc_serve(&[
        "--openrpc",
        &path_of("examples/petstore-openrpc.json"),
        "--http",
        "0",
    ]);
    let addr = server.addr("http");
    let (status, body) = post_to(
        &addr,
        r#"{"jsonrpc": "2.0", "method": "get_pet", "params": [7], "id": 1}"#,
    );
    assert_eq!(status, 200);
    let reply: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        reply["result"],
        json!({"id": 7, "name": "fluffy", "tag": "poodle"})
    );
    let (status, body) = post_to(
        &addr,
        r#"{"jsonrpc": "2.0", "method": "get_pet", "params": [7]}"#,
    );
    assert_eq!((status, body.as_str()), (202, ""));
    let (status, body) = post_to(&addr, r#"{"jsonrpc": "2.0", "method""#);
    assert_eq!(status, 400);
    let reply: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (reply["error"]["code"].clone(), reply["id"].clone()),
        (json!(-32700), Value::Null)
    );
}

#[test]
fn jrpc_serve_openrpc_over_websocket_answers_rpc_discover_with_the_document() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let document = "examples/simple-math-openrpc.json";
    let server = Server::jrpc_serve(&["--openrpc", &path_of(document), "--ws", "0"]);
    let text = common::run(async {
        let mut socket = common::connect(&server.url("ws")).await;
        let call = r#"{"jsonrpc": "2.0", "method": "rpc.discover", "id": "d"}"#;
        socket.send(Message::text(call)).await.unwrap();
        loop {
            match socket.next().await {
                Some(Ok(Message::Text(text))) => return text.to_string(),
                Some(Ok(_)) => {}
                other => panic!("the connection ended without a reply: {other:?}"),
            }
        }
    });
    let reply: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(reply["id"], "d");
    assert_eq!(reply["result"], *load(document).value());
}

#[test]
fn a_batch_whose_replies_would_pass_16_mib_is_answered_with_one_error() {
    let doc = load("examples/simple-math-openrpc.json");
    // Each rpc.discover reply holds the whole document (about 2.7 KB): 7,000 of them pass 16 MiB.
    let calls: Vec<String> = (0..7000)
        .map(|id| format!(r#"{{"jsonrpc":"2.0","method":"rpc.discover","id":{id}}}"#))
        .collect();
    let batch = format!("[{}]", calls.join(","));
    let reply = openrpc::mock::reply(&doc, batch.as_bytes()).expect("answered");
    assert_eq!(reply, common::REPLY_TOO_LARGE);
}

/// A document of `count` methods named `m…m_NNNNNN` (57 characters each).
fn many_methods(count: usize) -> OpenRpc {
    let methods: Vec<Value> = (0..count)
        .map(|i| json!({"name": format!("{}_{i:06}", "m".repeat(50)), "params": [], "result": {"name": "r", "schema": {"type": "integer"}}}))
        .collect();
    let doc =
        json!({"openrpc": "1.3.2", "info": {"title": "many", "version": "1"}, "methods": methods});
    OpenRpc::load(doc.to_string().as_bytes()).expect("the document loads")
}

#[test]
fn unknown_method_suggestions_are_bounded_per_name_and_per_input() {
    let doc = many_methods(5_000);
    // One near miss is still named.
    let near = served(
        &doc,
        &json!({"jsonrpc": "2.0", "method": format!("{}_00001", "m".repeat(50)), "id": 1}),
    );
    assert_eq!(near["error"]["code"], -32601);
    assert!(
        near["error"]["data"]["nearest"]
            .as_array()
            .is_some_and(|n| !n.is_empty()),
        "{near}"
    );
    // A batch of 300 distinct unknown names of that length: each compared with every method,
    // it was minutes of work; now each name compares with at most 256, and the batch stops
    // looking at its budget.
    let batch: Vec<Value> = (0..300)
        .map(
            |i| json!({"jsonrpc": "2.0", "method": format!("{}_{i:06}x", "q".repeat(50)), "id": i}),
        )
        .collect();
    let started = std::time::Instant::now();
    let reply = openrpc::mock::reply(&doc, Value::Array(batch).to_string().as_bytes())
        .expect("a batch of calls is answered");
    let took = started.elapsed();
    assert!(
        took < std::time::Duration::from_secs(3),
        "300 unknown names took {took:?}"
    );
    let replies: Value = serde_json::from_str(&reply).expect("the reply is JSON");
    let last = &replies[299]["error"]["data"];
    assert_eq!(last["nearest"], json!([]));
    assert!(
        last["note"]
            .as_str()
            .is_some_and(|n| n.contains("not searched")),
        "{last}"
    );
    // The same names in a transcript checked against the document: the same bound.
    let transcript: String = (0..300)
        .map(|i| {
            format!(
                "--> {}\n",
                json!({"jsonrpc": "2.0", "method": format!("{}_{i:06}x", "q".repeat(50)), "id": i})
            )
        })
        .collect();
    let started = std::time::Instant::now();
    let found = findings(&doc, &transcript);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(found.len(), 300, "{found:?}");
}

/// The status and detail of the probe's check `id`.
fn probe_check(report: &Value, id: &str) -> (String, String) {
    probe_checks(report)
        .into_iter()
        .find(|c| c.0 == id)
        .map(|c| (c.1, c.2))
        .unwrap_or_else(|| panic!("no check {id}: {report:#}"))
}

/// A document written to a file of its own under the temporary directory (removed on drop).
struct TempDocument(PathBuf);

impl TempDocument {
    fn new(name: &str, text: &str) -> TempDocument {
        let dir = std::env::temp_dir().join(format!("jrpc-openrpc-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, text).unwrap();
        TempDocument(path)
    }
    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempDocument {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            std::fs::remove_dir_all(dir).ok();
        }
    }
}

#[test]
fn a_server_answering_every_method_with_a_protocol_error_fails_the_probe() {
    let path = path_of("examples/petstore-openrpc.json");
    for code in ["-32601", "-32603", "-32602"] {
        let (exit, report) = probe(&[
            "--openrpc",
            &path,
            "--",
            python3(),
            &wrong_servers(),
            "error-only",
            code,
        ]);
        assert_eq!(exit, Some(1), "error {code}: {report:#}");
        for id in ["openrpc/list_pets", "openrpc/create_pet", "openrpc/get_pet"] {
            let (status, detail) = probe_check(&report, id);
            assert_eq!(status, "fail", "error {code}, {id}: {detail}");
            assert!(
                detail.contains("has not been shown to work") && detail.contains(code),
                "error {code}, {id}: {detail}"
            );
        }
    }
}

#[test]
fn the_mock_of_the_empty_document_fails_the_probe_under_petstore() {
    let petstore = path_of("examples/petstore-openrpc.json");
    let (exit, report) = probe_serving(&["--openrpc", &petstore], "examples/empty-openrpc.json");
    assert_eq!(exit, Some(1), "{report:#}");
    let (status, detail) = probe_check(&report, "openrpc/list_pets");
    assert_eq!(status, "fail", "{detail}");
    assert!(detail.contains("-32601"), "{detail}");
}

#[test]
fn an_undeclared_application_error_is_an_error_and_a_reserved_code_is_allowed() {
    let doc = OpenRpc::load(SUBTRACT_DOCUMENT.as_bytes()).unwrap();
    let call = r#"--> {"jsonrpc": "2.0", "method": "subtract", "params": [3, 1], "id": 1}"#;
    for reserved in [-32000, -32050, -32099, -32768, -32603] {
        let input = format!(
            "{call}\n<-- {{\"jsonrpc\": \"2.0\", \"error\": {{\"code\": {reserved}, \"message\": \"x\"}}, \"id\": 1}}"
        );
        let openrpc: Vec<_> = findings(&doc, &input)
            .into_iter()
            .filter(|(rule, _)| rule.starts_with("openrpc-"))
            .collect();
        assert_eq!(openrpc, [], "{reserved}");
    }
    let input = format!(
        "{call}\n<-- {{\"jsonrpc\": \"2.0\", \"error\": {{\"code\": 7, \"message\": \"busy\"}}, \"id\": 1}}"
    );
    let report = openrpc::check_messages(&doc, input.as_bytes(), Profile::JsonRpc);
    let found: Vec<_> = report
        .violations()
        .filter(|v| v.rule.id.starts_with("openrpc-"))
        .map(|v| (v.rule.id, v.severity))
        .collect();
    assert_eq!(
        found,
        [(
            "openrpc-error-undeclared",
            jsonrpc_playground::rpc::Severity::Error
        )]
    );
    assert!(report.has_errors());
}

/// A method whose param has a pattern the probe's generator cannot meet, and one whose example
/// lists its params in another order than the method.
const UNTESTABLE_DOCUMENT: &str = r#"{"openrpc": "1.3.2", "info": {"title": "t", "version": "1"}, "methods": [
  {"name": "lookup", "params": [{"name": "address", "required": true,
     "schema": {"type": "string", "pattern": "^[a-f]{40}$"}}],
   "result": {"name": "found", "schema": {"type": "boolean"}}},
  {"name": "label", "paramStructure": "by-position",
   "params": [{"name": "count", "required": true, "schema": {"type": "integer"}},
              {"name": "text", "required": true, "schema": {"type": "string"}}],
   "result": {"name": "labelled", "schema": {"type": "string"}},
   "examples": [{"name": "swapped", "params": [{"name": "text", "value": "pets"}, {"name": "count", "value": 3}],
                 "result": {"name": "labelled", "value": "3 pets"}}]}
]}"#;

#[test]
fn params_the_probe_cannot_make_valid_are_not_tested_and_examples_pair_by_name() {
    let doc = TempDocument::new("untestable", UNTESTABLE_DOCUMENT);
    let server = Server::jrpc_serve(&["--openrpc", doc.path(), "--http", "0"]);
    let (_, report) = probe(&["--openrpc", doc.path(), &server.url("http")]);
    let (status, detail) = probe_check(&report, "openrpc/lookup");
    assert_eq!(status, "skipped", "{detail}");
    assert!(detail.contains("not tested"), "{detail}");
    assert!(!detail.contains("document's fault"), "{detail}");
    let (status, detail) = probe_check(&report, "openrpc/label");
    assert_eq!(status, "pass", "{detail}");
    assert!(detail.contains("answered with a result"), "{detail}");
}

#[test]
fn the_mock_answers_a_call_matching_an_example_by_name_with_its_result() {
    let doc = OpenRpc::load(UNTESTABLE_DOCUMENT.as_bytes()).unwrap();
    let by_position = served(
        &doc,
        &json!({"jsonrpc": "2.0", "method": "label", "params": [3, "pets"], "id": 1}),
    );
    assert_eq!(by_position["result"], json!("3 pets"), "{by_position}");
    let either = r#"{"openrpc": "1.3.2", "info": {"title": "t", "version": "1"}, "methods": [
      {"name": "add", "params": [{"name": "a", "required": true, "schema": {"type": "integer"}},
                                 {"name": "b", "schema": {"type": "integer"}},
                                 {"name": "c", "schema": {"type": "integer"}}],
       "result": {"name": "sum", "schema": {"type": "integer"}},
       "examples": [{"name": "one", "params": [{"name": "b", "value": 2}, {"name": "a", "value": 40}],
                     "result": {"name": "sum", "value": 42}},
                    {"name": "two", "params": [{"name": "a", "value": 43}],
                     "result": {"name": "sum", "value": 43}},
                    {"name": "three", "params": [{"name": "c", "value": 4}, {"name": "a", "value": 40}],
                     "result": {"name": "sum", "value": 44}}]}]}"#;
    let doc = OpenRpc::load(either.as_bytes()).unwrap();
    for (params, expected) in [
        (json!([40, 2]), 42),
        (json!({"a": 40, "b": 2}), 42),
        (json!([43]), 43),
        (json!({"a": 43}), 43),
        (json!({"c": 4, "a": 40}), 44),
    ] {
        let reply = served(
            &doc,
            &json!({"jsonrpc": "2.0", "method": "add", "params": params, "id": 1}),
        );
        assert_eq!(reply["result"], json!(expected), "{params}: {reply}");
    }
}

/// `(rule, pointer)` of what loading `src` found: its errors, or its warnings when it loads.
fn load_findings(src: &str) -> Vec<(&'static str, String)> {
    match OpenRpc::load(src.as_bytes()) {
        Ok(doc) => doc
            .warnings()
            .iter()
            .map(|v| (v.rule.id, v.path.to_string()))
            .collect(),
        Err(e) => e
            .violations
            .iter()
            .map(|v| (v.rule.id, v.path.to_string()))
            .collect(),
    }
}

#[test]
fn a_two_node_reference_cycle_is_reported_once() {
    let src = r##"{"openrpc": "1.3.2", "info": {"title": "t", "version": "1"}, "methods": [{"name": "m", "params": [{"name": "x", "schema": {"$ref": "#/components/schemas/A"}}]}], "components": {"schemas": {"A": {"$ref": "#/components/schemas/B"}, "B": {"$ref": "#/components/schemas/A"}}}}"##;
    assert_eq!(
        load_findings(src),
        [(
            "openrpc-reference-cycle",
            "/components/schemas/A/$ref".to_string()
        )]
    );
}

#[test]
fn a_second_method_of_the_same_name_is_an_error_at_its_name() {
    let src = r#"{"openrpc": "1.3.2", "info": {"title": "t", "version": "1"}, "methods": [
      {"name": "get", "params": [], "result": {"name": "a", "schema": {}}},
      {"name": "put", "params": [], "result": {"name": "b", "schema": {}}},
      {"name": "get", "params": [], "result": {"name": "c", "schema": {}}}]}"#;
    assert_eq!(
        load_findings(src),
        [("openrpc-method-duplicate", "/methods/2/name".to_string())]
    );
    let e = OpenRpc::load(src.as_bytes()).unwrap_err();
    assert!(
        e.violations[0].message.contains("/methods/0"),
        "{}",
        e.violations[0].message
    );
}

#[test]
fn an_unknown_version_is_refused_and_before_1_3_a_method_needs_a_result() {
    let doc = |version: &str| {
        format!(
            r#"{{"openrpc": "{version}", "info": {{"title": "t", "version": "1"}}, "methods": [{{"name": "log", "params": []}}]}}"#
        )
    };
    assert_eq!(
        load_findings(&doc("1.99.0")),
        [("openrpc-version-unknown", "/openrpc".to_string())]
    );
    for old in ["1.2.6", "1.0.0", "1.1.12"] {
        assert_eq!(
            load_findings(&doc(old)),
            [("openrpc-result-required", "/methods/0".to_string())],
            "{old}"
        );
    }
    for fine in ["1.3.0", "1.3.2"] {
        assert_eq!(load_findings(&doc(fine)), [], "{fine}");
    }
}

#[test]
fn examples_that_break_their_own_schemas_are_warnings_located_at_the_value() {
    let src = r#"{"openrpc": "1.3.2", "info": {"title": "t", "version": "1"}, "methods": [
      {"name": "add", "params": [{"name": "a", "schema": {"type": "integer"}},
                                 {"name": "b", "schema": {"type": "integer"}}],
       "result": {"name": "sum", "schema": {"type": "integer"}},
       "examples": [{"name": "bad", "params": [{"name": "b", "value": 2}, {"name": "a", "value": "one"}],
                     "result": {"name": "sum", "value": "three"}},
                    {"name": "good", "params": [{"name": "b", "value": 2}, {"name": "a", "value": 1}],
                     "result": {"name": "sum", "value": 3}}]}]}"#;
    assert_eq!(
        load_findings(src),
        [
            (
                "openrpc-example-invalid",
                "/methods/0/examples/0/params/1/value".to_string()
            ),
            (
                "openrpc-example-invalid",
                "/methods/0/examples/0/result/value".to_string()
            ),
        ]
    );
}

#[test]
fn jrpc_check_lint_names_every_problem_of_the_document_alone() {
    let doc = TempDocument::new(
        "lint",
        r##"{"openrpc": "1.3.2", "info": {"title": "t", "version": 1}, "methods": [
  {"name": "a", "params": [{"name": "x", "schema": {"$ref": "#/components/schemas/Nope"}}]},
  {"name": "b", "params": [{"name": "y", "schema": {"$ref": "#/components/schemas/Gone"}}]}]}"##,
    );
    let out = jrpc(&["check", "--lint", "--openrpc", doc.path()], b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    for says in [
        "error[openrpc-document-invalid]",
        "= at /info/version",
        "= at /methods/0/params/0/schema/$ref",
        "= at /methods/1/params/0/schema/$ref",
    ] {
        assert!(text.contains(says), "{says}: {text}");
    }
    let clean = path_of("examples/petstore-openrpc.json");
    let out = jrpc(&["check", "--lint", "--openrpc", &clean], b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn rpc_discover_is_not_a_reserved_name_warning_and_its_reply_is_checked_as_a_document() {
    let doc = OpenRpc::load(SUBTRACT_DOCUMENT.as_bytes()).unwrap();
    let input = r#"--> {"jsonrpc": "2.0", "method": "rpc.discover", "id": 1}
<-- {"jsonrpc": "2.0", "result": {"openrpc": "1.3.2", "info": {"title": "t"}, "methods": []}, "id": 1}"#;
    assert_eq!(
        findings(&doc, input),
        [("openrpc-document-invalid", "/result/info".to_string())]
    );
}

#[test]
fn the_mock_refuses_a_request_to_a_notification_only_method_as_jrpc_check_does() {
    let src = r#"{"openrpc": "1.3.2", "info": {"title": "t", "version": "1"}, "methods": [
      {"name": "log", "params": [{"name": "line", "schema": {"type": "string"}}]}]}"#;
    let doc = OpenRpc::load(src.as_bytes()).unwrap();
    let call = json!({"jsonrpc": "2.0", "method": "log", "params": ["x"], "id": 1});
    let reply = served(&doc, &call);
    assert_eq!(reply["error"]["code"], json!(-32600), "{reply}");
    assert_eq!(
        reply["error"]["data"]["findings"][0]["rule"],
        json!("openrpc-notification-only")
    );
    assert!(findings(&doc, &call.to_string())
        .iter()
        .any(|(rule, _)| *rule == "openrpc-notification-only"));
}

#[test]
fn unknown_members_are_each_located_at_their_key() {
    let src = "{\"openrpc\": \"1.3.2\",\n \"info\": {\"title\": \"t\", \"version\": \"1\", \"colour\": \"red\", \"size\": 2},\n \"methods\": []}";
    let e = OpenRpc::load(src.as_bytes()).unwrap_err();
    let found: Vec<(&str, String, usize)> = e
        .violations
        .iter()
        .map(|v| (v.rule.id, v.path.to_string(), v.span.start))
        .collect();
    assert_eq!(
        found,
        [
            (
                "openrpc-document-invalid",
                "/info/colour".to_string(),
                src.find("\"colour\"").unwrap()
            ),
            (
                "openrpc-document-invalid",
                "/info/size".to_string(),
                src.find("\"size\"").unwrap()
            ),
        ]
    );
}

#[test]
fn a_document_finding_cites_the_section_of_the_object_it_is_in() {
    let src = r#"{"openrpc": "1.3.2", "info": {"title": "t", "version": 1}, "methods": [
      {"name": "m", "params": [], "colour": "red"}]}"#;
    let e = OpenRpc::load(src.as_bytes()).unwrap_err();
    let cited: Vec<(String, &str)> = e
        .violations
        .iter()
        .map(|v| (v.path.to_string(), v.section().name))
        .collect();
    assert_eq!(
        cited,
        [
            ("/info/version".to_string(), "OpenRPC 1.3 Info Object"),
            ("/methods/0/colour".to_string(), "OpenRPC 1.3 Method Object"),
        ]
    );
    let doc = TempDocument::new("sections", src);
    let out = jrpc(&["check", "--lint", "--openrpc", doc.path()], b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("spec: OpenRPC 1.3 Info Object"), "{text}");
    assert!(text.contains("spec: OpenRPC 1.3 Method Object"), "{text}");
}

#[test]
fn the_version_rules_are_the_vendored_meta_schemas_differences() {
    let read = |name: &str| -> Value {
        serde_json::from_slice(&std::fs::read(data(&format!("meta-schemas/{name}"))).unwrap())
            .unwrap()
    };
    // 1.0-1.2 (meta-schema 1.14.2) and 1.3 (1.14.3) differ in exactly two places.
    let (old, mut new) = (
        read("meta-schema-1.14.2.json"),
        read("meta-schema-1.14.3.json"),
    );
    let required = |doc: &Value| doc["definitions"]["methodObject"]["required"].clone();
    assert_eq!(required(&old), json!(["name", "result", "params"]));
    assert_eq!(required(&new), json!(["name", "params"]));
    new["definitions"]["methodObject"]["required"] = required(&old);
    new["properties"].as_object_mut().unwrap().remove("$schema");
    assert_eq!(old, new);
    // The versions known are the official 1.3 meta-schema's list, and only they.
    let spec = read("spec-1.3-schema.json");
    let doc = |version: &str| {
        format!(
            r#"{{"openrpc": "{version}", "info": {{"title": "t", "version": "1"}}, "methods": [{{"name": "m", "params": [], "result": {{"name": "r", "schema": {{}}}}}}]}}"#
        )
    };
    let versions = spec["properties"]["openrpc"]["enum"].as_array().unwrap();
    assert_eq!(versions.len(), 26);
    for version in versions {
        let version = version.as_str().unwrap();
        assert_eq!(load_findings(&doc(version)), [], "{version}");
    }
    for unknown in ["1.99.0", "1.4.0", "1.3.3", "2.0.0"] {
        assert_eq!(
            load_findings(&doc(unknown)),
            [("openrpc-version-unknown", "/openrpc".to_string())],
            "{unknown}"
        );
    }
}
