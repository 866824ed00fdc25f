//! Checking a large text off the main thread.
//!
//! The engine checks 10 MB in a few hundred milliseconds: on the page's thread that is a freeze.
//! Above [`LARGE_BYTES`](super::state::LARGE_BYTES) the text goes to a module worker (src/web/js/check-worker.js, copied beside
//! the app's files by Trunk) that loads the same wasm and runs the same [`Analysis::run`] through
//! [`worker_check`]; the question and the answer are JSON (serde: [`CheckRequest`],
//! [`CheckAnswer`]). Meanwhile the page shows
//! "checking" and stays usable. Without a worker (none can start, or it fails) the page checks on
//! its own thread as before: nothing is lost, it is only slower.

use crate::web::kit::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::rpc::Profile;
use crate::saved::profile_to_string;
use crate::web::kit::js;
use crate::wire::check::{CheckAnswer, CheckRequest};

/// A fingerprint of a text and profile (FNV-style, eight bytes a step): an answer belongs to the
/// text the page holds now only if their fingerprints match.
pub fn fingerprint(text: &str, profile: Profile) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ text.len() as u64;
    let mix = |h: u64, x: u64| (h ^ x).wrapping_mul(0x0100_0000_01b3).rotate_left(29);
    let bytes = text.as_bytes();
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        h = mix(
            h,
            u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]),
        );
    }
    for &b in chunks
        .remainder()
        .iter()
        .chain(profile_to_string(profile).as_bytes())
    {
        h = mix(h, u64::from(b));
    }
    h
}

/// The page's side: the worker (started on first use) and its latest answer.
#[derive(Clone, Copy)]
pub struct Offload {
    worker: StoredValue<Option<web_sys::Worker>, LocalStorage>,
    /// False once the worker could not start or failed: the page checks on its own.
    pub usable: RwSignal<bool>,
    /// The latest answer: the fingerprint it is for, and the encoded analysis.
    pub answer: RwSignal<Option<(u64, String)>>,
}

/// The app's files, from `<meta name="app-entry">` (absent in tests: no worker then).
fn entry() -> Option<(String, String, String)> {
    let meta = document()
        .query_selector("meta[name=app-entry]")
        .ok()
        .flatten()?;
    let (js, wasm, worker) = (
        meta.get_attribute("data-js")?,
        meta.get_attribute("data-wasm")?,
        meta.get_attribute("data-worker")?,
    );
    let base = document().base_uri().ok().flatten()?;
    let abs = |p: &str| web_sys::Url::new_with_base(p, &base).ok().map(|u| u.href());
    Some((abs(&js)?, abs(&wasm)?, abs(&worker)?))
}

impl Offload {
    pub fn new() -> Offload {
        let usable = entry().is_some()
            && js_sys::Reflect::has(&js_sys::global(), &JsValue::from_str("Worker"))
                .unwrap_or(false);
        Offload {
            worker: StoredValue::new_local(None),
            usable: RwSignal::new(usable),
            answer: RwSignal::new(None),
        }
    }

    /// Asks the worker to check `text`; the answer arrives in [`Offload::answer`].
    pub fn ask(&self, fp: u64, text: &str, profile: Profile) {
        let Some((js, wasm, url)) = entry() else {
            self.usable.set(false);
            return;
        };
        if self.worker.with_value(Option::is_none) {
            let options = web_sys::WorkerOptions::new();
            options.set_type(web_sys::WorkerType::Module);
            let Ok(worker) = web_sys::Worker::new_with_options(&url, &options) else {
                self.usable.set(false);
                return;
            };
            let (answer_signal, usable) = (self.answer, self.usable);
            js::listen_forever(worker.unchecked_ref(), "message", move |ev| {
                let data = ev.unchecked_ref::<web_sys::MessageEvent>().data();
                let answer = data
                    .as_string()
                    .and_then(|json| serde_json::from_str::<CheckAnswer>(&json).ok());
                let done = answer.and_then(|a| {
                    let fp = a.fp?.parse::<u64>().ok()?;
                    Some((fp, a.analysis?.get().to_string()))
                });
                match done {
                    Some(done) => answer_signal.set(Some(done)),
                    // The worker failed (it said why in `error`): the page checks on its own.
                    None => usable.set(false),
                }
            });
            js::listen_forever(worker.unchecked_ref(), "error", move |_| usable.set(false));
            self.worker.set_value(Some(worker));
        }
        let request = CheckRequest {
            fp: fp.to_string(),
            profile: profile_to_string(profile),
            js,
            wasm,
        };
        let message = js_sys::Object::new();
        js::set_prop(
            &message,
            "request",
            &JsValue::from_str(&serde_json::to_string(&request).unwrap_or_default()),
        );
        js::set_prop(&message, "text", &JsValue::from_str(text));
        let sent = self
            .worker
            .with_value(|w| w.as_ref().map(|w| w.post_message(&message).is_ok()));
        if sent != Some(true) {
            self.usable.set(false);
        }
    }
}
