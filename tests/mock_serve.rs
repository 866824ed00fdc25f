//! `jrpc serve` as a process: newline-delimited JSON-RPC on stdin, one reply line per request on
//! stdout, nothing on stdout but replies, exit 0 at the end of input.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::process::{Command, Output, Stdio};

mod common;

fn jrpc() -> Command {
    Command::new(env!("CARGO_BIN_EXE_jrpc"))
}

/// Runs `jrpc serve ARGS` with `input` on stdin until it exits.
fn serve(args: &[&str], input: &[u8]) -> Output {
    let args: Vec<&str> = std::iter::once("serve")
        .chain(args.iter().copied())
        .collect();
    common::jrpc(&args, input)
}

fn lines(output: &Output) -> Vec<serde_json::Value> {
    String::from_utf8(output.stdout.clone())
        .expect("stdout is UTF-8")
        .lines()
        .map(|l| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {l}"))
        })
        .collect()
}

#[test]
fn the_seed_workflow_lists_the_tools() {
    let out = serve(
        &[],
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#,
    );
    assert_eq!(out.status.code(), Some(0));
    let replies = lines(&out);
    assert_eq!(replies.len(), 1);
    assert_eq!(replies[0]["id"], 1);
    let names: Vec<&str> = replies[0]["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(&names[..3], ["add", "echo", "divide"]);
    assert!(
        names.contains(&"show_image") && names.contains(&"add_structured"),
        "{names:?}"
    );
    assert!(
        out.stderr.is_empty(),
        "nothing to log: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn tools_call_add_two_and_three_is_five() {
    let out = serve(&[], b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"add\",\"arguments\":{\"a\":2,\"b\":3}}}\n");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "{\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"5\"}]},\"id\":2}\n"
    );
}

#[test]
fn a_session_answers_requests_in_order_and_notifications_with_nothing() {
    let input = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "\n\n   \n",
        "this is not json\n",
        r#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":"s"}"#,
        "\r\n",
        r#"[{"jsonrpc":"2.0","method":"notify_hello","params":[7]}]"#,
        "\n",
        "[]\n",
        r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#,
    );
    let out = serve(&[], input.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    let replies = lines(&out);
    let summary: Vec<String> = replies
        .iter()
        .map(|r| {
            format!(
                "{} {}",
                r["id"],
                r.get("result")
                    .map_or_else(|| r["error"]["code"].to_string(), |_| "ok".to_string())
            )
        })
        .collect();
    // The session speaks 2025-06-18, which has no batches: the batch of one notification is
    // dropped without a word (nothing in it would be answered), `[]` gets -32600, id null.
    assert_eq!(
        summary,
        ["1 ok", "null -32700", "\"s\" ok", "null -32600", "3 ok"]
    );
    assert_eq!(replies[0]["result"]["protocolVersion"], "2025-06-18");
    assert_eq!(replies[2]["result"], 19);
}

#[test]
fn each_reply_is_written_before_the_next_line_is_read() {
    let mut child = jrpc()
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = common::lines_of(child.stdout.take().unwrap());
    for id in 1..=3 {
        writeln!(
            stdin,
            r#"{{"jsonrpc":"2.0","id":{id},"method":"sum","params":[{id},{id}]}}"#
        )
        .unwrap();
        stdin.flush().unwrap();
        let line = common::next_line(&stdout, "jrpc serve");
        assert_eq!(
            line,
            format!("{{\"jsonrpc\":\"2.0\",\"result\":{},\"id\":{id}}}", 2 * id)
        );
    }
    drop(stdin);
    assert_eq!(
        common::wait_within(&mut child, common::WAIT, "jrpc serve").code(),
        Some(0)
    );
}

#[test]
fn empty_input_exits_cleanly_with_no_output() {
    let out = serve(&[], b"");
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
}

#[test]
fn garbage_never_crashes_the_server() {
    let mut input = Vec::new();
    input.extend_from_slice(b"\xff\xfe\x00\x01 not utf-8\n");
    input.extend_from_slice(&[b'['; 200_000]);
    input.push(b'\n');
    input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"get_data\"}"); // no final newline
    let out = serve(&[], &input);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let replies = lines(&out);
    assert_eq!(replies.len(), 3);
    assert_eq!(replies[0]["error"]["code"], -32700);
    assert_eq!(replies[1]["error"]["code"], -32700);
    assert_eq!(replies[2]["result"], serde_json::json!(["hello", 5]));
}

#[test]
fn verbose_logs_go_to_stderr_only() {
    let out = serve(&["--verbose"], b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"method\":\"update\"}\n");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "{\"jsonrpc\":\"2.0\",\"result\":{},\"id\":1}\n"
    );
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        log.contains("--> {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"),
        "{log}"
    );
    assert!(log.contains("nothing is returned"), "{log}");
}

#[test]
fn help_and_bad_arguments() {
    let help = common::output_of(jrpc().args(["serve", "--help"]));
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&help.stdout).contains("Usage: jrpc serve"));
    let bad = common::output_of(jrpc().args(["serve", "--nope"]));
    assert_eq!(bad.status.code(), Some(2));
    assert!(bad.stdout.is_empty());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unexpected argument"));
}

/// `initialize` from a client that can be asked for sampling and elicitation.
const INITIALIZE_ASKABLE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"sampling":{},"elicitation":{}},"clientInfo":{"name":"t","version":"1"}}}"#;

#[test]
fn a_call_that_asks_the_client_writes_the_request_line_then_the_result_after_the_answer() {
    let input = [
        INITIALIZE_ASKABLE,
        r#"{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"ask_name","arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","id":"mock-1","result":{"action":"accept","content":{"name":"Ann"}}}"#,
    ]
    .join("\n")
        + "\n";
    let out = serve(&[], input.as_bytes());
    let lines = lines(&out);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[1]["method"], "elicitation/create");
    assert_eq!(lines[1]["id"], "mock-1");
    assert_eq!(lines[2]["id"], "c1");
    assert_eq!(lines[2]["result"]["content"][0]["text"], "Hello, Ann!");
}

#[test]
fn a_cancelled_call_that_waits_for_the_client_gets_no_result_line() {
    let input = [
        INITIALIZE_ASKABLE,
        r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"summarize","arguments":{"text":"x"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}"#,
        r#"{"jsonrpc":"2.0","id":"mock-1","result":{"role":"assistant","content":{"type":"text","text":"late"},"model":"m"}}"#,
    ]
    .join("\n")
        + "\n";
    let out = serve(&[], input.as_bytes());
    let lines = lines(&out);
    let methods: Vec<&str> = lines
        .iter()
        .skip(1)
        .map(|l| l["method"].as_str().unwrap_or("(reply)"))
        .collect();
    assert_eq!(
        methods,
        ["sampling/createMessage", "notifications/cancelled"],
        "{lines:?}"
    );
}

#[test]
fn a_batch_whose_replies_pass_16_mib_gets_one_error_line_and_the_next_is_answered() {
    let mut input = common::tools_list_batch(44_000).into_bytes();
    input.push(b'\n');
    input.extend_from_slice(common::tools_list_batch(3).as_bytes());
    let out = serve(&[], &input);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let mut replies = stdout.lines();
    assert_eq!(replies.next(), Some(common::REPLY_TOO_LARGE));
    let next: serde_json::Value = serde_json::from_str(replies.next().unwrap()).unwrap();
    assert_eq!(next.as_array().map(Vec::len), Some(3));
}
