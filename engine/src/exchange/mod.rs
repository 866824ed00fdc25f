//! The exchange log: every message sent to a peer or received from it, in order, classified by the
//! engine and paired by id. Pure Rust (no web dependency): the UI renders it, the persist code
//! saves it ([`Log::to_json_string`] / [`Log::from_json_str`]), the export writes it
//! ([`Log::to_ndjson`], [`Log::to_json_array`]).
//!
//! The model, as the live link will use it too:
//!
//! - an [`Entry`] is one message or batch as it crossed the wire (raw text kept exactly), with a
//!   monotonic `u64` key (never reused, not even after [`Log::clear`]), a time in ms, a
//!   [`Direction`] and a `peer` (`"mock"`, or the link's endpoint): pairing never crosses peers;
//! - each entry holds one [`Msg`] per JSON-RPC message (one for a single message, one per element
//!   of a batch; `[]`, which is not a batch, is one invalid message, answered by one `-32600`);
//! - a request waits ([`Status::Pending`]) until a response with the same id comes back the other
//!   way; then both are [`Status::Paired`] with each other and the latency. Ids compare as JSON
//!   values of their type: `"1"` and `1` differ, `"a"` and `"\u0061"` do not; numbers by their
//!   exact text (`1` and `1.0` differ, as the engine says). A repeated id pairs first-in,
//!   first-out. Messages that can only be answered with `"id": null` (parse errors, invalid
//!   requests without a usable id, `[]`) wait in their own first-in, first-out queue,
//!   with requests whose id is null (legal, if unwise); a result with id null answers the oldest such
//!   request, and is then a valid response (as in a transcript: the engine's `response-null-id-with-result`
//!   holds only for a reply no request with id null waits for);
//! - requests the peer sends us (server-initiated, direction [`Direction::In`]) wait the same way
//!   for our response;
//! - notifications are [`Status::NoReplyExpected`]; a response nobody waits for is
//!   [`Status::Unmatched`]; the link may mark waiting requests [`Status::TimedOut`] (a late reply
//!   still pairs) or [`Status::Lost`]: every one to a peer when its connection drops
//!   ([`Log::mark_lost`]), or those of one entry when the HTTP POST that carried it failed
//!   ([`Log::mark_entry_lost`], with the reason kept in [`Entry::lost_reason`]).
//!
//! Counts ([`Counts`]) are kept exact however many entries a view shows.

pub mod mock_worker;
pub mod round;

use std::collections::{HashMap, VecDeque};
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::json::{minify, parse_document, Node};
use crate::rpc::{self, Document, Kind, Profile};

/// Which way a message went (`"out"`, `"in"` as serde text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Client → server: what we sent.
    Out,
    /// Server → client: what the peer sent.
    In,
}

impl Direction {
    pub const fn as_str(self) -> &'static str {
        match self {
            Direction::Out => "out",
            Direction::In => "in",
        }
    }

    pub fn parse(s: &str) -> Option<Direction> {
        match s {
            "out" => Some(Direction::Out),
            "in" => Some(Direction::In),
            _ => None,
        }
    }

    const fn other(self) -> Direction {
        match self {
            Direction::Out => Direction::In,
            Direction::In => Direction::Out,
        }
    }
}

/// One message of the log: an entry's key and the element of its batch (0 when not a batch).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct At {
    pub key: u64,
    pub item: usize,
}

/// Where a message stands in its conversation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Status {
    /// A request (or something only an error reply can answer) waiting for its reply.
    Pending,
    /// A request and its response, each pointing at the other; `latency_ms` is the response's time
    /// minus the request's.
    Paired { with: At, latency_ms: f64 },
    /// A notification: nothing comes back.
    NoReplyExpected,
    /// A response no request was waiting for.
    Unmatched,
    /// A request without reply after the timeout (a late reply still pairs with it).
    TimedOut,
    /// The request will get no reply: the connection closed while it was in flight, or the HTTP
    /// POST that carried it failed ([`Entry::lost_reason`] says why, when known).
    Lost,
    /// Nothing to pair: e.g. an invalid message from the peer, which we do not answer.
    Unpaired,
}

impl Status {
    pub const fn as_str(&self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Paired { .. } => "paired",
            Status::NoReplyExpected => "no-reply-expected",
            Status::Unmatched => "unmatched",
            Status::TimedOut => "timed-out",
            Status::Lost => "lost",
            Status::Unpaired => "unpaired",
        }
    }

    pub const fn pair(&self) -> Option<(At, f64)> {
        match *self {
            Status::Paired { with, latency_ms } => Some((with, latency_ms)),
            _ => None,
        }
    }

    /// Waiting for a reply (pending or timed out).
    pub const fn is_waiting(&self) -> bool {
        matches!(self, Status::Pending | Status::TimedOut)
    }
}

