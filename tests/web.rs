//! The web app and the engine in a real browser (headless Chromium through wasm-bindgen-test):
//! `cargo test --target wasm32-unknown-unknown --test web` (scripts/test.sh runs it).
#![cfg(target_arch = "wasm32")]

use jsonrpc_playground::rpc::{check, Kind, Profile};
use jsonrpc_playground::web::kit::prelude::tick;
use jsonrpc_playground::web::kit::prelude::*;
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
    let handle = jsonrpc_playground::web::page::mount(&wrapper);
    Mounted {
        wrapper,
        _handle: handle,
    }
}

impl<H> Mounted<H> {
    /// Replaces the editor's text the way typing does: set the value, fire a bubbling `input`.
    async fn type_text(&self, text: &str) {
        let editor: HtmlTextAreaElement = self.one("[data-testid=editor]").unchecked_into();
        editor.set_value(text);
        let init = EventInit::new();
        init.set_bubbles(true);
        editor
            .dispatch_event(&Event::new_with_event_init_dict("input", &init).unwrap())
            .unwrap();
        tick().await;
        tick().await;
    }

    fn one(&self, selector: &str) -> web_sys::Element {
        self.wrapper
            .query_selector(selector)
            .unwrap()
            .unwrap_or_else(|| panic!("no {selector}"))
    }

    fn all(&self, selector: &str) -> Vec<web_sys::Element> {
        let list = self.wrapper.query_selector_all(selector).unwrap();
        (0..list.length())
            .map(|i| list.item(i).unwrap().unchecked_into())
            .collect()
    }

    fn attrs(&self, selector: &str, attr: &str) -> Vec<String> {
        self.all(selector)
            .iter()
            .map(|e| e.get_attribute(attr).unwrap_or_default())
            .collect()
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
    assert_eq!(
        app.attrs("[data-testid=verdict]", "data-kind"),
        ["request", "notification"]
    );
    assert_eq!(app.all("[data-testid=method]").len(), 2);
    let first = app.one("[data-testid=verdict]").text_content().unwrap();
    assert!(
        first.contains("sum") && first.contains("7"),
        "first card: {first}"
    );
    assert!(app.all("[data-testid=violation]").is_empty());
}

#[wasm_bindgen_test]
async fn an_array_of_numbers_is_a_batch_of_three_invalid_items() {
    let app = mount_app();
    app.type_text("[1,2,3]").await;
    // Top-level cards only: batch elements are verdict cards too, nested in the batch's card.
    assert_eq!(
        app.attrs(
            "[data-testid=verdicts] > [data-testid=verdict]",
            "data-kind"
        ),
        ["batch"]
    );
    assert_eq!(
        app.attrs("[data-testid=batch-item]", "data-kind"),
        ["invalid", "invalid", "invalid"]
    );
    let paths = app.attrs(
        "[data-testid=batch-item] [data-testid=violation]",
        "data-path",
    );
    assert!(
        paths.iter().any(|p| p == "/0") && paths.iter().any(|p| p == "/2"),
        "paths: {paths:?}"
    );
}

#[wasm_bindgen_test]
async fn broken_json_is_a_parse_error_with_its_line_and_column() {
    let app = mount_app();
    app.type_text("{\"jsonrpc\": \"2.0\",\n \"method\": }")
        .await;
    assert_eq!(
        app.attrs("[data-testid=verdict]", "data-kind"),
        ["parse-error"]
    );
    let violation = app.one("[data-testid=violation]");
    assert_eq!(
        violation.get_attribute("data-rule").as_deref(),
        Some("json-syntax")
    );
    assert_eq!(
        violation.get_attribute("data-severity").as_deref(),
        Some("error")
    );
    let text = violation.text_content().unwrap();
    assert!(
        text.starts_with("2:"),
        "violation shows line:column first: {text}"
    );
}

#[wasm_bindgen_test]
async fn user_text_is_never_html() {
    let app = mount_app();
    app.type_text(r#"{"jsonrpc":"2.0","method":"<img src=x onerror=alert(1)>","id":1}"#)
        .await;
    assert_eq!(app.attrs("[data-testid=verdict]", "data-kind"), ["request"]);
    assert!(app.all("img").is_empty());
    assert_eq!(
        app.one("[data-testid=method]").text_content().unwrap(),
        "<img src=x onerror=alert(1)>"
    );
}

#[wasm_bindgen_test]
async fn an_unchanged_card_keeps_its_element() {
    let app = mount_app();
    let request = r#"{"jsonrpc":"2.0","method":"a","id":1}"#;
    app.type_text(request).await;
    let before = app.one("[data-testid=verdict]");
    app.type_text(&format!("{request}\n[1]")).await;
    assert_eq!(
        app.attrs(
            "[data-testid=verdicts] > [data-testid=verdict]",
            "data-kind"
        ),
        ["request", "batch"]
    );
    assert!(
        before.is_same_node(Some(&app.one("[data-testid=verdict]"))),
        "the first card was rebuilt"
    );
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
        (
            r#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#,
            Kind::Request,
        ),
        (
            r#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#,
            Kind::Notification,
        ),
        (
            r#"{"jsonrpc": "2.0", "result": 19, "id": 1}"#,
            Kind::Response,
        ),
        (
            r#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#,
            Kind::ParseError,
        ),
    ];
    for (src, kind) in cases {
        let report = check(src.as_bytes(), Profile::JsonRpc);
        assert_eq!(
            report.documents.iter().map(|d| d.kind).collect::<Vec<_>>(),
            [kind],
            "{src}"
        );
    }
}

// ---- Editor and verdicts (issue 3) ----

impl<H> Mounted<H> {
    fn editor(&self) -> HtmlTextAreaElement {
        self.one("[data-testid=editor]").unchecked_into()
    }

