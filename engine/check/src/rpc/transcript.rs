//! Conversation checks for transcripts (`-->` client to server, `<--` server to client): every
//! response pairs with a pending request of the other side, notifications get no reply, ids are
//! not reused while pending, batch replies answer exactly their batch, and no request is left
//! without an answer. Both sides may send requests (MCP servers do), so pairing is symmetric.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};

use crate::json::{Direction, Node, Pointer, Span, Stream, Value};

use super::rules::*;
use super::{mcp, Document, Kind, Profile, Rule, Severity, Sink};

/// Where a message sits: a document, or an element of a batch document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct At {
    doc: usize,
    item: Option<usize>,
}

#[derive(Debug)]
struct Pending {
    key: String,
    shown: String,
    from: Direction,
    at: At,
    span: Span,
    batch: Option<usize>,
    /// Neither a request nor a notification, with a readable id: its -32600 reply may carry that
    /// id or null (§5 allows null for an Invalid Request).
    or_null: bool,
}

/// The most waiting ids a response-unmatched finding names; the rest are counted.
const MAX_WAITING_NAMED: usize = 10;

/// The messages waiting for their responses, in the order they were sent. Each is found by its
/// side and key, listed by side, and taken, in constant or logarithmic time: a transcript of n
/// messages is paired in n log n, however many wait.
#[derive(Debug, Default)]
struct Waiting {
    /// Every message that waited, by the order it was sent; `None` once answered.
    slots: Vec<Option<Pending>>,
    /// The slots of each (side, key), oldest first (answered ones are dropped when met).
    by_key: HashMap<(usize, String), VecDeque<usize>>,
    /// The slots still waiting, per side.
    by_side: [BTreeSet<usize>; 2],
    /// Per side, (document, slot) of those waiting that id null may answer outside a batch.
    or_null_alone: [BTreeSet<(usize, usize)>; 2],
    /// The slots of each batch.
    by_batch: HashMap<usize, Vec<usize>>,
}

impl Waiting {
    fn push(&mut self, p: Pending) {
        let slot = self.slots.len();
        let from = side(p.from);
        self.by_key
            .entry((from, p.key.clone()))
            .or_default()
            .push_back(slot);
        self.by_side[from].insert(slot);
        if p.or_null && p.batch.is_none() {
            self.or_null_alone[from].insert((p.at.doc, slot));
        }
        if let Some(b) = p.batch {
            self.by_batch.entry(b).or_default().push(slot);
        }
        self.slots.push(Some(p));
    }

    /// The oldest message of `from` waiting under `key`.
    fn find(&mut self, key: &str, from: Direction) -> Option<usize> {
        let queue = self.by_key.get_mut(&(side(from), key.to_string()))?;
        while let Some(&slot) = queue.front() {
            if self.slots[slot].is_some() {
                return Some(slot);
            }
            queue.pop_front();
        }
        None
    }

    fn take(&mut self, slot: usize) -> Option<Pending> {
        let p = self.slots.get_mut(slot)?.take()?;
        let from = side(p.from);
        self.by_side[from].remove(&slot);
        self.or_null_alone[from].remove(&(p.at.doc, slot));
        Some(p)
    }

    /// The slots of `from` waiting, oldest first.
    fn of_side(&self, from: Direction) -> impl Iterator<Item = usize> + '_ {
        self.by_side[side(from)].iter().copied()
    }

    fn count(&self, from: Direction) -> usize {
        self.by_side[side(from)].len()
    }

    fn get(&self, slot: usize) -> Option<&Pending> {
        self.slots.get(slot)?.as_ref()
    }

    /// The message sent last, when it still waits.
    fn last(&self) -> Option<&Pending> {
        self.slots.last()?.as_ref()
    }

    /// The oldest message of `from` that id null may answer outside a batch, sent in a document
    /// after `after`.
    fn first_or_null_after(&self, from: Direction, after: Option<usize>) -> Option<(usize, usize)> {
        let set = &self.or_null_alone[side(from)];
        match after {
            None => set.iter().next().copied(),
            Some(a) => set.range((a + 1, 0)..).next().copied(),
        }
    }

    /// Stops waiting for the elements of batch `b` (in document `doc`).
    fn drop_batch(&mut self, b: usize, doc: usize) {
        for slot in self.by_batch.remove(&b).unwrap_or_default() {
            if self.get(slot).is_some_and(|p| p.at.doc == doc) {
                self.take(slot);
            }
        }
    }

    /// Every message still waiting, in the order sent.
    fn drain(&mut self) -> Vec<Pending> {
        std::mem::take(&mut self.slots)
            .into_iter()
            .flatten()
            .collect()
    }
}

/// The messages an error with id null answers, waiting for it (text that is not JSON, an invalid
/// message without a usable id, an empty batch), in the order sent; per side and by whether they
/// were JSON, ordered by document, so the oldest one sent after a document is found in log n.
#[derive(Debug, Default)]
struct Unreadable {
    /// Every one that waited (side, place, span, not JSON), by the order sent; `None` once answered.
    slots: Vec<Option<(Direction, At, Span, bool)>>,
    /// Per side, then [JSON, not JSON]: (document, slot) of those waiting.
    waiting: [[BTreeSet<(usize, usize)>; 2]; 2],
}

impl Unreadable {
    fn push(&mut self, from: Direction, at: At, span: Span, not_json: bool) {
        let slot = self.slots.len();
        self.waiting[side(from)][usize::from(not_json)].insert((at.doc, slot));
        self.slots.push(Some((from, at, span, not_json)));
    }

    fn len(&self) -> usize {
        self.slots.len()
    }

