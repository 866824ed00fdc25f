//! The web app's crossings (src/wire/): the envelope's hand-written forms are serde's own, a
//! passed-on payload reads back as what was written, and every side's messages read back as
//! they were written (the formats are relied on between binaries built together, and by the
//! workers' loader, src/web/js/worker-boot.js, which reads `load` and writes `unavailable`).
#![cfg(not(target_arch = "wasm32"))]

use jsonrpc_playground::mock::Fixtures;
use jsonrpc_playground::wire::api::{ApiAnswer, ApiRequest, Reference};
use jsonrpc_playground::wire::envelope::{self, FromWorker, ToWorker};
use jsonrpc_playground::wire::link::{Endpoint, LinkEvent, LinkNews, LinkRequest, LinkState};
use jsonrpc_playground::wire::probe::{ApiProbe, ProbeEvent, ProbeRequest};
use jsonrpc_playground::wire::views::{FromViews, ToViews};
use jsonrpc_playground::wire::Passed;
use serde_json::value::RawValue;

fn raw(text: &str) -> Box<RawValue> {
    RawValue::from_string(text.to_string()).unwrap()
}

#[test]
fn the_envelopes_written_by_hand_are_serdes_own() {
    let body = r#"{"session":"playground","profile":"jsonrpc","auto":true,"doc":"[]"}"#;
    let cases: [(String, String); 4] = [
        (
            envelope::ask_text(7, body),
            serde_json::to_string(&ToWorker::Ask {
                id: 7,
                body: raw(body),
            })
            .unwrap(),
        ),
        (
            envelope::tell_text(body),
            serde_json::to_string(&ToWorker::Tell { body: raw(body) }).unwrap(),
        ),
        (
            envelope::answer_text(u32::MAX, body),
            serde_json::to_string(&FromWorker::Answer {
                id: u32::MAX,
                body: raw(body),
            })
            .unwrap(),
        ),
        (
            envelope::event_text(body),
            serde_json::to_string(&FromWorker::Event { body: raw(body) }).unwrap(),
        ),
    ];
    for (by_hand, by_serde) in cases {
        assert_eq!(by_hand, by_serde);
    }
    assert_eq!(
        envelope::READY,
        serde_json::to_string(&FromWorker::<()>::Ready).unwrap()
    );
}

#[test]
fn the_loaders_two_messages_keep_their_form() {
    // src/web/js/worker-boot.js reads `JSON.parse(data).load` and writes `{unavailable: {reason}}`.
    let load = ToWorker::<()>::Load {
        js: "a.js".into(),
        wasm: "a.wasm".into(),
    };
    assert_eq!(
        serde_json::to_string(&load).unwrap(),
        r#"{"load":{"js":"a.js","wasm":"a.wasm"}}"#
    );
    let said: FromWorker<()> = serde_json::from_str(r#"{"unavailable":{"reason":"404"}}"#).unwrap();
    assert_eq!(
        said,
        FromWorker::Unavailable {
            reason: "404".into()
        }
    );
}

#[test]
fn an_answer_reads_back_with_its_id_and_its_body_untouched() {
    let text = envelope::answer_text(3, r#"{"replied":{"reply":null}}"#);
    let FromWorker::Answer { id, body } =
        serde_json::from_str::<FromWorker<&RawValue>>(&text).unwrap()
    else {
        panic!("not an answer: {text}");
    };
    assert_eq!(id, 3);
    let answer: ApiAnswer = serde_json::from_str(body.get()).unwrap();
    assert!(
        matches!(answer, ApiAnswer::Replied { reply: None }),
        "{answer:?}"
    );
}

#[test]
fn a_passed_payload_travels_as_json_not_as_a_string_and_reads_back() {
    let probe = ApiProbe {
        run: 4,
        url: "http://127.0.0.1:1/rpc".into(),
        websocket: false,
        protocol: String::new(),
        headers: vec![("X-Key".into(), "v".into())],
        skip_methods: vec!["delete".into()],
        max_calls: 9,
    };
    let asked = FromViews::ProbeApi {
        probe: Passed::new(&probe).unwrap(),
        under_document: true,
    };
    let text = serde_json::to_string(&asked).unwrap();
    assert!(
        text.starts_with(r#"{"probe_api":{"probe":{"run":4,"#),
        "{text}"
    );
    // The page reads the views' message and passes the probe on to the API's worker unread.
    let FromViews::ProbeApi { probe: passed, .. } = serde_json::from_str(&text).unwrap() else {
        panic!("not a probe: {text}");
    };
    let request = ApiRequest::Probe {
        probe: passed,
        document: None,
    };
    let ApiRequest::Probe { probe: arrived, .. } =
        serde_json::from_str(&serde_json::to_string(&request).unwrap()).unwrap()
    else {
        panic!("not a probe");
    };
    assert_eq!(arrived.read().unwrap(), probe);
}

#[test]
fn the_probes_event_passed_through_the_page_reads_back() {
    let event = ProbeEvent::Failed {
        run: 2,
        reason: "refused".into(),
    };
    let told = ToViews::ApiProbeEvent {
        event: Passed::new(&event).unwrap(),
    };
    let text = serde_json::to_string(&told).unwrap();
    let ToViews::ApiProbeEvent { event: arrived } = serde_json::from_str(&text).unwrap() else {
        panic!("not an event: {text}");
    };
    assert_eq!(arrived.read().unwrap(), event);
    let reference = Reference {
        title: "t".into(),
        version: "1".into(),
        description: None,
        methods: Vec::new(),
    };
    let context = ToViews::Context {
        profile: "jsonrpc".into(),
        fixtures: Fixtures::default(),
        auto_answer: true,
        api: Some(Passed::new(&reference).unwrap()),
    };
    let ToViews::Context { api: Some(api), .. } =
        serde_json::from_str(&serde_json::to_string(&context).unwrap()).unwrap()
    else {
        panic!("no reference");
    };
    assert_eq!(api.read().unwrap(), reference);
}

#[test]
fn the_links_and_the_probes_messages_read_back() {
    let requests = [
        LinkRequest::Connect {
            generation: 1,
            endpoint: Endpoint {
                url: "ws://127.0.0.1:1".into(),
                websocket: true,
                ..Endpoint::default()
            },
        },
        LinkRequest::Send {
            generation: 1,
            text: "{}".into(),
            key: 9,
        },
        LinkRequest::Disconnect { generation: 2 },
    ];
    for request in requests {
        let text = serde_json::to_string(&request).unwrap();
        assert_eq!(serde_json::from_str::<LinkRequest>(&text).unwrap(), request);
    }
    let event = LinkEvent {
        generation: 3,
        news: LinkNews::State(LinkState::Open {
            session: Some("s".into()),
        }),
    };
    let text = serde_json::to_string(&event).unwrap();
    assert_eq!(
        text,
        r#"{"generation":3,"news":{"state":{"open":{"session":"s"}}}}"#
    );
    assert_eq!(serde_json::from_str::<LinkEvent>(&text).unwrap(), event);
    for request in [ProbeRequest::Cancel, ProbeRequest::Close] {
        let text = serde_json::to_string(&request).unwrap();
        assert_eq!(
            serde_json::from_str::<ProbeRequest>(&text).unwrap(),
            request
        );
    }
}