    /// Chooses a profile in the profile select, as a user does (set the value, fire `change`).
    async fn choose_profile(&self, value: &str) {
        let select: web_sys::HtmlSelectElement = self.one("[data-testid=profile]").unchecked_into();
        select.set_value(value);
        let init = EventInit::new();
        init.set_bubbles(true);
        select
            .dispatch_event(&Event::new_with_event_init_dict("change", &init).unwrap())
            .unwrap();
        tick().await;
        tick().await;
    }
}

#[wasm_bindgen_test]
async fn violations_are_underlined_with_their_severity() {
    let app = mount_app();
    // "jsonrpc": "1.0" is an error; a fractional id is a warning.
    app.type_text("{\"jsonrpc\":\"1.0\",\"method\":\"a\",\"id\":1}\n{\"jsonrpc\":\"2.0\",\"method\":\"a\",\"id\":1.5}").await;
    let errors = app.all("[data-testid=mirror] .mark.error");
    let warnings = app.all("[data-testid=mirror] .mark.warning");
    assert_eq!(errors.len(), 1, "one error underline");
    assert_eq!(errors[0].text_content().unwrap(), "\"1.0\"");
    assert!(!warnings.is_empty(), "a warning underline");
    assert!(
        warnings.iter().any(|w| w.text_content().unwrap() == "1.5"),
        "the fractional id is underlined"
    );
    let rules = app.attrs("[data-testid=violation]", "data-severity");
    assert!(
        rules.contains(&"error".to_string()) && rules.contains(&"warning".to_string()),
        "{rules:?}"
    );
}

#[wasm_bindgen_test]
async fn the_mirror_shows_the_text_coloured_line_by_line() {
    let app = mount_app();
    let text = "{\"a\": [1, true, \"é😀\"]}\n\n--> {}";
    app.type_text(text).await;
    let lines = app.all("[data-testid=mirror] .line");
    assert_eq!(lines.len(), 3);
    let mirrored: Vec<String> = lines.iter().map(|l| l.text_content().unwrap()).collect();
    assert_eq!(mirrored.join("\n"), text);
    assert_eq!(
        app.one("[data-testid=mirror] .t-key")
            .text_content()
            .unwrap(),
        "\"a\""
    );
    assert_eq!(
        app.one("[data-testid=mirror] .t-num")
            .text_content()
            .unwrap(),
        "1"
    );
    assert_eq!(
        app.one("[data-testid=mirror] .t-lit")
            .text_content()
            .unwrap(),
        "true"
    );
    assert_eq!(
        app.one("[data-testid=mirror] .t-marker")
            .text_content()
            .unwrap(),
        "-->"
    );
    let gutter = app.one(".gutter pre").text_content().unwrap();
    assert_eq!(gutter, "1\n2\n3\n");
}

#[wasm_bindgen_test]
async fn a_whole_line_comment_of_a_transcript_is_coloured_as_a_comment_not_a_document() {
    let app = mount_app();
    let text = "// This test checks ping.\n\n  // indented\n--> {\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"id\": 1}\n<-- {\"jsonrpc\": \"2.0\", \"result\": {}, \"id\": 1}";
    app.type_text(text).await;
    let comments: Vec<String> = app
        .all("[data-testid=mirror] .t-comment")
        .iter()
        .map(|c| c.text_content().unwrap())
        .collect();
    assert_eq!(comments, ["// This test checks ping.", "// indented"]);
    assert_eq!(
        app.attrs("[data-testid=verdict]", "data-kind"),
        ["request", "response"]
    );
    // Outside a transcript the same line is no comment: it is what a JSON reader sees, an error.
    app.type_text(
        "// This test checks ping.\n{\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"id\": 1}",
    )
    .await;
    assert!(app.all("[data-testid=mirror] .t-comment").is_empty());
    assert_eq!(
        app.attrs("[data-testid=verdict]", "data-kind")[0],
        "parse-error"
    );
}

#[wasm_bindgen_test]
async fn an_unchanged_line_keeps_its_element() {
    let app = mount_app();
    app.type_text("{\"jsonrpc\":\"2.0\",\"method\":\"a\",\"id\":1}\n{\"jsonrpc\":\"2.0\",\"method\":\"b\",\"id\":2}").await;
    let first = app.all("[data-testid=mirror] .line")[0].clone();
    app.type_text("{\"jsonrpc\":\"2.0\",\"method\":\"a\",\"id\":1}\n{\"jsonrpc\":\"2.0\",\"method\":\"bc\",\"id\":2}").await;
    assert!(
        first.is_same_node(Some(&app.all("[data-testid=mirror] .line")[0])),
        "the first line was rebuilt"
    );
}

#[wasm_bindgen_test]
async fn the_mirror_follows_every_kind_of_edit() {
    // Lines inserted, deleted, swapped, duplicated and all replaced: after each edit the mirror
    // holds exactly the text's lines, in order (the keyed list only rebuilds what changed).
    let app = mount_app();
    let edits = [
        "a\nb\nc\nd\ne",
        "a\nb\nX\nc\nd\ne",
        "a\nc\nd\ne",
        "a\nd\nc\ne",
        "e\nd\nc\na",
        "e\nd\nd\nc\na",
        "",
        "{\"jsonrpc\": \"2.0\"}\n\n{\"id\": 1}",
        "only",
    ];
    for text in edits {
        app.type_text(text).await;
        let mirrored: Vec<String> = app
            .all("[data-testid=mirror] .line")
            .iter()
            .map(|l| l.text_content().unwrap())
            .collect();
        assert_eq!(mirrored.join("\n"), text, "after editing to {text:?}");
        assert_eq!(
            app.all("[data-testid=mirror] > *").len(),
            text.split('\n').count(),
            "no stray children for {text:?}"
        );
    }
}

#[wasm_bindgen_test]
async fn huge_text_is_counted_whole_but_cards_and_colouring_are_capped() {
    // 25 000 lines (over the editor's 20 000-line mirror limit), one broken message in three.
    let app = mount_app();
    let mut text = String::new();
    for i in 0..25_000 {
        if i % 3 == 0 {
            text.push_str(&format!(
                "{{\"jsonrpc\": \"1.0\", \"method\": \"m\", \"id\": {i}}}\n"
            ));
        } else {
            text.push_str(&format!(
                "{{\"jsonrpc\": \"2.0\", \"method\": \"m\", \"id\": {i}}}\n"
            ));
        }
    }
    app.type_text(text.trim_end()).await;
    assert_eq!(
        app.all("[data-testid=verdict]").len(),
        300,
        "only the first 300 documents get a card"
    );
    let more = app.one("[data-testid=verdicts-more]");
    assert!(!more.has_attribute("hidden"));
    let said = more.text_content().unwrap();
    assert!(said.contains("The first 300 of 25000 documents"), "{said}");
    assert!(said.contains("8334 with errors"), "{said}");
    assert!(app
        .one("[data-testid=validate-ms]")
        .text_content()
        .unwrap()
        .starts_with("25000 documents"));
    assert!(
        app.one(".editor").class_list().contains("is-plain"),
        "no mirror for 25 000 lines"
    );
    assert!(!app
        .one("[data-testid=editor-plain]")
        .has_attribute("hidden"));
    assert_eq!(app.all("[data-testid=mirror] .line").len(), 0);
    // Back to a small text: the mirror, the line numbers and every card return.
    app.type_text("{\"jsonrpc\": \"2.0\", \"method\": \"m\", \"id\": 1}")
        .await;
    assert!(!app.one(".editor").class_list().contains("is-plain"));
    assert!(app
        .one("[data-testid=verdicts-more]")
        .has_attribute("hidden"));
    assert_eq!(app.all("[data-testid=mirror] .line").len(), 1);
    assert_eq!(app.all("[data-testid=verdict]").len(), 1);
}

/// Pastes `text` into the element the way the browser does: a `paste` event with the clipboard's
/// text; returns whether the page took it over (prevented the default insertion).
fn paste_into(el: &web_sys::Element, text: &str) -> bool {
    let data = web_sys::DataTransfer::new().unwrap();
    data.set_data("text/plain", text).unwrap();
    let init = web_sys::ClipboardEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_clipboard_data(Some(&data));
    let ev = web_sys::ClipboardEvent::new_with_event_init_dict("paste", &init).unwrap();
    !el.dispatch_event(&ev).unwrap()
}

#[wasm_bindgen_test]
async fn a_large_paste_is_shown_by_the_viewer_not_the_textarea() {
    // 3 MB (over the 2 MB limit) of 30 000 lines, one message in three broken.
    let app = mount_app();
    app.type_text("").await;
    let mut text = String::new();
    for i in 0..30_000 {
        let version = if i % 3 == 0 { "1.0" } else { "2.0" };
        text.push_str(&format!("{{\"jsonrpc\": \"{version}\", \"method\": \"m\", \"params\": [\"{}\"], \"id\": {i}}}\n", "x".repeat(40)));
    }
    assert!(text.len() > 2_000_000);
    let editor: HtmlTextAreaElement = app.one("[data-testid=editor]").unchecked_into();
    assert!(paste_into(&editor, &text), "the paste is taken over");
    tick().await;
    tick().await;
    assert_eq!(editor.value(), "", "the textarea holds nothing to lay out");
    assert!(app.one(".editor").class_list().contains("is-large"));
    assert!(!app.one("[data-testid=big-view]").has_attribute("hidden"));
    let note = app.one("[data-testid=big-note]").text_content().unwrap();
    assert!(note.contains("30001 lines"), "{note}");
    // Exact verdicts over all of it; only the lines in sight are in the DOM.
    assert!(app
        .one("[data-testid=validate-ms]")
        .text_content()
        .unwrap()
        .starts_with("30000 documents"));
    assert!(app
        .one("[data-testid=verdicts-more]")
        .text_content()
        .unwrap()
        .contains("10000 with errors"));
    let shown = app.all("[data-testid=big-lines] .big-line").len();
    assert!((10..200).contains(&shown), "{shown} lines in the DOM");
    assert_eq!(
        app.all("[data-testid=big-lines] .big-no")[0]
            .text_content()
            .unwrap(),
        "1"
    );
    // A violation of the 301st card's document is not on a card; one of the first is: click it.
    app.one("[data-testid=violation] button")
        .unchecked_into::<HtmlElement>()
        .click();
    tick().await;
    tick().await;
    assert_eq!(
        app.all("[data-testid=big-lines] .big-line.marked").len(),
        1,
        "the violation's line is marked"
    );
    // Edit anyway: the text goes into the textarea.
    app.one("[data-testid=big-edit]")
        .unchecked_into::<HtmlElement>()
        .click();
    tick().await;
    tick().await;
    assert_eq!(editor.value().len(), text.len());
    assert!(!app.one(".editor").class_list().contains("is-large"));
    assert!(app.one("[data-testid=big-view]").has_attribute("hidden"));
    // A small paste is the browser's own (not taken over).
    app.type_text("").await;
    assert!(!paste_into(&editor, "{}"));
}

#[wasm_bindgen_test]
async fn the_profile_switch_changes_the_verdicts() {
    let app = mount_app();
    let options = app.attrs("[data-testid=profile] option", "value");
    assert_eq!(
        options.len(),
        1 + jsonrpc_playground::rpc::McpVersion::ALL.len(),
        "{options:?}"
    );
    app.choose_profile("jsonrpc").await;
    app.type_text(r#"{"jsonrpc":"2.0","method":"tools/call","params":{},"id":1}"#)
        .await;
    assert_eq!(app.attrs("[data-testid=verdict]", "data-kind"), ["request"]);
    assert!(app.all("[data-testid=violation]").is_empty());
    app.choose_profile("mcp:2025-11-25").await;
    assert_eq!(app.attrs("[data-testid=verdict]", "data-kind"), ["invalid"]);
    let rules = app.attrs("[data-testid=violation]", "data-rule");
    assert!(rules.iter().any(|r| r == "mcp-param-missing"), "{rules:?}");
    app.choose_profile("jsonrpc").await;
    assert_eq!(app.attrs("[data-testid=verdict]", "data-kind"), ["request"]);
}

#[wasm_bindgen_test]
async fn clicking_a_violation_selects_its_span_in_utf16_units() {
    let app = mount_app();
    // "é😀" before the violation: 2 + 4 bytes, but 1 + 2 UTF-16 units.
    let text = "\"é😀\"\n{\"jsonrpc\":\"1.0\",\"method\":\"a\",\"id\":1}";
    app.type_text(text).await;
    let row = app
        .all("[data-testid=violation]")
        .into_iter()
        .find(|v| v.get_attribute("data-rule").as_deref() == Some("jsonrpc-not-2-0"))
        .expect("a jsonrpc-not-2-0 row");
    row.unchecked_ref::<HtmlElement>().click();
    tick().await;
    tick().await;
    let editor = app.editor();
    let (start, end) = (
        editor.selection_start().unwrap().unwrap(),
        editor.selection_end().unwrap().unwrap(),
    );
    let utf16: Vec<u16> = text.encode_utf16().collect();
    let selected = String::from_utf16(&utf16[start as usize..end as usize]).unwrap();
    assert_eq!(selected, "\"1.0\"");
    assert_eq!(
        start,
        5 + 1 + 11,
        "\"é😀\" is 5 UTF-16 units, then the newline and {{\"jsonrpc\":"
    );
}

#[wasm_bindgen_test]
async fn batch_elements_are_verdict_cards_in_their_batch() {
    let app = mount_app();
    app.type_text(r#"[{"jsonrpc":"2.0","method":"a","id":1},{"jsonrpc":"2.0","method":"b"},1]"#)
        .await;
    let top: Vec<String> = app
        .all("[data-testid=verdicts] > [data-testid=verdict]")
        .iter()
        .map(|e| e.get_attribute("data-kind").unwrap())
        .collect();
    assert_eq!(top, ["batch"]);
    let nested = app.attrs(
        "[data-testid=verdict][data-kind=batch] [data-testid=verdict]",
        "data-kind",
    );
    assert_eq!(nested, ["request", "notification", "invalid"]);
    assert_eq!(app.all("[data-testid=batch-item]").len(), 3);
    let about = app
        .one("[data-testid=verdict][data-kind=batch] > [data-testid=about]")
        .text_content()
        .unwrap();
    assert!(
        about.contains("batch of 3") && about.contains("expects 2 responses"),
        "{about}"
    );
}

#[wasm_bindgen_test]
async fn a_clean_card_says_what_it_is() {
    let app = mount_app();
    app.type_text(
        "{\"jsonrpc\":\"2.0\",\"method\":\"a\",\"id\":1}\n{\"jsonrpc\":\"2.0\",\"method\":\"n\"}\n\
         {\"jsonrpc\":\"2.0\",\"result\":19,\"id\":1}\n{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32601,\"message\":\"Method not found\"},\"id\":\"x\"}",
    )
    .await;
    let about = app
        .all("[data-testid=about]")
        .iter()
        .map(|e| e.text_content().unwrap())
        .collect::<Vec<_>>();
    assert_eq!(
        about,
        [
            "Valid request — expects a response with id 1",
            "Valid notification — no response expected",
            "Valid response — answers id 1 with a result",
            "Valid response — answers id \"x\" with error -32601",
        ]
    );
    let badges = app
        .all("[data-testid=badge]")
        .iter()
        .map(|e| e.text_content().unwrap())
        .collect::<Vec<_>>();
    assert_eq!(
        badges[2..],
        [
            "response with result".to_string(),
            "response with error -32601".to_string()
        ]
    );
}

#[wasm_bindgen_test]
async fn a_violation_links_its_spec_section_in_a_new_tab() {
    let app = mount_app();
    app.type_text(r#"{"jsonrpc":"1.0","method":"a","id":1}"#)
        .await;
    let link = app.one("[data-testid=violation] a.spec");
    assert!(link.get_attribute("href").unwrap().starts_with("https://"));
    assert_eq!(link.get_attribute("target").as_deref(), Some("_blank"));
    assert!(link.get_attribute("rel").unwrap().contains("noopener"));
    assert!(app
        .one("[data-testid=violation] button")
        .text_content()
        .unwrap()
        .contains("jsonrpc-not-2-0"));
}

#[wasm_bindgen_test]
async fn format_and_minify_rewrite_the_text_and_keep_numbers() {
    let app = mount_app();
    app.type_text(r#"{"jsonrpc":"2.0","method":"a","params":[1.0,1e3],"id":1}"#)
        .await;
    app.one("[data-testid=format]")
        .unchecked_ref::<HtmlElement>()
        .click();
    tick().await;
    tick().await;
    let pretty = app.editor().value();
    assert_eq!(pretty, "{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"a\",\n  \"params\": [\n    1.0,\n    1e3\n  ],\n  \"id\": 1\n}");
    assert_eq!(app.all("[data-testid=mirror] .line").len(), 9);
    app.one("[data-testid=minify]")
        .unchecked_ref::<HtmlElement>()
        .click();
    tick().await;
    tick().await;
    assert_eq!(
        app.editor().value(),
        r#"{"jsonrpc":"2.0","method":"a","params":[1.0,1e3],"id":1}"#
    );
    assert_eq!(app.attrs("[data-testid=verdict]", "data-kind"), ["request"]);
}

#[wasm_bindgen_test]
async fn format_leaves_broken_json_alone() {
    let app = mount_app();
    let broken = "{\"jsonrpc\": \"2.0\",\n \"method\": }";
    app.type_text(broken).await;
    app.one("[data-testid=format]")
        .unchecked_ref::<HtmlElement>()
        .click();
    tick().await;
    assert_eq!(app.editor().value(), broken);
}

// ---- State that is never lost, look and feel (issue 3): notices, theme, drafts, share links ----

/// Waits `ms` milliseconds (a browser timer).
async fn sleep(ms: i32) {
    use web_sys::js_sys::{futures::JsFuture, Promise};
    let promise = Promise::new(&mut |resolve, _| {
        window()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    JsFuture::from(promise).await.unwrap();
}

/// Waits (up to 3 s) for `selector` in the app.
async fn wait_for<H>(app: &Mounted<H>, selector: &str) -> web_sys::Element {
    for _ in 0..150 {
        if let Some(e) = app.wrapper.query_selector(selector).unwrap() {
            return e;
        }
        sleep(20).await;
    }
    panic!("{selector} did not appear");
}

mod state_and_theme {
    use super::*;
    use web_sys::{HtmlInputElement, KeyboardEvent, KeyboardEventInit};

    const SAMPLE: &str = jsonrpc_playground::web::page::SAMPLE;

    /// Empty localStorage and sessionStorage and no fragment: a first visit.
    fn fresh_start() {
        window().local_storage().unwrap().unwrap().clear().unwrap();
        window()
            .session_storage()
            .unwrap()
            .unwrap()
            .clear()
            .unwrap();
        set_fragment("");
    }

    /// Sets the address's fragment without a `hashchange` (as if the page was opened with it).
    fn set_fragment(fragment: &str) {
        let href = window().location().href().unwrap();
        let base = href.split('#').next().unwrap().to_string();
        let url = if fragment.is_empty() {
            base
        } else {
            format!("{base}#{fragment}")
        };
        window()
            .history()
            .unwrap()
            .replace_state_with_url(&JsValue::NULL, "", Some(&url))
            .unwrap();
    }

    async fn editor_text<H>(app: &Mounted<H>) -> String {
        tick().await;
        app.one("[data-testid=editor]")
            .unchecked_into::<HtmlTextAreaElement>()
            .value()
    }

    fn html_theme() -> Option<String> {
        document()
            .document_element()
            .unwrap()
            .get_attribute("data-theme")
    }

    use wasm_bindgen::JsValue;

    #[wasm_bindgen_test]
    async fn an_error_notice_is_an_alert_dismissed_with_its_button() {
        fresh_start();
        set_fragment("s=1.not*base64");
        let app = mount_app();
        let notice = wait_for(&app, "[data-testid=notice][data-level=error]").await;
        assert!(
            notice.query_selector("[role=alert]").unwrap().is_some(),
            "an error is role=alert"
        );
        let text = notice.text_content().unwrap();
        assert!(
            text.contains("could not be opened") && text.contains("Your draft is unchanged"),
            "{text}"
        );
        assert_eq!(editor_text(&app).await, SAMPLE, "the draft is untouched");
        let dismiss = notice
            .query_selector("button[data-testid=dismiss]")
            .unwrap()
            .unwrap();
        assert!(dismiss
            .get_attribute("aria-label")
            .unwrap()
            .starts_with("Dismiss"));
        dismiss.unchecked_into::<HtmlElement>().click();
        tick().await;
        assert!(app.all("[data-testid=notice]").is_empty());
        drop(app);
        fresh_start();
    }

    #[wasm_bindgen_test]
    async fn escape_in_a_notice_dismisses_it() {
        fresh_start();
        set_fragment("s=9.AAAA");
        let app = mount_app();
        let notice = wait_for(&app, "[data-testid=notice]").await;
        assert!(notice
            .text_content()
            .unwrap()
            .contains("format version \"9\""));
        let init = KeyboardEventInit::new();
        init.set_key("Escape");
        init.set_bubbles(true);
        let button = notice.query_selector("button").unwrap().unwrap();
        button
            .dispatch_event(
                &KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap(),
            )
            .unwrap();
        tick().await;
        assert!(app.all("[data-testid=notice]").is_empty());
        drop(app);
        fresh_start();
    }

    #[wasm_bindgen_test]
    async fn a_share_link_round_trips_text_and_shows_a_status_notice() {
        fresh_start();
        let text = "{\"jsonrpc\": \"2.0\", \"method\": \"é 😀 <b>\", \"id\": 1.0}\n--> [1,2]";
        let link = {
            let app = mount_app();
            app.type_text(text).await;
            app.one("[data-testid=share]")
                .unchecked_into::<HtmlElement>()
                .click();
            let notice = wait_for(&app, "[data-testid=notice][data-level=info]").await;
            assert!(
                notice.query_selector("[role=status]").unwrap().is_some(),
                "info is role=status"
            );
            let field: HtmlInputElement = app.one("[data-testid=share-link]").unchecked_into();
            assert!(!field.hidden() && field.read_only());
            field.value()
        };
        let (address, fragment) = link.split_once('#').expect("the link has a fragment");
        assert!(
            !address.contains('?') || !address.contains("s=1."),
            "never in the query: {link}"
        );
        assert!(fragment.starts_with("s=1."), "{fragment}");
        // A first visit opened with the link.
        fresh_start();
        set_fragment(fragment);
        let app = mount_app();
        wait_for(&app, "[data-testid=notice][data-level=info]").await;
        tick().await;
        // The state holds the shared text (the editor mirrors it: the e2e tests look there).
        assert_eq!(
            app.one("[data-testid=method]").text_content().unwrap(),
            "é 😀 <b>"
        );
        assert!(app.all("img, b").is_empty(), "text, never HTML");
        assert!(
            !window().location().href().unwrap().contains('#'),
            "the fragment is removed once opened"
        );
        drop(app);
        fresh_start();
    }

    #[wasm_bindgen_test]
    async fn the_draft_comes_back_on_the_next_load() {
        fresh_start();
        {
            let app = mount_app();
            app.type_text("[1, 2]").await;
            sleep(450).await; // past the save debounce
        }
        let app = mount_app();
        assert_eq!(editor_text(&app).await, "[1, 2]");
        drop(app);
        fresh_start();
    }

    #[wasm_bindgen_test]
    async fn a_corrupt_draft_is_a_notice_and_the_sample() {
        fresh_start();
        let local = window().local_storage().unwrap().unwrap();
        local
            .set_item("jrpc.draft.broken", "{\"v\":1,\"text\":")
            .unwrap();
        local.set_item("jrpc.latest", "broken").unwrap();
        let app = mount_app();
        let notice = wait_for(&app, "[data-testid=notice][data-level=error]").await;
        assert!(notice
            .text_content()
            .unwrap()
            .contains("saved draft could not be read"));
        assert_eq!(editor_text(&app).await, SAMPLE);
        assert_eq!(
            local.get_item("jrpc.draft.broken").unwrap().as_deref(),
            Some("{\"v\":1,\"text\":"),
            "kept"
        );
        drop(app);
        fresh_start();
    }

    #[wasm_bindgen_test]
    async fn the_theme_toggle_cycles_system_light_dark_and_is_kept() {
        fresh_start();
        let local = window().local_storage().unwrap().unwrap();
        let app = mount_app();
        tick().await;
        assert_eq!(html_theme(), None, "follows the system at first");
        let toggle: HtmlElement = app.one("[data-testid=theme]").unchecked_into();
        let mut seen = Vec::new();
        for _ in 0..3 {
            toggle.click();
            tick().await;
            seen.push((html_theme(), local.get_item("jrpc.theme").unwrap()));
        }
        assert_eq!(
            seen,
            [
                (Some("light".to_string()), Some("light".to_string())),
                (Some("dark".to_string()), Some("dark".to_string())),
                (None, None),
            ]
        );
        toggle.click();
        toggle.click();
        tick().await;
        drop(app);
        let app = mount_app();
        tick().await;
        assert_eq!(html_theme().as_deref(), Some("dark"), "the choice is kept");
        assert!(app
            .one("[data-testid=theme]")
            .text_content()
            .unwrap()
            .contains("dark"));
        drop(app);
        fresh_start();
        document()
            .document_element()
            .unwrap()
            .remove_attribute("data-theme")
            .unwrap();
    }
}

// ---- Mock server, log and examples (issue 3: exchange) ----

// Send, the log's pairing, Ctrl+Enter and Clear are tested end to end in Chromium on the release
// build (tests/e2e/exchange.test.mjs): the page's mock server runs in its own worker binary
// (`mock-worker`), which this test harness's page does not serve.

#[wasm_bindgen_test]
async fn every_example_loads_into_the_editor_with_its_profile() {
    let app = mount_app();
    let select: web_sys::HtmlSelectElement = app.one("[data-testid=examples]").unchecked_into();
    let ids: Vec<String> = app
        .attrs("[data-testid=examples] option", "value")
        .into_iter()
        .filter(|v| !v.is_empty())
        .collect();
    // The page fetches the examples' texts on the first pick (the release build names the file in
    // <meta name="app-entry">, which this harness's page has not): installed here as fetched.
    let library = include_str!("../engine/src/examples/library.txt");
    let examples =
        jsonrpc_playground::web::page::install_examples(library).expect("the library reads");
    assert_eq!(ids.len(), examples.len());
    for id in ids {
        let example = examples.iter().find(|e| e.id == id).unwrap();
        select.set_value(&id);
        let init = EventInit::new();
        init.set_bubbles(true);
        select
            .dispatch_event(&Event::new_with_event_init_dict("change", &init).unwrap())
            .unwrap();
        tick().await;
        tick().await;
        let editor: HtmlTextAreaElement = app.one("[data-testid=editor]").unchecked_into();
        assert_eq!(editor.value(), example.text, "{id}");
        assert_eq!(select.value(), "", "the menu returns to its prompt");
        assert!(
            !app.all("[data-testid=verdict]").is_empty(),
            "{id}: its verdicts show"
        );
        if id == "quiz-001" {
            // Checked under MCP: the MCP rules fire.
            let rules = app.attrs("[data-testid=violation]", "data-rule");
            assert!(
                rules.iter().any(|r| r == "mcp-request-without-id"),
                "{rules:?}"
            );
        }
    }
}

#[wasm_bindgen_test]
fn an_analysis_crosses_from_the_worker_unchanged() {
    use jsonrpc_playground::web::kit::analysis::Analysis;
    // Batches, parse errors, escapes (tabs, newlines, backslashes), non-ASCII.
    let text = "[{\"jsonrpc\":\"2.0\",\"method\":\"a\\tb\\nc\\\\\",\"id\":\"x\\ty\"},{\"jsonrpc\":\"1.0\",\"id\":1,\"result\":\"é\"}]\n{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32601,\"message\":\"=no\"},\"id\":null}\n{oops";
    let a = Analysis::run(text, Profile::JsonRpc, None, || 0.0);
    assert_eq!(a.totals.documents, 3);
    let b = Analysis::decode(&a.encode(), None).expect("decodes");
    assert_eq!(a, b);
    let spans = |a: &Analysis| {
        a.verdicts
            .iter()
            .map(|k| {
                (
                    k.verdict.span,
                    k.verdict
                        .findings
                        .iter()
                        .map(|f| f.span)
                        .collect::<Vec<_>>(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(spans(&a), spans(&b));
    assert_eq!(
        b.verdicts[0].verdict.items[0].method.as_deref(),
        Some("a\tb\nc\\")
    );
    assert_eq!(
        b.verdicts[0].verdict.items[0].id.as_deref(),
        a.verdicts[0].verdict.items[0].id.as_deref()
    );
    // Keys carry over from the previous analysis for unchanged verdicts, as on the page.
    let c = Analysis::decode(&a.encode(), Some(&b)).unwrap();
    assert_eq!(
        c.verdicts.iter().map(|k| k.key).collect::<Vec<_>>(),
        b.verdicts.iter().map(|k| k.key).collect::<Vec<_>>()
    );
    // Damaged text is refused, not guessed at.
    assert!(Analysis::decode(r#"[[1,0,0,0],0,[["request"]]]"#, None).is_none());
    assert!(Analysis::decode(
        r#"[[1,0,0,0],0,[["teapot",null,null,[1,1,0,1],[],[],null,null]]]"#,
        None
    )
    .is_none());
    assert!(Analysis::decode("", None).is_none());
}

// ---- The page: no island wrappers, the router and its views ----

mod dom_page {
    use super::*;

    #[wasm_bindgen_test]
    async fn the_toolbar_and_the_verdicts_sit_where_the_stylesheet_expects_them() {
        let app = mount_app();
        tick().await;
        // One Leptos tree (no islands); views still built by src/web/dom.rs sit in a `.host`
        // wrapper with `display: contents` (style/app.css), so the layout is the one of direct
        // children: `.results > .verdicts` scrolls the cards.
        app.one(".results > section.verdicts[data-testid=verdicts]");
        assert!(app
            .one(".results > p[data-testid=verdicts-more]")
            .has_attribute("hidden"));
        app.one(".toolbar > div.toolbar-playground > label.profile > select[data-testid=profile]");
        app.one(".toolbar > div.toolbar-playground > label.examples-label > select[data-testid=examples]");
        app.one(".toolbar > div.toolbar-playground > div.share > button[data-testid=share]");
        app.one(".toolbar > button.theme-toggle[data-testid=theme]");
        app.one(".editor-tools > button[data-testid=format] + button[data-testid=minify]");
        app.one(".app-header > nav.views[data-testid=views]");
        app.one(".app > aside.notices > ul[data-testid=notices]");
        app.one(".app > main.teach-host[hidden]");
        assert!(
            app.one("[data-testid=share-link]").has_attribute("hidden"),
            "the share field shows once a link is made"
        );
    }

    #[wasm_bindgen_test]
    async fn the_profile_select_reflects_the_profile() {
        let app = mount_app();
        tick().await;
        let select: web_sys::HtmlSelectElement = app.one("[data-testid=profile]").unchecked_into();
        assert_eq!(select.value(), "jsonrpc");
        assert_eq!(
            app.attrs("[data-testid=profile] option[selected]", "value"),
            ["jsonrpc"]
        );
        // An MCP example sets the profile: the select follows.
        let examples: web_sys::HtmlSelectElement =
            app.one("[data-testid=examples]").unchecked_into();
        examples.set_value("quiz-001");
        let init = EventInit::new();
        init.set_bubbles(true);
        examples
            .dispatch_event(&Event::new_with_event_init_dict("change", &init).unwrap())
            .unwrap();
        tick().await;
        tick().await;
        assert!(select.value().starts_with("mcp:"), "{}", select.value());
        assert_eq!(
            app.attrs("[data-testid=profile] option[selected]", "value"),
            [select.value()]
        );
    }

    #[wasm_bindgen_test]
    async fn the_router_shows_the_teaching_host_and_marks_its_link() {
        // The views themselves are a module of their own that the page loads (src/web/js/boot.js),
        // which this page does not serve: they, and their "Try it" back to the playground, are
        // tested in Chromium (tests/e2e/teach.test.mjs, views.test.mjs). Here: the page's part.
        let app = mount_app();
        tick().await;
        let current =
            |app: &Mounted<_>| app.attrs("[data-testid=views] a[aria-current=page]", "data-view");
        assert_eq!(current(&app), ["playground"]);
        window().location().set_hash("/reference").unwrap();
        wait_for(&app, "[data-testid=teaching-loading]").await;
        assert_eq!(current(&app), ["reference"]);
        assert!(app.one("main.playground").has_attribute("hidden"));
        assert!(!app.one(".teach-host").has_attribute("hidden"));
        window().location().set_hash("/").unwrap();
        for _ in 0..150 {
            if current(&app) == ["playground"] {
                break;
            }
            sleep(20).await;
        }
        assert_eq!(current(&app), ["playground"]);
        assert!(!app.one("main.playground").has_attribute("hidden"));
        assert!(app.one(".teach-host").has_attribute("hidden"));
        drop(app);
        let href = window().location().href().unwrap();
        let base = href.split('#').next().unwrap().to_string();
        window()
            .history()
            .unwrap()
            .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&base))
            .unwrap();
    }
}

#[wasm_bindgen_test]
async fn the_editor_reads_any_text_as_utf8() {
    // The editor reads the textarea through TextEncoder.encodeInto (ui::dom::utf8_of): ASCII,
    // two-, three- and four-byte characters, a lone surrogate (U+FFFD, as JSON.parse would not
    // keep it either), and a long non-ASCII stretch that makes the buffer grow several times.
    let app = mount_app();
    let long = "é中😀".repeat(20_000);
    for (method, expect) in [
        ("plain", "plain".to_string()),
        ("é中😀", "é中😀".to_string()),
        ("LONE", "a\u{fffd}b".to_string()),
        (long.as_str(), long.clone()),
    ] {
        let editor: HtmlTextAreaElement = app.one("[data-testid=editor]").unchecked_into();
        // Set through JavaScript so the lone surrogate reaches the textarea as such.
        let js = wasm_bindgen::JsValue::from_str(&format!(
            "{{\"jsonrpc\": \"2.0\", \"method\": \"{method}\", \"id\": 1}}"
        ));
        let js = if method == "LONE" {
            js_sys_lone_surrogate()
        } else {
            js
        };
        web_sys::js_sys::Reflect::set(&editor, &"value".into(), &js).unwrap();
        let init = EventInit::new();
        init.set_bubbles(true);
        editor
            .dispatch_event(&Event::new_with_event_init_dict("input", &init).unwrap())
            .unwrap();
        tick().await;
        tick().await;
        assert_eq!(
            app.one("[data-testid=verdict] [data-testid=method]")
                .text_content()
                .unwrap(),
            expect
        );
    }
}

/// `{"jsonrpc": "2.0", "method": "a\uD800b", "id": 1}` with a real lone surrogate in the JS string.
fn js_sys_lone_surrogate() -> wasm_bindgen::JsValue {
    let units: Vec<u16> = "{\"jsonrpc\": \"2.0\", \"method\": \"a"
        .encode_utf16()
        .chain([0xd800])
        .chain("b\", \"id\": 1}".encode_utf16())
        .collect();
    web_sys::js_sys::JsString::from_char_code(&units).into()
}

/// The API worker's answers and requests as they cross the page (docs/size-rules.md 16).
mod api_messages {
    use jsonrpc_playground::openrpc::OpenRpc;
    use jsonrpc_playground::web::workers::api::{answer_json, reference};
    use jsonrpc_playground::wire::api::{ApiAnswer, ApiRequest, Reference};
    use wasm_bindgen_test::wasm_bindgen_test;

    const PETSTORE: &str = include_str!("data/openrpc/examples/petstore-openrpc.json");

    fn ask(request: &ApiRequest) -> ApiAnswer {
        let answer = answer_json(&serde_json::to_string(request).unwrap());
        serde_json::from_str(&answer).unwrap()
    }

    #[wasm_bindgen_test]
    fn a_loaded_documents_reference_crosses_as_text_the_views_read_back_whole() {
        let text = PETSTORE.to_string();
        let ApiAnswer::Loaded { reference: loaded } = ask(&ApiRequest::Load { text }) else {
            panic!("the document was not loaded");
        };
        let expected = reference(&OpenRpc::load(PETSTORE.as_bytes()).unwrap());
        // What the page says of it, without reading the reference.
        assert_eq!(
            (
                loaded.title.as_str(),
                loaded.version.as_str(),
                loaded.methods
            ),
            (expected.title.as_str(), expected.version.as_str(), 3)
        );
        // What the views' module reads of the text the page passes on.
        let read: Reference = loaded.json.read().unwrap();
        assert_eq!(read, expected);
        let _ = ask(&ApiRequest::Unload);
    }

    #[wasm_bindgen_test]
    fn an_unreadable_probe_request_is_answered_failed_with_the_reason() {
        let answer = ask(&ApiRequest::Probe {
            probe: jsonrpc_playground::wire::Passed::from_raw(
                serde_json::value::RawValue::from_string(r#"{"run": 1, "url": 5}"#.into()).unwrap(),
            ),
            document: None,
        });
        let ApiAnswer::Failed { error } = answer else {
            panic!("not refused: {answer:?}");
        };
        assert!(
            error.starts_with("the probe's request could not be read (invalid type"),
            "{error}"
        );
    }
}
