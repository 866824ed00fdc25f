//! Teaching views beside the playground, chosen by the URL fragment ([`crate::teach::route`]):
//! the rule reference, the quiz and the lessons, with a nav bar. Any static host serves every
//! view (the fragment never reaches the server); share links (`#s=…`) still open in the playground.
//! The playground stays mounted while another view shows, so its text, log and mock session stay.
//!
//! The teaching views live in a wasm module of their own, loaded on the first open of one
//! ([`TeachView`], [`super::later_views`]): each view is a component built afresh when the route
//! changes (a new route starts its view's state afresh); within a view the state is signals,
//! owned by the view.

use crate::web::kit::prelude::*;

use std::rc::Rc;

use crate::saved::{profile_from_str, profile_to_string};
use crate::teach::route::{QuizRoute, Route};
use crate::web::kit::js::focus_within;
use crate::web::kit::views_port::{FromViews, ToViews};
use crate::web::page::api::{use_api, ApiState};
use crate::web::page::exchange::{use_log, LogState};
use crate::web::page::module_host::{notify, ModuleHost};
use crate::web::page::share;
use crate::web::page::state::AppState;

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
    crate::web::kit::js::listen(&window(), "hashchange", move |_| route.set(follow()));
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

/// The teaching view the route names (empty and hidden for the playground): a host of the views'
/// module, loaded on the first open of one of them (src/web/js/boot.js loads it when asked:
/// [`views_bridge`]), which is told the route and what it reads of the page, and whose requests
/// (a notice, an example into the editor, an API document, a lesson run's copy in the log) are
/// done here. Until it is mounted: "loading", or why it failed with a retry.
#[component]
pub fn TeachView() -> impl IntoView {
    let route = use_route();
    let app = crate::web::page::state::use_app();
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
