//! Send to the in-browser mock server: each client document of the editor goes to the page's
//! mock, both directions are logged, the server's own requests answered as [`converse`] decides.

use crate::ui::prelude::*;

use crate::exchange::round::{converse, AUTO_ROUNDS};
use crate::exchange::Log;
use crate::json::{split_stream, Direction as Side};
use crate::mock::MockServer;

use super::{clock_ms, MOCK_PEER};

/// Passes each client document of `text` to `server`, as the server of `profile` (what the
/// verdicts call invalid, the mock answers as invalid), logging both directions in `log`.
/// Returns how many documents were sent.
pub fn send_to(
    server: StoredValue<MockServer>,
    log: RwSignal<Log>,
    text: &str,
    profile: crate::rpc::Profile,
    auto: bool,
) -> usize {
    send_noting(server, log, text, profile, auto).0
}

/// [`send_to`], and why the automatic answers stopped when they did
/// ([`crate::exchange::round::converse`]: the server's requests and input-required rounds).
pub(super) fn send_noting(
    server: StoredValue<MockServer>,
    log: RwSignal<Log>,
    text: &str,
    profile: crate::rpc::Profile,
    auto: bool,
) -> (usize, Option<String>) {
    let stream = split_stream(text.as_bytes());
    let spans: Vec<_> = stream
        .segments
        .iter()
        .filter(|s| s.direction != Some(Side::Server))
        .map(|s| s.span)
        .collect();
    if spans.is_empty() {
        return (0, None);
    }
    server.update_value(|s| s.set_profile(profile));
    let mut stopped = None;
    log.update(|log| {
        for span in &spans {
            let doc = &text[span.start..span.end];
            let note = server
                .try_update_value(|s| {
                    converse(s, log, MOCK_PEER, doc, auto, &mut clock_ms, AUTO_ROUNDS)
                })
                .flatten();
            stopped = stopped.take().or(note);
        }
    });
    (spans.len(), stopped)
}
