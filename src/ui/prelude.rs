//! What the UI takes from Leptos: the reactive core (`reactive_graph`: signals, memos, effects,
//! the owner tree and context) and the DOM helpers of `leptos_dom` (window, timers). Leptos' own
//! umbrella crate is not a dependency: it always brings server functions (`server_fn` with
//! wasm-streams, whose exported classes wasm-bindgen must keep), which a static site cannot use.

pub use leptos_dom::helpers::*;
pub use reactive_graph::callback::*;
pub use reactive_graph::computed::*;
pub use reactive_graph::effect::*;
pub use reactive_graph::owner::*;
pub use reactive_graph::prelude::*;
pub use reactive_graph::signal::*;
pub use reactive_graph::wrappers::read::*;

/// Runs a future on the page's executor (wasm-bindgen-futures).
pub fn spawn_local(fut: impl std::future::Future<Output = ()> + 'static) {
    any_spawner::Executor::spawn_local(fut);
}

/// Waits until the executor has run what is queued (tests: effects after a change).
pub async fn tick() {
    any_spawner::Executor::tick().await;
}
