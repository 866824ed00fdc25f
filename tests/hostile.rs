//! Huge and hostile input, native: 100 000-deep nesting, a 10 MB string, a 1 000 000-element batch,
//! invalid UTF-8, lone surrogates and numbers with 10 000 digits go through `rpc::check` (both
//! profiles), the mock server, `jrpc check` and `jrpc serve`. Each gets a clear verdict or a located
//! error: no panic, no hang (every case runs under a time limit). Peak memory of `jrpc check` on the
//! same inputs is measured by `bash scripts/bench-hostile.sh` (README, Hardening).
//!
//! Also here: the streamed JSON report is byte for byte the serde_json rendering of
//! `Report::to_json` (the `jrpc check --format json` contract), and the fuzzers' findings
//! (`fuzz_regressions`).
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use jsonrpc_playground::json::{parse_document, Direction as Side, LineIndex};
use jsonrpc_playground::mock::MockServer;
use jsonrpc_playground::rpc::{check, Kind, McpVersion, Profile, Report, Severity};
use serde_json::Value as J;

mod common;

/// Generous for a debug build on a busy 2-core machine; a hang (or anything quadratic on these
/// sizes) still fails.
const LIMIT: Duration = Duration::from_secs(300);

/// Runs `f` on its own thread and fails if it takes longer than `limit` (a hang) or panics.
fn within<T: Send + 'static>(
    what: &str,
    limit: Duration,
    f: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name(what.to_string())
        .stack_size(8 << 20)
        .spawn(move || {
            let _ = tx.send(f());
        })
        .unwrap();
    match rx.recv_timeout(limit) {
        Ok(v) => v,
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("{what}: no answer within {limit:?} (hang?)")
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{what}: panicked"),
    }
}

const MCP: Profile = Profile::Mcp(McpVersion::ALL[McpVersion::ALL.len() - 1]);

// ---- The hostile inputs ------------------------------------------------------------------------

fn deep_arrays() -> Vec<u8> {
    [vec![b'['; 100_000], vec![b']'; 100_000]].concat()
}
fn deep_objects() -> Vec<u8> {
    [
        br#"{"a":"#.repeat(100_000),
        b"1".to_vec(),
        b"}".repeat(100_000),
    ]
    .concat()
}
/// A well-formed request whose params nest 100 000 deep.
fn deep_params() -> Vec<u8> {
    [
        br#"{"jsonrpc":"2.0","method":"sum","params":"#.to_vec(),
        deep_arrays(),
        br#","id":1}"#.to_vec(),
    ]
    .concat()
}
const TEN_MB: usize = 10 << 20;
fn string_10mb() -> Vec<u8> {
    [
        br#"{"jsonrpc":"2.0","method":"echo","params":{"text":""#.to_vec(),
        vec![b'x'; TEN_MB],
        br#""},"id":1}"#.to_vec(),
    ]
    .concat()
}
fn string_10mb_unterminated() -> Vec<u8> {
    [
        br#"{"jsonrpc":"2.0","method":"echo","params":{"text":""#.to_vec(),
        vec![b'x'; TEN_MB],
    ]
    .concat()
}
/// 10 MB of escapes (each decodes to one char), so the string is rebuilt, not borrowed.
fn string_10mb_escaped() -> Vec<u8> {
    [
        br#"{"jsonrpc":"2.0","method":"m","params":[""#.to_vec(),
        br"\u00e9\n".repeat(TEN_MB / 8),
        br#""],"id":1}"#.to_vec(),
    ]
    .concat()
}
fn batch_1m_invalid() -> Vec<u8> {
    let mut out = b"[1".to_vec();
    out.extend(b",1".repeat(999_999));
    out.push(b']');
    out
}
fn batch_1m_notifications() -> Vec<u8> {
    let one = br#"{"jsonrpc":"2.0","method":"notify_hello","params":[7]}"#;
    let mut out = Vec::with_capacity(one.len() * 1_000_001 + 2);
    out.push(b'[');
    for i in 0..1_000_000 {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(one);
    }
    out.push(b']');
    out
}
/// Bytes that are not UTF-8 inside a string (0xFF, an overlong '/'), outside one, and a truncated sequence.
const INVALID_UTF8: &[&[u8]] = &[
    b"{\"jsonrpc\":\"2.0\",\"method\":\"\xff\xfe\",\"id\":1}",
    b"{\"jsonrpc\":\"2.0\",\"method\":\"\xc0\xaf\",\"id\":1}",
    b"{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"id\":1}\xff",
    b"{\"jsonrpc\":\"2.0\",\"method\":\"m\xe2\x82\",\"id\":1}",
    b"\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"id\":1}",
];
/// Lone surrogates: as escapes (legal JSON, not Unicode) and as raw CESU-8 bytes (not UTF-8).
const ESCAPED_SURROGATES: &[u8] =
    br#"{"jsonrpc":"2.0","method":"a\ud800b","params":["\udc00","\ud83d\ude00"],"id":"\udfff"}"#;
