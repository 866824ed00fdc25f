//! The page's end of each host of the views' module ([`crate::web::views`], loaded on the first
//! open of one of the views it holds): the element it is mounted into, where the module stands
//! there (not asked, loading, ready, failed with a retry), and what crosses through the host's
//! events ([`crate::web::kit::views_port`]).

use std::rc::Rc;

use wasm_bindgen::JsValue;

use crate::web::kit::js;
use crate::web::kit::notice::NoticeLevel;
use crate::web::kit::prelude::*;
use crate::web::kit::teaching::pending_view;
use crate::web::kit::views_port::{self, FromViews, ToViews};
use crate::web::page::state::AppState;

/// Where the views' module is, as one of its hosts sees it .
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Module {
    /// Not asked for yet: none of the host's views was opened.
    NotAsked,
    Loading,
    /// Mounted into the host: it shows its views.
    Ready,
    /// Its files did not load: why, in words.
    Failed(String),
}

/// The page's end of one host of the views' module: the element it is mounted into and where
/// the module stands there (the teaching views' [`TeachView`], the link panel's Probe fold).
#[derive(Clone, Copy)]
pub(crate) struct ModuleHost {
    pub element: NodeRef<leptos::html::Div>,
    pub module: RwSignal<Module>,
}

impl ModuleHost {
    /// A host not asked for yet (its element is set by the view that holds it).
    pub(crate) fn new() -> ModuleHost {
        ModuleHost {
            element: NodeRef::new(),
            module: RwSignal::new(Module::NotAsked),
        }
    }

    /// Listens to the host once its element is there: `answer` gets what the module mounted in
    /// it asks (its readiness and boot.js's word that its files did not load are kept here).
    /// Call once. (`answer` is a `dyn`: one compiled listener for every host, docs/size-rules.md 5.)
    pub(crate) fn listen(&self, answer: Rc<dyn Fn(FromViews)>) {
        let host = *self;
        Effect::new(move |_| {
            let Some(element) = host.element.get() else {
                return;
            };
            let answer = answer.clone();
            js::listen(
                &element,
                views_port::ASK,
                move |ev| match views_port::message::<FromViews>(&ev) {
                    Some(FromViews::Ready) => host.module.set(Module::Ready),
                    Some(message) => answer(message),
                    None => {}
                },
            );
            js::listen(&element, views_port::UNAVAILABLE, move |ev| {
                let why = views_port::detail_text(&ev).unwrap_or_default();
                host.module.set(Module::Failed(why));
            });
        });
    }

    /// Asks src/web/js/boot.js to load the module (once for every host; again after a failure) and
    /// mount it into this host.
    pub(crate) fn load(&self) {
        if let Some(element) = self.element.get_untracked() {
            self.module.set(Module::Loading);
            views_port::dispatch(&element, views_port::LOAD, &JsValue::NULL, true);
        }
    }

    /// Loads the module the first time (once the element is there).
    pub(crate) fn load_once(&self) {
        if self.module.with_untracked(|m| *m == Module::NotAsked) {
            self.load();
        }
    }

    /// Whether the module is mounted here (tracked).
    pub(crate) fn ready(&self) -> bool {
        self.module.with(|m| *m == Module::Ready)
    }

    /// Sends `message` to the module mounted here.
    pub(crate) fn send(&self, message: &ToViews) {
        if let Some(element) = self.element.get_untracked() {
            views_port::send(&element, views_port::SHOW, message);
        }
    }

    /// Until the module is mounted: "loading the `what`", or why it failed with a retry
    /// (`needed`: who needs it, in words).
    pub(crate) fn status(&self, what: &'static str, needed: &'static str) -> Option<AnyView> {
        let this = *self;
        match self.module.get() {
            Module::Ready | Module::NotAsked => None,
            Module::Loading => Some(pending_view(None, what, needed, || {})),
            Module::Failed(why) => Some(pending_view(Some(why), what, needed, move || this.load())),
        }
    }
}

/// A notice the module asks for, on the page.
pub(crate) fn notify(app: AppState, error: bool, text: String) {
    let level = if error {
        NoticeLevel::Error
    } else {
        NoticeLevel::Info
    };
    app.notify(level, text);
}
