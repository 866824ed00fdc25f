//! The link panel's Probe fold (`probe-fold`, closed at first view), the page's side of the
//! Probe: the Probe itself (`crate::web::views::probe::ProbePanel`) is rendered by the views' module
//! (src/bin/later_views.rs), loaded and mounted into the fold's host on the fold's first open, so
//! the page's first load carries none of it. Until it is mounted the fold says it is loading, or
//! why it did not load with a retry. The page tells it what it reads of the page (the endpoint
//! fields, whether an API document is in use: [`ProbeContext`]) and does what it asks: a notice,
//! and the probe under an OpenRPC document, which runs in the page's API worker (it holds the
//! document and the JSON Schema engine), its events passed back as the worker wrote them.

use std::rc::Rc;

use crate::web::kit::prelude::*;
use crate::web::kit::views_port::{FromViews, ProbeContext, ToViews};
use crate::web::page::api::{use_api, ApiState};
use crate::web::page::link::Link;
use crate::web::page::module_host::{notify, ModuleHost};
use crate::web::page::state::use_app;
use crate::wire::probe::{ApiProbe, ProbeEvent};
use crate::wire::Passed;

/// The Probe's fold and the host the views' module mounts the Probe into.
#[component]
pub fn ProbeFold(link: Link) -> impl IntoView {
    let app = use_app();
    let api = use_api();
    let host = ModuleHost::new();
    host.listen(Rc::new(move |message| match message {
        FromViews::Notify { error, text } => notify(app, error, text),
        FromViews::ProbeApi {
            probe,
            under_document,
        } => probe_api(host, api, probe, under_document),
        FromViews::ProbeApiCancel => api.cancel_probe(),
        FromViews::Ready
        | FromViews::OpenInPlayground { .. }
        | FromViews::LoadApi { .. }
        | FromViews::CopyToLog { .. }
        | FromViews::FetchApi { .. }
        | FromViews::UnloadApi
        | FromViews::DiscoverApi
        | FromViews::LogReply { .. }
        | FromViews::LogAnswer { .. } => {}
    }));
    // Once mounted, the Probe is told what it reads of the page, now and on every change.
    Effect::new(move |_| {
        if host.ready() {
            let context = link.draft.with(|d| ProbeContext {
                url: d.url.clone(),
                protocol: d.protocol.clone(),
                headers: d.headers.clone(),
                api_loaded: api.loaded(),
            });
            host.send(&ToViews::Probe(context));
        }
    });
    // Loaded on the fold's first open.
    let toggle = move |ev: leptos::ev::Event| {
        if event_target::<web_sys::Element>(&ev).has_attribute("open") {
            host.load_once();
        }
    };
    let status = move || host.status("Probe", "The Probe needs it");
    view! {
        <details class="advanced" data-testid="probe-fold" on:toggle=toggle>
            <summary>"Advanced: check a server (the Probe)"</summary>
            {status}
            <div data-later-views="probe" node_ref=host.element></div>
        </details>
    }
}

/// Runs the Probe's `probe` (passed on unread) in the page's API worker (under
/// the document in use when `under_document`), its events sent back to the Probe in `host` as the
/// worker wrote them.
fn probe_api(host: ModuleHost, api: ApiState, probe: Passed<ApiProbe>, under_document: bool) {
    let mut document = None;
    if under_document {
        document = api
            .source
            .with_untracked(|s| s.as_ref().map(|s| s.text.clone()));
        if document.is_none() {
            let reason = "the API document is no longer loaded".to_string();
            return host.send(&ToViews::ApiProbeUnavailable { reason });
        }
    }
    let listener = move |heard: Result<Passed<ProbeEvent>, String>| {
        host.send(&match heard {
            Ok(event) => ToViews::ApiProbeEvent { event },
            Err(reason) => ToViews::ApiProbeUnavailable { reason },
        })
    };
    api.probe(probe, document, Rc::new(listener));
}
