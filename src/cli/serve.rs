//! `jrpc serve`: the mock server. On stdio (the default) as MCP's stdio transport frames it — one
//! JSON-RPC message (or batch) per line in, one reply per line out, nothing for notifications;
//! what the server sends on its own (log lines, progress, a request to the client, the later
//! result of a call that waited for the client's answer) is a line of its own. With
//! `--ws ADDR` and/or `--http ADDR` it serves the same mock over WebSocket and HTTP instead (see
//! [`net`]). Logs go to stderr only; stdout carries nothing but replies.

use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::process::ExitCode;
use std::time::Duration;

use crate::mock::{Fixtures, MockServer, TaskStore, STATE_KEY_BYTES};

mod net;

/// Serve the mock: the JSON-RPC 2.0 specification's examples and an MCP server.
///
/// With no --ws or --http, reads newline-delimited JSON-RPC 2.0 on stdin and writes one reply line
/// per request to stdout (nothing for notifications). It answers the JSON-RPC 2.0 specification's
/// examples (subtract, sum, get_data, …) and is an MCP server (initialize, server/discover, tools,
/// resources, prompts).
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("transport").args(["ws", "http"]).multiple(true)))]
#[command(
    after_help = "ADDR is HOST:PORT, or a bare PORT for 127.0.0.1:PORT. Both --ws and --http may be given (on
different ports). The listening URLs are printed on stderr; a port in use exits with status 2.

Bounds: a message (WebSocket) or body (HTTP) over 16 MiB is refused (close 1009 / 413). WebSocket:
the handshake within 10 s; a ping every 30 s, and a connection silent for 75 s (not even a pong) is
closed (1001). HTTP: a request's head within 10 s (also the idle limit of a kept-alive connection),
its body within 30 s (else 408); an MCP session unused for 30 min is forgotten (404, start over).
Only loopback Host names are answered and only loopback or --allow-origin Origins (else 403).

Examples:
  echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}' | jrpc serve
  jrpc serve --ws 127.0.0.1:8765 --http 127.0.0.1:8766
  jrpc serve --openrpc petstore-openrpc.json --http 127.0.0.1:8766
  jrpc serve --replay session.txt --http 127.0.0.1:8766

--replay reads at most 64 MiB of transcripts (64 files) in all; see docs/replay.md."
)]
pub struct Args {
    /// Serve over WebSocket on ADDR (e.g. 127.0.0.1:8765; port 0 picks a free port): one text frame
    /// per message or batch in, one text frame per reply out, nothing for notifications; a binary
    /// frame is answered with a -32700 parse error and the connection stays open. Each connection
    /// has its own mock server.
    #[arg(long, value_name = "ADDR")]
    ws: Option<String>,
    /// Serve over HTTP on ADDR (any path): POST application/json, answered with 200 and the reply,
    /// 202 and no body when there is nothing to return, 400 when the input is not JSON or not a
    /// request; `initialize` starts an MCP session (Mcp-Session-Id). A call that sends something
    /// first (log lines, progress) or asks the client (sampling, elicitation) is answered with an
    /// SSE stream; the client's answer is a POST of its own in the session, and the stream then
    /// carries the result. CORS allows the origins that may connect.
    #[arg(long, value_name = "ADDR")]
    http: Option<String>,
    /// Allow an ADDR that is not loopback (e.g. 0.0.0.0:8765), and answer any Host header: without
    /// it only 127.0.0.1, ::1 and localhost are accepted, as the mock is for this machine
    #[arg(long, requires = "transport")]
    allow_remote: bool,
    /// Let pages from ORIGIN (e.g. https://example.github.io, the hosted playground) connect
    /// from a browser; loopback origins always may, others get 403 (DNS-rebinding protection).
    /// Repeatable.
    #[arg(long, value_name = "ORIGIN", requires = "transport")]
    allow_origin: Vec<String>,
    /// Stop by itself after SECS seconds (Ctrl+C or SIGTERM stop it too)
    #[arg(long, value_name = "SECS", value_parser = seconds, requires = "transport")]
    exit_after: Option<Duration>,
    /// Which tools, resources and prompts the MCP server has: `friendly` (add, echo, divide, a tool
    /// per content type, mock://readme, explain-error, …) or `conformance`, the fixtures the
    /// official MCP conformance suite calls by name (test_simple_text, test://static-text,
    /// test_prompt_with_arguments, …)
    #[arg(long, value_enum, default_value_t = FixtureSet::Friendly)]
    fixtures: FixtureSet,
    /// Log every message and reply on stderr
    #[arg(short, long)]
    verbose: bool,
    /// Serve the API an OpenRPC document describes instead (on stdio, or over --ws and --http with
    /// the same bounds): example results for example params, values generated from the result
    /// schema otherwise, -32601 for an unknown method, -32602 with the findings in `data` for
    /// invalid params, rpc.discover the document. DOC is a file, or an http(s):// URL to fetch
    #[arg(long, value_name = "DOC", conflicts_with = "fixtures")]
    openrpc: Option<String>,
    /// Serve a recorded session instead (a `-->` / `<--` transcript, as `jrpc tap --transcript`
    /// and `jrpc probe --transcript` write it; repeatable, the transcripts merge): each request is
    /// answered with the recorded answer to the same method and params (canonical JSON), with the
    /// caller's id, after what the server sent before it; an unrecorded request gets -32601 (an
    /// unknown method) or -32602 (other params) naming the nearest recorded requests. On stdio, or
    /// over --ws and --http with the same bounds
    #[arg(long, value_name = "TRANSCRIPT", conflicts_with_all = ["fixtures", "openrpc"])]
    replay: Vec<String>,
}

