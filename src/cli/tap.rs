//! `jrpc tap -- CMD ARGS…`: a transparent stdio proxy that checks live traffic.
//!
//! A client (an IDE, an agent, the MCP Inspector) starts `jrpc tap -- real-server` instead of
//! `real-server`. The bytes pass through unchanged and in order, both ways, each chunk as soon as
//! it is read and its complete messages recorded (so the transcript has each message before any
//! answer to it); beside them every newline-delimited message is checked by the engine under the
//! profile (for MCP, the version learned from the `initialize` exchange unless given), and the
//! findings go to standard error or `--log FILE` — never into the protocol streams.
//! `--transcript FILE` records the conversation as a `-->` / `<--` transcript that `jrpc check`
//! and the playground open. The server's exit status passes through (128 + N for a signal), and
//! so do signals: the server runs in a process group of its own, and what the tap receives
//! (TERM, INT, HUP, QUIT, USR1, USR2) is handed on to it once, so a client that stops the tap
//! stops the server the way it would have, and Ctrl+C in a terminal reaches it once, not twice.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;

use super::ProfileName;
use crate::json::{parse_document, Direction, Node};
use crate::openrpc::{OpenRpc, Pairing};
use crate::rpc::{self, McpVersion, Profile, Severity};

/// `jrpc tap` options.
#[derive(Debug, clap::Args)]
#[command(
    about = "Run a stdio JSON-RPC/MCP server behind a transparent proxy that checks every message live",
    after_help = "Example: jrpc tap --transcript session.txt -- npx some-mcp-server\n\
                  The client talks to jrpc tap exactly as to the server; findings go to standard error (or --log)."
)]
pub struct Args {
    /// The rules to check against [default: jsonrpc, becoming mcp of the version the initialize exchange names]
    #[arg(long, value_enum, value_name = "PROFILE")]
    profile: Option<ProfileName>,
    /// The MCP protocol version to check against (implies --profile mcp; else learned from initialize)
    #[arg(long, value_name = "VERSION")]
    mcp_version: Option<McpVersion>,
    /// Write the findings to this file instead of standard error
    #[arg(long, value_name = "FILE")]
    log: Option<String>,
    /// Record every message as a `-->` (client) / `<--` (server) transcript in this file
    #[arg(long, value_name = "FILE")]
    transcript: Option<String>,
    /// Check every message against this OpenRPC document too (methods, params, results, errors);
    /// a document that cannot be used is reported and the server is not started (exit 2)
    #[arg(long, value_name = "DOC")]
    openrpc: Option<String>,
    /// The server to run, and its arguments (after `--`)
    #[arg(required = true, last = true, value_name = "CMD")]
    command: Vec<String>,
}

/// Who sent a message.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Client,
    Server,
}

impl Side {
    const fn marker(self) -> &'static str {
        match self {
            Side::Client => "-->",
            Side::Server => "<--",
        }
    }
    const fn name(self) -> &'static str {
        match self {
            Side::Client => "client",
            Side::Server => "server",
        }
    }
}

/// What both directions share: the profile (learned as the handshake goes), the findings' and
/// the transcript's writers, and the message counters.
struct Watch {
    profile: Profile,
    /// The profile was given on the command line: the handshake does not change it.
    fixed: bool,
    findings: Box<dyn Write + Send>,
    transcript: Option<BufWriter<File>>,
    counts: [usize; 2],
    /// `--openrpc`: the API's document, and the requests waiting for their replies.
    api: Option<(OpenRpc, Pairing)>,
}

