//! `jrpc serve --http` as a process: the mock server over HTTP on 127.0.0.1, talked to with plain
//! HTTP/1.1 requests on a `TcpStream`. Every server here binds 127.0.0.1 port 0, stops by itself
//! (`--exit-after`) and is killed when its test ends; every read has a timeout.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;

mod common;

use common::http::{Http, Reply};
use common::{Server, WAIT};

fn http_server() -> Server {
    Server::jrpc_serve(&["--http", "127.0.0.1:0", "--exit-after", "60"])
}

const SUBTRACT: &str = r#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"#;
const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#;
const TOOLS_LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;

#[test]
fn banner_names_the_http_url_with_the_chosen_port() {
    let server = http_server();
    assert!(
        server
            .banner
            .starts_with("jrpc serve: HTTP on http://127.0.0.1:"),
        "{}",
        server.banner
    );
    let port: u16 = server
        .addr("http")
        .rsplit(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_ne!(port, 0);
}

#[test]
fn subtract_42_23_is_19() {
    let reply = http_server().post(&[], SUBTRACT);
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(reply.body, r#"{"jsonrpc":"2.0","result":19,"id":1}"#);
}

#[test]
fn notification_is_202_with_no_body() {
    let reply = http_server().post(
        &[],
        r#"{"jsonrpc":"2.0","method":"update","params":[1,2,3,4,5]}"#,
    );
    assert_eq!(reply.status, 202);
    assert_eq!(reply.body, "");
}

#[test]
fn batch_is_answered_with_an_array() {
    let reply = http_server().post(
        &[],
        r#"[{"jsonrpc":"2.0","method":"sum","params":[1,2,4],"id":"1"},{"jsonrpc":"2.0","method":"notify_hello","params":[7]},{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":"2"}]"#,
    );
    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.body,
        r#"[{"jsonrpc":"2.0","result":7,"id":"1"},{"jsonrpc":"2.0","result":19,"id":"2"}]"#
    );
}

#[test]
fn invalid_json_is_400_with_a_parse_error() {
    let reply = http_server().post(
        &[],
        r#"{"jsonrpc":"2.0","method":"foobar,"params":"bar","baz]"#,
    );
    assert_eq!(reply.status, 400);
    assert_eq!(
        reply.body,
        r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}"#
    );
}

#[test]
fn unknown_method_is_200_with_its_error() {
    let reply = http_server().post(&[], r#"{"jsonrpc":"2.0","method":"foobar","id":"1"}"#);
    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.body,
        r#"{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"},"id":"1"}"#
    );
}

#[test]
fn sse_only_accept_gets_one_event() {
    let reply = http_server().request(
        "POST",
        &[
            ("Content-Type", "application/json"),
            ("Accept", "text/event-stream"),
        ],
        SUBTRACT,
    );
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("text/event-stream"));
    assert_eq!(
        reply.body,
        "event: message\ndata: {\"jsonrpc\":\"2.0\",\"result\":19,\"id\":1}\n\n"
    );
}

#[test]
fn cors_preflight_allows_the_mcp_headers() {
    let reply = http_server().request(
        "OPTIONS",
        &[
            ("Origin", "http://127.0.0.1:8080"),
            ("Access-Control-Request-Method", "POST"),
            (
                "Access-Control-Request-Headers",
                "content-type,mcp-session-id,x-api-key",
            ),
            ("Access-Control-Request-Private-Network", "true"),
        ],
        "",
    );
    assert_eq!(reply.status, 204);
    assert_eq!(
        reply.header("access-control-allow-origin"),
        Some("http://127.0.0.1:8080")
    );
    let methods = reply.header("access-control-allow-methods").unwrap();
    assert!(
        methods.contains("POST") && methods.contains("DELETE"),
        "{methods}"
    );
    let allowed = reply
        .header("access-control-allow-headers")
        .unwrap()
        .to_ascii_lowercase();
    for name in [
        "content-type",
        "accept",
        "mcp-session-id",
        "mcp-protocol-version",
        "authorization",
        "x-api-key",
    ] {
        assert!(
            allowed.split(", ").any(|a| a == name),
            "{name} not in {allowed}"
        );
    }
    assert_eq!(
        reply.header("access-control-allow-private-network"),
        Some("true")
    );
}

