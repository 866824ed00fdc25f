//! Findings cost time in proportion to what is checked: a value, a document or a transcript with
//! many faults is judged in linear time, whatever part of its findings is printed. Each shape is
//! timed at two sizes ten times apart; the larger must cost less than 40 times the smaller (a
//! search per finding, the fault these guard against, costs 100 times). The timed parts run one
//! at a time (the tests of this file would otherwise share the cores while they are timed).
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::time::{Duration, Instant};

use jsonrpc_playground::openrpc::{self, OpenRpc};
use jsonrpc_playground::rpc::{self, McpVersion, Profile};
use serde_json::{json, Value};

/// The least time `work(n)` took in `runs` runs.
fn best_of(runs: usize, n: usize, work: &dyn Fn(usize)) -> Duration {
    (0..runs)
        .map(|_| {
            let started = Instant::now();
            work(n);
            started.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// One timed part at a time.
static TIMING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Fails unless `work` at `10 × n` costs less than 40 times what it costs at `n`.
fn grows_linearly(shape: &str, n: usize, work: impl Fn(usize)) {
    let _alone = TIMING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    work(n);
    let small = best_of(5, n, &work).max(Duration::from_millis(2));
    let large = best_of(2, 10 * n, &work);
    eprintln!("{shape}: {n} in {small:?}, {} in {large:?}", 10 * n);
    assert!(
        large < 40 * small,
        "{shape}: {n} took {small:?}, {} took {large:?} ({:.0}×)",
        10 * n,
        large.as_secs_f64() / small.as_secs_f64()
    );
}

/// How many errors of one value are listed for `n` failing places: every one up to the engine's
/// cap (10,000, `MAX_SCHEMA_ERRORS` in engine/src/openrpc/document.rs), then the cap and one
/// error saying how many there were in all.
fn listed(n: usize) -> usize {
    if n < 10_000 {
        n
    } else {
        10_001
    }
}

fn numbers(n: usize) -> Vec<Value> {
    (0..n).map(|i| json!(i)).collect()
}

#[test]
fn schema_errors_of_many_items_are_found_and_merged_in_linear_time() {
    let schema = json!({"type": "array", "items": {"type": "string"}});
    grows_linearly("array items against a schema", 4_000, |n| {
        let errors = openrpc::schema_errors(&schema, &Value::Array(numbers(n))).unwrap();
        assert_eq!(openrpc::by_place(errors).len(), listed(n));
    });
}

/// A document with the one method `m` taking the param `xs` of `schema` (by name).
fn document_of(schema: Value) -> OpenRpc {
    let doc = json!({
        "openrpc": "1.3.2",
        "info": {"title": "t", "version": "1"},
        "methods": [{"name": "m", "paramStructure": "by-name",
                     "params": [{"name": "xs", "schema": schema}],
                     "result": {"name": "r", "schema": {}}}]
    });
    OpenRpc::load(doc.to_string().as_bytes()).unwrap()
}

#[test]
fn a_param_with_many_failing_items_or_members_is_judged_in_linear_time() {
    let array = document_of(json!({"type": "array", "items": {"type": "string"}}));
    grows_linearly("an array param of numbers, strings wanted", 4_000, |n| {
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "m", "params": {"xs": numbers(n)}});
        let report = openrpc::check_messages(&array, call.to_string().as_bytes(), Profile::JsonRpc);
        assert_eq!(report.violations().count(), listed(n));
    });
    let object = document_of(json!({"type": "object", "additionalProperties": {"type": "string"}}));
    grows_linearly("an object param of numbers, strings wanted", 4_000, |n| {
        let members: serde_json::Map<String, Value> =
            (0..n).map(|i| (format!("k{i}"), json!(i))).collect();
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "m", "params": {"xs": members}});
        let report =
            openrpc::check_messages(&object, call.to_string().as_bytes(), Profile::JsonRpc);
        assert_eq!(report.violations().count(), listed(n));
    });
}

#[test]
fn a_document_of_many_dangling_references_is_judged_in_linear_time() {
    grows_linearly("dangling $refs", 3_000, |n| {
        let schemas: serde_json::Map<String, Value> = (0..n)
            .map(|i| (format!("s{i}"), json!({"$ref": format!("#/nowhere/{i}")})))
            .collect();
        let doc = json!({
            "openrpc": "1.3.2",
            "info": {"title": "t", "version": "1"},
            "methods": [],
            "components": {"schemas": schemas}
        });
        let refused = OpenRpc::load(doc.to_string().as_bytes()).unwrap_err();
        assert_eq!(refused.violations.len(), n);
    });
}

#[test]
fn a_document_of_many_meta_schema_errors_is_judged_in_linear_time() {
    grows_linearly("methods whose names are numbers", 1_000, |n| {
        let methods: Vec<Value> = (0..n)
            .map(|i| json!({"name": i, "params": [], "result": {"name": "r", "schema": {}}}))
            .collect();
        let doc =
            json!({"openrpc": "1.3.2", "info": {"title": "t", "version": "1"}, "methods": methods});
        let refused = OpenRpc::load(doc.to_string().as_bytes()).unwrap_err();
        // Every method named, up to the engine's cap on one value's errors (10,000 of boon's,
        // several a method).
        assert!(
            refused.violations.len() >= n.min(1_000),
            "{}",
            refused.violations.len()
        );
    });
}

#[test]
fn unknown_members_each_located_at_their_key_are_judged_in_linear_time() {
    grows_linearly("unknown members of one object", 1_000, |n| {
        let mut info = serde_json::Map::new();
        info.insert("title".into(), json!("t"));
        info.insert("version".into(), json!("1"));
        for i in 0..n {
            info.insert(format!("x{i}"), json!(i));
        }
        let doc = json!({"openrpc": "1.3.2", "info": info, "methods": []});
        let refused = OpenRpc::load(doc.to_string().as_bytes()).unwrap_err();
        assert_eq!(refused.violations.len(), n);
    });
}

