//! A recorded conversation (`-->` / `<--` transcripts, as `jrpc tap --transcript` and
//! `jrpc probe --transcript` write them) read into what `jrpc serve --replay` answers with and
//! what `jrpc replay` and `jrpc diff` compare.
//!
//! Each client request of a transcript becomes an [`Exchange`]: its method, its params in
//! canonical JSON (keys sorted, numbers as written, strings re-escaped the one way
//! `serde_json` writes them), and what the server sent after it until the next client request —
//! notifications and requests of its own, and the response with the request's id — in recorded
//! order. Requests are found through a hash map of `method` + canonical params, so answering is
//! linear in the size of the request, whatever the size of the recording.
//!
//! A recording is untrusted input: every file is read up to [`MAX_TRANSCRIPT_BYTES`], all of them
//! together up to [`MAX_RECORDING_BYTES`]; the nearest-request search of an unmatched request
//! looks at no more than [`MAX_NEAREST_SCANNED`] candidates.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::io::Read;

use crate::json::{split_stream, Direction, Node, Value};

/// The largest transcript file read (64 MiB).
pub const MAX_TRANSCRIPT_BYTES: u64 = 64 << 20;
/// The most bytes of all transcripts of one recording together (64 MiB).
pub const MAX_RECORDING_BYTES: u64 = 64 << 20;
/// The most transcripts one recording merges.
pub const MAX_TRANSCRIPTS: usize = 64;
/// The most recorded requests (or methods) an unmatched request is compared with to name the
/// nearest ones.
pub const MAX_NEAREST_SCANNED: usize = 1_000;
/// The most leading bytes of two params compared to find the nearest.
const PARAMS_COMPARED: usize = 4096;
/// How many nearest recorded requests an unmatched request's error names.
const NEAREST_NAMED: usize = 3;
/// The longest prefix of a method name compared by edit distance.
const NAME_COMPARED: usize = 64;

/// A message as it goes out again: compact JSON text, with the place of its top-level `id` value
/// when it is a response (replaced by the caller's id).
#[derive(Clone, Debug)]
pub struct Sent {
    pub text: String,
    id_at: Option<(usize, usize)>,
}

impl Sent {
    /// The text with the top-level id replaced by `id` (compact JSON).
    pub fn with_id(&self, id: &str) -> String {
        match self.id_at {
            Some((start, end)) => {
                let mut out = String::with_capacity(self.text.len() + id.len());
                out.push_str(&self.text[..start]);
                out.push_str(id);
                out.push_str(&self.text[end..]);
                out
            }
            None => self.text.clone(),
        }
    }
}

/// What the server sent after a recorded request.
#[derive(Clone, Debug)]
pub enum Item {
    /// A notification or request of the server's own, as recorded.
    Message(Sent),
    /// The response to the request.
    Reply(Sent),
}

/// One recorded request and what followed it.
#[derive(Clone, Debug)]
pub struct Exchange {
    pub method: String,
    /// The params in canonical JSON (empty when the request had none).
    pub params: String,
    /// The request as recorded (compact JSON).
    pub request: Sent,
    /// Its id as recorded (compact JSON).
    pub id: String,
    /// `FILE:LINE` of the request.
    pub at: String,
    pub items: Vec<Item>,
    /// The client's notifications sent after this request (re-sent by `jrpc replay`), as recorded.
    pub notifications_after: Vec<String>,
    /// The client's answers to the server's requests recorded while this request waited, in
    /// order (`jrpc replay` answers the server's new requests with them, ids replaced).
    pub client_answers: Vec<Sent>,
}

impl Exchange {
    /// The response, as recorded.
    pub fn reply(&self) -> Option<&Sent> {
        self.items.iter().find_map(|item| match item {
            Item::Reply(sent) => Some(sent),
            Item::Message(_) => None,
        })
    }
}

/// Transcripts read into exchanges, found by request.
#[derive(Debug, Default)]
pub struct Recording {
    /// Every exchange, in recorded order (transcript after transcript).
    pub exchanges: Vec<Exchange>,
    /// The client's notifications sent before its first request (re-sent by `jrpc replay`).
    pub notifications_first: Vec<String>,
    /// The exchanges of each `method` + canonical params, in recorded order.
    by_request: HashMap<String, Vec<usize>>,
    /// The exchanges of each `method` + canonical params after a given `initialize` (its canonical
    /// params first): a session that made the same handshake gets the answers of that session,
    /// when several recorded sessions sent the same request (a client that declared sampling and
    /// one that did not, each calling the same tool).
    by_handshake_request: HashMap<String, Vec<usize>>,
    /// The exchanges of each method, in recorded order.
    by_method: HashMap<String, Vec<usize>>,
    /// Methods in first-recorded order.
    methods: Vec<String>,
    /// What answered each recorded input that was not a single request — a batch, an unreadable
    /// message, an invalid one — by the input's canonical JSON (its trimmed text when unreadable):
    /// sent back as recorded when the same input comes again.
    by_input: HashMap<String, Vec<String>>,
    /// Bytes read so far.
    bytes: u64,
    /// Messages of the server that followed no request, or answered none, and were left out.
    pub unplaced: usize,
}