#[test]
fn every_response_carries_cors_headers() {
    let server = http_server();
    let with_origin = server.post(&[("Origin", "http://localhost:8080")], SUBTRACT);
    assert_eq!(
        with_origin.header("access-control-allow-origin"),
        Some("http://localhost:8080")
    );
    assert_eq!(
        with_origin.header("access-control-expose-headers"),
        Some("Mcp-Session-Id")
    );
    let without = server.request("GET", &[], "");
    assert_eq!(without.header("access-control-allow-origin"), Some("*"));
    let not_found = server.post(
        &[
            ("Mcp-Session-Id", "no-such-session"),
            ("Origin", "http://127.0.0.1:5173"),
        ],
        SUBTRACT,
    );
    assert_eq!(not_found.status, 404);
    assert_eq!(
        not_found.header("access-control-allow-origin"),
        Some("http://127.0.0.1:5173")
    );
}

#[test]
fn a_foreign_host_or_origin_is_refused_with_403() {
    let server = http_server();
    // DNS rebinding: a page on evil.example whose name now points at 127.0.0.1.
    for headers in [
        &[("Host", "evil.example")][..],
        &[("Origin", "https://evil.example")],
        &[("Origin", "null")],
    ] {
        let reply = server.post(headers, SUBTRACT);
        assert_eq!(reply.status, 403, "{headers:?}");
        assert!(
            reply.body.contains("\"code\":-32000")
                && reply.body.contains("DNS-rebinding protection"),
            "{}",
            reply.body
        );
        assert_eq!(reply.header("access-control-allow-origin"), None);
    }
    // The preflight too.
    let preflight = server.request(
        "OPTIONS",
        &[
            ("Origin", "https://evil.example"),
            ("Access-Control-Request-Method", "POST"),
        ],
        "",
    );
    assert_eq!(preflight.status, 403);
}

#[test]
fn allow_origin_lets_that_origin_in_and_allow_remote_any_host() {
    let server = Server::jrpc_serve(&[
        "--http",
        "127.0.0.1:0",
        "--exit-after",
        "60",
        "--allow-origin",
        "https://example.github.io",
    ]);
    let allowed = server.post(&[("Origin", "https://example.github.io")], SUBTRACT);
    assert_eq!(allowed.status, 200);
    assert_eq!(
        allowed.header("access-control-allow-origin"),
        Some("https://example.github.io")
    );
    assert_eq!(
        server
            .post(&[("Origin", "https://other.github.io")], SUBTRACT)
            .status,
        403
    );
    assert_eq!(
        server.post(&[("Host", "evil.example")], SUBTRACT).status,
        403
    );
    let remote = Server::jrpc_serve(&[
        "--http",
        "127.0.0.1:0",
        "--exit-after",
        "60",
        "--allow-remote",
    ]);
    assert_eq!(
        remote.post(&[("Host", "my-box.lan:8765")], SUBTRACT).status,
        200
    );
}

