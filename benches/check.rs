//! Throughput of `rpc::check` on a generated ~1 MB batch of mixed messages, next to
//! `serde_json::from_str::<Value>` on the same bytes, and their ratio (target: ≥ 0.5).
//!
//! Run: `cargo bench --bench check`. Prints one "ratio" line measured in this run, then criterion's
//! own figures for both.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use jsonrpc_playground::rpc::{check, Profile};

/// A batch of about `target` bytes: requests by position and by name, notifications, results,
/// errors with data, string and integer ids, escapes and non-ASCII text.
fn mixed_batch(target: usize) -> String {
    let mut out = String::from("[\n");
    let mut i = 0u64;
    while out.len() < target {
        if i > 0 {
            out.push_str(",\n");
        }
        let m = match i % 6 {
            0 => format!(
                r#"{{"jsonrpc": "2.0", "method": "subtract", "params": [{}, {}], "id": {i}}}"#,
                i * 7,
                i % 13
            ),
            1 => format!(
                r#"{{"jsonrpc": "2.0", "method": "tools/call", "params": {{"name": "echo", "arguments": {{"text": "héllo \"{i}\" \u00e9\n", "n": {}.5}}}}, "id": "req-{i}"}}"#,
                i % 100
            ),
            2 => format!(
                r#"{{"jsonrpc": "2.0", "method": "notifications/progress", "params": {{"progressToken": {i}, "progress": 50, "total": 100}}}}"#
            ),
            3 => format!(
                r#"{{"jsonrpc": "2.0", "result": {{"content": [{{"type": "text", "text": "result number {i}"}}], "isError": false}}, "id": {i}}}"#
            ),
            4 => format!(
                r#"{{"jsonrpc": "2.0", "error": {{"code": -32602, "message": "Invalid params", "data": {{"path": "/params/{i}", "expected": ["a", "b", null, true]}}}}, "id": "e{i}"}}"#
            ),
            _ => format!(
                r#"{{"jsonrpc": "2.0", "method": "sum", "params": [1, 2.5, -3e2, {i}], "id": {i}}}"#
            ),
        };
        out.push_str(&m);
        i += 1;
    }
    out.push_str("\n]\n");
    out
}

/// Median wall time of `runs` calls.
fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn main() {
    let input = mixed_batch(1 << 20);
    let bytes = input.len() as f64;
    let report = check(input.as_bytes(), Profile::JsonRpc);
    let items = report.documents[0].items.len();
    // Every element is a valid message; only the batch as a whole mixes directions.
    assert!(report
        .violations()
        .all(|v| v.rule.id == "batch-mixes-requests-and-responses"));

    // Warm up, then interleave the two so machine noise hits both alike.
    for _ in 0..3 {
        black_box(check(black_box(input.as_bytes()), Profile::JsonRpc));
        black_box(serde_json::from_str::<serde_json::Value>(black_box(&input)).unwrap());
    }
    let ours = median(31, || {
        black_box(check(black_box(input.as_bytes()), Profile::JsonRpc));
    });
    let serde = median(31, || {
        black_box(serde_json::from_str::<serde_json::Value>(black_box(&input)).unwrap());
    });
    let mbps = |d: Duration| bytes / d.as_secs_f64() / 1e6;
    println!("input: {:.0} KB batch of {items} messages", bytes / 1024.0);
    println!(
        "rpc::check (parse + classify + rules): {:>8.2} ms  {:>7.1} MB/s",
        ours.as_secs_f64() * 1e3,
        mbps(ours)
    );
    println!(
        "serde_json::from_str::<Value>:         {:>8.2} ms  {:>7.1} MB/s",
        serde.as_secs_f64() * 1e3,
        mbps(serde)
    );
    println!(
        "ratio (check throughput / serde_json throughput): {:.2} (target >= 0.5)",
        serde.as_secs_f64() / ours.as_secs_f64()
    );

    // The `--format json` report of the same input: built as serde_json Values then printed (the old
    // way, `Report::to_json`) vs written straight out (`Report::write_json`, what `jrpc check` does).
    let lines = jsonrpc_playground::json::LineIndex::new(input.as_bytes());
    let mut buf = Vec::with_capacity(1 << 24);
    let built = median(11, || {
        buf.clear();
        serde_json::to_writer(&mut buf, &report.to_json(input.as_bytes(), &lines)).unwrap();
        black_box(&buf);
    });
    let reference = buf.clone();
    let streamed = median(11, || {
        buf.clear();
        report
            .write_json(input.as_bytes(), &lines, &mut buf)
            .unwrap();
        black_box(&buf);
    });
    assert_eq!(
        buf, reference,
        "the streamed report differs from the serde_json one"
    );
    println!(
        "JSON report ({} KB): Value tree + print {:.2} ms, streamed {:.2} ms: {:.1}x faster",
        buf.len() / 1024,
        built.as_secs_f64() * 1e3,
        streamed.as_secs_f64() * 1e3,
        built.as_secs_f64() / streamed.as_secs_f64()
    );

    let mut c = Criterion::default().configure_from_args().sample_size(30);
    let mut group = c.benchmark_group("1MB mixed batch");
    group.throughput(Throughput::Bytes(input.len() as u64));
    group.bench_function("rpc::check", |b| {
        b.iter(|| check(black_box(input.as_bytes()), Profile::JsonRpc))
    });
    group.bench_function("serde_json::Value", |b| {
        b.iter(|| serde_json::from_str::<serde_json::Value>(black_box(&input)).unwrap())
    });
    group.finish();
    c.final_summary();
}
