//! The page's mock server, in a worker of its own (built by Trunk for wasm32 as a worker binary:
//! index.html; the page starts it on the first Send to the mock or the first lesson Run). On
//! native it only says where to look.

#[cfg(target_arch = "wasm32")]
fn main() {
    jsonrpc_playground::ui::start_mock_worker();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!(
        "mock-worker is the web app's mock server, run in a browser worker: build the app with \
         Trunk (`bash scripts/serve.sh`).\nOn the command line use `jrpc serve`."
    );
    std::process::ExitCode::from(2)
}