    /// Forgets those pushed since the length was `len`.
    fn truncate(&mut self, len: usize) {
        while self.slots.len() > len {
            let slot = self.slots.len() - 1;
            if let Some(Some((from, at, _, not_json))) = self.slots.pop() {
                self.waiting[side(from)][usize::from(not_json)].remove(&(at.doc, slot));
            }
        }
    }

    fn take(&mut self, slot: usize) {
        if let Some((from, at, _, not_json)) = self.slots.get_mut(slot).and_then(Option::take) {
            self.waiting[side(from)][usize::from(not_json)].remove(&(at.doc, slot));
        }
    }

    /// (document, slot) of the oldest of `from` (JSON or not) sent after document `after`.
    fn first_after(
        &self,
        from: Direction,
        not_json: bool,
        after: Option<usize>,
    ) -> Option<(usize, usize)> {
        let set = &self.waiting[side(from)][usize::from(not_json)];
        match after {
            None => set.iter().next().copied(),
            Some(a) => set.range((a + 1, 0)..).next().copied(),
        }
    }

    /// Whether one of `from` sent in document `doc` or before still waits.
    fn any_up_to(&self, from: Direction, doc: usize) -> bool {
        self.waiting[side(from)]
            .iter()
            .any(|set| set.iter().next().is_some_and(|&(d, _)| d <= doc))
    }

    /// Every one still waiting, in the order sent.
    fn drain(&mut self) -> Vec<(Direction, At, Span)> {
        std::mem::take(&mut self.slots)
            .into_iter()
            .flatten()
            .map(|(from, at, span, _)| (from, at, span))
            .collect()
    }
}

/// The most batches waiting under one id that a batch reply is compared with (ids reused by many
/// unanswered batches would otherwise make each reply cost them all).
const MAX_BATCHES_PER_ID: usize = 64;

#[derive(Debug)]
struct CallBatch {
    from: Direction,
    doc: usize,
    keys: Vec<String>,
    /// How many of `keys` are "null": valid requests with id null (a result with id null answers one).
    null_requests: usize,
    /// Keys of `keys` that id null may answer too (invalid elements with a readable id).
    or_null: Vec<String>,
    /// Elements the other side cannot read (not objects, or invalid without a usable id): each
    /// is answered inside the batch reply with id null.
    unreadable: Vec<(At, Span)>,
    answered: bool,
}

/// What the last call of a side was, for recognising replies to notifications.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LastCall {
    Request,
    Notification,
}

/// The id as a pairing key: strings by value, numbers by their text, null as "null".
fn id_key(id: &Node<'_>) -> Option<(String, String)> {
    match &id.value {
        Value::String(s) => Some((format!("s:{s}"), crate::json::quote(s))),
        Value::Number(n) => Some((format!("n:{n}"), (*n).to_string())),
        Value::Null => Some(("null".into(), "null".into())),
        _ => None,
    }
}

struct Conversation<'d> {
    docs: &'d mut [Document],
    pending: Waiting,
    /// Messages the other side could not read (or whose id it could not detect): answered by id null.
    unreadable: Unreadable,
    batches: Vec<CallBatch>,
    /// Per side, (document, index) of the batches not answered yet.
    unanswered: [BTreeSet<(usize, usize)>; 2],
    /// The batches each (side, id) occurs in, oldest first (answered ones dropped when met).
    batches_by_key: HashMap<(usize, String), VecDeque<usize>>,
    last_call: [Option<LastCall>; 2],
    /// Per side, the latest document of that side that a reply has answered by its id: an
    /// unreadable message sent before it was passed over, and a later error with id null is not
    /// its answer. (Replies with id null are paired by this very rule, so they do not count.)
    latest_answered: [Option<usize>; 2],
}

fn side(d: Direction) -> usize {
    match d {
        Direction::Client => 0,
        Direction::Server => 1,
    }
}

fn other(d: Direction) -> Direction {
    match d {
        Direction::Client => Direction::Server,
        Direction::Server => Direction::Client,
    }
}

