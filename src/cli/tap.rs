//! `jrpc tap -- CMD ARGS…`: a transparent stdio proxy that checks live traffic.
//!
//! A client (an IDE, an agent, the MCP Inspector) starts `jrpc tap -- real-server` instead of
//! `real-server`. The bytes pass through unchanged and in order, both ways, each chunk as soon as
//! it is read and its complete messages recorded (so the transcript has each message before any
//! answer to it); beside them every newline-delimited message is checked by the engine under the
//! profile (for MCP, the version learned from the `initialize` exchange unless given), and the
//! findings go to standard error or `--log FILE` — never into the protocol streams.
//! With `--openrpc DOC` the checker also checks each message against that OpenRPC document
//! (methods, params, results, errors; each reply against its request's method).
//! `--transcript FILE` records the conversation as a `-->` / `<--` transcript that `jrpc check`
//! and the playground open. The server's exit status passes through (128 + N for a signal), and
//! so do signals: the server runs in a process group of its own, and what the tap receives
//! (TERM, INT, HUP, QUIT, USR1, USR2) is handed on to it once, so a client that stops the tap
//! stops the server the way it would have, and Ctrl+C in a terminal reaches it once, not twice.

//!
//! The traffic never waits for the checking. Each direction's thread only looks for newlines in
//! the bytes it has just read, records the complete messages (so the transcript has each before
//! the peer can answer it), hands them to one checker thread and passes the bytes on; the
//! checker's findings go to one writer thread. Both hand-overs are bounded queues that drop rather
//! than wait, and the end says what they dropped: a client that never reads the tap's standard
//! error is not held up by it. What is kept is bounded too: a message longer than [`MAX_CHECKED`]
//! is passed on untouched as it comes but neither kept, recorded nor checked (its size is noted),
//! and at most [`MAX_WAITING_BYTES`] of messages wait for the checker. Once the server has ended,
//! the checker has [`CHECK_GRACE`] to finish: what it has not checked by then is counted and said
//! ("not checked: time budget spent"), and the tap exits with the server's status.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use super::{FailOn, ProfileName};
use crate::json::{parse_document, Direction, Node};
use crate::openrpc::{OpenRpc, Pairing};
use crate::rpc::mcp::Rounds;
use crate::rpc::{self, McpVersion, Profile, Severity};
use crate::tool_schemas::ToolSchemas;

/// The longest message (line) the tap keeps to record and check: a longer one is passed on
/// untouched as it arrives, and only its size is noted, in the transcript and the findings.
pub const MAX_CHECKED: usize = 16 * 1024 * 1024;
/// Bytes of recorded messages waiting for the checker at most; a message past it is recorded
/// and passed on but not checked (counted, and said at the end).
const MAX_WAITING_BYTES: usize = 32 * 1024 * 1024;
/// Messages waiting for the checker at most (whatever their size).
const MAX_WAITING: usize = 4096;
/// Findings waiting to be written at most; past it (their output is not being read) a finding
/// is dropped (counted, and said at the end).
const MAX_QUEUED_FINDINGS: usize = 1024;
/// How long the checker may go on once the server has ended (and its output is read to the
/// end): the messages it has not checked by then are counted, said, and left unchecked.
pub const CHECK_GRACE: Duration = Duration::from_secs(2);
/// How long the tap, once the server has ended, waits for its last findings to be written.
const FINDINGS_GRACE: Duration = Duration::from_secs(2);
/// Bytes read at once.
const CHUNK: usize = 64 * 1024;

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
    /// Exit 1 when a finding of this severity or above was made (and the server itself exited 0)
    /// [default: the server's exit status, whatever was found]
    #[arg(
        long,
        value_enum,
        value_name = "SEVERITY",
        visible_alias = "fail-severity"
    )]
    fail_on: Option<FailOn>,
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

/// A message as it is being read: its bytes while it is short enough to keep, and its size.
#[derive(Default)]
struct Line {
    /// The bytes so far; emptied (and freed) once the line grows past [`MAX_CHECKED`].
    kept: Vec<u8>,
    /// How many bytes the line has, newline included.
    size: usize,
}