/// `--fixtures`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FixtureSet {
    Friendly,
    Conformance,
}

impl From<FixtureSet> for Fixtures {
    fn from(set: FixtureSet) -> Fixtures {
        match set {
            FixtureSet::Friendly => Fixtures::Friendly,
            FixtureSet::Conformance => Fixtures::Conformance,
        }
    }
}

/// The longest `--exit-after` (ten years): past it a deadline would overflow the clock.
const LONGEST_RUN_SECS: f64 = 10.0 * 365.0 * 24.0 * 3600.0;

/// A positive, finite number of seconds, at most [`LONGEST_RUN_SECS`].
fn seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(secs) if secs > 0.0 && secs <= LONGEST_RUN_SECS => Ok(Duration::from_secs_f64(secs)),
        _ => Err(format!(
            "needs a number of seconds above 0 and at most {LONGEST_RUN_SECS} (ten years)"
        )),
    }
}

/// Runs `jrpc serve`.
pub fn main(args: Args) -> ExitCode {
    let mut replay = None;
    if !args.replay.is_empty() {
        match super::recording::Recording::load(&args.replay) {
            Ok(recording) => {
                if args.verbose || recording.exchanges.is_empty() {
                    eprintln!(
                        "jrpc serve: replaying {} recorded request(s) of {} method(s) from {}",
                        recording.exchanges.len(),
                        recording.methods().len(),
                        args.replay.join(", ")
                    );
                }
                replay = Some(std::sync::Arc::new(recording));
            }
            Err(message) => {
                eprintln!("jrpc serve: --replay {message}");
                return ExitCode::from(2);
            }
        }
    }
    if let (Some(recording), None, None) = (&replay, &args.ws, &args.http) {
        return match serve_replay(
            recording,
            io::stdin().lock(),
            io::stdout().lock(),
            args.verbose,
        ) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("jrpc serve: {e}");
                ExitCode::from(2)
            }
        };
    }
    let mut openrpc = None;
    if let Some(name) = &args.openrpc {
        let Some(doc) = super::probe::document::open("serve", name) else {
            return ExitCode::from(2);
        };
        openrpc = Some(std::sync::Arc::new(doc));
    }
    if let (Some(doc), None, None) = (&openrpc, &args.ws, &args.http) {
        return match serve_document(doc, io::stdin().lock(), io::stdout().lock(), args.verbose) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("jrpc serve: {e}");
                ExitCode::from(2)
            }
        };
    }
    if args.ws.is_some() || args.http.is_some() {
        let options = net::Options {
            verbose: args.verbose,
            ws: args.ws,
            http: args.http,
            allow_remote: args.allow_remote,
            allow_origins: args.allow_origin,
            exit_after: args.exit_after,
            fixtures: args.fixtures.into(),
            openrpc,
            replay,
        };
        return net::main(&options);
    }
    let stdin = io::stdin();
    if stdin.is_terminal() {
        eprintln!("jrpc serve: reading JSON-RPC messages, one per line (Ctrl-D ends)");
    }
    match serve(
        stdin.lock(),
        io::stdout().lock(),
        args.verbose,
        args.fixtures.into(),
    ) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away: nobody is left to answer.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("jrpc serve: {e}");
            ExitCode::from(2)
        }
    }
}

/// A mock server for one session (a stdio process, a WebSocket connection, an HTTP session or one
/// stateless POST), signing its 2026-07-28 `requestState` with the process's key: a state one POST's
/// server made is good for the next POST's (2026-07-28 has no session), and for no other process.
pub(crate) fn mock_server(fixtures: Fixtures) -> MockServer {
    static KEY: std::sync::OnceLock<[u8; STATE_KEY_BYTES]> = std::sync::OnceLock::new();
    let key = KEY.get_or_init(|| {
        let mut key = [0u8; STATE_KEY_BYTES];
        if getrandom::fill(&mut key).is_err() {
            // No random source: a key from the standard library's own random hashing seeds
            // (per process, not guessable from outside), rather than none.
            use std::hash::{BuildHasher, Hasher};
            for chunk in key.chunks_mut(8) {
                let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
                hasher.write_u32(std::process::id());
                chunk.copy_from_slice(&hasher.finish().to_le_bytes()[..chunk.len()]);
            }
        }
        key
    });
    let mut server = MockServer::with_fixtures(fixtures);
    server.set_state_key(*key);
    server.serve_tasks(process_tasks().clone());
    server
}

