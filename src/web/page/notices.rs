//! Notices to the user (share link errors, storage problems): one line each, newest last.
//! Information is a polite live region (`role="status"`), an error an assertive one
//! (`role="alert"`); each has a real button to dismiss it (Tab to it, Enter or Space), and
//! Escape inside a notice dismisses it too.

use crate::web::kit::prelude::*;

use crate::web::kit::notice::NoticeLevel;
use crate::web::page::state::use_app;
use crate::web::page::state::Notice;

/// The list of notices (`data-testid="notices"`, each `data-testid="notice"` with `data-level`).
#[component]
pub fn Notices() -> impl IntoView {
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
    view! {
        <aside class="notices" aria-label="Notices">
            <ul data-testid="notices">
                <For each=move || notices.get() key=|n| n.key let:notice>
                    <NoticeItem notice dismiss />
                </For>
            </ul>
        </aside>
    }
}

/// One notice: its text in a live region, and a button that dismisses it (Escape inside the
/// notice does too).
#[component]
fn NoticeItem(notice: Notice, dismiss: impl Fn(u64) + Copy + 'static) -> impl IntoView {
    let (role, level, class, label, dismiss_label) = match notice.level {
        NoticeLevel::Info => ("status", "info", "notice info", "Note", "Dismiss this note"),
        NoticeLevel::Error => (
            "alert",
            "error",
            "notice error",
            "Error",
            "Dismiss this error",
        ),
    };
    let key = notice.key;
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Escape" {
            dismiss(key);
        }
    };
    view! {
        <li class=class data-testid="notice" data-level=level data-key=key.to_string() on:keydown=on_keydown>
            <p role=role>
                <strong class="notice-level">{label}": "</strong>
                {notice.text}
            </p>
            <button
                type="button"
                class="dismiss"
                data-testid="dismiss"
                data-dismiss=""
                aria-label=dismiss_label
                title="Dismiss (Esc)"
                on:click=move |_| dismiss(key)
            >
                "×"
            </button>
        </li>
    }
}
