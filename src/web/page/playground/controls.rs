//! Controls over the editor's text: the profile switch, format and minify.

use crate::web::kit::prelude::*;

use crate::json::{self, Layout};
use crate::rpc::{McpVersion, Profile};
use crate::web::page::state::{AppState, NoticeLevel};

/// The `<option>` value of a profile: `jsonrpc` or `mcp:2025-11-25`.
use crate::saved::{profile_from_str, profile_to_string as profile_value};

fn parse_profile(value: &str) -> Option<Profile> {
    profile_from_str(value).ok()
}

/// The MCP version the page offers first and marks as its default: the current revision
/// (2026-07-28, stateless, input-required rounds). A draft or share link naming another version
/// keeps it.
pub const PAGE_MCP_DEFAULT: McpVersion = McpVersion::LATEST;

/// JSON-RPC 2.0 or MCP with its protocol version (`data-testid="profile"`), the page's default
/// MCP version first.
#[component]
pub fn ProfileSelect() -> impl IntoView {
    let profile = crate::web::page::state::use_app().profile;
    let label = |v: McpVersion| {
        let default = if v == PAGE_MCP_DEFAULT {
            " (default)"
        } else {
            ""
        };
        format!("{}{default}", Profile::Mcp(v))
    };
    let option = move |p: Profile, text: String| {
        view! { <option value=profile_value(p) selected=move || profile.get() == p>{text}</option> }
    };
    view! {
        <label class="profile">
            <span class="label">"Profile"</span>
            <select
                data-testid="profile"
                prop:value=move || profile_value(profile.get())
                on:change=move |ev| {
                    if let Some(p) = parse_profile(&event_target_value(&ev)) {
                        profile.set(p);
                    }
                }
            >
                {option(Profile::JsonRpc, Profile::JsonRpc.to_string())}
                <optgroup label="Model Context Protocol">
                    {std::iter::once(PAGE_MCP_DEFAULT)
                        .chain(McpVersion::ALL.into_iter().rev().filter(|&v| v != PAGE_MCP_DEFAULT))
                        .map(|v| option(Profile::Mcp(v), label(v)))
                        .collect_view()}
                </optgroup>
            </select>
        </label>
    }
}

/// Format (pretty-print) and Minify, each undoable with the browser's undo
/// (`data-testid="format"`, `data-testid="minify"`).
#[component]
pub fn LayoutButtons() -> impl IntoView {
    let state = crate::web::page::state::use_app();
    view! {
        <button
            type="button"
            data-testid="format"
            title="Pretty-print every document (Ctrl+Z undoes it)"
            on:click=move |_| relayout(state, Layout::Pretty)
        >
            "Format"
        </button>
        <button
            type="button"
            data-testid="minify"
            title="Minify every document (Ctrl+Z undoes it)"
            on:click=move |_| relayout(state, Layout::Minify)
        >
            "Minify"
        </button>
    }
}

/// Rewrites the editor's text with `layout`, as one undoable edit, or says why not.
fn relayout(state: AppState, layout: Layout) {
    let result = state.text.with_untracked(|t| json::layout(t, layout));
    match result {
        Ok(new) => {
            if state.text.with_untracked(|t| *t != new) {
                state.replace_text_undoably(&new);
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
