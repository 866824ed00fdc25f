//! The link panel's Probe: `jrpc probe`'s checks run from the page against the endpoint typed in
//! the panel (WebSocket or HTTP), over a connection of its own; the plan, the verdict and the
//! JSON report are the engine's ([`crate::probe`]), so the page and the CLI judge a server alike.
//! Shown as a summary card (passed, failed, skipped), a table with one row per check
//! (`data-check`, `data-status`, its spec link, the findings of a failing check with their rule's
//! reference), and "Download the report": the report `jrpc probe --format json` writes.
//!
//! The panel is rendered by the views' module (src/bin/later_views.rs), mounted into the link
//! panel's fold on its first open (src/web/page/probe_host.rs, the page's side); what it reads of
//! the page and asks of it crosses through [`ProbePage`]. The probe itself runs in a worker of
//! its own ([`worker`], the `probe-worker` binary): the panel starts it on the first Probe
//! ([`LazyWorker`]), fetching its files then, and the two talk in [`crate::wire::probe`]. A worker
//! that does not load is said in the panel; a running probe can be cancelled (the worker ends
//! its HTTP session).
//!
//! With an OpenRPC document loaded (the API panel) the Probe is `jrpc probe --openrpc DOC`: it
//! runs in the page's API worker ([`api_side`], which holds the document and the JSON Schema
//! engine; the panel asks the page to start it) over the same kind of connection, its outcome
//! shown alike. Without one, a plain JSON-RPC
//! server whose `rpc.discover` returns a document (asked by the Probe's worker after its checks)
//! is probed again there under that document (`--openrpc discover`), the report being that one.

mod page;

use std::rc::Rc;

use crate::web::kit::lazy_worker::LazyWorker;
use crate::web::kit::link_words::Transport;
use crate::web::kit::link_words::{check_url, parse_headers};
use crate::web::kit::notice::NoticeLevel;
use crate::web::kit::prelude::*;
use crate::wire::probe::{ApiProbe, CheckRow, Outcome, ProbeEvent, ProbeRequest};
pub(crate) use page::ProbePage;

/// The most tool calls, resource reads and prompt gets (each), as `jrpc probe --max-calls`.
const MAX_CALLS: usize = 50;

/// Where the Probe stands (`data-state` of `probe-status`).
#[derive(Clone, Debug, Default, PartialEq)]
enum ProbeState {
    #[default]
    Idle,
    Running(String),
    Done(Outcome),
    /// The probe could not start or never reached the server: why.
    Failed(String),
    Cancelled,
}

impl ProbeState {
    const fn as_str(&self) -> &'static str {
        match self {
            ProbeState::Idle => "idle",
            ProbeState::Running(_) => "running",
            ProbeState::Done(_) => "done",
            ProbeState::Failed(_) => "error",
            ProbeState::Cancelled => "cancelled",
        }
    }
}

/// The `<meta name="app-entry">` attributes naming the Probe's worker (Trunk.toml
/// `pattern_script`): its glue and its wasm (the loader is every worker's, `kit::lazy_worker`).
const FILES: [&str; 2] = ["data-lazy-probe-js", "data-lazy-probe-wasm"];

fn to_json(request: &ProbeRequest) -> String {
    // Serialising these plain structs cannot fail.
    serde_json::to_string(request).unwrap_or_default()
}

/// What the panel's Probe options set (as `jrpc probe --skip-tool`, `--skip-method` and
/// `--max-calls`).
struct Options {
    skip_tools: Vec<String>,
    skip_methods: Vec<String>,
    max_calls: usize,
}

/// Names separated by commas or spaces.
fn names(text: &str) -> Vec<String> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|name| !name.is_empty())
        .map(str::to_string)
        .collect()
}

impl Options {
    /// Reads the fields: tool and method names separated by commas or spaces, and a count from 1
    /// to 1000.
    fn read(skip_tools: &str, skip_methods: &str, max_calls: &str) -> Result<Options, String> {
        let max_calls = match max_calls.trim().parse::<usize>() {
            Ok(n) if (1..=1000).contains(&n) => n,
            _ => {
                return Err(format!(
                    "Max calls must be a whole number from 1 to 1000, not “{}”.",
                    max_calls.trim()
                ))
            }
        };
        Ok(Options {
            skip_tools: names(skip_tools),
            skip_methods: names(skip_methods),
            max_calls,
        })
    }
}

