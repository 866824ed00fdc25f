//! The probe: check a real JSON-RPC 2.0 / MCP server by talking to it, over any transport.
//!
//! The probe runs the MCP lifecycle and exercises only what the server declared, then the
//! behaviour every JSON-RPC server owes ([`checks`]); every message both ways is recorded
//! ([`conversation`]) and checked by the engine under the negotiated profile, with the probe's
//! own rules ([`rules`]) for what no single message shows ([`verdict`]); the report is written as
//! JSON here ([`write_report_json`], the one owner of `jrpc probe --format json`).
//!
//! The I/O is the face's ([`ProbeLink`]): `jrpc probe` drives it over stdio, HTTP and WebSocket
//! with tokio, the page's link panel over WebSocket and HTTP with the browser's. A probe:
//! [`Conversation::new`] over the link, [`run`] the [`Plan`], then [`conclude`].

mod arguments;
pub mod auth;
pub mod checks;
pub mod conversation;
mod excerpt;
pub mod link;
pub mod rules;
pub mod verdict;

use std::io::{self, Write};
use std::time::Duration;

use serde::Serialize;

use crate::json::LineIndex;
use crate::rpc::report::{DocumentJson, ProfileJson};
use crate::rpc::Report;

pub use checks::{run, Check, Mode, Plan, Run, Status};
pub use conversation::{Conversation, Entry, Side};
pub use link::{Delivery, LinkError, ProbeLink};
pub use verdict::Verdict;

/// The server was never reached: it sent no message at all, so there is nothing to judge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotReached {
    /// The link failed (or time ran out) before any message came.
    pub stopped: Option<String>,
    /// What the transport last said besides messages (an HTTP error status).
    pub last_note: Option<String>,
    /// How long each request waited.
    pub timeout: Duration,
}

impl NotReached {
    /// Why, in words; `timeout_setting` names where the per-request timeout is set (the CLI's
    /// `--timeout`, the link panel's field).
    pub fn reason(&self, timeout_setting: &str) -> String {
        match (&self.stopped, &self.last_note) {
            (Some(stopped), _) => stopped.clone(),
            (None, Some(note)) => {
                format!("it never sent a JSON-RPC message (the last answer: {note})")
            }
            (None, None) => format!(
                "it never answered: no message at all, each request waiting {:?} ({timeout_setting})",
                self.timeout
            ),
        }
    }
}

/// The end of a probe: the conversation's messages judged with the run's checks, or why the
/// server was never reached. Returns the link too, for the face to close.
pub fn conclude<L: ProbeLink>(
    conversation: Conversation<L>,
    run: Run,
) -> (L, Result<Verdict, NotReached>) {
    let reached = conversation.reached;
    let not_reached = NotReached {
        stopped: run.stopped.as_ref().map(|e| e.0.clone()),
        last_note: conversation.last_note.clone(),
        timeout: conversation.timeout,
    };
    let (link, entries) = conversation.into_parts();
    if !reached {
        return (link, Err(not_reached));
    }
    (link, Ok(verdict::judge(&entries, run)))
}

/// The name the findings are shown under: the transcript file when one is written.
pub fn source_name(transcript: Option<&str>) -> &str {
    transcript.unwrap_or("<probe transcript>")
}

/// One check in the JSON report.
#[derive(Serialize)]
struct CheckJson<'a> {
    id: &'a str,
    status: &'static str,
    title: &'a str,
    spec: &'a str,
    detail: &'a str,
    /// The transcript lines of the check's messages.
    #[serde(skip_serializing_if = "Option::is_none")]
    lines: Option<[usize; 2]>,
}

/// The JSON report: the documents as `jrpc check --format json` writes them, plus the checks.
#[derive(Serialize)]
struct ProbeJson<'a> {
    target: &'a str,
    profile: ProfileJson,
    documents: Vec<DocumentJson<'a>>,
    checks: Vec<CheckJson<'a>>,
    passed: usize,
    failed: usize,
    skipped: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<&'a str>,
}

