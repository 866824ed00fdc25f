//! MCP's Tasks extension (io.modelcontextprotocol/tasks, SEP-2663) served by `jrpc serve --http
//! --fixtures conformance` as a process: a task made by one stateless POST is followed through
//! the next ones (`tasks/get`, `tasks/update`, `tasks/cancel`), with the headers a 2026-07-28 client
//! sends (SEP-2243: `Mcp-Name` is the task id). The store's transitions one by one:
//! engine/src/mock/tasks/tests.rs.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::time::Instant;

use serde_json::{json, Value};

mod common;

use common::http::{Http, Reply};
use common::{Server, WAIT};

const EXTENSION: &str = "io.modelcontextprotocol/tasks";

fn conformance_server() -> Server {
    Server::jrpc_serve(&[
        "--http",
        "127.0.0.1:0",
        "--fixtures",
        "conformance",
        "--exit-after",
        "60",
    ])
}

/// POSTs `method` with `params` in a 2026-07-28 envelope (declaring the extension when
/// `declared`), with the headers mirroring it; `mcp_name` overrides the `Mcp-Name` header.
fn post(
    server: &Server,
    method: &str,
    mut params: Value,
    declared: bool,
    mcp_name: Option<&str>,
) -> (u16, Value) {
    let capabilities = if declared {
        json!({"elicitation": {}, "extensions": {EXTENSION: {}}})
    } else {
        json!({})
    };
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "mock_tasks", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    });
    let name = mcp_name.map(str::to_string).or_else(|| {
        params
            .get("taskId")
            .or(params.get("name"))
            .and_then(Value::as_str)
            .map(str::to_string)
    });
    let mut headers = vec![
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", method),
    ];
    if let Some(name) = &name {
        headers.push(("Mcp-Name", name));
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string();
    let Reply { status, body, .. } = server.post(&headers, &body);
    let reply = serde_json::from_str(&body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"));
    (status, reply)
}

/// The result of `tools/call name arguments`, from a client declaring the extension.
fn call_tool(server: &Server, name: &str, arguments: Value) -> Value {
    let (status, reply) = post(
        server,
        "tools/call",
        json!({"name": name, "arguments": arguments}),
        true,
        None,
    );
    assert_eq!(status, 200, "{reply}");
    reply["result"].clone()
}

fn get(server: &Server, id: &str) -> Value {
    let (status, reply) = post(server, "tasks/get", json!({"taskId": id}), true, None);
    assert_eq!(status, 200, "{reply}");
    reply["result"].clone()
}

/// Polls `tasks/get` until the task's status is `status` or a terminal one (within [`WAIT`]).
fn poll_until(server: &Server, id: &str, status: &str) -> Value {
    let start = Instant::now();
    loop {
        let task = get(server, id);
        let now = task["status"].as_str().unwrap_or_default().to_string();
        if now == status || ["completed", "failed", "cancelled"].contains(&now.as_str()) {
            return task;
        }
        assert!(start.elapsed() < WAIT, "still {now} after {WAIT:?}: {task}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
fn server_discover_declares_the_tasks_extension() {
    let server = conformance_server();
    let (status, reply) = post(&server, "server/discover", json!({}), false, None);
    assert_eq!(status, 200, "{reply}");
    assert_eq!(
        reply["result"]["capabilities"]["extensions"],
        json!({EXTENSION: {}})
    );
    assert!(reply["result"]["capabilities"].get("tasks").is_none());
}

#[test]
fn a_task_is_followed_across_stateless_posts_to_its_result() {
    let server = conformance_server();
    let created = call_tool(
        &server,
        "slow_compute",
        json!({"seconds": 1, "label": "over-http"}),
    );
    assert_eq!(created["resultType"], "task", "{created}");
    let id = created["taskId"].as_str().expect("a task id");
    let working = get(&server, id);
    assert_eq!(working["resultType"], "complete");
    assert_eq!(working["status"], "working", "{working}");
    let done = poll_until(&server, id, "completed");
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["result"]["content"][0]["text"], "Computed over-http.");
}

#[test]
fn an_asking_task_completes_with_the_answer_given_by_tasks_update() {
    let server = conformance_server();
    let created = call_tool(&server, "confirm_delete", json!({"filename": "a.txt"}));
    let id = created["taskId"].as_str().expect("a task id");
    let asking = poll_until(&server, id, "input_required");
    let keys: Vec<String> = asking["inputRequests"]
        .as_object()
        .expect("inputRequests")
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys, ["confirm_delete"], "{asking}");
    let answer = json!({"action": "accept", "content": {"confirm": true}});
    let (status, ack) = post(
        &server,
        "tasks/update",
        json!({"taskId": id, "inputResponses": {"confirm_delete": answer}}),
        true,
        None,
    );
    assert_eq!(
        (status, &ack["result"]),
        (
            200,
            &json!({"resultType": "complete", "_meta": ack["result"]["_meta"]})
        ),
        "{ack}"
    );
    let done = poll_until(&server, id, "completed");
    assert_eq!(
        done["result"]["content"][0]["text"], "Deleted a.txt (the user confirmed).",
        "{done}"
    );
}

#[test]
fn tasks_cancel_settles_a_running_task_as_cancelled() {
    let server = conformance_server();
    let created = call_tool(
        &server,
        "slow_compute",
        json!({"seconds": 60, "label": "long"}),
    );
    let id = created["taskId"].as_str().expect("a task id");
    let (status, ack) = post(&server, "tasks/cancel", json!({"taskId": id}), true, None);
    assert_eq!(status, 200, "{ack}");
    assert_eq!(ack["result"]["resultType"], "complete");
    assert_eq!(get(&server, id)["status"], "cancelled");
}

#[test]
fn tasks_get_whose_mcp_name_is_not_the_task_id_is_400_header_mismatch() {
    let server = conformance_server();
    let created = call_tool(
        &server,
        "slow_compute",
        json!({"seconds": 60, "label": "routed"}),
    );
    let id = created["taskId"].as_str().expect("a task id");
    let (status, reply) = post(
        &server,
        "tasks/get",
        json!({"taskId": id}),
        true,
        Some("another-task"),
    );
    assert_eq!(status, 400, "{reply}");
    assert_eq!(reply["error"]["code"], -32020);
}

#[test]
fn tasks_get_from_a_client_without_the_extension_is_400_missing_capability() {
    let server = conformance_server();
    let created = call_tool(
        &server,
        "slow_compute",
        json!({"seconds": 60, "label": "gated"}),
    );
    let id = created["taskId"].as_str().expect("a task id");
    let (status, reply) = post(&server, "tasks/get", json!({"taskId": id}), false, None);
    assert_eq!(status, 400, "{reply}");
    assert_eq!(reply["error"]["code"], -32021);
    assert_eq!(
        reply["error"]["data"]["requiredCapabilities"]["extensions"],
        json!({EXTENSION: {}})
    );
}

#[test]
fn a_task_only_tool_refuses_a_client_without_the_extension() {
    let server = conformance_server();
    let (status, reply) = post(
        &server,
        "tools/call",
        json!({"name": "failing_job", "arguments": {}}),
        false,
        None,
    );
    assert_eq!(status, 400, "{reply}");
    assert_eq!(reply["error"]["code"], -32021);
}
