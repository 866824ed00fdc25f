//! The checking worker's work (src/web/js/check-worker.js loads the page's own wasm in a worker
//! and calls its `workerCheck` export): a large text checked off the page's main thread, as the
//! page would check it.

use serde_json::value::RawValue;

use crate::rpc::Profile;
use crate::saved::profile_from_str;
use crate::web::kit::analysis::Analysis;
use crate::wire::check::{CheckAnswer, CheckRequest};

/// The worker's entry point: checks `text` as `request` ([`CheckRequest`]) says and returns the
/// [`CheckAnswer`] as JSON. Exported as `workerCheck` by the page's binary (src/main.rs).
pub fn worker_check(request: &str, text: &str) -> String {
    let answer = match serde_json::from_str::<CheckRequest>(request) {
        Ok(request) => {
            let profile = profile_from_str(&request.profile).unwrap_or(Profile::JsonRpc);
            let analysis = Analysis::run(text, profile, None, js_sys::Date::now).encode();
            CheckAnswer {
                fp: Some(request.fp),
                analysis: RawValue::from_string(analysis).ok(),
                error: None,
            }
        }
        Err(e) => CheckAnswer {
            fp: None,
            analysis: None,
            error: Some(format!("the request is not readable: {e}")),
        },
    };
    serde_json::to_string(&answer).unwrap_or_default()
}
