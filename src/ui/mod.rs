//! The web app (wasm32 only): the editor checked by the engine on every edit, the verdicts, the
//! in-browser mock server with its log, examples, share links and drafts. A thin face over the
//! engine: it renders what the engine says and decides nothing.
//!
//! Layout of this folder (one owner per file; shared state in `state`):
//! - a folder per view: `playground` (editor, verdicts, controls, examples, Send, Open file),
//!   `reference`, `quiz`, `lessons`, chosen by the URL fragment in `views`;
//! - shared by the views: `exchange` (the mock's log and the sequence picture), `link` (the
//!   live link), `analysis` (the engine's verdict on the text), `worker` (large texts);
//! - services: `persist`, `share`, `theme`, `notices`: drafts, share links, light/dark,
//!   messages to the user; `storage` the browser's storage, for all of them; `js` the JavaScript
//!   interop no crate gives.

mod analysis;
mod api;
pub mod bench;
mod exchange;
mod fetch;
pub(crate) mod js;
/// The main of the views loaded later (the `later-views` binary): the teaching views, the Probe.
pub mod later_views;
mod lazy_worker;
mod lessons;
pub(crate) mod link;
mod log_rows;
mod notices;
mod persist;
pub(crate) mod playground;
pub mod prelude;
mod quiz;
mod reference;
mod share;
mod state;
mod storage;
mod teach_page;
pub mod teaching;
mod theme;
mod views;
mod views_bridge;
mod worker;
pub(crate) mod worker_port;

use crate::ui::prelude::*;

use crate::teach::route::Route;

pub use analysis::{Analysis, Finding, Keyed, Verdict};
/// The mock server's worker's main (the `mock-worker` binary).
pub use exchange::start_mock_worker;
/// The live link's worker's main (the `link-worker` binary).
pub use link::start_link_worker;
/// The Probe's worker's main (the `probe-worker` binary).
pub use link::start_probe_worker;
/// The examples' texts, which the page fetches on the first pick (tests install them directly).
pub use playground::library::install as install_examples;
pub use state::{use_app, AppState, Notice, NoticeLevel};
pub use worker::worker_check;

/// What the editor holds when the page opens with no draft and no share link.
pub const SAMPLE: &str = r#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#;

/// The page mounted into a parent element by Leptos. Dropping it disposes every signal and
/// effect and removes the page.
pub struct Mounted {
    _handle: Box<dyn std::any::Any>,
}

/// Mounts [`App`] into `parent` (the app's `main` puts it into `<body>`).
pub fn mount(parent: &web_sys::HtmlElement) -> Mounted {
    let handle = leptos::mount::mount_to(parent.clone(), App);
    Mounted {
        _handle: Box::new(handle),
    }
}

/// The whole page: the state, the services that keep it (drafts, share links, the router, the
/// live link), and the views.
#[component]
pub fn App() -> impl IntoView {
    let (text, profile, boot) = persist::initial_text_and_profile(SAMPLE);
    let state = AppState::new(text, profile);
    provide_context(state);
    let api = api::provide(state);
    let log_state = exchange::provide(state);
    let rows_host = log_rows::provide();
    let log = log_state.log;
    link::provide(state, log_state);
    persist::sync(state, boot);
    // The log is saved with the draft (its newest messages) and restored on reload.
    persist::register_log(persist::LogDraft { log });
    let route = views::provide_router(state, api);
    // The page's title names the view; back on the playground from another view (a "Try it", a
    // lesson's "Open"), the focus goes to the editor.
    Effect::new(move |prev: Option<Route>| {
        let now = route.get();
        document().set_title(&views::title_of(&now));
        if prev.is_some_and(|p| p != now) && matches!(now, Route::Playground) {
            if let Some(editor) = state.editor.get_untracked() {
                let _ = editor.focus();
            }
        }
        // `#/log` (a lesson's "Open the playground's log"): the log itself, in view and focused.
        // After the next paint: on a page opened at `#/log`, the log is built then (the
        // playground's exchange pane, after the first paint; its timer was queued first).
        if matches!(now, Route::Log) {
            let rows = rows_host.0.element;
            js::after_next_paint(Box::new(move || {
                if let Some(log) = rows.get_untracked() {
                    log.scroll_into_view();
                    let _ = log.set_attribute("tabindex", "-1");
                    let _ = log.focus();
                }
            }));
        }
        now
    });
    // The skip link: to the view's <main>, past the header and its toolbar.
    let skip = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        let main = if route.with_untracked(Route::is_playground) {
            state.playground_main
        } else {
            state.teach_main
        };
        if let Some(main) = main.get_untracked() {
            let _ = main.focus();
        }
    };
    view! {
        <div class="app">
            <a class="skip-link" href=Route::Playground.fragment() data-testid="skip-link" on:click=skip>"Skip to the content"</a>
            <header class="app-header">
                <h1>"JSON-RPC playground"</h1>
                <views::Nav />
                <nav class="toolbar" aria-label="Playground">
                    <playground::Toolbar />
                    <theme::ThemeToggle />
                </nav>
            </header>
            <notices::Notices />
            <playground::Playground />
            <views::TeachView />
        </div>
    }
}

/// A JavaScript exception or rejection in words (`TypeError: Failed to fetch`, a thrown string),
/// the one way the UI turns a `JsValue` error into text.
pub(crate) fn js_error_text(e: &wasm_bindgen::JsValue) -> String {
    use wasm_bindgen::JsCast;
    if let Some(e) = e.dyn_ref::<web_sys::DomException>() {
        return format!("{}: {}", e.name(), e.message());
    }
    if let Some(e) = e.dyn_ref::<web_sys::js_sys::Error>() {
        return format!("{}: {}", String::from(e.name()), String::from(e.message()));
    }
    e.as_string().unwrap_or_else(|| "unknown error".into())
}

/// Milliseconds from the browser's monotonic clock.
pub(crate) fn now_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}
