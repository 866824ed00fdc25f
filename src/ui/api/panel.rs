//! The API panel (`data-testid="api-panel"`): an OpenRPC document loaded by Open file, drop,
//! paste or URL; what it is (title, version, methods) or, when it was refused, each problem
//! located (line:column, JSON pointer, rule with its reference link).

use crate::ui::prelude::spawn_local;
use crate::ui::prelude::*;

use super::{use_api, ApiState, Source};
use crate::teach::route::Route;
use crate::ui::playground::open_file::{dropped_file, file_picker, read_text};
use crate::ui::state::{use_app, AppState, NoticeLevel};

/// Reads `file` and offers it as the document.
fn offer_file(api: ApiState, app: AppState, file: web_sys::File) {
    let max = crate::openrpc::MAX_DOCUMENT_BYTES as f64;
    spawn_local(async move {
        match read_text(&file, max).await {
            Ok(text) => api.load(
                Source {
                    text,
                    url: None,
                    name: file.name(),
                },
                Some(app),
            ),
            Err(why) => app.notify(NoticeLevel::Error, why),
        }
    });
}

/// The id of the `rpc.discover` request the panel sends over the live link.
const DISCOVER_ID: &str = "openrpc-discover";

/// The document in `reply` (a response to [`DISCOVER_ID`]), as text (pretty-printed); `Err`:
/// the reply's error, as the server wrote it. Read with the engine's own parser, which the page
/// has anyway: serde_json's `Value` was on the page for this alone (docs/size-rules.md 16).
fn discovered(reply: &str) -> Option<Result<String, String>> {
    let (parsed, _) = crate::json::parse_document(reply.as_bytes(), 0).ok()?;
    let root = &parsed.root;
    if root.get("id")?.as_str()? != DISCOVER_ID {
        return None;
    }
    let text = |node: &crate::json::Node| &reply[node.span.start..node.span.end];
    Some(match (root.get("result"), root.get("error")) {
        (Some(result), _) => {
            Ok(crate::json::pretty(text(result)).unwrap_or_else(|_| text(result).to_string()))
        }
        (None, Some(error)) => Err(text(error).to_string()),
        (None, None) => Err("the reply has neither a result nor an error".into()),
    })
}

