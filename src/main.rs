//! The web app's entry point (built by Trunk for wasm32). On native it only says where to look.

#[cfg(target_arch = "wasm32")]
fn main() {
    // Debug builds say what panicked in the console (release builds keep the hook out).
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(jsonrpc_playground::ui::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!(
        "jsonrpc-playground is the web app: build and serve it with Trunk (`bash scripts/serve.sh`).\n\
         On the command line use `jrpc` (`jrpc check FILE`, `jrpc serve`)."
    );
    std::process::ExitCode::from(2)
}
