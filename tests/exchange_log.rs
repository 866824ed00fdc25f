//! The exchange log: classification, pairing by id (exact id types, repeats, batches, null ids),
//! notifications, server-initiated requests, timeouts and lost requests, exact counts, export and
//! the stored form.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use jsonrpc_playground::exchange::{At, Direction, Entry, Log, Status};
use jsonrpc_playground::mock::MockServer;
use jsonrpc_playground::rpc::Kind;

use Direction::{In, Out};

const MOCK: &str = "mock";

fn at(key: u64, item: usize) -> At {
    At { key, item }
}

fn status(log: &Log, key: u64, item: usize) -> Status {
    log.msg(at(key, item)).unwrap().status
}

fn paired_with(log: &Log, key: u64, item: usize) -> Option<At> {
    status(log, key, item).pair().map(|(w, _)| w)
}

/// Sends `input` (any stream) to a fresh mock server and logs both directions at fixed times.
fn via_mock(input: &str) -> Log {
    let mut server = MockServer::new();
    let mut log = Log::new();
    let mut t = 1000.0;
    for exchange in server.handle_stream(input.as_bytes()) {
        log.record(MOCK, Out, t, &input[exchange.span.start..exchange.span.end]);
        t += 2.5;
        if let Some(reply) = exchange.reply {
            log.record(MOCK, In, t, reply);
            t += 1.0;
        }
    }
    log
}

