//! `jrpc probe TARGET`: check a real JSON-RPC 2.0 / MCP server by talking to it.
//!
//! The target is a command to start (stdio, after `--`), an `http(s)://` URL (Streamable HTTP, or
//! plain JSON-RPC over HTTP) or a `ws(s)://` URL ([`target`], [`link`]: the tokio links, TLS by
//! rustls with the system's root certificates). The probe
//! itself is the engine's ([`crate::probe`]: the plan of checks, the recorded conversation, the
//! probe's rules, the verdict, the JSON report); here: the arguments, the target, the links, and
//! the result written as text, JSON or JUnit ([`output`]).
//!
//! Exit status: 0 every check passed (or was skipped: not declared), 1 a check failed, 2 the
//! target could not be started or reached (or a usage error).

pub(super) mod document;
pub(crate) mod headers;
pub(crate) mod link;
mod output;
pub(crate) mod target;

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use clap::error::ErrorKind;
use clap::ValueEnum;
use codespan_reporting::term::termcolor::{BufferedStandardStream, ColorChoice};
use serde_json::Value;
use tokio::signal::unix::{signal, Signal, SignalKind};

use super::{diagnostic, FailOn, ProfileName};
use crate::probe::{self, Conversation, Mode, Plan};
use crate::rpc::McpVersion;
use link::Link;

/// Check a JSON-RPC 2.0 or MCP server by talking to it.
///
/// The server is an http(s):// URL (MCP Streamable HTTP, or plain JSON-RPC over HTTP POST), a
/// ws(s):// URL (TLS checked against the system's root certificates, or SSL_CERT_FILE), or, after `--`, a command that speaks newline-delimited JSON-RPC on its stdin and stdout. As an
/// MCP server (the default when it answers server/discover or initialize) the revision is chosen
/// from server/discover (else the initialize handshake), the probe answers the server's input
/// requests as a cooperative client (sampling, elicitation, roots), and only what it declares is
/// exercised: every tool is called with arguments made from its inputSchema (probe only servers
/// whose tools you may run), resources are read, prompts got. Every message both ways is checked.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  jrpc probe -- npx -y @modelcontextprotocol/server-everything
  jrpc probe http://127.0.0.1:3001/mcp --format junit > probe.xml
  jrpc probe --profile jsonrpc --call subtract '[42, 23]' ws://127.0.0.1:8765
  jrpc probe --openrpc petstore-openrpc.json --skip-method create_pet http://127.0.0.1:8766
  jrpc probe --openrpc discover -- ./my-server

