//! A worker binary the page starts on first use (Trunk's `data-type="worker"`: the mock's, the
//! API's and the Probe's), loaded by the workers' loader (src/ui/probe-boot.js) from the files
//! `<meta name="app-entry">` names.
//! Requests and answers cross as text, one answer per request, in order; requests written before
//! the worker is ready wait for it. A worker whose files do not load, that fails, or whose answer
//! the page cannot read, is said once (`failed`, with the files it is about), what waited gets no
//! answer, and the next request starts a new worker. Besides answers a worker may post events of
//! its own (a probe's end, from the Probe's and the API's workers), handed to the hook given at
//! [`LazyWorker::new`]; a request that gets no answer is sent with [`LazyWorker::tell`].
//! Requests asked with [`LazyWorker::ask_latest`] are latest-wins (the API's checks). Not generic
//! on purpose: one compiled copy, whatever the worker speaks.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use wasm_bindgen::{JsCast, JsValue};

use crate::ui::js;

/// What gets an answer's text; an error says why it is not readable (the worker then fails).
pub type Then = Box<dyn FnOnce(String) -> Result<(), String>>;
/// What is told why the worker cannot answer.
pub type Failed = Box<dyn FnOnce(String)>;
/// What is shown each message that is not the loader's, before it is taken as an answer:
/// whether it took it (an event of the worker's own, which answers no request); an error says
/// why it is not readable (the worker then fails).
pub type Events = Rc<dyn Fn(&str) -> Result<bool, String>>;

/// What a worker's loader (src/ui/probe-boot.js) and its main say besides answers:
/// `{"event": "ready"}`, `{"event": "unavailable", "reason": …}`. A plain struct, not an
/// internally tagged enum: read without buffering (docs/size-rules.md 10).
/// (The event's name is a string, not an enum: serde's enum reader costs more than a compare.)
#[derive(serde::Deserialize)]
struct WorkerEvent {
    /// `ready` or `unavailable`.
    event: String,
    /// Why the files did not load (`unavailable`).
    #[serde(default)]
    reason: String,
}

/// The worker's side the page keeps: what waits for an answer, what waits for the worker.
#[derive(Default)]
struct Queue {
    ready: bool,
    /// Requests written before the worker was ready.
    unsent: Vec<String>,
    /// The answers' receivers, oldest first, each marked when it is a latest-wins request's.
    waiting: VecDeque<(bool, Then)>,
    /// A latest-wins request is with the worker (or waits for it to be ready).
    latest_out: bool,
    /// The newest latest-wins request asked while one was out: sent when that one is answered.
    held: Option<(String, Then)>,
    /// Told why, once, when the worker fails.
    failed: Option<Failed>,
    /// The worker failed: the next request starts a new one.
    dead: bool,
}

impl Queue {
    /// Sends `request` now, or once the worker is ready.
    fn send(&mut self, worker: &web_sys::Worker, request: String) {
        if self.ready {
            let _ = worker.post_message(&JsValue::from_str(&request));
        } else {
            self.unsent.push(request);
        }
    }
}

/// One worker binary, started on the first request.
pub struct LazyWorker {
    /// The `<meta name="app-entry">` attributes naming the loader, the glue and the wasm.
    files: [&'static str; 3],
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
    pub fn new(files: [&'static str; 3], events: Option<Events>) -> LazyWorker {
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
        let [boot, glue, wasm] = js::entry_files(self.files)
            .ok_or("this build of the page names no files for its worker")?;
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        let worker = web_sys::Worker::new_with_options(&boot, &options).map_err(|e| {
            format!(
                "its worker did not start ({})",
                crate::ui::js_error_text(&e)
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
                // Cheap first: an answer or an event of the worker's own never starts so.
                let said = text
                    .starts_with("{\"event\"")
                    .then(|| serde_json::from_str::<WorkerEvent>(&text));
                match said {
                    Some(Ok(said)) if said.event == "ready" => {
                        let unsent = {
                            let mut q = queue.borrow_mut();
                            q.ready = true;
                            std::mem::take(&mut q.unsent)
                        };
                        for request in unsent {
                            let _ = worker.post_message(&JsValue::from_str(&request));
                        }
                        return;
                    }
                    Some(Ok(said)) => return fail(
                        &queue,
                        format!("its worker's files ({files}) did not load: {}; reload the page and try again", said.reason),
                    ),
                    Some(Err(e)) => return fail(&queue, format!("its worker said something unreadable: {e}")),
                    None => {}
                }
                match events.as_ref().map_or(Ok(false), |events| events(&text)) {
                    Ok(false) => {}
                    Ok(true) => return,
                    Err(why) => {
                        return fail(
                            &queue,
                            format!("its worker said something unreadable: {why}"),
                        )
                    }
                }
                let then = {
                    let mut q = queue.borrow_mut();
                    let then = q.waiting.pop_front();
                    if then.as_ref().is_some_and(|(latest, _)| *latest) {
                        q.latest_out = false;
                        if let Some((request, then)) = q.held.take() {
                            q.latest_out = true;
                            q.waiting.push_back((true, then));
                            q.send(&worker, request);
                        }
                    }
                    then
                };
                if let Some((_, then)) = then {
                    if let Err(why) = then(text) {
                        fail(
                            &queue,
                            format!("its worker's answer is not readable: {why}"),
                        );
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
        let load = serde_json::json!({"request": "load", "js": glue, "wasm": wasm});
        let _ = worker.post_message(&JsValue::from_str(&load.to_string()));
        self.worker = Some((worker, queue));
        Ok(())
    }

    /// Sends `request`; `then` gets its answer later (never before this returns), in the order
    /// the requests went. `failed` is told why when the worker cannot answer.
    pub fn ask(&mut self, request: String, then: Then, failed: Failed) {
        self.send(false, request, Some(then), failed);
    }

    /// Sends `request`, which gets no answer (what it makes the worker do comes as its events).
    pub fn tell(&mut self, request: String, failed: Failed) {
        self.send(false, request, None, failed);
    }

    /// As [`LazyWorker::ask`], latest-wins: at most one such request is with the worker at a
    /// time; one asked meanwhile waits in its place, replacing (and dropping, unanswered) the one
    /// that waited before it, and goes when the one out is answered.
    pub fn ask_latest(&mut self, request: String, then: Then, failed: Failed) {
        self.send(true, request, Some(then), failed);
    }

    fn send(&mut self, latest: bool, request: String, then: Option<Then>, failed: Failed) {
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
        if let Some(then) = then {
            if latest && q.latest_out {
                q.held = Some((request, then));
                return;
            }
            q.latest_out |= latest;
            q.waiting.push_back((latest, then));
        }
        q.send(worker, request);
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
