//! The test servers in `examples/` (for the live link's browser tests) behave as documented:
//! `jsonrpsee_server` (a real third-party JSON-RPC server) and `misbehaving_server` (faults).
//!
//! Examples are not `CARGO_BIN_EXE_*`, but a plain `cargo test` builds every example before it runs
//! any test ("to ensure they compile"), into `<target>/<profile>/examples/`, beside the `deps/`
//! folder holding this test's executable. A filtered run (`cargo test --test test_servers`) does not
//! build them: then `cargo build --examples` first, or this test fails saying so.
//!
//! Every server here binds 127.0.0.1 (port 0), stops by itself (`--exit-after`) and is killed when
//! its test ends; every wait is bounded.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::io::{Read, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

mod common;

use common::{connect, run, Server, Socket, WAIT};

/// `<target>/<profile>/examples/NAME`, next to this test's `deps/` folder.
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("the test runs from <target>/<profile>/deps");
    let path = profile_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(path.exists(), "{} is not built: `cargo test` builds the examples; a filtered run needs `cargo build --examples` first", path.display());
    path
}

/// Starts the example `name` with `args`.
fn start(name: &str, args: &[&str]) -> Server {
    Server::spawn(example(name), args)
}

/// The next data frame (pings and pongs skipped); `None` at the end.
async fn next(socket: &mut Socket) -> Option<Message> {
    loop {
        match socket.next().await? {
            Ok(Message::Ping(_) | Message::Pong(_)) => continue,
            Ok(message) => return Some(message),
            Err(_) => return None,
        }
    }
}

async fn next_json(socket: &mut Socket) -> Value {
    match next(socket).await {
        Some(Message::Text(text)) => {
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
        }
        other => panic!("expected a text frame, got {other:?}"),
    }
}

async fn call(socket: &mut Socket, request: Value) -> Value {
    socket
        .send(Message::text(request.to_string()))
        .await
        .unwrap();
    next_json(socket).await
}

// ---- jsonrpsee_server ----

