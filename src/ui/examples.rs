//! The examples library (`data-testid="examples"`): a list grouped by category; choosing one
//! loads it into the editor with its profile. The examples are engine data ([`crate::examples`]).

use crate::ui::prelude::*;

use super::dom::{self, h};
use super::state::{use_app, AppState, NoticeLevel};
use crate::examples::{self, Example};

/// Loads `example` into the editor: the text (the signal and the textarea) and the profile.
pub fn load(app: AppState, example: &Example) {
    app.profile.set(example.profile);
    app.text.set(example.text.to_string());
    if let Some(editor) = app.editor.get_untracked() {
        editor.set_value(example.text);
    }
    app.notify(
        NoticeLevel::Info,
        format!("Example loaded: {}. {}", example.title, example.about),
    );
}

/// Browse and load an example into the editor, with its profile.
pub fn examples_menu() -> web_sys::Element {
    let app = use_app();
    let groups = examples::by_category().into_iter().map(|(category, list)| {
        h("optgroup")
            .attr("label", category)
            .children(list.into_iter().map(|e| {
                h("option")
                    .attr("value", e.id)
                    .attr("title", e.about)
                    .text(e.title)
            }))
    });
    let on_change = move |ev: web_sys::Event| {
        let id = dom::target_value(&ev);
        if let Some(example) = examples::find(&id) {
            load(app, example);
        }
        // Back to the prompt, so the same example can be chosen again.
        if let Some(select) = ev.target() {
            dom::set_prop(&select, "value", &"".into());
        }
    };
    let select = h("select")
        .class("examples-select")
        .testid("examples")
        .on("change", on_change)
        .child(
            h("option")
                .attr("value", "")
                .flag("selected", true)
                .text("Examples…"),
        )
        .children(groups);
    h("label")
        .class("examples-label")
        .child(h("span").class("visually-hidden").text("Load an example"))
        .child(select)
        .el()
}
