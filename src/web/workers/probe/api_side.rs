//! The Probe under an OpenRPC document, run in the API's worker (the `api-worker` binary, which
//! holds the JSON Schema engine; the Probe's own worker stays without it): `jrpc probe --openrpc
//! DOC URL`'s checks (`crate::probe::checks::openrpc`: `rpc.discover` and its document against the
//! meta-schema, the JSON-RPC checks, every method called with its examples' params or generated
//! ones, each reply against the method's result schema and declared errors) over the Probe's
//! browser connection ([`super::browser::BrowserLink`]), with the Probe's bounds (5 s a request,
//! 2 minutes in all, the response sizes of the link, `--max-calls`). The outcome goes to the page
//! as the Probe's worker sends its own ([`ProbeEvent`], posted apart from the API's answers).

use std::cell::RefCell;

use futures_channel::oneshot;
use web_sys::js_sys;

use crate::openrpc::OpenRpc;
use crate::probe::checks::openrpc::{self, Options, Source};
use crate::probe::{Conversation, Mode, Plan, Verdict};
use crate::web::workers::probe::browser::BrowserLink;
use crate::web::workers::probe::{post, probe_and_post, Endpoint};
use crate::wire::probe::{ApiProbe, ProbeEvent};

thread_local! {
    /// The running probe's cancel switch (sending, or dropping it, cancels).
    static RUNNING: RefCell<Option<oneshot::Sender<()>>> = const { RefCell::new(None) };
}

/// Stops the running probe, if any, where it is (its HTTP session is ended all the same).
pub fn cancel() {
    if let Some(cancel) = RUNNING.with(|r| r.borrow_mut().take()) {
        let _ = cancel.send(());
    }
}

/// Starts `request` under `document` (its text; `None`: the one the server's `rpc.discover`
/// returns; a probe still running is cancelled first). A document that does not load is said at
/// once as the probe's failure.
pub fn start(request: ApiProbe, document: Option<String>) {
    cancel();
    let ApiProbe {
        run,
        url,
        websocket,
        protocol,
        headers,
        skip_methods,
        max_calls,
    } = request;
    let given = match document.map(|text| OpenRpc::load(text.as_bytes())) {
        None => None,
        Some(Ok(doc)) => Some(doc),
        Some(Err(e)) => {
            let reason = format!(
                "The API document cannot be probed with: it breaks the OpenRPC meta-schema ({} problems, listed when it is loaded).",
                e.violations.len()
            );
            return post(&ProbeEvent::Failed { run, reason });
        }
    };
    let (switch, cancelled) = oneshot::channel();
    RUNNING.with(|r| *r.borrow_mut() = Some(switch));
    let endpoint = Endpoint {
        url,
        websocket,
        protocol,
        headers,
    };
    js_sys::futures::spawn_local(async move {
        // A plain JSON-RPC server: `--openrpc` probes no MCP lifecycle.
        let plan = Plan {
            mode: Mode::JsonRpc,
            calls: Vec::new(),
            max_calls,
            skip_tools: Vec::new(),
        };
        let options = Options { skip_methods };
        let play = async |c: &mut Conversation<BrowserLink>| {
            let source = match &given {
                Some(doc) => Source::Given(doc),
                None => Source::Discover,
            };
            openrpc::run(c, &plan, source, &options).await
        };
        let nothing_more = async |_: &mut BrowserLink, _: &Verdict| false;
        probe_and_post(run, endpoint, play, nothing_more, cancelled).await;
    });
}
