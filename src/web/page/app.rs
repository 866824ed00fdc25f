//! The top of the page: the `App` component, its state and services provided, its views.

use crate::web::kit::prelude::*;

use crate::teach::route::Route;
use crate::web::page::notices::Notices;
use crate::web::page::playground::{Playground, Toolbar};
use crate::web::page::router::{Nav, TeachView};
use crate::web::page::state::AppState;
use crate::web::page::theme::ThemeToggle;
use crate::web::page::{api, exchange, link, log_rows, persist, router};

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
    let route = router::provide_router(state, api);
    // The page's title names the view; back on the playground from another view (a "Try it", a
    // lesson's "Open"), the focus goes to the editor.
    Effect::new(move |prev: Option<Route>| {
        let now = route.get();
        document().set_title(&router::title_of(&now));
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
            crate::web::kit::js::after_next_paint(Box::new(move || {
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
                <Nav />
                <nav class="toolbar" aria-label="Playground">
                    <Toolbar />
                    <ThemeToggle />
                </nav>
            </header>
            <Notices />
            <Playground />
            <TeachView />
        </div>
    }
}
