//! Send to the in-browser mock server, the log and the sequence picture.
//!
//! The log itself is engine data ([`crate::exchange::Log`]): this module keeps it in a signal
//! ([`LogState`], provided by [`provide`]), appends what Send exchanges with the mock server, and
//! renders it. Entries are plain data keyed by their monotonic key and revision; the DOM shows
//! the last [`SHOWN`] entries while the counts stay exact.

//!
//! By concern: the mock server driven by Send ([`mock`]), the log's words ([`wording`]), the
//! pane and its pieces ([`pane`]), one row per entry ([`row`]), the log as a file ([`download`]),
//! the sequence picture ([`picture`]).

mod download;
mod mock;
mod pane;
mod picture;
mod row;
mod wording;

pub(crate) use download::{download, file_stamp};
pub use mock::send_to;
pub use pane::{LastReply, LogPane};
pub(crate) use picture::SequencePicture;
pub(crate) use wording::{describe_at, BINARY_PREFIX};

use crate::ui::prelude::*;
use web_sys::js_sys;

use super::state::AppState;
use crate::exchange::{At, Log};
use crate::mock::{Fixtures, MockServer};

/// How many entries the list shows (the newest); counts and exports cover all of them.
pub const SHOWN: usize = 500;

/// The peer name of the in-browser mock server in the log.
pub const MOCK_PEER: &str = "mock";

/// The log, what is selected in it, and the page's one mock server.
#[derive(Clone, Copy)]
pub struct LogState {
    /// Every message exchanged (the persist code saves and restores it:
    /// [`Log::to_json_string`] / [`Log::from_json_str`]).
    pub log: RwSignal<Log>,
    /// The message the user selected (its pair is highlighted).
    pub selected: RwSignal<Option<At>>,
    /// The mock server: one per page, its MCP session state kept between sends.
    server: StoredValue<MockServer>,
    /// The page answers the mock server's own requests as a cooperative client would
    /// (`data-testid="auto-answer"`); off, each waits in the log with a Reply action.
    pub auto_answer: RwSignal<bool>,
    /// What the mock serves under MCP: the learners' tools (add, countdown, …) or the official
    /// conformance suite's (`test_simple_text`, …), as `jrpc serve --fixtures` chooses
    /// (`data-testid="mock-fixtures"`). A change starts a new session.
    pub fixtures: RwSignal<Fixtures>,
    /// The list of entries (`data-testid="log"`, a `<li>` per shown entry, in the log's order):
    /// `#/log` scrolls to it and focuses it, "Show in the log" scrolls to a row of it.
    pub list: NodeRef<leptos::html::Ol>,
}

impl LogState {
    /// Passes each client document of `text` to the mock server, as the server of `profile`
    /// (the page's: what the verdicts call invalid, the mock answers as invalid), logging both
    /// directions. Returns how many documents were sent, and why the automatic answers stopped
    /// when they did.
    pub fn send_to_mock(
        &self,
        text: &str,
        profile: crate::rpc::Profile,
    ) -> (usize, Option<String>) {
        mock::send_noting(
            self.server,
            self.log,
            text,
            profile,
            self.auto_answer.get_untracked(),
        )
    }

    /// A mock server of its own, serving what the page's serves (a lesson's run: a fresh session).
    pub fn fresh_server(&self) -> MockServer {
        MockServer::with_fixtures(self.fixtures.get_untracked())
    }

    /// Empties the log and starts a fresh mock server (a new MCP session).
    pub fn clear(&self) {
        self.log.update(Log::clear);
        self.selected.set(None);
        self.server
            .set_value(MockServer::with_fixtures(self.fixtures.get_untracked()));
    }

    /// Serves `fixtures` from now on: a new mock server (a new MCP session); the log stays.
    pub fn serve_fixtures(&self, fixtures: Fixtures) {
        self.fixtures.set(fixtures);
        self.server.set_value(MockServer::with_fixtures(fixtures));
    }
}

/// Provides [`LogState`] to the page (App calls it once, after providing [`AppState`]).
pub fn provide(_state: AppState) -> LogState {
    let log_state = LogState {
        log: RwSignal::new(Log::new()),
        selected: RwSignal::new(None),
        server: StoredValue::new(MockServer::new()),
        auto_answer: RwSignal::new(false),
        fixtures: RwSignal::new(Fixtures::Friendly),
        list: NodeRef::new(),
    };
    provide_context(log_state);
    log_state
}

/// The log state, provided by [`provide`].
pub fn use_log() -> LogState {
    expect_context::<LogState>()
}

/// Unix epoch milliseconds with sub-millisecond precision (the performance clock's origin plus
/// its reading).
pub fn clock_ms() -> f64 {
    window()
        .performance()
        .map_or_else(js_sys::Date::now, |p| p.time_origin() + p.now())
}
