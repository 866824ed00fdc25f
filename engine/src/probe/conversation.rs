//! The recorded conversation: every message both ways, in order, as the probe sent and received
//! it. It sends a message and waits for its reply (bounded by the per-request timeout and the
//! probe's deadline); what the server sends meanwhile is recorded too, and its requests to the
//! client are answered as a cooperative client answers them ([`crate::client`]: sampling,
//! elicitation with the schema's defaults, roots, ping; -32601 for the rest). An input-required
//! result (MCP 2026-07-28) is answered the same way and the request retried with `inputResponses`
//! and the unchanged `requestState`, for at most [`MAX_INPUT_ROUNDS`] rounds ([`RoundTrip`]).
//! Time is the link's clock ([`ProbeLink::elapsed`]): the engine reads no clock of its own.

use std::time::Duration;

use serde_json::{json, Value};

use super::link::{shape, Delivery, LinkError, ProbeLink};

/// The most messages one probe records: past it the server is flooding and the probe stops.
const MAX_MESSAGES: usize = 20_000;
/// The most bytes of messages one probe records (both ways): past it the server is flooding
/// (a few messages of 8 MB each) and the probe stops, saying what it dropped. With the links'
/// bound on one message (16 MiB) it bounds the probe's memory whatever the server sends.
pub const MAX_KEPT_BYTES: usize = 16 * 1024 * 1024;

/// The most input-required rounds one request goes through before the probe gives up on it.
pub const MAX_INPUT_ROUNDS: usize = 8;
/// The most input requests of one input-required result the probe answers (the rest are left
/// unanswered, and the round trip says so).
pub const MAX_INPUT_REQUESTS: usize = 32;
/// The longest `requestState` the probe echoes (bytes); a longer one ends the round trip.
pub const MAX_REQUEST_STATE_BYTES: usize = 1024 * 1024;
/// The most round trips recorded for the report (the rest are counted).
const MAX_ROUND_TRIPS_KEPT: usize = 100;

/// One request that was answered with input-required results, and how its rounds went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundTrip {
    /// The request's method (and the tool, prompt or resource it names).
    pub request: String,
    /// Input-required results answered (the request was sent `rounds + 1` times in all, unless
    /// it was given up).
    pub rounds: usize,
    /// The methods of the input requests answered, in order (`elicitation/create`, ...).
    pub asked: Vec<String>,
    /// Why the probe stopped before a final result, when it did.
    pub gave_up: Option<String>,
}

/// Who sent a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Client,
    Server,
}

impl Side {
    pub const fn marker(self) -> &'static str {
        match self {
            Side::Client => "-->",
            Side::Server => "<--",
        }
    }
}

/// One message of the conversation.
#[derive(Clone, Debug)]
pub struct Entry {
    pub side: Side,
    pub text: String,
}

/// What the probe waits for after sending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// A reply (a response or a batch of them).
    Reply,
    /// Nothing (a notification): wait a short while for anything that comes anyway.
    Nothing,
    /// The notification `notifications/subscriptions/acknowledged` (what answers a 2026-07-28
    /// `subscriptions/listen`, whose request stays open), or a reply (an error, or the end).
    Acknowledged,
}

/// The notification a server answers `subscriptions/listen` with.
pub const ACKNOWLEDGED: &str = "notifications/subscriptions/acknowledged";

/// One message sent and what came back.
#[derive(Clone, Debug, Default)]
pub struct Exchange {
    /// The entry of the sent message.
    pub sent: usize,
    /// The reply (its entry and its value when it is JSON); `None` when nothing came in time.
    pub reply: Option<(usize, Option<Value>)>,
    /// What the transport said (HTTP status, a note).
    pub delivery: Delivery,
}

impl Exchange {
    /// The reply's JSON value.
    pub fn value(&self) -> Option<&Value> {
        self.reply.as_ref().and_then(|(_, v)| v.as_ref())
    }
    /// The reply's `result`, when it is a success.
    pub fn result(&self) -> Option<&Value> {
        self.value().and_then(|v| v.get("result"))
    }
    /// The reply's error code, when it is an error response.
    pub fn error_code(&self) -> Option<i64> {
        self.value()
            .and_then(|v| v.get("error"))
            .and_then(|e| e.get("code"))
            .and_then(Value::as_i64)
    }
}

