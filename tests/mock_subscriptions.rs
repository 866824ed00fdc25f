//! The friendly mock's resource subscriptions: `resources/subscribe` and `resources/unsubscribe`
//! (declared as `resources.subscribe` exactly where the methods exist), and the resource that
//! changes, mock://notes: the add_note tool sends `notifications/resources/updated` to a
//! subscriber before its result.

use jsonrpc_playground::mock::{Fixtures, MockServer, OutgoingKind};
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
    // 2026-07-28 has subscriptions/listen instead, which the mock does not serve.
    let meta = r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}"#;
    let discovered = request(&mut MockServer::new(), "server/discover", meta);
    assert_eq!(discovered["result"]["capabilities"]["resources"], json!({}));
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
