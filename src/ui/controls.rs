//! Controls over the editor's text: the profile switch, format and minify.

use crate::ui::prelude::*;
use wasm_bindgen::JsCast;

use super::dom::{self, h};
use super::state::{AppState, NoticeLevel};
use crate::json::{self, Layout};
use crate::rpc::{McpVersion, Profile};

/// The `<option>` value of a profile: `jsonrpc` or `mcp:2025-11-25`.
use crate::saved::{profile_from_str, profile_to_string as profile_value};

fn parse_profile(value: &str) -> Option<Profile> {
    profile_from_str(value).ok()
}

/// JSON-RPC 2.0 or MCP with its protocol version (`data-testid="profile"`).
pub fn profile_select() -> web_sys::Element {
    let profile = super::use_app().profile;
    let mut options = Vec::new();
    let mut option = |p: Profile, label: String| {
        let el = h("option").attr("value", profile_value(p)).text(label).el();
        options.push((p, el.clone()));
        el
    };
    let json_rpc = option(Profile::JsonRpc, "JSON-RPC 2.0".to_string());
    let mut mcp = h("optgroup").attr("label", "Model Context Protocol");
    for v in McpVersion::ALL {
        let default = if v == McpVersion::default() {
            " (default)"
        } else {
            ""
        };
        mcp = mcp.node(option(Profile::Mcp(v), format!("MCP {v}{default}")));
    }
    let select = h("select")
        .testid("profile")
        .on("change", move |ev| {
            if let Some(p) = parse_profile(&dom::target_value(&ev)) {
                profile.set(p);
            }
        })
        .node(json_rpc)
        .child(mcp)
        .el();
    // The current profile: its option marked `selected`, and the select's value.
    {
        let select = select.clone();
        dom::effect(move || {
            let p = profile.get();
            for (q, el) in &options {
                let _ = if *q == p {
                    el.set_attribute("selected", "")
                } else {
                    el.remove_attribute("selected")
                };
            }
            dom::set_prop(&select, "value", &profile_value(p).into());
        });
    }
    h("label")
        .class("profile")
        .child(h("span").class("label").text("Profile"))
        .node(select)
        .el()
}

/// Format (pretty-print), undoable with the browser's undo (`data-testid="format"`).
pub fn format_button() -> web_sys::Element {
    layout_button(
        "format",
        "Pretty-print every document (Ctrl+Z undoes it)",
        "Format",
        Layout::Pretty,
    )
}

/// Minify, undoable with the browser's undo (`data-testid="minify"`).
pub fn minify_button() -> web_sys::Element {
    layout_button(
        "minify",
        "Minify every document (Ctrl+Z undoes it)",
        "Minify",
        Layout::Minify,
    )
}

fn layout_button(
    testid: &'static str,
    title: &'static str,
    label: &'static str,
    layout: Layout,
) -> web_sys::Element {
    let state = super::use_app();
    h("button")
        .attr("type", "button")
        .testid(testid)
        .attr("title", title)
        .text(label)
        .on("click", move |_| relayout(state, layout))
        .el()
}

/// Rewrites the editor's text with `layout`, as one undoable edit, or says why not.
fn relayout(state: AppState, layout: Layout) {
    let result = state.text.with_untracked(|t| json::layout(t, layout));
    match result {
        Ok(new) => {
            if state.text.with_untracked(|t| *t != new) {
                replace_all_undoably(state, &new);
            }
        }
        Err(e) => {
            let verb = if layout == Layout::Pretty {
                "format"
            } else {
                "minify"
            };
            state.notify(NoticeLevel::Error, format!("Could not {verb}: {e}."));
        }
    }
}

/// Replaces the whole textarea content through the browser's editing commands, so Ctrl+Z undoes
/// it, then puts the text into the state (the textarea's `input` event usually did already).
pub(crate) fn replace_all_undoably(state: AppState, text: &str) {
    // A large text lives in the read-only viewer, not the textarea (src/ui/editor/large.rs):
    // putting it through the textarea's editing commands would freeze the page for seconds.
    let large = text.len() > super::editor::LARGE_BYTES
        || state
            .text
            .with_untracked(|t| t.len() > super::editor::LARGE_BYTES);
    if let Some(textarea) = state.editor.get_untracked().filter(|_| !large) {
        let _ = textarea.focus();
        textarea.select();
        let inserted = document()
            .dyn_into::<web_sys::HtmlDocument>()
            .ok()
            .and_then(|d| {
                d.exec_command_with_show_ui_and_value("insertText", false, text)
                    .ok()
            })
            .unwrap_or(false);
        if !inserted || textarea.value() != text {
            // No editing command (or it did something else): set the value; undo history is lost.
            textarea.set_value(text);
        }
    }
    if state.text.with_untracked(|t| t != text) {
        state.text.set(text.to_string());
    }
}
