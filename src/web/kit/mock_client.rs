//! Send to the page's mock server, which runs in a worker of its own: the `mock-worker` binary
//! (src/bin/mock_worker.rs, [`super::mock_worker`]), started on the first Send or lesson Run, so
//! the page's first load carries no mock. Each client document goes as a [`MockRequest`], in
//! order; the answer's records (what crossed each way, the automatic answers included:
//! [`crate::exchange::round::converse`]) are appended to the log in order when it comes.
//!
//! Under MCP the playground's documents go to a second build of the same worker,
//! `mcp-mock-worker` (the root crate's `mcp-schemas` feature: a tools/call's arguments and an
//! elicitation answer checked against their whole schemas by boon, as `jrpc serve` does), which
//! carries a JSON Schema engine the small one does not: a JSON-RPC learner's first Send fetches
//! only the small one. The lessons' runs need that engine only with the conformance fixtures
//! ([`SchemaChecks::ConformanceOnly`]). Once the MCP worker has served a
//! session it serves that session from then on, whatever the profile (it answers JSON-RPC
//! alike), so the session goes on across a profile switch; a session's first document there
//! starts it afresh with the page's fixtures (said in a notice when the session had gone on
//! under JSON-RPC before).

use serde_json::value::RawValue;
use std::rc::Rc;

use crate::web::kit::prelude::*;

use crate::exchange::mock_worker::{MockAnswer, MockRequest, Record, Session, MAX_DOCUMENT};
use crate::exchange::Log;
use crate::json::{split_stream, Direction as Side};
use crate::mock::Fixtures;
use crate::rpc::Profile;
use crate::web::kit::lazy_worker::LazyWorker;
use crate::web::kit::notice::NoticeLevel;

/// The `<meta name="app-entry">` attributes of the mock's worker: its glue, its wasm.
const FILES: [&str; 2] = ["data-lazy-mock-js", "data-lazy-mock-wasm"];

/// The same attributes for the MCP mock's worker (`mcp-mock-worker`, with the tool schemas).
const MCP_FILES: [&str; 2] = ["data-lazy-mcp-mock-js", "data-lazy-mcp-mock-wasm"];

/// Says something to the user (a notice: the page's, or the teaching views' bridge to it).
pub type Notify = Rc<dyn Fn(NoticeLevel, String)>;

/// What an answer brings: its records, in order, and why the automatic answers stopped.
pub type Took = Rc<dyn Fn(Vec<Record>, Option<String>)>;

/// When a session goes to the MCP worker, the one with the JSON Schema engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaChecks {
    /// Every session under an MCP profile (the playground: a user may send any arguments and
    /// any answer).
    UnderMcp,
    /// Under an MCP profile with the conformance fixtures only (the lessons: they send their own
    /// examples and the cooperative client's answers, which under the friendly fixtures keep every
    /// schema the mock checks; `every_lesson_run_keeps_the_schemas_the_mock_checks` in
    /// tests/quiz.rs runs them all with the JSON Schema engine and finds no refusal).
    ConformanceOnly,
}

/// The mock's two workers, each started on its first request.
pub struct MockWorkers {
    /// Which sessions the MCP worker serves.
    checks: SchemaChecks,
    /// The JSON-RPC profile's (no JSON Schema engine).
    plain: LazyWorker,
    /// MCP's, which checks the tools' inputSchema.
    mcp: LazyWorker,
    /// The sessions the MCP worker serves (from their first document under MCP on).
    on_mcp: Vec<Session>,
}

impl MockWorkers {
    /// The worker for a document of `session` under `profile`, and whether the session must
    /// start afresh there (its first document on the MCP worker).
    fn for_document(
        &mut self,
        session: Session,
        profile: Profile,
        fixtures: Fixtures,
    ) -> (&mut LazyWorker, bool) {
        let on_mcp = self.on_mcp.contains(&session);
        let checked = match self.checks {
            SchemaChecks::UnderMcp => true,
            SchemaChecks::ConformanceOnly => fixtures == Fixtures::Conformance,
        };
        if on_mcp || (checked && matches!(profile, Profile::Mcp(_))) {
            if !on_mcp {
                self.on_mcp.push(session);
            }
            (&mut self.mcp, !on_mcp)
        } else {
            (&mut self.plain, false)
        }
    }
}