/// One JSON-RPC message (a whole document, or one element of a batch), as the engine classified it.
/// (Serde: the log's rows the page hands to its views' module, `src/web/kit/views_port.rs`.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Msg {
    #[serde(with = "kind_text")]
    pub kind: Kind,
    /// What an invalid message was trying to be.
    #[serde(with = "kind_text::optional")]
    pub intent: Option<Kind>,
    pub method: Option<String>,
    /// The id's exact source text.
    pub id: Option<String>,
    pub error_code: Option<i64>,
    /// An error reply, an invalid message or a parse error.
    pub is_error: bool,
    /// A short preview: a request's params, a response's result, an error's code and message.
    pub summary: String,
    pub status: Status,
}

/// One document as it crossed the wire. (Serde: as [`Msg`].)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Monotonic, never reused.
    pub key: u64,
    /// Its place in the log since the last [`Log::clear`], from 1: what the page shows (`#1`),
    /// while views are keyed by `key`.
    pub number: u64,
    /// Bumped whenever the status of one of its messages changes (for keyed views).
    pub rev: u32,
    /// Milliseconds (the UI uses the Unix epoch with sub-millisecond precision).
    pub time_ms: f64,
    pub direction: Direction,
    /// Who the other end is: `"mock"`, or a link's endpoint. Pairing stays within one peer.
    pub peer: String,
    /// The exact text.
    pub raw: String,
    /// The document's kind (batch, request, …).
    #[serde(with = "kind_text")]
    pub kind: Kind,
    /// One message, or one per batch element (`[]`: one invalid message).
    pub msgs: Vec<Msg>,
    /// Why its messages were marked [`Status::Lost`], when the link gave a reason (an HTTP POST
    /// that failed); `None` when the connection closed.
    pub lost_reason: Option<String>,
    /// Its part in an input-required round (MCP 2026-07-28), when it has one.
    pub round: Option<RoundPart>,
}

/// An entry's part in an input-required round ([`round`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RoundPart {
    /// An input-required result: what it asks, and the key of the retry that answered it once one
    /// was sent.
    Asks {
        asks: Vec<round::Ask>,
        retried_by: Option<u64>,
    },
    /// A request retrying the request of the input-required result with this key.
    Retries { of: u64 },
}

impl Entry {
    pub fn is_batch(&self) -> bool {
        self.kind == Kind::Batch
    }

    /// True when a message of the entry is an error reply, invalid, or not JSON.
    pub fn has_error(&self) -> bool {
        self.msgs.iter().any(|m| m.is_error)
    }

    /// The single message of a non-batch entry.
    pub fn single(&self) -> Option<&Msg> {
        match self.msgs.as_slice() {
            [m] if !self.is_batch() => Some(m),
            _ => None,
        }
    }
}

/// A message's [`Kind`] as serde text: its name ([`Kind::as_str`]).
mod kind_text {
    use super::Kind;
    use serde::{de, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(kind: &Kind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(kind.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Kind, D::Error> {
        let name = <&str>::deserialize(d)?;
        Kind::parse(name).ok_or_else(|| de::Error::custom(format_args!("unknown kind {name:?}")))
    }

    pub mod optional {
        use super::Kind;
        use serde::{de, Deserialize, Deserializer, Serializer};

        pub fn serialize<S: Serializer>(kind: &Option<Kind>, s: S) -> Result<S::Ok, S::Error> {
            match kind {
                Some(kind) => s.serialize_some(kind.as_str()),
                None => s.serialize_none(),
            }
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Kind>, D::Error> {
            match Option::<&str>::deserialize(d)? {
                None => Ok(None),
                Some(name) => Kind::parse(name)
                    .map(Some)
                    .ok_or_else(|| de::Error::custom(format_args!("unknown kind {name:?}"))),
            }
        }
    }
}

/// Exact counts over the whole log (not only what a view shows).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Entries (documents on the wire).
    pub entries: usize,
    pub out: usize,
    pub r#in: usize,
    /// JSON-RPC messages (batch elements counted one by one).
    pub messages: usize,
    pub requests: usize,
    pub notifications: usize,
    pub responses: usize,
    /// Error replies, invalid messages and parse errors.
    pub errors: usize,
    /// Requests the peer sent us.
    pub server_requests: usize,
    /// Messages waiting for a reply (pending or timed out).
    pub waiting: usize,
    /// Completed pairs (a request and its response count as one).
    pub pairs: usize,
    pub unmatched: usize,
    pub timed_out: usize,
    pub lost: usize,
}

/// What a reply is matched by.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum IdKey {
    Str(String),
    Num(String),
}

/// How a message waits: by id, or for an `"id": null` error reply.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Slot {
    Id(IdKey),
    Null,
}

fn slot_of(id: Option<&str>) -> Slot {
    match id {
        Some(text) if text.starts_with('"') => match parse_document(text.as_bytes(), 0) {
            Ok((parsed, end)) if end == text.len() => match parsed.root.as_str() {
                Some(s) => Slot::Id(IdKey::Str(s.to_string())),
                None => Slot::Null,
            },
            _ => Slot::Null,
        },
        Some(text) if text.starts_with(|c: char| c == '-' || c.is_ascii_digit()) => {
            Slot::Id(IdKey::Num(text.to_string()))
        }
        _ => Slot::Null,
    }
}

/// The log.
#[derive(Clone, Debug, Default)]
pub struct Log {
    entries: Vec<Entry>,
    next_key: u64,
    /// Waiting messages per (peer, direction they were sent in, slot), oldest first.
    waiting: HashMap<(String, Direction, Slot), VecDeque<At>>,
    counts: Counts,
}

/// [`Log::from_json_str`] could not read its input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogError(pub String);

impl fmt::Display for LogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "saved log unreadable: {}", self.0)
    }
}

