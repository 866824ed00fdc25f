//! `jrpc`: the engine on the command line.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    jsonrpc_playground::cli::main(std::env::args_os())
}

#[cfg(target_arch = "wasm32")]
fn main() {}
