//! Send to the in-browser mock server, the log and the sequence picture.
//!
//! The log itself is engine data ([`crate::exchange::Log`]): this module keeps it in a signal
//! ([`LogState`], provided by [`provide`]), appends what Send exchanges with the mock server, and
//! renders it. Entries are plain data keyed by their monotonic key and revision; the DOM shows
//! the last [`SHOWN`] entries while the counts stay exact.

//!
//! By concern: the mock server driven by Send ([`mock`], run in a worker of its own started on
//! the first Send or lesson Run: [`mock_worker`] is that worker's main), the log's words ([`wording`]), the
//! pane and its pieces ([`pane`]), one row per entry ([`row`]), the log as a file ([`download`]),
//! the sequence picture ([`picture`]).

mod pane;

pub use pane::LogPane;

use crate::web::kit::prelude::*;

use std::rc::Rc;

use crate::exchange::mock_worker::Session;
use crate::exchange::Log;
use crate::mock::Fixtures;
use crate::web::kit::log_words::MOCK_PEER;
use crate::web::kit::mock_client::{self, append, Took};
use crate::web::page::state::AppState;

/// The log and the page's mock server (in its worker).
#[derive(Clone, Copy)]
pub struct LogState {
    /// Every message exchanged (the persist code saves and restores it:
    /// [`Log::to_json_string`] / [`Log::from_json_str`]).
    pub log: RwSignal<Log>,
    /// The mock server's workers (JSON-RPC's, MCP's): the playground's session (its MCP state
    /// kept between sends), started on the first Send (the lessons run theirs in the teaching
    /// views' module: src/web/views/mod.rs).
    mock: StoredValue<mock_client::MockWorkers, LocalStorage>,
    /// The playground's session starts afresh with the next Send (the first, Clear, a fixtures
    /// switch, a worker that failed).
    fresh: StoredValue<bool>,
    /// Bumped when the playground's session starts afresh: answers for an older one are dropped.
    session: StoredValue<u64>,
    /// The page answers the mock server's own requests as a cooperative client would
    /// (`data-testid="auto-answer"`); off, each waits in the log with a Reply action.
    pub auto_answer: RwSignal<bool>,
    /// What the mock serves under MCP: the learners' tools (add, countdown, …) or the official
    /// conformance suite's (`test_simple_text`, …), as `jrpc serve --fixtures` chooses
    /// (`data-testid="mock-fixtures"`). A change starts a new session.
    pub fixtures: RwSignal<Fixtures>,
    /// Where notices go.
    app: AppState,
}

impl LogState {
    /// Passes each client document of `text` to the mock server, as the server of `profile`
    /// (the page's: what the verdicts call invalid, the mock answers as invalid), logging both
    /// directions when its answer comes (why the automatic answers stopped, when they did, is a
    /// notice). Returns how many documents were sent.
    pub fn send_to_mock(&self, text: &str, profile: crate::rpc::Profile) -> usize {
        let (log, app, session) = (self.log, self.app, self.session);
        let now = session.get_value();
        let took: Took = Rc::new(move |records, stopped| {
            if session.try_get_value() != Some(now) {
                return;
            }
            append(log, MOCK_PEER, records);
            if let Some(stopped) = stopped {
                app.notify(crate::web::kit::notice::NoticeLevel::Info, stopped);
            }
        });
        self.send(
            Session::Playground,
            self.fresh.get_value(),
            text,
            profile,
            took,
        )
    }

    fn send(
        &self,
        session: Session,
        fresh: bool,
        text: &str,
        profile: crate::rpc::Profile,
        took: Took,
    ) -> usize {
        let fixtures = self.fixtures.get_untracked();
        let after = self.fresh;
        let on_failure: Rc<dyn Fn()> = Rc::new(move || after.set_value(true));
        let app = self.app;
        let notify: mock_client::Notify = Rc::new(move |level, text| app.notify(level, text));
        let sent = mock_client::send_documents(
            self.mock,
            notify,
            session,
            fixtures,
            fresh,
            text,
            profile,
            self.auto_answer.get_untracked(),
            took,
            on_failure,
        );
        if sent > 0 && session == Session::Playground {
            self.fresh.set_value(false);
        }
        sent
    }

    /// The playground's session starts afresh with the next Send; what an older one still
    /// answers is dropped.
    fn restart(&self) {
        self.fresh.set_value(true);
        self.session.update_value(|s| *s += 1);
    }

    /// Empties the log and starts a fresh mock server (a new MCP session).
    pub fn clear(&self) {
        self.log.update(Log::clear);
        self.restart();
    }

    /// Serves `fixtures` from now on: a new mock server (a new MCP session); the log stays.
    pub fn serve_fixtures(&self, fixtures: Fixtures) {
        self.fixtures.set(fixtures);
        self.restart();
    }
}

/// Provides [`LogState`] to the page (App calls it once, after providing [`AppState`]).
pub fn provide(app: AppState) -> LogState {
    let log_state = LogState {
        log: RwSignal::new(Log::new()),
        mock: mock_client::worker(mock_client::SchemaChecks::UnderMcp),
        fresh: StoredValue::new(true),
        session: StoredValue::new(0),
        app,
        auto_answer: RwSignal::new(false),
        fixtures: RwSignal::new(Fixtures::Friendly),
    };
    provide_context(log_state);
    log_state
}

/// The log state, provided by [`provide`].
pub fn use_log() -> LogState {
    expect_context::<LogState>()
}