#[component]
pub fn DocumentPanel() -> impl IntoView {
    let app = use_app();
    let api = use_api();
    let link = use_context::<crate::ui::link::Link>();
    let log = crate::ui::exchange::use_log().log;
    // The log's key from which a reply to rpc.discover is awaited (None: none is).
    let awaiting = StoredValue::new(None::<u64>);
    let discover = move |_| {
        let Some(link) = link else { return };
        let from = log.with_untracked(|l| l.next_key());
        let request =
            format!(r#"{{"jsonrpc": "2.0", "method": "rpc.discover", "id": "{DISCOVER_ID}"}}"#);
        match link.send(&request) {
            Ok(_) => awaiting.set_value(Some(from)),
            Err(why) => app.notify(NoticeLevel::Error, why),
        }
    };
    // The server's answer to rpc.discover, when it comes: its document offered to the API.
    Effect::new(move |_| {
        let Some(from) = awaiting.get_value() else {
            log.track();
            return;
        };
        let found = log.with(|l| {
            l.entries()
                .iter()
                .filter(|e| e.key >= from && e.direction == crate::exchange::Direction::In)
                .find_map(|e| discovered(&e.raw).map(|d| (d, e.peer.clone())))
        });
        let Some((document, peer)) = found else {
            return;
        };
        awaiting.set_value(None);
        match document {
            Ok(text) => api.load(
                Source {
                    text,
                    url: None,
                    name: format!("rpc.discover at {peer}"),
                },
                Some(app),
            ),
            Err(why) => app.notify(
                NoticeLevel::Error,
                format!("{peer} answered rpc.discover with an error: {why}"),
            ),
        }
    });
    let pasted = RwSignal::new(String::new());
    let url = RwSignal::new(String::new());
    let allow_drop = |e: leptos::ev::DragEvent| {
        if e.data_transfer()
            .is_some_and(|d| d.types().includes(&"Files".into(), 0))
        {
            e.prevent_default();
        }
    };
    let drop_file = move |e: leptos::ev::DragEvent| {
        if let Some(file) = dropped_file(&e) {
            e.prevent_default();
            // Not into the editor too (the editor pane takes drops as well).
            e.stop_propagation();
            offer_file(api, app, file);
        }
    };
    let load_pasted = move |_| {
        let text = pasted.get_untracked();
        if text.trim().is_empty() {
            app.notify(
                NoticeLevel::Info,
                "Paste an OpenRPC document (JSON) into the box first.",
            );
            return;
        }
        api.load(
            Source {
                text,
                url: None,
                name: "pasted".into(),
            },
            Some(app),
        );
    };
    let fetch = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let address = url.get_untracked().trim().to_string();
        if !address.is_empty() {
            api.fetch(address, app);
        }
    };
    let status = move || {
        if api.busy.get() {
            return "Reading the API document…".to_string();
        }
        match (api.reference.get(), api.source.get()) {
            (Some(r), Some(s)) => format!(
                "{} {}: {} method{} (from {}). Messages are checked against it; the mock serves it.",
                r.title,
                r.version,
                r.methods,
                if r.methods == 1 { "" } else { "s" },
                s.name
            ),
            _ => "No API document: messages are checked against JSON-RPC alone.".to_string(),
        }
    };
    let errors = move || {
        api.errors.get().map(|(name, errors)| {
            let items = errors
                .into_iter()
                .map(|e| {
                    view! {
                        <li data-testid="openrpc-error" data-rule=e.rule.clone() data-pointer=e.pointer.clone()>
                            <span class="at">{format!("{}:{}", e.line, e.column)}</span>
                            " "
                            <code>{if e.pointer.is_empty() { "/".to_string() } else { e.pointer.clone() }}</code>
                            " — "
                            {e.message}
                            " "
                            <a href=Route::Reference(Some(e.rule.clone())).fragment()>{e.rule.clone()}</a>
                        </li>
                    }
                })
                .collect_view();
            view! {
                <div class="api-errors" role="alert">
                    <p>{format!("{name} was not loaded: it is not a valid OpenRPC document.")}</p>
                    <ul data-testid="openrpc-errors">{items}</ul>
                </div>
            }
        })
    };
    let failure = move || {
        api.check.failure.get().map(|why| {
            view! {
                <p class="api-failure" role="alert" data-testid="openrpc-failure">
                    {format!("The API could not run in this page: {why}")}
                </p>
            }
        })
    };
    view! {
        <details class="api-panel" data-testid="api-panel" on:dragover=allow_drop on:drop=drop_file>
            <summary>"Your API (OpenRPC)"</summary>
            <p data-testid="openrpc-status" aria-live="polite">{status}</p>
            <p class="api-actions">
                {file_picker(
                    ("openrpc-open", "openrpc-file-input"),
                    "Open an OpenRPC document (JSON) from a file; or drop it on this panel",
                    "Open document…",
                    ".json,application/json",
                    move |file| offer_file(api, app, file),
                )}
                " "
                <button
                    type="button"
                    data-testid="openrpc-discover"
                    title="Ask the live link's server for its document (rpc.discover, OpenRPC's own method)"
                    on:click=discover
                >
                    "Ask the live link (rpc.discover)"
                </button>
                " "
                <a href=Route::Reference(None).fragment() data-testid="openrpc-reference-link" hidden=move || !api.loaded()>"Its reference"</a>
                " "
                <button type="button" data-testid="openrpc-unload" hidden=move || !api.loaded() on:click=move |_| api.unload()>
                    "Unload"
                </button>
            </p>
            <form class="api-url" on:submit=fetch>
                <label>
                    "URL "
                    <input
                        type="url"
                        data-testid="openrpc-url"
                        placeholder="https://…/openrpc.json"
                        prop:value=move || url.get()
                        on:input=move |ev| url.set(event_target_value(&ev))
                    />
                </label>
                " "
                <button type="submit" data-testid="openrpc-fetch">"Fetch"</button>
            </form>
            <label class="api-paste">
                "Or paste it "
                <textarea
                    data-testid="openrpc-paste"
                    rows="3"
                    spellcheck="false"
                    prop:value=move || pasted.get()
                    on:input=move |ev| pasted.set(event_target_value(&ev))
                ></textarea>
            </label>
            <button type="button" data-testid="openrpc-load-pasted" on:click=load_pasted>"Load pasted"</button>
            {errors}
            {failure}
        </details>
    }
}
