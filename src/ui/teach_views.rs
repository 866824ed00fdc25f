//! The teaching views' module (`src/bin/teach_views.rs`, bin `teach-views`): the rule reference
//! (with the API reference under an OpenRPC document), the quiz and the lessons, in a wasm module
//! of their own with their own Leptos runtime, mounted by src/ui/boot.js into the host the page
//! gives ([`super::views`] loads it on the first open of one of them). The page keeps the route:
//! it says which view to show and what the views read of it; the views ask the page for what only
//! the page does (notices, the editor, the API document, its log): [`super::views_bridge`].
//! The module fetches the teaching text itself ([`super::teaching`]) and runs a lesson's example
//! against a mock server worker of its own (the same `mock-worker` binary as the playground's).

use std::rc::Rc;

use crate::exchange::mock_worker::{Record, Session};
use crate::mock::Fixtures;
use crate::rpc::Profile;
use crate::saved::{profile_from_str, profile_to_string};
use crate::teach::route::Route;
use crate::ui::api::Source;
use crate::ui::exchange::Took;
use crate::ui::js::focus_within;
use crate::ui::prelude::*;
use crate::ui::teaching::{pending, provide_teaching, TeachingState};
use crate::ui::views_bridge::{self as bridge, FromViews, ToViews};
use crate::ui::{lessons, quiz, reference, NoticeLevel};

/// What the views have of the page: what it told them (its profile, the mock's settings, the API
/// document's reference) and the way to ask it for the rest.
#[derive(Clone, Copy)]
pub(crate) struct Page {
    host: StoredValue<web_sys::HtmlElement, LocalStorage>,
    /// The editor's profile.
    pub profile: RwSignal<Profile>,
    fixtures: RwSignal<Fixtures>,
    auto_answer: RwSignal<bool>,
    /// The API document's reference, when one is in use.
    pub api: RwSignal<Option<crate::api::Reference>>,
    /// The lessons' mock server (a worker started on the first Run).
    mock: StoredValue<crate::ui::exchange::MockWorkers, LocalStorage>,
}

impl Page {
    fn ask(&self, message: FromViews) {
        self.host
            .with_value(|host| bridge::send(host, bridge::ASK, &message));
    }

    /// A notice on the page.
    pub fn notify(&self, level: NoticeLevel, text: impl Into<String>) {
        self.ask(FromViews::Notify {
            error: level == NoticeLevel::Error,
            text: text.into(),
        });
    }

    /// Puts `text` into the editor with `profile` and shows the playground, saying so with `what`.
    pub fn open_in_playground(&self, text: &str, profile: Profile, what: &str) {
        self.ask(FromViews::OpenInPlayground {
            text: text.to_string(),
            profile: profile_to_string(profile),
            what: what.to_string(),
        });
    }

    /// Loads `source` as the API document (`report`: a notice says how that went).
    pub fn load_api(&self, source: Source, report: bool) {
        self.ask(FromViews::LoadApi { source, report });
    }

    /// Copies a lesson run's `records` to the page's log, under `peer`.
    pub fn copy_to_log(&self, peer: String, records: Vec<Record>) {
        self.ask(FromViews::CopyToLog { peer, records });
    }

    /// Sends each client document of `text` to the lessons' mock session (`fresh`: a new one
    /// first, a lesson's Run), serving what the page's mock serves; `took` gets what crossed.
    /// Returns how many were sent.
    pub fn send_in_lesson(&self, text: &str, profile: Profile, fresh: bool, took: Took) -> usize {
        let this = *self;
        let notify: crate::ui::exchange::Notify =
            Rc::new(move |level, text| this.notify(level, text));
        crate::ui::exchange::send_documents(
            self.mock,
            notify,
            Session::Lesson,
            self.fixtures.get_untracked(),
            fresh,
            text,
            profile,
            self.auto_answer.get_untracked(),
            took,
            Rc::new(|| {}),
        )
    }
}

/// Mounts the views into `host` for the page's life, and tells the page they are ready.
pub fn mount(host: web_sys::HtmlElement) {
    leptos::mount::mount_to(host.clone(), move || view! { <Views host /> }).forget();
}

#[component]
fn Views(host: web_sys::HtmlElement) -> impl IntoView {
    let page = Page {
        host: StoredValue::new_local(host.clone()),
        profile: RwSignal::new(Profile::JsonRpc),
        fixtures: RwSignal::new(Fixtures::default()),
        auto_answer: RwSignal::new(false),
        api: RwSignal::new(None),
        mock: crate::ui::exchange::mock_worker(),
    };
    let route = RwSignal::new(Route::Playground);
    crate::ui::js::listen(&host, bridge::SHOW, move |ev| {
        match bridge::message::<ToViews>(&ev) {
            Some(ToViews::Show { fragment }) => {
                route.set(Route::of_view(&fragment).unwrap_or(Route::Playground))
            }
            Some(ToViews::Context {
                profile,
                fixtures,
                auto_answer,
                api,
            }) => {
                page.profile
                    .set(profile_from_str(&profile).unwrap_or_default());
                page.fixtures.set(fixtures);
                page.auto_answer.set(auto_answer);
                page.api.set(api);
            }
            None => {}
        }
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
