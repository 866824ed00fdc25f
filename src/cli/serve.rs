//! `jrpc serve`: the mock server on stdio, as MCP's stdio transport frames it — one JSON-RPC
//! message (or batch) per line in, one reply per line out, nothing for notifications. Logs go to
//! stderr only; stdout carries nothing but replies.

use std::io::{self, BufRead, IsTerminal, Write};
use std::process::ExitCode;

use crate::mock::MockServer;

pub const USAGE: &str = "usage: jrpc serve [--verbose]

Reads newline-delimited JSON-RPC 2.0 on stdin and writes one reply line per request to stdout
(nothing for notifications). It answers the JSON-RPC 2.0 specification's examples (subtract, sum,
get_data, …) and is an MCP server (initialize, server/discover, tools, resources, prompts).

  -v, --verbose   log every message and reply on stderr

example:
  echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}' | jrpc serve";

/// Runs `jrpc serve` with its arguments.
pub fn main(args: &[String]) -> ExitCode {
    let mut verbose = false;
    for arg in args {
        match arg.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "-v" | "--verbose" => verbose = true,
            other => {
                eprintln!("jrpc serve: unknown argument {other:?}\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let stdin = io::stdin();
    if stdin.is_terminal() {
        eprintln!("jrpc serve: reading JSON-RPC messages, one per line (Ctrl-D ends)");
    }
    match serve(stdin.lock(), io::stdout().lock(), verbose) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away: nobody is left to answer.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("jrpc serve: {e}");
            ExitCode::from(1)
        }
    }
}

/// Answers each line of `input` on `output` until the end of input.
pub fn serve(mut input: impl BufRead, mut output: impl Write, verbose: bool) -> io::Result<()> {
    let mut server = MockServer::new();
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
            eprintln!("--> {}", String::from_utf8_lossy(line.trim_ascii()));
        }
        match server.handle(&line) {
            Some(reply) => {
                if verbose {
                    eprintln!("<-- {reply}");
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