/// The Probe of the link panel (`data-testid="probe"`), in the views' module: `page` is what it
/// has of the page (src/web/page/probe_host.rs is the page's side).
#[component]
pub fn ProbePanel(page: ProbePage) -> impl IntoView {
    let state = RwSignal::new(ProbeState::Idle);
    let skip_tools = RwSignal::new(String::new());
    let skip_methods = RwSignal::new(String::new());
    let max_calls = RwSignal::new(MAX_CALLS.to_string());
    // The number of the probe the panel waits for.
    let run = StoredValue::new(0u32);
    // A worker that failed is ended: the next Probe starts a new one.
    let worker_failed = move |why: String| {
        let _ = state.try_update(|s| {
            if matches!(s, ProbeState::Running(_)) {
                *s = ProbeState::Failed(format!("The Probe could not run: {why}."));
            }
        });
    };
    // The probe under an OpenRPC document runs in the API's worker (it holds the JSON Schema
    // engine): its events come to a listener of this run.
    let probe_api = move |probe: ApiProbe, under_document: bool| {
        let listener = move |event: ProbeEvent| match event {
            ProbeEvent::Done { run: r, outcome } if r == run.get_value() => {
                state.try_set(ProbeState::Done(outcome));
            }
            ProbeEvent::Failed { run: r, reason } if r == run.get_value() => {
                state.try_set(ProbeState::Failed(reason));
            }
            ProbeEvent::Unavailable { reason } => {
                let _ = state.try_update(|s| {
                    if matches!(s, ProbeState::Running(_)) {
                        *s = ProbeState::Failed(format!(
                            "The Probe under the API document could not run: {reason}."
                        ));
                    }
                });
            }
            ProbeEvent::Done { .. } | ProbeEvent::Failed { .. } => {}
        };
        page.probe_api(probe, under_document, Rc::new(listener));
    };
    // The API probe to run when the Probe's worker finds that the server describes itself.
    let pending = StoredValue::new(None::<ApiProbe>);
    let on_event = move |event: ProbeEvent| match event {
        ProbeEvent::Done { run: r, outcome } if r == run.get_value() => {
            // A plain JSON-RPC server that describes itself: its API is probed under the
            // document its rpc.discover returns (as `jrpc probe --openrpc discover`).
            let api_loaded = page.context.with_untracked(|c| c.api_loaded);
            match pending.try_update_value(Option::take).flatten() {
                Some(probe) if outcome.discovered && !api_loaded => {
                    state.try_set(ProbeState::Running(format!(
                        "{} (it answers rpc.discover: its API, under the document it returns)",
                        probe.url
                    )));
                    probe_api(probe, false);
                }
                _ => {
                    state.try_set(ProbeState::Done(outcome));
                }
            }
        }
        ProbeEvent::Failed { run: r, reason } if r == run.get_value() => {
            state.try_set(ProbeState::Failed(reason));
        }
        // The answer to a probe cancelled or replaced since.
        ProbeEvent::Unavailable { .. } | ProbeEvent::Done { .. } | ProbeEvent::Failed { .. } => {}
    };
    // The worker, started by the first Probe: everything it says is a probe's end.
    let events = move |body: &serde_json::value::RawValue| {
        let event = serde_json::from_str::<ProbeEvent>(body.get()).map_err(|e| e.to_string())?;
        on_event(event);
        Ok(())
    };
    let worker = StoredValue::new_local(LazyWorker::new(FILES, Some(Rc::new(events))));
    let send = move |request: &ProbeRequest| {
        worker.update_value(|w| w.tell(&to_json(request), Box::new(worker_failed)));
    };
    // Stops whatever probe runs, in either worker.
    let stop = move || {
        if worker.with_value(LazyWorker::started) {
            send(&ProbeRequest::Cancel);
        }
        page.cancel_api_probe();
        pending.set_value(None);
    };
    let start = move |_| {
        let (url, protocol, headers, api_loaded) = page.context.with_untracked(|c| {
            (
                c.url.trim().to_string(),
                c.protocol.trim().to_string(),
                c.headers.clone(),
                c.api_loaded,
            )
        });
        let checked = check_url(&url).and_then(|t| parse_headers(&headers).map(|h| (t, h)));
        let checked = checked.and_then(|(t, h)| {
            let options = Options::read(
                &skip_tools.get_untracked(),
                &skip_methods.get_untracked(),
                &max_calls.get_untracked(),
            )?;
            Ok((t, h, options))
        });
        let (transport, headers, options) = match checked {
            Ok(checked) => checked,
            Err(reason) => {
                // A probe still running is stopped: the panel shows why this one cannot start.
                stop();
                return state.set(ProbeState::Failed(reason));
            }
        };
        stop();
        run.update_value(|r| *r = r.wrapping_add(1));
        let api_probe = ApiProbe {
            run: run.get_value(),
            url: url.clone(),
            websocket: transport == Transport::Ws,
            protocol: protocol.clone(),
            headers: headers.clone(),
            skip_methods: options.skip_methods,
            max_calls: options.max_calls,
        };
        // With a document loaded: its API's checks, as `jrpc probe --openrpc DOC`.
        if api_loaded {
            state.set(ProbeState::Running(format!("{url} under the API document")));
            return probe_api(api_probe, true);
        }
        pending.set_value(Some(api_probe));
        state.set(ProbeState::Running(url.clone()));
        send(&ProbeRequest::Run {
            run: run.get_value(),
            url,
            websocket: transport == Transport::Ws,
            protocol,
            headers,
            skip_tools: options.skip_tools,
            max_calls: options.max_calls,
        });
    };
    let cancel = move |_| {
        stop();
        state.set(ProbeState::Cancelled);
    };
    on_cleanup(move || {
        page.cancel_api_probe();
        // The worker ends itself once a running probe has ended its session (or, not ready
        // yet, once it is).
        let _ = worker.try_update_value(|w| {
            if w.started() {
                w.tell(&to_json(&ProbeRequest::Close), Box::new(|_| {}));
            }
        });
    });
    let is_running = move || state.with(|s| matches!(s, ProbeState::Running(_)));
    let status = move || {
        state.with(|s| match s {
            ProbeState::Idle => String::new(),
            ProbeState::Running(url) => format!("probing {url}… (each request waits up to 5 s)"),
            ProbeState::Done(o) => format!("probe of {}: {}", o.target, o.profile),
            ProbeState::Failed(why) => why.clone(),
            ProbeState::Cancelled => "probe cancelled".into(),
        })
    };
    // The finished probe's outcome (read where it is shown, without a memo of its own: the state
    // changes only when a probe starts or ends).
    let done = move || {
        state.with(|s| match s {
            ProbeState::Done(o) => Some(o.clone()),
            _ => None,
        })
    };
    let export = move |_| {
        let report = state.with_untracked(|s| match s {
            ProbeState::Done(o) => Some(o.report.clone()),
            _ => None,
        });
        let Some(report) = report else {
            return;
        };
        let name = format!(
            "jrpc-probe-{}.json",
            crate::web::kit::download::file_stamp()
        );
        if let Err(e) = crate::web::kit::download::download(&name, "application/json", &report) {
            page.notify(
                NoticeLevel::Error,
                format!(
                    "The export failed: {}",
                    crate::web::kit::js::js_error_text(&e)
                ),
            );
        }
    };
    view! {
        <div class="probe" data-testid="probe">
            <div class="probe-bar">
                <button type="button" data-testid="probe-run" disabled=is_running on:click=start>
                    "Probe"
                </button>
                <Show when=is_running>
                    <button type="button" data-testid="probe-cancel" on:click=cancel>
                        "Cancel"
                    </button>
                </Show>
                <span class="probe-hint">
                    "Checks the server at the endpoint above, over a connection of its own: it asks what the server offers and tries each part, calling every tool it lists except those you name under Probe options. With an API document loaded (the API panel), or when the server answers rpc.discover with one, it also calls each of the document's methods with its examples' params and checks each answer against the document. (The command line's jrpc probe, with --openrpc, does the same.)"
                </span>
            </div>
            <details class="probe-options">
                <summary>"Probe options"</summary>
                <label>
                    "Never call these tools (their names, separated by commas): "
                    <input
                        type="text"
                        data-testid="probe-skip-tools"
                        spellcheck="false"
                        placeholder="delete_file, send_email"
                        bind:value=skip_tools
                    />
                </label>
                <label>
                    "Never call these methods of the API document (their names, separated by commas): "
                    <input
                        type="text"
                        data-testid="probe-skip-methods"
                        spellcheck="false"
                        placeholder="delete_account, transfer"
                        bind:value=skip_methods
                    />
                </label>
                <label>
                    "Call at most this many tools (or the API document's methods), and read at most this many resources and prompts: "
                    <input type="number" data-testid="probe-max-calls" min="1" max="1000" bind:value=max_calls />
                </label>
            </details>
            <p
                class="probe-status"
                data-testid="probe-status"
                role="status"
                data-state=move || state.with(ProbeState::as_str)
                hidden=move || state.with(|s| matches!(s, ProbeState::Idle))
            >
                {status}
            </p>
            {move || done().map(|outcome| probe_result(outcome, export))}
        </div>
    }
}