impl std::error::Error for LogError {}

/// The `format` member of [`Log::to_json_string`]'s object.
pub const FORMAT: &str = "jsonrpc-playground/log";
/// Its version.
pub const FORMAT_VERSION: u64 = 1;

const SUMMARY_CHARS: usize = 80;

impl Log {
    pub fn new() -> Self {
        Log {
            next_key: 1,
            ..Log::default()
        }
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The last `n` entries (what a capped view shows).
    pub fn tail(&self, n: usize) -> &[Entry] {
        &self.entries[self.entries.len().saturating_sub(n)..]
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// The key the next entry gets.
    pub fn next_key(&self) -> u64 {
        self.next_key.max(1)
    }

    /// A copy of some of a log's entries to read (the rows the page's views module draws,
    /// `src/web/page/exchange/rows.rs`): drops the entries before key `from`, then puts each of
    /// `changed` in place of the entry with its key, or in key order when it has none. Nothing
    /// waits in a copy and its counts stay zero: it is read, never paired.
    pub fn copy_update(&mut self, from: u64, changed: Vec<Entry>) {
        let first = self.entries.partition_point(|e| e.key < from);
        self.entries.drain(..first);
        for entry in changed {
            match self.entries.binary_search_by_key(&entry.key, |e| e.key) {
                Ok(i) => self.entries[i] = entry,
                Err(i) => self.entries.insert(i, entry),
            }
        }
        self.next_key = self.entries.last().map_or(from, |e| e.key + 1).max(from);
    }

    /// The entry with this key (keys are sorted: a binary search).
    pub fn get(&self, key: u64) -> Option<&Entry> {
        self.index_of(key).map(|i| &self.entries[i])
    }

    /// The message at `at`.
    pub fn msg(&self, at: At) -> Option<&Msg> {
        self.get(at.key)?.msgs.get(at.item)
    }

    fn index_of(&self, key: u64) -> Option<usize> {
        self.entries.binary_search_by_key(&key, |e| e.key).ok()
    }

    /// Forgets every entry. Keys keep counting up (views keyed by them never see a key twice).
    pub fn clear(&mut self) {
        self.entries.clear();
        self.waiting.clear();
        self.counts = Counts::default();
    }

    /// Appends one document that crossed the wire and pairs it. Returns its key.
    pub fn record(
        &mut self,
        peer: &str,
        direction: Direction,
        time_ms: f64,
        raw: impl Into<String>,
    ) -> u64 {
        let key = self.next_key();
        self.record_as(key, peer, direction, time_ms, raw.into());
        key
    }

    fn record_as(&mut self, key: u64, peer: &str, direction: Direction, time_ms: f64, raw: String) {
        self.next_key = key + 1;
        let time_ms = if time_ms.is_finite() { time_ms } else { 0.0 };
        let (kind, mut msgs, answers) = classify(&raw);
        for (item, (m, answer)) in msgs.iter_mut().zip(answers).enumerate() {
            let at = At { key, item };
            let slot = slot_of(m.id.as_deref());
            let status = match role(m, direction) {
                Role::Asks => {
                    self.waiting
                        .entry((peer.to_string(), direction, slot))
                        .or_default()
                        .push_back(at);
                    Status::Pending
                }
                Role::Tells => Status::NoReplyExpected,
                Role::Answers => {
                    // A result with id null answers the oldest request with id null, and is then valid.
                    let null_id_request = answer.and_then(|valid| {
                        let request = self.take_null_id_request(peer, direction.other())?;
                        *m = valid;
                        Some(request)
                    });
                    match null_id_request
                        .or_else(|| self.take_waiting(peer, direction.other(), &slot))
                    {
                        Some(request) => {
                            let latency_ms =
                                time_ms - self.get(request.key).map_or(time_ms, |e| e.time_ms);
                            self.set_status(
                                request,
                                Status::Paired {
                                    with: at,
                                    latency_ms,
                                },
                            );
                            self.counts.pairs += 1;
                            Status::Paired {
                                with: request,
                                latency_ms,
                            }
                        }
                        None => Status::Unmatched,
                    }
                }
                Role::Alone => Status::Unpaired,
            };
            m.status = status;
        }
        // A single message's verdict may have changed with its pairing: the entry says the same.
        let kind = if kind == Kind::Batch {
            kind
        } else {
            msgs.first().map_or(kind, |m| m.kind)
        };
        self.counts.entries += 1;
        match direction {
            Direction::Out => self.counts.out += 1,
            Direction::In => self.counts.r#in += 1,
        }
        for m in &msgs {
            self.counts.messages += 1;
            match m.kind {
                Kind::Request => self.counts.requests += 1,
                Kind::Notification => self.counts.notifications += 1,
                Kind::Response => self.counts.responses += 1,
                _ => {}
            }
            if m.is_error {
                self.counts.errors += 1;
            }
            if m.kind == Kind::Request && direction == Direction::In {
                self.counts.server_requests += 1;
            }
            let status = m.status;
            self.count_status(&status, 1);
        }
        self.entries.push(Entry {
            key,
            number: self.entries.len() as u64 + 1,
            rev: 0,
            time_ms,
            direction,
            peer: peer.to_string(),
            raw,
            kind,
            msgs,
            lost_reason: None,
            round: None,
        });
        self.link_round(key);
    }

    /// How far back a retry looks for the round it answers.
    const ROUND_LOOKBACK: usize = 1000;

    /// Marks the entry `key` as a round's input-required result, or as the retry of the newest
    /// unanswered round of the same peer whose request had its method and `params.name`.
    fn link_round(&mut self, key: u64) {
        let Some(i) = self.index_of(key) else { return };
        let e = &self.entries[i];
        let Some(m) = e.single() else { return };
        match (e.direction, m.kind, m.status) {
            (Direction::In, Kind::Response, Status::Paired { .. }) => {
                if let Some(asks) = round::asks(&e.raw) {
                    self.entries[i].round = Some(RoundPart::Asks {
                        asks,
                        retried_by: None,
                    });
                }
            }
            (Direction::Out, Kind::Request, _) if round::is_retry(&e.raw) => {
                let Some(call) = round::call_of(&e.raw) else {
                    return;
                };
                let peer = e.peer.clone();
                let start = i.saturating_sub(Self::ROUND_LOOKBACK);
                let asking = (start..i).rev().find(|&j| {
                    let a = &self.entries[j];
                    let open = matches!(
                        a.round,
                        Some(RoundPart::Asks {
                            retried_by: None,
                            ..
                        })
                    );
                    open && a.peer == peer
                        && a.single()
                            .and_then(|m| m.status.pair())
                            .and_then(|(with, _)| self.get(with.key))
                            .and_then(|req| round::call_of(&req.raw))
                            .is_some_and(|c| c == call)
                });
                if let Some(j) = asking {
                    let of = self.entries[j].key;
                    if let Some(RoundPart::Asks { retried_by, .. }) = &mut self.entries[j].round {
                        *retried_by = Some(key);
                    }
                    self.entries[j].rev = self.entries[j].rev.wrapping_add(1);
                    self.entries[i].round = Some(RoundPart::Retries { of });
                }
            }
            _ => {}
        }
    }

    /// Which round the entry `key` belongs to, from 1: an input-required result's request, its
    /// retry (and that retry's reply) are round 1 for the first ask, 2 for the next, …; `None`
    /// when it is part of no round.
    pub fn round_number(&self, key: u64) -> Option<usize> {
        let entry = self.get(key)?;
        let paired = |e: &Entry| {
            e.single()
                .and_then(|m| m.status.pair())
                .and_then(|(w, _)| self.get(w.key))
        };
        let asked = match entry.round {
            Some(RoundPart::Asks { .. }) => paired(entry)?,
            Some(RoundPart::Retries { of }) => paired(self.get(of)?)?,
            // The reply to a retry (its final result, or an error): the retry's round.
            None if entry.direction == Direction::In => {
                let request = paired(entry)?;
                return match request.round {
                    Some(RoundPart::Retries { .. }) => self.round_number(request.key),
                    _ => None,
                };
            }
            None => return None,
        };
        Some(1 + self.retries_before(asked))
    }

    /// How many retries led to `request` (0 for the original request), bounded by the log's length.
    fn retries_before<'l>(&'l self, mut request: &'l Entry) -> usize {
        let mut n = 0;
        while let Some(RoundPart::Retries { of }) = request.round {
            let Some(next) = self
                .get(of)
                .and_then(|a| a.single()?.status.pair())
                .and_then(|(w, _)| self.get(w.key))
            else {
                break;
            };
            n += 1;
            if n > self.entries.len() || next.key >= request.key {
                break;
            }
            request = next;
        }
        n
    }

    /// An id no request sent to `peer` has used: one more than the largest whole-number id among
    /// them (1 when there is none). What a round's retry is sent under.
    pub fn fresh_id(&self, peer: &str) -> u64 {
        self.entries
            .iter()
            .filter(|e| e.direction == Direction::Out && e.peer == peer)
            .flat_map(|e| &e.msgs)
            .filter_map(|m| m.id.as_deref()?.parse::<u64>().ok())
            .max()
            .map_or(1, |n| n.saturating_add(1))
    }

    /// The retry for the input-required result `key`: its request answered and retried under
    /// [`Log::fresh_id`] ([`round::retry`]).
    pub fn retry_for(&self, key: u64) -> Result<String, round::RetryError> {
        let asking = self.get(key).ok_or(round::RetryError::NotInputRequired)?;
        let request = asking
            .single()
            .and_then(|m| m.status.pair())
            .and_then(|(with, _)| self.get(with.key))
            .ok_or(round::RetryError::NotARequest)?;
        round::retry(&request.raw, &asking.raw, self.fresh_id(&asking.peer))
    }

    /// The oldest request with id null sent in `direction` to `peer` that still waits (it waits
    /// with the messages only an `"id": null` error can answer, which a result does not answer).
    fn take_null_id_request(&mut self, peer: &str, direction: Direction) -> Option<At> {
        let k = (peer.to_string(), direction, Slot::Null);
        let queue = self.waiting.get(&k)?;
        let i = queue.iter().position(|at| {
            self.msg(*at)
                .is_some_and(|m| m.kind == Kind::Request && m.id.as_deref() == Some("null"))
        })?;
        let queue = self.waiting.get_mut(&k)?;
        let at = queue.remove(i);
        if queue.is_empty() {
            self.waiting.remove(&k);
        }
        at
    }

    /// The oldest message sent in `direction` to `peer` that waits in `slot`.
    fn take_waiting(&mut self, peer: &str, direction: Direction, slot: &Slot) -> Option<At> {
        let k = (peer.to_string(), direction, slot.clone());
        let queue = self.waiting.get_mut(&k)?;
        let at = queue.pop_front();
        if queue.is_empty() {
            self.waiting.remove(&k);
        }
        at
    }

    fn count_status(&mut self, status: &Status, delta: isize) {
        let field = match status {
            Status::Pending => &mut self.counts.waiting,
            Status::TimedOut => {
                self.counts.waiting = self.counts.waiting.saturating_add_signed(delta);
                &mut self.counts.timed_out
            }
            Status::Unmatched => &mut self.counts.unmatched,
            Status::Lost => &mut self.counts.lost,
            _ => return,
        };
        *field = field.saturating_add_signed(delta);
    }

    fn set_status(&mut self, at: At, status: Status) {
        let Some(i) = self.index_of(at.key) else {
            return;
        };
        let Some(old) = self.entries[i].msgs.get(at.item).map(|m| m.status) else {
            return;
        };
        self.count_status(&old, -1);
        self.count_status(&status, 1);
        let entry = &mut self.entries[i];
        entry.msgs[at.item].status = status;
        entry.rev = entry.rev.wrapping_add(1);
    }

    /// Marks requests we sent that have waited longer than `timeout_ms` at `now_ms` as timed out.
    /// They stay matchable: a late reply pairs with them. Returns how many were marked.
    pub fn expire(&mut self, now_ms: f64, timeout_ms: f64) -> usize {
        let due: Vec<At> = self
            .waiting
            .iter()
            .filter(|((_, d, _), _)| *d == Direction::Out)
            .flat_map(|(_, q)| q.iter().copied())
            .filter(|at| {
                self.get(at.key)
                    .is_some_and(|e| now_ms - e.time_ms >= timeout_ms)
                    && self.msg(*at).is_some_and(|m| m.status == Status::Pending)
            })
            .collect();
        for at in &due {
            self.set_status(*at, Status::TimedOut);
        }
        due.len()
    }

    /// The connection to `peer` closed: whatever still waits (both ways) is lost. Returns how many.
    pub fn mark_lost(&mut self, peer: &str) -> usize {
        let keys: Vec<_> = self
            .waiting
            .keys()
            .filter(|(p, _, _)| p == peer)
            .cloned()
            .collect();
        let mut lost = Vec::new();
        for k in keys {
            lost.extend(self.waiting.remove(&k).unwrap_or_default());
        }
        for at in &lost {
            self.set_status(*at, Status::Lost);
        }
        lost.len()
    }

    /// The HTTP POST that carried entry `key` failed (`reason`, in words a user can act on): its
    /// messages still waiting (the one message, or each request of a batch) are lost, and only
    /// those: other requests to the same peer travel in POSTs of their own. Returns how many.
    pub fn mark_entry_lost(&mut self, key: u64, reason: &str) -> usize {
        let Some(i) = self.index_of(key) else {
            return 0;
        };
        let lost: Vec<At> = (0..self.entries[i].msgs.len())
            .map(|item| At { key, item })
            .filter(|at| self.msg(*at).is_some_and(|m| m.status.is_waiting()))
            .collect();
        if lost.is_empty() {
            return 0;
        }
        self.unwait(&lost);
        for at in &lost {
            self.set_status(*at, Status::Lost);
        }
        self.entries[i].lost_reason = Some(reason.to_string());
        lost.len()
    }

    /// Takes these messages out of the waiting queues.
    fn unwait(&mut self, ats: &[At]) {
        for q in self.waiting.values_mut() {
            q.retain(|w| !ats.contains(w));
        }
        self.waiting.retain(|_, q| !q.is_empty());
    }

    /// Messages still waiting for a reply (pending or timed out), oldest first.
    pub fn waiting(&self) -> Vec<At> {
        let mut pairs: Vec<(u64, u64)> = self
            .waiting
            .values()
            .flat_map(|q| q.iter().map(|at| (at.key, at.item as u64)))
            .collect();
        crate::order::sort_pairs(&mut pairs);
        pairs
            .into_iter()
            .map(|(key, item)| At {
                key,
                item: item as usize,
            })
            .collect()
    }

    // ---- persistence ----------------------------------------------------------------------

    /// The log as a JSON string for storage: `{"format", "version", "next_key", "entries": [{"key",
    /// "time", "direction", "peer", "raw", "fate"?}]}`. Classification and pairing are not stored:
    /// [`Log::from_json_str`] replays the messages through the engine.
    pub fn to_json_string(&self) -> String {
        self.to_json_string_last(usize::MAX)
    }

    /// Like [`Log::to_json_string`] with only the last `n` entries (storage has a quota).
    pub fn to_json_string_last(&self, n: usize) -> String {
        let entries = self
            .tail(n)
            .iter()
            .map(|e| {
                let fate = e.msgs.iter().find_map(|m| match m.status {
                    Status::TimedOut => Some("timed-out"),
                    Status::Lost => Some("lost"),
                    _ => None,
                });
                StoredEntry {
                    key: e.key,
                    time: to_microsecond(e.time_ms),
                    direction: e.direction.as_str(),
                    peer: &e.peer,
                    raw: &e.raw,
                    fate,
                    reason: e.lost_reason.as_deref().filter(|_| fate == Some("lost")),
                }
            })
            .collect();
        let stored = StoredLog {
            format: FORMAT,
            version: FORMAT_VERSION,
            next_key: self.next_key(),
            entries,
        };
        serde_json::to_string(&stored).unwrap_or_default()
    }

    /// Reads what [`Log::to_json_string`] wrote. Never panics: anything that is not such an object
    /// is an error; entries that are damaged (missing members, keys out of order) are skipped.
    pub fn from_json_str(s: &str) -> Result<Log, LogError> {
        let stored: ReadLog = serde_json::from_str(s).map_err(|e| LogError(e.to_string()))?;
        if stored.format.str() != Some(FORMAT) {
            return Err(LogError("not a jsonrpc-playground log".into()));
        }
        match stored.version {
            Loose::U64(FORMAT_VERSION) => {}
            Loose::U64(other) => return Err(LogError(format!("unknown version {other}"))),
            _ => return Err(LogError("no version".into())),
        }
        let entries = stored
            .entries
            .ok_or_else(|| LogError("no entries".into()))?;
        let mut log = Log::new();
        for e in entries.into_iter().filter_map(|e| match e {
            Loose::Object(members) => Some(*members),
            _ => None,
        }) {
            let (Some(key), Some(direction)) =
                (e.key.u64(), e.direction.str().and_then(Direction::parse))
            else {
                continue;
            };
            let Some(raw) = e.raw.into_string() else {
                continue;
            };
            if key < log.next_key() || key == u64::MAX {
                continue;
            }
            let time = e.time.f64().filter(|t| t.is_finite()).unwrap_or(0.0);
            let peer = e.peer.str().unwrap_or("mock");
            log.record_as(key, peer, direction, time, raw);
            let fate = match e.fate.str() {
                Some("timed-out") => Some(Status::TimedOut),
                Some("lost") => Some(Status::Lost),
                _ => None,
            };
            if let Some(fate) = fate {
                log.apply_fate(key, fate);
                if fate == Status::Lost {
                    let reason = e.reason.into_string();
                    if let Some(entry) = log.entries.last_mut().filter(|entry| entry.key == key) {
                        entry.lost_reason = reason;
                    }
                }
            }
        }
        if let Some(next) = stored.next_key.u64() {
            if next > log.next_key() && next < u64::MAX {
                log.next_key = next;
            }
        }
        Ok(log)
    }

    fn apply_fate(&mut self, key: u64, fate: Status) {
        let Some(e) = self.get(key) else { return };
        let waiting: Vec<At> = (0..e.msgs.len())
            .map(|item| At { key, item })
            .filter(|at| self.msg(*at).is_some_and(|m| m.status == Status::Pending))
            .collect();
        if fate == Status::Lost {
            self.unwait(&waiting);
        }
        for at in waiting {
            self.set_status(at, fate);
        }
    }

    // ---- export ---------------------------------------------------------------------------

    /// One line per entry, in order: `{"seq","time","direction","peer","message"}` where
    /// `message` is the document itself (minified, its numbers and member order exact), or
    /// `{"seq","time","direction","peer","raw"}` with the text as a string when it is not JSON.
    pub fn to_ndjson(&self) -> String {
        let mut out = String::new();
        for (i, e) in self.entries.iter().enumerate() {
            out.push_str(&export_line(i + 1, e));
            out.push('\n');
        }
        out
    }

    /// The same objects as [`Log::to_ndjson`] in one JSON array, one element per line.
    pub fn to_json_array(&self) -> String {
        if self.entries.is_empty() {
            return "[]\n".to_string();
        }
        let lines: Vec<String> = self
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| format!("  {}", export_line(i + 1, e)))
            .collect();
        format!("[\n{}\n]\n", lines.join(",\n"))
    }
}

