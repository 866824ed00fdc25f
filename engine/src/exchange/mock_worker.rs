//! The page's mock server behind messages: the page keeps its log ([`super::Log`]) and sends each
//! client document as a [`MockRequest`]; whoever runs the mock (the page's `mock-worker`, a worker
//! started on the first Send or lesson Run) keeps the sessions ([`MockSessions`]), runs
//! [`super::round::converse`] and answers with what crossed ([`MockAnswer::Exchanged`]: every
//! [`Record`] in order, both directions with their times, and why the automatic answers stopped).
//! The page appends the records to its log in that order, under the peer it names, so its log
//! pairs them as it would have paired the messages themselves.
//!
//! Bounds: a document over [`MAX_DOCUMENT`] is refused (what `jrpc serve` accepts per message),
//! and so is a request or an answer whose text passes [`MAX_MESSAGE_TEXT`], at either end, before
//! it is read.

use serde::{Deserialize, Serialize};

use super::round::{converse, AUTO_ROUNDS};
use super::{Direction, Log};
use crate::mock::{Fixtures, MockServer};
use crate::saved::{profile_from_str, profile_to_string};

/// The largest client document the mock takes (as `jrpc serve` per message; the mock's replies
/// are bounded alike: [`crate::mock::MAX_REPLY`]).
pub const MAX_DOCUMENT: usize = 16 * 1024 * 1024;

/// The largest request or answer text either side reads, and the largest answer the mock's side
/// sends (a document of [`MAX_DOCUMENT`] with its replies and the automatic answers fits; past it
/// the answer is [`MockAnswer::Refused`]).
pub const MAX_MESSAGE_TEXT: usize = 128 * 1024 * 1024;

/// The peer the mock's side records under in its own log (the page names its own).
const PEER: &str = "mock";

/// Which of the page's mock sessions a request is for: the playground's (the log's Send), or the
/// lessons' (each Run a fresh one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Session {
    Playground,
    Lesson,
}

/// One client document for the mock.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MockRequest {
    pub session: Session,
    /// Start the session afresh, serving these fixtures, before this document: a new MCP
    /// session (the log's Clear, a fixtures switch, a lesson's Run). A session never started is
    /// started with the fixtures named here, else friendly ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fresh: Option<Fixtures>,
    /// The page's profile (`jsonrpc`, `mcp:<version>`): what its verdicts call invalid, the mock
    /// answers as invalid.
    pub profile: String,
    /// Answer the server's own requests and input-required rounds as a cooperative client would.
    pub auto: bool,
    /// The document (one message or a batch).
    pub doc: String,
}

/// What crossed for one [`MockRequest`], or why nothing did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
// Externally tagged (serde's default): the page reads it without buffering it first, which
// an internally tagged enum needs (docs/size-rules.md, 10).
#[serde(rename_all = "snake_case")]
pub enum MockAnswer {
    /// Every document that crossed, in order: the one sent, what the server sent on its own, its
    /// reply, the automatic answers and what they brought back.
    Exchanged {
        records: Vec<Record>,
        /// Why the automatic answers stopped when they did.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stopped: Option<String>,
    },
    /// Nothing was sent: why, in words.
    Refused { error: String },
}

/// One document that crossed between the page and its mock.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub direction: Direction,
    /// Unix epoch milliseconds.
    pub time_ms: f64,
    pub raw: String,
}

/// The mock's side: a server and its log per [`Session`] (the log pairs what crossed, which the
/// automatic answers need; the page's log is its own).
#[derive(Default)]
pub struct MockSessions {
    playground: Option<(MockServer, Log)>,
    lesson: Option<(MockServer, Log)>,
}

impl MockSessions {
    pub fn new() -> Self {
        MockSessions::default()
    }

    /// Answers one request (as JSON text) with its answer as JSON text, times from `clock`
    /// (Unix epoch milliseconds).
    pub fn answer_text(&mut self, request: &str, clock: &mut dyn FnMut() -> f64) -> String {
        let answer = if request.len() > MAX_MESSAGE_TEXT {
            refused(format!(
                "the request is larger than {MAX_MESSAGE_TEXT} bytes"
            ))
        } else {
            match serde_json::from_str::<MockRequest>(request) {
                Ok(request) => self.answer(request, clock),
                Err(e) => refused(format!("the request is not readable: {e}")),
            }
        };
        let text = encode(&answer);
        if text.len() > MAX_MESSAGE_TEXT {
            return encode(&refused(format!(
                "the mock's answer would be larger than {MAX_MESSAGE_TEXT} bytes: nothing of it is logged (the session went on)"
            )));
        }
        text
    }

