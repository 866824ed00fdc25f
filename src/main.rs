//! The web app's entry point (built by Trunk for wasm32). On native it only says where to look.

#[cfg(target_arch = "wasm32")]
fn main() {
    // Release builds abort on a panic without a word (scripts/web-build.sh: panic=immediate-abort,
    // no formatting machinery shipped); debug builds say what panicked in the console.
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
    if let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    {
        // The page lives as long as the tab: its owner is never dropped.
        std::mem::forget(jsonrpc_playground::ui::mount(&body));
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!(
        "jsonrpc-playground is the web app: build and serve it with Trunk (`bash scripts/serve.sh`).\n\
         On the command line use `jrpc` (`jrpc check FILE`, `jrpc serve`)."
    );
    std::process::ExitCode::from(2)
}