Exit status: 0 every check passed or was skipped (not declared), 1 a check failed (or, with
--fail-on warning, a warning was found), 2 the server could not be started or reached, or a usage
error.")]
pub struct Args {
    /// The server's URL: http(s)://HOST:PORT/PATH or ws(s)://HOST:PORT/PATH (or a command after --)
    #[arg(value_name = "URL")]
    url: Option<String>,
    /// The rules to check against [default: mcp when the server answers server/discover or initialize, else jsonrpc]
    #[arg(long, value_enum, value_name = "PROFILE")]
    profile: Option<ProfileName>,
    /// The MCP version to speak: one asked for in initialize, or 2026-07-28 (server/discover and
    /// a per-request _meta instead) (implies --profile mcp) [default: chosen from server/discover,
    /// else the initialize handshake asking for 2025-11-25]
    #[arg(long, value_name = "VERSION")]
    mcp_version: Option<McpVersion>,
    /// Call METHOD with PARAMS (JSON: an array, an object, or null for none); repeatable
    #[arg(long, num_args = 2, value_names = ["METHOD", "PARAMS"], action = clap::ArgAction::Append)]
    call: Vec<String>,
    /// Output: compiler-style text, a JSON report, or JUnit XML
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the whole exchange as a `-->` / `<--` transcript to FILE (`jrpc check FILE` reads it)
    #[arg(long, value_name = "FILE")]
    transcript: Option<String>,
    /// How long one request may wait for its reply, in seconds
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = seconds)]
    timeout: Duration,
    /// How long the whole probe may take, in seconds: loading the --openrpc document, talking to
    /// the server and judging the conversation; work still running 1 s past it is stopped and the
    /// report says so
    #[arg(long, value_name = "SECS", default_value = "120", value_parser = seconds)]
    total_timeout: Duration,
    /// The most tool calls, resource reads and prompt gets made (each); with --openrpc, the most
    /// calls of the document's methods
    #[arg(long, value_name = "N", default_value_t = 50)]
    max_calls: usize,
    /// Never call the tool NAME (repeatable)
    #[arg(long, value_name = "NAME")]
    skip_tool: Vec<String>,
    /// Probe a plain JSON-RPC server against the API an OpenRPC document describes: DOC is a file,
    /// an http(s):// URL (fetched: at most 16 MiB within 30 s), or `discover` (the document the
    /// server's own rpc.discover returns). rpc.discover is called (its document checked against
    /// the meta-schema and compared), then the JSON-RPC checks, then each method of the document
    /// with its example pairings' params (or params generated from its schemas; a method without a
    /// result as a notification), each reply checked against the document. Only probe servers
    /// whose methods you may call (see --skip-method, --max-calls). Implies --profile jsonrpc
    #[arg(long, value_name = "DOC", conflicts_with = "mcp_version")]
    openrpc: Option<String>,
    /// Never call the document's method NAME (with --openrpc; repeatable)
    #[arg(long, value_name = "NAME", requires = "openrpc")]
    skip_method: Vec<String>,
    /// Send the header NAME: VALUE with every HTTP request and the WebSocket handshake, e.g.
    /// `--header 'X-Api-Key: …'` (repeatable; the value is never printed nor written to a
    /// transcript). The environment variable JRPC_BEARER_TOKEN, when set, sends
    /// `Authorization: Bearer TOKEN` unless a --header names Authorization
    #[arg(long = "header", short = 'H', value_name = "NAME:VALUE")]
    headers: Vec<String>,
    /// MCP authorization: the client_id of a client registered beforehand with the server's
    /// authorization server (else a Client ID Metadata Document, else dynamic registration)
    /// [env: JRPC_CLIENT_ID]
    #[arg(long, value_name = "ID")]
    client_id: Option<String>,
    /// MCP authorization: that client's secret (never printed) [env: JRPC_CLIENT_SECRET]
    #[arg(long, value_name = "SECRET")]
    client_secret: Option<String>,
    /// MCP authorization: the URL of this client's Client ID Metadata Document, used as its
    /// client_id when the authorization server supports them
    #[arg(long, value_name = "URL")]
    client_metadata_url: Option<String>,
    /// The least severe finding that makes the exit status 1 (warning: a warning too, and in
    /// JUnit the check it is about a failure)
    #[arg(long, value_enum, value_name = "SEVERITY", default_value_t = FailOn::Error, visible_alias = "fail-severity")]
    fail_on: FailOn,
    /// The server to start, and its arguments (after `--`)
    #[arg(last = true, value_name = "CMD")]
    command: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
    Junit,
}

fn seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !(secs > 0.0 && secs <= 86_400.0) {
        return Err(format!("{text} is not between 0 and 86400 seconds"));
    }
    Ok(Duration::from_secs_f64(secs))
}