/// The pieces of a transcript that start at a marker line (`-->` or `<--` after optional spaces or
/// tabs), each up to the next one, with their offsets; text before the first marker is left out.
fn marked_chunks(src: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut starts = Vec::new();
    let mut line = 0;
    while line < src.len() {
        let text = line
            + src[line..]
                .iter()
                .position(|&b| !matches!(b, b' ' | b'\t'))
                .unwrap_or(src.len() - line);
        if matches!(src.get(text..text + 3), Some(b"-->" | b"<--")) {
            starts.push(line);
        }
        line = match src[line..].iter().position(|&b| b == b'\n') {
            Some(n) => line + n + 1,
            None => src.len(),
        };
    }
    let ends: Vec<usize> = starts.iter().skip(1).copied().chain([src.len()]).collect();
    starts
        .into_iter()
        .zip(ends)
        .map(move |(start, end)| (start, &src[start..end]))
}

/// The `by_input` key of an unreadable input.
fn unreadable_key(text: &str) -> String {
    format!("unreadable\n{text}")
}

/// The `by_input` key of an input answered as a whole: a batch (or an array of anything), or a
/// message that is neither a request, a notification nor a response; `None` for those.
fn whole_input_key(root: &Node) -> Option<String> {
    let whole = match &root.value {
        Value::Array(_) => true,
        Value::Object(_) => {
            root.get("method").and_then(Node::as_str).is_none()
                && root.get("result").is_none()
                && root.get("error").is_none()
        }
        _ => true,
    };
    whole.then(|| format!("input\n{}", canonical(root)))
}

/// The `by_handshake_request` key of a request after the `initialize` with canonical params
/// `handshake`.
fn handshake_key(handshake: &str, key: &str) -> String {
    format!("{handshake}\u{0}{key}")
}

/// The map key of a request.
fn request_key(method: &str, params: &str) -> String {
    let mut key = String::with_capacity(method.len() + params.len() + 1);
    key.push_str(method);
    key.push('\n');
    key.push_str(params);
    key
}

impl Recording {
    /// Reads the transcripts at `paths` (in order) into one recording, or says which one could not
    /// be read and why.
    pub fn load(paths: &[String]) -> Result<Recording, String> {
        if paths.len() > MAX_TRANSCRIPTS {
            return Err(format!(
                "{} transcripts given; at most {MAX_TRANSCRIPTS} are merged",
                paths.len()
            ));
        }
        let mut recording = Recording::default();
        for path in paths {
            let bytes = read_bounded(path, MAX_TRANSCRIPT_BYTES)?;
            recording.bytes += bytes.len() as u64;
            if recording.bytes > MAX_RECORDING_BYTES {
                return Err(format!(
                    "{path}: the transcripts together are larger than {MAX_RECORDING_BYTES} bytes"
                ));
            }
            recording.add(path, &bytes)?;
        }
        Ok(recording)
    }

