//! The live link: the one module that owns the transport to a real endpoint, through gloo-net (a
//! WebSocket split into its `Sink` and `Stream`, a reader and a writer task on `spawn_local`; HTTP
//! POST with `gloo_net::http`), run in a worker of its own that the first Connect starts (the
//! `link-worker` binary: the page's first load carries no transport); nothing else in the UI
//! touches a socket. Shaped like leptos-use's `use_websocket`: the
//! options a connection starts with ([`LinkOptions`]), a state enum with `Display`
//! ([`LinkState`]) and read-only signals out ([`Link::state`], [`Link::session`]).
//!
//! Every frame the server sends goes into the page's one log ([`crate::exchange::Log`]) with
//! direction In and the endpoint as peer: the engine classifies and pairs it. Frames arrive in
//! bursts: the reader task drains what is buffered and records it with one log update, so a
//! flood costs a few renders, not one per frame. A WebSocket connection that ends marks what was
//! still in flight as lost; over HTTP each Send is a POST of its own, and one that fails (no
//! reply, an HTTP error status, a body that cannot be read) marks lost only what it carried, with
//! the reason. A request unanswered after the timeout is marked timed out.
//!
//! Here: the options, the state and the hook ([`provide`], [`use_link`]). The WebSocket and HTTP
//! work is in [`transport`] (in the worker), the page's side of it (the state, the log, the
//! timeouts) in [`page_side`], what the two say in [`crate::wire::link`], the words for what went wrong in [`wording`], the connection panel
//! and the target switch in [`panel`], the panel's Probe (the engine's `jrpc probe` checks over a
//! connection of its own) in [`probe`].

mod page_side;
mod panel;

use std::time::Duration;

use crate::web::kit::lazy_worker::LazyWorker;
use crate::web::kit::prelude::*;
pub use crate::wire::link::LinkState;

pub use crate::web::kit::link_words::reply_text;
use crate::web::kit::link_words::Transport;
pub use panel::{LinkPanel, TargetSelect};

use crate::web::kit::log_words::clock_ms;
use crate::web::page::exchange::LogState;
use crate::web::page::state::AppState;

/// Frames recorded per log update at most (the rest wait for the next round).
const BATCH: usize = 2000;
/// After a burst, how long the reader lets frames pile up before the next log update (ms).
const SETTLE_MS: u32 = 16;
/// The default timeout of a request (seconds).
pub const DEFAULT_TIMEOUT_S: u32 = 30;

/// What a connection starts with (a snapshot of the panel's fields when Connect is pressed).
#[derive(Clone, Debug, PartialEq)]
pub struct LinkOptions {
    /// `ws://`, `wss://`, `http://` or `https://`.
    pub url: String,
    /// WebSocket subprotocol (empty: none).
    pub protocol: String,
    /// Extra HTTP headers, `Name: value` per line (HTTP only).
    pub headers: String,
    /// Reconnect with backoff when a WebSocket connection ends by itself.
    pub auto_reconnect: bool,
    /// A request unanswered after this many seconds is marked timed out.
    pub timeout_s: u32,
}

impl Default for LinkOptions {
    fn default() -> Self {
        LinkOptions {
            url: String::new(),
            protocol: String::new(),
            headers: String::new(),
            auto_reconnect: true,
            timeout_s: DEFAULT_TIMEOUT_S,
        }
    }
}

/// What only this module touches (not Send: it lives in a local StoredValue).
#[derive(Default)]
struct Conn {
    /// Bumped by every connect and disconnect: what the worker says of an older generation is
    /// dropped.
    generation: u32,
    /// Messages received (with the time the worker read them, ms) and not yet in the log
    /// (recorded in batches, see [`Link::flush`]).
    inbox: Vec<(String, f64)>,
    /// A flush of the inbox is scheduled.
    flush_due: bool,
    /// When the inbox was last flushed (ms).
    last_flush: f64,
    /// The transport of the current connection (`None`: not connected).
    transport: Option<Transport>,
    /// The options the current connection started with.
    options: LinkOptions,
    /// The endpoint of the current connection: the log's peer name.
    peer: String,
}

/// The link: its panel fields, its state, and the connection (provided by [`provide`]).
#[derive(Clone, Copy)]
pub struct Link {
    state: RwSignal<LinkState>,
    /// The panel's fields as typed (read when Connect is pressed; the Probe's endpoint).
    pub(crate) draft: RwSignal<LinkOptions>,
    /// Ticks every half second while something waits (ages in the pending list).
    now: RwSignal<f64>,
    conn: StoredValue<Conn, LocalStorage>,
    /// The link's worker (the transport), started by the first Connect.
    worker: StoredValue<Option<LazyWorker>, LocalStorage>,
    log: LogState,
    app: AppState,
}

/// Provides the [`Link`] (App calls it once, after the log exists) and starts the timeout clock.
pub fn provide(app: AppState, log: LogState) -> Link {
    let link = Link {
        state: RwSignal::new(LinkState::Closed),
        draft: RwSignal::new(LinkOptions::default()),
        now: RwSignal::new(clock_ms()),
        conn: StoredValue::new_local(Conn::default()),
        worker: StoredValue::new_local(None),
        log,
        app,
    };
    link.worker.set_value(Some(link.new_worker()));
    provide_context(link);
    if let Ok(handle) = set_interval_with_handle(move || link.tick(), Duration::from_millis(500)) {
        on_cleanup(move || handle.clear());
    }
    link
}

/// The link provided by [`provide`].
pub fn use_link() -> Link {
    expect_context::<Link>()
}