#[test]
fn initialize_returns_a_session_id_that_later_requests_share() {
    let server = http_server();
    let init = server.post(&[], INITIALIZE);
    assert_eq!(init.status, 200);
    let session = init
        .header("mcp-session-id")
        .expect("initialize starts a session")
        .to_string();
    assert_eq!(session.len(), 32);
    assert!(session.bytes().all(|b| b.is_ascii_hexdigit()), "{session}");

    let first_tool = |reply: &Reply| {
        serde_json::from_str::<serde_json::Value>(&reply.body).unwrap()["result"]["tools"][0]
            .clone()
    };
    // In the session, the version initialize negotiated (2024-11-05: tools without a title) holds.
    let in_session = server.post(&[("Mcp-Session-Id", &session)], TOOLS_LIST);
    assert_eq!(in_session.status, 200);
    assert_eq!(
        in_session.header("mcp-session-id"),
        None,
        "only initialize hands out an id"
    );
    assert_eq!(
        first_tool(&in_session).get("title"),
        None,
        "{}",
        in_session.body
    );
    // Without the header, a request is answered by a fresh mock server.
    let sessionless = server.post(&[], TOOLS_LIST);
    assert_eq!(
        first_tool(&sessionless)["title"],
        "Addition Tool",
        "{}",
        sessionless.body
    );

    let notification = server.post(
        &[("Mcp-Session-Id", &session)],
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    assert_eq!(notification.status, 202);
    assert_eq!(
        server
            .request("DELETE", &[("Mcp-Session-Id", &session)], "")
            .status,
        204
    );
    let ended = server.post(&[("Mcp-Session-Id", &session)], TOOLS_LIST);
    assert_eq!(ended.status, 404);
    assert!(ended.body.contains("Session not found"), "{}", ended.body);
}

#[test]
fn failed_initialize_starts_no_session() {
    let reply = http_server().post(
        &[],
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
    );
    assert_eq!(reply.status, 200);
    assert!(reply.body.contains("-32602"), "{}", reply.body);
    assert_eq!(reply.header("mcp-session-id"), None);
}

#[test]
fn wrong_content_type_is_415_and_unacceptable_accept_is_406() {
    let server = http_server();
    let text = server.request("POST", &[("Content-Type", "text/plain")], SUBTRACT);
    assert_eq!(text.status, 415);
    assert!(text.body.contains("application/json"), "{}", text.body);
    let html = server.request(
        "POST",
        &[
            ("Content-Type", "application/json; charset=utf-8"),
            ("Accept", "text/html"),
        ],
        SUBTRACT,
    );
    assert_eq!(html.status, 406);
    let charset = server.request(
        "POST",
        &[("Content-Type", "application/json; charset=utf-8")],
        SUBTRACT,
    );
    assert_eq!(
        charset.status, 200,
        "a charset parameter is fine and no Accept means JSON"
    );
}

#[test]
fn get_is_405_with_a_short_explanation() {
    let reply = http_server().request("GET", &[], "");
    assert_eq!(reply.status, 405);
    assert_eq!(reply.header("allow"), Some("POST, DELETE, OPTIONS"));
    assert!(
        reply.body.contains("POST a JSON-RPC message"),
        "{}",
        reply.body
    );
}

#[test]
fn ws_and_http_together_print_both_urls() {
    let server = Server::jrpc_serve(&[
        "--ws",
        "127.0.0.1:0",
        "--http",
        "127.0.0.1:0",
        "--exit-after",
        "60",
    ]);
    assert!(
        server
            .banner
            .starts_with("jrpc serve: WebSocket on ws://127.0.0.1:"),
        "{}",
        server.banner
    );
    assert!(
        server.banner.contains(", HTTP on http://127.0.0.1:"),
        "{}",
        server.banner
    );
    assert_eq!(server.post(&[], SUBTRACT).status, 200);
}

#[test]
fn port_in_use_is_one_line_and_exit_2() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let out = common::output_of(Command::new(env!("CARGO_BIN_EXE_jrpc")).args([
        "serve",
        "--http",
        &format!("127.0.0.1:{port}"),
        "--exit-after",
        "5",
    ]));
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(&format!("port {port} is already in use")),
        "{stderr}"
    );
}

#[test]
fn address_that_is_not_loopback_needs_allow_remote() {
    let out = common::output_of(Command::new(env!("CARGO_BIN_EXE_jrpc")).args([
        "serve",
        "--http",
        "0.0.0.0:0",
        "--exit-after",
        "5",
    ]));
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("not a loopback address") && stderr.contains("--allow-remote"),
        "{stderr}"
    );
}

#[test]
fn ws_and_http_on_the_same_port_is_a_usage_error() {
    let free = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .to_string();
    let out = common::output_of(Command::new(env!("CARGO_BIN_EXE_jrpc")).args([
        "serve",
        "--ws",
        &free,
        "--http",
        &free,
        "--exit-after",
        "5",
    ]));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr), format!("jrpc serve: --ws and --http cannot share {free}; give them different ports (0 picks a free one)\n"));
}

#[test]
fn an_empty_body_is_400_with_a_parse_error() {
    let server = http_server();
    for body in ["", "  \r\n"] {
        let reply = server.post(&[], body);
        assert_eq!(reply.status, 400, "{body:?}");
        assert_eq!(
            reply.body,
            r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}"#
        );
    }
}