/// A time in ms to the microsecond (what the browser's clock tells), as stored and exported.
fn to_microsecond(x: f64) -> f64 {
    if x.is_finite() {
        (x * 1000.0).round() / 1000.0
    } else {
        0.0
    }
}

/// The log as stored: `{"format", "version", "next_key", "entries": [...]}`.
#[derive(Serialize)]
struct StoredLog<'a> {
    format: &'a str,
    version: u64,
    next_key: u64,
    entries: Vec<StoredEntry<'a>>,
}

/// One entry as stored: `{"key", "time", "direction", "peer", "raw", "fate"?, "reason"?}`.
#[derive(Serialize)]
struct StoredEntry<'a> {
    key: u64,
    time: f64,
    direction: &'a str,
    peer: &'a str,
    raw: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    fate: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
}

/// A stored log as read back: the format and version must be right and the entries an array;
/// everything else is read leniently ([`Loose`]), so that a damaged entry or member is skipped,
/// never a reason to lose the rest.
#[derive(Deserialize)]
struct ReadLog {
    #[serde(default)]
    format: Loose,
    #[serde(default)]
    version: Loose,
    #[serde(default)]
    next_key: Loose,
    entries: Option<Vec<Loose>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ReadMembers {
    key: Loose,
    time: Loose,
    direction: Loose,
    peer: Loose,
    raw: Loose,
    fate: Loose,
    reason: Loose,
}

/// A stored value of whatever type it turned out to be: an entry (`Object`) or a member
/// (`Other`: a type no member has).
#[derive(Default)]
enum Loose {
    U64(u64),
    F64(f64),
    Str(String),
    Object(Box<ReadMembers>),
    #[default]
    Other,
}

impl Loose {
    fn u64(&self) -> Option<u64> {
        match self {
            Loose::U64(n) => Some(*n),
            _ => None,
        }
    }

