//! What the page and its checking worker (a large text checked off the main thread:
//! src/web/js/check-worker.js, the page's own wasm) say to each other. The text itself travels beside
//! the request, as the string it is.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// What the page asks the worker (JSON, serde): the fingerprint of the text and profile (as
/// text: a `u64` does not survive JavaScript's numbers), the profile (`jsonrpc`,
/// `mcp:<version>`) and the app's files for the worker to load. The text travels beside it, as
/// the string it is (escaping megabytes into JSON would cost the page what the worker saves).
#[derive(Serialize, Deserialize)]
pub struct CheckRequest {
    pub fp: String,
    pub profile: String,
    pub js: String,
    pub wasm: String,
}

/// What the worker answers (JSON): the fingerprint it was asked about and the analysis
/// (the page's `Analysis::encode`), or the error that stopped it (written by src/web/js/check-worker.js when
/// the app could not even load).
#[derive(Serialize, Deserialize)]
pub struct CheckAnswer {
    #[serde(default)]
    pub fp: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analysis: Option<Box<RawValue>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}
