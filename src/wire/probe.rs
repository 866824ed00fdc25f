//! What the Probe (in the views' module) and the Probe's worker say to each other: the Probe
//! sends [`ProbeRequest`]s, the worker tells [`ProbeEvent`]s. The Probe under an OpenRPC document
//! is an [`ApiProbe`], run by the API's worker, which tells the same events.

use serde::{Deserialize, Serialize};

/// The page to the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "request", rename_all = "snake_case")]
pub enum ProbeRequest {
    /// Probe `url`; the answer carries the same `run`, so that a late answer to a probe the
    /// page no longer waits for is told apart.
    Run {
        run: u32,
        url: String,
        /// A WebSocket (`ws:`, `wss:`) or HTTP (`http:`, `https:`) endpoint.
        websocket: bool,
        /// The WebSocket subprotocol (empty: none).
        protocol: String,
        /// The link panel's extra HTTP headers.
        headers: Vec<(String, String)>,
        /// Tools never called (`jrpc probe --skip-tool`).
        skip_tools: Vec<String>,
        /// The most tool calls, resource reads and prompt gets (`jrpc probe --max-calls`).
        max_calls: usize,
    },
    /// Stop the running probe where it is (its HTTP session is ended all the same).
    Cancel,
    /// Cancel, then end the worker once the probe has cleaned up (the panel is gone).
    Close,
}

/// The worker to the Probe, as the worker's events ([`super::envelope::FromWorker::Event`]).
/// Externally tagged (`{"probe_done": {…}}`, `{"probe_failed": {…}}`): read without buffering the
/// message into serde's `Content` first (docs/size-rules.md 10).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ProbeEvent {
    /// The API's worker, which runs the Probe under a document, did not load or failed: why
    /// (told by the page's runner, never sent).
    #[serde(skip)]
    Unavailable { reason: String },
    /// Probe `run` finished.
    #[serde(rename = "probe_done")]
    Done { run: u32, outcome: Outcome },
    /// Probe `run` could not start or never reached the server: why.
    #[serde(rename = "probe_failed")]
    Failed { run: u32, reason: String },
}

/// A finding about a check's messages.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FindingRow {
    pub rule: String,
    pub severity: String,
    pub message: String,
    /// The rule is in the page's reference (the engine's catalogue; the probe's own rules are not).
    pub in_reference: bool,
    /// The specification section of the rule.
    pub spec: String,
    /// The JSON pointer of the value it is about, in its message (`/result`, `/error/code`).
    #[serde(default)]
    pub pointer: String,
}

/// One check as the table shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckRow {
    pub id: String,
    pub title: String,
    pub spec: String,
    /// `pass`, `fail` or `skipped` (the engine's `Status::as_str`).
    pub status: String,
    pub detail: String,
    pub findings: Vec<FindingRow>,
}

/// A finished probe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub target: String,
    pub profile: String,
    pub rows: Vec<CheckRow>,
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
    pub stopped: Option<String>,
    /// The JSON report (`jrpc probe --format json`), for Export JSON.
    pub report: String,
    /// A plain JSON-RPC server answered `rpc.discover` with an OpenRPC document (asked after the
    /// checks, apart from them): the page then probes its API under that document.
    #[serde(default)]
    pub discovered: bool,
}

/// The Probe under an OpenRPC document, run by the API's worker (`crate::api::ApiRequest::Probe`,
/// [`super::api_side`]): `jrpc probe --openrpc DOC URL` (or `--openrpc discover` when no document
/// is given, the request's `document`), with `--skip-method` and `--max-calls`. Its outcome comes
/// back as a [`ProbeEvent`], as the Probe's worker sends it. Written by the Probe (in the views'
/// module) and read by the API's worker only: the page passes its JSON text on unread
/// (docs/size-rules.md 16).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ApiProbe {
    pub run: u32,
    pub url: String,
    pub websocket: bool,
    pub protocol: String,
    pub headers: Vec<(String, String)>,
    /// Methods never called (`jrpc probe --skip-method`).
    pub skip_methods: Vec<String>,
    /// The most method calls (`jrpc probe --max-calls`).
    pub max_calls: usize,
}
