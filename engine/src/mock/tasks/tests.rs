//! The task store's transitions, on a test clock: [`super`].

use std::cell::Cell;

use serde_json::{json, Value};

use super::*;
use crate::mock::TASKS_EXTENSION;

thread_local! {
    /// The test's clock (each test runs on a thread of its own).
    static NOW: Cell<u64> = const { Cell::new(1_785_231_000_000) };
}

fn now() -> u64 {
    NOW.with(Cell::get)
}

fn wait(ms: u64) {
    NOW.with(|n| n.set(n.get() + ms));
}

/// A server keeping tasks in a store of its own, on the test's clock.
fn server() -> MockServer {
    let mut server = MockServer::new();
    server.serve_tasks(TaskStore::new(now));
    server
}

fn job(run_ms: u64) -> Job {
    Job {
        run_ms,
        asks: Vec::new(),
        note: "n".into(),
        finish: |note, _| Ok(Json::obj([("text", Json::String(format!("done {note}")))])),
    }
}

fn asking() -> Job {
    let form = |field: &str| {
        Json::obj([
            ("method", Json::from("elicitation/create")),
            ("params", Json::obj([("message", Json::from(field))])),
        ])
    };
    Job {
        run_ms: 0,
        asks: vec![("a", form("a")), ("b", form("b"))],
        note: String::new(),
        finish: |_, answers| {
            let a = answers.accepted_field("a", "v").unwrap_or_default();
            let b = answers.accepted_field("b", "v").unwrap_or_default();
            Ok(Json::obj([("text", Json::String(format!("{a}+{b}")))]))
        },
    }
}

fn value(json: &Json) -> Value {
    serde_json::from_str(&json.compact()).expect("JSON")
}

fn start(server: &MockServer, job: Job) -> Value {
    value(&server.start_task(job).expect("a task"))
}

/// `method` with `params`, in a 2026-07-28 envelope declaring the extension when `declared`.
fn call(server: &mut MockServer, method: &str, mut params: Value, declared: bool) -> Value {
    let extensions = if declared {
        json!({"extensions": {TASKS_EXTENSION: {}}})
    } else {
        json!({})
    };
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": extensions,
    });
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let reply = server
        .handle(request.to_string().as_bytes())
        .expect("a reply");
    serde_json::from_str(&reply).expect("JSON")
}

/// Asserts `reply` is -32602 naming `path` first.
fn invalid_params_at(reply: &Value, path: &str) {
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    assert_eq!(reply["error"]["data"]["errors"][0]["path"], path, "{reply}");
}

/// `tasks/cancel`'s acknowledgement (asserted to be one).
fn cancel(server: &mut MockServer, id: &Value) -> Value {
    let ack = call(server, "tasks/cancel", json!({"taskId": id}), true);
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    ack
}

/// The task's status, as `tasks/get` says.
fn status(server: &mut MockServer, id: &Value) -> Value {
    get(server, id)["result"]["status"].clone()
}

fn get(server: &mut MockServer, id: &Value) -> Value {
    call(server, "tasks/get", json!({"taskId": id}), true)
}

#[test]
fn a_created_task_is_a_flat_create_task_result() {
    let created = start(&server(), job(1000));
    assert_eq!(created["resultType"], "task");
    assert_eq!(created["status"], "working");
    assert_eq!(created["ttlMs"], TASK_TTL_MS);
    assert_eq!(created["pollIntervalMs"], POLL_INTERVAL_MS);
    assert_eq!(created["createdAt"], "2026-07-28T09:30:00.000Z");
    assert_eq!(created["lastUpdatedAt"], created["createdAt"]);
    for absent in ["task", "result", "error", "inputRequests", "requestState"] {
        assert!(created.get(absent).is_none(), "{absent} in {created}");
    }
    let id = created["taskId"].as_str().unwrap();
    assert!(
        id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()),
        "{id}"
    );
}

#[test]
fn a_created_task_resolves_at_once_as_working() {
    let mut server = server();
    let created = start(&server, job(1000));
    let got = get(&mut server, &created["taskId"]);
    assert_eq!(got["result"]["resultType"], "complete", "{got}");
    assert_eq!(got["result"]["taskId"], created["taskId"]);
    assert_eq!(got["result"]["status"], "working");
    assert!(got["result"].get("result").is_none());
}

#[test]
fn task_ids_differ() {
    let server = server();
    let a = start(&server, job(1000));
    let b = start(&server, job(1000));
    assert_ne!(a["taskId"], b["taskId"]);
}

#[test]
fn a_working_task_completes_when_its_time_comes_with_its_result_inlined() {
    let mut server = server();
    let created = start(&server, job(1000));
    wait(999);
    assert_eq!(status(&mut server, &created["taskId"]), "working");
    wait(5000);
    let got = get(&mut server, &created["taskId"])["result"].clone();
    assert_eq!(got["status"], "completed");
    assert_eq!(got["result"], json!({"text": "done n"}));
    assert_eq!(got["lastUpdatedAt"], "2026-07-28T09:30:01.000Z");
    assert!(got.get("error").is_none());
}

