//! A worker binary the page starts on first use (Trunk's `data-type="worker"`: the mock's and the
//! API's), loaded by the workers' loader (src/ui/probe-boot.js) from the files
//! `<meta name="app-entry">` names.
//! Requests and answers cross as text, one answer per request, in order; requests written before
//! the worker is ready wait for it. A worker whose files do not load, or that fails, is said once
//! (`failed`, with the files it is about), what waited gets no answer, and the next request starts
//! a new worker. Not generic on purpose: one compiled copy, whatever the worker speaks.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use wasm_bindgen::{JsCast, JsValue};

use crate::ui::js;

/// What gets an answer's text.
pub type Then = Box<dyn FnOnce(String)>;
/// What is told why the worker cannot answer.
pub type Failed = Box<dyn FnOnce(String)>;

/// What a worker's loader (src/ui/probe-boot.js) and its main say besides answers:
/// `{"event": "ready"}`, `{"event": "unavailable", "reason": …}`. A plain struct, not an
/// internally tagged enum: read without buffering (docs/size-rules.md 10).
#[derive(serde::Deserialize)]
pub(crate) struct WorkerEvent {
    pub event: WorkerEventKind,
    /// Why the files did not load (`unavailable`).
    #[serde(default)]
    pub reason: String,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum WorkerEventKind {
    Ready,
    Unavailable,
}

impl WorkerEvent {
    /// The event a worker's message `text` is, if it is one (it starts with `{"event"`: an
    /// answer never does).
    pub fn read(text: &str) -> Option<serde_json::Result<WorkerEvent>> {
        text.starts_with("{\"event\"")
            .then(|| serde_json::from_str(text))
    }
}

/// The worker's side the page keeps: what waits for an answer, what waits for the worker.
#[derive(Default)]
struct Queue {
    ready: bool,
    /// Requests written before the worker was ready.
    unsent: Vec<String>,
    /// The answers' receivers, oldest first.
    waiting: VecDeque<Then>,
    /// Told why, once, when the worker fails.
    failed: Option<Failed>,
    /// The worker failed: the next request starts a new one.
    dead: bool,
}

/// One worker binary, started on the first request.
pub struct LazyWorker {
    /// The `<meta name="app-entry">` attributes naming the loader, the glue and the wasm.
    files: [&'static str; 3],
    worker: Option<(web_sys::Worker, Rc<RefCell<Queue>>)>,
}

/// The last part of a URL (a file's name), for saying which file did not load.
fn file_name(url: &str) -> &str {
    url.rsplit('/').next().unwrap_or(url)
}

impl LazyWorker {
    /// A worker whose loader, glue and wasm `<meta name="app-entry">` names in `files`.
    pub fn new(files: [&'static str; 3]) -> LazyWorker {
        LazyWorker {
            files,
            worker: None,
        }
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
            move |ev: web_sys::Event| {
                let data = ev.unchecked_ref::<web_sys::MessageEvent>().data();
                let text = data.as_string().unwrap_or_default();
                if let Some(event) = WorkerEvent::read(&text) {
                    match event {
                        Ok(WorkerEvent { event: WorkerEventKind::Ready, .. }) => {
                            let unsent = {
                                let mut q = queue.borrow_mut();
                                q.ready = true;
                                std::mem::take(&mut q.unsent)
                            };
                            for request in unsent {
                                let _ = worker.post_message(&JsValue::from_str(&request));
                            }
                        }
                        Ok(WorkerEvent { event: WorkerEventKind::Unavailable, reason }) => fail(
                            &queue,
                            format!("its worker's files ({files}) did not load: {reason}; reload the page and try again"),
                        ),
                        Err(e) => fail(&queue, format!("its worker said something unreadable: {e}")),
                    }
                    return;
                }
                let then = queue.borrow_mut().waiting.pop_front();
                if let Some(then) = then {
                    then(text);
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
        q.waiting.push_back(then);
        q.failed = Some(failed);
        if q.ready {
            let _ = worker.post_message(&JsValue::from_str(&request));
        } else {
            q.unsent.push(request);
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
        q.failed.take()
    };
    if let Some(failed) = failed {
        failed(why);
    }
}
