//! What the page and the live link's worker say to each other. The page sends
//! [`LinkRequest`]s (read by the worker's wasm); the worker tells [`LinkEvent`]s (read by the
//! page), each with the page's connection number.

use serde::{Deserialize, Serialize};

/// Reconnection attempts in a row (without an open connection between them) before the link
/// gives up (the worker's policy, and what [`LinkState`]'s words say).
pub const RECONNECT_ATTEMPTS: u32 = 8;

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

/// Where the link stands (`data-state` of `link-status`: [`LinkState::as_str`]). Told by the
/// link's worker as it changes (externally tagged, `{"open": {"session": null}}`: read without
/// buffering, docs/size-rules.md 10).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkState {
    Closed,
    Connecting,
    /// Open; an HTTP endpoint that started an MCP session gave its `Mcp-Session-Id`.
    Open {
        session: Option<String>,
    },
    /// The connection ended by itself; the next attempt starts after `delay_ms`.
    Reconnecting {
        attempt: u32,
        delay_ms: u32,
        reason: String,
    },
    /// The link gave up: the reason, in words a user can act on.
    Error(String),
}

impl LinkState {
    pub const fn as_str(&self) -> &'static str {
        match self {
            LinkState::Closed => "closed",
            LinkState::Connecting => "connecting",
            LinkState::Open { .. } => "open",
            LinkState::Reconnecting { .. } => "reconnecting",
            LinkState::Error(_) => "error",
        }
    }
}

impl std::fmt::Display for LinkState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LinkState::Closed => f.write_str("closed"),
            LinkState::Connecting => f.write_str("connecting…"),
            LinkState::Open { session: None } => f.write_str("open"),
            LinkState::Open { session: Some(id) } => write!(f, "open · MCP session {id}"),
            LinkState::Reconnecting {
                attempt,
                delay_ms,
                reason,
            } => write!(
                f,
                "reconnecting: attempt {attempt} of {RECONNECT_ATTEMPTS} in {}.{} s — {reason}",
                delay_ms / 1000,
                delay_ms % 1000 / 100
            ),
            LinkState::Error(reason) => write!(f, "error: {reason}"),
        }
    }
}
