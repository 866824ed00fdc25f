//! The log pane: its counts and actions, and below them its rows (the sequence picture, the
//! selection in words, the list: src/web/log_rows, drawn by the views' module), its `children`.

use crate::web::kit::prelude::*;

use crate::exchange::Log;
use crate::mock::Fixtures;
use crate::web::kit::download::{download, file_stamp};
use crate::web::kit::log_words::SHOWN;
use crate::web::page::exchange::use_log;
use crate::web::page::state::{use_app, NoticeLevel};

/// The log pane (`data-testid="log-pane"`): the log's counts, its actions (answer the server's
/// requests, the mock's tools, the downloads, Clear), what its list shows, then its rows
/// (`children`: the sequence picture, the selection and the list, `data-testid="log"`).
#[component]
pub fn LogPane(
    /// The rows' host (src/web/log_rows: the picture, the selection, the list).
    children: Children,
) -> impl IntoView {
    let app = use_app();
    let state = use_log();
    let log = state.log;
    // Read straight from the log (its counts are kept as it grows): memos of their own types
    // cost the page's wasm code for nothing a log read does not give at once (docs/size-rules.md,
    // 4).
    let empty = move || log.with(Log::is_empty);
    let export = move |ndjson: bool| {
        let (text, ext, mime) = log.with_untracked(|l| {
            if ndjson {
                (l.to_ndjson(), "ndjson", "application/x-ndjson")
            } else {
                (l.to_json_array(), "json", "application/json")
            }
        });
        let name = format!("jsonrpc-log-{}.{ext}", file_stamp());
        if let Err(e) = download(&name, mime, &text) {
            app.notify(
                NoticeLevel::Error,
                format!(
                    "The export failed: {}",
                    crate::web::kit::js::js_error_text(&e)
                ),
            );
        }
    };
    let counts = move || log.with(Log::counts);
    let counts_text = move || {
        let c = counts();
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        format!(
            "{} ({} sent, {} received) · {} · {} waiting · {}",
            plural(c.entries, "message", "messages"),
            c.out,
            c.r#in,
            plural(c.pairs, "pair", "pairs"),
            c.waiting,
            plural(c.errors, "error", "errors"),
        )
    };
    let len = move || log.with(Log::len);

    view! {
        <div class="xl" data-testid="log-pane">
            <div class="xl-head">
                <h2 class="xl-title">"Exchange with the server (mock or live link)"</h2>
                <p
                    class="xl-counts"
                    data-testid="log-counts"
                    aria-live="polite"
                    data-entries=move || counts().entries.to_string()
                    data-pairs=move || counts().pairs.to_string()
                    data-waiting=move || counts().waiting.to_string()
                >
                    {counts_text}
                </p>
                <div class="xl-actions" role="group" aria-label="Log actions">
                    <label class="xl-auto" title="When the mock server asks the client something (sampling, elicitation, roots, ping), answer it at once as a cooperative client would, and retry a request whose result asks for input (MCP 2026-07-28, at most 8 rounds per request); off, the request waits in the log with a Reply button, the round with an Answer button">
                        <input type="checkbox" data-testid="auto-answer" bind:checked=state.auto_answer />
                        " Answer the server's requests automatically"
                    </label>
                    // What a learner needs rarely: folded under its own heading.
                    <details class="advanced" data-testid="log-advanced">
                    <summary>"Advanced: the mock's tools, download the log"</summary>
                    <label class="xl-auto" title="Under MCP, the mock server in this page offers small tools, resources and prompts for learning, or those the official MCP test suite expects (as jrpc serve --fixtures conformance does); changing it starts a new session">
                        "The mock's tools: "
                        <select
                            data-testid="mock-fixtures"
                            on:change=move |ev| {
                                let fixtures = if event_target_value(&ev) == "conformance" {
                                    Fixtures::Conformance
                                } else {
                                    Fixtures::Friendly
                                };
                                state.serve_fixtures(fixtures);
                                app.notify(NoticeLevel::Info, match fixtures {
                                    Fixtures::Conformance => "The mock now offers the official MCP test suite's tools, resources and prompts (test_simple_text, test://static-text, …): a new session.",
                                    Fixtures::Friendly => "The mock now offers the tools, resources and prompts for learning (add, countdown, mock://readme, …): a new session.",
                                });
                            }
                        >
                            <option value="friendly" selected=move || state.fixtures.get() == Fixtures::Friendly>"for learning (add, countdown, …)"</option>
                            <option value="conformance" selected=move || state.fixtures.get() == Fixtures::Conformance>"the official MCP test suite's"</option>
                        </select>
                    </label>
                    <button type="button" data-testid="export-ndjson" disabled=empty on:click=move |_| export(true)>"Download the log (a message per line)"</button>
                    <button type="button" data-testid="export-json" disabled=empty on:click=move |_| export(false)>"Download the log (a JSON array)"</button>
                    </details>
                    <button type="button" data-testid="clear-log" disabled=empty on:click=move |_| state.clear()>"Clear"</button>
                </div>
            </div>
            <p class="xl-empty" hidden=move || !empty()>
                "Nothing exchanged yet. "<strong>"Send"</strong>
                " (or Ctrl+Enter in the editor) passes each client message to the in-browser mock server; both directions appear here."
            </p>
            <p class="xl-window" data-testid="log-window" hidden=move || { len() <= SHOWN }>
                {move || format!("Showing the newest {SHOWN} of {} messages; the export has them all.", len())}
            </p>
            {children()}
        </div>
    }
}