    /// Passes `request`'s document to its session's server, with the automatic answers it asks.
    pub fn answer(&mut self, request: MockRequest, clock: &mut dyn FnMut() -> f64) -> MockAnswer {
        if request.doc.len() > MAX_DOCUMENT {
            return refused(format!(
                "the document is {} bytes; the mock takes at most {MAX_DOCUMENT} (16 MiB) per document",
                request.doc.len()
            ));
        }
        let profile = match profile_from_str(&request.profile) {
            Ok(profile) => profile,
            Err(e) => return refused(e.to_string()),
        };
        let slot = match request.session {
            Session::Playground => &mut self.playground,
            Session::Lesson => &mut self.lesson,
        };
        if let Some(fixtures) = request.fresh {
            *slot = None;
            slot.get_or_insert_with(|| (MockServer::with_fixtures(fixtures), Log::new()));
        }
        let (server, log) =
            slot.get_or_insert_with(|| (MockServer::with_fixtures(Fixtures::Friendly), Log::new()));
        server.set_profile(profile);
        let from = log.len();
        let stopped = converse(
            server,
            log,
            PEER,
            &request.doc,
            request.auto,
            clock,
            AUTO_ROUNDS,
        );
        let records = log.entries()[from..]
            .iter()
            .map(|e| Record {
                direction: e.direction,
                time_ms: e.time_ms,
                raw: e.raw.clone(),
            })
            .collect();
        MockAnswer::Exchanged { records, stopped }
    }
}

impl MockRequest {
    /// A request for `doc` in `session` under `profile`.
    pub fn new(
        session: Session,
        fresh: Option<Fixtures>,
        profile: crate::rpc::Profile,
        auto: bool,
        doc: String,
    ) -> Self {
        MockRequest {
            session,
            fresh,
            profile: profile_to_string(profile),
            auto,
            doc,
        }
    }

    /// As JSON text (what crosses to the mock's side).
    pub fn to_text(&self) -> String {
        encode(self)
    }
}

impl MockAnswer {
    /// Reads the mock's answer text; why not, in words (an unreadable or oversized answer).
    pub fn from_text(text: &str) -> Result<MockAnswer, String> {
        if text.len() > MAX_MESSAGE_TEXT {
            return Err(format!(
                "the mock's answer is larger than {MAX_MESSAGE_TEXT} bytes"
            ));
        }
        serde_json::from_str(text).map_err(|e| format!("the mock's answer is not readable: {e}"))
    }
}

fn refused(error: String) -> MockAnswer {
    MockAnswer::Refused { error }
}