/// The summary card, the table of checks and the export of a finished probe. Built once per
/// result, without reactive parts of its own: a finished probe does not change (a new one
/// replaces the whole of it), which keeps the page's code small.
fn probe_result(
    outcome: Outcome,
    export: impl Fn(leptos::ev::MouseEvent) + 'static,
) -> impl IntoView {
    let failed = outcome.failed > 0 || outcome.stopped.is_some();
    let (class, badge) = if failed {
        ("verdict probe-summary has-errors", "Probe failed")
    } else {
        ("verdict probe-summary clean", "Probe passed")
    };
    let summary = format!(
        "{} passed, {} failed, {} skipped (not declared or nothing to do)",
        outcome.passed, outcome.failed, outcome.skipped
    );
    let stopped = outcome
        .stopped
        .map(|why| view! { <p class="about probe-stopped">{format!("stopped early: {why}")}</p> });
    let rows = outcome.rows.into_iter().map(check_line).collect_view();
    view! {
        <article
            class=class
            data-testid="probe-summary"
            data-passed=outcome.passed.to_string()
            data-failed=outcome.failed.to_string()
            data-skipped=outcome.skipped.to_string()
        >
            <header class="summary">
                <span class="kind badge">{badge}</span>
                <span class="method">{outcome.profile}</span>
            </header>
            <p class="about">{summary}</p>
            {stopped}
            <button type="button" data-testid="probe-export" on:click=export>
                "Download the report (JSON)"
            </button>
        </article>
        <table class="probe-table" data-testid="probe-table">
            <thead>
                <tr>
                    <th scope="col">"Result"</th>
                    <th scope="col">"Check"</th>
                    <th scope="col">"Why / what it saw"</th>
                    <th scope="col">"Spec"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

/// One row of the table.
fn check_line(row: CheckRow) -> impl IntoView {
    let status = row.status;
    let findings = (!row.findings.is_empty()).then(|| {
        let items = row
            .findings
            .into_iter()
            .map(|f| {
                let reference = if f.in_reference {
                    crate::teach::route::Route::Reference(Some(f.rule.clone())).fragment()
                } else {
                    f.spec
                };
                let label = format!("{} in the reference", f.rule);
                let class = format!("violation {}", f.severity);
                let rule = f.rule.clone();
                let at = f.pointer.clone();
                let pointer = (!f.pointer.is_empty())
                    .then(|| view! { " " <code class="path">{f.pointer}</code> });
                view! {
                    <li class=class data-testid="probe-finding" data-rule=rule data-pointer=at>
                        <span class="severity">{f.severity}</span>
                        " "
                        <code class="rule">{f.rule}</code>
                        {pointer}
                        " "
                        <span class="message">{f.message}</span>
                        " "
                        <a class="ref" data-testid="probe-finding-ref" href=reference aria-label=label>
                            "?"
                        </a>
                    </li>
                }
            })
            .collect_view();
        view! { <ul class="violations">{items}</ul> }
    });
    let id = row.id;
    let check = id.clone();
    let class = format!("probe-row {status}");
    let data_status = status.clone();
    view! {
        <tr class=class data-check=check data-status=data_status>
            <td class="probe-result">{status}</td>
            <td>
                <code class="rule">{id}</code>
                <div class="probe-title">{row.title}</div>
            </td>
            <td class="probe-detail">{row.detail} {findings}</td>
            <td>
                <a class="spec" href=row.spec target="_blank" rel="noopener noreferrer">"spec"</a>
            </td>
        </tr>
    }
}
