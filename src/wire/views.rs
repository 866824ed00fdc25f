//! What the page and its views loaded later (the `later-views` module: the teaching views, the
//! Probe, the API panel's body, the log's rows) say to each other: the page tells [`ToViews`], the
//! views ask [`FromViews`]. Both are serde's default, externally tagged (`{"show": {…}}`):
//! docs/size-rules.md rule 10.

use serde::{Deserialize, Serialize};

use super::api::{DocumentError, Reference, Source};
use super::probe::{ApiProbe, ProbeEvent};
use super::Passed;
use crate::exchange::mock_worker::Record;
use crate::mock::Fixtures;

/// What the page tells the views.
#[derive(Serialize, Deserialize, Debug, Clone)]
#[serde(rename_all = "snake_case")]
pub enum ToViews {
    /// Show the view of this URL fragment (`#/reference/RULE`, `#/quiz/…`, `#/lessons/N`;
    /// nothing for the playground's).
    Show { fragment: String },
    /// What the views read of the page, sent when the module is ready and on every change: the
    /// editor's profile (`jsonrpc`, `mcp:<version>`: a quiz's own message is checked with it),
    /// what the mock serves and whether the page answers the mock's own requests (a lesson's runs
    /// do as the playground's Send), and the reference of the API document in use, if any (as
    /// the API's worker wrote it, which the page passes on unread: docs/size-rules.md 16).
    Context {
        profile: String,
        fixtures: Fixtures,
        auto_answer: bool,
        api: Option<Passed<Reference>>,
    },
    /// What the Probe reads of the page, sent when its root is ready and on every change.
    Probe(ProbeContext),
    /// An event of the probe the page's API worker runs for the Probe ([`FromViews::ProbeApi`]),
    /// as the worker wrote it (read by the module only).
    ApiProbeEvent { event: Passed<ProbeEvent> },
    /// The page's API worker could not run the Probe's probe: why.
    ApiProbeUnavailable { reason: String },
    /// What the API panel reads of the page, sent when its root is ready and on every change.
    Api(ApiPanelContext),
    /// The log's rows, sent when its root is ready and on every change
    /// of the log: only what changed since the last ([`LogRows`]).
    Log(LogRows),
    /// Select the first message of the log's entry `key` and bring its row into view (the latest
    /// reply's "Show in the log").
    LogShow { key: u64 },
}

/// What changed in the log's rows the module draws (the newest `SHOWN`
/// entries of the page's log): its copy drops the entries before key `from` and takes `changed`
/// (new entries, and entries whose revision moved) in place (`crate::exchange::Log::copy_update`);
/// `total` is how many entries the page's log holds.
#[derive(Serialize, Deserialize, Debug, Clone, Default)]
pub struct LogRows {
    pub from: u64,
    pub changed: Vec<crate::exchange::Entry>,
    pub total: usize,
}

/// What the API panel (src/web/views/api/panel_body.rs) reads of the page's API state: whether a
/// document is being read, the one in use, the one last refused with its problems, and why the
/// API's worker could not run.
#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq)]
pub struct ApiPanelContext {
    /// A document is being read, fetched or checked.
    pub busy: bool,
    /// The document in use, if any.
    pub in_use: Option<DocumentInUse>,
    /// The document last offered and refused: its name and what is wrong with it.
    pub refused: Option<(String, Vec<DocumentError>)>,
    /// Why the API's worker could not run, if it could not.
    pub failure: Option<String>,
}

/// The document in use, as the API panel names it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct DocumentInUse {
    pub title: String,
    pub version: String,
    /// How many methods it describes.
    pub methods: usize,
    /// Where it came from: a file name, "pasted", the URL, "rpc.discover at …".
    pub from: String,
}

/// What the Probe reads of the page: the link panel's endpoint fields as typed (the Probe opens a
/// connection of its own to it) and whether an API document is in use (the Probe then runs under
/// it, in the page's API worker).
#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq)]
pub struct ProbeContext {
    /// The endpoint (`ws://`, `wss://`, `http://`, `https://`).
    pub url: String,
    /// The WebSocket subprotocol (empty: none).
    pub protocol: String,
    /// Extra HTTP headers, `Name: value` per line.
    pub headers: String,
    /// An OpenRPC document is in use (the API panel).
    pub api_loaded: bool,
}

/// What the views ask of the page.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum FromViews {
    /// The module is mounted and listens: the page sends the context and the view.
    Ready,
    /// A notice for the user (`error`: an error, else a note that goes by itself).
    Notify { error: bool, text: String },
    /// Put `text` into the editor with `profile`, show the playground, and say so with `what`
    /// (a reference entry's or an API example's "Try it", a lesson's "Open").
    OpenInPlayground {
        text: String,
        profile: String,
        what: String,
    },
    /// Load `source` as the API document (`report`: a notice says how that went).
    LoadApi { source: Source, report: bool },
    /// Copy a lesson run's `records` to the page's log, under `peer`.
    CopyToLog { peer: String, records: Vec<Record> },
    /// Run `probe` (which the page passes on unread:
    /// docs/size-rules.md 16) in the page's API worker (it holds the JSON Schema engine and the
    /// document): under the document in use (`under_document`: the page gives its text), else
    /// under the one the server's `rpc.discover` returns. Its events come back as
    /// [`ToViews::ApiProbeEvent`].
    ProbeApi {
        probe: Passed<ApiProbe>,
        under_document: bool,
    },
    /// Stop the probe the page's API worker runs, if any.
    ProbeApiCancel,
    /// Fetch the document at `url` and load it as the API document (the API panel's URL).
    FetchApi { url: String },
    /// Stop using the API document (the API panel's Unload).
    UnloadApi,
    /// Ask the live link's server for its document (`rpc.discover`) and load it.
    DiscoverApi,
    /// Put a client's answer to the server's request `raw` (a log row's Reply) in the editor.
    LogReply { raw: String },
    /// Put the retry answering the input-required result of the log's entry `key` (a log row's
    /// Answer) in the editor, to be sent to the mock (`mock`) or the live link.
    LogAnswer { key: u64, mock: bool },
}
