//! The page's side of the live link: the connection runs in the link's worker
//! ([`super::transport`], the `link-worker` binary, started by the first Connect through
//! [`LazyWorker`]: the page's first load carries no transport); the page keeps the state, the
//! log entries, the timeouts of requests and the pending list, sends the worker
//! [`LinkRequest`]s and turns its [`LinkEvent`]s into the log and the state.
//!
//! Times: a message the page sends is logged (and stamped) when the page hands it to the worker;
//! a message from the server is stamped by the worker when it reads it (`at_us`), so a latency
//! is the server's plus the hop from the page to the worker (well under a millisecond on an idle
//! page), and never the time the page took to log the reply.

use serde_json::value::RawValue;
use std::rc::Rc;
use std::time::Duration;

use crate::exchange::{Direction, Status};
use crate::json::{split_stream, Direction as Side};
use crate::web::kit::lazy_worker::LazyWorker;
use crate::web::kit::log_words::clock_ms;
use crate::web::kit::notice::NoticeLevel;
use crate::web::kit::prelude::*;

use crate::web::kit::link_words::{check_url, parse_headers};
use crate::web::page::link::{Link, LinkOptions, LinkState, Transport, BATCH, SETTLE_MS};
use crate::wire::link::{Endpoint, LinkEvent, LinkNews, LinkRequest};

/// The `<meta name="app-entry">` attributes naming the link's worker (Trunk.toml
/// `pattern_script`): its glue and its wasm (the loader is every worker's, `kit::lazy_worker`).
const FILES: [&str; 2] = ["data-lazy-link-js", "data-lazy-link-wasm"];

impl Link {
    /// The link's worker, not started until the first Connect.
    pub(super) fn new_worker(self) -> LazyWorker {
        let events = move |body: &RawValue| self.on_worker_message(body.get());
        LazyWorker::new(FILES, Some(Rc::new(events)))
    }

    /// The connection state, to read: only the link itself writes it. (The signal itself, not a
    /// read-only `Signal` wrapper: that would compile Leptos' wrapper code for this one type;
    /// docs/size-rules.md, 4.)
    pub fn state(&self) -> RwSignal<LinkState> {
        self.state
    }

    fn current(&self, generation: u32) -> bool {
        self.conn.with_value(|c| c.generation == generation)
    }

    /// Marks what has waited longer than the timeout, and moves the clock of the pending list.
    pub(super) fn tick(&self) {
        let timeout_ms = f64::from(self.conn.with_value(|c| c.options.timeout_s).max(1)) * 1000.0;
        let now = clock_ms();
        // Messages of an endpoint that is not (or no longer) connected wait for nothing: after a
        // reload the restored log may hold some. They are lost.
        let live = self
            .conn
            .with_value(|c| c.transport.map(|_| c.peer.clone()));
        let orphan = self.log.log.with_untracked(|l| {
            if l.counts().waiting == 0 {
                return None;
            }
            l.entries()
                .iter()
                .find(|e| {
                    e.peer != crate::web::kit::log_words::MOCK_PEER
                        && Some(&e.peer) != live.as_ref()
                        && e.msgs.iter().any(|m| m.status.is_waiting())
                })
                .map(|e| e.peer.clone())
        });
        if let Some(peer) = orphan {
            self.mark_lost(&peer);
        }
        let (waiting, due) = self.log.log.with_untracked(|l| {
            if l.counts().waiting == 0 {
                return (false, false);
            }
            let due = l.entries().iter().any(|e| {
                e.direction == Direction::Out
                    && e.peer != crate::web::kit::log_words::MOCK_PEER
                    && now - e.time_ms >= timeout_ms
                    && e.msgs.iter().any(|m| m.status == Status::Pending)
            });
            (true, due)
        });
        if due {
            self.log.log.update(|l| {
                l.expire(now, timeout_ms);
            });
        }
        if waiting {
            self.now.set(now);
        }
    }