pub struct Conversation<L> {
    link: L,
    pub entries: Vec<Entry>,
    /// How long one request may wait for its reply.
    pub timeout: Duration,
    /// How long a notification waits for an (unwanted) answer.
    pub grace: Duration,
    /// The probe's end (--total-timeout), on the link's clock.
    pub deadline: Duration,
    next_id: u64,
    /// Ids of requests whose reply did not come in time: a response carrying one later is that
    /// late reply, not the reply to whatever was sent last.
    overdue: Vec<Value>,
    /// The server has sent at least one message (so it was reached).
    pub reached: bool,
    /// The `_meta` every request carries (MCP 2026-07-28, which has no initialize).
    pub envelope: Option<Value>,
    /// What the transport last said besides messages (an HTTP error status): the reason a server
    /// that never sent a message was not reached.
    pub last_note: Option<String>,
    /// The bytes of the messages recorded.
    kept_bytes: usize,
    /// The requests answered with input-required results (up to [`MAX_ROUND_TRIPS_KEPT`]).
    pub round_trips: Vec<RoundTrip>,
    /// Round trips past the kept ones.
    pub round_trips_dropped: usize,
    /// The server's own requests (earlier revisions) answered with a result.
    pub server_requests_answered: usize,
}

impl<L: ProbeLink> Conversation<L> {
    /// A conversation over `link`: each request waits `timeout` for its reply, and the probe ends
    /// when the link's clock reaches `deadline`.
    pub fn new(link: L, timeout: Duration, deadline: Duration) -> Conversation<L> {
        Conversation {
            link,
            entries: Vec::new(),
            timeout,
            grace: timeout.min(Duration::from_millis(300)),
            deadline,
            next_id: 1,
            overdue: Vec::new(),
            reached: false,
            last_note: None,
            envelope: None,
            kept_bytes: 0,
            round_trips: Vec::new(),
            round_trips_dropped: 0,
            server_requests_answered: 0,
        }
    }

    pub fn link(&mut self) -> &mut L {
        &mut self.link
    }

    /// The link (to close) and the messages recorded.
    pub fn into_parts(self) -> (L, Vec<Entry>) {
        (self.link, self.entries)
    }

    /// The next request id.
    pub fn next_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// Sends the request `method` with `params` (an object, or nothing when null) and a fresh id.
    pub async fn request(&mut self, method: &str, params: Value) -> Result<Exchange, LinkError> {
        let id = self.next_id();
        self.request_as(json!(id), method, params).await
    }

    /// Sends the request `method` with the id `id`; under MCP 2026-07-28 its params carry the
    /// per-request `_meta` envelope. An input-required result is answered and the request retried
    /// (with fresh ids) until another result comes, for at most [`MAX_INPUT_ROUNDS`] rounds: the
    /// exchange returned is the last one.
    pub async fn request_as(
        &mut self,
        id: Value,
        method: &str,
        params: Value,
    ) -> Result<Exchange, LinkError> {
        let mut exchange = self.send_request(id, method, params.clone()).await?;
        if input_required(&exchange).is_none() {
            return Ok(exchange);
        }
        let mut trip = RoundTrip {
            request: describe_request(method, &params),
            rounds: 0,
            asked: Vec::new(),
            gave_up: None,
        };
        while let Some(result) = input_required(&exchange) {
            if trip.rounds == MAX_INPUT_ROUNDS {
                trip.gave_up = Some(format!(
                    "still input-required after {MAX_INPUT_ROUNDS} rounds"
                ));
                break;
            }
            let retry = match answer_input_requests(result, &mut trip.asked) {
                Ok(answers) => answers,
                Err(why) => {
                    trip.gave_up = Some(why);
                    break;
                }
            };
            trip.rounds += 1;
            let mut retried = match &params {
                Value::Object(members) => members.clone(),
                _ => serde_json::Map::new(),
            };
            retried.extend(retry);
            let id = json!(self.next_id());
            exchange = self
                .send_request(id, method, Value::Object(retried))
                .await?;
        }
        if self.round_trips.len() < MAX_ROUND_TRIPS_KEPT {
            self.round_trips.push(trip);
        } else {
            self.round_trips_dropped += 1;
        }
        Ok(exchange)
    }

    /// Sends `subscriptions/listen` with `params` (and the envelope) and waits for its
    /// acknowledgement ([`Expect::Acknowledged`]); the id it was sent with.
    pub async fn listen(&mut self, params: Value) -> Result<(Value, Exchange), LinkError> {
        let id = json!(self.next_id());
        let message = self.request_text(id.clone(), "subscriptions/listen", params);
        let exchange = self.send(message, Expect::Acknowledged).await?;
        // The request stays open: a reply to it later (its end) is a late one, not the reply to
        // whatever was sent last. (Without an acknowledgement `send` listed it already.)
        if exchange.reply.is_some() && !is_reply_value(exchange.value()) {
            self.overdue.push(id.clone());
        }
        Ok((id, exchange))
    }

    /// Sends one request (with the envelope, under 2026-07-28) and waits for its reply.
    async fn send_request(
        &mut self,
        id: Value,
        method: &str,
        params: Value,
    ) -> Result<Exchange, LinkError> {
        let message = self.request_text(id, method, params);
        self.send(message, Expect::Reply).await
    }