#[test]
fn a_job_that_errs_fails_with_the_error_inlined_and_no_result() {
    let mut server = server();
    let created = start(
        &server,
        Job {
            finish: |_, _| Err(RpcError::new(INTERNAL_ERROR, "broke")),
            ..job(10)
        },
    );
    wait(10);
    let got = get(&mut server, &created["taskId"])["result"].clone();
    assert_eq!(got["status"], "failed");
    assert_eq!(got["error"], json!({"code": -32603, "message": "broke"}));
    assert!(got.get("result").is_none());
}

#[test]
fn an_unknown_task_id_is_invalid_params_for_every_method() {
    let mut server = server();
    for (method, params) in [
        ("tasks/get", json!({"taskId": "nope"})),
        (
            "tasks/update",
            json!({"taskId": "nope", "inputResponses": {}}),
        ),
        ("tasks/cancel", json!({"taskId": "nope"})),
    ] {
        let reply = call(&mut server, method, params, true);
        assert_eq!(reply["error"]["code"], -32602, "{method}: {reply}");
    }
}

#[test]
fn a_task_id_that_is_not_a_string_is_invalid_params() {
    let reply = call(&mut server(), "tasks/get", json!({"taskId": 7}), true);
    invalid_params_at(&reply, "/params/taskId");
}

#[test]
fn tasks_methods_without_the_extension_are_refused_naming_it() {
    let mut server = server();
    let created = start(&server, job(1000));
    for method in METHODS {
        let params = json!({"taskId": created["taskId"], "inputResponses": {}});
        let reply = call(&mut server, method, params, false);
        assert_eq!(reply["error"]["code"], -32021, "{method}: {reply}");
        assert_eq!(
            reply["error"]["data"]["requiredCapabilities"],
            json!({"extensions": {TASKS_EXTENSION: {}}})
        );
    }
}

#[test]
fn tasks_methods_are_unknown_without_a_store() {
    let reply = call(
        &mut MockServer::new(),
        "tasks/get",
        json!({"taskId": "x"}),
        true,
    );
    assert_eq!(reply["error"]["code"], -32601, "{reply}");
}

#[test]
fn removed_tasks_methods_are_unknown() {
    for method in ["tasks/result", "tasks/list"] {
        let reply = call(&mut server(), method, json!({"taskId": "x"}), true);
        assert_eq!(reply["error"]["code"], -32601, "{method}: {reply}");
    }
}

#[test]
fn cancel_of_a_working_task_acks_empty_and_cancels_it() {
    let mut server = server();
    let created = start(&server, job(60_000));
    let ack = cancel(&mut server, &created["taskId"]);
    for absent in ["taskId", "status", "result", "error", "inputRequests"] {
        assert!(ack["result"].get(absent).is_none(), "{absent} in {ack}");
    }
    wait(120_000);
    assert_eq!(status(&mut server, &created["taskId"]), "cancelled");
}

#[test]
fn cancel_of_a_finished_task_acks_and_keeps_its_status() {
    let mut server = server();
    let created = start(&server, job(10));
    wait(10);
    cancel(&mut server, &created["taskId"]);
    let got = get(&mut server, &created["taskId"])["result"].clone();
    assert_eq!(got["status"], "completed");
    assert_eq!(got["result"], json!({"text": "done n"}));
}

#[test]
fn an_asking_task_lists_its_outstanding_input_requests() {
    let mut server = server();
    let created = start(&server, asking());
    assert_eq!(created["status"], "input_required");
    assert!(created.get("inputRequests").is_none(), "{created}");
    let got = get(&mut server, &created["taskId"])["result"].clone();
    assert_eq!(got["status"], "input_required");
    let keys: Vec<&String> = got["inputRequests"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["a", "b"]);
    assert_eq!(got["inputRequests"]["a"]["method"], "elicitation/create");
}

#[test]
fn a_partial_update_keeps_the_task_waiting_for_the_rest_only() {
    let mut server = server();
    let id = start(&server, asking())["taskId"].clone();
    let answer = json!({"action": "accept", "content": {"v": "1"}});
    let ack = call(
        &mut server,
        "tasks/update",
        json!({"taskId": id, "inputResponses": {"a": answer}}),
        true,
    );
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    assert!(ack["result"].get("status").is_none());
    let got = get(&mut server, &id)["result"].clone();
    assert_eq!(got["status"], "input_required");
    let keys: Vec<&String> = got["inputRequests"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["b"]);
}

