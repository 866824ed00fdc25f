//! `jrpc serve --ws` as a process: the mock server over WebSocket on 127.0.0.1, talked to by a
//! tokio-tungstenite client. Every server here binds 127.0.0.1 port 0, stops by itself
//! (`--exit-after`) and is killed when its test ends; every wait is bounded.

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
    let out = Command::new(env!("CARGO_BIN_EXE_jrpc"))
        .args([
            "serve",
            "--ws",
            &format!("127.0.0.1:{port}"),
            "--exit-after",
            "5",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr,
        format!("jrpc serve: --ws 127.0.0.1:{port}: port {port} is already in use on 127.0.0.1; stop the program using it or choose another port (0 picks a free one)\n")
    );
}

#[test]
fn address_that_is_not_loopback_needs_allow_remote() {
    let out = Command::new(env!("CARGO_BIN_EXE_jrpc"))
        .args(["serve", "--ws", "0.0.0.0:0", "--exit-after", "5"])
        .output()
        .unwrap();
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
        let out = Command::new(env!("CARGO_BIN_EXE_jrpc"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
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