impl Args {
    fn plan(&self) -> Result<Plan, String> {
        if self.openrpc.is_some() && self.profile == Some(ProfileName::Mcp) {
            return Err(
                "--openrpc probes a plain JSON-RPC server: it cannot go with --profile mcp".into(),
            );
        }
        let mode = match (self.profile, self.mcp_version) {
            _ if self.openrpc.is_some() => Mode::JsonRpc,
            (Some(ProfileName::Jsonrpc), Some(_)) => {
                return Err("--mcp-version needs --profile mcp".into())
            }
            (Some(ProfileName::Jsonrpc), None) => Mode::JsonRpc,
            (Some(ProfileName::Mcp), v) => Mode::Mcp(v),
            (None, Some(v)) => Mode::Mcp(Some(v)),
            (None, None) => Mode::Detect,
        };
        let mut calls = Vec::new();
        for pair in self.call.chunks(2) {
            let [method, params] = pair else {
                return Err("--call needs METHOD and PARAMS".into());
            };
            let params: Value = serde_json::from_str(params).map_err(|e| {
                format!(
                    "--call {method}: PARAMS is not JSON ({e}): give an array, an object or null"
                )
            })?;
            if !(params.is_array() || params.is_object() || params.is_null()) {
                return Err(format!(
                    "--call {method}: PARAMS must be an array, an object or null"
                ));
            }
            calls.push((method.clone(), params));
        }
        Ok(Plan {
            mode,
            calls,
            max_calls: self.max_calls,
            skip_tools: self.skip_tool.clone(),
        })
    }
}

/// The signals that end the probe early: Ctrl+C (SIGINT), SIGTERM (a CI job cancelled, `kill`)
/// and SIGHUP (the terminal closed). Each is handled as Ctrl+C is: the server the probe started
/// is stopped, with its process group, before the probe exits.
struct Stop {
    interrupt: Signal,
    terminate: Signal,
    hangup: Signal,
}

impl Stop {
    /// Starts listening (from here on these signals no longer end the process at once).
    fn listen() -> io::Result<Stop> {
        Ok(Stop {
            interrupt: signal(SignalKind::interrupt())?,
            terminate: signal(SignalKind::terminate())?,
            hangup: signal(SignalKind::hangup())?,
        })
    }

    /// The name of the first signal received.
    async fn received(&mut self) -> &'static str {
        tokio::select! {
            _ = self.interrupt.recv() => "SIGINT",
            _ = self.terminate.recv() => "SIGTERM",
            _ = self.hangup.recv() => "SIGHUP",
        }
    }
}

/// Runs the plan: under the OpenRPC document when `--openrpc` gave one (or asked for the server's).
async fn run_plan(
    conversation: &mut Conversation<Link>,
    plan: &Plan,
    document: Option<&Option<crate::openrpc::OpenRpc>>,
    options: &probe::checks::openrpc::Options,
) -> probe::Run {
    use probe::checks::openrpc::{run, Source};
    match document {
        None => probe::run(conversation, plan).await,
        Some(Some(doc)) => run(conversation, plan, Source::Given(doc), options).await,
        Some(None) => run(conversation, plan, Source::Discover, options).await,
    }
}

/// How long past `--total-timeout` the probe waits for its own work (a step that runs between
/// two waits on the server: loading a document, checking a reply against a schema, judging the
/// conversation) before it stops it and reports what it has.
pub const TOTAL_TIMEOUT_GRACE: Duration = Duration::from_secs(1);

/// What the probe's thread tells the one that waits for it.
enum Progress {
    /// The document is loaded (when one was given): the probe talks to the server now; `group`
    /// is the process group of the server it started, if it started one.
    Talking { group: Option<i32> },
    /// The run is over and its messages are being judged: the checks as the run left them, and
    /// the conversation's transcript (what is reported should the judging not end in time).
    Judging {
        checks: Vec<probe::Check>,
        profile: crate::rpc::Profile,
        transcript: String,
        messages: usize,
        /// Why the run stopped early, if it did.
        stopped: Option<String>,
    },
    /// The probe ended: the verdict, or why there is none (exit 2; `None`: said already).
    Done(Result<probe::Verdict, Option<String>>),
    /// A signal that ends the probe arrived (the probe's thread stops the server, if it can).
    Signal(&'static str),
}

/// How long the probe's thread has, once a signal has come, to stop the server itself (closing
/// its input, then SIGTERM) before its process group is killed.
const SIGNAL_GRACE: Duration = Duration::from_secs(2);

/// Says on `progress` each signal [`Stop`] handles, as it comes: the probe's thread may be at work
/// between two waits and not see it in time.
fn watch_signals(progress: std::sync::mpsc::Sender<Progress>) -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::spawn(move || {
        for signal in signals.forever() {
            let name = match signal {
                SIGINT => "SIGINT",
                SIGTERM => "SIGTERM",
                _ => "SIGHUP",
            };
            if progress.send(Progress::Signal(name)).is_err() {
                return;
            }
        }
    });
    Ok(())
}