    /// The request's text: under 2026-07-28 its params carry the envelope.
    fn request_text(&self, id: Value, method: &str, params: Value) -> String {
        let mut message = json!({"jsonrpc": "2.0", "id": id, "method": method});
        let params = match (&self.envelope, params) {
            (Some(meta), Value::Null) => json!({"_meta": meta}),
            (Some(meta), Value::Object(mut members)) => {
                members.insert("_meta".into(), meta.clone());
                Value::Object(members)
            }
            (_, params) => params,
        };
        if !params.is_null() {
            message["params"] = params;
        }
        message.to_string()
    }

    /// Sends the notification `method` with `params`.
    pub async fn notify(&mut self, method: &str, params: Value) -> Result<Exchange, LinkError> {
        let mut message = json!({"jsonrpc": "2.0", "method": method});
        if !params.is_null() {
            message["params"] = params;
        }
        self.send(message.to_string(), Expect::Nothing).await
    }

    /// Sends `text` as it is (broken on purpose, maybe) and waits as `expect` says.
    pub async fn send(&mut self, text: String, expect: Expect) -> Result<Exchange, LinkError> {
        self.check_deadline()?;
        let wait = match expect {
            Expect::Reply | Expect::Acknowledged => self.timeout,
            Expect::Nothing => self.grace,
        };
        let id = serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|v| v.get("id").cloned());
        let delivery = self.link.send(&text, self.send_bound()).await?;
        if delivery.note.is_some() {
            self.last_note.clone_from(&delivery.note);
        }
        let sent = self.record(Side::Client, text)?;
        let mut exchange = Exchange {
            sent,
            reply: None,
            delivery,
        };
        let until = (self.link.elapsed() + wait).min(self.deadline);
        loop {
            let left = until.saturating_sub(self.link.elapsed());
            let Some(message) = self.link.receive(left).await? else {
                break;
            };
            self.reached = true;
            let shape = shape(&message);
            let reply = shape.reply;
            // Only a reply (its result is judged) or a request (it is answered) is read whole.
            let waits_for_ack = expect == Expect::Acknowledged;
            let value = (shape.reply || shape.request || waits_for_ack)
                .then(|| serde_json::from_str::<Value>(&message).ok())
                .flatten();
            let at = self.record(Side::Server, message)?;
            if reply && self.late(value.as_ref(), id.as_ref()) {
                continue;
            }
            let acknowledges = waits_for_ack
                && value
                    .as_ref()
                    .and_then(|v| v.get("method"))
                    .and_then(Value::as_str)
                    == Some(ACKNOWLEDGED);
            if (reply || acknowledges) && exchange.reply.is_none() && expect != Expect::Nothing {
                exchange.reply = Some((at, value));
                break;
            }
            if !reply {
                self.answer_server_request(value.as_ref()).await?;
            }
            if self.link.elapsed() >= until {
                break;
            }
        }
        if exchange.reply.is_none() && expect != Expect::Nothing {
            if let Some(id) = id {
                self.overdue.push(id);
            }
        }
        Ok(exchange)
    }

    /// `reply` answers an overdue request (not `waiting`, the one sent last): it is taken off the
    /// overdue list.
    fn late(&mut self, reply: Option<&Value>, waiting: Option<&Value>) -> bool {
        let Some(id) = reply.and_then(|r| r.get("id")) else {
            return false;
        };
        if Some(id) == waiting {
            return false;
        }
        match self.overdue.iter().position(|o| o == id) {
            Some(i) => {
                self.overdue.remove(i);
                true
            }
            None => false,
        }
    }

    /// Some request's reply has not come yet.
    pub fn has_overdue(&self) -> bool {
        !self.overdue.is_empty()
    }

    /// Waits up to `wait` for anything more the server sends (late replies, notifications).
    pub async fn drain(&mut self, wait: Duration) -> Result<(), LinkError> {
        let until = (self.link.elapsed() + wait).min(self.deadline);
        loop {
            let left = until.saturating_sub(self.link.elapsed());
            if left.is_zero() {
                return Ok(());
            }
            let Some(message) = self.link.receive(left).await? else {
                return Ok(());
            };
            let shape = shape(&message);
            let reply = shape.reply;
            let value = shape
                .request
                .then(|| serde_json::from_str::<Value>(&message).ok())
                .flatten();
            self.record(Side::Server, message)?;
            if !reply {
                self.answer_server_request(value.as_ref()).await?;
            }
        }
    }

    fn record(&mut self, side: Side, text: String) -> Result<usize, LinkError> {
        if self.entries.len() == MAX_MESSAGES {
            return Err(LinkError(format!(
                "the conversation passed {MAX_MESSAGES} messages (a server flooding the probe?)"
            )));
        }
        if self.kept_bytes + text.len() > MAX_KEPT_BYTES {
            return Err(LinkError(format!(
                "the conversation passed {MAX_KEPT_BYTES} bytes (a server flooding the probe?): {} messages of {} bytes kept, a message of {} bytes from the {} and all after it dropped",
                self.entries.len(),
                self.kept_bytes,
                text.len(),
                match side {
                    Side::Client => "probe",
                    Side::Server => "server",
                }
            )));
        }
        self.kept_bytes += text.len();
        self.entries.push(Entry { side, text });
        Ok(self.entries.len() - 1)
    }

    /// How long one message may take to be sent (over HTTP: to be answered): `timeout`, and no
    /// later than the probe's deadline. A server that stops reading cannot hold the probe past it.
    fn send_bound(&self) -> Duration {
        self.timeout
            .min(self.deadline.saturating_sub(self.link.elapsed()))
    }

    fn check_deadline(&self) -> Result<(), LinkError> {
        if self.link.elapsed() >= self.deadline {
            Err(LinkError(
                "the probe ran out of time (--total-timeout)".into(),
            ))
        } else {
            Ok(())
        }
    }

    /// A request from the server (it has an id and a method) gets an answer.
    async fn answer_server_request(&mut self, message: Option<&Value>) -> Result<(), LinkError> {
        let Some(message) = message else {
            return Ok(());
        };
        let (Some(id), Some(method)) = (
            message.get("id"),
            message.get("method").and_then(Value::as_str),
        ) else {
            return Ok(());
        };
        let text = match crate::client::reply_to(&message.to_string()) {
            Some(text) => {
                if crate::client::answers(method) {
                    self.server_requests_answered += 1;
                }
                text
            }
            None => json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": format!("Method not found: the probe does not offer {method}")}}).to_string(),
        };
        self.check_deadline()?;
        self.link.send(&text, self.send_bound()).await?;
        self.record(Side::Client, text)?;
        Ok(())
    }
}

