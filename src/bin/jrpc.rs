//! `jrpc`: the engine on the command line.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    jsonrpc_playground::cli::main(&args)
}

#[cfg(target_arch = "wasm32")]
fn main() {}
