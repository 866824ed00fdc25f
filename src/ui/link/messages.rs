//! What the page and the live link's worker say to each other: JSON text (serde) both ways, one
//! message per `postMessage`, in the order they happen. The page sends [`LinkRequest`]s (read by
//! the worker's wasm, [`super::transport`]); the worker sends [`LinkEvent`]s, which the page reads
//! ([`super::page_side`]). The worker's readiness and its files not loading are said by its main
//! and its loader as every worker's are (`{"event": …}`, `crate::ui::lazy_worker`), never in this
//! form.

use serde::{Deserialize, Serialize};

use super::LinkState;

/// The page to the worker. Every request carries the page's connection number (`generation`):
/// the worker drops a `send` of a connection it no longer runs, and its events carry the number
/// back, so that the page drops what an older connection says late.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "request", rename_all = "snake_case")]
pub enum LinkRequest {
    /// Connect to the endpoint (closing any connection first): a WebSocket opens (and
    /// reconnects with backoff when asked to); HTTP has nothing to open, each `send` is a POST.
    Connect { generation: u32, endpoint: Endpoint },
    /// Send one client document, logged by the page as entry `key` (what it carried is marked
    /// lost with the reason when it cannot go, or its POST fails).
    Send {
        generation: u32,
        text: String,
        key: u64,
    },
    /// Close the connection; `generation` is the page's number after it.
    Disconnect { generation: u32 },
}

/// Where a connection goes and how (the panel's options, checked by the page).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Endpoint {
    pub url: String,
    /// A WebSocket (`ws:`, `wss:`) or HTTP (`http:`, `https:`) endpoint.
    pub websocket: bool,
    /// The WebSocket subprotocol (empty: none).
    pub protocol: String,
    /// The panel's extra HTTP headers.
    pub headers: Vec<(String, String)>,
    /// Reconnect with backoff when a WebSocket connection ends by itself.
    pub auto_reconnect: bool,
}

/// The worker to the page: what happened on connection `generation`. A struct around an
/// externally tagged enum (`{"generation": 3, "news": {"message": {…}}}`): read without buffering
/// the message into serde's `Content` first (docs/size-rules.md 10).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LinkEvent {
    pub generation: u32,
    pub news: LinkNews,
}

/// What the worker tells the page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkNews {
    /// The link's state changed (connecting, open with an MCP session, reconnecting, error).
    State(LinkState),
    /// A message from the server (a WebSocket frame, an HTTP reply's body or one Server-Sent
    /// Event's data), received at `at_us`: microseconds since the Unix epoch, stamped by the
    /// worker when the message was read (`performance.timeOrigin + performance.now()`, the
    /// clock the page's log uses), not when the page gets around to logging it.
    Message { text: String, at_us: u64 },
    /// The WebSocket connection ended: what was in flight is lost (the state follows).
    Closed,
    /// What log entry `key` carried and still waits is lost, for `why`: its POST failed, or
    /// the WebSocket was gone when it was to be sent.
    Lost { key: u64, why: String },
    /// An error the page shows as a notice (a reply that could not be read, an HTTP error
    /// status with an empty body).
    Error { why: String },
}
