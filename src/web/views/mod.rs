//! The views loaded later (`src/bin/later_views.rs`, bin `later-views`): the teaching views (the
//! rule reference with the API reference under an OpenRPC document, the quiz and the lessons),
//! the link panel's Probe, the API panel's body and the log's rows, in a wasm module of their own
//! with their own Leptos runtime, mounted by src/web/js/boot.js into each host the page gives,
//! loaded once on the first open of one of them (the page's hosts: `crate::web::page::router`'s
//! teaching host, `crate::web::page::link::probe_fold`, `crate::web::page::api::panel`,
//! `crate::web::page::log_rows`). For the teaching views the page keeps the route: it says which
//! view to show and what the views read of it; the views ask the page for what only the page
//! does (notices, the editor, the API document, its log): [`crate::wire::views`], through
//! [`crate::web::kit::views_port`] ([`page_handle`] for the teaching views, the Probe's
//! `ProbePage`, the API panel's and the rows' own handles). The module fetches the teaching text
//! itself ([`crate::web::kit::teaching`]) and runs a lesson's example against a mock server
//! worker of its own (the same `mock-worker` binary as the playground's).

mod api;
mod lessons;
mod log_rows;
mod page_handle;
mod picture;
mod probe;
mod quiz;
mod reference;

use crate::saved::profile_from_str;
use crate::teach::route::Route;
use crate::web::kit::js::focus_within;
use crate::web::kit::prelude::*;
use crate::web::kit::teaching::{pending, provide_teaching, TeachingState};
use crate::web::kit::views_port::{FromViews, ToViews};
use crate::web::views::page_handle::Page;
use crate::web::views::probe::{ProbePage, ProbePanel};
use api::ApiPanelBody;
use log_rows::LogRows;

/// Mounts the views `host` is for (`data-later-views`: `probe`, the link panel's Probe; `api`,
/// the API panel's body; `log`, the log's rows and picture; else the teaching views) into it for the page's life, each host a Leptos root of its own, and tells the
/// page they are ready.
pub fn mount(host: web_sys::HtmlElement) {
    match host.get_attribute("data-later-views").as_deref() {
        Some("probe") => {
            leptos::mount::mount_to(host.clone(), move || view! { <Probe host /> }).forget()
        }
        Some("api") => {
            leptos::mount::mount_to(host.clone(), move || view! { <ApiPanelBody host /> }).forget()
        }
        Some("log") => {
            leptos::mount::mount_to(host.clone(), move || view! { <LogRows host /> }).forget()
        }
        _ => leptos::mount::mount_to(host.clone(), move || view! { <Views host /> }).forget(),
    }
}

/// The link panel's Probe ([`ProbePanel`]), mounted into the page's Probe fold.
#[component]
fn Probe(host: web_sys::HtmlElement) -> impl IntoView {
    let page = ProbePage::new(host);
    page.ask(FromViews::Ready);
    view! { <ProbePanel page /> }
}

#[component]
fn Views(host: web_sys::HtmlElement) -> impl IntoView {
    let page = Page::new(host);
    let route = RwSignal::new(Route::Playground);
    page.listen(move |told| match told {
        ToViews::Show { fragment } => {
            route.set(Route::of_view(&fragment).unwrap_or(Route::Playground))
        }
        ToViews::Context {
            profile,
            fixtures,
            auto_answer,
            api,
        } => page.told(
            profile_from_str(&profile).unwrap_or_default(),
            fixtures,
            auto_answer,
            api,
        ),
        // The Probe's, the API panel's and the rows' messages go to their own hosts.
        ToViews::Probe(_)
        | ToViews::ApiProbeEvent { .. }
        | ToViews::ApiProbeUnavailable { .. }
        | ToViews::Api(_)
        | ToViews::Log(_)
        | ToViews::LogShow { .. } => {}
    });
    // Fetched on the first view shown (teaching.rs).
    let teaching = provide_teaching(move || !route.with(Route::is_playground));
    // The view of the route, built afresh when the route changes, once the text is there.
    let view = move || match (route.get(), teaching.get()) {
        (Route::Playground | Route::Log, _) => ().into_any(),
        (Route::Reference(focus), TeachingState::Ready(text)) => {
            view! { <reference::Reference page focus text /> }.into_any()
        }
        (Route::Quiz(which), TeachingState::Ready(text)) => {
            view! { <quiz::Quiz page which text /> }.into_any()
        }
        (Route::Lessons(index), TeachingState::Ready(text)) => {
            view! { <lessons::Lessons page index text /> }.into_any()
        }
        _ => pending(teaching),
    };
    // Once a view is built: its focus target (`data-focus`, else its heading) is scrolled to and
    // focused, so a keyboard or screen-reader user lands in the view they opened. On the next
    // frame: when the teaching text arrives, this runs before the view that shows it is built.
    let root = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        route.track();
        teaching.track();
        if let Some(root) = root.get() {
            request_animation_frame(move || {
                let target = if root.query_selector("[data-focus]").ok().flatten().is_some() {
                    "[data-focus]"
                } else {
                    "h2"
                };
                focus_within(&root, target);
            });
        }
    });
    page.ask(FromViews::Ready);
    view! { <div class="teach-views" node_ref=root>{view}</div> }
}