    /// Adds the transcript `src` (named `name` in locations).
    ///
    /// The transcript is parsed one marked message at a time (from a `-->` / `<--` line to the
    /// next), so what is held at once is the recording plus one message's tree, not the tree of
    /// the whole file.
    pub fn add(&mut self, name: &str, whole: &[u8]) -> Result<(), String> {
        if !crate::json::has_marker_line(whole) {
            return Err(format!(
                "{name}: not a transcript (no line starts with `-->` or `<--`)"
            ));
        }
        let mut lines = LineCounter::default();
        let mut current: Option<usize> = None;
        // The canonical params of this transcript's last `initialize` (empty before one).
        let mut handshake = String::new();
        // The requests of this transcript still waiting for their response, by recorded id.
        let mut waiting: HashMap<String, usize> = HashMap::new();
        // The same, oldest first: a server message before a reply belongs to the oldest request
        // still waiting (the client may have sent several before the server answered any).
        let mut oldest_waiting: BTreeSet<usize> = BTreeSet::new();
        // The inputs that were not a single request (batches, unreadable or invalid messages)
        // waiting for what answers them as a whole (an array, an error with id null), oldest first.
        let mut inputs_waiting: std::collections::VecDeque<String> = Default::default();
        for (base, src) in marked_chunks(whole) {
            let stream = split_stream(src);
            for segment in &stream.segments {
                let Some(direction) = segment.direction else {
                    continue;
                };
                let parsed = match &segment.parsed {
                    Ok(parsed) => parsed,
                    Err(_) => {
                        if direction == Direction::Client {
                            let text = String::from_utf8_lossy(
                                src[segment.span.start..segment.span.end.min(src.len())]
                                    .trim_ascii(),
                            );
                            let key = unreadable_key(&text);
                            self.by_input.entry(key.clone()).or_default();
                            inputs_waiting.push_back(key);
                        }
                        continue;
                    }
                };
                let line = lines.line_of(whole, base + segment.span.start);
                let root = &parsed.root;
                if let Some(key) = whole_input_key(root) {
                    match direction {
                        Direction::Client => {
                            self.by_input.entry(key.clone()).or_default();
                            inputs_waiting.push_back(key);
                        }
                        Direction::Server => {
                            if let Some(key) = inputs_waiting.pop_front() {
                                if let Some(replies) = self.by_input.get_mut(&key) {
                                    replies.push(compact(root).text);
                                }
                            }
                        }
                    }
                } else if direction == Direction::Server
                    && root.get("method").is_none()
                    && matches!(root.get("id").map(|id| &id.value), Some(Value::Null))
                {
                    match inputs_waiting.pop_front() {
                        Some(key) => {
                            if let Some(replies) = self.by_input.get_mut(&key) {
                                replies.push(compact(root).text);
                            }
                        }
                        None => self.unplaced += 1,
                    }
                    continue;
                }
                let elements: &[Node] = match &parsed.root.value {
                    Value::Array(items) => items,
                    _ => std::slice::from_ref(&parsed.root),
                };
                for node in elements {
                    let method = node.get("method").and_then(Node::as_str);
                    let id = node.get("id");
                    match (direction, method, id) {
                        (Direction::Client, Some(method), Some(id)) => {
                            let params = node.get("params").map(canonical).unwrap_or_default();
                            let id_text = compact(id).text;
                            let index = self.exchanges.len();
                            self.exchanges.push(Exchange {
                                method: method.to_string(),
                                params: params.clone(),
                                request: compact_with_id(node),
                                id: id_text.clone(),
                                at: format!("{name}:{line}"),
                                items: Vec::new(),
                                notifications_after: Vec::new(),
                                client_answers: Vec::new(),
                            });
                            if method == "initialize" {
                                handshake = params.clone();
                            }
                            let key = request_key(method, &params);
                            if !handshake.is_empty() {
                                self.by_handshake_request
                                    .entry(handshake_key(&handshake, &key))
                                    .or_default()
                                    .push(index);
                            }
                            self.by_request.entry(key).or_default().push(index);
                            match self.by_method.get_mut(method) {
                                Some(list) => list.push(index),
                                None => {
                                    self.by_method.insert(method.to_string(), vec![index]);
                                    self.methods.push(method.to_string());
                                }
                            }
                            if let Some(replaced) = waiting.insert(id_text, index) {
                                oldest_waiting.remove(&replaced);
                            }
                            oldest_waiting.insert(index);
                            current = Some(index);
                        }
                        (Direction::Client, Some(_), None) => {
                            let text = compact(node).text;
                            match current {
                                Some(index) => self.exchanges[index].notifications_after.push(text),
                                None => self.notifications_first.push(text),
                            }
                        }
                        // The client's answer to a server request: `jrpc serve --replay` takes it
                        // in silence; `jrpc replay` sends it again.
                        (Direction::Client, None, _) => {
                            if let Some(index) = oldest_waiting.first().copied().or(current) {
                                self.exchanges[index]
                                    .client_answers
                                    .push(compact_with_id(node));
                            }
                        }
                        (Direction::Server, Some(_), _) => {
                            match oldest_waiting.first().copied().or(current) {
                                Some(index) => self.exchanges[index]
                                    .items
                                    .push(Item::Message(compact(node))),
                                None => self.unplaced += 1,
                            }
                        }
                        (Direction::Server, None, id) => {
                            let index = id.and_then(|id| waiting.remove(&compact(id).text));
                            match index {
                                Some(index) => {
                                    oldest_waiting.remove(&index);
                                    self.exchanges[index]
                                        .items
                                        .push(Item::Reply(compact_with_id(node)));
                                }
                                None => self.unplaced += 1,
                            }
                        }
                    }
                }
            }
        }
        // A request recorded both answered and not (an element of a batch refused as a whole,
        // a call the recording ended before answering) is answered as it was answered.
        let exchanges = &self.exchanges;
        for list in self
            .by_request
            .values_mut()
            .chain(self.by_handshake_request.values_mut())
        {
            if list.iter().any(|&index| exchanges[index].reply().is_some()) {
                list.retain(|&index| exchanges[index].reply().is_some());
            }
        }
        Ok(())
    }

