//! What the UI takes from Leptos: its prelude (signals, memos, effects, the owner tree and
//! context, components and `view!`) and the DOM helpers (window, timers).

pub use leptos::prelude::*;

/// Runs a future on the page's executor (wasm-bindgen-futures).
pub fn spawn_local(fut: impl std::future::Future<Output = ()> + 'static) {
    leptos::task::spawn_local(fut);
}

/// Waits until the executor has run what is queued (tests: effects after a change).
pub async fn tick() {
    leptos::task::tick().await;
}
