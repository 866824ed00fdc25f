//! The page's views loaded later (the teaching views: the rule reference with the API reference,
//! the quiz, the lessons; and the link panel's Probe), in a wasm module of their own that the
//! page loads on the first open of one of them (built by
//! Trunk for wasm32 like a worker binary, with a web target: index.html; src/web/js/boot.js loads it
//! on the main thread and calls `mount`; src/web/kit/views_port.rs says what crosses). On native it
//! only says where to look.

#[cfg(target_arch = "wasm32")]
fn main() {}

/// Mounts the views `host` is for into it (src/web/js/boot.js calls it once loaded, once per host).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn mount(host: web_sys::HtmlElement) {
    jsonrpc_playground::web::views::mount(host);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!(
        "later-views is the web app's views loaded later (the teaching views), loaded by the page: build the app with \
         Trunk (`bash scripts/serve.sh`).\nOn the command line use `jrpc check`."
    );
    std::process::ExitCode::from(2)
}