/// Writes the report of `verdict` as JSON (one line, then a newline): what `jrpc probe --format
/// json` prints and the page's Probe exports. `target` is the server as shown; `transcript` the
/// file the transcript was written to, if any (the documents' `"file"`).
pub fn write_report_json(
    out: &mut dyn Write,
    verdict: &Verdict,
    target: &str,
    transcript: Option<&str>,
) -> io::Result<()> {
    let src = verdict.transcript.as_bytes();
    let lines = LineIndex::new(src);
    let name = source_name(transcript);
    let report = ProbeJson {
        target,
        profile: verdict.report.profile.into(),
        documents: verdict
            .report
            .documents
            .iter()
            .map(|d| Report::document_json(d, src, &lines, Some(name)))
            .collect(),
        checks: verdict
            .checks
            .iter()
            .map(|c| CheckJson {
                id: &c.id,
                status: c.status.as_str(),
                title: &c.title,
                spec: c.spec,
                detail: &c.detail,
                lines: verdict.lines(c).map(|(a, b)| [a, b]),
            })
            .collect(),
        passed: verdict.count(Status::Pass),
        failed: verdict.count(Status::Fail),
        skipped: verdict.count(Status::Skipped),
        stopped: verdict.stopped.as_deref(),
    };
    serde_json::to_writer(&mut *out, &report).map_err(io::Error::from)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};

    use serde_json::Value;

    use super::*;
    use crate::mock::MockServer;

    /// The engine's mock server as the far end of a link, in memory, as `jrpc serve` on stdio:
    /// what it sends on its own first, then the reply. Its clock moves only when a receive finds
    /// nothing (by the whole wait) and by `step` per message sent.
    struct MockLink {
        server: Option<MockServer>,
        inbox: VecDeque<String>,
        clock: Duration,
        step: Duration,
        sent: usize,
        /// Messages the server leaves unanswered (it reads them and says nothing).
        ignored: Vec<&'static str>,
        /// Plays a 2026-07-28 server with subscriptions: discover declares resources.subscribe,
        /// subscriptions/listen is acknowledged; the cancellations received are kept.
        listens: bool,
        cancelled: Vec<Value>,
        /// The supportedVersions its server/discover lists instead of the mock's.
        discover_lists: Option<Value>,
        /// Answers every tools/call with an input-required result, whatever it brings.
        always_asks: bool,
    }

    impl MockLink {
        fn new(server: Option<MockServer>) -> MockLink {
            MockLink {
                server,
                inbox: VecDeque::new(),
                clock: Duration::ZERO,
                step: Duration::ZERO,
                sent: 0,
                ignored: Vec::new(),
                listens: false,
                cancelled: Vec::new(),
                discover_lists: None,
                always_asks: false,
            }
        }
    }

    impl ProbeLink for MockLink {
        async fn send(&mut self, text: &str, _timeout: Duration) -> Result<Delivery, LinkError> {
            self.sent += 1;
            self.clock += self.step;
            if self.ignored.contains(&text) {
                return Ok(Delivery::default());
            }
            let message: Value = serde_json::from_str(text).unwrap_or(Value::Null);
            let method = message.get("method").and_then(Value::as_str);
            if self.listens && method == Some("subscriptions/listen") {
                let ack = serde_json::json!({"jsonrpc": "2.0", "method": conversation::ACKNOWLEDGED, "params": {
                    "_meta": {"io.modelcontextprotocol/subscriptionId": message["id"]},
                    "notifications": {"resourceSubscriptions": message["params"]["notifications"]["resourceSubscriptions"]}
                }});
                self.inbox.push_back(ack.to_string());
                return Ok(Delivery::default());
            }
            if self.listens && method == Some("notifications/cancelled") {
                self.cancelled.push(message["params"].clone());
                return Ok(Delivery::default());
            }
            if self.always_asks && method == Some("tools/call") {
                let ask = serde_json::json!({"jsonrpc": "2.0", "id": message["id"], "result": {
                    "resultType": "input_required",
                    "inputRequests": {"again": {"method": "roots/list", "params": {}}},
                    "requestState": "s"
                }});
                self.inbox.push_back(ask.to_string());
                return Ok(Delivery::default());
            }
            if let Some(server) = &mut self.server {
                let reply = server.handle(text.as_bytes());
                self.inbox.extend(server.take_sent());
                if let Some(reply) = reply {
                    let mut value: Value = serde_json::from_str(&reply).unwrap_or(Value::Null);
                    if self.listens && method == Some("server/discover") {
                        value["result"]["capabilities"]["resources"]["subscribe"] = true.into();
                    }
                    if let (Some(listed), Some("server/discover")) = (&self.discover_lists, method)
                    {
                        value["result"]["supportedVersions"] = listed.clone();
                    }
                    self.inbox.push_back(value.to_string());
                }
            }
            Ok(Delivery::default())
        }

        async fn receive(&mut self, wait: Duration) -> Result<Option<String>, LinkError> {
            let next = self.inbox.pop_front();
            if next.is_none() {
                self.clock += wait;
            }
            Ok(next)
        }

        fn set_protocol_version(&mut self, _version: Option<&str>) {}

        fn elapsed(&self) -> Duration {
            self.clock
        }
    }

    /// Runs a future that never waits on anything outside it (the in-memory link) to its end.
    fn block_on<F: Future>(future: F) -> F::Output {
        let mut future = pin!(future);
        let mut context = Context::from_waker(Waker::noop());
        loop {
            if let Poll::Ready(out) = future.as_mut().poll(&mut context) {
                return out;
            }
        }
    }

    fn plan(mode: Mode) -> Plan {
        Plan {
            mode,
            calls: Vec::new(),
            max_calls: 50,
            skip_tools: Vec::new(),
        }
    }

    fn probe(
        link: MockLink,
        plan: &Plan,
        total: Duration,
    ) -> (MockLink, Result<Verdict, NotReached>) {
        let mut conversation = Conversation::new(link, Duration::from_secs(5), total);
        let run = block_on(run(&mut conversation, plan));
        conclude(conversation, run)
    }

    fn report(verdict: &Verdict) -> Value {
        let mut out = Vec::new();
        write_report_json(&mut out, verdict, "mock", None).expect("written to memory");
        serde_json::from_slice(&out).expect("the report is JSON")
    }

    #[test]
    fn the_mock_server_passes_every_check_of_the_handshake() {
        let link = MockLink::new(Some(MockServer::new()));
        let forced = plan(Mode::Mcp(Some(crate::rpc::McpVersion::V2025_11_25)));
        let (_, verdict) = probe(link, &forced, Duration::from_secs(120));
        let verdict = verdict.expect("the mock answers");
        let failed: Vec<_> = verdict
            .checks
            .iter()
            .filter(|c| c.status == Status::Fail)
            .map(|c| format!("{}: {}", c.id, c.detail))
            .collect();
        assert!(failed.is_empty(), "{failed:#?}\n{}", verdict.transcript);
        assert!(!verdict.failed());
        let ids: Vec<&str> = verdict.checks.iter().map(|c| c.id.as_str()).collect();
        for id in [
            "lifecycle/initialize",
            "tools/call",
            "jsonrpc/parse-error",
            "jsonrpc/ids-echoed",
        ] {
            assert!(ids.contains(&id), "{id} in {ids:?}");
        }
        assert!(verdict.count(Status::Pass) >= 10);
        assert!(verdict.transcript.starts_with("--> "));
    }

    #[test]
    fn subscriptions_listen_is_acknowledged_then_cancelled_under_2026_07_28() {
        let mut link = MockLink::new(Some(MockServer::new()));
        link.listens = true;
        let (link, verdict) = probe(link, &plan(Mode::Detect), Duration::from_secs(120));
        let verdict = verdict.expect("the mock answers");
        assert!(!verdict.failed(), "{}", verdict.transcript);
        let listen = verdict
            .checks
            .iter()
            .find(|c| c.id == "subscriptions/listen")
            .expect("the listen check ran");
        assert_eq!(listen.status, Status::Pass);
        assert_eq!(
            listen.detail,
            "acknowledged (1 of 1 resource subscriptions agreed to), then cancelled"
        );
        assert_eq!(link.cancelled.len(), 1, "{:?}", link.cancelled);
        let named = &link.cancelled[0]["requestId"];
        assert!(
            verdict
                .transcript
                .contains(&format!(r#""id":{named},"method":"subscriptions/listen""#)),
            "{named}: {}",
            verdict.transcript
        );
    }

    #[test]
    fn a_discover_listing_only_handshake_revisions_gets_initialize_for_the_newest() {
        let mut link = MockLink::new(Some(MockServer::new()));
        link.discover_lists = Some(serde_json::json!([
            "2024-11-05",
            "2025-06-18",
            "2099-01-01"
        ]));
        let (_, verdict) = probe(link, &plan(Mode::Detect), Duration::from_secs(120));
        let verdict = verdict.expect("the mock answers");
        assert!(!verdict.failed(), "{}", verdict.transcript);
        assert_eq!(
            verdict.report.profile,
            crate::rpc::Profile::Mcp(crate::rpc::McpVersion::V2025_06_18)
        );
        let discover = &verdict.checks[0];
        assert_eq!(discover.id, "lifecycle/discover");
        assert_eq!(discover.status, Status::Skipped);
        assert_eq!(
            discover.detail,
            "server/discover does not list 2026-07-28: the initialize handshake instead (asking for 2025-06-18)"
        );
        assert!(verdict
            .transcript
            .contains(r#""method":"initialize","params":{"protocolVersion":"2025-06-18""#));
    }

    #[test]
    fn a_server_that_keeps_asking_is_given_up_after_the_round_bound() {
        let mut link = MockLink::new(Some(MockServer::new()));
        link.always_asks = true;
        let (link, verdict) = probe(link, &plan(Mode::Detect), Duration::from_secs(120));
        let verdict = verdict.expect("the mock answers");
        let rounds = verdict
            .checks
            .iter()
            .find(|c| c.id == "mcp/input-required")
            .expect("the round trips are reported");
        assert_eq!(rounds.status, Status::Fail);
        assert!(
            rounds
                .detail
                .contains("8 rounds (roots/list, roots/list, roots/list, roots/list, roots/list, roots/list, roots/list, roots/list), given up: still input-required after 8 rounds"),
            "{}",
            rounds.detail
        );
        // Each retry echoed the state and answered the key it was asked.
        let retries = verdict
            .transcript
            .matches(r#""inputResponses":{"again":{"roots":[]}},"requestState":"s""#)
            .count();
        assert!(retries >= 8, "{retries} retries");
        assert!(link.sent < 400, "{} messages sent", link.sent);
    }

    #[test]
    fn the_report_lists_every_check_with_its_status() {
        let link = MockLink::new(Some(MockServer::new()));
        let (_, verdict) = probe(link, &plan(Mode::Detect), Duration::from_secs(120));
        let verdict = verdict.expect("the mock answers");
        let json = report(&verdict);
        let checks = json["checks"].as_array().expect("checks");
        assert_eq!(checks.len(), verdict.checks.len());
        assert_eq!(checks[0]["id"], "lifecycle/discover");
        assert!(checks.iter().all(|c| c["status"].is_string()
            && c["spec"]
                .as_str()
                .is_some_and(|s| s.starts_with("https://"))));
        assert_eq!(json["failed"], 0);
        assert_eq!(json["passed"], verdict.count(Status::Pass));
        assert_eq!(json["target"], "mock");
        assert_eq!(json["profile"]["name"], "mcp");
        assert!(json["documents"].as_array().is_some_and(|d| !d.is_empty()));
        assert!(json.get("stopped").is_none());
    }

    #[test]
    fn plain_json_rpc_runs_the_protocol_checks_and_the_users_calls() {
        let link = MockLink::new(Some(MockServer::new()));
        let mut plan = plan(Mode::JsonRpc);
        plan.calls
            .push(("subtract".into(), serde_json::json!([42, 23])));
        let (_, verdict) = probe(link, &plan, Duration::from_secs(120));
        let verdict = verdict.expect("the mock answers");
        let ids: Vec<&str> = verdict.checks.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids.first(), Some(&"jsonrpc/unknown-method"));
        assert_eq!(ids.last(), Some(&"call/subtract"));
        assert!(ids.contains(&"jsonrpc/batch"));
        assert!(!verdict.failed(), "{}", verdict.transcript);
    }

    #[test]
    fn a_silent_server_is_not_reached_and_says_how_long_it_waited() {
        let link = MockLink::new(None);
        let (link, verdict) = probe(link, &plan(Mode::Detect), Duration::from_secs(120));
        let Err(not_reached) = verdict else {
            panic!("a server that sent nothing was judged")
        };
        assert_eq!(not_reached.stopped, None);
        assert_eq!(
            not_reached.reason("--timeout"),
            "it never answered: no message at all, each request waiting 5s (--timeout)"
        );
        assert!(link.sent > 0);
    }

    /// The status of each named check when the mock leaves `ignored` unanswered.
    fn statuses_when_ignoring(ignored: &[&'static str], mode: Mode, ids: &[&str]) -> Vec<Status> {
        let mut link = MockLink::new(Some(MockServer::new()));
        link.ignored = ignored.to_vec();
        let (_, verdict) = probe(link, &plan(mode), Duration::from_secs(120));
        let verdict = verdict.expect("the mock answers");
        ids.iter()
            .map(|id| {
                let check = verdict.checks.iter().find(|c| c.id == *id);
                check.unwrap_or_else(|| panic!("no check {id}")).status
            })
            .collect()
    }

    #[test]
    fn a_silence_on_the_invalid_request_fails_when_a_batch_is_later_refused_with_id_null() {
        // MCP 2025-11-25 has no batches: the mock refuses the probe's batch with one error with
        // id null, after answering other requests (the issue's second server).
        assert_eq!(
            statuses_when_ignoring(
                &[checks::protocol::INVALID],
                Mode::Detect,
                &["jsonrpc/invalid-request", "mcp/batch-refused"]
            ),
            [Status::Fail, Status::Pass]
        );
    }

    #[test]
    fn a_silence_on_the_invalid_request_fails_when_the_batch_is_answered() {
        // Plain JSON-RPC: the batch gets its array; the silence is judged the same.
        assert_eq!(
            statuses_when_ignoring(
                &[checks::protocol::INVALID],
                Mode::JsonRpc,
                &["jsonrpc/invalid-request", "jsonrpc/batch"]
            ),
            [Status::Fail, Status::Pass]
        );
    }

    #[test]
    fn a_refusal_in_time_passes_though_an_earlier_silence_waits_for_id_null() {
        // Silent on the text that is not JSON, then -32600 for the invalid request at once: each
        // check is judged on its own wait.
        for mode in [Mode::Detect, Mode::JsonRpc] {
            assert_eq!(
                statuses_when_ignoring(
                    &[checks::protocol::MALFORMED],
                    mode,
                    &["jsonrpc/parse-error", "jsonrpc/invalid-request"]
                ),
                [Status::Fail, Status::Pass]
            );
        }
    }

    #[test]
    fn the_total_timeout_stops_the_run_on_the_links_clock() {
        let mut link = MockLink::new(Some(MockServer::new()));
        link.step = Duration::from_secs(1);
        let (link, verdict) = probe(link, &plan(Mode::Detect), Duration::from_secs(4));
        let verdict = verdict.expect("the mock answered before time ran out");
        assert!(verdict.failed());
        let stopped = verdict.stopped.as_deref().unwrap_or_default();
        assert!(stopped.contains("ran out of time"), "{stopped}");
        assert!(
            link.sent <= 5,
            "{} messages sent after the deadline",
            link.sent
        );
        let last = verdict.checks.last().expect("a check ran");
        assert_eq!(last.status, Status::Fail);
        assert!(last.detail.contains("stopped:"), "{}", last.detail);
    }
}
