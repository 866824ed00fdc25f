//! Where the API runs: the `api-worker` binary (src/bin/api_worker.rs), a worker the page starts
//! when it first needs the API (a document offered), loaded by the workers' loader
//! (src/ui/probe-boot.js) from the files `<meta name="app-entry">` names. Requests and answers
//! cross as JSON text, one answer per request, in order; requests sent before the worker is ready
//! wait for it.
//!
//! Checks are latest-wins: at most one [`ApiRequest::Check`] is with the worker at a time, and
//! while it is, a newer one waits in its place, replacing (and dropping, unanswered) the one that
//! waited before it. Typing fast thus queues no stale checks: the worker checks the text it was
//! last given and then the newest text, never each keystroke's.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use wasm_bindgen::{JsCast, JsValue};

use crate::api::{ApiAnswer, ApiRequest};
use crate::ui::js;
use crate::ui::lazy_worker::{WorkerEvent, WorkerEventKind};
use crate::ui::link::probe::messages::ProbeEvent;

/// What gets an answer.
pub type Then = Box<dyn FnOnce(ApiAnswer)>;

/// What gets the events of a probe the worker runs (the Probe under a document), and is told
/// when the worker fails ([`ProbeEvent::Unavailable`]).
pub type ProbeListener = Rc<dyn Fn(ProbeEvent)>;

/// The worker's side the page keeps: what waits for an answer, what waits for the worker.
#[derive(Default)]
struct Queue {
    ready: bool,
    /// Requests written before the worker was ready.
    unsent: Vec<String>,
    /// The answers' receivers, oldest first, each marked when it is a check's.
    waiting: VecDeque<(bool, Then)>,
    /// A check is with the worker (or waits for it to be ready).
    checking: bool,
    /// The newest check asked while one was with the worker: sent when that one is answered.
    held: Option<(String, Then)>,
    /// Told why, once, when the worker fails.
    failed: Option<Box<dyn FnOnce(String)>>,
    /// The worker failed: the next request starts a new one.
    dead: bool,
    /// The Probe's listener, if a probe was asked for.
    probe: Option<ProbeListener>,
}

/// The API's runner: no worker until the first request.
#[derive(Default)]
pub struct Runner {
    worker: Option<(web_sys::Worker, Rc<RefCell<Queue>>)>,
}

/// The loader and the API worker's glue and wasm, from `<meta name="app-entry">`.
fn worker_files() -> Option<(String, String, String)> {
    let [boot, js, wasm] = js::entry_files([
        "data-lazy-probe-boot",
        "data-lazy-api-js",
        "data-lazy-api-wasm",
    ])?;
    Some((boot, js, wasm))
}

impl Runner {
    pub fn new() -> Runner {
        Runner::default()
    }

    /// Whether the worker was started (and has not failed).
    pub fn started(&self) -> bool {
        self.worker
            .as_ref()
            .is_some_and(|(_, queue)| !queue.borrow().dead)
    }

