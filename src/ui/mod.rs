//! The web app (wasm32 only): an editor whose text the engine checks on every input, and the
//! verdicts. A thin face over [`crate::rpc`]: it renders what the engine says, decides nothing.

mod analysis;
mod editor;
mod verdicts;

use leptos::prelude::*;

pub use analysis::{Analysis, Finding, Keyed, Verdict};
use editor::Editor;
use verdicts::Verdicts;

/// What the editor holds when the page opens.
pub const SAMPLE: &str = r#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let text = RwSignal::new(SAMPLE.to_string());
    let analysis = Memo::new(move |prev: Option<&Analysis>| text.with(|t| Analysis::run(t, prev, now_ms)));
    let status = move || {
        analysis.with(|a| {
            let n = a.verdicts.len();
            let docs = if n == 1 { "document" } else { "documents" };
            format!("{n} {docs} checked in {:.1} ms", a.elapsed_ms)
        })
    };
    view! {
        <header class="app-header">
            <h1>"JSON-RPC playground"</h1>
        </header>
        <main class="playground">
            <Editor text />
            <div class="results">
                <p class="status" data-testid="validate-ms" data-ms=move || analysis.with(|a| format!("{:.3}", a.elapsed_ms))>
                    {status}
                </p>
                <Verdicts analysis />
            </div>
        </main>
    }
}

/// Milliseconds from the browser's monotonic clock.
fn now_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}