const RAW_SURROGATE: &[u8] = b"{\"jsonrpc\":\"2.0\",\"method\":\"\xed\xa0\x80\",\"id\":1}";
fn numbers_10k_digits() -> Vec<u8> {
    let nines = "9".repeat(10_000);
    format!(r#"{{"jsonrpc":"2.0","method":"subtract","params":[{nines}, 0.{nines}, 1e{nines}, -{nines}e-{nines}],"id":1{nines}}}"#)
        .into_bytes()
}

// ---- rpc::check ----------------------------------------------------------------------------------

fn check_both(name: &'static str, src: Vec<u8>) -> (Report, Report, Vec<u8>) {
    within(name, LIMIT, move || {
        let a = check(&src, Profile::JsonRpc);
        let b = check(&src, MCP);
        (a, b, src)
    })
}

fn only_rule(report: &Report) -> Vec<&'static str> {
    report.violations().map(|v| v.rule.id).collect()
}

#[test]
fn deep_nesting_is_a_located_parse_error() {
    for (name, src) in [
        ("arrays", deep_arrays()),
        ("objects", deep_objects()),
        ("params", deep_params()),
    ] {
        let (a, b, src) = check_both(name, src);
        for r in [&a, &b] {
            let [d] = r.documents.as_slice() else {
                panic!("{name}: {} documents", r.documents.len())
            };
            assert_eq!(d.kind, Kind::ParseError, "{name}");
            let v = &d.violations[0];
            assert_eq!(v.rule.id, "json-syntax");
            assert!(
                v.message.contains("at most 512 nested"),
                "{name}: {}",
                v.message
            );
            // Located at the first bracket past the limit, not at the end of the input.
            assert!(
                v.span.start < 600 * 6 && v.span.end <= src.len(),
                "{name}: {:?}",
                v.span
            );
        }
    }
}

#[test]
fn ten_megabyte_strings() {
    let (a, b, _) = check_both("10 MB string", string_10mb());
    for r in [&a, &b] {
        assert_eq!(r.documents[0].kind, Kind::Request);
    }
    assert!(only_rule(&a).is_empty(), "{:?}", only_rule(&a));

    let (a, _, src) = check_both("10 MB unterminated", string_10mb_unterminated());
    let v = &a.documents[0].violations[0];
    assert_eq!(
        (a.documents[0].kind, v.rule.id),
        (Kind::ParseError, "json-syntax")
    );
    assert!(v.message.contains("to close the string"), "{}", v.message);
    assert_eq!(v.span.end, src.len());

    let (a, _, _) = check_both("10 MB of escapes", string_10mb_escaped());
    assert_eq!(a.documents[0].kind, Kind::Request);
    assert!(only_rule(&a).is_empty());
}

#[test]
fn million_element_batches() {
    let src = batch_1m_invalid();
    let report = within("1M invalid batch", LIMIT, move || {
        let r = check(&src, Profile::JsonRpc);
        // The streamed report holds every item; written to a sink, not kept.
        let mut counter = Counting(0);
        r.write_json(&src, &LineIndex::new(&src), &mut counter)
            .unwrap();
        assert!(counter.0 > 100_000_000, "report of {} bytes", counter.0);
        r
    });
    let [batch] = report.documents.as_slice() else {
        panic!()
    };
    assert_eq!((batch.kind, batch.items.len()), (Kind::Batch, 1_000_000));
    assert!(batch
        .items
        .iter()
        .all(|i| i.kind == Kind::Invalid && i.violations[0].rule.id == "batch-element-not-object"));
    assert_eq!(batch.items[999_999].violations[0].path, "/999999");

    let src = batch_1m_notifications();
    let report = within("1M notifications", LIMIT, move || {
        check(&src, Profile::JsonRpc)
    });
    assert_eq!(report.documents[0].items.len(), 1_000_000);
    assert!(report.documents[0]
        .items
        .iter()
        .all(|i| i.kind == Kind::Notification));
}