#[test]
fn jsonrpsee_answers_its_methods_over_websocket() {
    let server = start("jsonrpsee_server", &["--exit-after", "60"]);
    assert!(
        server
            .banner
            .starts_with("jsonrpsee_server: listening on ws://127.0.0.1:"),
        "{}",
        server.banner
    );
    let (subtract, named, echo, fail) = run(async {
        let mut socket = connect(&server.url("ws")).await;
        (
            call(&mut socket, json!({"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1})).await,
            call(&mut socket, json!({"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 2})).await,
            call(&mut socket, json!({"jsonrpc": "2.0", "method": "echo", "params": {"x": [1, "two"]}, "id": "e"})).await,
            call(&mut socket, json!({"jsonrpc": "2.0", "method": "fail", "params": [7], "id": 4})).await,
        )
    });
    assert_eq!(subtract, json!({"jsonrpc": "2.0", "id": 1, "result": 19}));
    assert_eq!(named["result"], 19);
    assert_eq!(echo["result"], json!({"x": [1, "two"]}));
    assert_eq!(
        fail["error"],
        json!({"code": -32000, "message": "deliberate failure", "data": [7]})
    );
}

#[test]
fn jsonrpsee_subscription_pushes_ticks_until_unsubscribed() {
    let server = start(
        "jsonrpsee_server",
        &["--exit-after", "60", "--tick-ms", "20"],
    );
    let (ticks, unsubscribed) = run(async {
        let mut socket = connect(&server.url("ws")).await;
        let subscribed = call(
            &mut socket,
            json!({"jsonrpc": "2.0", "method": "subscribe_ticks", "id": 1}),
        )
        .await;
        let id = subscribed["result"].clone();
        assert!(!id.is_null(), "{subscribed}");
        let mut ticks = Vec::new();
        for _ in 0..3 {
            let tick = next_json(&mut socket).await;
            assert_eq!(tick["method"], "tick", "{tick}");
            assert_eq!(tick["params"]["subscription"], id);
            ticks.push(tick["params"]["result"]["n"].as_u64().unwrap());
        }
        socket
            .send(Message::text(
                json!({"jsonrpc": "2.0", "method": "unsubscribe_ticks", "params": [id], "id": 2})
                    .to_string(),
            ))
            .await
            .unwrap();
        // Ticks already on their way may come first.
        let unsubscribed = loop {
            let message = next_json(&mut socket).await;
            if message.get("id") == Some(&json!(2)) {
                break message;
            }
        };
        (ticks, unsubscribed)
    });
    assert_eq!(ticks, [1, 2, 3]);
    assert_eq!(unsubscribed["result"], true);
}

#[test]
fn jsonrpsee_answers_http_posts_with_cors() {
    let server = start("jsonrpsee_server", &["--exit-after", "60"]);
    let addr = server.url("ws").trim_start_matches("ws://").to_string();
    let post = http(
        &addr,
        "POST",
        &[
            ("Content-Type", "application/json"),
            ("Origin", "http://127.0.0.1:8080"),
        ],
        r#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"#,
    );
    assert!(post.starts_with("HTTP/1.1 200"), "{post}");
    assert!(
        post.to_ascii_lowercase()
            .contains("access-control-allow-origin: *"),
        "{post}"
    );
    assert!(
        post.ends_with(r#"{"jsonrpc":"2.0","id":1,"result":19}"#),
        "{post}"
    );
    let preflight = http(
        &addr,
        "OPTIONS",
        &[
            ("Origin", "http://127.0.0.1:8080"),
            ("Access-Control-Request-Method", "POST"),
            ("Access-Control-Request-Headers", "content-type"),
        ],
        "",
    );
    assert!(preflight.starts_with("HTTP/1.1 200"), "{preflight}");
    assert!(
        preflight
            .to_ascii_lowercase()
            .contains("access-control-allow-headers: *"),
        "{preflight}"
    );
}

#[test]
fn jsonrpsee_stops_by_itself() {
    let mut server = start("jsonrpsee_server", &["--exit-after", "0.3"]);
    assert_eq!(server.wait().code(), Some(0));
    assert_eq!(
        server.stderr.recv_timeout(WAIT).as_deref(),
        Ok("jsonrpsee_server: stopped")
    );
}

/// One HTTP/1.1 request with `Connection: close`; the whole response as text.
fn http(addr: &str, method: &str, headers: &[(&str, &str)], body: &str) -> String {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    let mut request = format!(
        "{method} / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

// ---- misbehaving_server ----

fn misbehaving() -> Server {
    let server = start("misbehaving_server", &["--exit-after", "60"]);
    assert!(
        server
            .banner
            .starts_with("misbehaving_server: listening on ws://127.0.0.1:"),
        "{}",
        server.banner
    );
    server
}

#[test]
fn misbehaving_root_answers_requests_with_an_echo() {
    let server = misbehaving();
    let reply = run(async {
        call(
            &mut connect(&server.url("ws")).await,
            json!({"jsonrpc": "2.0", "method": "x", "params": [1], "id": 9}),
        )
        .await
    });
    assert_eq!(
        reply,
        json!({"jsonrpc": "2.0", "result": {"echo": [1]}, "id": 9})
    );
}

#[test]
fn misbehaving_close_mid_request_drops_the_connection_without_a_close_frame() {
    let server = misbehaving();
    let end = run(async {
        let mut socket = connect(&format!("{}/close-mid-request", server.url("ws"))).await;
        socket
            .send(Message::text(r#"{"jsonrpc":"2.0","method":"x","id":1}"#))
            .await
            .unwrap();
        socket.next().await
    });
    // No reply and no close frame: the stream ends (or errors) abruptly.
    assert!(matches!(end, None | Some(Err(_))), "{end:?}");
}

#[test]
fn misbehaving_close_with_code_sends_4000_and_a_reason() {
    let server = misbehaving();
    let (default, custom) = run(async {
        let mut socket = connect(&format!("{}/close-with-code", server.url("ws"))).await;
        socket
            .send(Message::text(r#"{"jsonrpc":"2.0","method":"x","id":1}"#))
            .await
            .unwrap();
        let default = next(&mut socket).await;
        let mut socket = connect(&format!(
            "{}/close-with-code?code=4001&reason=bye+now&after_ms=10",
            server.url("ws")
        ))
        .await;
        (default, next(&mut socket).await)
    });
    let Some(Message::Close(Some(default))) = default else {
        panic!("{default:?}")
    };
    assert_eq!(
        (default.code, default.reason.as_str()),
        (CloseCode::from(4000), "misbehaving server closes with 4000")
    );
    let Some(Message::Close(Some(custom))) = custom else {
        panic!("{custom:?}")
    };
    assert_eq!(
        (custom.code, custom.reason.as_str()),
        (CloseCode::from(4001), "bye now")
    );
}

#[test]
fn misbehaving_garbage_sends_text_that_is_not_json_and_stays_open() {
    let server = misbehaving();
    let frames = run(async {
        let mut socket = connect(&format!("{}/garbage", server.url("ws"))).await;
        let mut frames = Vec::new();
        for _ in 0..5 {
            match next(&mut socket).await {
                Some(Message::Text(text)) => frames.push(text.to_string()),
                other => panic!("{other:?}"),
            }
        }
        socket
            .send(Message::text(r#"{"jsonrpc":"2.0","method":"x","id":1}"#))
            .await
            .unwrap();
        match next(&mut socket).await {
            Some(Message::Text(text)) => frames.push(text.to_string()),
            other => panic!("{other:?}"),
        }
        frames
    });
    assert_eq!(
        frames[..4],
        ["this is not JSON", r#"{"jsonrpc":"2.0","method":"#, "", "]"]
    );
    assert_eq!(frames[4], r#"{"jsonrpc":"2.0","method":"garbage/done"}"#);
    assert!(frames[5].starts_with("not JSON: "), "{}", frames[5]);
}

#[test]
fn misbehaving_binary_sends_binary_frames() {
    let server = misbehaving();
    let frames = run(async {
        let mut socket = connect(&format!("{}/binary", server.url("ws"))).await;
        let first = next(&mut socket).await;
        let second = next(&mut socket).await;
        socket
            .send(Message::text(r#"{"jsonrpc":"2.0","method":"x","id":1}"#))
            .await
            .unwrap();
        [first, second, next(&mut socket).await]
    });
    let binary: Vec<Vec<u8>> = frames
        .into_iter()
        .map(|f| match f {
            Some(Message::Binary(bytes)) => bytes.to_vec(),
            other => panic!("expected binary, got {other:?}"),
        })
        .collect();
    assert_eq!(binary[0], [0x00, 0x01, 0x02, 0xFF]);
    assert_eq!(binary[1], br#"{"jsonrpc":"2.0","method":"binary/hello"}"#);
    assert_eq!(
        serde_json::from_slice::<Value>(&binary[2]).unwrap()["id"],
        1
    );
}

#[test]
fn misbehaving_flood_sends_exactly_n_notifications_in_order() {
    let server = misbehaving();
    let (count, last, after) = run(async {
        let mut socket = connect(&format!("{}/flood?n=10000", server.url("ws"))).await;
        let mut last = Value::Null;
        for seq in 1..=10_000u64 {
            last = next_json(&mut socket).await;
            assert_eq!(last["params"]["seq"], seq);
        }
        // The burst is over: the next frame answers a request.
        let after = call(
            &mut socket,
            json!({"jsonrpc": "2.0", "method": "x", "id": "after"}),
        )
        .await;
        (10_000, last, after)
    });
    assert_eq!(count, 10_000);
    assert_eq!(
        last,
        json!({"jsonrpc": "2.0", "method": "flood", "params": {"seq": 10_000, "of": 10_000}})
    );
    assert_eq!(after["id"], "after");
}

#[test]
fn misbehaving_server_request_waits_for_the_clients_response() {
    let server = misbehaving();
    let (request, answered) = run(async {
        let mut socket = connect(&format!("{}/server-request", server.url("ws"))).await;
        let request = next_json(&mut socket).await;
        socket
            .send(Message::text(
                r#"{"jsonrpc":"2.0","result":{},"id":"srv-1"}"#,
            ))
            .await
            .unwrap();
        (request, next_json(&mut socket).await)
    });
    assert_eq!(
        request,
        json!({"jsonrpc": "2.0", "id": "srv-1", "method": "ping"})
    );
    assert_eq!(
        answered,
        json!({"jsonrpc": "2.0", "method": "server-request/answered", "params": {"response": {"jsonrpc": "2.0", "result": {}, "id": "srv-1"}}})
    );
}

#[test]
fn misbehaving_slow_answers_late_and_silent_never() {
    let server = misbehaving();
    let (elapsed, silent) = run(async {
        let started = Instant::now();
        let mut slow = connect(&format!("{}/slow?ms=300", server.url("ws"))).await;
        call(&mut slow, json!({"jsonrpc": "2.0", "method": "x", "id": 1})).await;
        let elapsed = started.elapsed();
        let mut silent = connect(&format!("{}/silent", server.url("ws"))).await;
        silent
            .send(Message::text(r#"{"jsonrpc":"2.0","method":"x","id":1}"#))
            .await
            .unwrap();
        let silent = tokio::time::timeout(Duration::from_millis(300), silent.next())
            .await
            .is_err();
        (elapsed, silent)
    });
    assert!(elapsed >= Duration::from_millis(300), "{elapsed:?}");
    assert!(silent, "/silent answered");
}

#[test]
fn misbehaving_http_chooses_by_method_slow_fail_drop_or_echo() {
    let server = misbehaving();
    let addr = server.addr("http");
    let json = [("Content-Type", "application/json")];
    let body = |response: &str| {
        response
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_string())
            .unwrap_or_default()
    };
    // Echo, with CORS for any origin (the preflight too).
    let echo = http(
        &addr,
        "POST",
        &json,
        r#"{"jsonrpc":"2.0","method":"x","params":[1],"id":1}"#,
    );
    assert!(
        echo.starts_with("HTTP/1.1 200")
            && echo
                .to_ascii_lowercase()
                .contains("access-control-allow-origin: *"),
        "{echo}"
    );
    assert_eq!(
        serde_json::from_str::<Value>(&body(&echo)).unwrap(),
        json!({"jsonrpc": "2.0", "result": {"echo": [1]}, "id": 1})
    );
    let preflight = http(
        &addr,
        "OPTIONS",
        &[
            ("Origin", "http://127.0.0.1:8080"),
            ("Access-Control-Request-Method", "POST"),
        ],
        "",
    );
    assert!(
        preflight.starts_with("HTTP/1.1 204")
            && preflight
                .to_ascii_lowercase()
                .contains("access-control-allow-headers: content-type"),
        "{preflight}"
    );
    // A batch: an array of echoes, none for the notification; notifications alone: 202.
    let batch = http(
        &addr,
        "POST",
        &json,
        r#"[{"jsonrpc":"2.0","method":"a","id":1},{"jsonrpc":"2.0","method":"n"}]"#,
    );
    assert_eq!(
        serde_json::from_str::<Value>(&body(&batch)).unwrap(),
        json!([{"jsonrpc": "2.0", "result": {"echo": null}, "id": 1}])
    );
    assert!(
        http(&addr, "POST", &json, r#"{"jsonrpc":"2.0","method":"n"}"#).starts_with("HTTP/1.1 202")
    );
    // fail: the status asked for (500 by default), CORS still allowed, no body.
    let fail = http(
        &addr,
        "POST",
        &json,
        r#"{"jsonrpc":"2.0","method":"fail","id":2}"#,
    );
    assert!(
        fail.starts_with("HTTP/1.1 500")
            && fail
                .to_ascii_lowercase()
                .contains("access-control-allow-origin: *")
            && body(&fail).is_empty(),
        "{fail}"
    );
    assert!(http(
        &addr,
        "POST",
        &json,
        r#"{"jsonrpc":"2.0","method":"fail","params":{"status":503},"id":2}"#
    )
    .starts_with("HTTP/1.1 503"));
    // drop: the connection closes with nothing written.
    assert_eq!(
        http(
            &addr,
            "POST",
            &json,
            r#"[{"jsonrpc":"2.0","method":"a","id":1},{"jsonrpc":"2.0","method":"drop","id":3}]"#
        ),
        ""
    );
    // slow: answered after params.ms.
    let started = Instant::now();
    let slow = http(
        &addr,
        "POST",
        &json,
        r#"{"jsonrpc":"2.0","method":"slow","params":{"ms":300},"id":4}"#,
    );
    assert!(
        started.elapsed() >= Duration::from_millis(300) && slow.starts_with("HTTP/1.1 200"),
        "{slow}"
    );
}

#[test]
fn misbehaving_unknown_path_is_refused_and_the_refused_port_is_closed() {
    let server = misbehaving();
    let (unknown, refused) = run(async {
        let unknown = tokio_tungstenite::connect_async(format!("{}/nope", server.url("ws")))
            .await
            .err()
            .map(|e| e.to_string());
        let refused = tokio_tungstenite::connect_async(server.nth_url("ws", 1))
            .await
            .err()
            .map(|e| e.to_string());
        (unknown, refused)
    });
    assert!(
        unknown.as_deref().is_some_and(|e| e.contains("404")),
        "{unknown:?}"
    );
    assert!(
        refused
            .as_deref()
            .is_some_and(|e| e.to_ascii_lowercase().contains("refused")),
        "{refused:?}"
    );
}

#[test]
fn misbehaving_stops_by_itself() {
    let mut server = start("misbehaving_server", &["--exit-after", "0.3"]);
    assert_eq!(server.wait().code(), Some(0));
    assert_eq!(
        server.stderr.recv_timeout(WAIT).as_deref(),
        Ok("misbehaving_server: stopped")
    );
}
