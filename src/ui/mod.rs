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
mod editor;
mod examples;
mod exchange;
pub(crate) mod js;
mod link;
mod notices;
mod open_file;
mod persist;
pub mod prelude;
mod send;
mod share;
mod state;
mod teach;
mod theme;
mod verdicts;
mod worker;

use crate::ui::prelude::*;
use wasm_bindgen::JsCast;

use crate::teach::route::Route;

pub use analysis::{Analysis, Finding, Keyed, Verdict};
pub use state::{use_app, AppState, Notice, NoticeLevel};

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
    let off_playground = move || route.with(|r| r.view() != "playground");
    // The page's title names the view; back on the playground from another view (a "Try it", a
    // lesson's "Open"), the focus goes to the editor.
    Effect::new(move |prev: Option<Route>| {
        let now = route.get();
        document().set_title(&teach::title_of(&now));
        if prev.is_some_and(|p| p != now) && now == Route::Playground {
            if let Some(editor) = state.editor.get_untracked() {
                let _ = editor.focus();
            }
        }
        now
    });
    // The skip link: to the view's <main>, past the header and its toolbar.
    let skip = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        let visible = document()
            .query_selector("main:not([hidden])")
            .ok()
            .flatten();
        if let Some(main) = visible.and_then(|m| m.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = main.focus();
        }
    };
    // A file dropped on the editor pane opens in the editor (a transcript, a stream, a message).
    let allow_drop = |e: leptos::ev::DragEvent| {
        if e.data_transfer()
            .is_some_and(|d| d.types().includes(&"Files".into(), 0))
        {
            e.prevent_default();
        }
    };
    let drop_file = move |e: leptos::ev::DragEvent| {
        if let Some(file) = open_file::dropped_file(&e) {
            e.prevent_default();
            open_file::open(state, file);
        }
    };
    view! {
        <div class="app">
            <a class="skip-link" href="#/" data-testid="skip-link" on:click=skip>"Skip to the content"</a>
            <header class="app-header">
                <h1>"JSON-RPC playground"</h1>
                <teach::Nav />
                <nav class="toolbar" aria-label="Playground">
                    // What acts on the editor shows only with the editor: on the reference, the
                    // quiz and the lessons it would act on a hidden page.
                    <div class="toolbar-playground" data-testid="toolbar-playground" hidden=off_playground>
                        <controls::ProfileSelect />
                        <examples::ExamplesMenu />
                        <share::ShareButton />
                        <open_file::OpenFileButton />
                    </div>
                    <theme::ThemeToggle />
                </nav>
            </header>
            <notices::Notices />
            <main class="playground" tabindex="-1" hidden=off_playground>
                <section class="editor-pane" aria-label="Editor" on:dragover=allow_drop on:drop=drop_file>
                    <div class="editor-tools">
                        <controls::LayoutButtons />
                        <send::SendButton />
                        <link::TargetSelect />
                    </div>
                    <examples::ExampleAbout />
                    <editor::Editor />
                </section>
                <section class="results" aria-label="Results">
                    <Status />
                    <exchange::LastReply />
                    <verdicts::Verdicts />
                    <verdicts::VerdictsMore />
                </section>
                <section class="exchange-pane" aria-label="Exchange with the server (mock or live link)">
                    <link::LinkPanel />
                    <exchange::LogPane />
                </section>
            </main>
            <teach::TeachView />
        </div>
    }
}

/// How many documents were checked and how long it took (`data-testid="validate-ms"`, with the
/// milliseconds in `data-ms`), or that a worker is checking a large text.
#[component]
fn Status() -> impl IntoView {
    let state = use_app();
    let analysis = state.analysis;
    let ms = move || analysis.with(|a| crate::json::fixed(a.elapsed_ms, 3));
    let said = move || {
        if state.opening_link.get() {
            return "Opening the shared link…".to_string();
        }
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
    };
    view! { <p class="status" data-testid="validate-ms" data-ms=ms>{said}</p> }
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
