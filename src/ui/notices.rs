//! Notices to the user (share link errors, storage problems): one line each, newest last.
//! Information is a polite live region (`role="status"`), an error an assertive one
//! (`role="alert"`); each has a real button to dismiss it (Tab to it, Enter or Space), and
//! Escape inside a notice dismisses it too.

use leptos::ev::KeyboardEvent;
use leptos::prelude::*;

use super::{use_app, NoticeLevel};

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
                    {
                        let key = notice.key;
                        let (role, level, label) = match notice.level {
                            NoticeLevel::Info => ("status", "info", "Note"),
                            NoticeLevel::Error => ("alert", "error", "Error"),
                        };
                        let on_key = move |ev: KeyboardEvent| {
                            if ev.key() == "Escape" {
                                dismiss(key);
                            }
                        };
                        view! {
                            <li class=format!("notice {level}") data-testid="notice" data-level=level on:keydown=on_key>
                                <p role=role>
                                    <strong class="notice-level">{label} ": "</strong>
                                    {notice.text}
                                </p>
                                <button
                                    type="button"
                                    class="dismiss"
                                    data-testid="dismiss"
                                    aria-label=format!("Dismiss this {}", label.to_lowercase())
                                    title="Dismiss (Esc)"
                                    on:click=move |_| dismiss(key)
                                >
                                    "×"
                                </button>
                            </li>
                        }
                    }
                </For>
            </ul>
        </aside>
    }
}