#[test]
fn the_last_answer_resumes_the_task_to_completion_with_the_answers() {
    let mut server = server();
    let id = start(&server, asking())["taskId"].clone();
    let answer = |v: &str| json!({"action": "accept", "content": {"v": v}});
    call(
        &mut server,
        "tasks/update",
        json!({"taskId": id, "inputResponses": {"a": answer("1")}}),
        true,
    );
    call(
        &mut server,
        "tasks/update",
        json!({"taskId": id, "inputResponses": {"b": answer("2")}}),
        true,
    );
    assert_eq!(status(&mut server, &id), "working");
    wait(RESUME_MS);
    let got = get(&mut server, &id)["result"].clone();
    assert_eq!(got["status"], "completed");
    assert_eq!(got["result"], json!({"text": "1+2"}));
}

#[test]
fn answers_to_keys_not_outstanding_are_ignored() {
    let mut server = server();
    let id = start(&server, asking())["taskId"].clone();
    let first = json!({"action": "accept", "content": {"v": "1"}});
    call(
        &mut server,
        "tasks/update",
        json!({"taskId": id, "inputResponses": {"a": first}}),
        true,
    );
    let again = json!({"action": "accept", "content": {"v": "changed"}});
    let ack = call(
        &mut server,
        "tasks/update",
        json!({"taskId": id, "inputResponses": {"a": again, "never-asked": {"x": 1}}}),
        true,
    );
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    let got = get(&mut server, &id)["result"].clone();
    assert_eq!(got["status"], "input_required");
    assert_eq!(got["inputRequests"].as_object().unwrap().len(), 1);
}

#[test]
fn input_responses_that_are_not_an_object_are_invalid_params() {
    let mut server = server();
    let id = start(&server, asking())["taskId"].clone();
    let reply = call(
        &mut server,
        "tasks/update",
        json!({"taskId": id, "inputResponses": [1]}),
        true,
    );
    invalid_params_at(&reply, "/params/inputResponses");
}

#[test]
fn an_answer_that_is_no_elicitation_result_is_invalid_params_and_not_taken() {
    let mut server = server();
    let id = start(&server, asking())["taskId"].clone();
    let reply = call(
        &mut server,
        "tasks/update",
        json!({"taskId": id, "inputResponses": {"a": {"v": 1}}}),
        true,
    );
    invalid_params_at(&reply, "/params/inputResponses/a");
    let got = get(&mut server, &id)["result"].clone();
    assert_eq!(got["inputRequests"].as_object().unwrap().len(), 2);
}

#[test]
fn an_answer_over_the_bound_is_refused() {
    let mut server = server();
    let id = start(&server, asking())["taskId"].clone();
    let big = json!({"action": "accept", "content": {"v": "x".repeat(MAX_ANSWER_BYTES)}});
    let reply = call(
        &mut server,
        "tasks/update",
        json!({"taskId": id, "inputResponses": {"a": big}}),
        true,
    );
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    assert_eq!(
        get(&mut server, &id)["result"]["inputRequests"]
            .as_object()
            .unwrap()
            .len(),
        2
    );
}

#[test]
fn past_the_bound_of_running_tasks_a_new_one_is_refused() {
    let server = server();
    for _ in 0..MAX_TASKS {
        start(&server, job(60_000));
    }
    let refused = server.start_task(job(60_000)).unwrap_err();
    assert_eq!(refused.code, INTERNAL_ERROR);
    assert_eq!(server.task_store().unwrap().len(), MAX_TASKS);
}

#[test]
fn past_the_bound_the_oldest_finished_task_makes_room() {
    let mut server = server();
    let first = start(&server, job(10));
    let second = start(&server, job(10));
    for _ in 2..MAX_TASKS {
        start(&server, job(60_000));
    }
    wait(10);
    start(&server, job(60_000));
    assert_eq!(server.task_store().unwrap().len(), MAX_TASKS);
    // Both finished at the same time: the first in the list goes.
    assert_eq!(get(&mut server, &first["taskId"])["error"]["code"], -32602);
    assert_eq!(status(&mut server, &second["taskId"]), "completed");
}

#[test]
fn a_task_is_forgotten_once_its_ttl_has_passed() {
    let mut server = server();
    let created = start(&server, job(10));
    wait(TASK_TTL_MS - 1);
    assert_eq!(status(&mut server, &created["taskId"]), "completed");
    wait(1);
    assert_eq!(
        get(&mut server, &created["taskId"])["error"]["code"],
        -32602
    );
    assert!(server.task_store().unwrap().is_empty());
}

#[test]
fn timestamps_are_iso_8601_utc_to_the_millisecond() {
    assert_eq!(iso8601(0), "1970-01-01T00:00:00.000Z");
    assert_eq!(iso8601(951_782_400_000), "2000-02-29T00:00:00.000Z");
    assert_eq!(iso8601(1_785_231_000_123), "2026-07-28T09:30:00.123Z");
    assert_eq!(iso8601(4_102_444_799_999), "2099-12-31T23:59:59.999Z");
}