/// The tasks of this process (MCP's Tasks extension), shared by all its mock servers: a task made
/// in one stateless POST is followed in the next ones.
fn process_tasks() -> &'static TaskStore {
    static TASKS: std::sync::OnceLock<TaskStore> = std::sync::OnceLock::new();
    TASKS.get_or_init(|| TaskStore::new(unix_ms))
}

/// The system clock in milliseconds since the Unix epoch (0 before it).
fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Answers each line of `input` on `output` until the end of input.
pub fn serve(
    mut input: impl BufRead,
    mut output: impl Write,
    verbose: bool,
    fixtures: Fixtures,
) -> io::Result<()> {
    let mut server = mock_server(fixtures);
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if verbose {
            eprintln!(
                "--> {}",
                super::diagnostic::printable(&String::from_utf8_lossy(line.trim_ascii()))
            );
        }
        let reply = server.handle(&line);
        // What the server sent on its own while answering (log lines, progress) goes first.
        for message in server.take_sent() {
            if verbose {
                eprintln!("<-- {}", super::diagnostic::printable_of(&message));
            }
            output.write_all(message.as_bytes())?;
            output.write_all(b"\n")?;
        }
        output.flush()?;
        match reply {
            Some(reply) => {
                if verbose {
                    eprintln!("<-- {}", super::diagnostic::printable_of(&reply));
                }
                output.write_all(reply.as_bytes())?;
                output.write_all(b"\n")?;
                output.flush()?;
            }
            None if verbose => eprintln!("<-- // nothing is returned"),
            None => {}
        }
    }
}

/// The longest line `jrpc serve --openrpc` reads (16 MiB, as the network transports bound a
/// message); a longer one is answered -32700 and skipped.
const MAX_LINE_BYTES: u64 = 16 << 20;

/// Reads one line of at most [`MAX_LINE_BYTES`] into `line` (the rest of a longer one is skipped):
/// `None` at the end of input, else whether the line was too long.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Option<bool>> {
    line.clear();
    let n = input.take(MAX_LINE_BYTES + 1).read_until(b'\n', line)?;
    if n == 0 {
        return Ok(None);
    }
    let too_long = line.len() as u64 > MAX_LINE_BYTES && line.last() != Some(&b'\n');
    if too_long {
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let m = input.take(MAX_LINE_BYTES).read_until(b'\n', &mut rest)?;
            if m == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
    }
    Ok(Some(too_long))
}

/// `jrpc serve --replay TRANSCRIPT` on stdio: one message (or batch) per line in; out, what the
/// recording sent after the matching request, a line each, the reply last.
pub fn serve_replay(
    recording: &super::recording::Recording,
    mut input: impl BufRead,
    mut output: impl Write,
    verbose: bool,
) -> io::Result<()> {
    let mut session = super::recording::Session::waiting_for_answers();
    let mut line = Vec::new();
    while let Some(too_long) = read_line(&mut input, &mut line)? {
        if !too_long && line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if verbose {
            eprintln!(
                "--> {}",
                super::diagnostic::printable(&String::from_utf8_lossy(line.trim_ascii()))
            );
        }
        let sent = if too_long {
            vec![r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error","data":"the line is longer than 16 MiB"},"id":null}"#.to_string()]
        } else {
            recording.answer(&mut session, line.trim_ascii()).sent
        };
        if verbose && sent.is_empty() {
            eprintln!("<-- // nothing is returned");
        }
        for message in sent {
            if verbose {
                eprintln!("<-- {}", super::diagnostic::printable_of(&message));
            }
            output.write_all(message.as_bytes())?;
            output.write_all(b"\n")?;
        }
        output.flush()?;
    }
    Ok(())
}

/// `jrpc serve --openrpc DOC` on stdio: one message (or batch) per line in, one reply per line out.
pub fn serve_document(
    doc: &crate::openrpc::OpenRpc,
    mut input: impl BufRead,
    mut output: impl Write,
    verbose: bool,
) -> io::Result<()> {
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = (&mut input)
            .take(MAX_LINE_BYTES + 1)
            .read_until(b'\n', &mut line)?;
        if n == 0 {
            return Ok(());
        }
        let too_long = line.len() as u64 > MAX_LINE_BYTES && line.last() != Some(&b'\n');
        if too_long {
            // Skip the rest of the line, then answer it as unreadable.
            let mut rest = Vec::new();
            loop {
                rest.clear();
                let m = (&mut input)
                    .take(MAX_LINE_BYTES)
                    .read_until(b'\n', &mut rest)?;
                if m == 0 || rest.last() == Some(&b'\n') {
                    break;
                }
            }
        }
        if !too_long && line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if verbose {
            eprintln!(
                "--> {}",
                super::diagnostic::printable(&String::from_utf8_lossy(line.trim_ascii()))
            );
        }
        let reply = if too_long {
            Some(r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error","data":"the line is longer than 16 MiB"},"id":null}"#.to_string())
        } else {
            crate::openrpc::mock::reply(doc, line.trim_ascii())
        };
        if let Some(reply) = reply {
            if verbose {
                eprintln!("<-- {}", super::diagnostic::printable_of(&reply));
            }
            output.write_all(reply.as_bytes())?;
            output.write_all(b"\n")?;
            output.flush()?;
        }
    }
}
