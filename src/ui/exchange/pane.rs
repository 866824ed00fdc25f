//! The log pane: its counts and actions, the selection in words, the list of rows; and the latest
//! reply beside the verdicts.

use crate::ui::prelude::*;

use super::download::{download, file_stamp};
use super::row::LogRow;
use super::wording::{describe_at, is_reply, latency, status_text};
use super::{picture, use_log, SHOWN};
use crate::exchange::{At, Direction, Log, Status};
use crate::mock::Fixtures;
use crate::ui::state::{use_app, NoticeLevel};

/// The log of messages in both directions, with pairing, and the sequence picture (`data-testid="log"`).
#[component]
pub fn LogPane() -> impl IntoView {
    let app = use_app();
    let state = use_log();
    let log = state.log;
    // Read straight from the log (its counts are kept as it grows): memos of their own types
    // cost the page's wasm code for nothing a log read does not give at once (docs/size-rules.md,
    // 4: with the pending list's and the picture's, −3.5 KB gzipped).
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
                format!("The export failed: {}", crate::ui::js_error_text(&e)),
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
    // The rows: keyed by entry and revision, so an append builds one row.
    let rows = move || {
        log.with(|l| {
            l.tail(SHOWN)
                .iter()
                .map(|e| (e.key, e.rev))
                .collect::<Vec<_>>()
        })
    };

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
            <picture::SequencePicture log=state.log />
            <Selection />
            <p class="xl-window" data-testid="log-window" hidden=move || { len() <= SHOWN }>
                {move || format!("Showing the newest {SHOWN} of {} messages; the export has them all.", len())}
            </p>
            <ol class="xl-list" data-testid="log" aria-label="Messages, oldest first" node_ref=state.list>
                <For
                    each=rows
                    key=|k| (k.0 << 24) ^ u64::from(k.1)
                    children=|(key, _rev): (u64, u32)| view! { <LogRow entry=key /> }
                />
            </ol>
        </div>
    }
}

/// The latest message from the server, in words, beside the verdicts where the learner looks
/// after Send (`data-testid="last-reply"`, a polite live region: a screen reader hears it too);
/// "Show in the log" selects it there and scrolls it into view.
#[component]
pub fn LastReply() -> impl IntoView {
    let state = use_log();
    // The newest entry from the server, read from the log where it is needed (no memo type of
    // its own: see LogPane).
    let last_key = move |log: &Log| {
        log.entries()
            .iter()
            .rev()
            .find(|e| e.direction == Direction::In)
            .map(|e| e.key)
    };
    let show = move |_| {
        let Some(key) = state.log.with_untracked(last_key) else {
            return;
        };
        state.selected.set(Some(At { key, item: 0 }));
        // The list shows the newest SHOWN entries in order, one row each: the entry's place there
        // is its row's.
        let place = state
            .log
            .with_untracked(|l| l.tail(SHOWN).iter().position(|e| e.key == key));
        let row = state
            .list
            .get_untracked()
            .zip(place)
            .and_then(|(list, i)| list.children().item(i as u32));
        if let Some(row) = row {
            row.scroll_into_view_with_bool(false);
        }
    };
    view! {
        <div class="last-reply" data-testid="last-reply" hidden=move || state.log.with(|l| last_key(l).is_none())>
            <p aria-live="polite">
                <span class="label">"Latest reply: "</span>
                {move || state.log.with(|l| last_key(l).and_then(|key| l.get(key)).map(picture::sentence).unwrap_or_default())}
            </p>
            <button type="button" data-testid="last-reply-show" on:click=show>"Show in the log"</button>
        </div>
    }
}

/// What the selected message is and, when paired, its partner and the latency.
#[component]
fn Selection() -> impl IntoView {
    let state = use_log();
    // Read where it is needed (no memo type of its own: see LogPane).
    let described = move || -> Option<(String, Option<f64>)> {
        let at = state.selected.get()?;
        state.log.with(|log| {
            let entry = log.get(at.key)?;
            let msg = entry.msgs.get(at.item)?;
            let me = describe_at(entry, at.item);
            Some(match msg.status {
                Status::Paired { with, latency_ms } => {
                    let other = log
                        .get(with.key)
                        .map(|e| describe_at(e, with.item))
                        .unwrap_or_default();
                    let (req, res) = if is_reply(msg) {
                        (other, me)
                    } else {
                        (me, other)
                    };
                    (
                        format!("{res} answers {req} — latency {}", latency(latency_ms)),
                        Some(latency_ms),
                    )
                }
                status => (format!("{me}: {}", status_text(entry, msg, &status)), None),
            })
        })
    };
    view! {
        <p
            class="xl-selection"
            data-testid="log-selection"
            aria-live="polite"
            hidden=move || described().is_none()
            data-latency-ms=move || described().and_then(|(_, l)| l.map(|l| crate::json::fixed(l, 3)))
        >
            {move || described().map(|(t, _)| t).unwrap_or_default()}
        </p>
    }
}
