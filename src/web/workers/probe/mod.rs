//! The Probe's worker (the `probe-worker` binary, src/bin/probe_worker.rs, which Trunk builds
//! into a wasm of its own that the page fetches on the first Probe): it runs the engine's probe
//! ([`crate::probe`]) over the probe's own connection ([`BrowserLink`]) and sends the page the
//! finished report ([`ProbeEvent`]). Nothing here touches the page's DOM or Leptos: this code and
//! the engine's probe are what the worker's wasm holds, and the page's wasm no longer does.
//!
//! Each request waits 5 s for its reply and the whole probe at most 2 minutes (the CLI's
//! defaults); a running probe can be cancelled: it stops where it is and ends its HTTP session
//! (`DELETE`) as a finished probe does; a WebSocket closes.

pub mod api_side;
mod browser;

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use futures_channel::oneshot;
use futures_util::future::{select, Either};
use wasm_bindgen::JsCast;
use web_sys::js_sys;

use crate::probe::{self, Conversation, Mode, Plan, ProbeLink, Run, Status, Verdict};
use crate::rpc::catalogue::Rule;
use crate::rpc::Severity;
use crate::web::kit::link_words::Transport;
use crate::web::workers::port;
use crate::web::workers::probe::browser::BrowserLink;
use crate::wire::probe::{CheckRow, FindingRow, Outcome, ProbeEvent, ProbeRequest};

/// How long one request waits for its reply (as `jrpc probe --timeout`'s default).
const TIMEOUT: Duration = Duration::from_secs(5);
/// How long the whole probe may take (as `jrpc probe --total-timeout`'s default).
const TOTAL_TIMEOUT: Duration = Duration::from_secs(120);

/// What the worker holds between messages.
#[derive(Default)]
struct Worker {
    /// The running probe: its number and its cancel switch (sending, or dropping it, cancels).
    running: Option<(u32, oneshot::Sender<()>)>,
    /// Probes not yet finished (a cancelled one still ends its session).
    live: usize,
    /// The page asked the worker to end once nothing runs.
    closing: bool,
}

fn scope() -> web_sys::DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

pub(super) fn post(event: &ProbeEvent) {
    port::event(event);
}

/// The worker's main: reads the Probe's requests from now on.
pub fn start() {
    let worker = Rc::new(RefCell::new(Worker::default()));
    port::serve(move |request| {
        match serde_json::from_str::<ProbeRequest>(request.body) {
            Ok(request) => handle(&worker, request),
            // The Probe and the worker come from one build: a request it cannot read is a bug
            // the console should show.
            Err(e) => web_sys::console::error_1(&format!("probe worker: {e}").into()),
        }
    });
}

fn handle(worker: &Rc<RefCell<Worker>>, request: ProbeRequest) {
    let mut state = worker.borrow_mut();
    if let Some((_, cancel)) = state.running.take() {
        let _ = cancel.send(());
    }
    match request {
        ProbeRequest::Cancel => {}
        ProbeRequest::Close => {
            state.closing = true;
            if state.live == 0 {
                scope().close();
            }
        }
        ProbeRequest::Run {
            run,
            url,
            websocket,
            protocol,
            headers,
            skip_tools,
            max_calls,
        } => {
            let (cancel, cancelled) = oneshot::channel();
            state.running = Some((run, cancel));
            state.live += 1;
            let worker = Rc::clone(worker);
            let plan = Plan {
                mode: Mode::Detect,
                calls: Vec::new(),
                max_calls,
                skip_tools,
            };
            js_sys::futures::spawn_local(async move {
                let play = async |c: &mut Conversation<BrowserLink>| probe::run(c, &plan).await;
                let endpoint = Endpoint {
                    url,
                    websocket,
                    protocol,
                    headers,
                };
                probe_and_post(run, endpoint, play, describes_itself, cancelled).await;
                let mut state = worker.borrow_mut();
                state.live -= 1;
                if state.running.as_ref().is_some_and(|(r, _)| *r == run) {
                    state.running = None;
                }
                if state.closing && state.live == 0 {
                    scope().close();
                }
            });
        }
    }
}

