//! Send (`data-testid="send"`, Ctrl+Enter in the editor pane): the editor's client messages go to
//! the chosen target, the in-browser mock ([`crate::web::page::exchange`]) or the live link
//! ([`crate::web::page::link`]). The one place that knows both, so neither knows the other.

use crate::web::kit::prelude::*;

use crate::web::page::api::{use_api, ApiState};
use crate::web::page::exchange::{use_log, LogState};
use crate::web::page::link::Link;
use crate::web::page::state::{use_app, AppState, NoticeLevel, Target};

fn send(app: AppState, api: ApiState, log: LogState, link: Option<Link>) {
    let text = app.text.get_untracked();
    if let (Target::Link, Some(link)) = (app.target.get_untracked(), link) {
        match link.send(&text) {
            Ok(0) => app.notify(
                NoticeLevel::Info,
                "Nothing to send: the editor has no client message.",
            ),
            Ok(_) => {}
            Err(e) => app.notify(NoticeLevel::Error, e),
        }
        return;
    }
    // With an API document the mock serves that API (src/web/api).
    if api.loaded() {
        if api.send_to_mock(log, &text) == 0 {
            app.notify(
                NoticeLevel::Info,
                "Nothing to send: the editor has no client message.",
            );
        }
        return;
    }
    if log.send_to_mock(&text, app.profile.get_untracked()) == 0 {
        app.notify(NoticeLevel::Info, "Nothing to send: the editor has no client message (a transcript sends only its --> lines).");
    }
}

/// Ctrl+Enter (⌘+Enter) sends: the editor pane's `on:keydown`, so a key pressed anywhere in the
/// pane counts, and nowhere else.
pub fn send_on_shortcut() -> impl Fn(leptos::ev::KeyboardEvent) + Copy + 'static {
    let (app, api, log, link) = (use_app(), use_api(), use_log(), use_context::<Link>());
    move |e| {
        if e.key() != "Enter" || !(e.ctrl_key() || e.meta_key()) || e.default_prevented() {
            return;
        }
        e.prevent_default();
        send(app, api, log, link);
    }
}

/// Sends each client message of the editor to the chosen target (`data-testid="send"`; Ctrl+Enter
/// in the editor pane: [`send_on_shortcut`]).
#[component]
pub fn SendButton() -> impl IntoView {
    let app = use_app();
    let api = use_api();
    let log = use_log();
    let link = use_context::<Link>();
    view! {
        <button
            type="button"
            class="send-button"
            data-testid="send"
            aria-keyshortcuts="Control+Enter"
            title="Send every client message of the editor to the chosen target: the mock server or the live link (Ctrl+Enter)"
            on:click=move |_| send(app, api, log, link)
        >
            "Send ▸"
        </button>
    }
}