impl Watch {
    /// Checks one message `line` sent by `side`, records it, and writes its findings.
    fn message(&mut self, side: Side, line: &[u8]) {
        let text = String::from_utf8_lossy(line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.trim().is_empty() {
            return;
        }
        let n = {
            let slot = &mut self.counts[usize::from(side == Side::Server)];
            *slot += 1;
            *slot
        };
        if let Some(t) = &mut self.transcript {
            let _ = writeln!(t, "{} {text}", side.marker());
            let _ = t.flush();
        }
        self.learn(side, text.as_bytes());
        let mut report = rpc::check(text.as_bytes(), self.profile);
        if let Some((api, pairing)) = &mut self.api {
            let from = match side {
                Side::Client => Direction::Client,
                Side::Server => Direction::Server,
            };
            for d in &mut report.documents {
                d.direction = Some(from);
            }
            pairing.check(api, text.as_bytes(), &mut report);
        }
        for v in report.violations() {
            let severity = if v.severity == Severity::Error {
                "error"
            } else {
                "warning"
            };
            let at = if v.path.is_empty() { "/" } else { &v.path };
            let _ = writeln!(
                self.findings,
                "tap: {} message {n}: {severity}[{}]: {} (at {at}, byte {})",
                side.name(),
                v.rule.id,
                super::diagnostic::printable(&v.message),
                v.span.start
            );
        }
        let _ = self.findings.flush();
    }

    /// Learns the MCP version from the handshake: the client's `initialize` asks for one, the
    /// server's result says which one it speaks (that one counts); without a handshake
    /// (2026-07-28) each request's `_meta` names it.
    fn learn(&mut self, side: Side, message: &[u8]) {
        if self.fixed {
            return;
        }
        let Ok((parsed, _)) = parse_document(message, 0) else {
            return;
        };
        let root = &parsed.root;
        let version = match side {
            Side::Client if root.get("method").and_then(Node::as_str) == Some("initialize") => {
                root.get("params").and_then(|p| p.get("protocolVersion"))
            }
            // 2026-07-28 has no handshake: each request names its version in `_meta`.
            Side::Client => root
                .get("params")
                .and_then(|p| p.get("_meta"))
                .and_then(|m| m.get("io.modelcontextprotocol/protocolVersion")),
            Side::Server => root
                .get("result")
                .filter(|r| r.get("serverInfo").is_some())
                .and_then(|r| r.get("protocolVersion")),
        };
        if let Some(v) = version
            .and_then(Node::as_str)
            .and_then(|v| v.parse::<McpVersion>().ok())
        {
            self.profile = Profile::Mcp(v);
        }
    }
}

/// Copies `from` to `to` chunk by chunk (each written and flushed as soon as it is read), and
/// hands every complete line to the watch; what is left at the end (a message without its
/// newline) is checked too. Returns when `from` ends or `to` refuses bytes.
///
/// A chunk's complete lines are recorded *before* the chunk is passed on: the peer cannot answer
/// a message it has not received, so its answer is recorded after it (forwarded first, a fast
/// client's reply to the server's request could reach the transcript ahead of the request).
fn pump(mut from: impl Read, mut to: impl Write, side: Side, watch: &Mutex<Watch>) {
    let mut buf = vec![0u8; 64 * 1024];
    let mut pending: Vec<u8> = Vec::new();
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let chunk = &buf[..n];
        pending.extend_from_slice(chunk);
        while let Some(nl) = pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = pending.drain(..=nl).collect();
            if let Ok(mut w) = watch.lock() {
                w.message(side, &line);
            }
        }
        let delivered = to.write_all(chunk).and_then(|()| to.flush()).is_ok();
        if !delivered {
            break;
        }
    }
    if !pending.is_empty() {
        if let Ok(mut w) = watch.lock() {
            w.message(side, &pending);
        }
    }
}