/// What the probe's thread is given.
struct Job {
    plan: Plan,
    target: target::Target,
    /// `--openrpc`: the document's name, or `discover`.
    openrpc: Option<String>,
    openrpc_options: probe::checks::openrpc::Options,
    timeout: Duration,
    total_timeout: Duration,
    started: std::time::Instant,
    /// `--header` and the token from the environment: sent over HTTP and WebSocket.
    headers: headers::Headers,
    /// The client identity for MCP authorization (HTTP).
    client: link::ClientOptions,
}

/// The whole probe, on a thread of its own: the document loaded, the conversation, the verdict;
/// each stage said on `progress`.
fn probe_thread(job: Job, progress: &std::sync::mpsc::Sender<Progress>) {
    let done = |outcome| {
        let _ = progress.send(Progress::Done(outcome));
    };
    // `--openrpc`: Some(Some(doc)) a document given, Some(None) the server's rpc.discover.
    let document = match job.openrpc.as_deref() {
        None => None,
        Some("discover") => Some(None),
        Some(name) => match document::open("probe", name) {
            Some(doc) => Some(Some(doc)),
            None => return done(Err(None)),
        },
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => return done(Err(Some(format!("cannot start the async runtime: {e}")))),
    };
    let target = &job.target;
    let outcome = runtime.block_on(async {
        let started = tokio::time::Instant::from_std(job.started);
        let mut stop = match Stop::listen() {
            Ok(stop) => stop,
            Err(e) => return Err(format!("cannot listen for signals: {e}")),
        };
        let link = tokio::select! {
            link = Link::open(target, &job.headers, &job.client, job.timeout.min(job.total_timeout), started) => link,
            signal = stop.received() => return Err(format!("interrupted ({signal})")),
        };
        let link = link.map_err(|e| e.0)?;
        let _ = progress.send(Progress::Talking {
            group: link.process_group(),
        });
        let mut conversation = Conversation::new(link, job.timeout, job.total_timeout);
        let run = tokio::select! {
            run = run_plan(&mut conversation, &job.plan, document.as_ref(), &job.openrpc_options) => Ok(run),
            signal = stop.received() => Err(signal),
        };
        let run = match run {
            Ok(run) => run,
            Err(signal) => {
                conversation.into_parts().0.close().await;
                return Err(format!("interrupted ({signal})"));
            }
        };
        let (transcript, _) = probe::verdict::transcript(&conversation.entries);
        let _ = progress.send(Progress::Judging {
            checks: run.checks.clone(),
            profile: run.profile,
            transcript,
            messages: conversation.entries.len(),
            stopped: run.stopped.as_ref().map(|e| e.0.clone()),
        });
        let (link, verdict) = probe::conclude(conversation, run);
        link.close().await;
        verdict.map_err(|not_reached| not_reached.reason("--timeout"))
    });
    // The runtime (and any server process it still holds) ends here.
    drop(runtime);
    done(outcome.map_err(Some));
}

