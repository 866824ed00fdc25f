//! The API panel (`data-testid="api-panel"`, closed at first view), the page's side: its body
//! (what the document in use is, or each problem of the one refused; Open file, URL, paste,
//! `rpc.discover`, Unload: [`super::panel_body`]) is rendered by the views' module
//! (src/bin/later_views.rs), loaded and mounted into the panel's host on its first open, so the
//! page's first load carries none of it. Until it is mounted the panel says it is loading, or why
//! it did not load with a retry. The page keeps the API's state ([`ApiState`]), tells the body
//! what it reads of it ([`ApiPanelContext`]) and does what it asks: load, fetch, unload, and
//! `rpc.discover` over the live link (the page's link and log). A file dropped on the panel is
//! loaded by the page, open or closed.

use crate::web::kit::prelude::spawn_local;
use crate::web::kit::prelude::*;

use std::rc::Rc;

use crate::web::kit::files::dropped_file;
use crate::web::kit::views_port::{ApiPanelContext, DocumentInUse, FromViews, ToViews};
use crate::web::page::api::{use_api, ApiState, Source};
use crate::web::page::exchange::use_log;
use crate::web::page::module_host::{notify, ModuleHost};
use crate::web::page::state::{use_app, AppState, NoticeLevel};

/// Reads `file` and offers it as the document.
fn offer_file(api: ApiState, app: AppState, file: web_sys::File) {
    spawn_local(async move {
        match crate::web::kit::files::read_source(&file).await {
            Ok(source) => api.load(source, Some(app)),
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

/// What the panel's body reads of the API's state (tracked).
fn context(api: ApiState) -> ApiPanelContext {
    let in_use = api.reference.with(|r| {
        api.source.with(|s| match (r, s) {
            (Some(r), Some(s)) => Some(DocumentInUse {
                title: r.title.clone(),
                version: r.version.clone(),
                methods: r.methods,
                from: s.name.clone(),
            }),
            _ => None,
        })
    });
    ApiPanelContext {
        busy: api.busy.get(),
        in_use,
        refused: api.errors.get(),
        failure: api.check.failure.get(),
    }
}

/// Asks the live link's server for its document (`rpc.discover`); its reply is awaited in `log`
/// from the key `awaiting` is set to.
fn discover(
    app: AppState,
    link: crate::web::page::link::Link,
    log: RwSignal<crate::exchange::Log>,
    awaiting: StoredValue<Option<u64>>,
) {
    let from = log.with_untracked(|l| l.next_key());
    let request =
        format!(r#"{{"jsonrpc": "2.0", "method": "rpc.discover", "id": "{DISCOVER_ID}"}}"#);
    match link.send(&request) {
        Ok(_) => awaiting.set_value(Some(from)),
        Err(why) => app.notify(NoticeLevel::Error, why),
    }
}

#[component]
pub fn DocumentPanel() -> impl IntoView {
    let app = use_app();
    let api = use_api();
    let log = use_log().log;
    let link = use_context::<crate::web::page::link::Link>();
    // The log's key from which a reply to rpc.discover is awaited (None: none is).
    let awaiting = StoredValue::new(None::<u64>);
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
    let host = ModuleHost::new();
    host.listen(Rc::new(move |message| match message {
        FromViews::Notify { error, text } => notify(app, error, text),
        FromViews::LoadApi { source, report } => api.load(source, report.then_some(app)),
        FromViews::FetchApi { url } => api.fetch(url, app),
        FromViews::UnloadApi => api.unload(),
        FromViews::DiscoverApi => {
            if let Some(link) = link {
                discover(app, link, log, awaiting);
            }
        }
        FromViews::Ready
        | FromViews::OpenInPlayground { .. }
        | FromViews::CopyToLog { .. }
        | FromViews::ProbeApi { .. }
        | FromViews::ProbeApiCancel
        | FromViews::LogReply { .. }
        | FromViews::LogAnswer { .. } => {}
    }));
    // Once mounted, the body is told what it reads of the API's state, now and on every change.
    Effect::new(move |_| {
        if host.ready() {
            host.send(&ToViews::Api(context(api)));
        }
    });
    // Loaded on the panel's first open.
    let toggle = move |ev: leptos::ev::Event| {
        if event_target::<web_sys::Element>(&ev).has_attribute("open") {
            host.load_once();
        }
    };
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
    let status = move || host.status("API panel", "The API panel needs it");
    view! {
        <details class="api-panel" data-testid="api-panel" on:toggle=toggle on:dragover=allow_drop on:drop=drop_file>
            <summary>"Your API (OpenRPC)"</summary>
            {status}
            <div data-later-views="api" node_ref=host.element></div>
        </details>
    }
}
