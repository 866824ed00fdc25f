//! Teaching views beside the playground, chosen by the URL fragment ([`crate::teach::route`]):
//! the rule reference, the quiz and the lessons, with a nav bar. Any static host serves every
//! view (the fragment never reaches the server); share links (`#s=…`) still open in the playground.
//! The playground stays mounted while another view shows, so its text, log and mock session stay.
//!
//! The views are engine data rendered by a small DOM builder ([`dom`]) into one host element,
//! rebuilt whole when their state ([`Teach`]) changes; one delegated listener per event type reads
//! the `data-act` of what was clicked. (Generic view types cost the wasm far more for pages that
//! are mostly static text.)

mod lessons;
mod quiz;
mod reference;

pub(crate) use reference::profile_name;

use std::cell::RefCell;

use crate::ui::prelude::*;
use wasm_bindgen::JsCast;

use super::dom::{self, h};
use super::{AppState, NoticeLevel};
use crate::rpc::Profile;
use crate::teach::progress::Progress;
use crate::teach::quiz::{Grade, Item};
use crate::teach::route::Route;

/// The current route, from the fragment now and on every `hashchange`. Call once, under `App`.
pub fn provide_router() -> RwSignal<Route> {
    let hash = || window().location().hash().unwrap_or_default();
    let route = RwSignal::new(Route::parse(&hash()));
    dom::listen(&window(), "hashchange", move |_| {
        route.set(Route::parse(&hash()))
    });
    provide_context(route);
    route
}

fn use_route() -> RwSignal<Route> {
    expect_context::<RwSignal<Route>>()
}

/// One question on the page: the item, what the learner pointed at or picked, the grade.
pub(crate) struct Slot {
    pub item: Item,
    pub click: Option<usize>,
    pub rule: String,
    pub grade: Option<Grade>,
    /// Counts in the saved score (the learner's own series).
    pub counts: bool,
    /// Shows a link to this question.
    pub share: bool,
}

impl Slot {
    pub fn new(item: Item, counts: bool, share: bool) -> Slot {
        Slot {
            item,
            click: None,
            rule: String::new(),
            grade: None,
            counts,
            share,
        }
    }
}

/// The teaching views' state (the page's one copy; wasm is single-threaded).
#[derive(Default)]
pub(crate) struct Teach {
    app: Option<AppState>,
    host: Option<web_sys::Element>,
    route: Option<Route>,
    /// Slot 0: the view's question; slot 1: the learner's own message ("is this right?").
    pub slots: [Option<Slot>; 2],
    /// The series' progress (quiz view only), and whether a failed save was reported.
    pub progress: Option<Progress>,
    pub warned: bool,
    pub own_text: String,
    /// What the lesson's example exchanged with the mock server, once run.
    pub runs: Option<Vec<(String, Option<String>)>>,
    /// What to focus after the next rebuild (the control the learner used is rebuilt too).
    pub focus: Option<String>,
}

thread_local! {
    static TEACH: RefCell<Teach> = RefCell::new(Teach::default());
}

/// Shows `route` in the host (a new route starts its view's state afresh).
fn show(route: Route) {
    TEACH.with_borrow_mut(|t| {
        if t.route.as_ref() != Some(&route) {
            t.slots = [None, None];
            t.progress = None;
            t.runs = None;
            t.route = Some(route);
        }
    });
    rerender();
}

/// Builds the current view again from the state.
fn rerender() {
    TEACH.with_borrow_mut(|t| {
        let (Some(host), Some(app), Some(route)) = (t.host.clone(), t.app, t.route.clone()) else {
            return;
        };
        host.set_text_content(None);
        let view = match &route {
            Route::Playground => return,
            Route::Reference(focus) => reference::view(focus.as_deref()),
            Route::Quiz(which) => quiz::view(t, app, which),
            Route::Lessons(index) => lessons::view(t, *index),
        };
        crate::ui::dom::replace(&host, [view]);
        let wanted = t.focus.take().unwrap_or_else(|| "[data-focus]".into());
        if let Some(el) = host.query_selector(&wanted).ok().flatten() {
            el.scroll_into_view();
            if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
        }
    });
}

