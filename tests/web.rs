//! The web app and the engine in a real browser (headless Chromium through wasm-bindgen-test):
//! `cargo test --target wasm32-unknown-unknown --test web` (scripts/test.sh runs it).
#![cfg(target_arch = "wasm32")]

use jsonrpc_playground::rpc::{check, Kind, Profile};
use jsonrpc_playground::ui::App;
use leptos::mount::mount_to;
use leptos::prelude::*;
use leptos::task::tick;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Event, EventInit, HtmlElement, HtmlTextAreaElement};

wasm_bindgen_test_configure!(run_in_browser);

/// The app mounted into its own wrapper; unmounted and removed on drop.
struct Mounted<H> {
    wrapper: HtmlElement,
    _handle: H,
}

impl<H> Drop for Mounted<H> {
    fn drop(&mut self) {
        self.wrapper.remove();
    }
}

fn mount_app() -> Mounted<impl Sized> {
    let wrapper: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&wrapper).unwrap();
    let handle = mount_to(wrapper.clone(), App);
    Mounted { wrapper, _handle: handle }
}

impl<H> Mounted<H> {
    /// Replaces the editor's text the way typing does: set the value, fire a bubbling `input`.
    async fn type_text(&self, text: &str) {
        let editor: HtmlTextAreaElement = self.one("[data-testid=editor]").unchecked_into();
        editor.set_value(text);
        let init = EventInit::new();
        init.set_bubbles(true);
        editor.dispatch_event(&Event::new_with_event_init_dict("input", &init).unwrap()).unwrap();
        tick().await;
        tick().await;
    }

    fn one(&self, selector: &str) -> web_sys::Element {
        self.wrapper.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no {selector}"))
    }

    fn all(&self, selector: &str) -> Vec<web_sys::Element> {
        let list = self.wrapper.query_selector_all(selector).unwrap();
        (0..list.length()).map(|i| list.item(i).unwrap().unchecked_into()).collect()
    }

    fn attrs(&self, selector: &str, attr: &str) -> Vec<String> {
        self.all(selector).iter().map(|e| e.get_attribute(attr).unwrap_or_default()).collect()
    }
}

#[wasm_bindgen_test]
async fn the_sample_is_checked_on_mount() {
    let app = mount_app();
    tick().await;
    assert_eq!(app.attrs("[data-testid=verdict]", "data-kind"), ["request"]);
    let status = app.one("[data-testid=validate-ms]").text_content().unwrap();
    assert!(status.contains(" ms"), "status line: {status}");
}

#[wasm_bindgen_test]
async fn a_request_and_a_notification_give_two_cards() {
    let app = mount_app();
    app.type_text(
        "{\"jsonrpc\":\"2.0\",\"method\":\"sum\",\"params\":[1,2],\"id\":7}\n\
         {\"jsonrpc\":\"2.0\",\"method\":\"notify_hello\",\"params\":[7]}",
    )
    .await;
    assert_eq!(app.attrs("[data-testid=verdict]", "data-kind"), ["request", "notification"]);
    assert_eq!(app.all("[data-testid=method]").len(), 2);
    let first = app.one("[data-testid=verdict]").text_content().unwrap();
    assert!(first.contains("sum") && first.contains("7"), "first card: {first}");
    assert!(app.all("[data-testid=violation]").is_empty());
}

#[wasm_bindgen_test]
async fn an_array_of_numbers_is_a_batch_of_three_invalid_items() {
    let app = mount_app();
    app.type_text("[1,2,3]").await;
    assert_eq!(app.attrs("[data-testid=verdict]", "data-kind"), ["batch"]);
    assert_eq!(app.attrs("[data-testid=batch-item]", "data-kind"), ["invalid", "invalid", "invalid"]);
    let paths = app.attrs("[data-testid=batch-item] [data-testid=violation]", "data-path");
    assert!(paths.iter().any(|p| p == "/0") && paths.iter().any(|p| p == "/2"), "paths: {paths:?}");
}

#[wasm_bindgen_test]
async fn broken_json_is_a_parse_error_with_its_line_and_column() {
    let app = mount_app();
    app.type_text("{\"jsonrpc\": \"2.0\",\n \"method\": }").await;
    assert_eq!(app.attrs("[data-testid=verdict]", "data-kind"), ["parse-error"]);
    let violation = app.one("[data-testid=violation]");
    assert_eq!(violation.get_attribute("data-rule").as_deref(), Some("json-syntax"));
    assert_eq!(violation.get_attribute("data-severity").as_deref(), Some("error"));
    let text = violation.text_content().unwrap();
    assert!(text.starts_with("2:"), "violation shows line:column first: {text}");
}

#[wasm_bindgen_test]
async fn user_text_is_never_html() {
    let app = mount_app();
    app.type_text(r#"{"jsonrpc":"2.0","method":"<img src=x onerror=alert(1)>","id":1}"#).await;
    assert_eq!(app.attrs("[data-testid=verdict]", "data-kind"), ["request"]);
    assert!(app.all("img").is_empty());
    assert_eq!(app.one("[data-testid=method]").text_content().unwrap(), "<img src=x onerror=alert(1)>");
}

#[wasm_bindgen_test]
async fn an_unchanged_card_keeps_its_element() {
    let app = mount_app();
    let request = r#"{"jsonrpc":"2.0","method":"a","id":1}"#;
    app.type_text(request).await;
    let before = app.one("[data-testid=verdict]");
    app.type_text(&format!("{request}\n[1]")).await;
    assert_eq!(app.attrs("[data-testid=verdict]", "data-kind"), ["request", "batch"]);
    assert!(before.is_same_node(Some(&app.one("[data-testid=verdict]"))), "the first card was rebuilt");
}

#[wasm_bindgen_test]
fn deep_nesting_is_a_parse_error_not_a_stack_overflow() {
    let src = "[".repeat(100_000);
    let report = check(src.as_bytes(), Profile::JsonRpc);
    assert_eq!(report.documents.len(), 1);
    assert_eq!(report.documents[0].kind, Kind::ParseError);
    assert!(report.violations().any(|v| v.rule.id == "json-syntax"));
}

#[wasm_bindgen_test]
fn the_spec_examples_classify_in_wasm_as_natively() {
    let cases: [(&str, Kind); 4] = [
        (r#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#, Kind::Request),
        (r#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#, Kind::Notification),
        (r#"{"jsonrpc": "2.0", "result": 19, "id": 1}"#, Kind::Response),
        (r#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#, Kind::ParseError),
    ];
    for (src, kind) in cases {
        let report = check(src.as_bytes(), Profile::JsonRpc);
        assert_eq!(report.documents.iter().map(|d| d.kind).collect::<Vec<_>>(), [kind], "{src}");
    }
}
