//! Files the user gives the page: read as UTF-8 text within a bound, taken from a drop, picked
//! with the browser's file picker. The editor's Open file and the API panel's document both use
//! them, on the page and in the views' module.

use wasm_bindgen::JsCast;
use web_sys::js_sys::{futures::JsFuture, Uint8Array};

use crate::web::kit::prelude::*;
use crate::wire::api::Source;

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
        .map_err(|e| {
            format!(
                "{name} could not be read: {}",
                crate::web::kit::js::js_error_text(&e)
            )
        })?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{name} is not UTF-8 text (byte {} is not valid UTF-8): nothing was opened.",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Reads `file` (at most the engine's bound on a document) as a document named after it: what the
/// API panel offers of a file dropped on it (the page) or opened from it (its body).
pub async fn read_source(file: &web_sys::File) -> Result<Source, String> {
    let max = crate::openrpc::MAX_DOCUMENT_BYTES as f64;
    let text = read_text(file, max).await?;
    Ok(Source {
        text,
        url: None,
        name: file.name(),
    })
}

/// The first file of a drop, if the drop carries files.
pub fn dropped_file(e: &web_sys::DragEvent) -> Option<web_sys::File> {
    e.data_transfer()?.files()?.get(0)
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