/// Puts `text` into the playground's editor with `profile` and shows the playground.
pub(crate) fn open_in_playground(app: AppState, text: &str, profile: Profile, what: &str) {
    app.profile.set(profile);
    app.text.set(text.to_string());
    if let Some(editor) = app.editor.get_untracked() {
        editor.set_value(text);
    }
    let _ = window().location().set_hash("/");
    app.notify(
        NoticeLevel::Info,
        format!("Loaded into the editor: {what}."),
    );
}

/// The views' nav bar (`data-testid="views"`), the current one marked `aria-current="page"`.
pub fn nav() -> web_sys::Element {
    let route = use_route();
    let nav = h("nav")
        .class("views")
        .testid("views")
        .attr("aria-label", "Views")
        .el();
    for (view, href, label) in [
        ("playground", "#/", "Playground"),
        ("reference", "#/reference", "Reference"),
        ("quiz", "#/quiz", "Quiz"),
        ("lessons", "#/lessons", "Lessons"),
    ] {
        let link = h("a")
            .attr("href", href)
            .attr("data-view", view)
            .text(label)
            .el();
        dom::bind_attr(&link, "aria-current", move || {
            route.with(|r| (r.view() == view).then(|| "page".to_string()))
        });
        let _ = nav.append_child(&link);
    }
    nav
}

/// The element an event happened on, or its closest ancestor matching `selector`.
fn target(ev: &web_sys::Event, selector: &str) -> Option<web_sys::Element> {
    ev.target()?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest(selector)
        .ok()
        .flatten()
}

fn slot_of(el: &web_sys::Element) -> usize {
    usize::from(el.get_attribute("data-q").as_deref() == Some("1"))
}

/// The host of the teaching view the route names (empty and hidden for the playground).
pub fn teach_view() -> web_sys::Element {
    let route = use_route();
    let app = super::use_app();
    let on_click = move |ev: web_sys::Event| {
        if let Some(pre) = target(&ev, ".quiz-message") {
            quiz::pick(slot_of(&pre), &pre);
            return;
        }
        let Some(el) = target(&ev, "[data-act]") else {
            return;
        };
        let act = el.get_attribute("data-act").unwrap_or_default();
        match act.as_str() {
            "try" => reference::try_it(app, &el),
            "answer" => quiz::answer(app, slot_of(&el), &el),
            "next" | "restart" | "own" => quiz::act(app, &act),
            "run" | "open" => lessons::act(app, &act),
            _ => {}
        }
    };
    let on_change = move |ev: web_sys::Event| {
        if let Some(select) = target(&ev, "select[data-q]") {
            let q = slot_of(&select);
            let rule = dom::prop(&select, "value").unwrap_or_default();
            TEACH.with_borrow_mut(|t| {
                if let Some(slot) = &mut t.slots[q] {
                    slot.rule = rule;
                }
            });
        }
    };
    let on_input = move |ev: web_sys::Event| {
        if let Some(area) = target(&ev, "textarea") {
            let text = dom::prop(&area, "value").unwrap_or_default();
            TEACH.with_borrow_mut(|t| t.own_text = text);
        }
    };
    let host = h("div")
        .class("teach-host")
        .on("click", on_click)
        .on("change", on_change)
        .on("input", on_input)
        .el();
    dom::bind_flag(&host, "hidden", move || {
        route.with(|r| *r == Route::Playground)
    });
    TEACH.with_borrow_mut(|t| {
        t.app = Some(app);
        t.host = Some(host.clone());
    });
    // Syncs the host's DOM with the route (and the view's state).
    dom::effect(move || show(route.get()));
    host
}
