//! A worker's end of the port, the main of every worker binary (the mock's, the API's, the
//! Probe's, the live link's): it reads the envelopes the page sends ([`crate::wire::envelope`]),
//! hands each request's body to the worker, and posts its answers (with the request's id) and
//! its events. Not generic: one compiled copy, whatever the worker speaks.

use serde::Serialize;
use serde_json::value::RawValue;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::js_sys;

use crate::wire::envelope::{self, ToWorker};

/// A request as the worker gets it: its id when it waits for an answer, and its body (JSON text,
/// read by the worker).
pub struct Request<'a> {
    pub id: Option<u32>,
    pub body: &'a str,
}

fn scope() -> web_sys::DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn post(text: &str) {
    let _ = scope().post_message(&JsValue::from_str(text));
}

/// The worker's main: `on_request` gets every request from now on; the page is told the worker
/// is ready.
pub fn serve(on_request: impl Fn(Request<'_>) + 'static) {
    let on_message =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let text = ev.data().as_string().unwrap_or_default();
            match serde_json::from_str::<ToWorker<&RawValue>>(&text) {
                Ok(ToWorker::Ask { id, body }) => on_request(Request {
                    id: Some(id),
                    body: body.get(),
                }),
                Ok(ToWorker::Tell { body }) => on_request(Request {
                    id: None,
                    body: body.get(),
                }),
                // The loader's, before this main ran.
                Ok(ToWorker::Load { .. }) => {}
                // The page and the worker come from one build: a message it cannot read is a
                // bug the console should show.
                Err(e) => web_sys::console::error_1(&format!("worker: {e}").into()),
            }
        });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(envelope::READY);
}

/// Answers the request `id` with `body`, already JSON text.
pub fn answer_text(id: u32, body: &str) {
    post(&envelope::answer_text(id, body));
}

/// Tells the page `body`, an event of the worker's own.
pub fn event(body: &impl Serialize) {
    post(&envelope::event_text(
        &serde_json::to_string(body).unwrap_or_default(),
    ));
}