    /// Starts the worker; why not, in words.
    fn start(&mut self) -> Result<(), String> {
        let (boot, js_file, wasm) =
            worker_files().ok_or("this build of the page names no files for the API's worker")?;
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        let worker = web_sys::Worker::new_with_options(&boot, &options).map_err(|e| {
            format!(
                "its worker did not start ({})",
                crate::ui::js_error_text(&e)
            )
        })?;
        let queue = Rc::new(RefCell::new(Queue::default()));
        let on_message = {
            let queue = Rc::clone(&queue);
            let worker = worker.clone();
            move |ev: web_sys::Event| {
                let data = ev.unchecked_ref::<web_sys::MessageEvent>().data();
                let text = data.as_string().unwrap_or_default();
                if let Some(Ok(event)) = WorkerEvent::read(&text) {
                    match event.event {
                        WorkerEventKind::Ready => {
                            let unsent = {
                                let mut q = queue.borrow_mut();
                                q.ready = true;
                                std::mem::take(&mut q.unsent)
                            };
                            for request in unsent {
                                let _ = worker.post_message(&JsValue::from_str(&request));
                            }
                        }
                        WorkerEventKind::Unavailable => fail(
                            &queue,
                            format!("its worker's files did not load ({}); reload the page and try again", event.reason),
                        ),
                    }
                    return;
                }
                // A probe's outcome, posted apart from the answers.
                if ProbeEvent::is_probe_event(&text) {
                    let Ok(event) = serde_json::from_str::<ProbeEvent>(&text) else {
                        return fail(&queue, "its worker's probe event is not readable".into());
                    };
                    let listener = queue.borrow().probe.clone();
                    if let Some(listener) = listener {
                        listener(event);
                    }
                    return;
                }
                let then = {
                    let mut q = queue.borrow_mut();
                    let then = q.waiting.pop_front();
                    if then.as_ref().is_some_and(|(check, _)| *check) {
                        q.checking = false;
                        if let Some((request, then)) = q.held.take() {
                            q.checking = true;
                            q.waiting.push_back((true, then));
                            let _ = worker.post_message(&JsValue::from_str(&request));
                        }
                    }
                    then.map(|(_, then)| then)
                };
                match (serde_json::from_str::<ApiAnswer>(&text), then) {
                    (Ok(answer), Some(then)) => then(answer),
                    (Err(e), _) => {
                        fail(&queue, format!("its worker's answer is not readable: {e}"))
                    }
                    (Ok(_), None) => {}
                }
            }
        };
        js::listen_forever(worker.unchecked_ref(), "message", on_message);
        {
            let queue = Rc::clone(&queue);
            js::listen_forever(worker.unchecked_ref(), "error", move |ev| {
                let message = ev
                    .dyn_ref::<web_sys::ErrorEvent>()
                    .map(web_sys::ErrorEvent::message)
                    .filter(|m| !m.is_empty())
                    .unwrap_or_else(|| "its script did not load".into());
                fail(
                    &queue,
                    format!("its worker failed: {message}; reload the page and try again"),
                );
            });
        }
        let load = serde_json::json!({"request": "load", "js": js_file, "wasm": wasm});
        let _ = worker.post_message(&JsValue::from_str(&load.to_string()));
        self.worker = Some((worker, queue));
        Ok(())
    }

    /// Sends `request`; `then` gets its answer later (never before this returns). `failed` is
    /// told why when the worker cannot answer.
    pub fn ask(&mut self, request: ApiRequest, then: Then, failed: impl FnOnce(String) + 'static) {
        self.send(request, then, Box::new(failed), None);
    }

    /// Sends a probe's request: `listener` gets its events, and why when the worker cannot
    /// start or fails ([`ProbeEvent::Unavailable`]).
    pub fn probe(&mut self, request: ApiRequest, listener: ProbeListener) {
        let told = Rc::clone(&listener);
        let failed = move |reason: String| told(ProbeEvent::Unavailable { reason });
        self.send(request, Box::new(|_| {}), Box::new(failed), Some(listener));
    }

    fn send(
        &mut self,
        request: ApiRequest,
        then: Then,
        failed: Box<dyn FnOnce(String)>,
        probe: Option<ProbeListener>,
    ) {
        if let Some((worker, _)) = self.worker.take_if(|(_, queue)| queue.borrow().dead) {
            worker.terminate();
        }
        if self.worker.is_none() {
            if let Err(why) = self.start() {
                failed(why);
                return;
            }
        }
        let Some((worker, queue)) = &self.worker else {
            return;
        };
        let check = matches!(request, ApiRequest::Check { .. });
        // Serialising these plain structs cannot fail.
        let text = serde_json::to_string(&request).unwrap_or_default();
        let mut q = queue.borrow_mut();
        // A probe's listener is told of a failure; the rest of the page by `failed`.
        match probe {
            Some(listener) => q.probe = Some(listener),
            None => q.failed = Some(failed),
        }
        if check && q.checking {
            q.held = Some((text, then));
            return;
        }
        q.checking |= check;
        q.waiting.push_back((check, then));
        if q.ready {
            let _ = worker.post_message(&JsValue::from_str(&text));
        } else {
            q.unsent.push(text);
        }
    }
}

/// The worker failed: what waits gets no answer, and the page is told why (once).
fn fail(queue: &Rc<RefCell<Queue>>, why: String) {
    let failed = {
        let mut q = queue.borrow_mut();
        q.dead = true;
        q.waiting.clear();
        q.unsent.clear();
        q.held = None;
        q.checking = false;
        (q.failed.take(), q.probe.take())
    };
    if let Some(probe) = failed.1 {
        probe(ProbeEvent::Unavailable {
            reason: why.clone(),
        });
    }
    if let Some(failed) = failed.0 {
        failed(why);
    }
}