impl Line {
    fn push(&mut self, part: &[u8]) {
        self.size = self.size.saturating_add(part.len());
        if self.size <= MAX_CHECKED {
            self.kept.extend_from_slice(part);
        } else if self.kept.capacity() > 0 {
            self.kept = Vec::new();
        }
    }

    fn too_large(&self) -> bool {
        self.size > MAX_CHECKED
    }
}

/// What a pump hands to the checker.
enum Job {
    /// A message to check: `text` without its line ending.
    Check { side: Side, n: usize, text: Vec<u8> },
    /// A message longer than [`MAX_CHECKED`], passed on unchecked.
    TooLarge { side: Side, n: usize, size: usize },
}

/// What was dropped rather than hold the traffic up, said at the end.
#[derive(Default)]
struct Dropped {
    /// Messages recorded but not checked: the checker was behind.
    unchecked: AtomicUsize,
    /// Findings not written: their output was not being read.
    findings: AtomicUsize,
    /// Messages handed to the checker and not checked yet.
    pending: AtomicUsize,
    /// Set when the checker's time ran out ([`CHECK_GRACE`]): it checks nothing more.
    out_of_time: std::sync::atomic::AtomicBool,
    /// Messages left unchecked when the checker's time ran out.
    late: AtomicUsize,
}

/// The findings made, by severity (for `--fail-on`).
#[derive(Default)]
struct Found {
    errors: AtomicUsize,
    warnings: AtomicUsize,
}

impl Found {
    /// Whether a finding at `fail_on`'s severity or above was made.
    fn fails(&self, fail_on: FailOn) -> bool {
        self.errors.load(Ordering::Acquire) > 0
            || (fail_on.fails(Severity::Warning) && self.warnings.load(Ordering::Acquire) > 0)
    }
}

/// What both directions share: the transcript, the message counters, and the way to the checker.
struct Recorder {
    transcript: Option<BufWriter<File>>,
    counts: [usize; 2],
    /// `None` once the tap is ending.
    checker: Option<SyncSender<Job>>,
    /// Bytes of messages handed to the checker and not yet checked.
    waiting_bytes: Arc<AtomicUsize>,
    dropped: Arc<Dropped>,
}

impl Recorder {
    /// Records one complete message `line` sent by `side` and hands it to the checker.
    fn message(&mut self, side: Side, mut line: Line) {
        if line.too_large() {
            let n = self.count(side);
            if let Some(t) = &mut self.transcript {
                let _ = writeln!(
                    t,
                    "{} // jrpc tap: message {n} has {} bytes, more than the {MAX_CHECKED} the tap records and checks: passed on untouched, not recorded",
                    side.marker(),
                    line.size
                );
            }
            self.hand_over(Job::TooLarge {
                side,
                n,
                size: line.size,
            });
            return;
        }
        while matches!(line.kept.last(), Some(b'\r' | b'\n')) {
            line.kept.pop();
        }
        if line.kept.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let n = self.count(side);
        if let Some(t) = &mut self.transcript {
            let _ = writeln!(
                t,
                "{} {}",
                side.marker(),
                String::from_utf8_lossy(&line.kept)
            );
        }
        if self.checker.is_none() {
            return;
        }
        let text = line.kept;
        let size = text.len();
        let waiting = self.waiting_bytes.load(Ordering::Acquire);
        if waiting.saturating_add(size) > MAX_WAITING_BYTES {
            self.dropped.unchecked.fetch_add(1, Ordering::Relaxed);
            return;
        }
        self.waiting_bytes.fetch_add(size, Ordering::AcqRel);
        if !self.hand_over(Job::Check { side, n, text }) {
            self.waiting_bytes.fetch_sub(size, Ordering::AcqRel);
        }
    }

    /// The number of `side`'s next message.
    fn count(&mut self, side: Side) -> usize {
        let slot = &mut self.counts[usize::from(side == Side::Server)];
        *slot += 1;
        *slot
    }

