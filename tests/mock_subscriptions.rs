//! The friendly mock's resource subscriptions: `resources/subscribe` and `resources/unsubscribe`
//! (the handshake versions), 2026-07-28's `subscriptions/listen` (acknowledged first, the request
//! left open, its notifications stamped with its id, ended by `notifications/cancelled` or by the
//! server with its result; also over `jrpc serve --http`, as an SSE stream), and the resource that
//! changes, mock://notes: the add_note tool sends `notifications/resources/updated` to a
//! subscriber before its result.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use jsonrpc_playground::mock::{Fixtures, MockServer, OutgoingKind, MAX_LISTENS};

mod common;
use serde_json::{json, Value};

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn request(server: &mut MockServer, method: &str, params: &str) -> Value {
    let text = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{params}}}"#);
    parse(
        &server
            .handle(text.as_bytes())
            .expect("a request is answered"),
    )
}

fn initialized(version: &str) -> MockServer {
    let mut server = MockServer::new();
    let init = format!(
        r#"{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}"#
    );
    request(&mut server, "initialize", &init);
    server
}

/// add_note's result and the methods of what the server sent before it about mock://notes (the
/// list's change, sent to every client of a handshake version, is
/// `the_list_of_resources_changes_with_each_note`'s).
fn add_note(server: &mut MockServer, text: &str) -> (Value, Vec<String>) {
    let params = json!({"name": "add_note", "arguments": {"text": text}}).to_string();
    let result = request(server, "tools/call", &params);
    let sent = server
        .take_outgoing()
        .into_iter()
        .filter(|o| !o.text.contains("notifications/resources/list_changed"))
        .map(|o| {
            assert_eq!(o.kind, OutgoingKind::Notification);
            let message = parse(&o.text);
            format!(
                "{} {}",
                message["method"].as_str().unwrap(),
                message["params"]["uri"]
            )
        })
        .collect();
    (result, sent)
}

#[test]
fn subscribe_is_declared_where_resources_subscribe_exists() {
    for version in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let mut server = MockServer::new();
        let init = format!(
            r#"{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}"#
        );
        let reply = request(&mut server, "initialize", &init);
        assert_eq!(
            reply["result"]["capabilities"]["resources"],
            json!({"subscribe": true, "listChanged": true}),
            "{version}"
        );
    }
    // 2026-07-28 has subscriptions/listen instead (its resourceSubscriptions: `subscribe`; the
    // lists do not change under it).
    let meta = r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}"#;
    let discovered = request(&mut MockServer::new(), "server/discover", meta);
    assert_eq!(
        discovered["result"]["capabilities"]["resources"],
        json!({"subscribe": true})
    );
    let modern = r#"{"uri":"mock://notes","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}"#;
    for fixtures in [Fixtures::Friendly, Fixtures::Conformance] {
        let mut server = MockServer::with_fixtures(fixtures);
        let refused = request(&mut server, "resources/subscribe", modern);
        assert_eq!(refused["error"]["code"], -32601, "{fixtures:?}: {refused}");
    }
    // The conformance set declares and answers them under the handshake, like the friendly one.
    let mut server = MockServer::with_fixtures(Fixtures::Conformance);
    let init = r#"{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}"#;
    let reply = request(&mut server, "initialize", init);
    assert_eq!(
        reply["result"]["capabilities"]["resources"],
        json!({"subscribe": true})
    );
}