pub fn main(args: Args) -> ExitCode {
    let (profile, fixed) = match (args.profile, args.mcp_version) {
        (Some(ProfileName::Jsonrpc), Some(_)) => {
            eprintln!("jrpc tap: --mcp-version needs --profile mcp");
            return ExitCode::from(2);
        }
        (Some(ProfileName::Jsonrpc), None) => (Profile::JsonRpc, true),
        (Some(ProfileName::Mcp), v) => (Profile::Mcp(v.unwrap_or_default()), v.is_some()),
        (None, Some(v)) => (Profile::Mcp(v), true),
        (None, None) => (Profile::JsonRpc, false),
    };
    let api = match &args.openrpc {
        Some(name) => match super::check::open_document("tap", name) {
            Some(doc) => Some(doc),
            None => return ExitCode::from(2),
        },
        None => None,
    };
    let open = |path: &str, what: &str| {
        File::create(path).map_err(|e| eprintln!("jrpc tap: cannot write the {what} {path}: {e}"))
    };
    let findings: Box<dyn Write + Send> = match &args.log {
        Some(path) => match open(path, "log") {
            Ok(f) => Box::new(BufWriter::new(f)),
            Err(()) => return ExitCode::from(2),
        },
        None => Box::new(io::stderr()),
    };
    let transcript = match &args.transcript {
        Some(path) => match open(path, "transcript") {
            Ok(f) => Some(BufWriter::new(f)),
            Err(()) => return ExitCode::from(2),
        },
        None => None,
    };
    let (program, rest) = args
        .command
        .split_first()
        .expect("clap requires the command");
    let mut command = Command::new(program);
    // Its own process group: a terminal's Ctrl+C reaches the tap, which hands it on once.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child: Child = match command
        .args(rest)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => {
            eprintln!("jrpc tap: cannot start {program}: {e}");
            return ExitCode::from(2);
        }
    };
    #[cfg(unix)]
    let forwarding = match forward_signals(child.id()) {
        Ok(handle) => handle,
        Err(e) => {
            let _ = child.kill();
            eprintln!("jrpc tap: cannot hand signals on to {program}: {e}");
            return ExitCode::from(2);
        }
    };
    let watch = Arc::new(Mutex::new(Watch {
        profile,
        fixed,
        findings,
        transcript,
        counts: [0, 0],
        api: api.map(|doc| (doc, Pairing::default())),
    }));
    let (Some(child_in), Some(child_out)) = (child.stdin.take(), child.stdout.take()) else {
        eprintln!("jrpc tap: {program} has no standard input or output");
        return ExitCode::from(2);
    };
    // Client → server: when the client closes, the server's input closes too (child_in drops).
    let w = Arc::clone(&watch);
    thread::spawn(move || pump(io::stdin().lock(), child_in, Side::Client, &w));
    // Server → client, until the server closes its output.
    let w = Arc::clone(&watch);
    let to_client = thread::spawn(move || pump(child_out, io::stdout().lock(), Side::Server, &w));
    let status = child.wait();
    // The server is gone: no signal may reach whatever process takes its pid next.
    #[cfg(unix)]
    forwarding.close();
    let _ = to_client.join();
    if let Ok(mut w) = watch.lock() {
        let _ = w.findings.flush();
        if let Some(t) = &mut w.transcript {
            let _ = t.flush();
        }
    }
    match status {
        Ok(status) => exit_code_of(status),
        Err(e) => {
            eprintln!("jrpc tap: waiting for {program}: {e}");
            ExitCode::from(2)
        }
    }
}

/// The signals the tap hands on to the server.
#[cfg(unix)]
const FORWARDED: [i32; 6] = [
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGHUP,
    signal_hook::consts::SIGQUIT,
    signal_hook::consts::SIGUSR1,
    signal_hook::consts::SIGUSR2,
];

/// Hands every signal of [`FORWARDED`] the tap receives on to process `pid` (the server), from a
/// thread of its own, until the returned handle is closed or dropped with the process.
#[cfg(unix)]
fn forward_signals(pid: u32) -> io::Result<signal_hook::iterator::Handle> {
    let mut signals = signal_hook::iterator::Signals::new(FORWARDED)?;
    let handle = signals.handle();
    let pid = libc::pid_t::try_from(pid).map_err(io::Error::other)?;
    thread::spawn(move || {
        for signal in signals.forever() {
            // SAFETY: kill(2) with a pid and a signal number has no memory effects.
            unsafe {
                libc::kill(pid, signal);
            }
        }
    });
    Ok(handle)
}

/// The server's exit status as ours: its code, or 128 + the signal that ended it.
fn exit_code_of(status: std::process::ExitStatus) -> ExitCode {
    if let Some(code) = status.code() {
        return ExitCode::from(u8::try_from(code & 0xFF).unwrap_or(1));
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return ExitCode::from(u8::try_from(128 + (signal & 0x7F)).unwrap_or(1));
        }
    }
    ExitCode::from(1)
}
