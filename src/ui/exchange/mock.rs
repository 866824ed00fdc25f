//! Send to the page's mock server, which runs in a worker of its own: the `mock-worker` binary
//! (src/bin/mock_worker.rs, [`super::mock_worker`]), started on the first Send or lesson Run, so
//! the page's first load carries no mock. Each client document goes as a [`MockRequest`], in
//! order; the answer's records (what crossed each way, the automatic answers included:
//! [`crate::exchange::round::converse`]) are appended to the log in order when it comes.

use std::rc::Rc;

use crate::ui::prelude::*;

use crate::exchange::mock_worker::{MockAnswer, MockRequest, Record, Session, MAX_DOCUMENT};
use crate::exchange::Log;
use crate::json::{split_stream, Direction as Side};
use crate::mock::Fixtures;
use crate::ui::lazy_worker::LazyWorker;
use crate::ui::state::{AppState, NoticeLevel};

/// The `<meta name="app-entry">` attributes of the mock's worker: the loader, its glue, its wasm.
const FILES: [&str; 3] = [
    "data-lazy-probe-boot",
    "data-lazy-mock-js",
    "data-lazy-mock-wasm",
];

/// What an answer brings: its records, in order, and why the automatic answers stopped.
pub type Took = Rc<dyn Fn(Vec<Record>, Option<String>)>;

/// The mock's worker, not started yet.
pub(super) fn worker() -> StoredValue<LazyWorker, LocalStorage> {
    StoredValue::new_local(LazyWorker::new(FILES, None))
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

/// Sends each client document of `text` to the mock's `session` (started afresh serving `fresh`
/// before the first, when given), as the server of `profile`; `took` gets each answer. What the
/// mock refuses or a worker that fails is a notice to `app`, and `on_failure` is called (the
/// worker's sessions are gone with it). Returns how many documents went.
#[allow(clippy::too_many_arguments)]
pub(super) fn send_documents(
    worker: StoredValue<LazyWorker, LocalStorage>,
    app: AppState,
    session: Session,
    mut fresh: Option<Fixtures>,
    text: &str,
    profile: crate::rpc::Profile,
    auto: bool,
    took: Took,
    on_failure: Rc<dyn Fn()>,
) -> usize {
    let docs = client_documents(text);
    for doc in &docs {
        if doc.len() > MAX_DOCUMENT {
            app.notify(
                NoticeLevel::Error,
                format!("Not sent to the mock server: a document of {} bytes; it takes at most {MAX_DOCUMENT} (16 MiB) per document.", doc.len()),
            );
            continue;
        }
        let request = MockRequest::new(session, fresh.take(), profile, auto, doc.to_string());
        let took = Rc::clone(&took);
        let then = Box::new(move |text: String| {
            match MockAnswer::from_text(&text) {
                Ok(MockAnswer::Exchanged { records, stopped }) => took(records, stopped),
                Ok(MockAnswer::Refused { error }) => app.notify(
                    NoticeLevel::Error,
                    format!("The mock server did not take the document: {error}."),
                ),
                Err(error) => app.notify(
                    NoticeLevel::Error,
                    format!("Send to the mock server: {error}."),
                ),
            }
            Ok(())
        });
        let on_failure = Rc::clone(&on_failure);
        let failed = Box::new(move |why: String| {
            on_failure();
            app.notify(
                NoticeLevel::Error,
                format!("The mock server could not answer: {why}."),
            );
        });
        worker.update_value(|w| w.ask(request.to_text(), then, failed));
    }
    docs.len()
}
