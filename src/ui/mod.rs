//! The web app (wasm32 only): the editor checked by the engine on every edit, the verdicts, the
//! in-browser mock server with its log, examples, share links and drafts. A thin face over the
//! engine: it renders what the engine says and decides nothing.
//!
//! Layout of this folder (one owner per file; shared state in [`state`]):
//! - editor, verdicts, analysis, controls: the text, its verdicts, profile, format/minify;
//! - exchange, examples: Send to the mock server, the log, the sequence picture, the library;
//! - persist, share, theme, notices: drafts, share links, light/dark, messages to the user.

mod analysis;
mod bench;
mod controls;
pub(crate) mod dom;
mod editor;
mod examples;
mod exchange;
mod link;
mod notices;
mod persist;
pub mod prelude;
mod share;
mod state;
mod teach;
mod theme;
mod verdicts;
mod worker;

use crate::ui::prelude::*;

use dom::h;

pub use analysis::{Analysis, Finding, Keyed, Verdict};
pub use state::{use_app, AppState, Notice, NoticeLevel};

/// What the editor holds when the page opens with no draft and no share link.
pub const SAMPLE: &str = r#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#;

/// The page mounted into a parent element: its reactive owner and its root element. Dropping it
/// disposes every signal and effect and removes the page.
pub struct Mounted {
    owner: Owner,
    root: web_sys::Element,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.root.remove();
        self.owner.cleanup();
    }
}

/// Builds the page into `parent` (the app's `main` puts it into `<body>`).
pub fn mount(parent: &web_sys::Element) -> Mounted {
    // Effects run on wasm-bindgen-futures' executor (Err: already initialised, which is fine).
    let _ = any_spawner::Executor::init_wasm_bindgen();
    let owner = Owner::new();
    let root = owner.with(app);
    let _ = parent.append_child(&root);
    Mounted { owner, root }
}

/// The whole page: the state, the services that keep it (drafts, share links, the router, the
/// live link), and the elements.
fn app() -> web_sys::Element {
    let (text, profile) = persist::initial_text_and_profile(SAMPLE);
    let state = AppState::new(text, profile);
    provide_context(state);
    let log_state = exchange::provide(state);
    let log = log_state.log;
    link::provide(state, log_state);
    persist::sync(state);
    // The log is saved with the draft (its newest messages) and restored on reload.
    persist::register_log(persist::LogDraft { log });
    share::restore_from_fragment(state);
    let route = teach::provide_router();
    let analysis = state.analysis;

    let status = h("p").class("status").testid("validate-ms").el();
    dom::bind_attr(&status, "data-ms", move || {
        Some(analysis.with(|a| crate::json::fixed(a.elapsed_ms, 3)))
    });
    dom::bind_text(&status, move || {
        analysis.with(|a| {
            if a.pending {
                return "Checking in the background…".to_string();
            }
            let n = a.totals.documents;
            let docs = if n == 1 { "document" } else { "documents" };
            format!(
                "{n} {docs} checked in {} ms",
                crate::json::fixed(a.elapsed_ms, 1)
            )
        })
    });
    let playground = h("main")
        .class("playground")
        .child(
            h("section")
                .class("editor-pane")
                .attr("aria-label", "Editor")
                .child(
                    h("div")
                        .class("editor-tools")
                        .node(controls::format_button())
                        .node(controls::minify_button())
                        .node(exchange::send_button())
                        .node(link::target_select()),
                )
                .node(editor::editor()),
        )
        .child(
            h("section")
                .class("results")
                .attr("aria-label", "Results")
                .node(status)
                .node(verdicts::verdicts())
                .node(verdicts::verdicts_more()),
        )
        .child(
            h("section")
                .class("exchange-pane")
                .attr("aria-label", "Exchange with the server (mock or live link)")
                .node(link::link_panel())
                .node(exchange::log_pane()),
        )
        .el();
    dom::bind_flag(&playground, "hidden", move || {
        route.with(|r| r.view() != "playground")
    });

    h("div")
        .class("app")
        .child(
            h("header")
                .class("app-header")
                .child(h("h1").text("JSON-RPC playground"))
                .node(teach::nav())
                .child(
                    h("nav")
                        .class("toolbar")
                        .attr("aria-label", "Playground")
                        .node(controls::profile_select())
                        .node(examples::examples_menu())
                        .node(share::share_button())
                        .node(theme::theme_toggle()),
                ),
        )
        .node(notices::notices())
        .node(playground)
        .node(teach::teach_view())
        .el()
}

/// Milliseconds from the browser's monotonic clock.
pub(crate) fn now_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}