/// The verdict when the probe's own work ran past `--total-timeout` and its grace: the checks as
/// the run left them (their messages not judged) when the run was over, else none; stopped. And
/// the conversation's transcript when the run was over (else empty). Err: the server was not
/// started yet (the document was being loaded), why in words.
fn out_of_time(
    judging: Option<Progress>,
    total_timeout: Duration,
    talking: bool,
) -> Result<(probe::Verdict, String), String> {
    let limit = format!(
        "not finished within --total-timeout ({} s, and {} s of grace)",
        total_timeout.as_secs_f64(),
        TOTAL_TIMEOUT_GRACE.as_secs_f64()
    );
    let (mut checks, profile, why, transcript) = match judging {
        Some(Progress::Judging {
            checks,
            profile,
            transcript,
            messages,
            stopped,
        }) => (
            checks,
            profile,
            format!("{}{limit}: judging the conversation ({messages} messages, {} bytes) was stopped; the checks' statuses are the probe's own, their messages not judged (--transcript writes them)", stopped.map(|why| format!("{why}; then ")).unwrap_or_default(), transcript.len()),
            transcript,
        ),
        _ if talking => (
            Vec::new(),
            crate::rpc::Profile::JsonRpc,
            format!("{limit}: the probe's own work between two messages (checking what the server sent) was stopped"),
            String::new(),
        ),
        _ => return Err(format!("{limit}: loading the OpenRPC document was stopped")),
    };
    // No messages are judged: no check points into the (empty) transcript; the probe's own
    // findings still fail their check.
    for check in &mut checks {
        if check.status != probe::Status::Skipped {
            if check
                .findings
                .iter()
                .any(|f| f.rule.severity == crate::rpc::Severity::Error)
            {
                check.status = probe::Status::Fail;
            }
            let note = "its messages not judged (out of time)";
            check.detail = if check.detail.is_empty() {
                note.to_string()
            } else {
                format!("{}; {note}", check.detail)
            };
        }
        check.entries = 0..0;
        check.findings.clear();
    }
    let run = probe::Run {
        checks,
        profile,
        stopped: Some(probe::LinkError(why)),
    };
    Ok((probe::verdict::judge(&[], run), transcript))
}

/// Kills the process group `group` (the server the probe started).
fn kill_group(group: i32) {
    // SAFETY: kill(2) with a negative pid signals that process group; it touches no memory.
    unsafe {
        libc::kill(-group, libc::SIGKILL);
    }
}