/// The result of `exchange` when it is an input-required one (`resultType: "input_required"`).
fn input_required(exchange: &Exchange) -> Option<&Value> {
    exchange
        .result()
        .filter(|r| r.get("resultType").and_then(Value::as_str) == Some("input_required"))
}

/// `tools/call echo`, `resources/read file:///a`, or the method alone.
fn describe_request(method: &str, params: &Value) -> String {
    let named = params
        .get("name")
        .or_else(|| params.get("uri"))
        .and_then(Value::as_str);
    match named {
        Some(name) => format!("{method} {}", super::link::excerpt(name, 80)),
        None => method.to_string(),
    }
}

/// The members a retry adds to the request's params: `inputResponses` (each input request of
/// `result` answered as [`crate::client`] answers it, by its key) and `requestState` echoed
/// unchanged when there is one. The methods answered are added to `asked`. `Err`: why the result
/// cannot be answered (no `inputRequests` object, a state too long).
fn answer_input_requests(
    result: &Value,
    asked: &mut Vec<String>,
) -> Result<serde_json::Map<String, Value>, String> {
    let Some(requests) = result.get("inputRequests").and_then(Value::as_object) else {
        return Err("the input-required result has no inputRequests object".into());
    };
    let mut responses = serde_json::Map::new();
    for (key, request) in requests.iter().take(MAX_INPUT_REQUESTS) {
        let Some(method) = request.get("method").and_then(Value::as_str) else {
            continue;
        };
        let mut asking = json!({"jsonrpc": "2.0", "id": 0, "method": method});
        if let Some(params) = request.get("params") {
            asking["params"] = params.clone();
        }
        let answer = crate::client::reply_to(&asking.to_string())
            .and_then(|reply| serde_json::from_str::<Value>(&reply).ok())
            .and_then(|mut reply| reply.get_mut("result").map(Value::take));
        if let Some(answer) = answer {
            if asked.len() < MAX_INPUT_REQUESTS * MAX_INPUT_ROUNDS {
                asked.push(method.to_string());
            }
            responses.insert(key.clone(), answer);
        }
    }
    let mut retry = serde_json::Map::new();
    retry.insert("inputResponses".into(), Value::Object(responses));
    match result.get("requestState") {
        Some(Value::String(state)) if state.len() > MAX_REQUEST_STATE_BYTES => {
            return Err(format!(
                "its requestState is longer than {MAX_REQUEST_STATE_BYTES} bytes"
            ))
        }
        Some(state) => {
            retry.insert("requestState".into(), state.clone());
        }
        None => {}
    }
    Ok(retry)
}

/// `value` is a response (a result or an error), not a notification.
fn is_reply_value(value: Option<&Value>) -> bool {
    value.is_some_and(|v| {
        v.get("method").is_none() && (v.get("result").is_some() || v.get("error").is_some())
    })
}
