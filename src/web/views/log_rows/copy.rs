//! The views' module's copy of the page's log: what the rows ([`super::rows`], [`super::row`])
//! read and share.

use crate::web::kit::prelude::*;

use crate::exchange::{At, Log};
use crate::web::kit::log_words::SHOWN;
use crate::web::kit::views_port::{FromViews, LogRows as Changes, PagePort};

/// The module's copy of the page's log (its newest [`SHOWN`] entries) and what the rows share.
/// The rows read their entries' rounds (MCP 2026-07-28) in the copy: a round that began before
/// its oldest entry is numbered from what it holds (only in a log of more than [`SHOWN`]).
#[derive(Clone, Copy)]
pub(super) struct LogCopy {
    /// The copy ([`Log::copy_update`]).
    pub log: RwSignal<Log>,
    /// How many entries the page's log holds.
    pub total: RwSignal<usize>,
    /// The selected message: its row, its partner's and their arrows are marked.
    pub selected: RwSignal<Option<At>>,
    /// The list (`data-testid="log"`): "Show in the log" brings a row of it into view.
    pub list: NodeRef<leptos::html::Ol>,
    /// The port of the page's host it is mounted in.
    pub port: PagePort,
}

impl LogCopy {
    /// An empty copy, asking the page through `host`.
    pub fn new(host: web_sys::HtmlElement) -> LogCopy {
        LogCopy {
            log: RwSignal::new(Log::new()),
            total: RwSignal::new(0),
            selected: RwSignal::new(None),
            list: NodeRef::new(),
            port: PagePort::new(host),
        }
    }

    /// Asks the page for `message`.
    pub fn ask(&self, message: FromViews) {
        self.port.ask(message);
    }

    /// Takes what changed in the page's log; an emptied log (cleared) forgets the selection.
    pub fn take(&self, changes: Changes) {
        self.log
            .update(|l| l.copy_update(changes.from, changes.changed));
        self.total.set(changes.total);
        if self.log.with_untracked(Log::is_empty) {
            self.selected.set(None);
        }
    }

    /// Selects the entry `key`'s first message and brings its row into view.
    pub fn show(&self, key: u64) {
        self.selected.set(Some(At { key, item: 0 }));
        // The list shows the copy's entries in order, one row each: the entry's place there is
        // its row's.
        let place = self
            .log
            .with_untracked(|l| l.tail(SHOWN).iter().position(|e| e.key == key));
        let row = self
            .list
            .get_untracked()
            .zip(place)
            .and_then(|(list, i)| list.children().item(i as u32));
        if let Some(row) = row {
            row.scroll_into_view_with_bool(false);
        }
    }
}
