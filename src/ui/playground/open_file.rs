//! Opening a file into the editor: a message, a stream, or a `-->`/`<--` transcript (what
//! `jrpc tap --transcript` and `jrpc probe --transcript` record), by the toolbar's "Open file…"
//! (`data-testid="open-file"`, a file picker) or by dropping a file on the editor pane. The text
//! replaces the editor's as one undoable edit and is checked like typed text.
//!
//! A file that is not UTF-8 text, or is larger than [`MAX_FILE_BYTES`], is refused with a notice
//! saying why (and where the first bad byte is); the editor is not touched.

use crate::ui::prelude::spawn_local;
use crate::ui::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::js_sys::{futures::JsFuture, Uint8Array};

use crate::ui::{use_app, AppState, NoticeLevel};

/// The largest file opened (the worker checks texts up to this size off the main thread).
pub const MAX_FILE_BYTES: f64 = 64.0 * 1024.0 * 1024.0;

/// Reads `file` and puts its text in the editor, or says why not.
pub fn open(app: AppState, file: web_sys::File) {
    spawn_local(async move {
        match read_text(&file, MAX_FILE_BYTES).await {
            Ok(text) => {
                app.replace_text_undoably(&text);
                app.notify(
                    NoticeLevel::Info,
                    format!(
                        "Opened {} ({} bytes). Ctrl+Z brings back what was there.",
                        file.name(),
                        text.len()
                    ),
                );
            }
            Err(why) => app.notify(NoticeLevel::Error, why),
        }
    });
}

/// The text of `file` (UTF-8, at most `max` bytes), or why not, in a sentence naming it.
pub async fn read_text(file: &web_sys::File, max: f64) -> Result<String, String> {
    let name = file.name();
    if file.size() > max {
        return Err(format!(
            "{name} is {} MB: files up to {} MB are opened.",
            crate::json::fixed(file.size() / 1_048_576.0, 1),
            crate::json::fixed(max / 1_048_576.0, 0)
        ));
    }
    let bytes = JsFuture::from(file.array_buffer())
        .await
        .map(|b| Uint8Array::new(&b).to_vec())
        .map_err(|e| format!("{name} could not be read: {}", crate::ui::js_error_text(&e)))?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{name} is not UTF-8 text (byte {} is not valid UTF-8): nothing was opened.",
            e.utf8_error().valid_up_to()
        )
    })
}

/// The first file of a drop, if the drop carries files.
pub fn dropped_file(e: &web_sys::DragEvent) -> Option<web_sys::File> {
    e.data_transfer()?.files()?.get(0)
}

/// "Open file…": a button that opens the browser's file picker; the chosen file goes into the
/// editor.
#[component]
pub fn OpenFileButton() -> impl IntoView {
    let app = use_app();
    file_picker(
        ("open-file", "open-file-input"),
        "Open a message, a stream or a transcript (.json, .jsonl, .ndjson, .txt) from a file; or drop the file on the editor",
        "Open file…",
        ".json,.jsonl,.ndjson,.txt,.log,application/json,text/plain",
        move |file| open(app, file),
    )
}

/// A button (`testids.0`) that opens the browser's file picker (a hidden input, `testids.1`,
/// taking `accept`); `chosen` gets the file picked.
pub fn file_picker(
    testids: (&'static str, &'static str),
    title: &'static str,
    label: &'static str,
    accept: &'static str,
    chosen: impl Fn(web_sys::File) + 'static,
) -> impl IntoView {
    let input = NodeRef::<leptos::html::Input>::new();
    let changed = move |e: leptos::ev::Event| {
        let Some(target) = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        if let Some(file) = target.files().and_then(|f| f.get(0)) {
            chosen(file);
        }
        // The same file chosen again is a new change.
        target.set_value("");
    };
    view! {
        <button
            type="button"
            data-testid=testids.0
            title=title
            on:click=move |_| {
                if let Some(input) = input.get_untracked() {
                    input.click();
                }
            }
        >
            {label}
        </button>
        <input node_ref=input type="file" hidden data-testid=testids.1 accept=accept on:change=changed />
    }
}
