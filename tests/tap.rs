//! `jrpc tap -- CMD`: bytes pass through unchanged both ways, every message is checked live (the
//! MCP version learned from the handshake), findings never enter the protocol streams, the
//! transcript holds every message, and the server's exit status and the signals the tap receives
//! pass through.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::process::{Command, Stdio};

mod common;

const JRPC: &str = env!("CARGO_BIN_EXE_jrpc");

use common::jrpc as run;

/// `jrpc tap --transcript TRANSCRIPT -- cat`, every standard stream piped.
fn tap_cat(transcript: &std::path::Path) -> std::process::Child {
    Command::new(JRPC)
        .args([
            "tap",
            "--transcript",
            transcript.to_str().unwrap(),
            "--",
            "cat",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("jrpc runs")
}

const SESSION: &[u8] = b"{\"jsonrpc\":\"2.0\",\"method\":\"tools/list\",\"params\":[],\"id\":0}\n\
{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n\
{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n\
{\"jsonrpc\":\"1.0\",\"method\":\"tools/list\",\"id\":2}\n\
{\"jsonrpc\":\"2.0\",\"method\":\"tools/list\",\"params\":[],\"id\":3}\n\
{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"name\":\"add\",\"arguments\":{\"a\":2,\"b\":3}},\"id\":4}";

#[test]
fn bytes_pass_through_unchanged_and_findings_stay_out_of_the_streams() {
    let dir = std::env::temp_dir().join(format!("jrpc-tap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let transcript = dir.join("session.txt");
    let direct = run(&["serve"], SESSION);
    let tapped = run(
        &[
            "tap",
            "--transcript",
            transcript.to_str().unwrap(),
            "--",
            JRPC,
            "serve",
        ],
        SESSION,
    );
    assert_eq!(tapped.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&tapped.stdout),
        String::from_utf8_lossy(&direct.stdout),
        "the client sees exactly what the server wrote"
    );
    let findings = String::from_utf8_lossy(&tapped.stderr);
    assert!(
        findings.contains("tap: client message 4: error[jsonrpc-not-2-0]"),
        "{findings}"
    );
    // The MCP version comes from the handshake: array params are an MCP error only after it
    // (message 1 is checked as plain JSON-RPC, message 5 under MCP 2025-06-18).
    assert!(
        findings.contains("tap: client message 5: error[mcp-params-not-object]"),
        "{findings}"
    );
    assert!(!findings.contains("client message 1:"), "{findings}");
    // The last message had no newline: it still went through, was answered and was checked.
    assert!(String::from_utf8_lossy(&tapped.stdout).contains(r#""text":"5""#));
    // The transcript holds every message both ways, and reads as one.
    let recorded = std::fs::read_to_string(&transcript).unwrap();
    let clients = recorded.lines().filter(|l| l.starts_with("--> ")).count();
    let servers = recorded.lines().filter(|l| l.starts_with("<-- ")).count();
    assert_eq!((clients, servers), (6, 5), "{recorded}");
    let checked = common::output_of(Command::new(JRPC).args([
        "check",
        "--format",
        "json",
        transcript.to_str().unwrap(),
    ]));
    assert_eq!(
        checked.status.code(),
        Some(1),
        "the transcript holds the broken message"
    );
    assert!(String::from_utf8_lossy(&checked.stdout).contains("jsonrpc-not-2-0"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn findings_go_to_the_log_file_when_asked() {
    let dir = std::env::temp_dir().join(format!("jrpc-tap-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("findings.log");
    let out = run(
        &["tap", "--log", log.to_str().unwrap(), "--", JRPC, "serve"],
        b"{\"jsonrpc\":\"1.0\",\"method\":\"x\",\"id\":1}\n",
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("tap:"));
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.contains("error[jsonrpc-not-2-0]"), "{logged}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_servers_exit_status_passes_through_and_a_missing_server_is_exit_2() {
    let out = run(
        &["tap", "--", "sh", "-c", "cat > /dev/null; exit 3"],
        b"{}\n",
    );
    assert_eq!(out.status.code(), Some(3));
    let out = run(&["tap", "--", "/nonexistent/server"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot start /nonexistent/server"));
    let out = run(&["tap"], b"");
    assert_eq!(out.status.code(), Some(2), "no command is a usage error");
}

/// Starts `jrpc tap -- sh -c SCRIPT`, waits for the script's first line (its traps are set), sends
/// `signal` to the tap (not to the server), and returns the tap's exit status. The tap starts with
/// `signal` at its default disposition: one ignored by whoever ran the tests (SIGINT in a
/// background job of a non-interactive shell) would be ignored by the server too, which cannot trap
/// it. Every wait is bounded.
#[cfg(unix)]
fn tap_signalled(script: &str, signal: i32) -> std::process::ExitStatus {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(JRPC);
    command
        .args(["tap", "--", "sh", "-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    // SAFETY: signal(2) is async-signal-safe, the only call between fork and exec.
    unsafe {
        command.pre_exec(move || {
            if libc::signal(signal, libc::SIG_DFL) == libc::SIG_ERR {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = command.spawn().expect("jrpc runs");
    let lines = common::lines_of(child.stdout.take().unwrap());
    let first = lines.recv_timeout(common::WAIT).unwrap_or_else(|e| {
        let _ = child.kill();
        panic!("the server did not say it was ready ({e})")
    });
    assert_eq!(first.trim(), "ready");
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: kill(2) on our own child.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    common::wait_within(
        &mut child,
        common::WAIT,
        &format!("jrpc tap after signal {signal}"),
    )
}

#[cfg(unix)]
#[test]
fn signals_to_the_tap_reach_the_server_and_its_answer_is_the_exit_status() {
    // The server traps TERM and INT and says how it ended; the tap's status is the server's.
    let trapping = "trap 'exit 42' TERM; trap 'exit 43' INT; trap 'exit 44' HUP; echo ready; \
                    while :; do sleep 0.05; done";
    assert_eq!(tap_signalled(trapping, libc::SIGTERM).code(), Some(42));
    assert_eq!(tap_signalled(trapping, libc::SIGINT).code(), Some(43));
    assert_eq!(tap_signalled(trapping, libc::SIGHUP).code(), Some(44));
    // A server that does not trap it ends by the signal: 128 + 15.
    assert_eq!(
        tap_signalled("echo ready; exec sleep 30", libc::SIGTERM).code(),
        Some(143)
    );
}

#[test]
fn without_a_handshake_the_version_comes_from_each_requests_meta() {
    let input = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}\n\
{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{}}\n";
    let out = run(&["tap", "--", JRPC, "serve"], input);
    let findings = String::from_utf8_lossy(&out.stderr);
    // ping is not a method of 2026-07-28: checked under the version the first request named.
    assert!(
        findings.contains(
            "client message 2: error[mcp-method-removed]: ping is not a method of MCP 2026-07-28"
        ),
        "{findings}"
    );
}

#[test]
fn a_message_is_in_the_transcript_before_the_peer_receives_it() {
    // The server asks the client something, then waits for the answer and exits. The client
    // answers as soon as it reads the request: the transcript must hold the request first.
    let dir = std::env::temp_dir().join(format!("jrpc-tap-order-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let transcript = dir.join("order.txt");
    let server = r#"printf '%s\n' '{"jsonrpc":"2.0","method":"roots/list","id":0}'; read answer"#;
    let mut child = Command::new(JRPC)
        .args([
            "tap",
            "--transcript",
            transcript.to_str().unwrap(),
            "--",
            "sh",
            "-c",
            server,
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("jrpc runs");
    let from_tap = common::lines_of(child.stdout.take().unwrap());
    let request = common::next_line(&from_tap, "jrpc tap");
    assert!(request.contains("roots/list"), "{request}");
    let recorded = std::fs::read_to_string(&transcript).unwrap();
    assert!(
        recorded.contains(r#"<-- {"jsonrpc":"2.0","method":"roots/list","id":0}"#),
        "the request is recorded before the client has it: {recorded:?}"
    );
    let mut to_tap = child.stdin.take().unwrap();
    to_tap
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"roots\":[]}}\n")
        .unwrap();
    drop(to_tap);
    assert!(common::wait_within(&mut child, common::WAIT, "jrpc tap").success());
    let lines: Vec<String> = std::fs::read_to_string(&transcript)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("<-- ") && lines[1].starts_with("--> "),
        "{lines:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(target_os = "linux")]
#[test]
fn a_line_past_the_checked_bound_passes_in_linear_time_and_bounded_memory() {
    use std::io::Read;
    use std::time::{Duration, Instant};
    // 48 MiB in one line: searched whole on every 64 KiB read, it took minutes and twice its size.
    let dir = std::env::temp_dir().join(format!("jrpc-tap-long-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let transcript = dir.join("long.txt");
    let mut long =
        br#"{"jsonrpc":"2.0","method":"notifications/message","params":{"data":""#.to_vec();
    long.resize(48 * 1024 * 1024, b'a');
    long.extend_from_slice(b"\"}}\n");
    let small = b"{\"jsonrpc\":\"1.0\",\"method\":\"x\",\"id\":1}\n";
    let started = Instant::now();
    let mut child = tap_cat(&transcript);
    let mut to_tap = child.stdin.take().unwrap();
    let sent = long.clone();
    let writer = std::thread::spawn(move || {
        to_tap.write_all(&sent).unwrap();
        to_tap.write_all(small).unwrap();
        to_tap
    });
    let mut from_tap = child.stdout.take().unwrap();
    let expected = long.len() + small.len();
    let (read, echoes) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut echoed = vec![0u8; expected];
        let _ = read.send(from_tap.read_exact(&mut echoed).map(|()| echoed));
    });
    let Ok(Ok(echoed)) = echoes.recv_timeout(common::RUN) else {
        let _ = child.kill();
        panic!("the long line did not come back within {:?}", common::RUN);
    };
    let elapsed = started.elapsed();
    let peak = common::peak_memory(child.id());
    drop(writer.join().unwrap());
    let out = common::finish(child, "jrpc tap -- cat");
    let findings = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success());
    assert!(
        echoed[..long.len()] == long[..],
        "the line passes unchanged"
    );
    assert_eq!(&echoed[long.len()..], small);
    assert!(elapsed < Duration::from_secs(15), "took {elapsed:?}");
    assert!(peak < 64 * 1024 * 1024, "peak {} MiB", peak >> 20);
    let size = long.len();
    assert!(
        findings.contains(&format!("tap: client message 1: not checked: {size} bytes")),
        "{findings}"
    );
    // The message after it is recorded and checked as usual.
    assert!(
        findings.contains("tap: client message 2: error[jsonrpc-not-2-0]"),
        "{findings}"
    );
    let recorded = std::fs::read_to_string(&transcript).unwrap();
    assert!(
        recorded.contains(&format!("--> // jrpc tap: message 1 has {size} bytes")),
        "{}",
        &recorded[..recorded.len().min(2000)]
    );
    assert!(recorded.contains(r#"--> {"jsonrpc":"1.0","method":"x","id":1}"#));
    assert!(recorded.len() < 4096, "the long line is not recorded");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn findings_never_hold_the_traffic_up_when_standard_error_is_not_read() {
    use std::io::{BufRead, BufReader};
    use std::time::Duration;
    // Each echo is two findings (the client's and the server's jsonrpc 1.0): 2,000 of them fill
    // the stderr pipe many times over. Written before the bytes were passed on, they deadlocked.
    let dir = std::env::temp_dir().join(format!("jrpc-tap-stderr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let transcript = dir.join("echoes.txt");
    let mut child = tap_cat(&transcript);
    let mut to_tap = child.stdin.take().unwrap();
    let mut from_tap = BufReader::new(child.stdout.take().unwrap());
    let (done, echoes) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        for id in 0..2000 {
            writeln!(to_tap, r#"{{"jsonrpc":"1.0","method":"echo","id":{id}}}"#).unwrap();
            line.clear();
            from_tap.read_line(&mut line).unwrap();
        }
        let _ = done.send(to_tap);
    });
    let Ok(to_tap) = echoes.recv_timeout(Duration::from_secs(30)) else {
        let _ = child.kill();
        panic!("the echoes stalled behind the unread findings");
    };
    // Now read it all, as a host does at the end: the last findings and what was dropped.
    drop(to_tap);
    let out = common::finish(child, "jrpc tap -- cat");
    let findings = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success());
    assert!(
        findings.contains("findings were dropped"),
        "{}",
        &findings[findings.len().saturating_sub(500)..]
    );
    let recorded = std::fs::read_to_string(&transcript).unwrap();
    assert_eq!(
        recorded.lines().filter(|l| l.starts_with("--> {")).count(),
        2000
    );
    assert!(
        recorded.contains("--> // jrpc tap: "),
        "the transcript says so too"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_tap_ends_soon_after_its_server_however_much_is_left_to_check() {
    use std::io::{BufRead, BufReader, Read};
    use std::time::{Duration, Instant};
    // 20 replies of 300 tools, each with an inputSchema of 60 properties (1.5 MB a reply): each
    // reply's schemas are compiled and kept, seconds of work in a debug build. The server
    // writes them and exits at once; the checker was joined with no limit.
    let dir = std::env::temp_dir().join(format!("jrpc-tap-late-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let properties: serde_json::Map<String, serde_json::Value> = (0..60)
        .map(|k| {
            (
                format!("p{k}"),
                serde_json::json!({"type": "string", "pattern": "^[a-z]{1,8}$", "description": "x".repeat(20)}),
            )
        })
        .collect();
    let tools: Vec<serde_json::Value> = (0..300)
        .map(|i| serde_json::json!({"name": format!("t{i}"), "inputSchema": {"type": "object", "properties": properties}}))
        .collect();
    let reply = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}});
    let replies = dir.join("replies.jsonl");
    std::fs::write(&replies, format!("{reply}\n").repeat(20)).unwrap();
    let mut child = Command::new(JRPC)
        .args(["tap", "--profile", "mcp", "--", "sh", "-c"])
        .arg(format!("read l; cat '{}'; exit 3", replies.display()))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("jrpc runs");
    let mut to_tap = child.stdin.take().unwrap();
    writeln!(
        to_tap,
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#
    )
    .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let findings = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    // Every reply passed through: the server has written all it had, and exits.
    let mut from_tap = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    for _ in 0..20 {
        line.clear();
        from_tap
            .read_line(&mut line)
            .expect("a reply passes through");
        assert!(line.ends_with('\n'), "the replies were cut short");
    }
    let passed = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if passed.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("the tap outlived its server by 30 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let lingered = passed.elapsed();
    assert_eq!(status.code(), Some(3), "the server's status passes through");
    // The checker's 2 s, then up to 2 s for the findings to be written.
    assert!(
        lingered < Duration::from_secs(5),
        "the tap outlived its server by {lingered:?}"
    );
    let findings = findings.join().unwrap();
    if lingered > Duration::from_secs(2) {
        assert!(
            findings.contains("not checked: time budget spent"),
            "{findings}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fail_on_makes_findings_the_exit_status_when_the_server_exits_0() {
    // A warning (id null) and no error: the server's status unless --fail-on says otherwise.
    let warning = br#"{"jsonrpc": "2.0", "method": "ping", "id": null}
"#;
    let tap = |extra: &[&str], input: &[u8]| {
        let mut args = vec!["tap"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--", "cat"]);
        run(&args, input).status.code()
    };
    assert_eq!(tap(&[], warning), Some(0));
    assert_eq!(tap(&["--fail-on", "error"], warning), Some(0));
    assert_eq!(tap(&["--fail-on", "warning"], warning), Some(1));
    let error = br#"{"jsonrpc": "1.0", "method": "ping", "id": 1}
"#;
    assert_eq!(tap(&[], error), Some(0));
    assert_eq!(tap(&["--fail-on", "error"], error), Some(1));
}
