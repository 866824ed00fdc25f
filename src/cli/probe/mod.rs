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

mod link;
mod output;
mod target;

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
    /// How long the whole probe may take, in seconds
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

/// How long fetching an OpenRPC document by URL may take: connecting, asking and reading it all.
const FETCH_TIMEOUT: Duration = Duration::from_secs(30);

/// Fetches the OpenRPC document at `url` (`--openrpc https://…`): at most 16 MiB within
/// [`FETCH_TIMEOUT`], over TLS checked as the probe's. Err: why not, in words.
pub(crate) fn fetch_document(url: &str) -> Result<Vec<u8>, String> {
    let uri = match target::parse(Some(url), &[])? {
        target::Target::Http(uri) => uri,
        _ => return Err("only http:// and https:// URLs are fetched".into()),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    runtime
        .block_on(link::get(uri, FETCH_TIMEOUT))
        .map_err(|e| e.0)
}

pub fn main(args: Args) -> ExitCode {
    let plan = match args.plan() {
        Ok(plan) => plan,
        Err(message) => return super::usage_error("probe", ErrorKind::ArgumentConflict, message),
    };
    let target = match target::parse(args.url.as_deref(), &args.command) {
        Ok(target) => target,
        Err(message) => return super::usage_error("probe", ErrorKind::InvalidValue, message),
    };
    // `--openrpc`: Some(Some(doc)) a document given, Some(None) the server's rpc.discover.
    let document = match args.openrpc.as_deref() {
        None => None,
        Some("discover") => Some(None),
        Some(name) => match super::check::open_document("probe", name) {
            Some(doc) => Some(Some(doc)),
            None => return ExitCode::from(2),
        },
    };
    let openrpc_options = probe::checks::openrpc::Options {
        skip_methods: args.skip_method.clone(),
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("jrpc probe: cannot start the async runtime: {e}");
            return ExitCode::from(2);
        }
    };
    let outcome = runtime.block_on(async {
        let started = tokio::time::Instant::now();
        let mut stop = match Stop::listen() {
            Ok(stop) => stop,
            Err(e) => return Err(format!("cannot listen for signals: {e}")),
        };
        let link = tokio::select! {
            link = Link::open(&target, args.timeout.min(args.total_timeout), started) => link,
            signal = stop.received() => return Err(format!("interrupted ({signal})")),
        };
        let link = link.map_err(|e| e.0)?;
        let mut conversation = Conversation::new(link, args.timeout, args.total_timeout);
        let run = tokio::select! {
            run = run_plan(&mut conversation, &plan, document.as_ref(), &openrpc_options) => Ok(run),
            signal = stop.received() => Err(signal),
        };
        let run = match run {
            Ok(run) => run,
            Err(signal) => {
                conversation.into_parts().0.close().await;
                return Err(format!("interrupted ({signal})"));
            }
        };
        let (link, verdict) = probe::conclude(conversation, run);
        link.close().await;
        verdict.map_err(|not_reached| not_reached.reason("--timeout"))
    });
    // The runtime (and any server process it still holds) ends here.
    drop(runtime);
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
        if let Err(e) = std::fs::write(path, &verdict.transcript) {
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
