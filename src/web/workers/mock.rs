//! The mock's worker (the `mock-worker` binary, src/bin/mock_worker.rs, which Trunk builds into a
//! wasm of its own that the page fetches on the first Send or lesson Run): it keeps the page's
//! mock sessions ([`MockSessions`]) and answers each [`crate::exchange::mock_worker::MockRequest`]
//! text with its answer's text, in order. Nothing here touches the page's DOM or Leptos: this and
//! the engine's mock are what the worker's wasm holds, and the page's wasm no longer does.

use std::cell::RefCell;

use wasm_bindgen::prelude::wasm_bindgen;
use web_sys::js_sys;

use crate::exchange::mock_worker::MockSessions;
use crate::web::workers::port;

#[wasm_bindgen]
extern "C" {
    /// The worker's `performance.now()` (milliseconds since it started, sub-millisecond).
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// The worker's main: answers the page's requests from now on.
pub fn start() {
    // Unix epoch milliseconds with sub-millisecond steps, as the page's log clock.
    let origin = js_sys::Date::now() - performance_now();
    let sessions = RefCell::new(MockSessions::new());
    port::serve(move |request| {
        let answer = sessions
            .borrow_mut()
            .answer_text(request.body, &mut || origin + performance_now());
        if let Some(id) = request.id {
            port::answer_text(id, &answer);
        }
    });
}
