//! The examples library (`data-testid="examples"`): a list grouped by category; choosing one
//! loads it into the editor with its profile. The examples are engine data ([`crate::examples`]).

use crate::ui::prelude::*;

use super::state::{use_app, AppState, NoticeLevel};
use crate::examples::{self, Example};

/// Loads `example` into the editor: the profile, and the text as one edit the browser's undo
/// (Ctrl+Z) takes back, so loading an example never destroys what the learner wrote.
pub fn load(app: AppState, example: &Example) {
    app.profile.set(example.profile);
    super::controls::replace_all_undoably(app, example.text);
    app.notify(
        NoticeLevel::Info,
        format!("Example loaded: {}. {}", example.title, example.about),
    );
}

/// Browse and load an example into the editor, with its profile (`data-testid="examples"`).
#[component]
pub fn ExamplesMenu() -> impl IntoView {
    let app = use_app();
    let groups = examples::by_category()
        .into_iter()
        .map(|(category, list)| {
            let options = list
                .into_iter()
                .map(|e| view! { <option value=e.id title=e.about>{e.title}</option> })
                .collect_view();
            view! { <optgroup label=category>{options}</optgroup> }
        })
        .collect_view();
    let on_change = move |ev: leptos::ev::Event| {
        if let Some(example) = examples::find(&event_target_value(&ev)) {
            load(app, example);
        }
        // Back to the prompt, so the same example can be chosen again.
        let select: web_sys::HtmlSelectElement = event_target(&ev);
        select.set_value("");
    };
    view! {
        <label class="examples-label">
            <span class="visually-hidden">"Load an example"</span>
            <select class="examples-select" data-testid="examples" on:change=on_change>
                <option value="" selected>"Examples…"</option>
                {groups}
            </select>
        </label>
    }
}
