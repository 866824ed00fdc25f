//! The bridge between the page and its views loaded later (the teaching views: the rule
//! reference with the API reference, the quiz, the lessons; the link panel's Probe; the API
//! panel's body), which
//! live in a second wasm module of their own (`src/bin/later_views.rs`,
//! [`crate::ui::later_views`]) that the page loads on the first open of one of them, so that its
//! first load carries none of them. Everything that crosses is here.
//!
//! The module is mounted into each of the page's hosts for it, one Leptos root per host: the
//! teaching views' (`data-testid="teach-views"`, inside the page's teaching `<main>`,
//! `data-later-views="teaching"`), the Probe's (inside the link panel's `probe-fold`,
//! `data-later-views="probe"`) and the API panel's (inside `api-panel`, `data-later-views="api"`).
//! Each side speaks through events on the host:
//! - `views:load` (the page; bubbles to src/ui/boot.js): load the module (`data-lazy-views-js`,
//!   `data-lazy-views-wasm` of `<meta name="app-entry">`; once for every host, again only after
//!   it failed) and mount it into the host; a file that does not load is said back with
//!   `views:unavailable` (detail: why, in words);
//! - `views:show` (the page → the views, a [`ToViews`] as JSON text): the view to show (the
//!   page keeps the route and its one `hashchange` listener) and what the views read of the page;
//! - `views:ask` (the views → the page, a [`FromViews`] as JSON text): what the views ask of the
//!   page (a notice, an example into the editor, an API document loaded, fetched, asked of the
//!   live link or unloaded, a lesson run's copy in the log, a probe in the page's API worker).
//!
//! Both enums are serde's default, externally tagged (`{"show": {…}}`): docs/size-rules.md rule 10.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use wasm_bindgen::{JsCast, JsValue};

use crate::exchange::mock_worker::Record;
use crate::mock::Fixtures;
#[cfg(doc)]
use crate::ui::link::probe::messages::ApiProbe;

/// The page asks src/ui/boot.js to load the module and mount it into the host.
pub const LOAD: &str = "views:load";
/// boot.js says the module's files did not load (detail: why).
pub const UNAVAILABLE: &str = "views:unavailable";
/// The page to the views: a [`ToViews`].
pub const SHOW: &str = "views:show";
/// The views to the page: a [`FromViews`].
pub const ASK: &str = "views:ask";

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
    /// do as the playground's Send), and the reference of the API document in use, if any (a
    /// `crate::api::Reference`'s JSON text as the API's worker wrote it, which the page passes on
    /// unread: docs/size-rules.md 16).
    Context {
        profile: String,
        fixtures: Fixtures,
        auto_answer: bool,
        api: Option<Box<RawValue>>,
    },
    /// What the Probe reads of the page, sent when its root is ready and on every change.
    Probe(ProbeContext),
    /// An event of the probe the page's API worker runs for the Probe ([`FromViews::ProbeApi`]):
    /// the worker's message as it posted it (a `ProbeEvent`, read by the module only).
    ApiProbeEvent { event: String },
    /// The page's API worker could not run the Probe's probe: why.
    ApiProbeUnavailable { reason: String },
    /// What the API panel reads of the page, sent when its root is ready and on every change.
    Api(ApiPanelContext),
    /// The log's rows (src/ui/exchange/rows.rs), sent when its root is ready and on every change
    /// of the log: only what changed since the last ([`LogRows`]).
    Log(LogRows),
    /// Select the first message of the log's entry `key` and bring its row into view (the latest
    /// reply's "Show in the log").
    LogShow { key: u64 },
}

/// What changed in the log's rows the module draws (the newest [`crate::ui::exchange::SHOWN`]
/// entries of the page's log): its copy drops the entries before key `from` and takes `changed`
/// (new entries, and entries whose revision moved) in place (`crate::exchange::Log::copy_update`);
/// `total` is how many entries the page's log holds.
#[derive(Serialize, Deserialize, Debug, Clone, Default)]
pub struct LogRows {
    pub from: u64,
    pub changed: Vec<crate::exchange::Entry>,
    pub total: usize,
}

/// What the API panel (src/ui/api/panel_body.rs) reads of the page's API state: whether a
/// document is being read, the one in use, the one last refused with its problems, and why the
/// API's worker could not run.
#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq)]
pub struct ApiPanelContext {
    /// A document is being read, fetched or checked.
    pub busy: bool,
    /// The document in use, if any.
    pub in_use: Option<DocumentInUse>,
    /// The document last offered and refused: its name and what is wrong with it.
    pub refused: Option<(String, Vec<crate::api::DocumentError>)>,
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
    LoadApi {
        source: crate::ui::api::Source,
        report: bool,
    },
    /// Copy a lesson run's `records` to the page's log, under `peer`.
    CopyToLog { peer: String, records: Vec<Record> },
    /// Run `probe` (an [`ApiProbe`]'s JSON text, which the page passes on unread:
    /// docs/size-rules.md 16) in the page's API worker (it holds the JSON Schema engine and the
    /// document): under the document in use (`under_document`: the page gives its text), else
    /// under the one the server's `rpc.discover` returns. Its events come back as
    /// [`ToViews::ApiProbeEvent`].
    ProbeApi { probe: String, under_document: bool },
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

impl FromViews {
    /// A notice for the user at `level`.
    pub fn notice(level: crate::ui::NoticeLevel, text: String) -> FromViews {
        FromViews::Notify {
            error: level == crate::ui::NoticeLevel::Error,
            text,
        }
    }
}

/// Dispatches `event` on `target` with `detail` (bubbling when `bubbles`).
pub fn dispatch(target: &web_sys::EventTarget, event: &str, detail: &JsValue, bubbles: bool) {
    let init = web_sys::CustomEventInit::new();
    init.set_detail(detail);
    init.set_bubbles(bubbles);
    if let Ok(ev) = web_sys::CustomEvent::new_with_event_init_dict(event, &init) {
        let _ = target.dispatch_event(&ev);
    }
}

/// Sends `message` as `event` (JSON text) on the host.
pub fn send(host: &web_sys::EventTarget, event: &str, message: &impl Serialize) {
    if let Ok(json) = serde_json::to_string(message) {
        dispatch(host, event, &JsValue::from_str(&json), false);
    }
}

/// The detail of a bridge event: its text, or its message (`None` for anything else).
pub fn detail_text(ev: &web_sys::Event) -> Option<String> {
    ev.dyn_ref::<web_sys::CustomEvent>()?.detail().as_string()
}

/// The message a bridge event carries (`None` for anything that is not one).
pub fn message<T: DeserializeOwned>(ev: &web_sys::Event) -> Option<T> {
    serde_json::from_str(&detail_text(ev)?).ok()
}
