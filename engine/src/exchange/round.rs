//! Input-required rounds in the exchange (MCP 2026-07-28, multi round-trip requests): a server
//! answers a request with `resultType: "input_required"`, `inputRequests` (each key a request for
//! the client: sampling, elicitation, roots) and maybe a `requestState`; the client retries the
//! same request, under a new id, with `inputResponses` (the answers by key) and the state echoed
//! unchanged. What the page's round button and its "answer automatically" switch send is built
//! here ([`retry`]), with the answers a cooperative client gives ([`crate::client::result_for`]).
//! <https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr>

use std::fmt;

use crate::json::{parse_document, Json, Node};

/// How many rounds "answer automatically" answers for one request before it stops and says so (a
/// server that keeps asking stops being answered).
pub const AUTO_ROUNDS: usize = 8;

/// The most input requests one result may ask for the page to answer (more is refused, named).
pub const MAX_INPUT_REQUESTS: usize = 32;

/// One input request of an input-required result: its key and the method it asks.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Ask {
    pub key: String,
    pub method: String,
}

impl Ask {
    /// What it asks for, in a word: `sampling`, `elicitation`, `roots`, or `other`.
    pub fn kind(&self) -> &'static str {
        match self.method.as_str() {
            "sampling/createMessage" => "sampling",
            "elicitation/create" => "elicitation",
            "roots/list" => "roots",
            _ => "other",
        }
    }
}

/// Why [`retry`] built nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RetryError {
    /// The request is not one JSON-RPC request with a method.
    NotARequest,
    /// The reply is not a result with `resultType: "input_required"` and `inputRequests`.
    NotInputRequired,
    /// More input requests than [`MAX_INPUT_REQUESTS`] (how many).
    TooManyInputRequests(usize),
    /// An input request this client cannot answer (its key and method).
    Unanswerable { key: String, method: String },
    /// The request's `params` is not an object, so nothing can be added to it.
    ParamsNotAnObject,
}

impl fmt::Display for RetryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RetryError::NotARequest => f.write_str("the original message is not a request"),
            RetryError::NotInputRequired => f.write_str(
                "the reply is not an input-required result (resultType \"input_required\" with inputRequests)",
            ),
            RetryError::TooManyInputRequests(n) => write!(
                f,
                "the result asks {n} input requests; the page answers at most {MAX_INPUT_REQUESTS}"
            ),
            RetryError::Unanswerable { key, method } => write!(
                f,
                "input request {} asks {}, which a client cannot answer (sampling/createMessage, elicitation/create and roots/list can be)",
                crate::json::quote(key),
                crate::json::quote(method)
            ),
            RetryError::ParamsNotAnObject => {
                f.write_str("the request's params is not an object: nothing to add the answers to")
            }
        }
    }
}

impl std::error::Error for RetryError {}

/// The one JSON document of `raw` (whitespace around it allowed).
fn document(raw: &str) -> Option<Node<'_>> {
    let text = super::one_document(raw)?;
    parse_document(text.as_bytes(), 0)
        .ok()
        .map(|(parsed, _)| parsed.root)
}

/// The `result` of an input-required reply.
fn input_required<'n, 'a>(reply: &'n Node<'a>) -> Option<&'n Node<'a>> {
    let result = reply.get("result")?;
    (result.get("resultType").and_then(Node::as_str) == Some("input_required")).then_some(())?;
    result.get("inputRequests").filter(|r| r.is_object())?;
    Some(result)
}

/// The input requests of `reply` (one JSON-RPC response, as text) in their order, when it is an
/// input-required result; at most [`MAX_INPUT_REQUESTS`] (the rest are left out).
pub fn asks(reply: &str) -> Option<Vec<Ask>> {
    // Cheap first: most replies are not rounds.
    if !reply.contains("input_required") {
        return None;
    }
    let root = document(reply)?;
    let result = input_required(&root)?;
    let requests = result.get("inputRequests")?.members();
    Some(
        requests
            .iter()
            .take(MAX_INPUT_REQUESTS)
            .map(|m| Ask {
                key: m.key.to_string(),
                method: m
                    .value
                    .get("method")
                    .and_then(Node::as_str)
                    .unwrap_or_default()
                    .to_string(),
            })
            .collect(),
    )
}

