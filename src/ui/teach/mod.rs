//! Teaching views beside the playground, chosen by the URL fragment ([`crate::teach::route`]):
//! the rule reference, the quiz and the lessons, with a nav bar. Any static host serves every
//! view (the fragment never reaches the server); share links (`#s=…`) still open in the playground.
//! The playground stays mounted while another view shows, so its text, log and mock session stay.

mod lessons;
mod quiz;
mod reference;

use leptos::prelude::*;

use super::{AppState, NoticeLevel};
use crate::rpc::Profile;
use crate::teach::route::Route;

/// The current route, from the fragment now and on every `hashchange`. Call once, under `App`.
pub fn provide_router() -> RwSignal<Route> {
    let hash = || window().location().hash().unwrap_or_default();
    let route = RwSignal::new(Route::parse(&hash()));
    let listener = window_event_listener(leptos::ev::hashchange, move |_| route.set(Route::parse(&hash())));
    on_cleanup(move || listener.remove());
    provide_context(route);
    route
}

fn use_route() -> RwSignal<Route> {
    expect_context::<RwSignal<Route>>()
}

/// Puts `text` into the playground's editor with `profile` and shows the playground.
pub(crate) fn open_in_playground(app: AppState, text: &str, profile: Profile, what: &str) {
    app.profile.set(profile);
    app.text.set(text.to_string());
    if let Some(editor) = app.editor.get_untracked() {
        editor.set_value(text);
    }
    let _ = window().location().set_hash("/");
    app.notify(NoticeLevel::Info, format!("Loaded into the editor: {what}."));
}

/// The views' nav bar (`data-testid="views"`), the current one marked `aria-current="page"`.
#[component]
pub fn Nav() -> impl IntoView {
    let route = use_route();
    let links = [("playground", "#/", "Playground"), ("reference", "#/reference", "Reference"), ("quiz", "#/quiz", "Quiz"), ("lessons", "#/lessons", "Lessons")]
        .into_iter()
        .map(|(view, href, label)| {
            let current = move || route.with(|r| (r.view() == view).then_some("page"));
            view! { <a href=href data-view=view aria-current=current>{label}</a> }
        })
        .collect_view();
    view! { <nav class="views" data-testid="views" aria-label="Views">{links}</nav> }.into_any()
}

/// The teaching view the route names (nothing for the playground, which `App` shows itself).
#[component]
pub fn TeachView() -> impl IntoView {
    let route = use_route();
    let app = super::use_app();
    move || match route.get() {
        Route::Playground => ().into_any(),
        Route::Reference(focus) => reference::reference(app, focus),
        Route::Quiz(which) => quiz::quiz(app, which),
        Route::Lessons(index) => lessons::lessons(app, index),
    }
}
