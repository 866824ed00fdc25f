//! A worker binary the page starts on first use (Trunk's `data-type="worker"`: the mock's, the
//! API's, the Probe's and the live link's), loaded by the workers' loader (src/web/js/worker-boot.js)
//! from the files `<meta name="app-entry">` names. Everything crosses in the one envelope
//! ([`crate::wire::envelope`]): a request asked with [`LazyWorker::ask`] carries an id and its
//! answer the same id; what the worker says of its own comes as an event, handed to the hook
//! given at [`LazyWorker::new`]; requests written before the worker is ready wait for it. A
//! worker whose files do not load, that fails, or whose answer the page cannot read, is said once
//! (`failed`, with the files it is about), what waited gets no answer, and the next request
//! starts a new worker. Requests asked with [`LazyWorker::ask_latest`] are latest-wins (the
//! API's checks). Not generic on purpose: one compiled copy, whatever the worker speaks (bodies
//! cross as their JSON text).

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::value::RawValue;
use wasm_bindgen::{JsCast, JsValue};

use crate::web::kit::js;
use crate::wire::envelope::{self, FromWorker, ToWorker};

/// What gets an answer's body; an error says why it is not readable (the worker then fails).
pub type Then = Box<dyn FnOnce(&RawValue) -> Result<(), String>>;
/// What is told why the worker cannot answer.
pub type Failed = Box<dyn FnOnce(String)>;
/// What gets each event's body; an error says why it is not readable (the worker then fails).
pub type Events = Rc<dyn Fn(&RawValue) -> Result<(), String>>;

/// An answer waited for: its request's id, whether it is latest-wins, who gets it.
struct Waiting {
    id: u32,
    latest: bool,
    then: Then,
}

/// The worker's side the page keeps: what waits for an answer, what waits for the worker.
#[derive(Default)]
struct Queue {
    ready: bool,
    /// Requests written before the worker was ready (their envelopes).
    unsent: Vec<String>,
    /// The answers waited for (a few at a time).
    waiting: Vec<Waiting>,
    /// The id of the next request.
    next_id: u32,
    /// A latest-wins request is with the worker (or waits for it to be ready).
    latest_out: bool,
    /// The newest latest-wins request asked while one was out (its body and receiver): sent when
    /// that one is answered.
    held: Option<(String, Then)>,
    /// Told why, once, when the worker fails.
    failed: Option<Failed>,
    /// The worker failed: the next request starts a new one.
    dead: bool,
}

impl Queue {
    /// Sends `envelope` now, or once the worker is ready.
    fn send(&mut self, worker: &web_sys::Worker, envelope: String) {
        if self.ready {
            let _ = worker.post_message(&JsValue::from_str(&envelope));
        } else {
            self.unsent.push(envelope);
        }
    }

    /// Asks `body` with a new id; `then` gets the answer.
    fn ask(&mut self, worker: &web_sys::Worker, latest: bool, body: &str, then: Then) {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        self.waiting.push(Waiting { id, latest, then });
        self.send(worker, envelope::ask_text(id, body));
    }
}

/// The `<meta name="app-entry">` attribute naming the workers' loader (src/web/js/worker-boot.js),
/// the same for every worker.
const LOADER: &str = "data-lazy-worker-boot";