/// The retry of `request` (one JSON-RPC request, as text) after its input-required `reply`:
/// the same method and params, under the id `new_id`, with `inputResponses` answering every key
/// of `inputRequests` as a cooperative client does (elicitation with the schema's defaults) and
/// `requestState` echoed unchanged (dropped when the reply has none). Compact, on one line.
pub fn retry(request: &str, reply: &str, new_id: u64) -> Result<String, RetryError> {
    let request = document(request).ok_or(RetryError::NotARequest)?;
    let method = request
        .get("method")
        .and_then(Node::as_str)
        .ok_or(RetryError::NotARequest)?;
    let reply = document(reply).ok_or(RetryError::NotInputRequired)?;
    let result = input_required(&reply).ok_or(RetryError::NotInputRequired)?;
    let requests = result
        .get("inputRequests")
        .map(Node::members)
        .unwrap_or_default();
    if requests.len() > MAX_INPUT_REQUESTS {
        return Err(RetryError::TooManyInputRequests(requests.len()));
    }
    let mut responses = Vec::with_capacity(requests.len());
    for m in requests {
        let asked = m
            .value
            .get("method")
            .and_then(Node::as_str)
            .unwrap_or_default();
        let answer = crate::client::result_for(asked, m.value.get("params"))
            .filter(|_| asked != "ping")
            .ok_or_else(|| RetryError::Unanswerable {
                key: m.key.to_string(),
                method: asked.to_string(),
            })?;
        responses.push((m.key.to_string(), answer));
    }
    let mut params = match request.get("params") {
        None => Json::Object(Vec::new()),
        Some(p) if p.is_object() => Json::from_node(p),
        Some(_) => return Err(RetryError::ParamsNotAnObject),
    };
    params.set("inputResponses", Json::Object(responses));
    match result.get("requestState") {
        Some(state) => params.set("requestState", Json::from_node(state)),
        None => {
            if let Json::Object(members) = &mut params {
                members.retain(|(k, _)| k != "requestState");
            }
        }
    }
    Ok(Json::obj([
        ("jsonrpc", Json::from("2.0")),
        ("id", Json::from(new_id)),
        ("method", Json::from(method)),
        ("params", params),
    ])
    .compact())
}

/// The method and `params.name` of a request (what a retry repeats), when it is one.
pub(super) fn call_of(raw: &str) -> Option<(String, Option<String>)> {
    let root = document(raw)?;
    let method = root.get("method").and_then(Node::as_str)?.to_string();
    let name = root
        .get("params")
        .and_then(|p| p.get("name"))
        .and_then(Node::as_str)
        .map(str::to_string);
    Some((method, name))
}

/// Whether a request's text carries a round's answers or state (a retry).
pub(super) fn is_retry(raw: &str) -> bool {
    (raw.contains("inputResponses") || raw.contains("requestState"))
        && document(raw).is_some_and(|root| {
            root.get("params").is_some_and(|p| {
                p.get("inputResponses").is_some() || p.get("requestState").is_some()
            })
        })
}

/// At most this many automatic answers to the server's own requests per document sent (a server
/// that keeps asking stops being answered).
pub const AUTO_ANSWERS: usize = 32;

