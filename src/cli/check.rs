//! `jrpc check`: lint messages, streams and transcripts; render the engine's report as compiler-style
//! text ([`super::diagnostic`]) or as the JSON report (the contract scripts rely on, written by
//! serde from the engine's report structs).

use std::cell::Cell;
use std::io::{self, IsTerminal, Read, Write};
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::ValueEnum;
use codespan_reporting::term::termcolor::{BufferedStandardStream, ColorChoice};
use serde::ser::{SerializeSeq, Serializer};
use serde::Serialize;

use super::{diagnostic, FailOn, ProfileName};
use crate::json::{LineIndex, Span};
use crate::openrpc::{self, OpenRpc, MAX_DOCUMENT_BYTES};
use crate::rpc::report::ProfileJson;
use crate::rpc::{check, Document, Kind, McpVersion, Profile, Report};

/// The most bytes one input may hold by default (64 MiB): past it `jrpc check` stops with exit 2
/// instead of reading without end (`jrpc check /dev/zero`).
pub const DEFAULT_MAX_BYTES: u64 = 64 << 20;

/// Check JSON-RPC 2.0 messages: one message, a batch, a stream of documents, or a transcript.
///
/// A transcript marks each document with `-->` (client to server) or `<--` (server to client) at the
/// start of its line. Reads standard input when no FILE (or `-`) is given.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit status: 0 no errors (warnings allowed; --fail-on warning: no warnings either), 1 an error found, 2 usage or I/O error."
)]
pub struct Args {
    /// The rules to check against [default: jsonrpc; mcp when --mcp-version is given]
    #[arg(long, value_enum, value_name = "PROFILE")]
    profile: Option<ProfileName>,
    /// The MCP protocol version of the mcp profile [default: the newest stable one]
    #[arg(long, value_name = "VERSION")]
    mcp_version: Option<McpVersion>,
    /// Output: compiler-style text, or the JSON report
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// The most bytes one input may hold (a larger one is an I/O error, exit 2)
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_BYTES)]
    max_bytes: u64,
    /// An OpenRPC document (a file, or an http(s):// URL fetched: at most 16 MiB within 30 s) the
    /// messages are checked against as well: methods, params, results and errors per its schemas. The document is checked first (meta-schema, $refs);
    /// if it is broken its findings are shown and nothing else is checked (exit 2).
    #[arg(long, value_name = "DOC")]
    openrpc: Option<String>,
    /// Check the --openrpc document alone (no messages): every problem it has, its examples'
    /// too; exit 1 when it has an error. The default when no FILE is given and standard input is
    /// a terminal
    #[arg(long, requires = "openrpc", conflicts_with = "files")]
    lint: bool,
    /// The least severe finding that makes the exit status 1
    #[arg(long, value_enum, value_name = "SEVERITY", default_value_t = FailOn::Error, visible_alias = "fail-severity")]
    fail_on: FailOn,
    /// Files to check, in order (`-` is standard input)
    #[arg(value_name = "FILE")]
    files: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

impl Args {
    /// The profile the options name, or the contradiction between them.
    fn profile(&self) -> Result<Profile, &'static str> {
        match (self.profile, self.mcp_version) {
            (None | Some(ProfileName::Jsonrpc), None) => Ok(Profile::JsonRpc),
            (Some(ProfileName::Jsonrpc), Some(_)) => Err("--mcp-version needs --profile mcp"),
            (None | Some(ProfileName::Mcp), v) => Ok(Profile::Mcp(v.unwrap_or_default())),
        }
    }
}

/// What went wrong while the inputs were checked.
struct Outcome {
    /// A finding at `--fail-on`'s severity or above.
    failing: Cell<bool>,
    unreadable: Cell<bool>,
    fail_on: FailOn,
}

impl Outcome {
    fn new(fail_on: FailOn) -> Outcome {
        Outcome {
            failing: Cell::new(false),
            unreadable: Cell::new(false),
            fail_on,
        }
    }