    /// The recorded methods, in first-recorded order.
    pub fn methods(&self) -> &[String] {
        &self.methods
    }

    /// The exchanges recorded for `method` + `params` (canonical JSON).
    pub fn find(&self, method: &str, params: &str) -> &[usize] {
        self.by_request
            .get(&request_key(method, params))
            .map_or(&[], Vec::as_slice)
    }

    /// The error an unmatched request gets: -32601 when its method was never recorded, -32602
    /// when it was with other params; `data` names the nearest recorded requests.
    pub fn unmatched(&self, method: &str, params: &str) -> (i64, String, serde_json::Value) {
        match self.by_method.get(method) {
            Some(list) => {
                let mut scored: Vec<(usize, usize)> = list
                    .iter()
                    .take(MAX_NEAREST_SCANNED)
                    .map(|&index| {
                        let shared = common_prefix(&self.exchanges[index].params, params);
                        (usize::MAX - shared, index)
                    })
                    .collect();
                scored.sort_unstable();
                scored.dedup_by_key(|(_, index)| &self.exchanges[*index].params);
                let nearest: Vec<serde_json::Value> = scored
                    .iter()
                    .take(NEAREST_NAMED)
                    .map(|&(_, index)| {
                        let exchange = &self.exchanges[index];
                        serde_json::json!({
                            "at": exchange.at,
                            "params": serde_json::from_str::<serde_json::Value>(&exchange.params)
                                .unwrap_or(serde_json::Value::Null),
                        })
                    })
                    .collect();
                let first = nearest
                    .first()
                    .and_then(|n| n.get("at"))
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or("");
                (
                    -32602,
                    format!(
                        "Invalid params: `{method}` was recorded ({} time(s)), but not with these params; the nearest recorded call is at {first}",
                        list.len()
                    ),
                    serde_json::json!({"replay": "not recorded", "method": method, "nearest": nearest}),
                )
            }
            None => {
                let mut scored: Vec<(usize, &String)> = self
                    .methods
                    .iter()
                    .take(MAX_NEAREST_SCANNED)
                    .map(|name| (edit_distance(name, method), name))
                    .collect();
                scored.sort_unstable();
                let nearest: Vec<serde_json::Value> = scored
                    .iter()
                    .take(NEAREST_NAMED)
                    .map(|(_, name)| {
                        let at = self
                            .by_method
                            .get(*name)
                            .and_then(|list| list.first())
                            .map_or("", |&index| self.exchanges[index].at.as_str());
                        serde_json::json!({"method": name, "at": at})
                    })
                    .collect();
                let names: Vec<&str> = scored
                    .iter()
                    .take(NEAREST_NAMED)
                    .map(|(_, n)| n.as_str())
                    .collect();
                (
                    -32601,
                    format!(
                        "Method not found: `{}` is not in the recording{}",
                        super::diagnostic::printable(method),
                        if names.is_empty() {
                            String::new()
                        } else {
                            format!(" (nearest recorded: {})", names.join(", "))
                        }
                    ),
                    serde_json::json!({"replay": "not recorded", "method": method, "nearest": nearest}),
                )
            }
        }
    }
}

/// Reads at most `limit` bytes of `path`, or says why not (a larger file is refused whole).
pub fn read_bounded(path: &str, limit: u64) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: cannot read it: {e}"))?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{path}: cannot read it: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!("{path}: larger than {limit} bytes; not read"));
    }
    Ok(bytes)
}

/// Line numbers of byte offsets that only grow: counted once over the input.
#[derive(Default)]
struct LineCounter {
    pos: usize,
    line: usize,
}

impl LineCounter {
    fn line_of(&mut self, src: &[u8], pos: usize) -> usize {
        let pos = pos.min(src.len());
        if pos >= self.pos {
            self.line += src[self.pos..pos].iter().filter(|&&b| b == b'\n').count();
            self.pos = pos;
        }
        self.line + 1
    }
}

