//! The one envelope of every crossing between the page (or the views' module) and a worker: a
//! request carries an id and its answer the same id; what a worker says of its own is an event;
//! the worker's readiness and its files not loading are envelopes too. The body is the
//! crossing's own message ([`super::mock`], [`super::api`], [`super::probe`], [`super::link`]),
//! embedded as JSON (never as a string of JSON).
//!
//! Serde's default, externally tagged form: `{"ask":{"id":3,"body":{…}}}`,
//! `{"answer":{"id":3,"body":{…}}}`, `{"event":{"body":{…}}}`, `"ready"`.

use serde::{Deserialize, Serialize};

/// What the page (or the views' module) sends a worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToWorker<B> {
    /// Load the worker's own glue (`js`) and wasm (`wasm`), absolute URLs: read by the workers'
    /// loader (src/web/js/worker-boot.js), the first message of every worker.
    Load { js: String, wasm: String },
    /// A request whose answer comes back as [`FromWorker::Answer`] with the same `id`.
    Ask { id: u32, body: B },
    /// A request that gets no answer (what it makes the worker do comes as its events).
    Tell { body: B },
}

/// What a worker sends back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FromWorker<B> {
    /// The worker's main runs: requests may go.
    Ready,
    /// The worker's files did not load (said by its loader): why, in words.
    Unavailable { reason: String },
    /// The answer to the request `id`.
    Answer { id: u32, body: B },
    /// Something the worker says of its own, answering no request (a probe's end, a frame from
    /// the live link's server).
    Event { body: B },
}

/// [`ToWorker::Ask`] around a body that is already JSON text (`body`: serde's output of the
/// crossing's request), written without reading the body again.
pub fn ask_text(id: u32, body: &str) -> String {
    format!("{{\"ask\":{{\"id\":{id},\"body\":{body}}}}}")
}

/// [`ToWorker::Tell`] around a body that is already JSON text.
pub fn tell_text(body: &str) -> String {
    format!("{{\"tell\":{{\"body\":{body}}}}}")
}

/// [`FromWorker::Answer`] around a body that is already JSON text.
pub fn answer_text(id: u32, body: &str) -> String {
    format!("{{\"answer\":{{\"id\":{id},\"body\":{body}}}}}")
}

/// [`FromWorker::Event`] around a body that is already JSON text.
pub fn event_text(body: &str) -> String {
    format!("{{\"event\":{{\"body\":{body}}}}}")
}

/// [`FromWorker::Ready`] as it crosses.
pub const READY: &str = "\"ready\"";
