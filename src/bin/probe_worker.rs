//! The link panel's Probe, in a worker of its own (built by Trunk for wasm32 as a worker binary:
//! index.html; the page starts it on the first Probe). On native it only says where to look.

#[cfg(target_arch = "wasm32")]
fn main() {
    jsonrpc_playground::web::workers::probe::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!(
        "probe-worker is the web app's Probe, run in a browser worker: build the app with Trunk \
         (`bash scripts/serve.sh`).\nOn the command line use `jrpc probe URL`."
    );
    std::process::ExitCode::from(2)
}