    fn f64(&self) -> Option<f64> {
        match self {
            Loose::U64(n) => Some(*n as f64),
            Loose::F64(x) => Some(*x),
            _ => None,
        }
    }

    fn str(&self) -> Option<&str> {
        match self {
            Loose::Str(s) => Some(s),
            _ => None,
        }
    }

    fn into_string(self) -> Option<String> {
        match self {
            Loose::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Loose {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Loose;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_u64<E>(self, n: u64) -> Result<Loose, E> {
                Ok(Loose::U64(n))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Loose, E> {
                Ok(u64::try_from(n).map_or(Loose::F64(n as f64), Loose::U64))
            }
            fn visit_f64<E>(self, x: f64) -> Result<Loose, E> {
                Ok(Loose::F64(x))
            }
            fn visit_str<E>(self, s: &str) -> Result<Loose, E> {
                Ok(Loose::Str(s.to_string()))
            }
            fn visit_string<E>(self, s: String) -> Result<Loose, E> {
                Ok(Loose::Str(s))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Loose, E> {
                Ok(Loose::Other)
            }
            fn visit_unit<E>(self) -> Result<Loose, E> {
                Ok(Loose::Other)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Loose, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(Loose::Other)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Loose, A::Error> {
                ReadMembers::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(|members| Loose::Object(Box::new(members)))
            }
        }
        d.deserialize_any(V)
    }
}

/// One exported entry: `{"seq","time","direction","peer","message"}` with the document itself
/// (minified, its numbers and member order exact), or `"raw"` text when it is not JSON.
#[derive(Serialize)]
struct ExportLine<'a> {
    seq: usize,
    time: f64,
    direction: &'a str,
    peer: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Box<RawValue>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    raw: Option<&'a str>,
}

fn export_line(seq: usize, e: &Entry) -> String {
    let message = one_document(&e.raw)
        .and_then(|doc| minify(doc).ok())
        .and_then(|m| RawValue::from_string(m.trim().to_string()).ok());
    let line = ExportLine {
        seq,
        time: to_microsecond(e.time_ms),
        direction: e.direction.as_str(),
        peer: &e.peer,
        raw: message.is_none().then_some(e.raw.as_str()),
        message,
    };
    serde_json::to_string(&line).unwrap_or_default()
}

/// The text when it is exactly one JSON document (surrounding whitespace allowed).
fn one_document(raw: &str) -> Option<&str> {
    let bytes = raw.as_bytes();
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    let (_, end) = parse_document(bytes, start).ok()?;
    bytes[end..]
        .iter()
        .all(u8::is_ascii_whitespace)
        .then(|| raw[start..end].trim())
}

/// How a message takes part in a conversation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// Waits for a reply.
    Asks,
    /// Expects none.
    Tells,
    /// Is a reply.
    Answers,
    /// Neither: nothing to pair.
    Alone,
}

fn role(m: &Msg, direction: Direction) -> Role {
    match (m.kind, m.intent, direction) {
        (Kind::Request, _, _) => Role::Asks,
        (Kind::Notification, _, _) => Role::Tells,
        (Kind::Response, _, _) | (_, Some(Kind::Response), _) => Role::Answers,
        // `[]`, an invalid message, a parse error: a server answers with an error
        // (`"id": null` unless the id is usable). A client answers nothing.
        (Kind::Batch | Kind::Invalid | Kind::ParseError, _, Direction::Out) => Role::Asks,
        _ => Role::Alone,
    }
}

/// The document's kind and its messages (status still to be set), and for each message what it is
/// when it answers a request whose id was null (`Some` only for a result with id null: see
/// [`Document::answers_null_id_request`]).
fn classify(raw: &str) -> (Kind, Vec<Msg>, Vec<Option<Msg>>) {
    let report = rpc::check(raw.as_bytes(), Profile::JsonRpc);
    let Some(doc) = report.documents.first() else {
        return (
            Kind::ParseError,
            vec![blank_msg(Kind::ParseError, "nothing to read".into())],
            vec![None],
        );
    };
    let parsed = parse_document(raw.as_bytes(), doc.span.start)
        .ok()
        .map(|(p, _)| p.root);
    if report.documents.len() > 1 {
        // Two documents in one frame: the peer broke framing. Read it as a parse error.
        return (
            Kind::ParseError,
            vec![blank_msg(Kind::ParseError, "more than one document".into())],
            vec![None],
        );
    }
    let as_answer = |doc: &Document, node: Option<&Node<'_>>| {
        if doc.id.as_deref() != Some("null") {
            return None;
        }
        let mut doc = doc.clone();
        doc.answers_null_id_request()
            .then(|| msg_of(raw, &doc, node))
    };
    match (doc.kind, &parsed) {
        (Kind::Batch, Some(root)) => {
            let nodes = root.as_array().unwrap_or_default();
            let msgs = doc
                .items
                .iter()
                .enumerate()
                .map(|(i, item)| msg_of(raw, item, nodes.get(i)))
                .collect();
            let answers = doc
                .items
                .iter()
                .enumerate()
                .map(|(i, item)| as_answer(item, nodes.get(i)))
                .collect();
            (Kind::Batch, msgs, answers)
        }
        _ => (
            doc.kind,
            vec![msg_of(raw, doc, parsed.as_ref())],
            vec![as_answer(doc, parsed.as_ref())],
        ),
    }
}

fn blank_msg(kind: Kind, summary: String) -> Msg {
    Msg {
        kind,
        intent: None,
        method: None,
        id: None,
        error_code: None,
        is_error: kind != Kind::Batch,
        summary,
        status: Status::Unpaired,
    }
}

fn msg_of(raw: &str, doc: &Document, node: Option<&Node<'_>>) -> Msg {
    let is_error = matches!(doc.kind, Kind::Invalid | Kind::ParseError)
        || doc.error_code.is_some()
        || node.is_some_and(|n| n.get("error").is_some());
    Msg {
        kind: doc.kind,
        intent: doc.intent,
        method: doc.method.as_deref().map(str::to_string),
        id: doc.id.as_deref().map(str::to_string),
        error_code: doc.error_code,
        is_error,
        summary: summary(raw, doc, node),
        status: Status::Unpaired,
    }
}

fn summary(raw: &str, doc: &Document, node: Option<&Node<'_>>) -> String {
    let text = |n: &Node<'_>| compact(raw.get(n.span.start..n.span.end).unwrap_or_default());
    let Some(node) = node else {
        return match doc.kind {
            Kind::ParseError => "not JSON".into(),
            _ => String::new(),
        };
    };
    if node.as_array().is_some_and(<[Node<'_>]>::is_empty) {
        return "[] is not a batch".into();
    }
    if let Some(error) = node.get("error") {
        let code = error.get("code").map(text).unwrap_or_default();
        let message = error
            .get("message")
            .and_then(Node::as_str)
            .unwrap_or_default();
        return truncate(format!("error {code} {message}").trim().to_string());
    }
    if let Some(result) = node.get("result") {
        // An MCP tool's failure is a result: say so first, where a cut summary still shows it.
        if result.get("isError").map(|v| &v.value) == Some(&crate::json::Value::Bool(true)) {
            let said = result
                .get("content")
                .and_then(Node::as_array)
                .and_then(|items| items.iter().find_map(|c| c.get("text")?.as_str()))
                .unwrap_or_default();
            return truncate(
                format!("tool error (isError: true) {said}")
                    .trim()
                    .to_string(),
            );
        }
        return truncate(format!("result {}", text(result)));
    }
    node.get("params")
        .map(|p| truncate(text(p)))
        .unwrap_or_default()
}

/// A value's text on one line (minified when it is JSON).
fn compact(s: &str) -> String {
    minify(s)
        .map(|m| m.trim().to_string())
        .unwrap_or_else(|_| s.split_whitespace().collect::<Vec<_>>().join(" "))
}

fn truncate(s: String) -> String {
    if s.chars().count() <= SUMMARY_CHARS {
        return s;
    }
    let mut t: String = s.chars().take(SUMMARY_CHARS - 1).collect();
    t.push('…');
    t
}
