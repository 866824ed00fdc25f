//! `jrpc serve`: the mock server on stdio.

use std::process::ExitCode;

/// Runs `jrpc serve` with its arguments.
pub fn main(_args: &[String]) -> ExitCode {
    eprintln!("jrpc serve: not built yet");
    ExitCode::from(2)
}