/// The mock's workers, not started yet, the MCP one serving sessions as `checks` says.
pub(crate) fn worker(checks: SchemaChecks) -> StoredValue<MockWorkers, LocalStorage> {
    StoredValue::new_local(MockWorkers {
        checks,
        plain: LazyWorker::new(FILES, None),
        mcp: LazyWorker::new(MCP_FILES, None),
        on_mcp: Vec::new(),
    })
}

/// The client documents of `text`: every document, or a transcript's `-->` lines.
fn client_documents(text: &str) -> Vec<&str> {
    split_stream(text.as_bytes())
        .segments
        .iter()
        .filter(|s| s.direction != Some(Side::Server))
        .map(|s| &text[s.span.start..s.span.end])
        .collect()
}

/// Appends `records` to `log` under `peer`, in order.
pub fn append(log: RwSignal<Log>, peer: &str, records: Vec<Record>) {
    log.update(|log| {
        for r in records {
            log.record(peer, r.direction, r.time_ms, r.raw);
        }
    });
}

/// Sends each client document of `text` to the mock's `session` (started afresh serving
/// `fixtures` before the first when `fresh`, or when it is the session's first on the MCP
/// worker), as the server of `profile`; `took` gets each answer. What the mock refuses or a
/// worker that fails is an error notice through `notify` (the page's, or the teaching views'
/// bridge to it), and `on_failure` is called (the worker's sessions are gone with it). Returns
/// how many documents went.
#[allow(clippy::too_many_arguments)]
pub(crate) fn send_documents(
    worker: StoredValue<MockWorkers, LocalStorage>,
    notify: Notify,
    session: Session,
    fixtures: Fixtures,
    mut fresh: bool,
    text: &str,
    profile: Profile,
    auto: bool,
    took: Took,
    on_failure: Rc<dyn Fn()>,
) -> usize {
    let docs = client_documents(text);
    for doc in &docs {
        if doc.len() > MAX_DOCUMENT {
            notify(NoticeLevel::Error, format!("Not sent to the mock server: a document of {} bytes; it takes at most {MAX_DOCUMENT} (16 MiB) per document.", doc.len()));
            continue;
        }
        let took = Rc::clone(&took);
        let (notify_answer, notify_failure) = (Rc::clone(&notify), Rc::clone(&notify));
        let then = Box::new(move |answer: &RawValue| {
            match MockAnswer::from_text(answer.get()) {
                Ok(MockAnswer::Exchanged { records, stopped }) => took(records, stopped),
                Ok(MockAnswer::Refused { error }) => notify_answer(
                    NoticeLevel::Error,
                    format!("The mock server did not take the document: {error}."),
                ),
                Err(error) => notify_answer(
                    NoticeLevel::Error,
                    format!("Send to the mock server: {error}."),
                ),
            }
            Ok(())
        });
        let on_failure = Rc::clone(&on_failure);
        let failed = Box::new(move |why: String| {
            on_failure();
            notify_failure(
                NoticeLevel::Error,
                format!("The mock server could not answer: {why}."),
            );
        });
        worker.update_value(|w| {
            let (worker, first_there) = w.for_document(session, profile, fixtures);
            let asked_fresh = std::mem::take(&mut fresh);
            if first_there && !asked_fresh {
                notify(
                    NoticeLevel::Info,
                    "Under MCP the mock checks the tools' schemas, in a new session: the messages sent before went to the JSON-RPC mock (initialize again).".into(),
                );
            }
            let fresh = asked_fresh || first_there;
            let request = MockRequest::new(
                session,
                fresh.then_some(fixtures),
                profile,
                auto,
                doc.to_string(),
            );
            worker.ask(&request.to_text(), then, failed);
        });
    }
    docs.len()
}
