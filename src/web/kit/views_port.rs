//! The port between the page and its views loaded later (the teaching views: the rule
//! reference with the API reference, the quiz, the lessons; the link panel's Probe; the API
//! panel's body; the log's rows), which live in a second wasm module of their own
//! (`src/bin/later_views.rs`, [`crate::web::views`]) that the page loads on the first open
//! of one of them, so that its first load carries none of them. What crosses is
//! [`crate::wire::views`]; how it crosses is here.
//!
//! The module is mounted into each of the page's hosts for it, one Leptos root per host: the
//! teaching views' (`data-testid="teach-views"`, inside the page's teaching `<main>`,
//! `data-later-views="teaching"`), the Probe's (inside the link panel's `probe-fold`,
//! `data-later-views="probe"`), the API panel's (inside `api-panel`, `data-later-views="api"`)
//! and the log's rows (`data-later-views="log"`). Each side speaks through events on the host:
//! - `views:load` (the page; bubbles to src/web/js/boot.js): load the module (`data-lazy-views-js`,
//!   `data-lazy-views-wasm` of `<meta name="app-entry">`; once for every host, again only after
//!   it failed) and mount it into the host; a file that does not load is said back with
//!   `views:unavailable` (detail: why, in words);
//! - `views:show` (the page → the views, a [`ToViews`] as JSON text): the view to show (the
//!   page keeps the route and its one `hashchange` listener) and what the views read of the page;
//! - `views:ask` (the views → the page, a [`FromViews`] as JSON text): what the views ask of the
//!   page.

use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::{JsCast, JsValue};

pub use crate::wire::views::{
    ApiPanelContext, DocumentInUse, FromViews, LogRows, ProbeContext, ToViews,
};

/// The page asks src/web/js/boot.js to load the module and mount it into the host.
pub const LOAD: &str = "views:load";
/// boot.js says the module's files did not load (detail: why).
pub const UNAVAILABLE: &str = "views:unavailable";
/// The page to the views: a [`ToViews`].
pub const SHOW: &str = "views:show";
/// The views to the page: a [`FromViews`].
pub const ASK: &str = "views:ask";

/// Dispatches `event` on `target` with `detail` (bubbling when `bubbles`).
pub fn dispatch(target: &web_sys::EventTarget, event: &str, detail: &JsValue, bubbles: bool) {
    let init = web_sys::CustomEventInit::new();
    init.set_detail(detail);
    init.set_bubbles(bubbles);
    if let Ok(ev) = web_sys::CustomEvent::new_with_event_init_dict(event, &init) {
        let _ = target.dispatch_event(&ev);
    }
}

/// Sends `message` as `event` (JSON text) on the host.
pub fn send(host: &web_sys::EventTarget, event: &str, message: &impl Serialize) {
    if let Ok(json) = serde_json::to_string(message) {
        dispatch(host, event, &JsValue::from_str(&json), false);
    }
}

/// The detail of a bridge event: its text, or its message (`None` for anything else).
pub fn detail_text(ev: &web_sys::Event) -> Option<String> {
    ev.dyn_ref::<web_sys::CustomEvent>()?.detail().as_string()
}

/// The message a bridge event carries (`None` for anything that is not one).
pub fn message<T: DeserializeOwned>(ev: &web_sys::Event) -> Option<T> {
    serde_json::from_str(&detail_text(ev)?).ok()
}

/// The views' end of one host: what the module mounted there asks of the page, and what it is
/// told. Every view of the module (the teaching views, the Probe, the API panel's body, the
/// log's rows) speaks through one.
#[derive(Clone, Copy)]
pub struct PagePort {
    host: leptos::prelude::StoredValue<web_sys::HtmlElement, leptos::prelude::LocalStorage>,
}

impl PagePort {
    /// The port of `host`.
    pub fn new(host: web_sys::HtmlElement) -> PagePort {
        PagePort {
            host: leptos::prelude::StoredValue::new_local(host),
        }
    }

    /// Asks the page for `message`.
    pub fn ask(&self, message: FromViews) {
        use leptos::prelude::WithValue;
        self.host.with_value(|host| send(host, ASK, &message));
    }

    /// A notice on the page.
    pub fn notify(&self, level: crate::web::kit::notice::NoticeLevel, text: impl Into<String>) {
        self.ask(FromViews::Notify {
            error: level == crate::web::kit::notice::NoticeLevel::Error,
            text: text.into(),
        });
    }

    /// `told` gets every message the page tells this host, for the module's life.
    pub fn listen(&self, told: impl Fn(ToViews) + 'static) {
        use leptos::prelude::WithValue;
        self.host.with_value(|host| {
            crate::web::kit::js::listen(host, SHOW, move |ev| {
                if let Some(message) = message::<ToViews>(&ev) {
                    told(message);
                }
            });
        });
    }
}