pub fn main(args: Args) -> ExitCode {
    let started = std::time::Instant::now();
    let plan = match args.plan() {
        Ok(plan) => plan,
        Err(message) => return super::usage_error("probe", ErrorKind::ArgumentConflict, message),
    };
    let target = match target::parse(args.url.as_deref(), &args.command) {
        Ok(target) => target,
        Err(message) => return super::usage_error("probe", ErrorKind::InvalidValue, message),
    };
    let headers =
        match headers::Headers::from_args(&args.headers, std::env::var_os(headers::TOKEN_VARIABLE))
        {
            Ok(headers) => headers,
            Err(message) => return super::usage_error("probe", ErrorKind::InvalidValue, message),
        };
    if !args.headers.is_empty() && matches!(target, target::Target::Spawn { .. }) {
        return super::usage_error(
            "probe",
            ErrorKind::ArgumentConflict,
            "--header goes with an http(s):// or ws(s):// URL: a command on stdio has no headers"
                .to_string(),
        );
    }
    let job = Job {
        headers,
        client: link::ClientOptions {
            client_id: args
                .client_id
                .clone()
                .or_else(|| std::env::var("JRPC_CLIENT_ID").ok()),
            client_secret: args
                .client_secret
                .clone()
                .or_else(|| std::env::var("JRPC_CLIENT_SECRET").ok()),
            metadata_url: args.client_metadata_url.clone(),
        },
        plan,
        target: target.clone(),
        openrpc: args.openrpc.clone(),
        openrpc_options: probe::checks::openrpc::Options {
            skip_methods: args.skip_method.clone(),
        },
        timeout: args.timeout,
        total_timeout: args.total_timeout,
        started,
    };
    // The probe runs on a thread of its own; this one holds it to --total-timeout (and its
    // grace), whatever step it is at: one that does not end in time is left, its server killed.
    let (progress, reports) = std::sync::mpsc::channel();
    if let Err(e) = watch_signals(progress.clone()) {
        eprintln!("jrpc probe: cannot listen for signals: {e}");
        return ExitCode::from(2);
    }
    let spawned = std::thread::Builder::new()
        .name("probe".into())
        .spawn(move || probe_thread(job, &progress));
    if let Err(e) = spawned {
        eprintln!("jrpc probe: cannot start the probe's thread: {e}");
        return ExitCode::from(2);
    }
    let mut deadline = started + args.total_timeout + TOTAL_TIMEOUT_GRACE;
    let mut interrupted = None;
    let mut group = None;
    let mut talking = false;
    let mut judging = None;
    // The conversation, when it could not be judged in time (what --transcript then holds).
    let mut unjudged = String::new();
    let outcome = loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match reports.recv_timeout(left) {
            Ok(Progress::Talking { group: started }) => {
                group = started;
                talking = true;
            }
            Ok(stage @ Progress::Judging { .. }) => judging = Some(stage),
            Ok(Progress::Done(outcome)) => break outcome,
            Ok(Progress::Signal(name)) => {
                interrupted.get_or_insert(name);
                deadline = deadline.min(std::time::Instant::now() + SIGNAL_GRACE);
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if let Some(group) = group {
                    kill_group(group);
                }
                if let Some(signal) = interrupted {
                    break Err(Some(format!("interrupted ({signal})")));
                }
                match out_of_time(judging, args.total_timeout, talking) {
                    Ok((verdict, transcript)) => {
                        unjudged = transcript;
                        break Ok(verdict);
                    }
                    Err(why) => break Err(Some(why)),
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                if let Some(group) = group {
                    kill_group(group);
                }
                break Err(Some("the probe stopped unexpectedly".to_string()));
            }
        }
    };
    let outcome = match outcome {
        Ok(verdict) => Ok(verdict),
        Err(None) => return ExitCode::from(2),
        Err(Some(why)) => Err(why),
    };
    let verdict = match outcome {
        Ok(verdict) => verdict,
        Err(why) => {
            eprintln!(
                "jrpc probe: {} could not be probed: {}",
                diagnostic::printable(&target.to_string()),
                diagnostic::printable(&why.to_string())
            );
            return ExitCode::from(2);
        }
    };
    if let Some(path) = &args.transcript {
        let transcript = if unjudged.is_empty() {
            &verdict.transcript
        } else {
            &unjudged
        };
        if let Err(e) = std::fs::write(path, transcript) {
            eprintln!("jrpc probe: cannot write the transcript {path}: {e}");
            return ExitCode::from(2);
        }
    }
    let shown = target.to_string();
    let written = match args.format {
        Format::Text => {
            let choice = if io::stdout().is_terminal() {
                ColorChoice::Auto
            } else {
                ColorChoice::Never
            };
            let mut out = BufferedStandardStream::stdout(choice);
            output::text(&mut out, &verdict, &shown, args.transcript.as_deref())
                .and_then(|()| out.flush())
        }
        Format::Json => {
            let mut out = diagnostic::JsonEscapes::new(io::BufWriter::new(io::stdout().lock()));
            output::json(&mut out, &verdict, &shown, args.transcript.as_deref())
                .and_then(|()| out.flush())
        }
        Format::Junit => {
            let mut out = io::BufWriter::new(io::stdout().lock());
            output::junit(&mut out, &verdict, &shown, args.fail_on).and_then(|()| out.flush())
        }
    };
    if let Err(e) = written {
        return super::output_failed(&e);
    }
    let warned = || {
        verdict
            .report
            .violations()
            .any(|v| args.fail_on.fails(v.severity))
    };
    if verdict.failed() || warned() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
