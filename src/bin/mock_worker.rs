//! The page's mock server, in a worker of its own (built by Trunk for wasm32 as a worker binary:
//! index.html; the page starts it on the first Send to the mock or the first lesson Run). On
//! native it only says where to look. `mcp-mock-worker` (src/bin/mcp_mock_worker.rs) is this main
//! too, built with the `mcp-schemas` feature.

#[cfg(target_arch = "wasm32")]
pub(crate) fn main() {
    jsonrpc_playground::web::workers::mock::start();
}

#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn main() -> std::process::ExitCode {
    eprintln!(
        "{} is the web app's mock server, run in a browser worker: build the app with Trunk \
         (`bash scripts/serve.sh`).\nOn the command line use `jrpc serve`.",
        env!("CARGO_BIN_NAME")
    );
    std::process::ExitCode::from(2)
}