    /// Notes the findings of one input's report.
    fn saw(&self, report: &Report) {
        let failing = report.violations().any(|v| self.fail_on.fails(v.severity));
        self.failing.set(self.failing.get() | failing);
    }
}

/// Runs `jrpc check`.
pub fn main(mut args: Args) -> ExitCode {
    let profile = match args.profile() {
        Ok(profile) => profile,
        Err(message) => return super::usage_error("check", ErrorKind::ArgumentConflict, message),
    };
    let outcome = Outcome::new(args.fail_on);
    if let Some(name) = args.openrpc.as_deref() {
        if args.lint || (args.files.is_empty() && io::stdin().is_terminal()) {
            return match lint(&args, name, &outcome) {
                Err(e) => super::output_failed(&e),
                Ok(()) if outcome.unreadable.get() => ExitCode::from(2),
                Ok(()) if outcome.failing.get() => ExitCode::from(1),
                Ok(()) => ExitCode::SUCCESS,
            };
        }
    }
    if args.files.is_empty() {
        args.files.push("-".into());
    }
    let api = match args
        .openrpc
        .as_deref()
        .map(|name| load_document(&args, name, &outcome))
    {
        None => None,
        Some(Ok(doc)) => Some(doc),
        Some(Err(written)) => {
            if let Err(e) = written {
                return super::output_failed(&e);
            }
            return ExitCode::from(2);
        }
    };
    let checker = Checker {
        profile,
        api: api.as_ref(),
    };
    let written = match args.format {
        Format::Json => json(&args, checker, &outcome),
        Format::Text => text(&args, checker, &outcome),
    };
    if let Err(e) = written {
        return super::output_failed(&e);
    }
    if outcome.unreadable.get() {
        ExitCode::from(2)
    } else if outcome.failing.get() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// What each input is checked with: the profile, and the API's document when one is given.
#[derive(Clone, Copy)]
struct Checker<'a> {
    profile: Profile,
    api: Option<&'a OpenRpc>,
}

impl Checker<'_> {
    fn check(self, src: &[u8]) -> Report {
        let mut report = check(src, self.profile);
        if matches!(self.profile, Profile::Mcp(_)) {
            crate::tool_schemas::check(src, &mut report);
        }
        if let Some(api) = self.api {
            openrpc::check(api, src, &mut report);
        }
        report
    }
}

/// `--lint`: the document `name` checked alone, its findings (errors that keep it from being
/// used, warnings that do not) written as for messages.
fn lint(args: &Args, name: &str, outcome: &Outcome) -> io::Result<()> {
    let Some(src) = document_source(args, name, outcome) else {
        outcome.unreadable.set(true);
        return Ok(());
    };
    let violations = match OpenRpc::load(&src) {
        Ok(doc) => doc.warnings().to_vec(),
        Err(e) => e.violations,
    };
    let report = document_report(&src, violations);
    outcome.saw(&report);
    write_document_report(args, name, &src, &report)
}

/// The findings about a document as a report of one input.
fn document_report(src: &[u8], violations: Vec<crate::rpc::Violation>) -> Report {
    Report {
        documents: vec![Document {
            kind: Kind::Invalid,
            span: Span::new(0, src.len()),
            direction: None,
            violations,
            items: Vec::new(),
            intent: None,
            method: None,
            id: None,
            error_code: None,
        }],
        transcript: false,
        profile: Profile::JsonRpc,
    }
}

/// Writes the findings about the document `name` in `--format`.
fn write_document_report(args: &Args, name: &str, src: &[u8], report: &Report) -> io::Result<()> {
    let lines = LineIndex::new(src);
    match args.format {
        Format::Text => {
            let choice = if io::stdout().is_terminal() {
                ColorChoice::Auto
            } else {
                ColorChoice::Never
            };
            let mut out = BufferedStandardStream::stdout(choice);
            diagnostic::render(&mut out, name, src, &lines, report).and_then(|()| out.flush())
        }
        Format::Json => {
            let mut out = diagnostic::JsonEscapes::new(io::BufWriter::new(io::stdout().lock()));
            let docs: Vec<_> = report
                .documents
                .iter()
                .map(|d| Report::document_json(d, src, &lines, Some(name)))
                .collect();
            serde_json::to_writer(&mut out, &serde_json::json!({"documents": docs, "profile": ProfileJson::from(Profile::JsonRpc)}))
                .map_err(io::Error::from)
                .and_then(|()| out.write_all(b"\n"))
                .and_then(|()| out.flush())
        }
    }
}