#[test]
fn a_body_over_the_limit_is_413_with_a_json_rpc_error() {
    let server = http_server();
    let addr = server.addr("http");
    let mut stream = TcpStream::connect(&addr).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    let size = 16 * 1024 * 1024 + 1;
    let head = format!("POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {size}\r\n\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    // The server may answer (and close) before all of it is sent.
    let _ = stream.write_all(&vec![b' '; size]);
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let reply = Reply::parse(&String::from_utf8_lossy(&raw));
    assert_eq!(reply.status, 413);
    assert!(
        reply.body.contains("\"code\":-32000") && reply.body.contains("Payload Too Large"),
        "{}",
        reply.body
    );
}

#[test]
fn a_client_that_never_finishes_its_head_does_not_hold_up_others() {
    let server = http_server();
    let addr = server.addr("http");
    // Sixty connections that say half a request line and then nothing.
    let idle: Vec<TcpStream> = (0..60)
        .map(|_| {
            let mut s = TcpStream::connect(&addr).unwrap();
            s.write_all(b"POST /mcp HT").unwrap();
            s
        })
        .collect();
    let reply = server.post(
        &[],
        r#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"#,
    );
    assert_eq!(reply.body, r#"{"jsonrpc":"2.0","result":19,"id":1}"#);
    // And the server hangs up on them once the head timeout (10 s) has passed.
    let mut first = idle.into_iter().next().unwrap();
    first
        .set_read_timeout(Some(std::time::Duration::from_secs(20)))
        .unwrap();
    let mut rest = Vec::new();
    let started = std::time::Instant::now();
    let _ = first.read_to_end(&mut rest);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(19),
        "the idle connection was not closed"
    );
}

/// A tool that sends notifications while it runs (`--fixtures conformance`'s progress tool): the
/// POST's reply is an SSE stream, the progress first and the result last, in one response.
#[test]
fn notifications_during_a_call_come_first_on_the_posts_sse_stream() {
    let server = Server::jrpc_serve(&[
        "--http",
        "127.0.0.1:0",
        "--exit-after",
        "60",
        "--fixtures",
        "conformance",
    ]);
    let init = server.post(&[], INITIALIZE);
    let session = init
        .header("mcp-session-id")
        .expect("a session")
        .to_string();
    let call = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"test_tool_with_progress","_meta":{"progressToken":"p1"}}}"#;
    let reply = server.post(&[("Mcp-Session-Id", &session)], call);
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("text/event-stream"));
    let events: Vec<serde_json::Value> = reply
        .body
        .split("\n\n")
        .filter_map(|event| event.lines().find_map(|l| l.strip_prefix("data: ")))
        .map(|data| serde_json::from_str(data).expect("each event is JSON"))
        .collect();
    assert_eq!(events.len(), 4, "{}", reply.body);
    for (event, done) in events.iter().zip([0, 50, 100]) {
        assert_eq!(event["method"], "notifications/progress");
        assert_eq!(event["params"]["progressToken"], "p1");
        assert_eq!(event["params"]["progress"], done);
    }
    assert_eq!(events[3]["id"], 7);
    assert!(events[3]["result"]["content"].is_array());
}

const INITIALIZE_ASKABLE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"sampling":{},"elicitation":{}},"clientInfo":{"name":"test","version":"1"}}}"#;
const ASK_NAME: &str = r#"{"jsonrpc":"2.0","id":"c7","method":"tools/call","params":{"name":"ask_name","arguments":{}}}"#;

/// A session whose client can be asked: its id.
fn askable_session(server: &Server) -> String {
    let init = server.post(&[], INITIALIZE_ASKABLE);
    init.header("mcp-session-id")
        .expect("initialize starts a session")
        .to_string()
}