    /// Gives `job` to the checker unless its queue is full (then counts it unchecked).
    fn hand_over(&mut self, job: Job) -> bool {
        let Some(checker) = &self.checker else {
            return false;
        };
        let checked = matches!(job, Job::Check { .. });
        if checker.try_send(job).is_ok() {
            if checked {
                self.dropped.pending.fetch_add(1, Ordering::AcqRel);
            }
            return true;
        }
        self.dropped.unchecked.fetch_add(1, Ordering::Relaxed);
        false
    }

    fn flush(&mut self) {
        if let Some(t) = &mut self.transcript {
            let _ = t.flush();
        }
    }
}

/// The checker's state: the profile, learned as the handshake goes, and the OpenRPC document.
struct Checker {
    profile: Profile,
    /// The profile was given on the command line: the handshake does not change it.
    fixed: bool,
    /// `--openrpc`: the API's document, and the requests waiting for their replies.
    api: Option<(OpenRpc, Pairing)>,
    /// Under MCP 2026-07-28: the input-required rounds awaiting their retries.
    rounds: Rounds,
    /// Under the mcp profile: the tools' declared schemas, and the calls waiting for results.
    tools: ToolSchemas,
    /// The findings made so far, by severity.
    found: Arc<Found>,
}

impl Checker {
    /// The findings of message `n` of `side`, as lines.
    fn check(&mut self, side: Side, n: usize, message: &[u8]) -> Vec<String> {
        let text = String::from_utf8_lossy(message);
        self.learn(side, text.as_bytes());
        let mut report = rpc::check(text.as_bytes(), self.profile);
        let from = match side {
            Side::Client => Direction::Client,
            Side::Server => Direction::Server,
        };
        if self.profile == Profile::Mcp(McpVersion::V2026_07_28) {
            self.round_trips(from, text.as_bytes(), &mut report);
        }
        for d in &mut report.documents {
            d.direction = Some(from);
        }
        if matches!(self.profile, Profile::Mcp(_)) {
            self.tools.check(text.as_bytes(), &mut report);
        }
        if let Some((api, pairing)) = &mut self.api {
            pairing.check(api, text.as_bytes(), &mut report);
        }
        report
            .violations()
            .map(|v| {
                let severity = if v.severity == Severity::Error {
                    self.found.errors.fetch_add(1, Ordering::AcqRel);
                    "error"
                } else {
                    self.found.warnings.fetch_add(1, Ordering::AcqRel);
                    "warning"
                };
                let at = if v.path.is_empty() { "/" } else { &v.path };
                format!(
                    "tap: {} message {n}: {severity}[{}]: {} (at {}, byte {})",
                    side.name(),
                    v.rule.id,
                    super::diagnostic::printable(&v.message),
                    super::diagnostic::printable(at),
                    v.span.start
                )
            })
            .collect()
    }