/// These plain structs always serialise.
fn encode<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rpc::Profile;

    fn clock() -> impl FnMut() -> f64 {
        let mut t = 1_000.0;
        move || {
            t += 1.0;
            t
        }
    }

    fn request(doc: &str) -> MockRequest {
        MockRequest::new(
            Session::Playground,
            None,
            Profile::JsonRpc,
            false,
            doc.to_string(),
        )
    }

    const SUBTRACT: &str =
        r#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#;
    const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"t","version":"1"}}}"#;

    fn records(answer: MockAnswer) -> Vec<Record> {
        match answer {
            MockAnswer::Exchanged { records, .. } => records,
            MockAnswer::Refused { error } => panic!("refused: {error}"),
        }
    }

    #[test]
    fn a_request_and_its_answer_round_trip_through_their_text() {
        let request = MockRequest::new(
            Session::Lesson,
            Some(Fixtures::Conformance),
            Profile::Mcp(crate::rpc::McpVersion::LATEST),
            true,
            SUBTRACT.to_string(),
        );
        let back: MockRequest = serde_json::from_str(&request.to_text()).unwrap();
        assert_eq!(back, request);
        let answer = MockAnswer::Exchanged {
            records: vec![Record {
                direction: Direction::In,
                time_ms: 12.5,
                raw: "{\"a\":\"\\u0000\"}\n".to_string(),
            }],
            stopped: Some("Stopped.".to_string()),
        };
        assert_eq!(MockAnswer::from_text(&encode(&answer)), Ok(answer));
        let refused = refused("no".into());
        assert_eq!(MockAnswer::from_text(&encode(&refused)), Ok(refused));
    }

    #[test]
    fn a_document_comes_back_with_its_reply_in_order_with_times() {
        let mut sessions = MockSessions::new();
        let got = records(sessions.answer(request(SUBTRACT), &mut clock()));
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].direction, Direction::Out);
        assert_eq!(got[0].raw, SUBTRACT);
        assert_eq!(got[1].direction, Direction::In);
        assert_eq!(got[1].raw, r#"{"jsonrpc":"2.0","result":19,"id":1}"#);
        assert!(got[0].time_ms < got[1].time_ms);
    }

    #[test]
    fn the_session_is_kept_between_documents_until_fresh() {
        let mut sessions = MockSessions::new();
        let mut clock = clock();
        sessions.answer(request(INITIALIZE), &mut clock);
        let again = records(sessions.answer(request(INITIALIZE), &mut clock));
        assert!(
            again[1].raw.contains("error"),
            "a second initialize in one session is refused: {}",
            again[1].raw
        );
        let mut fresh = request(INITIALIZE);
        fresh.fresh = Some(Fixtures::Friendly);
        let restarted = records(sessions.answer(fresh, &mut clock));
        assert!(
            restarted[1].raw.contains("\"result\""),
            "{}",
            restarted[1].raw
        );
    }

    #[test]
    fn the_lessons_session_is_apart_from_the_playgrounds() {
        let mut sessions = MockSessions::new();
        let mut clock = clock();
        sessions.answer(request(INITIALIZE), &mut clock);
        let mut lesson = request(INITIALIZE);
        lesson.session = Session::Lesson;
        let got = records(sessions.answer(lesson, &mut clock));
        assert!(got[1].raw.contains("\"result\""), "{}", got[1].raw);
    }

    #[test]
    fn a_document_over_the_bound_is_refused_and_says_the_bound() {
        let mut sessions = MockSessions::new();
        let doc = " ".repeat(MAX_DOCUMENT + 1);
        match sessions.answer(request(&doc), &mut clock()) {
            MockAnswer::Refused { error } => assert!(error.contains("16 MiB"), "{error}"),
            other => panic!("not refused: {other:?}"),
        }
    }

    #[test]
    fn an_unreadable_request_is_refused_with_the_reason() {
        let text = MockSessions::new().answer_text("{\"session\": 3}", &mut clock());
        match MockAnswer::from_text(&text) {
            Ok(MockAnswer::Refused { error }) => {
                assert!(error.starts_with("the request is not readable"), "{error}")
            }
            other => panic!("not refused: {other:?}"),
        }
    }

    #[test]
    fn an_unknown_profile_is_refused() {
        let mut r = request(SUBTRACT);
        r.profile = "mcp:1999-01-01".into();
        assert!(matches!(
            MockSessions::new().answer(r, &mut clock()),
            MockAnswer::Refused { .. }
        ));
    }

    #[test]
    fn an_answer_text_over_the_bound_is_not_read() {
        let text = "x".repeat(MAX_MESSAGE_TEXT + 1);
        let error = MockAnswer::from_text(&text).unwrap_err();
        assert!(error.contains("larger than"), "{error}");
    }

    #[test]
    fn the_automatic_answers_come_back_as_records() {
        let mut sessions = MockSessions::new();
        let mut clock = clock();
        let mut auto = |doc: &str| {
            let mut r = request(doc);
            r.auto = true;
            r.profile = "mcp:2025-06-18".into();
            records(sessions.answer(r, &mut clock))
        };
        auto(INITIALIZE);
        auto(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        let got = auto(
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask_name","arguments":{}}}"#,
        );
        let directions: Vec<Direction> = got.iter().map(|r| r.direction).collect();
        assert!(
            got.iter()
                .any(|r| r.direction == Direction::Out && r.raw.contains("\"accept\"")),
            "the page's automatic answer is among the records: {got:?}"
        );
        assert_eq!(directions.first(), Some(&Direction::Out));
        assert_eq!(directions.last(), Some(&Direction::In));
    }
}