impl Conversation<'_> {
    fn doc(&mut self, at: At) -> &mut Document {
        let doc = &mut self.docs[at.doc];
        match at.item {
            Some(i) => &mut doc.items[i],
            None => doc,
        }
    }

    /// Puts a violation on the message at `at`; `member` names the member it is about ("id").
    fn flag(
        &mut self,
        at: At,
        member: Option<&str>,
        rule: &'static Rule,
        span: Span,
        message: String,
    ) {
        let mut path = at
            .item
            .map_or_else(Pointer::root, |i| Pointer::root().index(i));
        if let Some(member) = member {
            path = path.key(member);
        }
        let doc = self.doc(at);
        Sink {
            out: &mut doc.violations,
        }
        .push(rule, &path, span, message);
    }

    /// Notes a message of `from` that waits for an error with id null.
    fn unreadable_message(&mut self, from: Direction, at: At, span: Span) {
        let not_json = self.docs[at.doc].kind == Kind::ParseError;
        self.unreadable.push(from, at, span, not_json);
    }

    /// Marks batch `b` answered.
    fn batch_answered(&mut self, b: usize) {
        let batch = &mut self.batches[b];
        batch.answered = true;
        self.unanswered[side(batch.from)].remove(&(batch.doc, b));
    }

    fn kind(&mut self, at: At) -> (Kind, Option<Kind>) {
        let d = self.doc(at);
        (d.kind, d.intent)
    }

    /// A request or notification sent by `from`. Returns its pairing key when it expects a reply.
    fn call(
        &mut self,
        node: &Node<'_>,
        at: At,
        from: Direction,
        batch: Option<usize>,
    ) -> Option<String> {
        let (kind, intent) = self.kind(at);
        match intent.unwrap_or(kind) {
            Kind::Request => {
                let id = node.get("id")?;
                let Some((key, shown)) = id_key(id) else {
                    self.unreadable_message(from, at, node.span);
                    return None;
                };
                if self.pending.find(&key, from).is_some() {
                    let message = format!(
                        "id {shown} is still waiting for its response (sent by an earlier request); the replies cannot be told apart"
                    );
                    self.flag(at, Some("id"), &REQUEST_ID_REUSED, id.span, message);
                }
                self.pending.push(Pending {
                    key: key.clone(),
                    shown,
                    from,
                    at,
                    span: id.span,
                    batch,
                    or_null: false,
                });
                self.last_call[side(from)] = Some(LastCall::Request);
                Some(key)
            }
            Kind::Invalid
                if kind == Kind::Invalid
                    && node.get("id").is_some_and(|id| {
                        matches!(id.value, Value::String(_) | Value::Number(_))
                    }) =>
            {
                // Neither a request nor a notification, but its id is readable: answered -32600
                // with that id (as a server that reads it does) or with null.
                let id = node.get("id")?;
                let (key, shown) = id_key(id)?;
                self.pending.push(Pending {
                    key: key.clone(),
                    shown,
                    from,
                    at,
                    span: id.span,
                    batch,
                    or_null: true,
                });
                self.last_call[side(from)] = Some(LastCall::Request);
                Some(key)
            }
            Kind::Notification | Kind::Invalid if kind == Kind::Invalid => {
                // An invalid message without a usable id is answered -32600 with id null.
                self.unreadable_message(from, at, node.span);
                None
            }
            Kind::Notification => {
                if batch.is_none() {
                    self.last_call[side(from)] = Some(LastCall::Notification);
                }
                None
            }
            _ => None,
        }
    }

    /// A response sent by `from`, paired with a pending request of the other side.
    fn response(&mut self, node: &Node<'_>, at: At, from: Direction) {
        let asker = other(from);
        let Some(id) = node.get("id") else { return }; // response-id-missing already says it
        let Some((key, shown)) = id_key(id) else {
            return;
        }; // id-wrong-type already says it
        if let Some(p) = self
            .pending
            .find(&key, asker)
            .and_then(|slot| self.pending.take(slot))
        {
            self.answered(asker, p.at.doc);
            // A request with id null gets its id back (§5), a result included.
            if key == "null" && self.kind(p.at).0 == Kind::Request {
                self.doc(at).answers_null_id_request();
            }
            return;
        }
        if key == "null" && self.null_id_error(node, at, asker, id.span) {
            return;
        }
        if key == "null" && self.pending.count(asker) == 1 {
            let only = self.pending.of_side(asker).next();
            if let Some(p) = only.and_then(|slot| self.pending.take(slot)) {
                let message = format!(
                    "the request's id {} was readable, so the response must carry it instead of null",
                    p.shown
                );
                self.flag(
                    at,
                    Some("id"),
                    &RESPONSE_NULL_ID_DETECTABLE,
                    id.span,
                    message,
                );
                return;
            }
        }
        let waiting_count = self.pending.count(asker);
        let mut waiting: Vec<String> = self
            .pending
            .of_side(asker)
            .take(MAX_WAITING_NAMED)
            .filter_map(|slot| self.pending.get(slot))
            .map(|p| p.shown.clone())
            .collect();
        if waiting_count > waiting.len() {
            waiting.push(format!("and {} more", waiting_count - waiting.len()));
        }
        if waiting.is_empty() && self.last_call[side(asker)] == Some(LastCall::Notification) {
            self.flag(
                at,
                Some("id"),
                &NOTIFICATION_ANSWERED,
                id.span,
                "this replies to a notification, which must get no reply at all (not even an error)".into(),
            );
            return;
        }
        let message = if waiting.is_empty() {
            format!("id {shown} answers no request: none is waiting for a response")
        } else {
            format!(
                "id {shown} answers no pending request (waiting: {})",
                waiting.join(", ")
            )
        };
        self.flag(at, Some("id"), &RESPONSE_UNMATCHED, id.span, message);
    }

    /// Notes that a message of `asker` in document `doc` has been answered by its id.
    fn answered(&mut self, asker: Direction, doc: usize) {
        let latest = &mut self.latest_answered[side(asker)];
        *latest = Some(latest.map_or(doc, |d| d.max(doc)));
    }

    /// Pairs a response with id null (from the other side than `asker`) by the rule for replies to
    /// messages whose id could not be read. Returns whether it answered something here.
    ///
    /// It answers the oldest message of `asker` that can be answered with id null (text that is
    /// not JSON, an invalid message, an empty batch; an invalid message whose id was readable, too)
    /// and that was not passed over: no message sent after it has been answered by its id yet (a
    /// server answers what it cannot read when it reads it, so one that answered later messages
    /// first left it unanswered). Among those it prefers the kind its code names: -32700 text that is not
    /// JSON, -32600 JSON that is no valid request. With none such, it is the server refusing the
    /// batch that waits for a reply: right when the batch is invalid as a whole, otherwise
    /// batch-reply-mismatch (a batch is answered with an array of one response per request).
    fn null_id_error(&mut self, node: &Node<'_>, at: At, asker: Direction, span: Span) -> bool {
        let after = self.latest_answered[side(asker)];
        let code = node
            .get("error")
            .and_then(|e| e.get("code"))
            .and_then(Node::as_i64);
        // (document, where: Ok(index into unreadable) / Err(index into pending), not JSON)
        // Of each kind, only the oldest fresh one can be chosen (they are alike but for age).
        let candidates: Vec<(usize, Result<usize, usize>, bool)> = [
            self.unreadable
                .first_after(asker, true, after)
                .map(|(doc, slot)| (doc, Ok(slot), true)),
            self.unreadable
                .first_after(asker, false, after)
                .map(|(doc, slot)| (doc, Ok(slot), false)),
            self.pending
                .first_or_null_after(asker, after)
                .map(|(doc, slot)| (doc, Err(slot), false)),
        ]
        .into_iter()
        .flatten()
        .collect();
        let named = |not_json: bool| match code {
            Some(-32700) => not_json,
            Some(-32600) => !not_json,
            _ => true,
        };
        let chosen = candidates
            .iter()
            .filter(|c| named(c.2))
            .min_by_key(|c| c.0)
            .or_else(|| candidates.iter().min_by_key(|c| c.0))
            .map(|c| c.1);
        if let Some(place) = chosen {
            match place {
                Ok(slot) => self.unreadable.take(slot),
                Err(slot) => {
                    self.pending.take(slot);
                }
            }
            return true;
        }
        let unanswered = &self.unanswered[side(asker)];
        let oldest_fresh = match after {
            None => unanswered.iter().next(),
            Some(a) => unanswered.range((a + 1, 0)..).next(),
        };
        let Some(&(_, b)) = oldest_fresh else {
            if after.is_some_and(|a| self.unreadable.any_up_to(asker, a)) {
                self.flag(
                    at,
                    Some("id"),
                    &RESPONSE_UNMATCHED,
                    span,
                    "id null answers no message waiting for it: the unreadable or invalid message sent before was passed over (a later message had already been answered), so this is not its reply".into(),
                );
                return true;
            }
            return false;
        };
        self.batch_answered(b);
        let batch = &self.batches[b];
        let (batch_doc, keys) = (batch.doc, batch.keys.clone());
        self.pending.drop_batch(b, batch_doc);
        if self.docs[batch_doc]
            .violations
            .iter()
            .any(|v| v.severity == Severity::Error)
        {
            // Invalid as a whole (mixing calls and replies; under MCP, a batch in a version
            // without batches): one error with id null is its right answer, as for `[]`.
            return true;
        }
        let shown: Vec<String> = keys.iter().map(|k| shown_of(k)).collect();
        let missing = if shown.is_empty() {
            String::new()
        } else {
            format!(": no reply for id {}", shown.join(", "))
        };
        self.flag(
            at,
            None,
            &BATCH_REPLY_MISMATCH,
            node.span,
            format!("a single response with id null answers the batch sent before it as a whole (refused); a batch is answered with an array of one response per request{missing}"),
        );
        true
    }

    fn batch_of_calls(&mut self, items: &[Node<'_>], doc: usize, from: Direction) {
        let index = self.batches.len();
        let mut keys = Vec::new();
        let mut null_requests = 0;
        let mut or_null = Vec::new();
        let mut unreadable = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let at = At { doc, item: Some(i) };
            if !item.is_object() {
                unreadable.push((at, item.span));
                continue;
            }
            let before = self.unreadable.len();
            if let Some(key) = self.call(item, at, from, Some(index)) {
                if key == "null" && self.kind(at).0 == Kind::Request {
                    null_requests += 1;
                }
                if self.pending.last().is_some_and(|p| p.or_null && p.at == at) {
                    or_null.push(key.clone());
                }
                keys.push(key);
            }
            if self.unreadable.len() > before {
                // Batch elements are answered inside the batch reply, not on their own.
                self.unreadable.truncate(before);
                unreadable.push((at, item.span));
            }
        }
        if keys.is_empty() && unreadable.is_empty() {
            // Notifications only: nothing comes back (§6), so no reply waits to be paired with it.
            self.last_call[side(from)] = Some(LastCall::Notification);
            return;
        }
        for key in &keys {
            let batches = self
                .batches_by_key
                .entry((side(from), key.clone()))
                .or_default();
            if batches.back() != Some(&index) {
                batches.push_back(index);
            }
        }
        self.unanswered[side(from)].insert((doc, index));
        self.batches.push(CallBatch {
            from,
            doc,
            keys,
            null_requests,
            or_null,
            unreadable,
            answered: false,
        });
    }

    /// The unanswered batch of `asker` a batch reply with these elements answers: the one most of
    /// its ids belong to (replies to two batches may come in either order), the oldest on a tie,
    /// among the first [`MAX_BATCHES_PER_ID`] batches waiting under each id; with no id shared,
    /// the oldest.
    fn batch_answered_by(&mut self, items: &[Node<'_>], asker: Direction) -> Option<usize> {
        let mut shared: HashMap<usize, usize> = HashMap::new();
        let keys = items
            .iter()
            .filter_map(|item| item.get("id").and_then(id_key))
            .map(|(key, _)| key);
        for key in keys {
            let Some(batches) = self.batches_by_key.get_mut(&(side(asker), key)) else {
                continue;
            };
            while batches.front().is_some_and(|&b| self.batches[b].answered) {
                batches.pop_front();
            }
            for &b in batches.iter().take(MAX_BATCHES_PER_ID) {
                if !self.batches[b].answered {
                    *shared.entry(b).or_default() += 1;
                }
            }
        }
        shared
            .into_iter()
            .max_by_key(|&(b, count)| (count, std::cmp::Reverse(b)))
            .map(|(b, _)| b)
            .or_else(|| self.unanswered[side(asker)].iter().next().map(|&(_, b)| b))
    }

    fn batch_of_responses(&mut self, items: &[Node<'_>], doc: usize, from: Direction, span: Span) {
        let asker = other(from);
        let Some(b) = self.batch_answered_by(items, asker) else {
            if self.last_call[side(asker)] == Some(LastCall::Notification)
                && self.pending.count(asker) == 0
            {
                self.flag(
                    At { doc, item: None },
                    None,
                    &NOTIFICATION_ANSWERED,
                    span,
                    "this replies to notifications only; an all-notification batch gets nothing back".into(),
                );
                return;
            }
            for (i, item) in items.iter().enumerate() {
                self.response(item, At { doc, item: Some(i) }, from);
            }
            return;
        };
        self.batch_answered(b);
        let mut expected: Vec<String> = self.batches[b].keys.clone();
        expected.extend(std::iter::repeat_n(
            "null".to_string(),
            self.batches[b].unreadable.len(),
        ));
        // Where each id waits among `expected` (oldest first), and where those wait that id null
        // answers too (invalid elements whose id was readable): one look-up per reply.
        let or_null: HashSet<String> = self.batches[b].or_null.iter().cloned().collect();
        let mut places: HashMap<&str, VecDeque<usize>> = HashMap::new();
        let mut or_null_places: BTreeSet<usize> = BTreeSet::new();
        for (j, k) in expected.iter().enumerate() {
            places.entry(k.as_str()).or_default().push_back(j);
            if or_null.contains(k) {
                or_null_places.insert(j);
            }
        }
        let mut replied = vec![false; expected.len()];
        let mut extra = Vec::new();
        let mut null_requests = self.batches[b].null_requests;
        for (i, item) in items.iter().enumerate() {
            let Some((key, shown)) = item.get("id").and_then(id_key) else {
                continue;
            };
            let mut found = None;
            if let Some(queue) = places.get_mut(key.as_str()) {
                while let Some(j) = queue.pop_front() {
                    if !replied[j] {
                        found = Some(j);
                        break;
                    }
                }
            }
            if found.is_none() && key == "null" {
                // id null answers an invalid element whose id was readable, too.
                found = or_null_places.iter().next().copied();
            }
            match found {
                Some(j) => {
                    replied[j] = true;
                    or_null_places.remove(&j);
                    // A result with id null answers one of the batch's requests with id null.
                    if key == "null"
                        && null_requests > 0
                        && self
                            .doc(At { doc, item: Some(i) })
                            .answers_null_id_request()
                    {
                        null_requests -= 1;
                    }
                }
                None => extra.push(shown),
            }
        }
        let missing: Vec<String> = expected
            .iter()
            .zip(&replied)
            .filter(|(_, replied)| !**replied)
            .map(|(k, _)| shown_of(k))
            .collect();
        let batch_doc = self.batches[b].doc;
        self.answered(asker, batch_doc);
        self.pending.drop_batch(b, batch_doc);
        if missing.is_empty() && extra.is_empty() {
            return;
        }
        let mut parts = Vec::new();
        if !missing.is_empty() {
            parts.push(format!("no reply for id {}", missing.join(", ")));
        }
        if !extra.is_empty() {
            parts.push(format!(
                "id {} answer(s) no element of the batch",
                extra.join(", ")
            ));
        }
        self.flag(
            At { doc, item: None },
            None,
            &BATCH_REPLY_MISMATCH,
            span,
            format!(
                "this batch reply does not match its batch: {}",
                parts.join("; ")
            ),
        );
    }
}

/// A pairing key as the id is written (`s:a` → `"a"`, `n:1` → `1`).
fn shown_of(key: &str) -> String {
    match key.split_once(':') {
        Some(("s", s)) => crate::json::quote(s),
        Some((_, n)) => n.to_string(),
        None => key.to_string(),
    }
}

pub(super) fn check(stream: &Stream<'_>, documents: &mut [Document], profile: Profile) {
    let present = |d: Direction| {
        stream.segments.iter().any(|s| s.direction == Some(d))
            || stream.comments.iter().any(|c| c.0 == d)
    };
    let both_sides = [present(Direction::Client), present(Direction::Server)];
    let mut conv = Conversation {
        docs: documents,
        pending: Waiting::default(),
        unreadable: Unreadable::default(),
        batches: Vec::new(),
        unanswered: [BTreeSet::new(), BTreeSet::new()],
        batches_by_key: HashMap::new(),
        last_call: [None, None],
        latest_answered: [None, None],
    };
    for (doc, segment) in stream.segments.iter().enumerate() {
        let Some(from) = segment.direction else {
            continue;
        };
        let at = At { doc, item: None };
        let Ok(parsed) = &segment.parsed else {
            conv.unreadable_message(from, at, segment.span);
            continue;
        };
        let root = &parsed.root;
        match &root.value {
            Value::Object(_) => {
                let (kind, intent) = conv.kind(at);
                match intent.unwrap_or(kind) {
                    Kind::Response => conv.response(root, at, from),
                    // An invalid object waits for its error reply (by id when that is readable).
                    _ => {
                        conv.call(root, at, from, None);
                    }
                }
            }
            Value::Array(items) if items.is_empty() => {
                if from == Direction::Client {
                    conv.unreadable_message(from, at, root.span);
                }
            }
            Value::Array(items) => {
                let replies = conv.docs[doc]
                    .items
                    .iter()
                    .all(|d| d.intent.unwrap_or(d.kind) == Kind::Response);
                if replies {
                    conv.batch_of_responses(items, doc, from, root.span);
                } else {
                    conv.batch_of_calls(items, doc, from);
                }
            }
            _ => conv.unreadable_message(from, at, root.span),
        }
    }
    let pending = conv.pending.drain();
    for p in pending {
        if both_sides[side(other(p.from))] {
            let message = if p.or_null {
                format!("this message is invalid, so it deserves an error response (-32600) with id {} or null, and none came", p.shown)
            } else {
                format!(
                    "request id {} never gets a response in this transcript",
                    p.shown
                )
            };
            conv.flag(p.at, Some("id"), &REQUEST_UNANSWERED, p.span, message);
        }
    }
    let mut unreadable = conv.unreadable.drain();
    // Unreadable elements of batches that got no reply at all.
    for b in conv.batches.iter().filter(|b| !b.answered) {
        unreadable.extend(b.unreadable.iter().map(|&(at, span)| (b.from, at, span)));
    }
    for (from, at, span) in unreadable {
        if both_sides[side(other(from))] {
            conv.flag(
                at,
                None,
                &REQUEST_UNANSWERED,
                span,
                "this message is unreadable or invalid, so it deserves an error response with id null (-32700 or -32600), and none came".into(),
            );
        }
    }
    if let Profile::Mcp(version) = profile {
        mcp::check_transcript(stream, documents, version);
    }
}

#[cfg(test)]
mod tests {
    use crate::rpc::{check, Kind, Profile, Severity};

    const NULL_REQUEST: &str =
        r#"{"jsonrpc": "2.0", "method": "sum", "params": [1, 2], "id": null}"#;
    const NULL_RESULT: &str = r#"{"jsonrpc": "2.0", "result": 3, "id": null}"#;

    /// Each document's kind (a batch: its elements' kinds) and the rules it breaks (errors only).
    fn verdicts(src: &str) -> Vec<(Vec<Kind>, Vec<&'static str>)> {
        check(src.as_bytes(), Profile::JsonRpc)
            .documents
            .iter()
            .map(|d| {
                let kinds = if d.kind == Kind::Batch {
                    d.items.iter().map(|i| i.kind).collect()
                } else {
                    vec![d.kind]
                };
                (
                    kinds,
                    d.all_violations()
                        .filter(|v| v.severity == Severity::Error)
                        .map(|v| v.rule.id)
                        .collect(),
                )
            })
            .collect()
    }

    #[test]
    fn comment_lines_of_a_transcript_are_no_documents_and_pair_nothing() {
        let src = "// checks ping\n\n--> {\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"id\": 1}\n  // the reply:\n<-- {\"jsonrpc\": \"2.0\", \"result\": {}, \"id\": 1}\n";
        assert_eq!(
            verdicts(src),
            [
                (vec![Kind::Request], vec![]),
                (vec![Kind::Response], vec![])
            ]
        );
        assert_eq!(
            check(src.as_bytes(), Profile::JsonRpc).violations().count(),
            0
        );
    }

    /// Each document's error rules (a batch's own and its elements'), in document order.
    fn errors_per_document(src: &str) -> Vec<Vec<&'static str>> {
        verdicts(src).into_iter().map(|(_, rules)| rules).collect()
    }

    #[test]
    fn batches_of_every_shape_pair_with_their_replies() {
        let req = |id: u32| format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"echo","params":[]}}"#);
        let note = r#"{"jsonrpc":"2.0","method":"echo","params":["x",99]}"#;
        let ok = |id: u32| format!(r#"{{"jsonrpc":"2.0","id":{id},"result":"x"}}"#);
        let refused =
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#;
        let invalid_with_id = r#"{"jsonrpc":"2.0","id":7}"#;
        let refused_7 =
            r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request"}}"#;
        let none: Vec<&str> = Vec::new();
        let cases: Vec<(&str, String, Vec<Vec<&str>>)> = vec![
            (
                "the issue's example: a batch of notifications only, then a batch answered",
                format!("--> [{note}]\n--> [{}, {}]\n<-- [{{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{{\"code\":-32602,\"message\":\"missing value\"}}}}, {}]", req(2), req(3), ok(3)),
                vec![none.clone(), none.clone(), none.clone()],
            ),
            (
                "notifications only get nothing back",
                format!("--> [{note}, {note}]\n<-- // nothing is returned"),
                vec![none.clone()],
            ),
            (
                "a reply to a batch of notifications only is a reply to notifications",
                format!("--> [{note}, {note}]\n<-- [{refused}]"),
                vec![none.clone(), vec!["notification-answered"]],
            ),
            (
                "mixed: one response per request, none for the notification, in any order",
                format!("--> [{}, {note}, {}]\n<-- [{}, {}]", req(1), req(2), ok(2), ok(1)),
                vec![none.clone(), none.clone()],
            ),
            (
                "invalid elements are answered with id null (or their readable id)",
                format!("--> [1, {}, {invalid_with_id}]\n<-- [{refused}, {}, {refused_7}]", req(1), ok(1)),
                vec![
                    vec!["batch-element-not-object", "method-result-or-error-required"],
                    none.clone(),
                ],
            ),
            (
                "a batch whose every element is invalid gets one error per element",
                format!("--> [1, 2, 3]\n<-- [{refused}, {refused}, {refused}]"),
                vec![
                    vec!["batch-element-not-object"; 3],
                    none.clone(),
                ],
            ),
            (
                "a batch whose every element is invalid, left unanswered",
                format!("--> [1, 2]\n--> {}\n<-- {}", req(5), ok(5)),
                vec![
                    vec![
                        "batch-element-not-object",
                        "request-unanswered",
                        "batch-element-not-object",
                        "request-unanswered",
                    ],
                    none.clone(),
                    none.clone(),
                ],
            ),
            (
                "the empty batch gets a single error, not an array",
                format!("--> []\n<-- {refused}"),
                vec![vec!["batch-empty"], none.clone()],
            ),
            (
                "the empty batch left unanswered",
                format!("--> []\n--> {}\n<-- {}", req(1), ok(1)),
                vec![vec!["batch-empty", "request-unanswered"], none.clone(), none.clone()],
            ),
            (
                "a reply missing an element",
                format!("--> [{}, {}]\n<-- [{}]", req(1), req(2), ok(1)),
                vec![none.clone(), vec!["batch-reply-mismatch"]],
            ),
            (
                "a reply with an extra element",
                format!("--> [{}]\n<-- [{}, {}]", req(1), ok(1), ok(9)),
                vec![none.clone(), vec!["batch-reply-mismatch"]],
            ),
            (
                "batches among single messages, answered out of order",
                format!(
                    "--> {}\n--> [{}, {note}, {}]\n--> {note}\n--> [{}]\n<-- [{}]\n<-- {}\n<-- [{}, {}]",
                    req(1), req(2), req(3), req(4), ok(4), ok(1), ok(3), ok(2)
                ),
                vec![none.clone(); 7],
            ),
            (
                "a batch never answered leaves its requests unanswered",
                format!("--> [{}, {note}]\n--> {}\n<-- {}", req(1), req(2), ok(2)),
                vec![vec!["request-unanswered"], none.clone(), none.clone()],
            ),
        ];
        for (name, src, expected) in cases {
            assert_eq!(errors_per_document(&src), expected, "{name}:\n{src}");
        }
    }

    const INVALID: &str = r#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#;
    const INVALID_RULES: [&str; 2] = ["method-not-string", "params-not-structured"];
    const REFUSED: &str =
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#;
    const NOT_JSON_REFUSED: &str =
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#;
    const PING_5: &str = r#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#;
    const PONG_5: &str = r#"{"jsonrpc":"2.0","id":5,"result":{}}"#;
    const BATCH_6_7: &str =
        r#"[{"jsonrpc":"2.0","id":6,"method":"ping"},{"jsonrpc":"2.0","id":7,"method":"ping"}]"#;

    fn with_unanswered(rules: [&'static str; 2]) -> Vec<&'static str> {
        let mut out = rules.to_vec();
        out.push("request-unanswered");
        out
    }

    #[test]
    fn a_silence_passed_over_stays_unanswered_when_a_later_batch_is_refused_with_id_null() {
        let src =
            format!("--> {INVALID}\n--> {PING_5}\n<-- {PONG_5}\n--> {BATCH_6_7}\n<-- {REFUSED}");
        assert_eq!(
            errors_per_document(&src),
            [
                with_unanswered(INVALID_RULES),
                vec![],
                vec![],
                vec![],
                vec!["batch-reply-mismatch"]
            ]
        );
        let r = check(src.as_bytes(), Profile::JsonRpc);
        let mismatch = r.documents[4].violations[0].message.to_string();
        assert!(mismatch.contains("no reply for id 6, 7"), "{mismatch}");
    }

    #[test]
    fn a_batch_refused_with_id_null_before_a_silence_gives_the_same_verdicts() {
        let src =
            format!("--> {BATCH_6_7}\n<-- {REFUSED}\n--> {INVALID}\n--> {PING_5}\n<-- {PONG_5}");
        assert_eq!(
            errors_per_document(&src),
            [
                vec![],
                vec!["batch-reply-mismatch"],
                with_unanswered(INVALID_RULES),
                vec![],
                vec![]
            ]
        );
    }

    #[test]
    fn a_batch_invalid_as_a_whole_is_rightly_refused_with_one_error_with_id_null() {
        // MCP 2025-11-25 has no batches: the batch is the client's error, the refusal is right.
        let src =
            format!("--> {INVALID}\n--> {PING_5}\n<-- {PONG_5}\n--> {BATCH_6_7}\n<-- {REFUSED}");
        let r = check(
            src.as_bytes(),
            Profile::Mcp(crate::rpc::McpVersion::V2025_11_25),
        );
        let on = |doc: usize| -> Vec<&str> {
            r.documents[doc]
                .all_violations()
                .map(|v| v.rule.id)
                .collect()
        };
        assert_eq!(on(3), ["mcp-batch-not-supported"]);
        assert_eq!(on(4), Vec::<&str>::new());
        assert!(on(0).contains(&"request-unanswered"), "{:?}", on(0));
    }

    #[test]
    fn an_error_with_id_null_answers_the_invalid_message_it_follows() {
        let src = format!("--> {INVALID}\n<-- {REFUSED}\n--> {PING_5}\n<-- {PONG_5}");
        assert_eq!(
            errors_per_document(&src),
            [INVALID_RULES.to_vec(), vec![], vec![], vec![]]
        );
    }

    #[test]
    fn an_error_with_id_null_after_later_answers_answers_nothing_and_says_why() {
        let src = format!("--> {INVALID}\n--> {PING_5}\n<-- {PONG_5}\n<-- {REFUSED}");
        assert_eq!(
            errors_per_document(&src),
            [
                with_unanswered(INVALID_RULES),
                vec![],
                vec![],
                vec!["response-unmatched"]
            ]
        );
        let r = check(src.as_bytes(), Profile::JsonRpc);
        let message = r.documents[3].violations[0].message.to_string();
        assert!(message.contains("passed over"), "{message}");
    }

    #[test]
    fn an_error_with_id_null_prefers_the_message_its_code_names() {
        // -32600 answers the invalid request, not the older text that is not JSON.
        let src = format!("--> {{\"jsonrpc\": \n--> {INVALID}\n<-- {REFUSED}");
        let v = errors_per_document(&src);
        assert_eq!(v[0], ["json-syntax", "request-unanswered"], "{v:?}");
        assert_eq!(v[1], INVALID_RULES);
        // Each code to its own, whatever order the errors come in.
        for replies in [
            format!("<-- {REFUSED}\n<-- {NOT_JSON_REFUSED}"),
            format!("<-- {NOT_JSON_REFUSED}\n<-- {REFUSED}"),
        ] {
            let src = format!("--> {{\"jsonrpc\": \n--> {INVALID}\n{replies}");
            let v = errors_per_document(&src);
            assert_eq!(v[0], ["json-syntax"], "{src}");
            assert_eq!(v[1], INVALID_RULES, "{src}");
        }
    }

    #[test]
    fn a_result_with_id_null_answering_a_request_with_id_null_is_a_valid_response() {
        let src = format!("--> {NULL_REQUEST}\n<-- {NULL_RESULT}");
        assert_eq!(
            verdicts(&src),
            [
                (vec![Kind::Request], vec![]),
                (vec![Kind::Response], vec![])
            ]
        );
        // The request keeps its warning: a null id is legal, not advisable.
        let r = check(src.as_bytes(), Profile::JsonRpc);
        assert_eq!(
            r.violations().map(|v| v.rule.id).collect::<Vec<_>>(),
            ["id-null-in-request"]
        );
        // MCP forbids id null (mcp-id-null): that request is invalid and deserves an error, not a result.
        let mcp = check(
            src.as_bytes(),
            Profile::Mcp(crate::rpc::McpVersion::default()),
        );
        let rules: Vec<_> = mcp.violations().map(|v| v.rule.id).collect();
        assert!(
            rules.contains(&"mcp-id-null") && rules.contains(&"response-null-id-with-result"),
            "{rules:?}"
        );
    }

    #[test]
    fn a_result_with_id_null_is_still_flagged_everywhere_else() {
        let flagged = "response-null-id-with-result";
        let cases: &[&str] = &[
            // On its own: id null means the request could not be read.
            NULL_RESULT,
            // Not a transcript: no request to pair with.
            &format!("{NULL_REQUEST}\n{NULL_RESULT}"),
            // The request's id was readable.
            &format!("--> {{\"jsonrpc\": \"2.0\", \"method\": \"sum\", \"id\": 1}}\n<-- {NULL_RESULT}"),
            // The request could not be read, or was invalid: that gets an error, never a result.
            &format!("--> {{\"jsonrpc\": \"2.0\", \"method\": \n<-- {NULL_RESULT}"),
            &format!("--> {{\"jsonrpc\": \"1.0\", \"method\": \"sum\", \"id\": null}}\n<-- {NULL_RESULT}"),
            // The reply comes before the request.
            &format!("<-- {NULL_RESULT}\n--> {NULL_REQUEST}"),
            // A batch element that could not be read.
            &format!("--> [1]\n<-- [{NULL_RESULT}]"),
        ];
        for src in cases {
            let v = verdicts(src);
            let reply = v.iter().find(|(_, rules)| rules.contains(&flagged));
            assert!(reply.is_some(), "{src}: {v:?}");
        }
    }

    #[test]
    fn one_request_with_id_null_takes_back_one_result() {
        let src = format!("--> {NULL_REQUEST}\n<-- {NULL_RESULT}\n<-- {NULL_RESULT}");
        let v = verdicts(&src);
        assert_eq!(v[1], (vec![Kind::Response], vec![]));
        assert!(v[2].1.contains(&"response-null-id-with-result"), "{v:?}");
    }

    #[test]
    fn a_reply_with_other_errors_stays_invalid_without_the_null_id_rule() {
        let src = format!("--> {NULL_REQUEST}\n<-- {{\"result\": 3, \"id\": null}}");
        assert_eq!(
            verdicts(&src)[1],
            (vec![Kind::Invalid], vec!["jsonrpc-missing"])
        );
    }

    #[test]
    fn an_invalid_object_with_a_readable_id_is_answered_with_that_id_or_null() {
        let invalid = r#"{"jsonrpc": "2.0", "id": 1}"#;
        let error = |id: &str| {
            format!(
                r#"{{"jsonrpc": "2.0", "error": {{"code": -32600, "message": "Invalid Request"}}, "id": {id}}}"#
            )
        };
        for id in ["1", "null"] {
            let src = format!("--> {invalid}\n<-- {}", error(id));
            assert_eq!(
                verdicts(&src),
                [
                    (vec![Kind::Invalid], vec!["method-result-or-error-required"]),
                    (vec![Kind::Response], vec![])
                ],
                "{src}"
            );
            let src = format!("--> [{invalid}]\n<-- [{}]", error(id));
            assert_eq!(verdicts(&src)[1], (vec![Kind::Response], vec![]), "{src}");
        }
        // Another id answers nothing; no answer at all is noticed.
        let src = format!("--> {invalid}\n<-- {}", error("2"));
        assert_eq!(verdicts(&src)[1].1, ["response-unmatched"]);
        let src = format!("--> {invalid}\n--> {{\"jsonrpc\": \"2.0\", \"method\": \"a\", \"id\": 2}}\n<-- {{\"jsonrpc\": \"2.0\", \"result\": 0, \"id\": 2}}");
        let r = check(src.as_bytes(), Profile::JsonRpc);
        let unanswered: Vec<_> = r.documents[0]
            .violations
            .iter()
            .filter(|v| v.rule.id == "request-unanswered")
            .map(|v| v.message.to_string())
            .collect();
        assert_eq!(unanswered, ["this message is invalid, so it deserves an error response (-32600) with id 1 or null, and none came"]);
    }

    #[test]
    fn in_a_batch_results_with_id_null_answer_its_requests_with_id_null() {
        let src = format!("--> [{NULL_REQUEST}, {{\"jsonrpc\": \"2.0\", \"method\": \"sum\", \"id\": 2}}]\n<-- [{NULL_RESULT}, {{\"jsonrpc\": \"2.0\", \"result\": 3, \"id\": 2}}]");
        assert_eq!(
            verdicts(&src)[1],
            (vec![Kind::Response, Kind::Response], vec![])
        );
        // Beside an element that could not be read (answered by an error with id null), in either order.
        let invalid = r#"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}"#;
        for reply in [
            format!("[{invalid}, {NULL_RESULT}]"),
            format!("[{NULL_RESULT}, {invalid}]"),
        ] {
            let src = format!("--> [{NULL_REQUEST}, 1]\n<-- {reply}");
            assert_eq!(
                verdicts(&src)[1],
                (vec![Kind::Response, Kind::Response], vec![]),
                "{src}"
            );
        }
        // Two results with id null for one such request: one of them is wrong.
        let src = format!("--> [{NULL_REQUEST}, 1]\n<-- [{NULL_RESULT}, {NULL_RESULT}]");
        assert_eq!(verdicts(&src)[1].1, ["response-null-id-with-result"]);
    }
}
