//! Where the API runs: the `api-worker` binary (src/bin/api_worker.rs), a worker the page starts
//! when it first needs the API (a document offered), loaded by the workers' loader
//! (src/ui/probe-boot.js) from the files `<meta name="app-entry">` names
//! ([`crate::ui::lazy_worker`]). Requests and answers cross as JSON text, one answer per request,
//! in order; requests sent before the worker is ready wait for it.

use crate::api::{ApiAnswer, ApiRequest};
use crate::ui::lazy_worker::LazyWorker;

/// What gets an answer.
pub type Then = Box<dyn FnOnce(ApiAnswer)>;

/// The API's runner: no worker until the first request.
pub struct Runner {
    worker: LazyWorker,
}

impl Runner {
    pub fn new() -> Runner {
        Runner {
            worker: LazyWorker::new([
                "data-lazy-probe-boot",
                "data-lazy-api-js",
                "data-lazy-api-wasm",
            ]),
        }
    }

    /// Sends `request`; `then` gets its answer later (never before this returns): an answer that
    /// cannot be read comes as [`ApiAnswer::Failed`]. `failed` is told why when the worker cannot
    /// answer.
    pub fn ask(&mut self, request: ApiRequest, then: Then, failed: impl FnOnce(String) + 'static) {
        // Serialising these plain structs cannot fail.
        let text = serde_json::to_string(&request).unwrap_or_default();
        let read = Box::new(move |answer: String| {
            then(
                serde_json::from_str::<ApiAnswer>(&answer).unwrap_or_else(|e| ApiAnswer::Failed {
                    error: format!("its worker's answer is not readable: {e}"),
                }),
            )
        });
        self.worker.ask(text, read, Box::new(failed));
    }
}