/// How many bytes `a` and `b` share at their start.
fn common_prefix(a: &str, b: &str) -> usize {
    a.bytes()
        .zip(b.bytes())
        .take(PARAMS_COMPARED)
        .take_while(|(x, y)| x == y)
        .count()
}

/// The edit distance between the first [`NAME_COMPARED`] characters of `a` and `b`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().take(NAME_COMPARED).collect();
    let b: Vec<char> = b.chars().take(NAME_COMPARED).collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (previous + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(here + 1);
            previous = here;
        }
    }
    row[b.len()]
}

/// `node` in canonical JSON: object keys sorted (by their decoded text), numbers as written,
/// strings decoded and written again the one way `serde_json` writes them.
pub fn canonical(node: &Node) -> String {
    let mut out = String::new();
    write_canonical(node, &mut out);
    out
}

fn write_string(text: &str, out: &mut String) {
    match serde_json::to_string(text) {
        Ok(quoted) => out.push_str(&quoted),
        Err(_) => out.push_str("\"\""),
    }
}

fn write_canonical(node: &Node, out: &mut String) {
    match &node.value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(text) => out.push_str(text),
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        Value::Object(members) => {
            let mut sorted: Vec<_> = members.iter().collect();
            sorted.sort_by(|a, b| a.key.cmp(&b.key));
            out.push('{');
            for (i, member) in sorted.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(&member.key, out);
                out.push(':');
                write_canonical(&member.value, out);
            }
            out.push('}');
        }
    }
}

/// `node` as compact JSON, members in their order, strings as written.
pub fn compact(node: &Node) -> Sent {
    let mut out = String::new();
    write_compact(node, &mut out);
    Sent {
        text: out,
        id_at: None,
    }
}

/// [`compact`], noting where the top-level `id` value sits.
fn compact_with_id(node: &Node) -> Sent {
    let Value::Object(members) = &node.value else {
        return compact(node);
    };
    let mut out = String::from("{");
    let mut id_at = None;
    for (i, member) in members.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(&member.key, &mut out);
        out.push(':');
        let start = out.len();
        write_compact(&member.value, &mut out);
        if member.key == "id" {
            id_at = Some((start, out.len()));
        }
    }
    out.push('}');
    Sent { text: out, id_at }
}

fn write_compact(node: &Node, out: &mut String) {
    match &node.value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(text) => out.push_str(text),
        Value::String(s) => {
            out.push('"');
            out.push_str(s.raw());
            out.push('"');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_compact(item, out);
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (i, member) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(&member.key, out);
                out.push(':');
                write_compact(&member.value, out);
            }
            out.push('}');
        }
    }
}

/// What one connection (a stdio process, a WebSocket, the HTTP endpoint) has been answered so far:
/// the n-th call of a recorded request gets the n-th recorded answer (the last one again after
/// that). An `initialize` starts the recording over.
#[derive(Debug, Default)]
pub struct Session {
    calls: HashMap<String, usize>,
    /// The canonical params of this session's `initialize` (empty before one).
    handshake: String,
    /// Whether what was recorded after a server request (sampling, elicitation, roots) waits for
    /// the client's answer to it (stdio and WebSocket), or goes at once (HTTP: one POST's stream).
    waits_for_answers: bool,
    /// What waits for the client's answer to each server request, by the request's id.
    held: HashMap<String, Vec<Out>>,
}

/// The most server requests a session waits for answers to at once; past it what was recorded
/// after a server request goes at once.
pub const MAX_HELD: usize = 1_000;

/// One message of an answer: its text, the id of a server request (whose answer what follows
/// waits for), and whether it is the reply.
#[derive(Debug)]
struct Out {
    text: String,
    asks: Option<String>,
    reply: bool,
}

impl Session {
    /// A session whose server requests wait for the client's answers (stdio, WebSocket).
    pub fn waiting_for_answers() -> Session {
        Session {
            waits_for_answers: true,
            ..Session::default()
        }
    }

    /// Sends `outs` in order up to a server request with something after it, which waits for the
    /// client's answer to that request.
    fn release(&mut self, outs: Vec<Out>) -> Answered {
        let mut answered = Answered::default();
        let mut outs = outs.into_iter();
        while let Some(out) = outs.next() {
            answered.sent.push(out.text);
            answered.replied |= out.reply;
            if let Some(asks) = out.asks {
                let rest: Vec<Out> = outs.by_ref().collect();
                if rest.is_empty() {
                    break;
                }
                if self.waits_for_answers && self.held.len() < MAX_HELD {
                    self.held.insert(asks, rest);
                    break;
                }
                outs = rest.into_iter();
            }
        }
        answered
    }
}