/// One worker binary, started on the first request.
pub struct LazyWorker {
    /// The `<meta name="app-entry">` attributes naming the worker's glue and wasm.
    files: [&'static str; 2],
    /// Shown every message first (`None`: the worker posts only answers).
    events: Option<Events>,
    worker: Option<(web_sys::Worker, Rc<RefCell<Queue>>)>,
}

/// The last part of a URL (a file's name), for saying which file did not load.
fn file_name(url: &str) -> &str {
    url.rsplit('/').next().unwrap_or(url)
}

impl LazyWorker {
    /// A worker whose loader, glue and wasm `<meta name="app-entry">` names in `files`; `events`
    /// takes what it posts besides answers.
    pub fn new(files: [&'static str; 2], events: Option<Events>) -> LazyWorker {
        LazyWorker {
            files,
            events,
            worker: None,
        }
    }

    /// Whether the worker was started (and has not failed).
    pub fn started(&self) -> bool {
        self.worker
            .as_ref()
            .is_some_and(|(_, queue)| !queue.borrow().dead)
    }

    /// Starts the worker; why not, in words.
    fn start(&mut self) -> Result<(), String> {
        let [glue, wasm] = js::entry_files(self.files)
            .ok_or("this build of the page names no files for its worker")?;
        let [boot] = js::entry_files([LOADER])
            .ok_or("this build of the page names no loader for its workers")?;
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        let worker = web_sys::Worker::new_with_options(&boot, &options).map_err(|e| {
            format!(
                "its worker did not start ({})",
                crate::web::kit::js::js_error_text(&e)
            )
        })?;
        let files = format!("{}, {}", file_name(&glue), file_name(&wasm));
        let queue = Rc::new(RefCell::new(Queue::default()));
        let on_message = {
            let queue = Rc::clone(&queue);
            let worker = worker.clone();
            let events = self.events.clone();
            move |ev: web_sys::Event| {
                let data = ev.unchecked_ref::<web_sys::MessageEvent>().data();
                let text = data.as_string().unwrap_or_default();
                let said = match serde_json::from_str::<FromWorker<&RawValue>>(&text) {
                    Ok(said) => said,
                    Err(e) => {
                        return fail(&queue, format!("its worker said something unreadable: {e}"))
                    }
                };
                match said {
                    FromWorker::Ready => {
                        let unsent = {
                            let mut q = queue.borrow_mut();
                            q.ready = true;
                            std::mem::take(&mut q.unsent)
                        };
                        for envelope in unsent {
                            let _ = worker.post_message(&JsValue::from_str(&envelope));
                        }
                    }
                    FromWorker::Unavailable { reason } => fail(
                        &queue,
                        format!("its worker's files ({files}) did not load: {reason}; reload the page and try again"),
                    ),
                    FromWorker::Event { body } => {
                        let heard = events.as_ref().map_or(Ok(()), |events| events(body));
                        if let Err(why) = heard {
                            fail(&queue, format!("its worker said something unreadable: {why}"));
                        }
                    }
                    FromWorker::Answer { id, body } => {
                        let then = {
                            let mut q = queue.borrow_mut();
                            let at = q.waiting.iter().position(|w| w.id == id);
                            let answered = at.map(|at| q.waiting.remove(at));
                            if answered.as_ref().is_some_and(|w| w.latest) {
                                q.latest_out = false;
                                if let Some((body, then)) = q.held.take() {
                                    q.latest_out = true;
                                    q.ask(&worker, true, &body, then);
                                }
                            }
                            answered
                        };
                        if let Some(Waiting { then, .. }) = then {
                            if let Err(why) = then(body) {
                                fail(
                                    &queue,
                                    format!("its worker's answer is not readable: {why}"),
                                );
                            }
                        }
                    }
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
                    .unwrap_or_else(|| "its loader did not load".into());
                fail(
                    &queue,
                    format!("its worker failed: {message}; reload the page and try again"),
                );
            });
        }
        let load = ToWorker::<()>::Load { js: glue, wasm };
        // Serialising two strings cannot fail.
        let load = serde_json::to_string(&load).unwrap_or_default();
        let _ = worker.post_message(&JsValue::from_str(&load));
        self.worker = Some((worker, queue));
        Ok(())
    }

    /// Sends `body` (a request's JSON text); `then` gets its answer's body later (never before
    /// this returns). `failed` is told why when the worker cannot answer.
    pub fn ask(&mut self, body: &str, then: Then, failed: Failed) {
        self.send(false, body, Some(then), failed);
    }

    /// Sends `body`, which gets no answer (what it makes the worker do comes as its events).
    pub fn tell(&mut self, body: &str, failed: Failed) {
        self.send(false, body, None, failed);
    }

    /// As [`LazyWorker::ask`], latest-wins: at most one such request is with the worker at a
    /// time; one asked meanwhile waits in its place, replacing (and dropping, unanswered) the one
    /// that waited before it, and goes when the one out is answered.
    pub fn ask_latest(&mut self, body: &str, then: Then, failed: Failed) {
        self.send(true, body, Some(then), failed);
    }

    fn send(&mut self, latest: bool, body: &str, then: Option<Then>, failed: Failed) {
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
        let mut q = queue.borrow_mut();
        q.failed = Some(failed);
        match then {
            Some(then) if latest && q.latest_out => q.held = Some((body.to_string(), then)),
            Some(then) => {
                q.latest_out |= latest;
                q.ask(worker, latest, body, then);
            }
            None => q.send(worker, envelope::tell_text(body)),
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
        q.latest_out = false;
        q.failed.take()
    };
    if let Some(failed) = failed {
        failed(why);
    }
}
