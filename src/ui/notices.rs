//! Notices to the user (share link errors, storage problems): one line each, newest last.
//! Information is a polite live region (`role="status"`), an error an assertive one
//! (`role="alert"`); each has a real button to dismiss it (Tab to it, Enter or Space), and
//! Escape inside a notice dismisses it too.

use crate::ui::prelude::*;

use super::dom::{self, h, KeyedList, Tag};
use super::{use_app, Notice, NoticeLevel};

/// The list of notices (`data-testid="notices"`, each `data-testid="notice"` with `data-level`).
/// Read-only markup from [`super::dom`]; one delegated click and one keydown listener.
pub fn notices() -> web_sys::Element {
    let state = use_app();
    let notices = state.notices;
    let editor = state.editor;
    // Removes the notice; focus, which was on it (its button), goes back to the editor.
    let dismiss = move |key: u64| {
        notices.update(|n| n.retain(|x| x.key != key));
        if let Some(textarea) = editor.get_untracked() {
            let _ = textarea.focus();
        }
    };
    let key_of = |ev: &web_sys::Event| {
        dom::closest_data(ev, "data-key").and_then(|(_, k)| k.parse::<u64>().ok())
    };
    let on_click = move |ev: web_sys::Event| {
        if dom::closest_data(&ev, "data-dismiss").is_some() {
            if let Some(key) = key_of(&ev) {
                dismiss(key);
            }
        }
    };
    let on_keydown = move |ev: web_sys::Event| {
        if dom::prop(&ev, "key").as_deref() == Some("Escape") {
            if let Some(key) = key_of(&ev) {
                dismiss(key);
            }
        }
    };
    let host = h("ul")
        .testid("notices")
        .on("click", on_click)
        .on("keydown", on_keydown)
        .el();
    let list = StoredValue::new_local(KeyedList::default());
    {
        let host = host.clone();
        dom::effect(move || {
            notices.with(|n| list.update_value(|l| l.patch(&host, n, |x| x.key, notice)))
        });
    }
    h("aside")
        .class("notices")
        .attr("aria-label", "Notices")
        .node(host)
        .el()
}

/// One notice: its text in a live region, and a button that dismisses it.
fn notice(n: &Notice) -> Tag {
    let (role, level, class, label, dismiss) = match n.level {
        NoticeLevel::Info => ("status", "info", "notice info", "Note", "Dismiss this note"),
        NoticeLevel::Error => (
            "alert",
            "error",
            "notice error",
            "Error",
            "Dismiss this error",
        ),
    };
    h("li")
        .class(class)
        .testid("notice")
        .attr("data-level", level)
        .attr("data-key", n.key.to_string())
        .child(
            h("p")
                .attr("role", role)
                .child(h("strong").class("notice-level").text(label).text(": "))
                .text(n.text.clone()),
        )
        .child(
            h("button")
                .attr("type", "button")
                .class("dismiss")
                .testid("dismiss")
                .attr("data-dismiss", "")
                .attr("aria-label", dismiss)
                .attr("title", "Dismiss (Esc)")
                .text("×"),
        )
}