#[test]
fn a_request_pairs_with_its_response_both_ways_with_latency() {
    let mut log = Log::new();
    let req = log.record(
        MOCK,
        Out,
        100.0,
        r#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#,
    );
    assert_eq!(status(&log, req, 0), Status::Pending);
    let res = log.record(MOCK, In, 112.5, r#"{"jsonrpc":"2.0","result":19,"id":1}"#);
    assert_eq!(
        status(&log, req, 0),
        Status::Paired {
            with: at(res, 0),
            latency_ms: 12.5
        }
    );
    assert_eq!(
        status(&log, res, 0),
        Status::Paired {
            with: at(req, 0),
            latency_ms: 12.5
        }
    );
    let request = log.get(req).unwrap();
    assert_eq!(request.kind, Kind::Request);
    assert_eq!(
        request.single().unwrap().method.as_deref(),
        Some("subtract")
    );
    assert_eq!(request.single().unwrap().summary, "[42,23]");
    assert_eq!(log.get(res).unwrap().single().unwrap().summary, "result 19");
    assert_eq!(request.rev, 1, "pairing changed the request");
    let c = log.counts();
    assert_eq!(
        (
            c.entries,
            c.out,
            c.r#in,
            c.requests,
            c.responses,
            c.pairs,
            c.waiting
        ),
        (2, 1, 1, 1, 1, 1, 0)
    );
}

#[test]
fn string_and_number_ids_do_not_pair() {
    let mut log = Log::new();
    let s = log.record(MOCK, Out, 0.0, r#"{"jsonrpc":"2.0","method":"a","id":"1"}"#);
    let n = log.record(MOCK, In, 1.0, r#"{"jsonrpc":"2.0","result":0,"id":1}"#);
    assert_eq!(status(&log, s, 0), Status::Pending);
    assert_eq!(status(&log, n, 0), Status::Unmatched);
    let s2 = log.record(MOCK, In, 2.0, r#"{"jsonrpc":"2.0","result":0,"id":"1"}"#);
    assert_eq!(paired_with(&log, s, 0), Some(at(s2, 0)));
    assert_eq!(log.counts().unmatched, 1);
}

#[test]
fn ids_compare_as_values_of_their_type() {
    let mut log = Log::new();
    // The same string, escaped differently: one id.
    let a = log.record(MOCK, Out, 0.0, r#"{"jsonrpc":"2.0","method":"a","id":"a"}"#);
    let a2 = log.record(
        MOCK,
        In,
        1.0,
        r#"{"jsonrpc":"2.0","result":0,"id":"\u0061"}"#,
    );
    assert_eq!(paired_with(&log, a, 0), Some(at(a2, 0)));
    // Numbers keep their exact text: 1 and 1.0 are different ids to a peer.
    let one = log.record(MOCK, Out, 2.0, r#"{"jsonrpc":"2.0","method":"a","id":1}"#);
    let one_point_zero = log.record(MOCK, In, 3.0, r#"{"jsonrpc":"2.0","result":0,"id":1.0}"#);
    assert_eq!(status(&log, one, 0), Status::Pending);
    assert_eq!(status(&log, one_point_zero, 0), Status::Unmatched);
}

#[test]
fn repeated_ids_pair_first_in_first_out() {
    let mut log = Log::new();
    let first = log.record(MOCK, Out, 0.0, r#"{"jsonrpc":"2.0","method":"a","id":7}"#);
    let second = log.record(MOCK, Out, 1.0, r#"{"jsonrpc":"2.0","method":"b","id":7}"#);
    let r1 = log.record(MOCK, In, 5.0, r#"{"jsonrpc":"2.0","result":"a","id":7}"#);
    let r2 = log.record(MOCK, In, 6.0, r#"{"jsonrpc":"2.0","result":"b","id":7}"#);
    let r3 = log.record(MOCK, In, 7.0, r#"{"jsonrpc":"2.0","result":"c","id":7}"#);
    assert_eq!(
        status(&log, first, 0),
        Status::Paired {
            with: at(r1, 0),
            latency_ms: 5.0
        }
    );
    assert_eq!(
        status(&log, second, 0),
        Status::Paired {
            with: at(r2, 0),
            latency_ms: 5.0
        }
    );
    assert_eq!(status(&log, r3, 0), Status::Unmatched);
    assert_eq!(log.counts().pairs, 2);
}

#[test]
fn a_notification_expects_no_reply() {
    let log = via_mock(r#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#);
    assert_eq!(log.len(), 1, "the mock says nothing");
    assert_eq!(status(&log, 1, 0), Status::NoReplyExpected);
    let c = log.counts();
    assert_eq!((c.notifications, c.waiting, c.pairs), (1, 0, 0));
}

#[test]
fn the_spec_batch_reply_pairs_per_element() {
    let batch = r#"[
        {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
        {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
        {"foo": "boo"},
        {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
        {"jsonrpc": "2.0", "method": "get_data", "id": "9"}
    ]"#;
    let log = via_mock(batch);
    assert_eq!(log.len(), 2);
    let (out, reply) = (log.get(1).unwrap(), log.get(2).unwrap());
    assert!(out.is_batch() && reply.is_batch());
    assert_eq!(out.msgs.len(), 6);
    assert_eq!(reply.msgs.len(), 5);
    let kinds: Vec<Kind> = out.msgs.iter().map(|m| m.kind).collect();
    assert_eq!(
        kinds,
        [
            Kind::Request,
            Kind::Notification,
            Kind::Request,
            Kind::Invalid,
            Kind::Request,
            Kind::Request
        ]
    );
    // Request element → reply element: "1"→0, "2"→1, the invalid one → the null-id error, "5"→3, "9"→4.
    for (request, response) in [(0, 0), (2, 1), (3, 2), (4, 3), (5, 4)] {
        assert_eq!(
            paired_with(&log, 1, request),
            Some(at(2, response)),
            "element {request}"
        );
        assert_eq!(
            paired_with(&log, 2, response),
            Some(at(1, request)),
            "reply element {response}"
        );
    }
    assert_eq!(status(&log, 1, 1), Status::NoReplyExpected);
    assert_eq!(reply.msgs[2].error_code, Some(-32600));
    assert_eq!(reply.msgs[3].error_code, Some(-32601));
    assert_eq!(reply.msgs[4].summary, r#"result ["hello",5]"#);
    let c = log.counts();
    assert_eq!(
        (c.entries, c.messages, c.pairs, c.waiting, c.errors),
        (2, 11, 5, 0, 3)
    );
}

#[test]
fn an_empty_array_is_not_a_batch_and_gets_one_error_reply() {
    let log = via_mock("[]");
    assert_eq!(log.len(), 2);
    let reply = log.get(2).unwrap();
    assert_eq!(reply.kind, Kind::Response);
    assert_eq!(reply.single().unwrap().error_code, Some(-32600));
    assert_eq!(paired_with(&log, 1, 0), Some(at(2, 0)));
    assert_eq!(log.get(1).unwrap().kind, Kind::Invalid);
    assert_eq!(log.get(1).unwrap().msgs[0].summary, "[] is not a batch");
}

#[test]
fn parse_errors_and_invalid_requests_pair_with_null_id_errors_in_order() {
    let log = via_mock(
        "{\"jsonrpc\": \"2.0\", \"method\": \"foobar, \"params\": \"bar\", \"baz]\n\
         {\"jsonrpc\": \"2.0\", \"method\": 1, \"params\": \"bar\"}\n\
         [1,2,3]",
    );
    let kinds: Vec<Kind> = log.entries().iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            Kind::ParseError,
            Kind::Response,
            Kind::Invalid,
            Kind::Response,
            Kind::Batch,
            Kind::Batch
        ]
    );
    assert_eq!(paired_with(&log, 1, 0), Some(at(2, 0)));
    assert_eq!(
        log.get(2).unwrap().single().unwrap().error_code,
        Some(-32700)
    );
    assert_eq!(paired_with(&log, 3, 0), Some(at(4, 0)));
    for i in 0..3 {
        assert_eq!(paired_with(&log, 5, i), Some(at(6, i)));
    }
    assert_eq!(log.counts().waiting, 0);
}

#[test]
fn an_invalid_request_with_a_usable_id_pairs_by_that_id() {
    let log = via_mock(r#"{"jsonrpc": "1.0", "method": "a", "id": "x"}"#);
    assert_eq!(log.get(1).unwrap().kind, Kind::Invalid);
    assert_eq!(paired_with(&log, 1, 0), Some(at(2, 0)));
    assert_eq!(
        log.get(2).unwrap().single().unwrap().id.as_deref(),
        Some("\"x\"")
    );
}

#[test]
fn a_request_with_id_null_pairs_with_its_result_which_is_a_valid_response() {
    // What the mock (rightly) answers: the same id, null, with the result.
    let log = via_mock(r#"{"jsonrpc": "2.0", "method": "sum", "params": [1, 2], "id": null}"#);
    let reply = log.get(2).unwrap();
    assert_eq!(reply.raw, r#"{"jsonrpc":"2.0","result":3,"id":null}"#);
    assert_eq!(paired_with(&log, 1, 0), Some(at(2, 0)));
    let m = reply.single().unwrap();
    assert_eq!(
        (reply.kind, m.kind, m.intent, m.is_error),
        (Kind::Response, Kind::Response, None, false)
    );
    assert!(!reply.has_error());
    let c = log.counts();
    assert_eq!((c.responses, c.errors, c.pairs, c.waiting), (1, 0, 1, 0));
    // Each element of a batch the same way.
    let log = via_mock(
        r#"[{"jsonrpc": "2.0", "method": "sum", "params": [1], "id": null}, {"jsonrpc": "2.0", "method": "sum", "params": [2], "id": null}]"#,
    );
    let reply = log.get(2).unwrap();
    assert!(
        reply
            .msgs
            .iter()
            .all(|m| m.kind == Kind::Response && !m.is_error),
        "{:?}",
        reply.msgs
    );
    assert_eq!(
        (paired_with(&log, 1, 0), paired_with(&log, 1, 1)),
        (Some(at(2, 0)), Some(at(2, 1)))
    );
}

#[test]
fn a_result_with_id_null_answers_a_request_with_id_null_not_an_unreadable_message() {
    let mut log = Log::new();
    let garbage = log.record(MOCK, Out, 0.0, "{not json");
    let null_id = log.record(
        MOCK,
        Out,
        1.0,
        r#"{"jsonrpc":"2.0","method":"sum","params":[1],"id":null}"#,
    );
    // The result answers the request with id null, though the unreadable message waits longer.
    let result = log.record(MOCK, In, 2.0, r#"{"jsonrpc":"2.0","result":1,"id":null}"#);
    assert_eq!(paired_with(&log, null_id, 0), Some(at(result, 0)));
    assert_eq!(
        log.get(result).unwrap().single().unwrap().kind,
        Kind::Response
    );
    let error = log.record(
        MOCK,
        In,
        3.0,
        r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}"#,
    );
    assert_eq!(paired_with(&log, garbage, 0), Some(at(error, 0)));
    // With no request with id null waiting, such a result stays what the engine says alone: invalid.
    let stray = log.record(MOCK, In, 4.0, r#"{"jsonrpc":"2.0","result":1,"id":null}"#);
    let m = log.get(stray).unwrap().single().unwrap().clone();
    assert_eq!(
        (m.kind, m.intent, m.is_error, m.status),
        (Kind::Invalid, Some(Kind::Response), true, Status::Unmatched)
    );
    // And an unreadable message is not answered by a result (it waits for an error).
    let garbage = log.record(MOCK, Out, 5.0, "{not json");
    let result = log.record(MOCK, In, 6.0, r#"{"jsonrpc":"2.0","result":1,"id":null}"#);
    assert_eq!(
        log.get(result).unwrap().single().unwrap().kind,
        Kind::Invalid
    );
    assert_eq!(
        paired_with(&log, garbage, 0),
        Some(at(result, 0)),
        "as before: first in, first out"
    );
    // The stored form replays to the same verdicts.
    let back = Log::from_json_str(&log.to_json_string()).unwrap();
    assert_eq!(back.entries(), log.entries());
}

#[test]
fn server_initiated_requests_wait_for_our_response() {
    let link = "ws://127.0.0.1:9000/";
    let mut log = Log::new();
    let ping = log.record(
        link,
        In,
        10.0,
        r#"{"jsonrpc":"2.0","method":"ping","id":"s1"}"#,
    );
    assert_eq!(status(&log, ping, 0), Status::Pending);
    assert_eq!(log.counts().server_requests, 1);
    // A reply from another peer does not answer it.
    log.record(
        MOCK,
        Out,
        11.0,
        r#"{"jsonrpc":"2.0","result":{},"id":"s1"}"#,
    );
    assert_eq!(status(&log, ping, 0), Status::Pending);
    let pong = log.record(
        link,
        Out,
        30.0,
        r#"{"jsonrpc":"2.0","result":{},"id":"s1"}"#,
    );
    assert_eq!(
        status(&log, ping, 0),
        Status::Paired {
            with: at(pong, 0),
            latency_ms: 20.0
        }
    );
    // A response from the server with the same id is not an answer to the server's own request.
    let stray = log.record(link, In, 31.0, r#"{"jsonrpc":"2.0","result":{},"id":"s1"}"#);
    assert_eq!(status(&log, stray, 0), Status::Unmatched);
}

#[test]
fn pairing_stays_within_one_peer() {
    let mut log = Log::new();
    let to_link = log.record(
        "ws://a",
        Out,
        0.0,
        r#"{"jsonrpc":"2.0","method":"a","id":1}"#,
    );
    let to_mock = log.record(MOCK, Out, 1.0, r#"{"jsonrpc":"2.0","method":"a","id":1}"#);
    let mock_reply = log.record(MOCK, In, 2.0, r#"{"jsonrpc":"2.0","result":1,"id":1}"#);
    assert_eq!(paired_with(&log, to_mock, 0), Some(at(mock_reply, 0)));
    assert_eq!(status(&log, to_link, 0), Status::Pending);
}

#[test]
fn timeouts_mark_waiting_requests_and_late_replies_still_pair() {
    let mut log = Log::new();
    let old = log.record(
        MOCK,
        Out,
        0.0,
        r#"{"jsonrpc":"2.0","method":"slow","id":1}"#,
    );
    let young = log.record(
        MOCK,
        Out,
        25_000.0,
        r#"{"jsonrpc":"2.0","method":"slow","id":2}"#,
    );
    assert_eq!(log.expire(30_000.0, 30_000.0), 1);
    assert_eq!(status(&log, old, 0), Status::TimedOut);
    assert_eq!(status(&log, young, 0), Status::Pending);
    assert_eq!((log.counts().timed_out, log.counts().waiting), (1, 2));
    assert_eq!(log.expire(30_000.0, 30_000.0), 0, "already marked");
    let late = log.record(MOCK, In, 40_000.0, r#"{"jsonrpc":"2.0","result":1,"id":1}"#);
    assert_eq!(
        status(&log, old, 0),
        Status::Paired {
            with: at(late, 0),
            latency_ms: 40_000.0
        }
    );
    assert_eq!((log.counts().timed_out, log.counts().waiting), (0, 1));
}

#[test]
fn a_dropped_connection_loses_what_was_in_flight() {
    let mut log = Log::new();
    let a = log.record(
        "ws://a",
        Out,
        0.0,
        r#"{"jsonrpc":"2.0","method":"a","id":1}"#,
    );
    let m = log.record(MOCK, Out, 0.0, r#"{"jsonrpc":"2.0","method":"a","id":1}"#);
    assert_eq!(log.mark_lost("ws://a"), 1);
    assert_eq!(status(&log, a, 0), Status::Lost);
    assert_eq!(status(&log, m, 0), Status::Pending);
    // A reply after reconnecting does not resurrect the lost request.
    let r = log.record("ws://a", In, 5.0, r#"{"jsonrpc":"2.0","result":1,"id":1}"#);
    assert_eq!(status(&log, r, 0), Status::Unmatched);
    assert_eq!(log.waiting(), [at(m, 0)]);
    assert_eq!((log.counts().lost, log.counts().waiting), (1, 1));
}

#[test]
fn a_failed_post_loses_only_the_requests_it_carried() {
    let http = "http://127.0.0.1:9/rpc";
    let mut log = Log::new();
    // Three POSTs in flight to one endpoint: a slow call, a single request, a batch.
    let slow = log.record(
        http,
        Out,
        0.0,
        r#"{"jsonrpc":"2.0","method":"slow","id":1}"#,
    );
    let single = log.record(
        http,
        Out,
        1.0,
        r#"{"jsonrpc":"2.0","method":"fail","id":2}"#,
    );
    let batch = log.record(http, Out, 2.0, r#"[{"jsonrpc":"2.0","method":"a","id":3},{"jsonrpc":"2.0","method":"note"},{"jsonrpc":"2.0","method":"b","id":4}]"#);
    let mock = log.record(MOCK, Out, 3.0, r#"{"jsonrpc":"2.0","method":"a","id":2}"#);
    assert_eq!(
        log.mark_entry_lost(single, "HTTP 500 Internal Server Error"),
        1
    );
    assert_eq!(status(&log, single, 0), Status::Lost);
    assert_eq!(
        log.get(single).unwrap().lost_reason.as_deref(),
        Some("HTTP 500 Internal Server Error")
    );
    // Each request of a failed batch is lost; its notification expected nothing and stays so.
    assert_eq!(
        log.mark_entry_lost(
            batch,
            "the POST failed before any reply (TypeError: Failed to fetch)"
        ),
        2
    );
    assert_eq!(
        [
            status(&log, batch, 0),
            status(&log, batch, 1),
            status(&log, batch, 2)
        ],
        [Status::Lost, Status::NoReplyExpected, Status::Lost]
    );
    // The other POST and the mock are untouched, and the slow reply still pairs.
    assert_eq!(status(&log, slow, 0), Status::Pending);
    assert_eq!(status(&log, mock, 0), Status::Pending);
    assert!(log.get(slow).unwrap().lost_reason.is_none());
    assert_eq!(log.waiting(), [at(slow, 0), at(mock, 0)]);
    let reply = log.record(
        http,
        In,
        1500.0,
        r#"{"jsonrpc":"2.0","result":"late","id":1}"#,
    );
    assert_eq!(
        status(&log, slow, 0),
        Status::Paired {
            with: at(reply, 0),
            latency_ms: 1500.0
        }
    );
    // A reply for a lost request pairs with nothing.
    let stray = log.record(http, In, 1600.0, r#"{"jsonrpc":"2.0","result":0,"id":2}"#);
    assert_eq!(status(&log, stray, 0), Status::Unmatched);
    let c = log.counts();
    assert_eq!((c.lost, c.waiting, c.pairs, c.unmatched), (3, 1, 1, 1));
    // Nothing left to lose: marking again changes nothing, keeps the first reason.
    assert_eq!(log.mark_entry_lost(single, "again"), 0);
    assert_eq!(log.mark_entry_lost(slow, "too late"), 0);
    assert_eq!(log.mark_entry_lost(999, "no such entry"), 0);
    assert_eq!(
        log.get(single).unwrap().lost_reason.as_deref(),
        Some("HTTP 500 Internal Server Error")
    );
    // A timed-out request can still be lost by its POST.
    let timed = log.record(
        http,
        Out,
        2000.0,
        r#"{"jsonrpc":"2.0","method":"slow","id":5}"#,
    );
    log.expire(40_000.0, 30_000.0);
    assert_eq!(status(&log, timed, 0), Status::TimedOut);
    assert_eq!(log.mark_entry_lost(timed, "HTTP 502 Bad Gateway"), 1);
    // (The mock's request timed out as well, and stays so.)
    assert_eq!(status(&log, mock, 0), Status::TimedOut);
    assert_eq!((log.counts().timed_out, log.counts().lost), (1, 4));
    // The reason is stored and read back.
    let back = Log::from_json_str(&log.to_json_string()).unwrap();
    assert_eq!(
        back.get(single).unwrap().lost_reason.as_deref(),
        Some("HTTP 500 Internal Server Error")
    );
    assert_eq!(
        back.get(batch).unwrap().lost_reason.as_deref(),
        Some("the POST failed before any reply (TypeError: Failed to fetch)")
    );
    assert_eq!(status(&back, single, 0), Status::Lost);
    assert_eq!(back.counts(), log.counts());
}

#[test]
fn keys_are_monotonic_across_clear() {
    let mut log = Log::new();
    assert_eq!(log.record(MOCK, Out, 0.0, "{}"), 1);
    assert_eq!(log.record(MOCK, Out, 0.0, "{}"), 2);
    log.clear();
    assert!(log.is_empty());
    assert_eq!(log.counts().entries, 0);
    assert_eq!(log.record(MOCK, Out, 0.0, "{}"), 3);
    // What the page shows counts again from 1 (keys stay unique for keyed views).
    assert_eq!(log.get(3).unwrap().number, 1);
    assert_eq!(log.record(MOCK, Out, 0.0, "{}"), 4);
    assert_eq!(log.get(4).unwrap().number, 2);
}

#[test]
fn frames_that_are_not_one_json_document() {
    let mut log = Log::new();
    let garbage = log.record(MOCK, In, 0.0, "hello");
    let two = log.record(MOCK, In, 0.0, "{} {}");
    let blank = log.record(MOCK, In, 0.0, "   ");
    for key in [garbage, two, blank] {
        let e = log.get(key).unwrap();
        assert_eq!(e.kind, Kind::ParseError, "{:?}", e.raw);
        assert_eq!(
            e.msgs[0].status,
            Status::Unpaired,
            "a client does not answer garbage"
        );
        assert!(e.has_error());
    }
}

#[test]
fn counts_stay_exact_beyond_any_view() {
    let mut log = Log::new();
    for i in 0..1200 {
        log.record(
            MOCK,
            Out,
            i as f64,
            format!(r#"{{"jsonrpc":"2.0","method":"a","id":{i}}}"#),
        );
        if i % 2 == 0 {
            log.record(
                MOCK,
                In,
                i as f64 + 0.5,
                format!(r#"{{"jsonrpc":"2.0","result":{i},"id":{i}}}"#),
            );
        }
    }
    let c = log.counts();
    assert_eq!(
        (c.entries, c.out, c.r#in, c.pairs, c.waiting),
        (1800, 1200, 600, 600, 600)
    );
    assert_eq!(log.tail(500).len(), 500);
    assert_eq!(log.tail(500)[0].key, 1301);
    assert_eq!(
        log.to_ndjson().lines().count(),
        1800,
        "export has every message"
    );
}

#[test]
fn ndjson_export_keeps_order_direction_time_and_exact_text() {
    let mut log = Log::new();
    log.record(MOCK, Out, 1.25, "{\n  \"jsonrpc\": \"2.0\", \"method\": \"a\", \"params\": [1.0, 12345678901234567890], \"id\": 1\n}");
    log.record(MOCK, In, 2.5, r#"{"jsonrpc":"2.0","result":1.0,"id":1}"#);
    log.record(MOCK, In, 3.0, "not json\nat all");
    let ndjson = log.to_ndjson();
    let lines: Vec<&str> = ndjson.lines().collect();
    assert_eq!(
        lines,
        [
            r#"{"seq":1,"time":1.25,"direction":"out","peer":"mock","message":{"jsonrpc":"2.0","method":"a","params":[1.0,12345678901234567890],"id":1}}"#,
            r#"{"seq":2,"time":2.5,"direction":"in","peer":"mock","message":{"jsonrpc":"2.0","result":1.0,"id":1}}"#,
            r#"{"seq":3,"time":3.0,"direction":"in","peer":"mock","raw":"not json\nat all"}"#,
        ]
    );
    for line in &lines {
        serde_json::from_str::<serde_json::Value>(line).expect("each line is JSON");
    }
    let array: serde_json::Value = serde_json::from_str(&log.to_json_array()).unwrap();
    let array = array.as_array().unwrap();
    assert_eq!(array.len(), 3);
    assert_eq!(array[1]["direction"], "in");
    assert_eq!(array[2]["raw"], "not json\nat all");
    assert_eq!(Log::new().to_json_array(), "[]\n");
}

#[test]
fn the_stored_form_round_trips() {
    let mut log = via_mock(
        "{\"jsonrpc\":\"2.0\",\"method\":\"subtract\",\"params\":[42,23],\"id\":1}\n\
         {\"jsonrpc\":\"2.0\",\"method\":\"update\",\"params\":[1]}\n[]",
    );
    log.record(
        "ws://x",
        Out,
        5000.0,
        r#"{"jsonrpc":"2.0","method":"slow","id":9}"#,
    );
    log.record(
        "ws://y",
        Out,
        5000.0,
        r#"{"jsonrpc":"2.0","method":"slow","id":9}"#,
    );
    log.expire(40_000.0, 30_000.0);
    log.mark_lost("ws://y");
    let saved = log.to_json_string();
    let back = Log::from_json_str(&saved).unwrap();
    // Everything but `rev` (a view's change counter) comes back.
    let unrev = |l: &Log| {
        l.entries()
            .iter()
            .map(|e| Entry {
                rev: 0,
                ..e.clone()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(unrev(&back), unrev(&log));
    assert_eq!(back.counts(), log.counts());
    assert_eq!(back.next_key(), log.next_key());
    assert_eq!(back.to_json_string(), saved);
    // A late reply still pairs after a reload; the lost one stays lost.
    let mut back = back;
    let late = back.record(
        "ws://x",
        In,
        50_000.0,
        r#"{"jsonrpc":"2.0","result":0,"id":9}"#,
    );
    assert!(matches!(
        back.msg(at(late, 0)).unwrap().status,
        Status::Paired { .. }
    ));
}

#[test]
fn the_stored_form_can_be_cut_to_the_last_entries() {
    let log = via_mock("{\"jsonrpc\":\"2.0\",\"method\":\"a\",\"id\":1} {\"jsonrpc\":\"2.0\",\"method\":\"b\",\"id\":2}");
    let back = Log::from_json_str(&log.to_json_string_last(2)).unwrap();
    assert_eq!(back.len(), 2);
    assert_eq!(back.entries()[0].key, 3);
    assert_eq!(back.next_key(), 5);
}

#[test]
fn corrupt_stored_logs_are_errors_not_panics() {
    for bad in [
        "",
        "null",
        "[]",
        "{",
        r#"{"format":"other","version":1,"entries":[]}"#,
        r#"{"format":"jsonrpc-playground/log","version":99,"entries":[]}"#,
        r#"{"format":"jsonrpc-playground/log","version":1}"#,
        r#"{"format":"jsonrpc-playground/log","version":1,"entries":{}}"#,
    ] {
        assert!(Log::from_json_str(bad).is_err(), "{bad:?}");
    }
    // Damaged entries are skipped; the rest is kept.
    let partly = r#"{"format":"jsonrpc-playground/log","version":1,"next_key":"x","entries":[
        {"key":5,"time":1,"direction":"out","peer":"mock","raw":"{\"jsonrpc\":\"2.0\",\"method\":\"a\",\"id\":1}"},
        {"key":4,"time":2,"direction":"in","raw":"{}"},
        {"key":6,"time":"late","direction":"sideways","raw":"{}"},
        {"key":7,"direction":"in","raw":"{\"jsonrpc\":\"2.0\",\"result\":1,\"id\":1}"},
        {"key":18446744073709551615,"direction":"in","raw":"{}"},
        17, null, "x"
    ]}"#;
    let log = Log::from_json_str(partly).unwrap();
    let keys: Vec<u64> = log.entries().iter().map(|e| e.key).collect();
    assert_eq!(keys, [5, 7]);
    assert_eq!(log.counts().pairs, 1);
    assert_eq!(log.next_key(), 8);
}

#[test]
fn a_tool_error_says_so_before_any_cut() {
    let mut log = Log::new();
    let long = "x".repeat(200);
    let key = log.record(
        MOCK,
        In,
        0.0,
        format!(r#"{{"jsonrpc": "2.0", "result": {{"content": [{{"type": "text", "text": "division by zero {long}"}}], "isError": true}}, "id": 3}}"#),
    );
    let summary = &log.get(key).unwrap().msgs[0].summary;
    assert!(
        summary.starts_with("tool error (isError: true) division by zero"),
        "{summary}"
    );
    assert!(summary.chars().count() <= 80, "{summary}");
}

/// The copy of the log's rows the page hands its views' module (`Log::copy_update`, the entries
/// as serde JSON): the same entries after the crossing, older ones dropped, revised ones replaced.
#[test]
fn a_copy_of_the_rows_reads_as_the_log() {
    let log = via_mock(
        r#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}
[{"jsonrpc": "2.0", "method": "sum", "params": [1, 2], "id": "2"}, {"foo": "boo"}]
{"jsonrpc": "2.0", "method": "update", "params": [1]}"#,
    );
    let entries: Vec<Entry> = log.entries().to_vec();
    let text = serde_json::to_string(&entries).unwrap();
    let crossed: Vec<Entry> = serde_json::from_str(&text).unwrap();
    assert_eq!(crossed, entries, "every field survives the crossing");
    let mut copy = Log::new();
    copy.copy_update(0, crossed);
    assert_eq!(copy.entries(), log.entries());
    assert_eq!(copy.round_number(1), log.round_number(1));
    // From the third entry on: the first two are dropped; a revised entry replaces its older self.
    let mut revised = log.entries()[3].clone();
    revised.rev += 1;
    revised.msgs[0].status = Status::Lost;
    copy.copy_update(log.entries()[2].key, vec![revised.clone()]);
    assert_eq!(copy.len(), log.len() - 2);
    assert_eq!(copy.get(revised.key), Some(&revised));
    assert_eq!(copy.entries()[0].key, log.entries()[2].key);
    // Everything dropped (the page's log was cleared): empty, and the next key follows on.
    copy.copy_update(log.next_key(), Vec::new());
    assert!(copy.is_empty());
    assert_eq!(copy.next_key(), log.next_key());
    // An unknown kind is refused with its name, not read as something else.
    let bad = text.replacen("\"request\"", "\"requested\"", 1);
    let err = serde_json::from_str::<Vec<Entry>>(&bad)
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown kind \"requested\""), "{err}");
}
