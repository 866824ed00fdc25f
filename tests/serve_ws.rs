//! `jrpc serve --ws` as a process: the mock server over WebSocket on 127.0.0.1, talked to by a
//! tokio-tungstenite client. Every server here binds 127.0.0.1 port 0, stops by itself
//! (`--exit-after`) and is killed when its test ends; every wait is bounded.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::process::{Command, Stdio};

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

mod common;

use common::{connect, run, Server, Socket};

/// The next text frame (pings and pongs skipped).
async fn next_text(socket: &mut Socket) -> String {
    loop {
        match socket
            .next()
            .await
            .expect("a frame")
            .expect("a readable frame")
        {
            Message::Text(text) => return text.to_string(),
            Message::Ping(_) | Message::Pong(_) => continue,
            other => panic!("expected a text frame, got {other:?}"),
        }
    }
}

async fn exchange(socket: &mut Socket, text: &str) -> String {
    socket.send(Message::text(text)).await.unwrap();
    next_text(socket).await
}

fn ws_server() -> Server {
    Server::jrpc_serve(&["--ws", "127.0.0.1:0", "--exit-after", "60"])
}

#[test]
fn banner_names_the_websocket_url_with_the_chosen_port() {
    let server = ws_server();
    assert!(
        server
            .banner
            .starts_with("jrpc serve: WebSocket on ws://127.0.0.1:"),
        "{}",
        server.banner
    );
    let port: u16 = server
        .url("ws")
        .rsplit(':')
        .next()
        .unwrap()
        .parse()
        .expect("a port number");
    assert_ne!(port, 0);
}