/// The id (compact JSON) of `text` when it is a request of the server's (a method and an id).
fn server_request_id(text: &str) -> Option<String> {
    let (parsed, _) = crate::json::parse_document(text.as_bytes(), 0).ok()?;
    parsed.root.get("method")?;
    parsed.root.get("id").map(|id| compact(id).text)
}

/// A JSON-RPC error reply with `id` (compact JSON text).
fn error_reply(id: &str, code: i64, message: &str, data: Option<serde_json::Value>) -> String {
    let mut error = serde_json::json!({"code": code, "message": message});
    if let Some(data) = data {
        error["data"] = data;
    }
    let mut out = String::from(r#"{"jsonrpc":"2.0","error":"#);
    let _ = write!(out, "{error}");
    let _ = write!(out, r#","id":{id}}}"#);
    out
}

/// What the replaying server sends for one input: the messages in order, and the reply (for a
/// batch, the array of its replies) last.
#[derive(Debug, Default)]
pub struct Answered {
    /// The server's own messages and, for a single request, its reply, in recorded order.
    pub sent: Vec<String>,
    /// Whether the last of `sent` is the reply to the input (false for notifications and answers).
    pub replied: bool,
}

impl Recording {
    /// Answers `input` (one message or a batch) as the recording did.
    pub fn answer(&self, session: &mut Session, input: &[u8]) -> Answered {
        let recorded = |key: &str| {
            self.by_input.get(key).map(|replies| Answered {
                replied: !replies.is_empty(),
                sent: replies.clone(),
            })
        };
        let parsed = match crate::json::parse_document(input, 0) {
            Ok((parsed, end)) if input[end..].iter().all(u8::is_ascii_whitespace) => parsed,
            _ => {
                let text = String::from_utf8_lossy(input.trim_ascii());
                if let Some(answered) = recorded(&unreadable_key(&text)) {
                    return answered;
                }
                return Answered {
                    sent: vec![error_reply(
                        "null",
                        -32700,
                        "Parse error",
                        Some(serde_json::json!("the input is not one JSON value")),
                    )],
                    replied: true,
                };
            }
        };
        if let Some(answered) = whole_input_key(&parsed.root).and_then(|key| recorded(&key)) {
            return answered;
        }
        match &parsed.root.value {
            Value::Array(items) if !items.is_empty() => {
                let mut answered = Answered::default();
                let mut replies = Vec::new();
                for item in items {
                    let one = self.answer_one(session, item);
                    let mut sent = one.sent;
                    if one.replied {
                        if let Some(reply) = sent.pop() {
                            replies.push(reply);
                        }
                    }
                    answered.sent.extend(sent);
                }
                if !replies.is_empty() {
                    answered.sent.push(format!("[{}]", replies.join(",")));
                    answered.replied = true;
                }
                answered
            }
            _ => self.answer_one(session, &parsed.root),
        }
    }

    fn answer_one(&self, session: &mut Session, node: &Node) -> Answered {
        let method = node.get("method").and_then(Node::as_str);
        let id = node.get("id").map(|id| compact(id).text);
        let (Some(method), Some(id)) = (method, id.clone()) else {
            if method.is_none() && node.get("result").is_none() && node.get("error").is_none() {
                return Answered {
                    sent: vec![error_reply(
                        id.as_deref().unwrap_or("null"),
                        -32600,
                        "Invalid Request",
                        Some(serde_json::json!(
                            "neither a request, a notification nor a response"
                        )),
                    )],
                    replied: true,
                };
            }
            // The client's answer to a server request: what the recording sent after it.
            if let (None, Some(id)) = (method, &id) {
                if let Some(rest) = session.held.remove(id) {
                    return session.release(rest);
                }
            }
            // A notification, or an answer nothing waits for: nothing to say.
            return Answered::default();
        };
        let params = node.get("params").map(canonical).unwrap_or_default();
        if method == "initialize" {
            session.calls.clear();
            session.handshake = params.clone();
        }
        let mut key = request_key(method, &params);
        let mut found = None;
        if !session.handshake.is_empty() {
            let scoped = handshake_key(&session.handshake, &key);
            if let Some(list) = self.by_handshake_request.get(&scoped) {
                found = Some(list);
                key = scoped;
            }
        }
        let Some(list) = found.or_else(|| self.by_request.get(&key)) else {
            let (code, message, data) = self.unmatched(method, &params);
            return Answered {
                sent: vec![error_reply(&id, code, &message, Some(data))],
                replied: true,
            };
        };
        let count = session.calls.entry(key).or_default();
        let index = list[(*count).min(list.len() - 1)];
        *count += 1;
        let mut outs = Vec::new();
        for item in &self.exchanges[index].items {
            match item {
                Item::Message(sent) => outs.push(Out {
                    text: sent.text.clone(),
                    asks: server_request_id(&sent.text),
                    reply: false,
                }),
                Item::Reply(sent) => outs.push(Out {
                    text: sent.with_id(&id),
                    asks: None,
                    reply: true,
                }),
            }
        }
        // The reply goes last, as transports carry it; anything recorded after it goes first.
        if let Some(at) = outs.iter().position(|out| out.reply) {
            let reply = outs.remove(at);
            outs.push(reply);
        }
        session.release(outs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recording(text: &str) -> Recording {
        let mut recording = Recording::default();
        recording
            .add("t.txt", text.as_bytes())
            .expect("a transcript");
        recording
    }

    #[test]
    fn answers_by_canonical_params_with_the_callers_id() {
        let r = recording(
            "--> {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"sum\",\"params\":{\"a\":1,\"b\":\"x\"}}\n\
             <-- {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":7}\n",
        );
        let mut session = Session::default();
        let answered = r.answer(
            &mut session,
            br#"{"params":{"b":"\u0078","a":1},"method":"sum","id":"abc","jsonrpc":"2.0"}"#,
        );
        assert_eq!(
            answered.sent,
            vec![r#"{"jsonrpc":"2.0","id":"abc","result":7}"#]
        );
    }

    #[test]
    fn unmatched_requests_name_the_nearest_recorded_ones() {
        let r = recording(
            "--> {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"add\"}}\n\
             <-- {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n",
        );
        let mut session = Session::default();
        let unknown = r.answer(
            &mut session,
            br#"{"jsonrpc":"2.0","id":2,"method":"tools/cal"}"#,
        );
        assert!(unknown.sent[0].contains("-32601"), "{:?}", unknown.sent);
        assert!(unknown.sent[0].contains("tools/call"), "{:?}", unknown.sent);
        let other = r.answer(
            &mut session,
            br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo"}}"#,
        );
        assert!(other.sent[0].contains("-32602"), "{:?}", other.sent);
        assert!(other.sent[0].contains("t.txt:1"), "{:?}", other.sent);
    }

    #[test]
    fn server_messages_go_before_the_reply_and_repeats_take_the_next_answer() {
        let r = recording(
            "--> {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"go\"}\n\
             <-- {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\
             <-- {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":1}\n\
             --> {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"go\"}\n\
             <-- {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":2}\n",
        );
        let mut session = Session::default();
        let first = r.answer(&mut session, br#"{"jsonrpc":"2.0","id":9,"method":"go"}"#);
        assert_eq!(first.sent.len(), 2);
        assert!(first.sent[0].contains("progress"));
        assert_eq!(first.sent[1], r#"{"jsonrpc":"2.0","id":9,"result":1}"#);
        let second = r.answer(&mut session, br#"{"jsonrpc":"2.0","id":9,"method":"go"}"#);
        assert_eq!(second.sent, vec![r#"{"jsonrpc":"2.0","id":9,"result":2}"#]);
        let third = r.answer(&mut session, br#"{"jsonrpc":"2.0","id":9,"method":"go"}"#);
        assert_eq!(third.sent, vec![r#"{"jsonrpc":"2.0","id":9,"result":2}"#]);
    }

    /// Answering costs the same whatever the size of the recording: the work of one request is
    /// its own size (a hash map lookup), counted here as the exchanges touched.
    #[test]
    fn matching_is_a_lookup_at_any_recording_size() {
        for n in [1_000usize, 10_000] {
            let mut text = String::new();
            for i in 0..n {
                let _ = writeln!(
                    text,
                    "--> {{\"jsonrpc\":\"2.0\",\"id\":{i},\"method\":\"m\",\"params\":[{i}]}}\n<-- {{\"jsonrpc\":\"2.0\",\"id\":{i},\"result\":{i}}}"
                );
            }
            let r = recording(&text);
            assert_eq!(r.exchanges.len(), n);
            assert_eq!(r.find("m", &format!("[{}]", n - 1)).len(), 1);
            let mut session = Session::default();
            let answered = r.answer(
                &mut session,
                format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"m\",\"params\":[{}]}}",
                    n - 1
                )
                .as_bytes(),
            );
            assert_eq!(
                answered.sent,
                vec![format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}}",
                    n - 1
                )]
            );
        }
    }

    /// Reading a recording of n exchanges and answering each of its n requests once grows
    /// linearly: 10x the exchanges costs well under 30x the time.
    #[test]
    fn loading_and_answering_grow_linearly() {
        fn cost(n: usize) -> std::time::Duration {
            let mut text = String::new();
            let mut requests = Vec::new();
            for i in 0..n {
                let request = format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":{i},\"method\":\"tools/call\",\"params\":{{\"name\":\"echo\",\"arguments\":{{\"text\":\"{i}\"}}}}}}"
                );
                let _ = writeln!(
                    text,
                    "--> {request}\n<-- {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{{}}}}\n<-- {{\"jsonrpc\":\"2.0\",\"id\":{i},\"result\":{{}}}}"
                );
                requests.push(request);
            }
            let started = std::time::Instant::now();
            let r = recording(&text);
            let mut session = Session::default();
            for request in &requests {
                assert!(r.answer(&mut session, request.as_bytes()).replied);
            }
            started.elapsed()
        }
        let small = cost(2_000);
        let large = cost(20_000);
        assert!(
            large < small * 30,
            "2000 exchanges: {small:?}, 20000: {large:?}"
        );
    }

    /// Two recorded sessions sent the same call after different handshakes: each caller gets the
    /// answer of the session whose handshake it made.
    #[test]
    fn the_same_request_after_different_handshakes_gets_its_sessions_answer() {
        let mut r = Recording::default();
        for (name, capabilities, answer) in [
            ("a.txt", "{}", "refused"),
            ("b.txt", "{\"sampling\":{}}", "sampled"),
        ] {
            let text = format!(
                "--> {{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{{\"capabilities\":{capabilities}}}}}\n\
                 <-- {{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{}}}}\n\
                 --> {{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{{\"name\":\"summarize\"}}}}\n\
                 <-- {{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":\"{answer}\"}}\n"
            );
            r.add(name, text.as_bytes()).expect("a transcript");
        }
        let call =
            br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"summarize"}}"#;
        let mut session = Session::default();
        r.answer(&mut session, br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"sampling":{}}}}"#);
        assert!(r.answer(&mut session, call).sent[0].contains("sampled"));
        let mut session = Session::default();
        r.answer(
            &mut session,
            br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
        );
        assert!(r.answer(&mut session, call).sent[0].contains("refused"));
    }

    #[test]
    fn a_file_over_the_limit_is_refused_whole() {
        let path =
            std::env::temp_dir().join(format!("jrpc-recording-limit-{}", std::process::id()));
        std::fs::write(&path, b"0123456789A").expect("a scratch file");
        let name = path.to_string_lossy().into_owned();
        let refused = read_bounded(&name, 10);
        assert!(refused.is_err_and(|e| e.contains("larger than 10 bytes")));
        assert_eq!(read_bounded(&name, 11).map(|b| b.len()), Ok(11));
        let _ = std::fs::remove_file(&path);
        let many: Vec<String> = (0..=MAX_TRANSCRIPTS).map(|i| format!("t{i}.txt")).collect();
        assert!(Recording::load(&many).is_err_and(|e| e.contains("at most 64")));
    }

    /// On stdio and WebSocket, what was recorded after a server request waits for the client's
    /// answer to it; over HTTP it goes at once.
    #[test]
    fn what_follows_a_server_request_waits_for_the_clients_answer() {
        let r = recording(
            "--> {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"summarize\"}}\n\
             <-- {\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"sampling/createMessage\",\"params\":{}}\n\
             --> {\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"result\":{}}\n\
             <-- {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\
             <-- {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"done\"}\n",
        );
        let call =
            br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"summarize"}}"#;
        let mut session = Session {
            waits_for_answers: true,
            ..Session::default()
        };
        let first = r.answer(&mut session, call);
        assert_eq!(first.sent.len(), 1, "{:?}", first.sent);
        assert!(first.sent[0].contains("sampling/createMessage") && !first.replied);
        let rest = r.answer(&mut session, br#"{"jsonrpc":"2.0","id":"s1","result":{}}"#);
        assert_eq!(rest.sent.len(), 2, "{:?}", rest.sent);
        assert!(rest.replied && rest.sent[1].contains(r#""id":5"#));
        let mut http = Session::default();
        let all = r.answer(&mut http, call);
        assert_eq!(all.sent.len(), 3);
        assert!(all.replied);
    }
}
