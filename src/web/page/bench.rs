//! Entry points for the browser benchmark (`node scripts/bench-browser.mjs`): the engine called
//! from JavaScript on a string, exactly as the editor calls it (the string crosses into wasm
//! memory as UTF-8, then [`crate::rpc::check`] runs). Not used by the page itself. Exported by
//! the page's binary (src/main.rs), not here: a worker binary that links this library would
//! carry them (and the engine's checker) too.

use crate::rpc::{self, Profile};

/// Checks `text` as plain JSON-RPC 2.0 and returns how many documents, batch elements and
/// violations it found (so the work cannot be skipped, and the caller can see it was done).
pub fn bench_check(text: &js_sys::JsString) -> u32 {
    // Into wasm memory as the editor reads its textarea (super::js::utf8_of).
    let text = crate::web::kit::js::utf8_of(text);
    let report = rpc::check_text(&text, Profile::JsonRpc);
    let items: usize = report.documents.iter().map(|d| 1 + d.items.len()).sum();
    (items + report.violations().count()) as u32
}

/// Only the boundary: `text` crosses into wasm memory as UTF-8 (the copy [`bench_check`] makes)
/// and is freed, nothing else: how much of `benchCheck` is not the engine.
pub fn bench_copy(text: &js_sys::JsString) -> u32 {
    crate::web::kit::js::utf8_of(text).len() as u32
}

/// The wasm linear memory in bytes (it only grows: the high-water mark of the heap).
pub fn bench_heap_bytes() -> u32 {
    (core::arch::wasm32::memory_size(0) * 65536) as u32
}
