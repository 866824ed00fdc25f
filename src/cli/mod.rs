//! The `jrpc` command line (native only): `jrpc check`, `jrpc serve`.

mod check;
pub mod serve;

use std::process::ExitCode;

pub const USAGE: &str =
    "usage: jrpc check [--profile jsonrpc|mcp] [--mcp-version V] [--format text|json] [FILE ...]
       jrpc serve [--ws ADDR] [--http ADDR] [--allow-remote] [--exit-after SECS] [--verbose]
       jrpc --help | --version";

/// Runs the command line with `args` (without the program name).
pub fn main(args: &[String]) -> ExitCode {
    match args.first().map(String::as_str) {
        Some("check") => check::main(&args[1..]),
        Some("serve") => serve::main(&args[1..]),
        Some("--version" | "-V") => {
            println!("jrpc {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Some("--help" | "-h" | "help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}
