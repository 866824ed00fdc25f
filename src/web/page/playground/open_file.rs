//! Opening a file into the editor: a message, a stream, or a `-->`/`<--` transcript (what
//! `jrpc tap --transcript` and `jrpc probe --transcript` record), by the toolbar's "Open file…"
//! (`data-testid="open-file"`, a file picker) or by dropping a file on the editor pane. The text
//! replaces the editor's as one undoable edit and is checked like typed text.
//!
//! A file that is not UTF-8 text, or is larger than [`MAX_FILE_BYTES`], is refused with a notice
//! saying why (and where the first bad byte is); the editor is not touched.

use crate::web::kit::prelude::spawn_local;
use crate::web::kit::prelude::*;

use crate::web::kit::notice::NoticeLevel;
use crate::web::page::state::use_app;
use crate::web::page::state::AppState;

/// The largest file opened (the worker checks texts up to this size off the main thread).
pub const MAX_FILE_BYTES: f64 = 64.0 * 1024.0 * 1024.0;

/// Reads `file` and puts its text in the editor, or says why not.
pub fn open(app: AppState, file: web_sys::File) {
    spawn_local(async move {
        match crate::web::kit::files::read_text(&file, MAX_FILE_BYTES).await {
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

/// "Open file…": a button that opens the browser's file picker; the chosen file goes into the
/// editor.
#[component]
pub fn OpenFileButton() -> impl IntoView {
    let app = use_app();
    crate::web::kit::files::file_picker(
        ("open-file", "open-file-input"),
        "Open a message, a stream or a transcript (.json, .jsonl, .ndjson, .txt) from a file; or drop the file on the editor",
        "Open file…",
        ".json,.jsonl,.ndjson,.txt,.log,application/json,text/plain",
        move |file| open(app, file),
    )
}