#[test]
fn tool_arguments_with_many_failing_items_are_judged_in_linear_time() {
    let list = r#"--> {"jsonrpc":"2.0","id":1,"method":"tools/list"}
<-- {"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"xs":{"type":"array","items":{"type":"string"}}}},"outputSchema":{"type":"object","properties":{"ys":{"type":"array","items":{"type":"string"}}}}}]}}
"#;
    grows_linearly("tool arguments and structuredContent", 4_000, |n| {
        let xs = Value::Array(numbers(n)).to_string();
        let text = format!(
            "{list}--> {{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{{\"name\":\"t\",\"arguments\":{{\"xs\":{xs}}}}}}}\n\
             <-- {{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{{\"content\":[],\"structuredContent\":{{\"ys\":{xs}}}}}}}\n"
        );
        let mut report = rpc::check(text.as_bytes(), Profile::Mcp(McpVersion::V2025_11_25));
        jsonrpc_playground::tool_schemas::check(text.as_bytes(), &mut report);
        assert!(report.violations().count() >= 2);
    });
}

/// A transcript of `n` requests from the client (ids 0…n-1) then `n` responses from the server
/// with ids `answered(i)`.
fn transcript(n: usize, answered: impl Fn(usize) -> usize) -> String {
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!(
            "--> {{\"jsonrpc\":\"2.0\",\"id\":{i},\"method\":\"m\"}}\n"
        ));
    }
    for i in 0..n {
        text.push_str(&format!(
            "<-- {{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":0}}\n",
            answered(i)
        ));
    }
    text
}

#[test]
fn a_transcript_of_many_waiting_requests_is_paired_in_linear_time() {
    grows_linearly("responses in reverse order", 4_000, |n| {
        let text = transcript(n, |i| n - 1 - i);
        let report = rpc::check(text.as_bytes(), Profile::JsonRpc);
        assert_eq!(report.violations().count(), 0);
    });
    grows_linearly("responses that answer nothing", 4_000, |n| {
        let text = transcript(n, |i| n + i);
        let report = rpc::check(text.as_bytes(), Profile::JsonRpc);
        // n unmatched responses and n unanswered requests, each finding of a bounded size.
        assert_eq!(report.violations().count(), 2 * n);
        let longest = report.violations().map(|v| v.message.len()).max();
        assert!(longest < Some(400), "{longest:?}");
    });
    let text = transcript(50, |i| 50 + i);
    let report = rpc::check(text.as_bytes(), Profile::JsonRpc);
    let first = report
        .violations()
        .find(|v| v.rule.id == "response-unmatched")
        .unwrap();
    assert_eq!(
        first.message,
        "id 50 answers no pending request (waiting: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, and 40 more)"
    );
}

#[test]
fn an_elicitation_answer_with_many_failing_choices_is_refused_in_linear_time() {
    use jsonrpc_playground::mock::{Fixtures, MockServer, OutgoingKind};
    grows_linearly("an answer of many choices, none offered", 2_000, |n| {
        let mut server = MockServer::with_fixtures(Fixtures::Conformance);
        for message in [
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"t","version":"1"}}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_elicitation_sep1330_enums","arguments":{}}}"#,
        ] {
            server.handle(message.as_bytes());
        }
        let asked = server.take_outgoing();
        let request = asked
            .iter()
            .find(|o| o.kind == OutgoingKind::Request)
            .expect("the tool asks the client");
        let id = serde_json::from_str::<Value>(&request.text).unwrap()["id"].clone();
        let answer = json!({"jsonrpc": "2.0", "id": id, "result": {"action": "accept",
            "content": {"titledMulti": numbers(n)}}});
        server.handle(answer.to_string().as_bytes());
        let replies = server.take_outgoing();
        assert!(
            replies.iter().any(|o| o.text.contains("requestedSchema")),
            "{:?}",
            replies.first().map(|o| &o.text[..o.text.len().min(300)])
        );
    });
}

#[test]
fn a_transcript_of_many_unreadable_messages_or_batches_is_paired_in_linear_time() {
    let null_errors = |n: usize| {
        "<-- {\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"},\"id\":null}\n"
            .repeat(n)
    };
    grows_linearly(
        "unreadable messages, then their error replies",
        4_000,
        |n| {
            let text = "--> {\"jsonrpc\":\"2.0\",\"method\":5}\n".repeat(n) + &null_errors(n);
            let report = rpc::check(text.as_bytes(), Profile::JsonRpc);
            assert!(report.violations().count() >= n);
        },
    );
    grows_linearly("batches, then their replies", 4_000, |n| {
        let batches: String = (0..n)
            .map(|i| format!("--> [{{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"id\":{i}}}]\n"))
            .collect();
        let replies: String = (0..n)
            .map(|i| format!("<-- [{{\"jsonrpc\":\"2.0\",\"result\":0,\"id\":{i}}}]\n"))
            .collect();
        let text = batches + &replies;
        let report = rpc::check(text.as_bytes(), Profile::JsonRpc);
        assert_eq!(report.violations().count(), 0);
    });
    grows_linearly("batches, then errors with id null", 4_000, |n| {
        let batches = "--> [{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"id\":1}]\n".repeat(n);
        let text = batches + &null_errors(n);
        let report = rpc::check(text.as_bytes(), Profile::JsonRpc);
        assert!(report.violations().count() >= n);
    });
}