    /// Checks `message` against the input-required rounds so far (a retry against what its
    /// round asked) and adds the findings to its report.
    fn round_trips(&mut self, from: Direction, message: &[u8], report: &mut rpc::Report) {
        let Ok((parsed, _)) = parse_document(message, 0) else {
            return;
        };
        let Some(document) = report.documents.first_mut() else {
            return;
        };
        if !parsed.root.is_object() {
            return;
        }
        for f in self.rounds.observe(from, &parsed.root, "") {
            document
                .violations
                .push(rpc::Violation::new(f.rule, f.path, f.span, f.message));
        }
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

    /// Checks every job in order until the pumps are done, handing the findings to the writer
    /// (dropping, and counting, those its full queue refuses).
    /// Once the tap has taken the way to the writer away (the checker's time ran out), the rest
    /// is left unchecked.
    fn run(
        mut self,
        jobs: Receiver<Job>,
        findings: &Mutex<Option<SyncSender<String>>>,
        waiting_bytes: &AtomicUsize,
        dropped: &Dropped,
    ) {
        let say = |line: String| {
            let sent = match findings.lock() {
                Ok(writer) => writer.as_ref().map(|w| w.try_send(line).is_ok()),
                Err(_) => Some(false),
            };
            // `None`: the time ran out, and this message is counted among those not checked.
            if sent == Some(false) {
                dropped.findings.fetch_add(1, Ordering::Relaxed);
            }
        };
        for job in jobs {
            match job {
                Job::Check { side, n, text } => {
                    let lines = if dropped.out_of_time.load(Ordering::Acquire) {
                        Vec::new()
                    } else {
                        self.check(side, n, &text)
                    };
                    let size = text.len();
                    drop(text);
                    waiting_bytes.fetch_sub(size, Ordering::AcqRel);
                    lines.into_iter().for_each(say);
                    dropped.pending.fetch_sub(1, Ordering::AcqRel);
                }
                Job::TooLarge { side, n, size } => say(format!(
                    "tap: {} message {n}: not checked: {size} bytes, more than the {MAX_CHECKED} the tap checks (passed on untouched)",
                    side.name()
                )),
            }
        }
    }
}

/// Writes the findings as they come, then what was dropped; flushes whenever none waits.
fn write_findings(lines: Receiver<String>, mut out: Box<dyn Write + Send>, dropped: &Dropped) {
    let mut next = lines.recv().ok();
    while let Some(line) = next {
        let _ = writeln!(out, "{line}");
        next = match lines.try_recv() {
            Ok(line) => Some(line),
            Err(TryRecvError::Empty) => {
                let _ = out.flush();
                lines.recv().ok()
            }
            Err(TryRecvError::Disconnected) => None,
        };
    }
    for note in dropped_notes(dropped) {
        let _ = writeln!(out, "tap: {note}");
    }
    let _ = out.flush();
}

/// What was dropped, in words (nothing when nothing was).
fn dropped_notes(dropped: &Dropped) -> Vec<String> {
    let mut notes = Vec::new();
    let findings = dropped.findings.load(Ordering::Acquire);
    if findings > 0 {
        notes.push(format!(
            "{findings} findings were dropped: their output was not read as fast as they came (the traffic never waits for it)"
        ));
    }
    let unchecked = dropped.unchecked.load(Ordering::Acquire);
    if unchecked > 0 {
        notes.push(format!(
            "{unchecked} messages were passed on and recorded but not checked: the checker was behind (the traffic never waits for it)"
        ));
    }
    let late = dropped.late.load(Ordering::Acquire);
    if late > 0 {
        notes.push(format!(
            "{late} messages were passed on and recorded but not checked: time budget spent (the checker has {} s once the server has ended)",
            CHECK_GRACE.as_secs()
        ));
    }
    notes
}

/// Copies `from` to `to` chunk by chunk (each written and flushed as soon as it is read), and
/// hands every complete line to the recorder; what is left at the end (a message without its
/// newline) is recorded too. Returns when `from` ends or `to` refuses bytes. Only the bytes just
/// read are searched for a newline, and a line longer than [`MAX_CHECKED`] is not kept: the work
/// is linear in the bytes and the memory bounded, whatever the lines' length.
///
/// A chunk's complete lines are recorded *before* the chunk is passed on: the peer cannot answer
/// a message it has not received, so its answer is recorded after it (forwarded first, a fast
/// client's reply to the server's request could reach the transcript ahead of the request).
fn pump(mut from: impl Read, mut to: impl Write, side: Side, recorder: &Mutex<Recorder>) {
    let mut buf = vec![0u8; CHUNK];
    let mut line = Line::default();
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let chunk = &buf[..n];
        let mut rest = chunk;
        let mut recording = None;
        while let Some(nl) = rest.iter().position(|&b| b == b'\n') {
            line.push(&rest[..=nl]);
            rest = &rest[nl + 1..];
            let r = recording.get_or_insert_with(|| recorder.lock());
            if let Ok(r) = r {
                r.message(side, std::mem::take(&mut line));
            }
        }
        line.push(rest);
        if let Some(Ok(mut r)) = recording {
            r.flush();
        }
        let delivered = to.write_all(chunk).and_then(|()| to.flush()).is_ok();
        if !delivered {
            break;
        }
    }
    if line.size > 0 {
        if let Ok(mut r) = recorder.lock() {
            r.message(side, line);
            r.flush();
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
        Some(name) => match super::probe::document::open("tap", name) {
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
        None => Box::new(BufWriter::new(io::stderr())),
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
    let (Some(child_in), Some(child_out)) = (child.stdin.take(), child.stdout.take()) else {
        eprintln!("jrpc tap: {program} has no standard input or output");
        return ExitCode::from(2);
    };
    let dropped = Arc::new(Dropped::default());
    let waiting_bytes = Arc::new(AtomicUsize::new(0));
    // The writer: findings out, then what was dropped. It ends when the checker has ended.
    let (finding_tx, finding_rx) = mpsc::sync_channel::<String>(MAX_QUEUED_FINDINGS);
    let (written_tx, written) = mpsc::channel::<()>();
    let d = Arc::clone(&dropped);
    thread::spawn(move || {
        write_findings(finding_rx, findings, &d);
        drop(written_tx);
    });
    // The checker: every recorded message in order, until the recorder lets its queue go.
    let (job_tx, job_rx) = mpsc::sync_channel::<Job>(MAX_WAITING);
    let (d, w) = (Arc::clone(&dropped), Arc::clone(&waiting_bytes));
    // The way to the writer: the tap takes it away when the checker's time runs out.
    let to_writer = Arc::new(Mutex::new(Some(finding_tx)));
    let (checked_tx, checked) = mpsc::channel::<()>();
    let to_checker = Arc::clone(&to_writer);
    // What the checker found, by severity (`--fail-on`).
    let found = Arc::new(Found::default());
    let f = Arc::clone(&found);
    thread::spawn(move || {
        Checker {
            profile,
            fixed,
            api: api.map(|doc| (doc, Pairing::default())),
            rounds: Rounds::default(),
            tools: ToolSchemas::default(),
            found: f,
        }
        .run(job_rx, &to_checker, &w, &d);
        drop(checked_tx);
    });
    let recorder = Arc::new(Mutex::new(Recorder {
        transcript,
        counts: [0, 0],
        checker: Some(job_tx),
        waiting_bytes,
        dropped: Arc::clone(&dropped),
    }));
    // Client → server: when the client closes, the server's input closes too (child_in drops).
    let r = Arc::clone(&recorder);
    thread::spawn(move || pump(io::stdin().lock(), child_in, Side::Client, &r));
    // Server → client, until the server closes its output.
    let r = Arc::clone(&recorder);
    let to_client = thread::spawn(move || pump(child_out, io::stdout().lock(), Side::Server, &r));
    let status = child.wait();
    // The server is gone: no signal may reach whatever process takes its pid next.
    #[cfg(unix)]
    forwarding.close();
    let _ = to_client.join();
    // No more checking: the checker finishes what waits, for at most CHECK_GRACE (what it has
    // not checked by then is counted and left), then the writer what is left, for at most
    // FINDINGS_GRACE (its output may never be read: the tap ends anyway).
    if let Ok(mut r) = recorder.lock() {
        r.checker = None;
    }
    if let Err(mpsc::RecvTimeoutError::Timeout) = checked.recv_timeout(CHECK_GRACE) {
        dropped.out_of_time.store(true, Ordering::Release);
        let late = dropped.pending.load(Ordering::Acquire);
        dropped.late.store(late, Ordering::Release);
    }
    // The writer ends once its queue is written (the checker, if still at work, says no more).
    if let Ok(mut writer) = to_writer.lock() {
        writer.take();
    }
    let _ = written.recv_timeout(FINDINGS_GRACE);
    if let Ok(mut r) = recorder.lock() {
        let notes = dropped_notes(&dropped);
        if let Some(t) = &mut r.transcript {
            for note in notes {
                let _ = writeln!(t, "--> // jrpc tap: {note}");
            }
        }
        r.flush();
    }
    match status {
        Ok(status) if status.success() && args.fail_on.is_some_and(|f| found.fails(f)) => {
            ExitCode::from(1)
        }
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
