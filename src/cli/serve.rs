//! `jrpc serve`: the mock server. On stdio (the default) as MCP's stdio transport frames it — one
//! JSON-RPC message (or batch) per line in, one reply per line out, nothing for notifications. With
//! `--ws ADDR` and/or `--http ADDR` it serves the same mock over WebSocket and HTTP instead (see
//! [`net`]). Logs go to stderr only; stdout carries nothing but replies.

use std::io::{self, BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use crate::mock::MockServer;

mod net;

pub const USAGE: &str = "usage: jrpc serve [--verbose]
       jrpc serve [--ws ADDR] [--http ADDR] [--allow-remote] [--exit-after SECS] [--verbose]

With no --ws or --http, reads newline-delimited JSON-RPC 2.0 on stdin and writes one reply line per
request to stdout (nothing for notifications). It answers the JSON-RPC 2.0 specification's examples
(subtract, sum, get_data, …) and is an MCP server (initialize, server/discover, tools, resources,
prompts).

  --ws ADDR          serve over WebSocket on ADDR (e.g. 127.0.0.1:8765; port 0 picks a free port):
                     one text frame per message or batch in, one text frame per reply out, nothing
                     for notifications; a binary frame is answered with a -32700 parse error and
                     the connection stays open. Each connection has its own mock server.
  --http ADDR        serve over HTTP on ADDR (any path): POST application/json, answered with 200
                     and the reply, 202 and no body when there is nothing to return, 400 when the
                     input is not JSON or not a request; `initialize` starts an MCP session
                     (Mcp-Session-Id). CORS allows any origin.
  --allow-remote     allow an ADDR that is not loopback (e.g. 0.0.0.0:8765): without it only
                     127.0.0.1, ::1 and localhost are accepted, as the mock is for this machine
  --exit-after SECS  stop by itself after SECS seconds (Ctrl+C or SIGTERM stop it too)
  -v, --verbose      log every message and reply on stderr

ADDR is HOST:PORT, or a bare PORT for 127.0.0.1:PORT. Both --ws and --http may be given (on
different ports). The listening URLs are printed on stderr; a port in use exits with status 2.

examples:
  echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}' | jrpc serve
  jrpc serve --ws 127.0.0.1:8765 --http 127.0.0.1:8766";

/// Runs `jrpc serve` with its arguments.
pub fn main(args: &[String]) -> ExitCode {
    let mut options = net::Options::default();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        // `--flag=value` or `--flag value`.
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| args.next().cloned())
                .ok_or(format!("{flag} needs a value"))
        };
        let problem = match flag {
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "-v" | "--verbose" => {
                options.verbose = true;
                None
            }
            "--allow-remote" => {
                options.allow_remote = true;
                None
            }
            "--ws" => value().map(|v| options.ws = Some(v)).err(),
            "--http" => value().map(|v| options.http = Some(v)).err(),
            "--exit-after" => match value().map(|v| (v.parse::<f64>(), v)) {
                Ok((Ok(secs), _)) if secs.is_finite() && secs > 0.0 => {
                    options.exit_after = Some(Duration::from_secs_f64(secs));
                    None
                }
                Ok((_, v)) => Some(format!(
                    "--exit-after needs a positive number of seconds, not {v:?}"
                )),
                Err(e) => Some(e),
            },
            _ => Some(format!("unknown argument {arg:?}")),
        };
        if let Some(problem) = problem {
            eprintln!("jrpc serve: {problem}\n{USAGE}");
            return ExitCode::from(2);
        }
    }
    if options.ws.is_some() || options.http.is_some() {
        return net::main(&options);
    }
    if options.allow_remote || options.exit_after.is_some() {
        eprintln!(
            "jrpc serve: --allow-remote and --exit-after only apply with --ws or --http\n{USAGE}"
        );
        return ExitCode::from(2);
    }
    let stdin = io::stdin();
    if stdin.is_terminal() {
        eprintln!("jrpc serve: reading JSON-RPC messages, one per line (Ctrl-D ends)");
    }
    match serve(stdin.lock(), io::stdout().lock(), options.verbose) {
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
