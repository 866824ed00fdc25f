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
mod share;
mod state;
mod teach;
mod theme;
mod verdicts;

use leptos::prelude::*;

pub use analysis::{Analysis, Finding, Keyed, Verdict};
pub use state::{use_app, AppState, Notice, NoticeLevel};

/// What the editor holds when the page opens with no draft and no share link.
pub const SAMPLE: &str = r#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let (text, profile) = persist::initial_text_and_profile(SAMPLE);
    let state = AppState::new(text, profile);
    provide_context(state);
    let log_state = exchange::provide(state);
    let log = log_state.log;
    link::provide(state, log_state);
    persist::sync(state);
    // The log is saved with the draft (its newest 2000 messages) and restored on reload.
    persist::register_log(persist::LogDraft {
        json: Signal::derive(move || log.with(|l| l.to_json_string_last(2000))),
        restore: Callback::new(move |json: String| {
            crate::exchange::Log::from_json_str(&json).map(|l| log.set(l)).map_err(|e| e.to_string())
        }),
    });
    share::restore_from_fragment(state);
    let route = teach::provide_router();
    let analysis = state.analysis;
    let status = move || {
        analysis.with(|a| {
            let n = a.totals.documents;
            let docs = if n == 1 { "document" } else { "documents" };
            format!("{n} {docs} checked in {} ms", crate::json::fixed(a.elapsed_ms, 1))
        })
    };
    view! {
        <header class="app-header">
            <h1>"JSON-RPC playground"</h1>
            <teach::Nav />
            <nav class="toolbar" aria-label="Playground">
                <controls::ProfileSelect />
                <examples::ExamplesMenu />
                <share::ShareButton />
                <theme::ThemeToggle />
            </nav>
        </header>
        <notices::Notices />
        <main class="playground" hidden=move || route.with(|r| r.view() != "playground")>
            <section class="editor-pane" aria-label="Editor">
                <div class="editor-tools">
                    <controls::FormatButtons />
                    <exchange::SendButton />
                    <link::TargetSelect />
                </div>
                <editor::Editor />
            </section>
            <section class="results" aria-label="Results">
                <p class="status" data-testid="validate-ms" data-ms=move || analysis.with(|a| crate::json::fixed(a.elapsed_ms, 3))>
                    {status}
                </p>
                <verdicts::Verdicts />
            </section>
            <section class="exchange-pane" aria-label="Exchange with the server (mock or live link)">
                <link::LinkPanel />
                <exchange::LogPane />
            </section>
        </main>
        <teach::TeachView />
    }
}

/// Milliseconds from the browser's monotonic clock.
pub(crate) fn now_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}