/// The bytes of `--openrpc DOC` (fetched when it is a URL); `None`: it could not be read, and
/// why was said.
fn document_source(args: &Args, name: &str, outcome: &Outcome) -> Option<Vec<u8>> {
    if super::probe::document::is_url(name) {
        return match super::probe::document::fetch(name) {
            Ok(src) => Some(src),
            Err(why) => {
                eprintln!(
                    "jrpc check: cannot fetch the OpenRPC document {}: {}",
                    diagnostic::printable(name),
                    diagnostic::printable(&why)
                );
                None
            }
        };
    }
    let max = args.max_bytes.min(MAX_DOCUMENT_BYTES as u64);
    read_input(name, max, outcome)
}

/// Reads and loads `--openrpc DOC`. Err: it could not be used, its findings (or why it could not
/// be read) are written, and the result of writing them is given back.
fn load_document(args: &Args, name: &str, outcome: &Outcome) -> Result<OpenRpc, io::Result<()>> {
    let Some(src) = document_source(args, name, outcome) else {
        return Err(Ok(()));
    };
    let failed = match OpenRpc::load(&src) {
        Ok(doc) => return Ok(doc),
        Err(e) => e,
    };
    let end = src.len();
    let report = Report {
        documents: vec![Document {
            kind: Kind::Invalid,
            span: Span::new(0, end),
            direction: None,
            violations: failed.violations,
            items: Vec::new(),
            intent: None,
            method: None,
            id: None,
            error_code: None,
        }],
        transcript: false,
        profile: Profile::JsonRpc,
    };
    eprintln!(
        "jrpc check: the OpenRPC document {} cannot be used (its findings follow)",
        diagnostic::printable(name)
    );
    let lines = LineIndex::new(&src);
    let written = match args.format {
        Format::Text => {
            let mut out = BufferedStandardStream::stdout(ColorChoice::Never);
            diagnostic::render(&mut out, name, &src, &lines, &report).and_then(|()| out.flush())
        }
        Format::Json => {
            let mut out = diagnostic::JsonEscapes::new(io::BufWriter::new(io::stdout().lock()));
            let docs: Vec<_> = report
                .documents
                .iter()
                .map(|d| Report::document_json(d, &src, &lines, Some(name)))
                .collect();
            serde_json::to_writer(&mut out, &serde_json::json!({"documents": docs, "profile": ProfileJson::from(Profile::JsonRpc)}))
                .map_err(io::Error::from)
                .and_then(|()| out.write_all(b"\n"))
                .and_then(|()| out.flush())
        }
    };
    Err(written)
}

/// Reads one input (a file, or `-` for standard input), at most `max` bytes; the error names it.
fn read_input(name: &str, max: u64, outcome: &Outcome) -> Option<Vec<u8>> {
    let shown = if name == "-" {
        "standard input".to_string()
    } else {
        diagnostic::printable(name)
    };
    let mut src = Vec::new();
    let read = if name == "-" {
        io::stdin().lock().take(max + 1).read_to_end(&mut src)
    } else {
        std::fs::File::open(name).and_then(|f| f.take(max + 1).read_to_end(&mut src))
    };
    let problem = match read {
        Err(e) => format!("cannot read {shown}: {e}"),
        Ok(_) if src.len() as u64 > max => {
            format!("{shown} is larger than {max} bytes (--max-bytes sets the limit)")
        }
        Ok(_) => return Some(src),
    };
    eprintln!("jrpc check: {problem}");
    outcome.unreadable.set(true);
    None
}