#[test]
fn subtract_42_23_is_19() {
    let server = ws_server();
    let reply = run(async {
        let mut socket = connect(&server.url("ws")).await;
        exchange(
            &mut socket,
            r#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"#,
        )
        .await
    });
    assert_eq!(reply, r#"{"jsonrpc":"2.0","result":19,"id":1}"#);
}

#[test]
fn notification_gets_no_frame() {
    let server = ws_server();
    let reply = run(async {
        let mut socket = connect(&server.url("ws")).await;
        socket
            .send(Message::text(
                r#"{"jsonrpc":"2.0","method":"update","params":[1,2,3,4,5]}"#,
            ))
            .await
            .unwrap();
        // Frames come back in order: the first one answers the request sent after the notification.
        exchange(
            &mut socket,
            r#"{"jsonrpc":"2.0","method":"subtract","params":[5,3],"id":"after"}"#,
        )
        .await
    });
    assert_eq!(reply, r#"{"jsonrpc":"2.0","result":2,"id":"after"}"#);
}

#[test]
fn batch_is_answered_in_one_frame() {
    let server = ws_server();
    let reply = run(async {
        let mut socket = connect(&server.url("ws")).await;
        exchange(
            &mut socket,
            r#"[{"jsonrpc":"2.0","method":"sum","params":[1,2,4],"id":"1"},{"jsonrpc":"2.0","method":"notify_hello","params":[7]},{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":"2"}]"#,
        )
        .await
    });
    assert_eq!(
        reply,
        r#"[{"jsonrpc":"2.0","result":7,"id":"1"},{"jsonrpc":"2.0","result":19,"id":"2"}]"#
    );
}

#[test]
fn invalid_json_is_a_parse_error_and_the_connection_stays_open() {
    let server = ws_server();
    let (error, after) = run(async {
        let mut socket = connect(&server.url("ws")).await;
        let error = exchange(
            &mut socket,
            r#"{"jsonrpc":"2.0","method":"foobar,"params":"bar","baz]"#,
        )
        .await;
        let after = exchange(
            &mut socket,
            r#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":2}"#,
        )
        .await;
        (error, after)
    });
    assert_eq!(
        error,
        r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}"#
    );
    assert_eq!(after, r#"{"jsonrpc":"2.0","result":19,"id":2}"#);
}

#[test]
fn binary_frame_is_answered_with_a_parse_error_and_the_connection_stays_open() {
    let server = ws_server();
    let (error, after) = run(async {
        let mut socket = connect(&server.url("ws")).await;
        let json = br#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"#;
        socket.send(Message::binary(json.to_vec())).await.unwrap();
        let error = next_text(&mut socket).await;
        let after = exchange(
            &mut socket,
            r#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":2}"#,
        )
        .await;
        (error, after)
    });
    assert_eq!(
        error,
        r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}"#
    );
    assert_eq!(after, r#"{"jsonrpc":"2.0","result":19,"id":2}"#);
}

#[test]
fn each_connection_has_its_own_mcp_session() {
    let server = ws_server();
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#;
    let tools_list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    let (initialized, other) = run(async {
        let mut a = connect(&server.url("ws")).await;
        let mut b = connect(&server.url("ws")).await;
        exchange(&mut a, initialize).await;
        (
            exchange(&mut a, tools_list).await,
            exchange(&mut b, tools_list).await,
        )
    });
    let first_tool = |reply: &str| {
        serde_json::from_str::<serde_json::Value>(reply).unwrap()["result"]["tools"][0].clone()
    };
    // 2024-11-05 tools have no title; a connection that negotiated nothing lists the latest shape.
    assert_eq!(first_tool(&initialized).get("title"), None, "{initialized}");
    assert_eq!(first_tool(&other)["title"], "Addition Tool", "{other}");
}

#[test]
fn first_offered_subprotocol_is_accepted() {
    let server = ws_server();
    let protocol = run(async {
        let mut request = server.url("ws").into_client_request().unwrap();
        request
            .headers_mut()
            .insert("Sec-WebSocket-Protocol", "jsonrpc, mcp".parse().unwrap());
        let (_socket, response) = tokio_tungstenite::connect_async(request)
            .await
            .expect("the WebSocket opens");
        response
            .headers()
            .get("Sec-WebSocket-Protocol")
            .map(|v| v.to_str().unwrap().to_string())
    });
    assert_eq!(protocol.as_deref(), Some("jsonrpc"));
}

#[test]
fn exit_after_closes_sockets_with_1001_and_exits_0() {
    let mut server = Server::jrpc_serve(&["--ws", "127.0.0.1:0", "--exit-after", "1"]);
    let close = run(async {
        let mut socket = connect(&server.url("ws")).await;
        loop {
            match socket.next().await {
                Some(Ok(Message::Close(frame))) => return frame,
                Some(Ok(_)) => continue,
                other => panic!("expected a close frame, got {other:?}"),
            }
        }
    });
    let close = close.expect("the close frame has a code");
    assert_eq!(close.code, CloseCode::Away);
    assert_eq!(server.wait().code(), Some(0));
    assert_eq!(
        server.rest_of_stderr(),
        ["jrpc serve: stopped (--exit-after 1s)"]
    );
}

#[cfg(unix)]
#[test]
fn sigterm_and_ctrl_c_stop_it_cleanly() {
    // SIGINT is what Ctrl+C sends. Both are handled from the moment the server says it listens
    // (the handlers are registered before that line): a signal sent at once stops it cleanly.
    for (signal, reason) in [("-TERM", "SIGTERM"), ("-INT", "Ctrl+C")] {
        let mut server = ws_server();
        let killed = Command::new("kill")
            .args([signal, &server.child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        assert_eq!(server.wait().code(), Some(0), "{signal}");
        assert_eq!(
            server.rest_of_stderr(),
            [format!("jrpc serve: stopped ({reason})")],
            "{signal}"
        );
    }
}

#[test]
fn port_in_use_is_one_line_and_exit_2() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let out = common::output_of(Command::new(env!("CARGO_BIN_EXE_jrpc")).args([
        "serve",
        "--ws",
        &format!("127.0.0.1:{port}"),
        "--exit-after",
        "5",
    ]));
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr,
        format!("jrpc serve: --ws 127.0.0.1:{port}: port {port} is already in use on 127.0.0.1; stop the program using it or choose another port (0 picks a free one)\n")
    );
}

#[test]
fn address_that_is_not_loopback_needs_allow_remote() {
    let out = common::output_of(Command::new(env!("CARGO_BIN_EXE_jrpc")).args([
        "serve",
        "--ws",
        "0.0.0.0:0",
        "--exit-after",
        "5",
    ]));
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("0.0.0.0 is not a loopback address"),
        "{stderr}"
    );
    assert!(stderr.contains("--allow-remote"), "{stderr}");
}

#[test]
fn bad_arguments_are_usage_errors() {
    for args in [
        &["serve", "--ws"][..],
        &["serve", "--ws", "nowhere"],
        &["serve", "--ws", "127.0.0.1:0", "--exit-after", "0"],
        &["serve", "--ws", "127.0.0.1:0", "--exit-after", "soon"],
        &["serve", "--exit-after", "5"],
        &["serve", "--allow-remote"],
        &["serve", "--ws", "127.0.0.1:0", "--exit-after", "1e20"],
        &["serve", "--ws", "127.0.0.1:0", "--exit-after", "NaN"],
        &["serve", "--ws", "127.0.0.1:0", "--exit-after", "-1"],
    ] {
        let out = common::output_of(
            Command::new(env!("CARGO_BIN_EXE_jrpc"))
                .args(args)
                .stdin(Stdio::null()),
        );
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // clap's usage errors, or the server's own (an address it cannot use).
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("error: ") || err.starts_with("jrpc serve: "),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn an_empty_text_frame_gets_a_parse_error() {
    let server = ws_server();
    let replies = run(async {
        let mut socket = connect(&server.url("ws")).await;
        [
            exchange(&mut socket, "").await,
            exchange(&mut socket, " \n").await,
        ]
    });
    for reply in replies {
        assert_eq!(
            reply,
            r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}"#
        );
    }
}

/// The close frame the server sends next (other frames skipped).
async fn close_code(socket: &mut Socket) -> Option<(u16, String)> {
    while let Some(frame) = socket.next().await {
        match frame {
            Ok(Message::Close(Some(close))) => {
                return Some((u16::from(close.code), close.reason.to_string()))
            }
            Ok(Message::Close(None)) | Err(_) => return None,
            Ok(_) => continue,
        }
    }
    None
}

#[test]
fn a_message_over_16_mib_closes_with_1009() {
    let server = ws_server();
    let closed = run(async {
        let mut socket = connect(&server.url("ws")).await;
        let huge = format!("[{}1]", "1,".repeat(8 * 1024 * 1024 + 1));
        let _ = socket.send(Message::text(huge)).await;
        close_code(&mut socket).await
    });
    let (code, reason) = closed.expect("a close frame");
    assert_eq!(code, 1009, "{reason}");
    assert!(reason.contains("larger than"), "{reason}");
}

/// Opens a WebSocket by hand on a raw TCP stream and returns it after the handshake.
fn raw_websocket(addr: &str) -> std::net::TcpStream {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(common::WAIT)).unwrap();
    let head = format!("GET / HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    let mut got = Vec::new();
    let mut byte = [0u8];
    while !got.ends_with(b"\r\n\r\n") {
        stream.read_exact(&mut byte).unwrap();
        got.push(byte[0]);
    }
    assert!(
        got.starts_with(b"HTTP/1.1 101"),
        "{}",
        String::from_utf8_lossy(&got)
    );
    stream
}

/// The close code in the next frame read from a raw stream (a close frame: 0x88, len, code).
fn raw_close_code(stream: &mut std::net::TcpStream) -> u16 {
    use std::io::Read;
    let mut head = [0u8; 4];
    stream.read_exact(&mut head).unwrap();
    assert_eq!(head[0], 0x88, "a close frame");
    u16::from_be_bytes([head[2], head[3]])
}

#[test]
fn a_text_frame_that_is_not_utf8_closes_with_1007_and_an_unmasked_one_with_1002() {
    use std::io::Write;
    let server = ws_server();
    let addr = server.addr("ws");
    // Masked (as a client must) with a zero key, payload 0xFF 0xFE: not UTF-8.
    let mut stream = raw_websocket(&addr);
    stream
        .write_all(&[0x81, 0x82, 0, 0, 0, 0, 0xFF, 0xFE])
        .unwrap();
    assert_eq!(raw_close_code(&mut stream), 1007);
    // Unmasked: a protocol error.
    let mut stream = raw_websocket(&addr);
    stream.write_all(&[0x81, 0x02, b'[', b']']).unwrap();
    assert_eq!(raw_close_code(&mut stream), 1002);
}

#[test]
fn a_plain_http_get_on_the_websocket_port_gets_426() {
    use std::io::{Read, Write};
    let server = ws_server();
    let addr = server.addr("ws");
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    stream.set_read_timeout(Some(common::WAIT)).unwrap();
    stream
        .write_all(format!("GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
        .unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).unwrap();
    assert!(
        raw.starts_with("HTTP/1.1 426 Upgrade Required\r\n"),
        "{raw}"
    );
    assert!(raw.contains("speaks WebSocket"), "{raw}");
}

#[test]
fn a_huge_message_on_one_connection_does_not_stall_another() {
    let server = ws_server();
    let url = server.url("ws");
    let (slow, fast) = run(async {
        let mut big = connect(&url).await;
        let mut small = connect(&url).await;
        let batch: Vec<String> = (0..60_000)
            .map(|i| {
                format!(r#"{{"jsonrpc":"2.0","method":"subtract","params":[{i},1],"id":{i}}}"#)
            })
            .collect();
        big.send(Message::text(format!("[{}]", batch.join(","))))
            .await
            .unwrap();
        let started = std::time::Instant::now();
        let fast = exchange(
            &mut small,
            r#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"#,
        )
        .await;
        let fast_took = started.elapsed();
        let slow = next_text(&mut big).await;
        (slow.len(), (fast, fast_took, started.elapsed()))
    });
    assert!(slow > 1_000_000);
    let (fast, fast_took, slow_took) = fast;
    assert_eq!(fast, r#"{"jsonrpc":"2.0","result":19,"id":1}"#);
    // The huge batch takes a while to answer (a debug build: seconds); the small request must not
    // wait for it.
    if slow_took > std::time::Duration::from_millis(300) {
        assert!(
            fast_took * 2 < slow_took,
            "the small request waited for the huge one: {fast_took:?} vs {slow_took:?}"
        );
    }
}

#[test]
fn a_foreign_origin_or_host_is_refused_before_the_upgrade() {
    use std::io::{Read, Write};
    let server = ws_server();
    let addr = server.addr("ws");
    for (host, origin) in [
        (addr.as_str(), "https://evil.example"),
        ("evil.example", "http://localhost:8080"),
    ] {
        let mut stream = std::net::TcpStream::connect(&addr).unwrap();
        stream.set_read_timeout(Some(common::WAIT)).unwrap();
        let head = format!("GET / HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
        stream.write_all(head.as_bytes()).unwrap();
        let mut raw = String::new();
        let _ = stream.read_to_string(&mut raw);
        assert!(raw.starts_with("HTTP/1.1 403"), "{host} {origin}: {raw}");
        assert!(raw.contains("DNS-rebinding protection"), "{raw}");
    }
    // A loopback origin (the playground from trunk serve) connects.
    let reply = run(async {
        let mut request = server.url("ws").into_client_request().unwrap();
        request
            .headers_mut()
            .insert("Origin", "http://127.0.0.1:8080".parse().unwrap());
        let (mut socket, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        exchange(
            &mut socket,
            r#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"#,
        )
        .await
    });
    assert_eq!(reply, r#"{"jsonrpc":"2.0","result":19,"id":1}"#);
}

#[test]
fn a_call_that_asks_the_client_sends_the_request_frame_then_the_result_after_the_answer() {
    let server = ws_server();
    let (request, result) = run(async {
        let mut socket = connect(&server.url("ws")).await;
        exchange(
            &mut socket,
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"sampling":{}},"clientInfo":{"name":"t","version":"1"}}}"#,
        )
        .await;
        let request = exchange(
            &mut socket,
            r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"summarize","arguments":{"text":"x"}}}"#,
        )
        .await;
        let result = exchange(
            &mut socket,
            r#"{"jsonrpc":"2.0","id":"mock-1","result":{"role":"assistant","content":{"type":"text","text":"Short."},"model":"m"}}"#,
        )
        .await;
        (request, result)
    });
    let request: serde_json::Value = serde_json::from_str(&request).unwrap();
    assert_eq!(request["method"], "sampling/createMessage");
    assert_eq!(
        result,
        r#"{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"Summary by m: Short."}]},"id":9}"#
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_batch_whose_replies_pass_16_mib_gets_one_error_in_bounded_memory() {
    // 2 MiB of tools/list asked for a 181 MB reply: 601 MB per connection.
    let server = ws_server();
    let (too_large, under) = run(async {
        let mut socket = connect(&server.url("ws")).await;
        let too_large = exchange(&mut socket, &common::tools_list_batch(44_000)).await;
        let under = exchange(&mut socket, &common::tools_list_batch(100)).await;
        (too_large, under)
    });
    assert_eq!(too_large, common::REPLY_TOO_LARGE);
    let peak = common::peak_memory(server.child.id());
    assert!(peak < 300 * 1024 * 1024, "peak {} MiB", peak >> 20);
    let replies: serde_json::Value = serde_json::from_str(&under).unwrap();
    assert_eq!(replies.as_array().map(Vec::len), Some(100));
}
