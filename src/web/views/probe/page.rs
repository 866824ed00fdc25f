//! The Probe's handle on the page, in the views' module (src/bin/later_views.rs mounts the Probe
//! into the link panel's fold): what the page told it (the endpoint fields, whether an API
//! document is in use) and the way to ask it for what only the page does (a notice; a probe under
//! the OpenRPC document, run in the page's API worker, whose events come back here), over
//! [`crate::web::kit::views_port`].

use std::rc::Rc;

use crate::web::kit::notice::NoticeLevel;
use crate::web::kit::prelude::*;
use crate::web::kit::views_port::{FromViews, PagePort, ProbeContext, ToViews};
use crate::wire::probe::{ApiProbe, ProbeEvent};
use crate::wire::Passed;

/// What gets the events of the probe the page's API worker runs.
type Listener = Rc<dyn Fn(ProbeEvent)>;

/// What the Probe has of the page.
#[derive(Clone, Copy)]
pub(crate) struct ProbePage {
    port: PagePort,
    /// What the page told: the endpoint fields, whether an API document is in use.
    pub context: RwSignal<ProbeContext>,
    /// The listener of the last probe asked of the page's API worker.
    listener: StoredValue<Option<Listener>, LocalStorage>,
}

impl ProbePage {
    /// The handle for the Probe mounted in `host`, listening to what the page tells it.
    pub(crate) fn new(host: web_sys::HtmlElement) -> ProbePage {
        let page = ProbePage {
            port: PagePort::new(host),
            context: RwSignal::new(ProbeContext::default()),
            listener: StoredValue::new_local(None),
        };
        page.port.listen(move |told| {
            let event = match told {
                ToViews::Probe(context) => return page.context.set(context),
                ToViews::ApiProbeEvent { event } => match event.read() {
                    Ok(event) => event,
                    Err(e) => ProbeEvent::Unavailable {
                        reason: format!("its answer could not be read ({e})"),
                    },
                },
                ToViews::ApiProbeUnavailable { reason } => ProbeEvent::Unavailable { reason },
                _ => return,
            };
            if let Some(listener) = page.listener.get_value() {
                listener(event);
            }
        });
        page
    }

    /// Asks the page for `message`.
    pub(crate) fn ask(&self, message: FromViews) {
        self.port.ask(message);
    }

    /// A notice on the page.
    pub fn notify(&self, level: NoticeLevel, text: impl Into<String>) {
        self.port.notify(level, text);
    }

    /// Runs `probe` in the page's API worker, under the document in use (`under_document`) or the
    /// one the server's `rpc.discover` returns: `listener` gets its events, and why the worker
    /// could not run it ([`ProbeEvent::Unavailable`]).
    pub fn probe_api(&self, probe: ApiProbe, under_document: bool, listener: Listener) {
        self.listener.set_value(Some(listener));
        let probe = match Passed::new(&probe) {
            Ok(probe) => probe,
            Err(e) => {
                return self.notify(
                    NoticeLevel::Error,
                    format!("The probe could not be asked ({e})."),
                )
            }
        };
        self.ask(FromViews::ProbeApi {
            probe,
            under_document,
        });
    }

    /// Stops the probe the page's API worker runs, if any.
    pub fn cancel_api_probe(&self) {
        self.ask(FromViews::ProbeApiCancel);
    }
}
