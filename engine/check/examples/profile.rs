//! Where the check's time goes, natively (not a test): runs `rpc::check` on each file given,
//! RUNS times (default 31), and prints the median next to `serde_json::from_slice::<Value>` on
//! the same bytes. Under `valgrind --tool=callgrind` (RUNS=1 CHECK_ONLY=1: the check alone) it
//! names the hot functions.
//!   node -e "import('./scripts/bench-support.mjs').then(m => …)"   # writes the four mixes
//!   cargo run --release -p jsonrpc-check --example profile -- FILE…
use std::hint::black_box;
use std::time::{Duration, Instant};

use jsonrpc_check::rpc::{check, check_text, Profile};

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
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(31);
    println!(
        "{:<28} {:>9} {:>10} {:>10} {:>7}",
        "file", "bytes", "check ms", "serde ms", "ratio"
    );
    for path in std::env::args().skip(1) {
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("profile: {path}: {e}");
                std::process::exit(2);
            }
        };
        // UTF-8 text is checked as the page checks its editor's text (not validated again).
        let text = std::str::from_utf8(&bytes).ok();
        let ours = median(runs, || match text {
            Some(text) => drop(black_box(check_text(black_box(text), Profile::JsonRpc))),
            None => drop(black_box(check(black_box(&bytes), Profile::JsonRpc))),
        });
        if std::env::var_os("CHECK_ONLY").is_some() {
            continue;
        }
        let serde = median(runs, || {
            black_box(serde_json::from_slice::<serde_json::Value>(black_box(&bytes)).ok());
        });
        let name = std::path::Path::new(&path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or(path.clone());
        println!(
            "{:<28} {:>9} {:>10.2} {:>10.2} {:>7.2}",
            name,
            bytes.len(),
            ours.as_secs_f64() * 1e3,
            serde.as_secs_f64() * 1e3,
            ours.as_secs_f64() / serde.as_secs_f64()
        );
    }
}
