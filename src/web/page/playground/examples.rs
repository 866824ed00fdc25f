//! The examples library (`data-testid="examples"`): a list grouped by category; choosing one
//! loads it into the editor with its profile. The examples are engine data ([`crate::examples`]):
//! the page lists them from the engine's menu and fetches their texts on the first pick
//! ([`super::library`]).

use crate::web::kit::prelude::*;

use crate::examples::{self, Example};
use crate::teach::route::Route;
use crate::web::page::state::{use_app, AppState, NoticeLevel};

/// Loads `example` into the editor: the profile, and the text as one edit the browser's undo
/// (Ctrl+Z) takes back, so loading an example never destroys what the learner wrote. What it
/// shows is described beside the editor ([`ExampleAbout`]).
pub fn load(app: AppState, example: &'static Example) {
    app.profile.set(example.profile);
    app.replace_text_undoably(example.text);
    app.example.set(Some(example));
}

/// Browse and load an example into the editor, with its profile (`data-testid="examples"`).
/// Behaves as a select: choosing with the mouse (or the open list) loads at once; on the closed
/// control the arrow keys only move through the titles, and Enter loads the one shown (Chromium
/// fires `change` on every arrow key there, which loaded example 1 at once and never let the
/// keyboard reach the others). The first pick fetches the examples' texts: until they are there
/// the control shows the title picked, then its prompt again; a failed fetch says why in a notice,
/// and picking again retries.
#[component]
pub fn ExamplesMenu() -> impl IntoView {
    let app = use_app();
    // The last `change` came from an arrow key on the closed control: browse, do not load.
    let browsing = StoredValue::new(false);
    let groups = examples::menu()
        .into_iter()
        .map(|(category, list)| {
            let options = list
                .into_iter()
                .map(|e| view! { <option value=e.id>{e.title}</option> })
                .collect_view();
            view! { <optgroup label=category>{options}</optgroup> }
        })
        .collect_view();
    let load_chosen = move |select: &web_sys::HtmlSelectElement| {
        let id = select.value();
        if id.is_empty() {
            return;
        }
        let select = select.clone();
        spawn_local(async move {
            match crate::web::page::playground::library::example(&id).await {
                Ok(example) => load(app, example),
                Err(why) => app.notify(
                    NoticeLevel::Error,
                    format!("The example did not load: {why}. Check the connection, then pick it again."),
                ),
            }
            // Back to the prompt, so the same example can be chosen again.
            select.set_value("");
        });
    };
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        let select: web_sys::HtmlSelectElement = event_target(&ev);
        match ev.key().as_str() {
            "ArrowUp" | "ArrowDown" | "PageUp" | "PageDown" | "Home" | "End" if !ev.alt_key() => {
                browsing.set_value(true);
            }
            "Enter" if !select.value().is_empty() => {
                ev.prevent_default();
                load_chosen(&select);
            }
            "Escape" => select.set_value(""),
            _ => {}
        }
    };
    let on_change = move |ev: leptos::ev::Event| {
        let select: web_sys::HtmlSelectElement = event_target(&ev);
        if browsing.get_value() {
            browsing.set_value(false);
            return;
        }
        load_chosen(&select);
    };
    // Left without Enter: the title shown was never loaded, so the prompt comes back.
    let on_blur = move |ev: leptos::ev::FocusEvent| {
        let select: web_sys::HtmlSelectElement = event_target(&ev);
        browsing.set_value(false);
        select.set_value("");
    };
    view! {
        <label class="examples-label">
            <span class="visually-hidden">"Load an example (arrow keys to browse, Enter to load)"</span>
            <select
                class="examples-select"
                data-testid="examples"
                on:keydown=on_keydown
                on:change=on_change
                on:blur=on_blur
            >
                <option value="" selected>"Examples…"</option>
                {groups}
            </select>
        </label>
    }
}

/// What the loaded example shows, beside the editor (`data-testid="example-about"`), with the
/// profile it is checked under; or, before any, the one-line way in (`data-testid="intro"`).
#[component]
pub fn ExampleAbout() -> impl IntoView {
    let app = use_app();
    let example = app.example;
    let dismiss = move |_| {
        example.set(None);
        if let Some(textarea) = app.editor.get_untracked() {
            let _ = textarea.focus();
        }
    };
    let about = move || {
        example.get().map(|e| {
            let profile = e.profile.to_string();
            view! {
                <div class="example-about" data-testid="example-about" data-example=e.id role="status">
                    <p>
                        <strong>{e.title}</strong>": "{e.about}
                        " "<span class="example-profile" data-testid="example-profile">"Checked as "{profile}" (the Profile menu changes it)."</span>
                    </p>
                    <button
                        type="button"
                        class="dismiss"
                        data-testid="example-about-dismiss"
                        aria-label="Hide this description"
                        on:click=dismiss
                    >
                        "×"
                    </button>
                </div>
            }
            .into_any()
        })
    };
    view! {
        <Show
            when=move || example.with(Option::is_some)
            fallback=|| {
                view! {
                    <p class="intro" data-testid="intro">
                        "A playground for JSON-RPC 2.0, the message format of many APIs and of the Model Context Protocol (MCP: how AI applications talk to tools and data servers, over JSON-RPC). For developers learning them, and for anyone checking messages by hand. "
                        "Paste or type a JSON-RPC message: see what it is, then Send it to the mock server. New here? "
                        <a href=Route::Lessons(Some(0)).fragment() data-testid="intro-lesson">"Start with Lesson 1"</a>
                        "."
                    </p>
                }
            }
        >
            {about}
        </Show>
    }
}
