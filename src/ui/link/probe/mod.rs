//! The link panel's Probe: `jrpc probe`'s checks run from the page against the endpoint typed in
//! the panel (WebSocket or HTTP), over a connection of its own ([`browser`]); the plan, the
//! verdict and the JSON report are the engine's ([`crate::probe`]), so the page and the CLI judge
//! a server alike. Shown as a summary card (passed, failed, skipped), a table with one row per
//! check (`data-check`, `data-status`, its spec link, the findings of a failing check with their
//! rule's reference), and "Export JSON": the report `jrpc probe --format json` writes.
//!
//! Each request waits 5 s for its reply and the whole probe at most 2 minutes (the CLI's
//! defaults); a running probe can be cancelled: it stops where it is and ends its HTTP session
//! (`DELETE`) as a finished probe does; a WebSocket closes.

mod browser;

use std::time::Duration;

use futures_channel::oneshot;
use futures_util::future::{select, Either};

use super::wording::{check_url, parse_headers};
use super::Link;
use crate::probe::{self, Conversation, Mode, Plan, Status, Verdict};
use crate::ui::prelude::*;
use crate::ui::state::{use_app, NoticeLevel};
use browser::BrowserLink;

/// How long one request waits for its reply (as `jrpc probe --timeout`'s default).
const TIMEOUT: Duration = Duration::from_secs(5);
/// How long the whole probe may take (as `jrpc probe --total-timeout`'s default).
const TOTAL_TIMEOUT: Duration = Duration::from_secs(120);
/// The most tool calls, resource reads and prompt gets (each), as `jrpc probe --max-calls`.
const MAX_CALLS: usize = 50;

/// A finding about a check's messages.
#[derive(Clone, Debug, PartialEq)]
struct FindingRow {
    rule: &'static str,
    severity: &'static str,
    message: String,
    /// The rule is in the page's reference (the engine's catalogue; the probe's own rules are not).
    in_reference: bool,
    /// The specification section of the rule.
    spec: &'static str,
}

/// One check as the table shows it.
#[derive(Clone, Debug, PartialEq)]
struct CheckRow {
    id: String,
    title: String,
    spec: &'static str,
    status: Status,
    detail: String,
    findings: Vec<FindingRow>,
}

/// A finished probe.
#[derive(Clone, Debug, PartialEq)]
struct Outcome {
    target: String,
    profile: String,
    rows: Vec<CheckRow>,
    passed: usize,
    failed: usize,
    skipped: usize,
    stopped: Option<String>,
    /// The JSON report (`jrpc probe --format json`), for Export JSON.
    report: String,
}

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

/// The table's view of a verdict, and its JSON report.
fn outcome(verdict: &Verdict, target: &str) -> Outcome {
    let mut report = Vec::new();
    // Writing to memory fails only if serde_json does; the export then says so.
    let report = match probe::write_report_json(&mut report, verdict, target, None) {
        Ok(()) => String::from_utf8_lossy(&report).into_owned(),
        Err(e) => format!("{{\"error\": {:?}}}", e.to_string()),
    };
    let rows = verdict
        .checks
        .iter()
        .map(|check| CheckRow {
            id: check.id.clone(),
            title: check.title.clone(),
            spec: check.spec,
            status: check.status,
            detail: check.detail.clone(),
            findings: if check.status == Status::Fail {
                verdict
                    .findings(check)
                    .map(|v| FindingRow {
                        rule: v.rule.id,
                        severity: v.severity.as_str(),
                        message: v.message.to_string(),
                        in_reference: crate::rpc::catalogue::find(v.rule.id).is_some(),
                        spec: v.rule.section.url,
                    })
                    .collect()
            } else {
                Vec::new()
            },
        })
        .collect();
    Outcome {
        target: target.to_string(),
        profile: verdict.report.profile.to_string(),
        rows,
        passed: verdict.count(Status::Pass),
        failed: verdict.count(Status::Fail),
        skipped: verdict.count(Status::Skipped),
        stopped: verdict.stopped.clone(),
        report,
    }
}

/// Probes `url` over a connection of its own: the finished state, or `None` once `cancelled`
/// resolves (a message, or its sender dropped with the panel) — the session is ended all the same.
async fn probe_endpoint(
    url: String,
    transport: super::Transport,
    protocol: String,
    headers: Vec<(String, String)>,
    options: Options,
    mut cancelled: oneshot::Receiver<()>,
) -> Option<ProbeState> {
    let open = BrowserLink::open(&url, transport, &protocol, headers, TIMEOUT);
    let link = match select(std::pin::pin!(open), &mut cancelled).await {
        Either::Left((Ok(link), _)) => link,
        Either::Left((Err(e), _)) => {
            return Some(ProbeState::Failed(format!(
                "{url} could not be probed: {e}"
            )))
        }
        Either::Right(_) => return None,
    };
    let mut conversation = Conversation::new(link, TIMEOUT, TOTAL_TIMEOUT);
    let plan = Plan {
        mode: Mode::Detect,
        calls: Vec::new(),
        max_calls: options.max_calls,
        skip_tools: options.skip_tools,
    };
    let run = {
        let run = probe::run(&mut conversation, &plan);
        match select(std::pin::pin!(run), &mut cancelled).await {
            Either::Left((run, _)) => Some(run),
            Either::Right(_) => None,
        }
    };
    let Some(run) = run else {
        conversation.into_parts().0.close().await;
        return None;
    };
    let (link, verdict) = probe::conclude(conversation, run);
    link.close().await;
    Some(match verdict {
        Ok(verdict) => ProbeState::Done(outcome(&verdict, &url)),
        Err(not_reached) => ProbeState::Failed(format!(
            "{url} could not be probed: {}",
            not_reached.reason("the probe's timeout")
        )),
    })
}

