//! The playground view: the editor and its tools, the verdicts, and the exchange with a server
//! (the in-browser mock or the live link), with the toolbar's playground-only controls.
//!
//! - [`editor`]: the text (a textarea, or a read-only viewer for a large text) with its marks;
//! - [`verdicts`]: the engine's verdict cards; [`controls`]: profile, layout, format/minify;
//! - [`examples`]: the library and the loaded example's description ([`library`]: the examples'
//!   texts, fetched on the first pick); [`send`]: Send to the
//!   chosen target; [`open_file`]: a file picked or dropped into the editor.

mod controls;
mod editor;
mod examples;
pub mod library;
pub(crate) mod open_file;
mod send;
mod verdicts;

use crate::web::kit::prelude::*;

use crate::web::page::exchange;
use crate::web::page::link;
use crate::web::page::share;
use crate::web::page::state::use_app;

/// The toolbar's controls that act on the editor (`data-testid="toolbar-playground"`): shown only
/// with the playground, since on the reference, the quiz and the lessons they would act on a
/// hidden page.
#[component]
pub fn Toolbar() -> impl IntoView {
    let hidden = off_playground();
    view! {
                    <div class="toolbar-playground" data-testid="toolbar-playground" hidden=hidden>
                        <controls::ProfileSelect />
                        <examples::ExamplesMenu />
                        <share::ShareButton />
                        <open_file::OpenFileButton />
                    </div>
    }
}

/// Whether another view than the playground shows (the playground then stays mounted, hidden,
/// so its text, log and mock session stay).
fn off_playground() -> impl Fn() -> bool + Copy + Send + Sync + 'static {
    let route = crate::web::page::router::use_route();
    move || route.with(|r| !r.is_playground())
}

/// The playground (`<main class="playground">`): the editor pane, the results and the exchange.
#[component]
pub fn Playground() -> impl IntoView {
    let hidden = off_playground();
    // A file dropped on the editor pane opens in the editor (a transcript, a stream, a message).
    let allow_drop = |e: leptos::ev::DragEvent| {
        if e.data_transfer()
            .is_some_and(|d| d.types().includes(&"Files".into(), 0))
        {
            e.prevent_default();
        }
    };
    let state = use_app();
    // The exchange pane's views (the API document panel, the live link, the log: below the
    // editor and the verdicts) are built once the first frame is painted: the page's start
    // (the wasm ready → the first verdict) does not wait for them. Nothing above them moves.
    let painted = RwSignal::new(false);
    crate::web::kit::js::after_next_paint(Box::new(move || {
        let _ = painted.try_set(true);
    }));
    let drop_file = move |e: leptos::ev::DragEvent| {
        if let Some(file) = crate::web::kit::files::dropped_file(&e) {
            e.prevent_default();
            open_file::open(state, file);
        }
    };
    view! {
            <main class="playground" tabindex="-1" node_ref=state.playground_main hidden=hidden>
                <section class="editor-pane" aria-label="Editor" on:dragover=allow_drop on:drop=drop_file on:keydown=send::send_on_shortcut()>
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
                    <crate::web::page::api::CheckLimit />
                    <crate::web::page::log_rows::LastReply />
                    <verdicts::Verdicts />
                    <verdicts::VerdictsMore />
                </section>
                <section class="exchange-pane" aria-label="Exchange with the server (mock or live link)">
                    {move || painted.get().then(|| view! {
                        <crate::web::page::api::DocumentPanel />
                        <link::LinkPanel>
                            <crate::web::page::probe_host::ProbeFold link=link::use_link() />
                        </link::LinkPanel>
                        <exchange::LogPane><crate::web::page::log_rows::Rows /></exchange::LogPane>
                    }.into_any())}
                </section>
            </main>
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
