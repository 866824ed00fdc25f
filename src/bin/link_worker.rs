//! The live link's connection (WebSocket, HTTP with Server-Sent Events), in a worker of its own
//! (built by Trunk for wasm32 as a worker binary: index.html; the page starts it on the first
//! Connect). On native it only says where to look.

#[cfg(target_arch = "wasm32")]
fn main() {
    jsonrpc_playground::web::workers::link::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!(
        "link-worker is the web app's live link, run in a browser worker: build the app with \
         Trunk (`bash scripts/serve.sh`).\nOn the command line use `jrpc probe URL` or `jrpc tap`."
    );
    std::process::ExitCode::from(2)
}
