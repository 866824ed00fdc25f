//! Where the API runs: the `api-worker` binary (src/bin/api_worker.rs), a worker the page starts
//! when it first needs the API (a document offered), through the page's [`LazyWorker`]: each
//! answer comes with its request's id; requests sent before the worker is ready wait for it.
//!
//! Checks are latest-wins ([`LazyWorker::ask_latest`]): at most one [`ApiRequest::Check`] is with
//! the worker at a time, and while it is, a newer one waits in its place, replacing (and
//! dropping, unanswered) the one that waited before it. Typing fast thus queues no stale checks:
//! the worker checks the text it was last given and then the newest text, never each keystroke's.
//!
//! The worker also runs the Probe under a document: its end comes as the worker's event (every
//! event of this worker is its probe's), handed as the worker wrote it
//! to the probe's listener (the page passes it on to the Probe, in the views' module, unread),
//! which is told when the worker fails too.

use std::cell::RefCell;
use std::rc::Rc;

use crate::web::kit::lazy_worker::{self, Failed, LazyWorker};
use crate::wire::api::{ApiAnswer, ApiRequest};
use crate::wire::probe::ProbeEvent;
use crate::wire::Passed;
use serde_json::value::RawValue;

/// What gets an answer.
pub type Then = Box<dyn FnOnce(ApiAnswer)>;

/// What gets the events of a probe the worker runs (the Probe under a document): `Ok`, an event
/// as the worker wrote it; `Err`, why the worker failed.
pub type ProbeListener = Rc<dyn Fn(Result<Passed<ProbeEvent>, String>)>;

/// The `<meta name="app-entry">` attributes naming the API worker's glue and wasm.
const FILES: [&str; 2] = ["data-lazy-api-js", "data-lazy-api-wasm"];

/// Who is told, once, when the worker fails.
#[derive(Default)]
struct Told {
    /// The page: the last request's `failed`.
    failed: Option<Failed>,
    /// The listener of the last probe asked for.
    probe: Option<ProbeListener>,
}

/// The API's runner: no worker until the first request.
pub struct Runner {
    worker: LazyWorker,
    told: Rc<RefCell<Told>>,
}

impl Runner {
    pub fn new() -> Runner {
        let told = Rc::new(RefCell::new(Told::default()));
        let probe_events = {
            let told = Rc::clone(&told);
            // Every event of the API's worker is its probe's.
            move |body: &RawValue| {
                let event = body.to_owned();
                let listener = told.borrow().probe.clone();
                if let Some(listener) = listener {
                    listener(Ok(Passed::from_raw(event)));
                }
                Ok(())
            }
        };
        Runner {
            worker: LazyWorker::new(FILES, Some(Rc::new(probe_events))),
            told,
        }
    }

    /// Whether the worker was started (and has not failed).
    pub fn started(&self) -> bool {
        self.worker.started()
    }

    /// Sends `request`; `then` gets its answer later (never before this returns). `failed` is
    /// told why when the worker cannot answer.
    pub fn ask(&mut self, request: ApiRequest, then: Then, failed: impl FnOnce(String) + 'static) {
        self.told.borrow_mut().failed = Some(Box::new(failed));
        self.send(request, then);
    }

    /// Sends a probe's request: `listener` gets its events, and why when the worker cannot
    /// start, fails, or refuses the request.
    pub fn probe(&mut self, request: ApiRequest, listener: ProbeListener) {
        self.told.borrow_mut().probe = Some(Rc::clone(&listener));
        self.send(
            request,
            Box::new(move |answer| {
                if let ApiAnswer::Failed { error } = answer {
                    listener(Err(error));
                }
            }),
        );
    }

    fn send(&mut self, request: ApiRequest, then: Then) {
        // Serialising these plain structs cannot fail.
        let text = serde_json::to_string(&request).unwrap_or_default();
        let then: lazy_worker::Then = Box::new(move |answer: &RawValue| {
            then(serde_json::from_str::<ApiAnswer>(answer.get()).map_err(|e| e.to_string())?);
            Ok(())
        });
        let told = Rc::clone(&self.told);
        // The page and the probe's listener, each told once.
        let failed: Failed = Box::new(move |why: String| {
            let Told { failed, probe } = std::mem::take(&mut *told.borrow_mut());
            if let Some(probe) = probe {
                probe(Err(why.clone()));
            }
            if let Some(failed) = failed {
                failed(why);
            }
        });
        if matches!(request, ApiRequest::Check { .. }) {
            self.worker.ask_latest(&text, then, failed);
        } else {
            self.worker.ask(&text, then, failed);
        }
    }
}
