//! Teaching views beside the playground, chosen by the URL fragment ([`crate::teach::route`]):
//! the rule reference, the quiz and the lessons, with a nav bar. Any static host serves every
//! view (the fragment never reaches the server); share links (`#s=…`) still open in the playground.
//! The playground stays mounted while another view shows, so its text, log and mock session stay.
//!
//! Each view is a component built afresh when the route changes (a new route starts its view's
//! state afresh); within a view the state is signals, owned by the view.

use crate::ui::prelude::*;

use super::api::ApiState;
use super::js::focus_within;
use super::teaching::{pending, provide_teaching, TeachingState};
use super::{lessons, quiz, reference, share, AppState};
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

/// The teaching view the route names (empty and hidden for the playground).
#[component]
pub fn TeachView() -> impl IntoView {
    let route = use_route();
    let app = super::use_app();
    let host = app.teach_main;
    // Fetched on the first open of a teaching view (teaching.rs).
    let teaching = provide_teaching(move || !route.with(Route::is_playground));
    // The view of the route, built afresh when the route changes, once the text is there.
    let view = move || match (route.get(), teaching.get()) {
        (Route::Playground | Route::Log, _) => ().into_any(),
        (Route::Reference(focus), TeachingState::Ready(text)) => {
            view! { <reference::Reference app focus text /> }.into_any()
        }
        (Route::Quiz(which), TeachingState::Ready(text)) => {
            view! { <quiz::Quiz app which text /> }.into_any()
        }
        (Route::Lessons(index), TeachingState::Ready(text)) => {
            view! { <lessons::Lessons app index text /> }.into_any()
        }
        _ => pending(teaching),
    };
    // Once a view is built: its focus target (`data-focus`, else its heading) is scrolled to and
    // focused, so a keyboard or screen-reader user lands in the view they opened. On the next
    // frame: when the teaching text arrives, this runs before the view that shows it is built.
    Effect::new(move |_| {
        route.track();
        teaching.track();
        if let Some(host) = host.get() {
            request_animation_frame(move || {
                let target = if host.query_selector("[data-focus]").ok().flatten().is_some() {
                    "[data-focus]"
                } else {
                    "h2"
                };
                focus_within(&host, target);
            });
        }
    });
    view! {
        <main class="teach-host" tabindex="-1" node_ref=host hidden=move || route.with(Route::is_playground)>
            {view}
        </main>
    }
}
