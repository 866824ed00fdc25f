//! The `jrpc` command line (native only): `jrpc check`, `jrpc serve`, `jrpc tap`, `jrpc probe`,
//! `jrpc replay`, `jrpc diff`, `jrpc completions`.
//!
//! One clap definition per subcommand, in its own module ([`check::Args`], [`serve::Args`]); this
//! module only dispatches. Usage errors exit 2 (the contract), `--help` and `--version` exit 0.

mod check;
mod diagnostic;
mod diff;
mod probe;
mod recording;
mod replay;
pub mod serve;
mod tap;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// JSON-RPC 2.0 (and MCP) on the command line: check messages, serve a mock.
#[derive(Debug, Parser)]
#[command(
    name = "jrpc",
    version,
    about,
    propagate_version = true,
    arg_required_else_help = true
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Check(check::Args),
    Serve(serve::Args),
    Tap(tap::Args),
    Probe(probe::Args),
    Replay(replay::Args),
    Diff(diff::Args),
    /// Print a shell completion script (e.g. `jrpc completions bash > /etc/bash_completion.d/jrpc`).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// The `--profile` of `check`, `tap` and `probe`: which rules messages are checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ProfileName {
    /// Plain JSON-RPC 2.0
    Jsonrpc,
    /// JSON-RPC 2.0 as the Model Context Protocol uses it
    Mcp,
}

/// The `--fail-on` of `check`, `probe` and `tap`: the least severe finding that makes the exit
/// status non-zero (spelled as linters spell it, e.g. Spectral's `--fail-severity`, accepted too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum FailOn {
    /// An error
    Error,
    /// A warning or an error
    #[value(alias = "warn")]
    Warning,
}

impl FailOn {
    /// Whether a finding of `severity` makes the exit status non-zero.
    pub(crate) fn fails(self, severity: crate::rpc::Severity) -> bool {
        match self {
            FailOn::Error => severity == crate::rpc::Severity::Error,
            FailOn::Warning => true,
        }
    }
}

/// Runs the command line with `args` (the program name first, as `std::env::args_os` gives them).
pub fn main(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return usage_exit(&e),
    };
    match cli.command {
        Command::Check(args) => check::main(args),
        Command::Serve(args) => serve::main(args),
        Command::Tap(args) => tap::main(args),
        Command::Probe(args) => probe::main(args),
        Command::Replay(args) => replay::main(args),
        Command::Diff(args) => diff::main(args),
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "jrpc", &mut out);
            write_stdout(&out)
        }
    }
}

/// The width the command line reference wraps its help text at (a terminal's is not known there).
const REFERENCE_WIDTH: usize = 100;

/// The command line reference in Markdown, `docs/cli.md`: each command's long help (`--help`) as
/// clap renders it from these definitions, so the page cannot say what the parser does not do.
/// `tests/cli_reference.rs` fails when the file differs (`CLI_REFERENCE_UPDATE=1` rewrites it).
pub fn reference_markdown() -> String {
    let mut root = Cli::command().term_width(REFERENCE_WIDTH);
    root.build();
    let mut page = String::from(
        "# `jrpc` command line reference\n\n\
         Every command's `--help`, generated from its clap definition (`src/cli/`): do not edit by \
         hand; `CLI_REFERENCE_UPDATE=1 cargo test --test cli_reference` rewrites it, and the same \
         test fails when it is out of date. What the commands do, with examples and figures: \
         [commands.md](commands.md).\n",
    );
    push_reference_section(&mut page, "jrpc", &mut root);
    // clap's own `help` subcommand says nothing `--help` does not.
    for subcommand in root
        .get_subcommands_mut()
        .filter(|s| s.get_name() != "help")
    {
        let name = format!("jrpc {}", subcommand.get_name());
        push_reference_section(&mut page, &name, subcommand);
    }
    page
}

/// Appends one command's heading and long help (as plain text, trailing spaces trimmed).
fn push_reference_section(page: &mut String, name: &str, command: &mut clap::Command) {
    let help = command.render_long_help().to_string();
    page.push_str(&format!("\n## `{name}`\n\n```text\n"));
    for line in help.trim_end().lines() {
        page.push_str(line.trim_end());
        page.push('\n');
    }
    page.push_str("```\n");
}

/// Prints a clap error or help text and gives its exit status: 0 for `--help`/`--version`, 2 for
/// a usage error (clap's own convention, and `jrpc`'s contract).
fn usage_exit(e: &clap::Error) -> ExitCode {
    let _ = e.print();
    ExitCode::from(if e.use_stderr() { 2 } else { 0 })
}

/// A usage error found after parsing (two options that contradict each other), reported the way
/// clap reports its own.
fn usage_error(
    subcommand: &str,
    kind: clap::error::ErrorKind,
    message: impl std::fmt::Display,
) -> ExitCode {
    let mut command = Cli::command();
    let command = command
        .find_subcommand_mut(subcommand)
        .expect("subcommand exists");
    usage_exit(&command.error(kind, message))
}

/// Writes `bytes` to stdout; a write error (a full disk, a closed pipe) is reported and exits 2.
fn write_stdout(bytes: &[u8]) -> ExitCode {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => output_failed(&e),
    }
}

/// A write to stdout failed: say so on stderr and exit 2 (nothing the command printed can be trusted).
fn output_failed(e: &std::io::Error) -> ExitCode {
    eprintln!("jrpc: cannot write the output: {e}");
    ExitCode::from(2)
}