/// What the panel's Probe options set (as `jrpc probe --skip-tool` and `--max-calls`).
struct Options {
    skip_tools: Vec<String>,
    max_calls: usize,
}

impl Options {
    /// Reads the fields: tool names separated by commas or spaces, and a count from 1 to 1000.
    fn read(skip_tools: &str, max_calls: &str) -> Result<Options, String> {
        let max_calls = match max_calls.trim().parse::<usize>() {
            Ok(n) if (1..=1000).contains(&n) => n,
            _ => {
                return Err(format!(
                    "Max calls must be a whole number from 1 to 1000, not “{}”.",
                    max_calls.trim()
                ))
            }
        };
        let skip_tools = skip_tools
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|name| !name.is_empty())
            .map(str::to_string)
            .collect();
        Ok(Options {
            skip_tools,
            max_calls,
        })
    }
}

/// The Probe of the link panel (`data-testid="probe"`).
#[component]
pub fn ProbePanel(link: Link) -> impl IntoView {
    let app = use_app();
    let state = RwSignal::new(ProbeState::Idle);
    let skip_tools = RwSignal::new(String::new());
    let max_calls = RwSignal::new(MAX_CALLS.to_string());
    // The running probe's cancel switch (sending, or dropping it, cancels).
    let running = RwSignal::new(None::<oneshot::Sender<()>>);
    let stop_running = move || {
        if let Some(cancel) = running.try_update(Option::take).flatten() {
            let _ = cancel.send(());
        }
    };
    let start = move |_| {
        stop_running();
        let (url, protocol, headers) = link.conn.with_value(|c| {
            (
                c.draft.url.trim().to_string(),
                c.draft.protocol.trim().to_string(),
                c.draft.headers.clone(),
            )
        });
        let checked = check_url(&url).and_then(|t| parse_headers(&headers).map(|h| (t, h)));
        let checked = checked.and_then(|(t, h)| {
            let options = Options::read(&skip_tools.get_untracked(), &max_calls.get_untracked())?;
            Ok((t, h, options))
        });
        let (transport, headers, options) = match checked {
            Ok(checked) => checked,
            Err(reason) => return state.set(ProbeState::Failed(reason)),
        };
        let (cancel, cancelled) = oneshot::channel();
        running.set(Some(cancel));
        state.set(ProbeState::Running(url.clone()));
        spawn_local(async move {
            // A cancelled probe says nothing more: Cancel (or a newer probe) has set the state.
            if let Some(finished) =
                probe_endpoint(url, transport, protocol, headers, options, cancelled).await
            {
                running.try_set(None);
                state.try_set(finished);
            }
        });
    };
    let cancel = move |_| {
        stop_running();
        state.set(ProbeState::Cancelled);
    };
    on_cleanup(stop_running);
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
    let done = Memo::new(move |_| {
        state.with(|s| match s {
            ProbeState::Done(o) => Some(o.clone()),
            _ => None,
        })
    });
    let export = move |_| {
        let Some(report) = done.with_untracked(|o| o.as_ref().map(|o| o.report.clone())) else {
            return;
        };
        let name = format!("jrpc-probe-{}.json", crate::ui::exchange::file_stamp());
        if let Err(e) = crate::ui::exchange::download(&name, "application/json", &report) {
            app.notify(
                NoticeLevel::Error,
                format!("The export failed: {}", crate::ui::js_error_text(&e)),
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
                    "Checks the server at the endpoint above, over a connection of its own: it asks what the server offers and tries each part, calling every tool it lists except those you name under Probe options. (The command line's jrpc probe does the same.)"
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
                    "Call at most this many tools, and read at most this many resources and prompts: "
                    <input type="number" data-testid="probe-max-calls" min="1" max="1000" bind:value=max_calls />
                </label>
            </details>
            <p
                class="probe-status"
                data-testid="probe-status"
                role="status"
                data-state=move || state.with(ProbeState::as_str)
                hidden=move || state.with(|s| *s == ProbeState::Idle)
            >
                {status}
            </p>
            {move || done.get().map(|outcome| probe_result(outcome, export))}
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
    let status = row.status.as_str();
    let findings = (!row.findings.is_empty()).then(|| {
        let items = row
            .findings
            .into_iter()
            .map(|f| {
                let reference = if f.in_reference {
                    format!("#/reference/{}", f.rule)
                } else {
                    f.spec.to_string()
                };
                view! {
                    <li class=format!("violation {}", f.severity) data-testid="probe-finding" data-rule=f.rule>
                        <span class="severity">{f.severity}</span>
                        " "
                        <code class="rule">{f.rule}</code>
                        " "
                        <span class="message">{f.message}</span>
                        " "
                        <a class="ref" data-testid="probe-finding-ref" href=reference aria-label=format!("{} in the reference", f.rule)>
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
    view! {
        <tr class=format!("probe-row {status}") data-check=check data-status=status>
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