fn text(args: &Args, checker: Checker<'_>, outcome: &Outcome) -> io::Result<()> {
    // The crate's own colour decision (it honours NO_COLOR and TERM=dumb), only on a terminal.
    let choice = if io::stdout().is_terminal() {
        ColorChoice::Auto
    } else {
        ColorChoice::Never
    };
    let mut out = BufferedStandardStream::stdout(choice);
    for name in &args.files {
        let Some(src) = read_input(name, args.max_bytes, outcome) else {
            continue;
        };
        let report = checker.check(&src);
        outcome.saw(&report);
        diagnostic::render(&mut out, name, &src, &LineIndex::new(&src), &report)?;
    }
    out.flush()
}

/// The JSON report of every input: `{"documents": [...], "profile": {...}}`, each document with
/// its `"file"` last. Inputs are read and checked as the list is written.
#[derive(Serialize)]
struct Inputs<'a> {
    documents: Documents<'a>,
    profile: ProfileJson,
}

struct Documents<'a> {
    args: &'a Args,
    checker: Checker<'a>,
    outcome: &'a Outcome,
}

impl Serialize for Documents<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(None)?;
        for name in &self.args.files {
            let Some(src) = read_input(name, self.args.max_bytes, self.outcome) else {
                continue;
            };
            let report = self.checker.check(&src);
            self.outcome.saw(&report);
            let lines = LineIndex::new(&src);
            for doc in &report.documents {
                seq.serialize_element(&Report::document_json(doc, &src, &lines, Some(name)))?;
            }
        }
        seq.end()
    }
}

fn json(args: &Args, checker: Checker<'_>, outcome: &Outcome) -> io::Result<()> {
    let mut out = diagnostic::JsonEscapes::new(io::BufWriter::new(io::stdout().lock()));
    let report = Inputs {
        documents: Documents {
            args,
            checker,
            outcome,
        },
        profile: checker.profile.into(),
    };
    serde_json::to_writer(&mut out, &report).map_err(io::Error::from)?;
    out.write_all(b"\n")?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::Cli;

    fn args(line: &str) -> Result<Args, clap::Error> {
        let cli = Cli::try_parse_from(std::iter::once("jrpc").chain(line.split_whitespace()))?;
        match cli.command {
            crate::cli::Command::Check(args) => Ok(args),
            other => panic!("not check: {other:?}"),
        }
    }

    #[test]
    fn options_parse_as_documented() {
        let o =
            args("check --profile mcp --mcp-version 2025-03-26 --format json a.json -").unwrap();
        assert_eq!(o.profile(), Ok(Profile::Mcp(McpVersion::V2025_03_26)));
        assert_eq!(o.format, Format::Json);
        assert_eq!(o.files, ["a.json", "-"]);
        assert_eq!(
            args("check --profile=mcp").unwrap().profile(),
            Ok(Profile::Mcp(McpVersion::default()))
        );
        assert_eq!(
            args("check --mcp-version=2026-07-28").unwrap().profile(),
            Ok(Profile::Mcp(McpVersion::V2026_07_28))
        );
        assert_eq!(args("check").unwrap().profile(), Ok(Profile::JsonRpc));
    }

    #[test]
    fn bad_options_are_usage_errors() {
        for line in [
            "check --profile soap",
            "check --format xml",
            "check --mcp-version 1999-01-01",
            "check --format",
            "check --frobnicate",
            "check --max-bytes -1",
        ] {
            let e = args(line).unwrap_err();
            assert!(e.use_stderr(), "{line}");
            assert_eq!(e.exit_code(), 2, "{line}");
        }
        assert!(args("check --mcp-version 1999-01-01")
            .unwrap_err()
            .to_string()
            .contains("unknown MCP protocol version"));
        assert!(args("check --profile jsonrpc --mcp-version 2025-03-26")
            .unwrap()
            .profile()
            .is_err());
    }
}
