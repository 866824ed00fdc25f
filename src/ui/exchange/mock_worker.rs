//! The mock's worker (the `mock-worker` binary, src/bin/mock_worker.rs, which Trunk builds into a
//! wasm of its own that the page fetches on the first Send or lesson Run): it keeps the page's
//! mock sessions ([`MockSessions`]) and answers each [`crate::exchange::mock_worker::MockRequest`]
//! text with its answer's text, in order. Nothing here touches the page's DOM or Leptos: this and
//! the engine's mock are what the worker's wasm holds, and the page's wasm no longer does.

use std::cell::RefCell;

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{closure::Closure, JsCast, JsValue};
use web_sys::js_sys;

use crate::exchange::mock_worker::MockSessions;

#[wasm_bindgen]
extern "C" {
    /// The worker's `performance.now()` (milliseconds since it started, sub-millisecond).
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// The worker's main: answers the page's requests from now on and says it is ready.
pub fn start() {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    // Unix epoch milliseconds with sub-millisecond steps, as the page's log clock.
    let origin = js_sys::Date::now() - performance_now();
    let sessions = RefCell::new(MockSessions::new());
    let on_message =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let request = ev.data().as_string().unwrap_or_default();
            let answer = sessions
                .borrow_mut()
                .answer_text(&request, &mut || origin + performance_now());
            let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
            let _ = scope.post_message(&JsValue::from_str(&answer));
        });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = scope.post_message(&JsValue::from_str(r#"{"event": "ready"}"#));
}