/// POSTs `body` in `session` on a connection of its own, returning it once the response head and
/// `until` (in the body) have arrived; the rest is read by [`rest`].
fn open_post(server: &Server, session: &str, body: &str, until: &str) -> (TcpStream, String) {
    let addr = server.addr("http");
    let mut stream = TcpStream::connect(&addr).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: {session}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    let mut seen = String::new();
    let mut buf = [0u8; 4096];
    while !seen.contains(until) {
        let n = stream.read(&mut buf).expect("more of the stream in time");
        assert!(n > 0, "the stream ended before {until:?}: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    (stream, seen)
}

/// The rest of an open response, to its end.
fn rest(mut stream: TcpStream) -> String {
    let mut raw = Vec::new();
    stream
        .read_to_end(&mut raw)
        .expect("the stream ends in time");
    String::from_utf8(raw).unwrap()
}

#[test]
fn a_call_that_asks_the_client_streams_the_request_then_the_result_after_the_answer_post() {
    let server = http_server();
    let session = askable_session(&server);
    let (stream, head) = open_post(&server, &session, ASK_NAME, "elicitation/create");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: text/event-stream"),
        "{head}"
    );
    assert!(
        head.contains(r#"data: {"jsonrpc":"2.0","id":"mock-1","method":"elicitation/create""#),
        "{head}"
    );
    let answer = server.post(
        &[("Mcp-Session-Id", &session)],
        r#"{"jsonrpc":"2.0","id":"mock-1","result":{"action":"accept","content":{"name":"Ann"}}}"#,
    );
    assert_eq!(answer.status, 202);
    assert_eq!(answer.body, "");
    let tail = rest(stream);
    assert!(
        tail.contains(r#"data: {"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"Hello, Ann!"}]},"id":"c7"}"#),
        "{tail}"
    );
}

#[test]
fn cancelling_a_call_that_waits_ends_its_stream_without_a_result() {
    let server = http_server();
    let session = askable_session(&server);
    let (stream, _) = open_post(&server, &session, ASK_NAME, "elicitation/create");
    let cancel = server.post(
        &[("Mcp-Session-Id", &session)],
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c7"}}"#,
    );
    assert_eq!(cancel.status, 202);
    let tail = rest(stream);
    assert!(tail.contains("notifications/cancelled"), "{tail}");
    assert!(!tail.contains(r#""id":"c7""#), "no result: {tail}");
}

#[test]
fn a_call_that_asks_a_client_accepting_only_json_is_a_tool_error_at_once() {
    let server = http_server();
    let session = askable_session(&server);
    let reply = server.request(
        "POST",
        &[
            ("Content-Type", "application/json"),
            ("Accept", "application/json"),
            ("Mcp-Session-Id", &session),
        ],
        ASK_NAME,
    );
    assert_eq!(reply.status, 200);
    let body: serde_json::Value = serde_json::from_str(&reply.body).unwrap();
    assert_eq!(body["id"], "c7");
    assert_eq!(body["result"]["isError"], true);
    assert!(body["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("text/event-stream"));
}

#[cfg(target_os = "linux")]
#[test]
fn a_batch_whose_replies_pass_16_mib_gets_one_error_in_bounded_memory() {
    // 2 MiB of tools/list asked for a 181 MB reply: 1.9 GB at the peak, 1.5 GB kept idle.
    let server = http_server();
    let reply = server.post(&[], &common::tools_list_batch(44_000));
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body, common::REPLY_TOO_LARGE);
    let peak = common::peak_memory(server.child.id());
    assert!(peak < 300 * 1024 * 1024, "peak {} MiB", peak >> 20);
    // A batch under the bound is answered whole, as before.
    let reply = server.post(&[], &common::tools_list_batch(100));
    assert_eq!(reply.status, 200);
    let replies: serde_json::Value = serde_json::from_str(&reply.body).unwrap();
    assert_eq!(replies.as_array().map(Vec::len), Some(100));
}

/// A 2026-07-28 `tools/list` (the envelope in `_meta`), id 3.
const MODERN_TOOLS_LIST: &str = r#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;

#[test]
fn a_2026_request_whose_headers_match_its_body_is_answered_with_200() {
    let reply = http_server().post(
        &[
            ("MCP-Protocol-Version", "2026-07-28"),
            ("mcp-method", "tools/list"),
        ],
        MODERN_TOOLS_LIST,
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(
        reply.body.contains(r#""resultType":"complete""#),
        "{}",
        reply.body
    );
}

#[test]
fn a_2026_request_whose_mcp_method_header_differs_is_400_header_mismatch() {
    let reply = http_server().post(
        &[
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "prompts/list"),
        ],
        MODERN_TOOLS_LIST,
    );
    assert_eq!(reply.status, 400);
    assert!(reply.body.contains(r#""code":-32020"#), "{}", reply.body);
    assert!(reply.body.ends_with(r#""id":3}"#), "{}", reply.body);
}

#[test]
fn a_2026_request_for_a_removed_method_is_404_method_not_found() {
    let ping = MODERN_TOOLS_LIST.replace("tools/list", "ping");
    let reply = http_server().post(
        &[
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "ping"),
        ],
        &ping,
    );
    assert_eq!(reply.status, 404);
    assert!(reply.body.contains(r#""code":-32601"#), "{}", reply.body);
}

#[test]
fn new_sessions_forget_the_least_recently_used_not_one_in_use() {
    // 1,100 new sessions while one is in use: forgetting the oldest created 404ed the busy one.
    let server = http_server();
    let session = |reply: &Reply| reply.header("mcp-session-id").unwrap().to_string();
    let busy = session(&server.post(&[], INITIALIZE));
    let first_idle = session(&server.post(&[], INITIALIZE));
    for n in 0..1100 {
        server.post(&[], INITIALIZE);
        if n % 100 == 0 {
            let used = server.post(&[("Mcp-Session-Id", &busy)], TOOLS_LIST);
            assert_eq!(used.status, 200, "after {n} new sessions: {}", used.body);
        }
    }
    let used = server.post(&[("Mcp-Session-Id", &busy)], TOOLS_LIST);
    assert_eq!(used.status, 200, "{}", used.body);
    let idle = server.post(&[("Mcp-Session-Id", &first_idle)], TOOLS_LIST);
    assert_eq!(
        idle.status, 404,
        "the least recently used went: {}",
        idle.body
    );
}

/// How long a heavy POST may take to be answered: seconds of work in a debug build, more on a
/// loaded machine (what is timed is the ping beside them).
const HEAVY_WAIT: std::time::Duration = std::time::Duration::from_secs(300);

/// POSTs `body` on a connection of its own to `addr`; `sent` hears when the body is written.
/// The HTTP status of the reply.
fn post_on_own_connection(addr: &str, body: &str, sent: std::sync::mpsc::Sender<()>) -> u16 {
    let mut stream = TcpStream::connect(addr).expect("the server accepts");
    stream.set_read_timeout(Some(HEAVY_WAIT)).unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let _ = sent.send(());
    let mut raw = Vec::new();
    stream
        .read_to_end(&mut raw)
        .expect("the response ends in time");
    Reply::parse(&String::from_utf8_lossy(&raw)).status
}

#[test]
fn heavy_requests_on_other_connections_do_not_hold_up_a_ping() {
    let server = http_server();
    let addr = server.addr("http");
    // A batch of 200 000 calls (13 MB): linear work, seconds of it in a debug build. Answered
    // under the lock of every session, the server answered nothing else meanwhile.
    let batch: Vec<String> = (0..200_000)
        .map(|i| format!(r#"{{"jsonrpc":"2.0","method":"sum","params":[1,2],"id":{i}}}"#))
        .collect();
    let batch = std::sync::Arc::new(format!("[{}]", batch.join(",")));
    let (sent, written) = std::sync::mpsc::channel();
    let heavy: Vec<_> = (0..3)
        .map(|_| {
            let (addr, batch, sent) = (addr.clone(), std::sync::Arc::clone(&batch), sent.clone());
            std::thread::spawn(move || post_on_own_connection(&addr, &batch, sent))
        })
        .collect();
    for _ in 0..3 {
        written
            .recv_timeout(WAIT)
            .expect("the heavy bodies are written");
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let started = std::time::Instant::now();
    let ping = server.post(&[], r#"{"jsonrpc":"2.0","method":"ping","id":1}"#);
    let took = started.elapsed();
    assert_eq!(ping.status, 200, "{}", ping.body);
    assert_eq!(ping.body, r#"{"jsonrpc":"2.0","result":{},"id":1}"#);
    assert!(
        took < std::time::Duration::from_millis(1500),
        "the ping waited {took:?} behind the heavy requests"
    );
    // Answered, or past the server's answer budget on a loaded machine (503).
    for request in heavy {
        let status = request.join().expect("the heavy POST ran");
        assert!(
            status == 200 || status == 503,
            "a heavy POST answered {status}"
        );
    }
}