/// Sends `doc` to `server` and logs what goes each way as `peer`: what the server sent on its own
/// while answering (log lines, progress, its own requests) before its reply, as over a real
/// transport. With `auto`, what a cooperative client answers is sent in turn: the server's
/// requests (sampling, elicitation, roots, ping; at most [`AUTO_ANSWERS`]) and input-required
/// rounds (retried with [`retry`], at most `max_rounds` per request sent: the page gives
/// [`AUTO_ROUNDS`]). Returns why it stopped answering, when it did.
pub fn converse(
    server: &mut crate::mock::MockServer,
    log: &mut super::Log,
    peer: &str,
    doc: &str,
    auto: bool,
    clock: &mut dyn FnMut() -> f64,
    max_rounds: usize,
) -> Option<String> {
    use super::Direction;
    // Each document with the rounds already answered for the request it retries.
    let mut queue = std::collections::VecDeque::from([(doc.to_string(), 0)]);
    let mut answered = 0;
    let mut stopped = None;
    while let Some((doc, rounds)) = queue.pop_front() {
        let sent_key = log.record(peer, Direction::Out, clock(), &doc);
        let reply = server.handle(doc.as_bytes());
        for message in server.take_sent() {
            log.record(peer, Direction::In, clock(), &message);
            if auto && answered < AUTO_ANSWERS {
                if let Some(answer) = crate::client::auto_reply_to(&message) {
                    answered += 1;
                    queue.push_back((answer, 0));
                }
            }
        }
        let Some(reply) = reply else { continue };
        let reply_key = log.record(peer, Direction::In, clock(), &reply);
        let asks_round = log
            .get(reply_key)
            .is_some_and(|e| matches!(e.round, Some(super::RoundPart::Asks { .. })))
            && log
                .get(reply_key)
                .and_then(|e| e.single()?.status.pair())
                .is_some_and(|(with, _)| with.key == sent_key);
        if !(auto && asks_round) {
            continue;
        }
        if rounds >= max_rounds {
            stopped = Some(format!(
                "Stopped answering automatically after {max_rounds} input-required rounds of one request: the server keeps asking. Answer the last round by hand if you want to go on."
            ));
            continue;
        }
        match log.retry_for(reply_key) {
            Ok(retry) => queue.push_back((retry, rounds + 1)),
            Err(e) => {
                stopped = Some(format!(
                    "Could not answer the input-required result automatically: {e}."
                ))
            }
        }
    }
    stopped
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> serde_json::Value {
        serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
    }

    const CALL: &str = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t","arguments":{"x":1},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;

    fn reply(requests: &str, state: Option<&str>) -> String {
        let state = state.map_or(String::new(), |s| format!(r#","requestState":{s}"#));
        format!(
            r#"{{"jsonrpc":"2.0","id":7,"result":{{"resultType":"input_required","inputRequests":{requests}{state}}}}}"#
        )
    }

    const THREE: &str = r#"{"who":{"method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string","default":"Ada"},"colour":{"type":"string","enum":["red","green"]}}}}},"model":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Hi"}}],"maxTokens":10}},"dirs":{"method":"roots/list","params":{}}}"#;

    #[test]
    fn the_retry_answers_every_key_asked_by_its_kind() {
        let retry = json(&retry(CALL, &reply(THREE, None), 8).unwrap());
        let responses = &retry["params"]["inputResponses"];
        let keys: Vec<&String> = responses.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["who", "model", "dirs"]);
        assert_eq!(responses["model"]["role"], "assistant");
        assert_eq!(responses["model"]["model"], crate::client::AUTO_MODEL);
        assert_eq!(responses["dirs"], serde_json::json!({"roots": []}));
    }

    #[test]
    fn an_elicitation_is_accepted_with_the_schemas_defaults_and_first_choices() {
        let retry = json(&retry(CALL, &reply(THREE, None), 8).unwrap());
        assert_eq!(
            retry["params"]["inputResponses"]["who"],
            serde_json::json!({"action": "accept", "content": {"name": "Ada", "colour": "red"}})
        );
    }

    #[test]
    fn the_retry_keeps_method_and_params_under_the_new_id() {
        let retry = json(&retry(CALL, &reply(THREE, None), 8).unwrap());
        assert_eq!(retry["id"], 8);
        assert_eq!(retry["method"], "tools/call");
        assert_eq!(retry["params"]["name"], "t");
        assert_eq!(retry["params"]["arguments"], serde_json::json!({"x": 1}));
        assert_eq!(
            retry["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
            "2026-07-28"
        );
    }

    #[test]
    fn the_request_state_is_echoed_byte_for_byte() {
        let state = r#""payload.0123\u00e9\"x""#;
        let text = retry(CALL, &reply(THREE, Some(state)), 8).unwrap();
        let echoed = json(&text)["params"]["requestState"].clone();
        assert_eq!(echoed, json(state));
    }

    #[test]
    fn a_later_round_replaces_the_earlier_answers_and_state() {
        let first = retry(CALL, &reply(THREE, Some(r#""s1""#)), 8).unwrap();
        let second = reply(r#"{"dirs":{"method":"roots/list"}}"#, None);
        let again = json(&retry(&first, &second, 9).unwrap());
        let keys: Vec<&String> = again["params"]["inputResponses"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(keys, ["dirs"], "only this round's keys: {again}");
        assert!(again["params"].get("requestState").is_none(), "{again}");
    }

    #[test]
    fn a_request_without_params_gets_params_with_the_answers() {
        let bare = r#"{"jsonrpc":"2.0","id":1,"method":"prompts/get"}"#;
        let retry = json(&retry(bare, &reply(THREE, None), 2).unwrap());
        assert!(retry["params"]["inputResponses"].is_object());
    }

    #[test]
    fn a_reply_that_is_not_input_required_builds_nothing() {
        for reply in [
            r#"{"jsonrpc":"2.0","id":7,"result":{"content":[]}}"#,
            r#"{"jsonrpc":"2.0","id":7,"result":{"resultType":"input_required"}}"#,
            r#"{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"input_required"}}"#,
            "not json input_required",
            "",
        ] {
            assert_eq!(
                retry(CALL, reply, 8),
                Err(RetryError::NotInputRequired),
                "{reply}"
            );
        }
    }

    #[test]
    fn a_message_that_is_not_a_request_builds_nothing() {
        for request in [r#"{"jsonrpc":"2.0","id":7,"result":{}}"#, "[", "{} {}"] {
            assert_eq!(
                retry(request, &reply(THREE, None), 8),
                Err(RetryError::NotARequest)
            );
        }
        let positional = r#"{"jsonrpc":"2.0","id":7,"method":"m","params":[1]}"#;
        assert_eq!(
            retry(positional, &reply(THREE, None), 8),
            Err(RetryError::ParamsNotAnObject)
        );
    }

    #[test]
    fn an_input_request_no_client_answers_is_named() {
        let odd = reply(r#"{"k":{"method":"tools/call","params":{}}}"#, None);
        let err = retry(CALL, &odd, 8).unwrap_err();
        assert_eq!(
            err,
            RetryError::Unanswerable {
                key: "k".into(),
                method: "tools/call".into()
            }
        );
        assert!(err.to_string().contains("\"tools/call\""), "{err}");
    }

    #[test]
    fn too_many_input_requests_are_refused_and_listed_up_to_the_bound() {
        let many: Vec<String> = (0..MAX_INPUT_REQUESTS + 1)
            .map(|i| format!(r#""k{i}":{{"method":"roots/list"}}"#))
            .collect();
        let huge = reply(&format!("{{{}}}", many.join(",")), None);
        assert_eq!(
            retry(CALL, &huge, 8),
            Err(RetryError::TooManyInputRequests(MAX_INPUT_REQUESTS + 1))
        );
        assert_eq!(asks(&huge).unwrap().len(), MAX_INPUT_REQUESTS);
    }

    #[test]
    fn deeply_nested_input_is_refused_without_panicking() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(
            retry(&deep, &reply(THREE, None), 8),
            Err(RetryError::NotARequest)
        );
        assert_eq!(retry(CALL, &deep, 8), Err(RetryError::NotInputRequired));
        assert_eq!(asks(&format!("{deep}input_required")), None);
    }

    use crate::exchange::{Direction, Log, RoundPart};
    use crate::mock::{Fixtures, MockServer};
    use crate::rpc::{McpVersion, Profile};

    fn modern_call(id: u64, tool: &str, arguments: &str) -> String {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{{"name":"t","version":"1"}},"io.modelcontextprotocol/clientCapabilities":{{"sampling":{{}},"elicitation":{{}},"roots":{{}}}}}}}}}}"#
        )
    }

    fn modern_server(fixtures: Fixtures) -> MockServer {
        let mut server = MockServer::with_fixtures(fixtures);
        server.set_profile(Profile::Mcp(McpVersion::V2026_07_28));
        server
    }

    fn talk(server: &mut MockServer, log: &mut Log, doc: &str, auto: bool) -> Option<String> {
        let mut t = 0.0;
        let mut clock = || {
            t += 1.0;
            t
        };
        converse(server, log, "mock", doc, auto, &mut clock, AUTO_ROUNDS)
    }

    /// A 2026-07-28 server of `fixtures` and the log of calling `tool` (id 1) on it.
    fn called(fixtures: Fixtures, tool: &str, arguments: &str, auto: bool) -> (MockServer, Log) {
        let mut server = modern_server(fixtures);
        let mut log = Log::new();
        let call = modern_call(1, tool, arguments);
        assert_eq!(talk(&mut server, &mut log, &call, auto), None);
        (server, log)
    }

    #[cfg(feature = "conformance")]
    fn results(log: &Log) -> Vec<serde_json::Value> {
        log.entries()
            .iter()
            .filter(|e| e.direction == Direction::In)
            .map(|e| json(&e.raw)["result"].clone())
            .collect()
    }

    #[test]
    fn by_hand_a_round_shows_then_its_retry_completes_the_call() {
        let (mut server, mut log) = called(
            Fixtures::Friendly,
            "summarize",
            r#"{"text":"A long text."}"#,
            false,
        );
        assert_eq!(log.len(), 2);
        let asking = log.entries()[1].key;
        assert_eq!(
            log.get(asking).unwrap().round,
            Some(RoundPart::Asks {
                asks: vec![Ask {
                    key: "answer".into(),
                    method: "sampling/createMessage".into()
                }],
                retried_by: None
            })
        );
        let retry = log.retry_for(asking).unwrap();
        assert_eq!(json(&retry)["id"], 2, "a new id: {retry}");
        talk(&mut server, &mut log, &retry, false);
        let [_, _, sent, done] = log.entries() else {
            panic!("four entries: {:?}", log.entries())
        };
        assert_eq!(sent.round, Some(RoundPart::Retries { of: asking }));
        assert!(matches!(
            log.get(asking).unwrap().round,
            Some(RoundPart::Asks { retried_by: Some(k), .. }) if k == sent.key
        ));
        let text = json(&done.raw)["result"]["content"][0]["text"].clone();
        assert_eq!(
            text,
            format!("Summary by {}: An automatic answer (no model here) to: Summarize this text in one sentence:\n\nA long text.", crate::client::AUTO_MODEL),
        );
        let rounds: Vec<Option<usize>> = log
            .entries()
            .iter()
            .map(|e| log.round_number(e.key))
            .collect();
        assert_eq!(
            rounds,
            [None, Some(1), Some(1), Some(1)],
            "the call itself is no round's part"
        );
    }

    #[cfg(feature = "conformance")]
    #[test]
    fn automatically_several_rounds_are_answered_until_the_result() {
        let (_, log) = called(
            Fixtures::Conformance,
            "test_input_required_result_multi_round",
            "{}",
            true,
        );
        let results = results(&log);
        let kinds: Vec<&str> = results
            .iter()
            .map(|r| r["resultType"].as_str().unwrap_or("?"))
            .collect();
        assert_eq!(
            kinds,
            ["input_required", "input_required", "complete"],
            "{results:?}"
        );
        assert_eq!(
            results[2]["content"][0]["text"],
            "example's favourite colour is example."
        );
        let rounds: Vec<Option<usize>> = log
            .entries()
            .iter()
            .map(|e| log.round_number(e.key))
            .collect();
        assert_eq!(rounds, [None, Some(1), Some(1), Some(2), Some(2), Some(2)]);
    }

    #[cfg(feature = "conformance")]
    #[test]
    fn automatic_answers_stop_after_the_round_bound_and_say_so() {
        let mut server = modern_server(Fixtures::Conformance);
        let mut log = Log::new();
        let call = modern_call(1, "test_input_required_result_multi_round", "{}");
        let mut clock = || 0.0;
        let said = converse(&mut server, &mut log, "mock", &call, true, &mut clock, 1);
        assert!(said.unwrap().contains("after 1 input-required rounds"));
        let last = results(&log).pop().unwrap();
        assert_eq!(
            last["resultType"], "input_required",
            "the second round is left: {last}"
        );
    }

    #[test]
    fn a_retry_never_links_to_a_round_of_another_tool() {
        let (mut server, mut log) = called(Fixtures::Friendly, "list_roots", "{}", false);
        let other = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask_name","arguments":{},"inputResponses":{}}}"#;
        talk(&mut server, &mut log, other, false);
        assert_eq!(log.entries()[2].round, None);
        assert!(matches!(
            log.entries()[1].round,
            Some(RoundPart::Asks {
                retried_by: None,
                ..
            })
        ));
    }

    #[test]
    fn the_links_come_back_with_a_saved_log() {
        let (_, log) = called(Fixtures::Friendly, "ask_name", "{}", true);
        let restored = Log::from_json_str(&log.to_json_string()).unwrap();
        assert_eq!(restored.entries(), log.entries());
        assert!(matches!(
            restored.entries()[2].round,
            Some(RoundPart::Retries { .. })
        ));
    }

    #[test]
    fn fresh_id_is_one_more_than_the_largest_whole_number_id_sent() {
        let mut log = Log::new();
        assert_eq!(log.fresh_id("mock"), 1);
        log.record(
            "mock",
            Direction::Out,
            0.0,
            r#"{"jsonrpc":"2.0","id":41,"method":"a"}"#,
        );
        log.record(
            "mock",
            Direction::Out,
            0.0,
            r#"{"jsonrpc":"2.0","id":"99","method":"a"}"#,
        );
        log.record(
            "other",
            Direction::Out,
            0.0,
            r#"{"jsonrpc":"2.0","id":500,"method":"a"}"#,
        );
        assert_eq!(log.fresh_id("mock"), 42);
    }

    #[test]
    fn asks_lists_keys_and_kinds_in_order() {
        let asks = asks(&reply(THREE, None)).unwrap();
        let listed: Vec<(&str, &str)> = asks.iter().map(|a| (a.key.as_str(), a.kind())).collect();
        assert_eq!(
            listed,
            [
                ("who", "elicitation"),
                ("model", "sampling"),
                ("dirs", "roots")
            ]
        );
    }
}
