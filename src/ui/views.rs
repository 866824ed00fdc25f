//! Teaching views beside the playground, chosen by the URL fragment ([`crate::teach::route`]):
//! the rule reference, the quiz and the lessons, with a nav bar. Any static host serves every
//! view (the fragment never reaches the server); share links (`#s=…`) still open in the playground.
//! The playground stays mounted while another view shows, so its text, log and mock session stay.
//!
//! The teaching views live in a wasm module of their own, loaded on the first open of one
//! ([`TeachView`], [`super::later_views`]): each view is a component built afresh when the route
//! changes (a new route starts its view's state afresh); within a view the state is signals,
//! owned by the view.

use crate::ui::prelude::*;

use std::rc::Rc;
use wasm_bindgen::JsValue;

use super::api::{use_api, ApiState};
use super::exchange::{use_log, LogState};
use super::js::{self, focus_within};
use super::teaching::pending_view;
use super::views_bridge::{self, FromViews, ToViews};
use super::{share, AppState, NoticeLevel};
use crate::saved::{profile_from_str, profile_to_string};
use crate::teach::route::{QuizRoute, Route};

/// The current route, from the fragment now and on every `hashchange`: the page's one listener
/// to the fragment. A fragment that names no view (a share link) shows the playground and is
/// handed to [`share::open_fragment`]. Call once, under `App`.
pub fn provide_router(state: AppState, api: ApiState) -> RwSignal<Route> {
    let follow = move || {
        let fragment = window().location().hash().unwrap_or_default();
        Route::of_view(&fragment).unwrap_or_else(|| {
            share::open_fragment(state, api, fragment);
            Route::Playground
        })
    };
    let route = RwSignal::new(follow());
    super::js::listen(&window(), "hashchange", move |_| route.set(follow()));
    provide_context(route);
    route
}

pub(crate) fn use_route() -> RwSignal<Route> {
    expect_context::<RwSignal<Route>>()
}

/// The page's title on `route`: the view, then the site.
pub fn title_of(route: &Route) -> String {
    let view = match route {
        Route::Playground | Route::Log => return "JSON-RPC playground".into(),
        Route::Reference(Some(rule)) => format!("{rule} · Rule reference"),
        Route::Reference(None) => "Rule reference".into(),
        Route::Quiz(_) => "Quiz".into(),
        Route::Lessons(Some(i)) => match crate::teach::lessons::LESSONS.get(*i) {
            Some(l) => format!("Lesson {}: {}", i + 1, l.title),
            None => "Lessons".into(),
        },
        Route::Lessons(None) => "Lessons".into(),
    };
    format!("{view} — JSON-RPC playground")
}

/// The views' nav bar (`data-testid="views"`), the current one marked `aria-current="page"`.
#[component]
pub fn Nav() -> impl IntoView {
    let route = use_route();
    let link = move |target: Route, label: &'static str| {
        let (href, view) = (target.fragment(), target.view());
        let current = move || route.with(|r| r.same_view(&target).then_some("page"));
        view! { <a href=href data-view=view aria-current=current>{label}</a> }
    };
    view! {
        <nav class="views" data-testid="views" aria-label="Views">
            {link(Route::Playground, "Playground")}
            {link(Route::Reference(None), "Reference")}
            {link(Route::Quiz(QuizRoute::Mine), "Quiz")}
            {link(Route::Lessons(None), "Lessons")}
        </nav>
    }
}

/// Where the views' module is, as one of its hosts sees it ([`super::later_views`], loaded on the
/// first open of one of the views it holds).
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
                views_bridge::ASK,
                move |ev| match views_bridge::message::<FromViews>(&ev) {
                    Some(FromViews::Ready) => host.module.set(Module::Ready),
                    Some(message) => answer(message),
                    None => {}
                },
            );
            js::listen(&element, views_bridge::UNAVAILABLE, move |ev| {
                let why = views_bridge::detail_text(&ev).unwrap_or_default();
                host.module.set(Module::Failed(why));
            });
        });
    }

    /// Asks src/ui/boot.js to load the module (once for every host; again after a failure) and
    /// mount it into this host.
    pub(crate) fn load(&self) {
        if let Some(element) = self.element.get_untracked() {
            self.module.set(Module::Loading);
            views_bridge::dispatch(&element, views_bridge::LOAD, &JsValue::NULL, true);
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
            views_bridge::send(&element, views_bridge::SHOW, message);
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

/// The teaching view the route names (empty and hidden for the playground): a host of the views'
/// module, loaded on the first open of one of them (src/ui/boot.js loads it when asked:
/// [`views_bridge`]), which is told the route and what it reads of the page, and whose requests
/// (a notice, an example into the editor, an API document, a lesson run's copy in the log) are
/// done here. Until it is mounted: "loading", or why it failed with a retry.
#[component]
pub fn TeachView() -> impl IntoView {
    let route = use_route();
    let app = super::use_app();
    let api = use_api();
    let log = use_log();
    let main = app.teach_main;
    let host = ModuleHost::new();
    host.listen(Rc::new(move |message| answer(message, app, api, log)));
    // Loaded on the first open of a teaching view (once the host is there).
    Effect::new(move |_| {
        if host.element.get().is_some() && !route.with(Route::is_playground) {
            host.load_once();
        }
    });
    // Once mounted, the module is told what it reads of the page, now and on every change, then
    // the route.
    Effect::new(move |_| {
        if host.ready() {
            let context = ToViews::Context {
                profile: profile_to_string(app.profile.get()),
                fixtures: log.fixtures.get(),
                auto_answer: log.auto_answer.get(),
                api: api.reference.with(|r| r.as_ref().map(|r| r.json.clone())),
            };
            host.send(&context);
        }
    });
    Effect::new(move |_| {
        let fragment = route.with(Route::fragment);
        if host.ready() {
            host.send(&ToViews::Show { fragment });
        }
    });
    // While the module loads or after it failed: its status is focused, as a view would be.
    Effect::new(move |_| {
        let waiting = !host.ready() && !route.with(Route::is_playground);
        if let (true, Some(main)) = (waiting, main.get()) {
            request_animation_frame(move || focus_within(&main, "h2"));
        }
    });
    let status = move || {
        host.status(
            "teaching views",
            "The reference, the lessons and the quiz need them",
        )
    };
    view! {
        <main class="teach-host" tabindex="-1" node_ref=main hidden=move || route.with(Route::is_playground)>
            {status}
            <div data-testid="teach-views" data-later-views="teaching" node_ref=host.element></div>
        </main>
    }
}

/// Does what the teaching views ask.
fn answer(message: FromViews, app: AppState, api: ApiState, log: LogState) {
    match message {
        FromViews::Notify { error, text } => notify(app, error, text),
        FromViews::OpenInPlayground {
            text,
            profile,
            what,
        } => {
            let profile = profile_from_str(&profile).unwrap_or_default();
            app.open_in_playground(&text, profile, &what);
        }
        FromViews::LoadApi { source, report } => api.load(source, report.then_some(app)),
        FromViews::CopyToLog { peer, records } => log.log.update(|page| {
            for r in records {
                page.record(&peer, r.direction, r.time_ms, r.raw);
            }
        }),
        // The Probe's and the API panel's requests come from their own hosts.
        FromViews::Ready
        | FromViews::ProbeApi { .. }
        | FromViews::ProbeApiCancel
        | FromViews::FetchApi { .. }
        | FromViews::UnloadApi
        | FromViews::DiscoverApi
        | FromViews::LogReply { .. }
        | FromViews::LogAnswer { .. } => {}
    }
}