    /// Connects with the panel's options (closing any connection first); the first Connect
    /// starts the link's worker.
    pub fn connect(&self) {
        self.disconnect();
        let options = self.draft.get_untracked();
        let url = options.url.trim().to_string();
        let transport = match check_url(&url) {
            Ok(t) => t,
            Err(reason) => return self.state.set(LinkState::Error(reason)),
        };
        let headers = match parse_headers(&options.headers) {
            Ok(h) => h,
            Err(reason) => return self.state.set(LinkState::Error(reason)),
        };
        let generation = self.conn.try_update_value(|c| {
            c.generation += 1;
            c.transport = Some(transport);
            c.options = LinkOptions {
                url: url.clone(),
                ..options.clone()
            };
            c.peer = url.clone();
            c.generation
        });
        let Some(generation) = generation else { return };
        // Connecting until the worker says otherwise (an HTTP endpoint: open once the worker
        // runs).
        self.state.set(LinkState::Connecting);
        let endpoint = Endpoint {
            url,
            websocket: transport == Transport::Ws,
            protocol: options.protocol.trim().to_string(),
            headers,
            auto_reconnect: options.auto_reconnect,
        };
        self.tell(&LinkRequest::Connect {
            generation,
            endpoint,
        });
    }

    /// Closes the connection; what was in flight is marked lost.
    pub fn disconnect(&self) {
        let Some((generation, was_connected, peer)) = self.conn.try_update_value(|c| {
            c.generation += 1;
            // Frames the worker sent and the page has not logged yet go.
            c.inbox.clear();
            c.flush_due = false;
            let was_connected = c.transport.take().is_some();
            (c.generation, was_connected, c.peer.clone())
        }) else {
            return;
        };
        if was_connected
            && self
                .worker
                .with_value(|w| w.as_ref().is_some_and(LazyWorker::started))
        {
            self.tell(&LinkRequest::Disconnect { generation });
        }
        if !peer.is_empty() {
            self.mark_lost(&peer);
        }
        if self.state.get_untracked() != LinkState::Closed {
            self.state.set(LinkState::Closed);
        }
    }

    /// Sends `request` to the link's worker (starting it on first use; what is sent before it is
    /// ready waits for it). A worker that does not load or fails ends the connection, saying why.
    fn tell(&self, request: &LinkRequest) {
        let generation = self.conn.with_value(|c| c.generation);
        let link = *self;
        let failed = move |why: String| link.worker_failed(generation, why);
        // Serialising these plain values cannot fail.
        let text = serde_json::to_string(request).unwrap_or_default();
        self.worker.update_value(|w| {
            if let Some(w) = w {
                w.tell(&text, Box::new(failed));
            }
        });
    }

    /// The link's worker did not load, or failed: connection `generation` is over (Connect
    /// starts a new worker).
    fn worker_failed(&self, generation: u32, why: String) {
        if !self.current(generation) {
            return;
        }
        self.flush(generation, usize::MAX);
        let peer = self.conn.try_update_value(|c| {
            c.transport = None;
            c.peer.clone()
        });
        if let Some(peer) = peer {
            self.mark_lost(&peer);
        }
        self.state.set(LinkState::Error(format!(
            "the live link could not run: {why}. Press Connect to try again"
        )));
    }

    /// A message of the link's worker (every one is a [`LinkEvent`]); `Err`: not one (the worker
    /// is then ended as failed).
    fn on_worker_message(&self, text: &str) -> Result<(), String> {
        let LinkEvent { generation, news } =
            serde_json::from_str::<LinkEvent>(text).map_err(|e| e.to_string())?;
        if !self.current(generation) {
            // What a connection closed since still said.
            return Ok(());
        }
        if let LinkNews::Message { text, at_us } = news {
            // u64 microseconds to f64 milliseconds: exact below 2^53 µs (the year 2255).
            self.on_message(generation, text, at_us as f64 / 1000.0);
            return Ok(());
        }
        // In order: what arrived before this news is logged first.
        self.flush(generation, usize::MAX);
        match news {
            LinkNews::State(state) => self.state.set(state),
            LinkNews::Closed => {
                let peer = self.conn.with_value(|c| c.peer.clone());
                self.mark_lost(&peer);
            }
            LinkNews::Lost { key, why } => self.entry_lost(key, &why),
            LinkNews::Error { why } => self.app.notify(NoticeLevel::Error, why),
            LinkNews::Message { .. } => {}
        }
        Ok(())
    }

    fn mark_lost(&self, peer: &str) {
        if self.log.log.with_untracked(|l| l.counts().waiting > 0) {
            self.log.log.update(|l| {
                l.mark_lost(peer);
            });
        }
    }

