//! The page's mock server under MCP: the same worker as `mock-worker`, built by Trunk with the
//! `mcp-schemas` feature (index.html), so that it checks a tools/call's arguments against the
//! tool's inputSchema as `jrpc serve` does. On native it only says where to look.

#[cfg(target_arch = "wasm32")]
fn main() {
    jsonrpc_playground::ui::start_mock_worker();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!(
        "mcp-mock-worker is the web app's mock server under MCP, run in a browser worker: build \
         the app with Trunk (`bash scripts/serve.sh`).\nOn the command line use `jrpc serve`."
    );
    std::process::ExitCode::from(2)
}