/// A finding as the table shows it.
fn finding_row(rule: &Rule, severity: Severity, message: &str, pointer: &str) -> FindingRow {
    FindingRow {
        rule: rule.id.to_string(),
        severity: severity.as_str().to_string(),
        message: message.to_string(),
        in_reference: crate::rpc::catalogue::find(rule.id).is_some(),
        spec: rule.section.url.to_string(),
        pointer: pointer.to_string(),
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
            spec: check.spec.to_string(),
            status: check.status.as_str().to_string(),
            detail: check.detail.clone(),
            // A failing check: the findings that failed it. One that passed: the probe's own
            // findings about its messages all the same (an OpenRPC method's undeclared error is a
            // warning), so that every finding of the report is in the table.
            findings: if check.status == Status::Fail {
                verdict
                    .findings(check)
                    .map(|v| finding_row(v.rule, v.severity, &v.message, &v.path))
                    .collect()
            } else {
                check
                    .findings
                    .iter()
                    .map(|f| finding_row(f.rule, f.rule.severity, &f.message, &f.path))
                    .collect()
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
        discovered: false,
    }
}

/// Where a probe goes: the link panel's endpoint, subprotocol and headers.
pub(super) struct Endpoint {
    pub url: String,
    /// A WebSocket (`ws:`, `wss:`) or HTTP (`http:`, `https:`) endpoint.
    pub websocket: bool,
    pub protocol: String,
    pub headers: Vec<(String, String)>,
}

/// Probes `endpoint` ([`probe_endpoint`]) and posts the page probe `run`'s outcome; a cancelled
/// probe says nothing more (the page has set its state).
pub(super) async fn probe_and_post(
    run: u32,
    endpoint: Endpoint,
    play: impl AsyncFnOnce(&mut Conversation<BrowserLink>) -> Run,
    then: impl AsyncFnOnce(&mut BrowserLink, &Verdict) -> bool,
    cancelled: oneshot::Receiver<()>,
) {
    let Endpoint {
        url,
        websocket,
        protocol,
        headers,
    } = endpoint;
    let transport = if websocket {
        Transport::Ws
    } else {
        Transport::Http
    };
    match probe_endpoint(&url, transport, &protocol, headers, play, then, cancelled).await {
        Some(Ok(outcome)) => post(&ProbeEvent::Done { run, outcome }),
        Some(Err(reason)) => post(&ProbeEvent::Failed { run, reason }),
        None => {}
    }
}

/// Probes `url` over a connection of its own with `play` (the engine's probe, or the one under an
/// OpenRPC document): the outcome or why there is none, or `None` once `cancelled` resolves (a
/// message, or its sender dropped) — the session is ended all the same. `then` has the link
/// once the run is judged, before it closes: what it finds is the outcome's `discovered`.
async fn probe_endpoint(
    url: &str,
    transport: Transport,
    protocol: &str,
    headers: Vec<(String, String)>,
    play: impl AsyncFnOnce(&mut Conversation<BrowserLink>) -> Run,
    then: impl AsyncFnOnce(&mut BrowserLink, &Verdict) -> bool,
    mut cancelled: oneshot::Receiver<()>,
) -> Option<Result<Outcome, String>> {
    let open = BrowserLink::open(url, transport, protocol, headers, TIMEOUT);
    let link = match select(std::pin::pin!(open), &mut cancelled).await {
        Either::Left((Ok(link), _)) => link,
        Either::Left((Err(e), _)) => return Some(Err(format!("{url} could not be probed: {e}"))),
        Either::Right(_) => return None,
    };
    let mut conversation = Conversation::new(link, TIMEOUT, TOTAL_TIMEOUT);
    let run = {
        let run = play(&mut conversation);
        match select(std::pin::pin!(run), &mut cancelled).await {
            Either::Left((run, _)) => Some(run),
            Either::Right(_) => None,
        }
    };
    let Some(run) = run else {
        conversation.into_parts().0.close().await;
        return None;
    };
    let (mut link, verdict) = probe::conclude(conversation, run);
    let outcome = match verdict {
        Ok(verdict) => {
            let discovered = {
                let found = then(&mut link, &verdict);
                match select(std::pin::pin!(found), &mut cancelled).await {
                    Either::Left((found, _)) => Some(found),
                    Either::Right(_) => None,
                }
            };
            let Some(discovered) = discovered else {
                link.close().await;
                return None;
            };
            Ok(Outcome {
                discovered,
                ..outcome(&verdict, url)
            })
        }
        Err(not_reached) => Err(format!(
            "{url} could not be probed: {}",
            not_reached.reason("the probe's timeout")
        )),
    };
    link.close().await;
    Some(outcome)
}

/// The id of the `rpc.discover` asked after a plain JSON-RPC server's checks.
const DISCOVER_ID: &str = "jrpc-probe-rpc.discover";

/// Whether a plain JSON-RPC server describes itself: after its checks (an MCP server, or a run
/// that stopped, is not asked), `rpc.discover` is sent on the probe's link, outside the
/// conversation (its report is the checks'); its reply must come within the request timeout and
/// hold an OpenRPC document (an object with `openrpc` and `methods`), which the API's worker then
/// checks and probes with.
async fn describes_itself(link: &mut BrowserLink, verdict: &Verdict) -> bool {
    if verdict.report.profile != crate::rpc::Profile::JsonRpc || verdict.stopped.is_some() {
        return false;
    }
    let ask = serde_json::json!({"jsonrpc": "2.0", "id": DISCOVER_ID, "method": "rpc.discover"});
    if link.send(&ask.to_string(), TIMEOUT).await.is_err() {
        return false;
    }
    let deadline = link.elapsed() + TIMEOUT;
    loop {
        let left = deadline.saturating_sub(link.elapsed());
        if left.is_zero() {
            return false;
        }
        let Ok(Some(text)) = link.receive(left).await else {
            return false;
        };
        let Ok(reply) = serde_json::from_str::<serde_json::Value>(&text) else {
            continue;
        };
        if reply.get("id").and_then(serde_json::Value::as_str) == Some(DISCOVER_ID) {
            let result = reply.get("result");
            return result
                .and_then(|r| r.get("openrpc"))
                .is_some_and(serde_json::Value::is_string)
                && result
                    .and_then(|r| r.get("methods"))
                    .is_some_and(serde_json::Value::is_array);
        }
    }
}
