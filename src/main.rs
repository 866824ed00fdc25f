//! The web app's entry point (built by Trunk for wasm32). On native it only says where to look.

#[cfg(target_arch = "wasm32")]
fn main() {
    // Debug builds say what panicked in the console (release builds keep the hook out).
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(jsonrpc_playground::web::page::App);
}

/// The page's exports to JavaScript (here, not in the library, so that the worker binaries that
/// link the library do not carry them): the checking worker's entry (src/web/js/check-worker.js) and
/// the browser benchmark's (scripts/bench-browser.mjs).
#[cfg(target_arch = "wasm32")]
mod exports {
    use jsonrpc_playground::web::page::bench;
    use jsonrpc_playground::web::workers::check::worker_check;
    use wasm_bindgen::prelude::wasm_bindgen;

    #[wasm_bindgen(js_name = workerCheck)]
    pub fn worker_check_export(request: &str, text: &str) -> String {
        worker_check(request, text)
    }

    #[wasm_bindgen(js_name = benchCheck)]
    pub fn bench_check(text: &js_sys::JsString) -> u32 {
        bench::bench_check(text)
    }

    #[wasm_bindgen(js_name = benchCopy)]
    pub fn bench_copy(text: &js_sys::JsString) -> u32 {
        bench::bench_copy(text)
    }

    #[wasm_bindgen(js_name = benchHeapBytes)]
    pub fn bench_heap_bytes() -> u32 {
        bench::bench_heap_bytes()
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