    /// What log entry `key` carried and still waits is lost, for `reason`; other messages in
    /// flight to the endpoint go on.
    fn entry_lost(&self, key: u64, reason: &str) {
        let waits = self.log.log.with_untracked(|l| {
            l.get(key)
                .is_some_and(|e| e.msgs.iter().any(|m| m.status.is_waiting()))
        });
        if waits {
            self.log.log.update(|l| {
                l.mark_entry_lost(key, reason);
            });
        }
    }

    /// Sends each client document of `text` over the link. Returns how many were sent, or why
    /// nothing was.
    pub fn send(&self, text: &str) -> Result<usize, String> {
        match self.state.get_untracked() {
            LinkState::Open { .. } => {}
            LinkState::Connecting | LinkState::Reconnecting { .. } => {
                return Err("The link is not open yet: wait until its state says open, or send to the mock server.".into())
            }
            LinkState::Closed | LinkState::Error(_) => {
                return Err("The link is not connected: enter an endpoint and press Connect, or send to the mock server.".into())
            }
        }
        let stream = split_stream(text.as_bytes());
        let docs: Vec<String> = stream
            .segments
            .iter()
            .filter(|s| s.direction != Some(Side::Server))
            .map(|s| text[s.span.start..s.span.end].to_string())
            .collect();
        if docs.is_empty() {
            return Ok(0);
        }
        let (peer, connected, generation) = self
            .conn
            .with_value(|c| (c.peer.clone(), c.transport.is_some(), c.generation));
        if !connected {
            return Err("The link is not connected.".into());
        }
        // Logged, and stamped, as handed to the worker (see the module's note on times).
        let now = clock_ms();
        let keys = self.log.log.try_update(|l| {
            docs.iter()
                .map(|doc| l.record(&peer, Direction::Out, now, doc.as_str()))
                .collect::<Vec<u64>>()
        });
        let count = docs.len();
        for (text, key) in docs.into_iter().zip(keys.unwrap_or_default()) {
            self.tell(&LinkRequest::Send {
                generation,
                text,
                key,
            });
        }
        Ok(count)
    }

    /// A message from the server, read at `at` (ms): into the inbox, and a flush scheduled if
    /// none is (at once after a quiet spell, [`SETTLE_MS`] after the last flush in a burst, so a
    /// flood costs a few log updates).
    fn on_message(&self, generation: u32, text: String, at: f64) {
        let delay = self.conn.try_update_value(|c| {
            c.inbox.push((text, at));
            if c.flush_due {
                return None;
            }
            c.flush_due = true;
            Some(if clock_ms() - c.last_flush < f64::from(SETTLE_MS) {
                SETTLE_MS
            } else {
                0
            })
        });
        if let Some(ms) = delay.flatten() {
            self.flush_after(generation, ms);
        }
    }

    fn flush_after(&self, generation: u32, ms: u32) {
        let link = *self;
        set_timeout(
            move || link.flush(generation, BATCH),
            Duration::from_millis(u64::from(ms)),
        );
    }

    /// Records up to `most` messages of the inbox with one log update, each with the time the
    /// worker read it; schedules the rest.
    fn flush(&self, generation: u32, most: usize) {
        if !self.current(generation) {
            return;
        }
        let Some((messages, more, peer)) = self.conn.try_update_value(|c| {
            let messages: Vec<(String, f64)> = c.inbox.drain(..c.inbox.len().min(most)).collect();
            c.last_flush = clock_ms();
            c.flush_due = !c.inbox.is_empty();
            (messages, c.flush_due, c.peer.clone())
        }) else {
            return;
        };
        if !messages.is_empty() {
            self.log.log.update(|l| {
                for (text, at) in messages {
                    l.record(&peer, Direction::In, at, text);
                }
            });
        }
        if more {
            self.flush_after(generation, SETTLE_MS);
        }
    }

    /// Puts `answer` (a response to a request the server sent) in the editor, as one undoable
    /// edit, and sends to the link.
    pub fn prefill_reply(&self, answer: &str) {
        self.app.replace_text_undoably(answer);
        self.app.target.set(crate::web::page::state::Target::Link);
    }
}
