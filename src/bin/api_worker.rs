//! Your API (an OpenRPC document loaded into the page: its checks, mock and reference), in a
//! worker of its own (built by Trunk for wasm32 as a worker binary: index.html; the page starts it
//! when a document is first loaded). On native it only says where to look.

#[cfg(target_arch = "wasm32")]
fn main() {
    jsonrpc_playground::web::workers::api::start_worker();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!(
        "api-worker is the web app's OpenRPC API, run in a browser worker: build the app with Trunk \
         (`bash scripts/serve.sh`).\nOn the command line use `jrpc check --openrpc DOC`."
    );
    std::process::ExitCode::from(2)
}
