//! The editor: a plain textarea. Its text goes to a signal on every input; it is never parsed as
//! HTML. (Byte offsets ↔ UTF-16 units, when the editor starts placing the caret, convert here.)

use leptos::prelude::*;

/// The JSON-RPC text being checked.
#[component]
pub fn Editor() -> impl IntoView {
    let state = super::use_app();
    let text = state.text;
    view! {
        <label class="editor">
            <span class="label">"Messages (one JSON value, a stream, or a --> / <-- transcript)"</span>
            <textarea
                data-testid="editor"
                node_ref=state.editor
                spellcheck="false"
                autocomplete="off"
                prop:value=text.get_untracked()
                on:input:target=move |ev| text.set(ev.target().value())
            ></textarea>
        </label>
    }
}