#[test]
fn a_subscriber_hears_resources_updated_before_the_tools_result() {
    let mut server = initialized("2025-11-25");
    let subscribed = request(
        &mut server,
        "resources/subscribe",
        r#"{"uri":"mock://notes"}"#,
    );
    assert_eq!(subscribed["result"], json!({}));
    let (result, sent) = add_note(&mut server, "buy milk");
    assert_eq!(sent, [r#"notifications/resources/updated "mock://notes""#]);
    assert!(result["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("Added note 1."));
}

#[test]
fn no_update_is_sent_without_a_subscription_or_after_unsubscribing() {
    let mut server = initialized("2025-06-18");
    let (_, sent) = add_note(&mut server, "one");
    assert!(sent.is_empty(), "not subscribed: {sent:?}");
    request(
        &mut server,
        "resources/subscribe",
        r#"{"uri":"mock://notes"}"#,
    );
    request(
        &mut server,
        "resources/subscribe",
        r#"{"uri":"mock://readme"}"#,
    );
    let unsubscribed = request(
        &mut server,
        "resources/unsubscribe",
        r#"{"uri":"mock://notes"}"#,
    );
    assert_eq!(unsubscribed["result"], json!({}));
    let (_, sent) = add_note(&mut server, "two");
    assert!(sent.is_empty(), "unsubscribed: {sent:?}");
    // Unsubscribing again, or from what was never subscribed, changes nothing.
    let again = request(
        &mut server,
        "resources/unsubscribe",
        r#"{"uri":"mock://notes"}"#,
    );
    assert_eq!(again["result"], json!({}));
}

#[test]
fn subscribing_to_a_resource_the_server_lacks_is_32002() {
    let mut server = initialized("2025-11-25");
    for uri in ["mock://nope", "mock://error-codes/1"] {
        let reply = request(
            &mut server,
            "resources/subscribe",
            &json!({"uri": uri}).to_string(),
        );
        assert_eq!(reply["error"]["code"], -32002, "{uri}");
        assert_eq!(reply["error"]["data"]["uri"], uri);
    }
    let missing = request(&mut server, "resources/subscribe", "{}");
    assert_eq!(missing["error"]["code"], -32602);
    let template = request(
        &mut server,
        "resources/subscribe",
        r#"{"uri":"mock://error-codes/-32601"}"#,
    );
    assert_eq!(template["result"], json!({}));
}

#[test]
fn the_notes_read_back_what_was_added() {
    let mut server = initialized("2025-11-25");
    let read = |server: &mut MockServer| {
        request(server, "resources/read", r#"{"uri":"mock://notes"}"#)["result"]["contents"][0]
            ["text"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        read(&mut server),
        "No notes yet: add one with the add_note tool.\n"
    );
    add_note(&mut server, "first");
    add_note(&mut server, "sécond");
    assert_eq!(read(&mut server), "1. first\n2. sécond\n");
}

#[test]
fn a_note_out_of_bounds_is_a_tool_error_and_only_the_last_20_are_kept() {
    let mut server = initialized("2025-11-25");
    for text in ["", &"x".repeat(501)] {
        let (result, _) = add_note(&mut server, text);
        assert_eq!(result["result"]["isError"], true, "{} chars", text.len());
    }
    for i in 1..=21 {
        add_note(&mut server, &format!("n{i}"));
    }
    let read = request(&mut server, "resources/read", r#"{"uri":"mock://notes"}"#);
    let text = read["result"]["contents"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("1. n2\n") && text.ends_with("20. n21\n"),
        "{text}"
    );
}

#[test]
fn under_2026_07_28_a_read_of_the_notes_is_not_cached() {
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}"#;
    let mut server = MockServer::new();
    let notes = request(
        &mut server,
        "resources/read",
        &format!(r#"{{"uri":"mock://notes",{meta}}}"#),
    );
    assert_eq!(
        (
            notes["result"]["ttlMs"].clone(),
            notes["result"]["cacheScope"].clone()
        ),
        (json!(0), json!("private"))
    );
    let readme = request(
        &mut server,
        "resources/read",
        &format!(r#"{{"uri":"mock://readme",{meta}}}"#),
    );
    assert_eq!(readme["result"]["cacheScope"], "public");
}

#[test]
fn the_list_of_resources_changes_with_each_note() {
    let mut server = initialized("2025-11-25");
    let uris = |server: &mut MockServer| -> Vec<String> {
        request(server, "resources/list", "{}")["result"]["resources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["uri"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(!uris(&mut server)
        .iter()
        .any(|u| u.starts_with("mock://notes/")));
    let params = json!({"name": "add_note", "arguments": {"text": "first note"}}).to_string();
    request(&mut server, "tools/call", &params);
    let sent: Vec<String> = server.take_outgoing().into_iter().map(|o| o.text).collect();
    assert_eq!(
        sent,
        [r#"{"jsonrpc":"2.0","method":"notifications/resources/list_changed","params":{}}"#]
    );
    assert!(uris(&mut server).contains(&"mock://notes/1".to_string()));
    let read = request(&mut server, "resources/read", r#"{"uri":"mock://notes/1"}"#);
    assert_eq!(read["result"]["contents"][0]["text"], "first note");
    let missing = request(&mut server, "resources/read", r#"{"uri":"mock://notes/2"}"#);
    assert_eq!(missing["error"]["code"], -32002);
    // 2026-07-28 declares no listChanged: no notification, no note resources.
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}"#;
    let mut modern = MockServer::new();
    let call = format!(r#"{{"name":"add_note","arguments":{{"text":"x"}},{meta}}}"#);
    request(&mut modern, "tools/call", &call);
    assert!(modern.take_outgoing().is_empty());
    let listed = request(&mut modern, "resources/list", &format!("{{{meta}}}"));
    assert!(!listed.to_string().contains("mock://notes/1"), "{listed}");
}

/// `params` in a 2026-07-28 envelope declaring `capabilities`.
fn enveloped(mut params: Value, capabilities: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    });
    params
}

/// `subscriptions/listen` with `filter`, id `id`: the reply (if any) and what was sent meanwhile.
fn listen(server: &mut MockServer, id: &str, filter: Value) -> (Option<Value>, Vec<Value>) {
    let params = enveloped(json!({"notifications": filter}), json!({}));
    let text =
        json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen", "params": params});
    let reply = server
        .handle(text.to_string().as_bytes())
        .map(|r| parse(&r));
    let sent = server
        .take_outgoing()
        .into_iter()
        .map(|o| parse(&o.text))
        .collect();
    (reply, sent)
}

/// add_note under 2026-07-28: what was sent before its result.
fn add_note_2026(server: &mut MockServer, text: &str) -> Vec<Value> {
    let params = enveloped(
        json!({"name": "add_note", "arguments": {"text": text}}),
        json!({}),
    );
    request(server, "tools/call", &params.to_string());
    server
        .take_outgoing()
        .into_iter()
        .map(|o| parse(&o.text))
        .collect()
}

#[test]
fn listen_is_acknowledged_with_the_agreed_filter_and_not_answered() {
    let mut server = MockServer::new();
    let filter =
        json!({"resourceSubscriptions": ["mock://notes", "mock://nope"], "toolsListChanged": true});
    let (reply, sent) = listen(&mut server, "L1", filter);
    assert_eq!(reply, None, "the request stays open");
    assert_eq!(
        sent,
        [
            json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {
                "_meta": {"io.modelcontextprotocol/subscriptionId": "L1"},
                "notifications": {"resourceSubscriptions": ["mock://notes"]}
            }})
        ]
    );
}

#[test]
fn a_changed_resource_is_heard_on_the_subscription_with_its_id() {
    let mut server = MockServer::new();
    listen(
        &mut server,
        "L1",
        json!({"resourceSubscriptions": ["mock://notes"]}),
    );
    listen(
        &mut server,
        "L2",
        json!({"resourceSubscriptions": ["mock://readme"]}),
    );
    let sent = add_note_2026(&mut server, "milk");
    assert_eq!(
        sent,
        [
            json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {
                "_meta": {"io.modelcontextprotocol/subscriptionId": "L1"},
                "uri": "mock://notes"
            }})
        ]
    );
}

#[test]
fn notifications_cancelled_naming_the_listen_request_ends_it() {
    let mut server = MockServer::new();
    listen(
        &mut server,
        "L1",
        json!({"resourceSubscriptions": ["mock://notes"]}),
    );
    let cancel =
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"L1"}}"#;
    assert_eq!(server.handle(cancel.as_bytes()), None);
    assert!(server.listening().is_empty());
    assert!(add_note_2026(&mut server, "milk").is_empty());
}

#[test]
fn the_server_ends_a_subscription_with_the_requests_result() {
    let mut server = MockServer::new();
    listen(&mut server, "L1", json!({}));
    let call = server.listening()[0];
    let closing = parse(&server.end_listen(call).expect("it was open"));
    assert_eq!(
        closing,
        json!({"jsonrpc": "2.0", "id": "L1", "result": {
            "resultType": "complete",
            "_meta": {"io.modelcontextprotocol/subscriptionId": "L1"}
        }})
    );
    assert!(server.listening().is_empty());
}

#[test]
fn task_notifications_without_the_tasks_extension_are_refused_with_32021() {
    let (reply, sent) = listen(&mut MockServer::new(), "L1", json!({"taskIds": ["t"]}));
    let reply = reply.expect("refused at once");
    assert_eq!(reply["error"]["code"], -32021, "{reply}");
    assert_eq!(
        reply["error"]["data"]["requiredCapabilities"]["extensions"],
        json!({"io.modelcontextprotocol/tasks": {}})
    );
    assert!(sent.is_empty());
}

#[test]
fn past_the_bound_of_open_subscriptions_a_listen_is_refused() {
    let mut server = MockServer::new();
    for i in 0..MAX_LISTENS {
        assert_eq!(listen(&mut server, &format!("L{i}"), json!({})).0, None);
    }
    let (reply, _) = listen(&mut server, "one-more", json!({}));
    assert_eq!(reply.expect("refused")["error"]["code"], -32603);
    assert_eq!(server.listening().len(), MAX_LISTENS);
}

#[test]
fn listen_is_unknown_to_the_handshake_versions() {
    let mut server = initialized("2025-11-25");
    let reply = request(
        &mut server,
        "subscriptions/listen",
        r#"{"notifications":{}}"#,
    );
    assert_eq!(reply["error"]["code"], -32601, "{reply}");
}

/// Opens `subscriptions/listen` (id `id`) over HTTP: the connection, and what it read up to the
/// end of the first event.
fn http_listen(addr: &str, id: u32) -> (std::net::TcpStream, String) {
    use std::io::{Read, Write};
    let params = enveloped(
        json!({"notifications": {"resourceSubscriptions": ["mock://notes"]}}),
        json!({}),
    );
    let body =
        json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen", "params": params})
            .to_string();
    let mut stream = std::net::TcpStream::connect(addr).expect("the server accepts");
    stream.set_read_timeout(Some(common::WAIT)).unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut raw = Vec::new();
    let mut chunk = [0u8; 4096];
    while !String::from_utf8_lossy(&raw).contains("}\n\n") {
        let n = stream
            .read(&mut chunk)
            .expect("the acknowledgement arrives in time");
        assert!(n > 0, "the stream ended: {}", String::from_utf8_lossy(&raw));
        raw.extend_from_slice(&chunk[..n]);
    }
    (stream, String::from_utf8_lossy(&raw).into_owned())
}

/// The messages of the SSE events in `text`.
fn events(text: &str) -> Vec<Value> {
    text.split("data: ")
        .skip(1)
        .map(|e| parse(e.split('\n').next().unwrap()))
        .collect()
}

#[test]
fn over_http_listen_is_an_sse_stream_that_starts_with_the_acknowledgement() {
    let server = common::Server::jrpc_serve(&["--http", "127.0.0.1:0", "--exit-after", "60"]);
    let (_open, text) = http_listen(&server.addr("http"), 7);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(
        text.to_ascii_lowercase()
            .contains("content-type: text/event-stream"),
        "{text}"
    );
    let ack = &events(&text)[0];
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        7
    );
    assert_eq!(
        ack["params"]["notifications"],
        json!({"resourceSubscriptions": ["mock://notes"]})
    );
}

#[test]
fn over_http_past_256_open_streams_a_subscription_ends_at_once_with_its_result() {
    use std::io::Read;
    // src/cli/serve/net/http.rs's MAX_HELD_LISTENS.
    const MAX_HELD_LISTENS: u32 = 256;
    let server = common::Server::jrpc_serve(&["--http", "127.0.0.1:0", "--exit-after", "60"]);
    let addr = server.addr("http");
    let held: Vec<_> = (0..MAX_HELD_LISTENS)
        .map(|id| http_listen(&addr, id).0)
        .collect();
    let (mut last, mut text) = http_listen(&addr, MAX_HELD_LISTENS);
    last.read_to_string(&mut text)
        .expect("the stream ends at once");
    let messages = events(&text);
    assert_eq!(messages.len(), 2, "{text}");
    assert_eq!(
        messages[1],
        json!({"jsonrpc": "2.0", "result": {"resultType": "complete", "_meta": {"io.modelcontextprotocol/subscriptionId": MAX_HELD_LISTENS}}, "id": MAX_HELD_LISTENS})
    );
    // A closed stream frees its place.
    drop(held);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let (mut again, _) = http_listen(&addr, 1000);
    again
        .set_read_timeout(Some(std::time::Duration::from_millis(500)))
        .unwrap();
    let mut more = [0u8; 64];
    assert!(
        again.read(&mut more).is_err(),
        "held open, nothing more sent"
    );
}

#[test]
fn over_stdio_a_subscription_hears_a_change_until_it_is_cancelled() {
    let listen_params = enveloped(
        json!({"notifications": {"resourceSubscriptions": ["mock://notes"]}}),
        json!({}),
    );
    let note = |text: &str| {
        enveloped(
            json!({"name": "add_note", "arguments": {"text": text}}),
            json!({}),
        )
    };
    let input = [
        json!({"jsonrpc": "2.0", "id": "s1", "method": "subscriptions/listen", "params": listen_params}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": note("milk")}),
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "s1"}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": note("eggs")}),
    ]
    .map(|m| m.to_string() + "\n")
    .concat();
    let out = common::jrpc(&["serve"], input.as_bytes());
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(parse)
        .collect();
    let said: Vec<String> = lines
        .iter()
        .map(|m| match m["method"].as_str() {
            Some(method) => format!(
                "{method} {}",
                m["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"]
            ),
            None => format!("reply {}", m["id"]),
        })
        .collect();
    assert_eq!(
        said,
        [
            r#"notifications/subscriptions/acknowledged "s1""#,
            r#"notifications/resources/updated "s1""#,
            "reply 2",
            "reply 3",
        ]
    );
}