struct Counting(usize);
impl Write for Counting {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn invalid_utf8_is_located() {
    for src in INVALID_UTF8 {
        let r = check(src, Profile::JsonRpc);
        let v = r
            .violations()
            .find(|v| v.rule.id == "json-syntax")
            .unwrap_or_else(|| panic!("{src:?}: {:?}", only_rule(&r)));
        // The error names the offending byte at its place.
        let bad = src.iter().position(|&b| b >= 0x80).unwrap();
        assert_eq!(v.span.start, bad, "{src:?}: {v:?}");
        assert!(
            v.message.contains("UTF-8") || v.message.contains("byte order mark (U+FEFF"),
            "{src:?}: {}",
            v.message
        );
    }
    let r = check(RAW_SURROGATE, Profile::JsonRpc);
    let v = &r.documents[0].violations[0];
    assert_eq!((v.rule.id, v.span.start), ("json-syntax", 27));
    assert!(
        v.message.contains("0xED") && v.message.contains("UTF-8"),
        "{}",
        v.message
    );
}

#[test]
fn escaped_lone_surrogates_are_warned_about() {
    for profile in [Profile::JsonRpc, MCP] {
        let r = check(ESCAPED_SURROGATES, profile);
        let expected = if profile == MCP {
            Kind::Invalid
        } else {
            Kind::Request
        };
        assert_eq!(r.documents[0].kind, expected, "{:?}", only_rule(&r));
        let lone: Vec<_> = r
            .violations()
            .filter(|v| v.rule.id == "json-lone-surrogate")
            .collect();
        // \ud800, \udc00 and \udfff are lone; \ud83d\ude00 is a pair (😀).
        assert_eq!(lone.len(), 3, "{:?}", only_rule(&r));
        for v in lone {
            assert_eq!(
                &ESCAPED_SURROGATES[v.span.start..v.span.start + 2],
                br"\u",
                "{v:?}"
            );
        }
    }
}

#[test]
fn numbers_with_ten_thousand_digits() {
    let (a, b, src) = check_both("10k digits", numbers_10k_digits());
    for r in [&a, &b] {
        let [d] = r.documents.as_slice() else {
            panic!()
        };
        // The id keeps its exact text, and is flagged as beyond what peers' doubles hold.
        assert_eq!(d.id.as_deref().map(str::len), Some(10_001));
        assert!(r
            .violations()
            .any(|v| v.rule.id == "id-beyond-safe-integer" && v.path == "/id"));
    }
    assert_eq!(
        (a.documents[0].kind, only_rule(&a)),
        (Kind::Request, vec!["id-beyond-safe-integer"])
    );
    // MCP has no `subtract` and passes params by name.
    assert_eq!(b.documents[0].kind, Kind::Invalid);
    assert!(only_rule(&b).contains(&"mcp-params-not-object"));
    let reply = MockServer::new().handle(&src).unwrap();
    assert_eq!(error_code(&reply), Some(-32602), "{}", &reply[..200]);
    assert!(
        reply.ends_with(&format!(r#""id":1{}}}"#, "9".repeat(10_000))),
        "the id comes back as written"
    );
}

// ---- The mock server -----------------------------------------------------------------------------

fn reply(input: Vec<u8>) -> Option<J> {
    within("mock", LIMIT, move || MockServer::new().handle(&input))
        .map(|r| serde_json::from_str(&r).unwrap())
}

/// The error code of a one-message reply, read with the engine (serde_json refuses 10 000-digit
/// ids and lone surrogates, which the mock echoes as written).
fn error_code(reply: &str) -> Option<i64> {
    let r = check(reply.as_bytes(), Profile::JsonRpc);
    assert!(!r.has_errors(), "reply breaks a rule: {:?}", only_rule(&r));
    r.documents[0].error_code
}

#[test]
fn mock_answers_hostile_input() {
    let parse_error = serde_json::json!({"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null});
    for input in [
        deep_arrays(),
        deep_params(),
        string_10mb_unterminated(),
        RAW_SURROGATE.to_vec(),
    ] {
        assert_eq!(reply(input), Some(parse_error.clone()));
    }
    for input in INVALID_UTF8 {
        assert_eq!(
            reply(input.to_vec()),
            Some(parse_error.clone()),
            "{input:?}"
        );
    }
    // A method named by 10 MB: not found, and the name is not echoed back.
    let method = [
        br#"{"jsonrpc":"2.0","method":""#.to_vec(),
        vec![b'm'; TEN_MB],
        br#"","id":5}"#.to_vec(),
    ]
    .concat();
    let r = reply(method).unwrap();
    assert_eq!(
        (r["error"]["code"].as_i64(), r["id"].as_i64()),
        (Some(-32601), Some(5))
    );
    // MCP's echo tool returns the 10 MB text whole.
    let echo = [
        br#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo","arguments":{"text":""#
            .to_vec(),
        vec![b'x'; TEN_MB],
        br#""}},"id":7}"#.to_vec(),
    ]
    .concat();
    let r = reply(echo).unwrap();
    assert_eq!(
        r["result"]["content"][0]["text"].as_str().map(str::len),
        Some(TEN_MB)
    );
    // Lone surrogates: the id's escape comes back as written; the bad minuend is named.
    let r = MockServer::new()
        .handle(br#"{"jsonrpc":"2.0","method":"subtract","params":["\udc00",1],"id":"\udfff"}"#)
        .unwrap();
    assert_eq!(error_code(&r), Some(-32602));
    assert!(r.ends_with(r#""id":"\udfff"}"#), "{r}");
    // A million-element batch: its million replies (75 MB) pass the 16 MiB a reply may have, so
    // the batch gets one error, id null, and the larger reply is never built.
    let r = reply(batch_1m_invalid()).unwrap();
    assert_eq!(r["error"]["code"], -32010, "{r}");
    assert_eq!(r["id"], serde_json::Value::Null);
    // A million notifications: nothing to return.
    assert_eq!(reply(batch_1m_notifications()), None);
}

#[test]
fn mock_stream_of_hostile_documents() {
    let mut input = Vec::new();
    for doc in [
        deep_arrays(),
        numbers_10k_digits(),
        ESCAPED_SURROGATES.to_vec(),
        br#"{"jsonrpc":"2.0","method":"sum","params":[1,2],"id":9}"#.to_vec(),
    ] {
        input.extend(doc);
        input.push(b'\n');
    }
    let exchanges = within("mock stream", LIMIT, move || {
        MockServer::new().handle_stream(&input)
    });
    let last = exchanges.last().and_then(|e| e.reply.clone()).unwrap();
    assert_eq!(last, r#"{"jsonrpc":"2.0","result":3,"id":9}"#);
    assert!(exchanges[0].reply.as_deref().unwrap().contains("-32700"));
}

// ---- The CLI ---------------------------------------------------------------------------------------

fn jrpc() -> Command {
    Command::new(env!("CARGO_BIN_EXE_jrpc"))
}

fn temp_file(name: &str, data: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hostile");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, data).unwrap();
    path
}

/// `jrpc check --format json FILE`: exit code and the parsed report, under the time limit.
fn cli_check(name: &'static str, data: &[u8], extra: &[&'static str]) -> (i32, J) {
    let path = temp_file(name, data);
    let extra: Vec<&'static str> = extra.to_vec();
    within(name, LIMIT, move || {
        let out = jrpc()
            .arg("check")
            .arg("--format")
            .arg("json")
            .args(&extra)
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            out.stderr.is_empty(),
            "{name}: stderr {}",
            String::from_utf8_lossy(&out.stderr)
        );
        (
            out.status.code().unwrap(),
            serde_json::from_slice(&out.stdout).unwrap(),
        )
    })
}

#[test]
fn cli_check_verdicts() {
    for (name, data) in [
        ("deep.json", deep_arrays()),
        ("deep-objects.json", deep_objects()),
        ("unterminated.json", string_10mb_unterminated()),
    ] {
        let (code, report) = cli_check(name, &data, &[]);
        assert_eq!(code, 1, "{name}");
        assert_eq!(report["documents"][0]["kind"], "parse-error", "{name}");
        assert_eq!(
            report["documents"][0]["violations"][0]["rule"],
            "json-syntax"
        );
    }
    let (code, report) = cli_check(
        "string.json",
        &string_10mb(),
        &["--profile", "mcp", "--mcp-version", "2025-06-18"],
    );
    assert_eq!(
        (code, &report["documents"][0]["kind"]),
        (0, &J::from("request"))
    );
    let (code, report) = cli_check("digits.json", &numbers_10k_digits(), &[]);
    assert_eq!(code, 0);
    assert_eq!(
        report["documents"][0]["violations"][0]["rule"],
        "id-beyond-safe-integer"
    );
    let (code, report) = cli_check("surrogates.json", ESCAPED_SURROGATES, &[]);
    assert_eq!(code, 0);
    assert_eq!(
        report["documents"][0]["violations"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    for (i, data) in INVALID_UTF8.iter().chain([&RAW_SURROGATE]).enumerate() {
        let name: &'static str = Box::leak(format!("utf8-{i}.json").into_boxed_str());
        let (code, report) = cli_check(name, data, &[]);
        assert_eq!(code, 1, "{data:?}");
        assert!(
            report["documents"]
                .as_array()
                .unwrap()
                .iter()
                .any(|d| d["kind"] == "parse-error"),
            "{report}"
        );
    }
}

#[test]
fn cli_check_million_element_batch() {
    // The text format (one line for a clean input) keeps the debug build's output small.
    let path = temp_file("batch-1m.json", &batch_1m_notifications());
    let out = within("jrpc check 1M batch", LIMIT, move || {
        jrpc().arg("check").arg(&path).output().unwrap()
    });
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let (code, report) = cli_check(
        "batch-1m-invalid.json",
        &batch_1m_invalid()[..200_000]
            .iter()
            .chain(b"]")
            .copied()
            .collect::<Vec<_>>(),
        &[],
    );
    assert_eq!(code, 1);
    assert_eq!(
        report["documents"][0]["items"].as_array().unwrap().len(),
        100_000
    );
}

#[test]
fn cli_serve_hostile_lines() {
    let mut input = Vec::new();
    let lines: Vec<Vec<u8>> = vec![
        deep_arrays(),
        numbers_10k_digits(),
        br#"{"jsonrpc":"2.0","method":"a\ud800b","id":3}"#.to_vec(),
        INVALID_UTF8[0].to_vec(),
        RAW_SURROGATE.to_vec(),
        [
            br#"{"jsonrpc":"2.0","method":"subtract","params":[""#.to_vec(),
            vec![b'x'; TEN_MB],
            br#"",1],"id":6}"#.to_vec(),
        ]
        .concat(),
        batch_1m_invalid()[..20_000]
            .iter()
            .chain(b"]")
            .copied()
            .collect(),
        br#"{"jsonrpc":"2.0","method":"sum","params":[1,2],"id":8}"#.to_vec(),
    ];
    for l in &lines {
        input.extend(l);
        input.push(b'\n');
    }
    let out = within("jrpc serve", LIMIT, move || {
        let mut child = jrpc()
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || stdin.write_all(&input));
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap().unwrap();
        out
    });
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let replies: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert_eq!(replies.len(), 8);
    let codes: Vec<Option<i64>> = replies[..6].iter().map(|r| error_code(r)).collect();
    assert_eq!(
        codes,
        [
            Some(-32700),
            Some(-32602),
            Some(-32601),
            Some(-32700),
            Some(-32700),
            Some(-32602)
        ]
    );
    let batch = check(replies[6].as_bytes(), Profile::JsonRpc);
    assert_eq!(batch.documents[0].items.len(), 10_000);
    assert!(batch.documents[0]
        .items
        .iter()
        .all(|i| i.error_code == Some(-32600)));
    assert_eq!(replies[7], r#"{"jsonrpc":"2.0","result":3,"id":8}"#);
}

// ---- The streamed report is the serde_json one ----------------------------------------------------

fn reference(report: &Report, src: &[u8]) -> String {
    serde_json::to_string(&report.to_json(src, &LineIndex::new(src))).unwrap()
}

fn streamed(report: &Report, src: &[u8]) -> String {
    let mut out = Vec::new();
    report
        .write_json(src, &LineIndex::new(src), &mut out)
        .unwrap();
    String::from_utf8(out).unwrap()
}

fn library_texts() -> Vec<String> {
    let lib = include_str!("../engine/src/examples/library.txt");
    lib.split("\n=== ")
        .skip(1)
        .filter_map(|b| b.split_once("\n---\n").map(|(_, t)| t.to_string()))
        .collect()
}

#[test]
fn streamed_report_is_byte_for_byte_the_serde_json_one() {
    let mut inputs: Vec<Vec<u8>> = library_texts()
        .into_iter()
        .map(String::into_bytes)
        .collect();
    inputs.push(include_bytes!("fixtures/spec_examples.txt").to_vec());
    inputs.extend([
        deep_arrays(),
        numbers_10k_digits(),
        ESCAPED_SURROGATES.to_vec(),
        RAW_SURROGATE.to_vec(),
    ]);
    inputs.extend(INVALID_UTF8.iter().map(|s| s.to_vec()));
    // Control characters, quotes and non-ASCII in messages and paths; duplicate members (related spans).
    inputs.push("{\"jsonrpc\":\"2.0\",\"method\":\"m\\u0001\\\"\\\\é\u{2028}\",\"id\":1,\"id\":2,\"a\\/b\":1}".into());
    inputs.push("--> [1, {\"jsonrpc\": \"1.0\"}]\n<-- {\"jsonrpc\":\"2.0\",\"result\":1,\"id\":1}\n<-- // nothing\n".into());
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/JSONTestSuite/test_parsing");
    if let Ok(entries) = std::fs::read_dir(dir) {
        inputs.extend(entries.map(|e| std::fs::read(e.unwrap().path()).unwrap()));
    }
    assert!(inputs.len() > 40);
    let mut profiles = vec![Profile::JsonRpc];
    profiles.extend(McpVersion::ALL.iter().map(|&v| Profile::Mcp(v)));
    for src in &inputs {
        for &p in &profiles {
            let r = check(src, p);
            assert_eq!(
                streamed(&r, src),
                reference(&r, src),
                "{:?}",
                String::from_utf8_lossy(&src[..src.len().min(200)])
            );
        }
    }
}

/// `jrpc check --format json` over several files prints what the serde_json::Value build printed:
/// `{"documents": [each document with "file" last], "profile": {...}}` and a newline.
#[test]
fn cli_json_report_is_unchanged() {
    let texts = library_texts();
    let paths: Vec<PathBuf> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| temp_file(&format!("lib-{i}.txt"), t.as_bytes()))
        .collect();
    for (flag, profile) in [(None, Profile::JsonRpc), (Some("mcp"), MCP)] {
        let mut cmd = jrpc();
        cmd.arg("check").arg("--format").arg("json");
        if let (Some(p), Some(v)) = (flag, profile.mcp_version()) {
            cmd.args(["--profile", p, "--mcp-version", v.as_str()]);
        }
        cmd.args(&paths);
        let out = common::output_of(&mut cmd);
        let mut docs = Vec::new();
        for (path, text) in paths.iter().zip(&texts) {
            let src = text.as_bytes();
            let J::Object(mut whole) = check(src, profile).to_json(src, &LineIndex::new(src))
            else {
                panic!()
            };
            let Some(J::Array(ds)) = whole.remove("documents") else {
                panic!()
            };
            for mut d in ds {
                d["file"] = path.to_str().unwrap().into();
                docs.push(d);
            }
        }
        let profile_json = match profile {
            Profile::JsonRpc => serde_json::json!({ "name": "jsonrpc" }),
            Profile::Mcp(v) => serde_json::json!({ "name": "mcp", "mcp_version": v.as_str() }),
        };
        let expected = format!(
            "{}\n",
            serde_json::json!({ "documents": docs, "profile": profile_json })
        );
        let got = String::from_utf8(out.stdout).unwrap();
        assert!(
            got == expected,
            "{flag:?}: the report changed ({} bytes, expected {}); first difference at byte {:?}",
            got.len(),
            expected.len(),
            got.bytes().zip(expected.bytes()).position(|(a, b)| a != b)
        );
    }
}

// ---- What the fuzzers found (scripts/fuzz.sh) -------------------------------------------------------

/// Every crash the fuzz targets found, kept as a regression: each input goes through what its
/// target checks (parse + format, check under every profile, the mock).
const FUZZ_FINDINGS: &[&[u8]] = &[
    // mock (2026-11-22): a request with "id": null got a result with id null, which the engine called
    // invalid even in a transcript with that request (see mock_echoes_a_null_id below).
    br#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"add","arguments":{}},"id":null}"#,
    include_bytes!("fuzz_findings/mock-null-id-result"),
    // mock (2026-11-23, once each reply was checked with its request as a transcript): an object that
    // is neither request nor response but has a readable id got -32600 with that id, and the
    // transcript expected id null only.
    b"{\"jsonrpc\": \"2.0\", \"id\": 1}\n",
    // mock (2026-11-25, line by line through one server, as stdio): after an MCP 2025-11-25
    // initialize, a batch holding only a response (a `<--` line's) was refused with -32600 —
    // a reply that answers nothing the client sent.
    include_bytes!("fuzz_findings/mock-refused-batch-of-responses"),
];

/// The reply with its request, as the engine checks it.
fn exchange(request: &[u8], reply: &str) -> Vec<u8> {
    jsonrpc_playground::mock::exchange_transcript(request, reply)
}

/// How the mock refuses a non-empty batch under an MCP version without batches: one Invalid
/// Request, id null, for the whole array (JSON-RPC pairing, which wants an array, cannot match it;
/// `a_refused_batch_of_responses_or_notifications_gets_no_reply` tests it).
const BATCH_REFUSED: &str =
    r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"},"id":null}"#;

/// The rules the reply (the `<--` document of [`exchange`]) breaks, errors only; none for a
/// batch refused whole.
fn reply_errors(request: &[u8], reply: &str) -> Vec<&'static str> {
    if reply == BATCH_REFUSED && request.trim_ascii_start().starts_with(b"[") {
        return Vec::new();
    }
    let report = check(&exchange(request, reply), Profile::JsonRpc);
    let [doc] = report
        .documents
        .iter()
        .filter(|d| d.direction == Some(Side::Server))
        .collect::<Vec<_>>()[..]
    else {
        panic!("not one reply: {reply}");
    };
    let responses = |d: &jsonrpc_playground::rpc::Document| d.kind == Kind::Response;
    assert!(
        if doc.kind == Kind::Batch {
            doc.items.iter().all(responses)
        } else {
            responses(doc)
        },
        "{reply}"
    );
    doc.all_violations()
        .filter(|v| v.severity == Severity::Error)
        .map(|v| v.rule.id)
        .collect()
}

/// The mock answers a request whose id is null (legal: "SHOULD NOT" is all §4 says) with that id,
/// as §5 asks ("the same as the value of the id member"). On its own such a reply is flagged
/// (`response-null-id-with-result`: a null id normally means the request could not be read); with
/// its request, in a transcript, it is a valid response.
#[test]
fn mock_echoes_a_null_id() {
    let request = br#"{"jsonrpc":"2.0","method":"sum","params":[1,2],"id":null}"#;
    let r = check(request, Profile::JsonRpc);
    assert_eq!(
        (r.documents[0].kind, only_rule(&r)),
        (Kind::Request, vec!["id-null-in-request"])
    );
    let reply = MockServer::new().handle(request).unwrap();
    assert_eq!(reply, r#"{"jsonrpc":"2.0","result":3,"id":null}"#);
    assert_eq!(
        only_rule(&check(reply.as_bytes(), Profile::JsonRpc)),
        ["response-null-id-with-result"]
    );
    let pair = check(&exchange(request, &reply), Profile::JsonRpc);
    assert_eq!(
        pair.documents.iter().map(|d| d.kind).collect::<Vec<_>>(),
        [Kind::Request, Kind::Response]
    );
    assert_eq!(only_rule(&pair), ["id-null-in-request"]);
    // The same in a batch, and for the MCP method the fuzzer found.
    let batch = br#"[{"jsonrpc":"2.0","method":"sum","params":[1,2],"id":null},{"jsonrpc":"2.0","method":"sum","params":[3],"id":1}]"#;
    let reply = MockServer::new().handle(batch).unwrap();
    assert_eq!(reply_errors(batch, &reply), Vec::<&str>::new(), "{reply}");
    let call = FUZZ_FINDINGS[0];
    let reply = MockServer::new().handle(call).unwrap();
    assert!(
        reply.ends_with(r#""id":null}"#) && reply.contains(r#""result""#),
        "{reply}"
    );
    assert_eq!(reply_errors(call, &reply), Vec::<&str>::new(), "{reply}");
}

#[test]
fn fuzz_regressions() {
    for &src in FUZZ_FINDINGS {
        if let Ok((parsed, end)) = parse_document(src, 0) {
            assert!(end <= src.len() && parsed.root.span.end <= src.len());
        }
        for p in [Profile::JsonRpc, MCP] {
            let r = check(src, p);
            assert_eq!(streamed(&r, src), reference(&r, src));
        }
        // Every reply, checked with the request it answers: no rule broken.
        let mut server = MockServer::new();
        for e in server.handle_stream(src) {
            if let Some(reply) = e.reply {
                let broken = reply_errors(&src[e.span.start..e.span.end], &reply);
                assert!(
                    broken.is_empty(),
                    "{reply}: {broken:?} for {}",
                    String::from_utf8_lossy(&src[e.span.start..e.span.end])
                );
            }
        }
        if let Some(reply) = MockServer::new().handle(src) {
            assert_eq!(reply_errors(src, &reply), Vec::<&str>::new(), "{reply}");
        }
        // Line by line through one server, as the stdio transport (and the fuzz target) does.
        let mut server = MockServer::new();
        for line in src.split(|&b| b == b'\n') {
            if let Some(reply) = server.handle(line) {
                assert_eq!(reply_errors(line, &reply), Vec::<&str>::new(), "{reply}");
            }
        }
    }
}

/// Under an MCP version without batches a batch is refused as a whole, when it holds something
/// that would be answered; one of responses and notifications only gets no reply at all.
#[test]
fn a_refused_batch_of_responses_or_notifications_gets_no_reply() {
    let mut server = MockServer::new();
    let init = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    assert!(server.handle(init).is_some());
    for quiet in [
        &br#"[{"jsonrpc":"2.0","result":{},"id":7}]"#[..],
        br#"[{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","error":{"code":1,"message":"m"},"id":8}]"#,
    ] {
        assert_eq!(server.handle(quiet), None, "{}", String::from_utf8_lossy(quiet));
    }
    let refused = server
        .handle(
            br#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","result":{},"id":7}]"#,
        )
        .unwrap();
    assert!(
        refused.contains("-32600") && refused.ends_with(r#""id":null}"#),
        "{refused}"
    );
}

/// 160,000 members (every tenth name repeated): duplicates are found in about linear time, each
/// paired with its name's first occurrence, in source order. Was quadratic: 80,000 keys took 13 s.
#[test]
fn duplicate_members_of_a_huge_object_are_found_in_linear_time() {
    let names: Vec<String> = (0..160_000)
        .map(|i| {
            if i % 10 == 9 {
                format!("k{}", i - 9)
            } else {
                format!("k{i}")
            }
        })
        .collect();
    let body: Vec<String> = names.iter().map(|n| format!("\"{n}\":0")).collect();
    let src = format!(
        "{{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{{{}}}}}",
        body.join(",")
    );
    let started = std::time::Instant::now();
    let report = check(src.as_bytes(), Profile::JsonRpc);
    let elapsed = started.elapsed();
    let dups: Vec<_> = report
        .violations()
        .filter(|v| v.rule.id == "json-duplicate-member")
        .collect();
    assert_eq!(dups.len(), 16_000);
    assert!(dups.windows(2).all(|w| w[0].span.start < w[1].span.start));
    let first = &dups[0];
    assert_eq!(&src[first.span.start..first.span.end], "\"k0\"");
    assert_eq!(
        &src[first.related[0].0.start..first.related[0].0.end],
        "\"k0\""
    );
    assert!(first.related[0].0.start < first.span.start);
    // Generous for a debug build on a loaded 2-core CI machine; the release figure is in benches/check.rs.
    assert!(elapsed.as_secs() < 10, "{elapsed:?}");
}
