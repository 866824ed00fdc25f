//! The API panel's body, in the views' module (src/bin/later_views.rs mounts it into the page's
//! `api-panel` on the panel's first open: [`super::panel`]): what the document in use is (title,
//! version, methods) or, when one was refused, each problem located (line:column, JSON pointer,
//! rule with its reference link); Open file, URL, paste, `rpc.discover` and Unload. It reads what
//! the page told it of the API's state ([`ApiPanelContext`]) and asks the page, which holds the
//! API's state, to load, fetch, discover or unload ([`FromViews`]).

use crate::web::kit::prelude::spawn_local;
use crate::web::kit::prelude::*;

use crate::teach::route::Route;
use crate::web::kit::files::file_picker;
use crate::web::kit::views_port::{ApiPanelContext, FromViews, PagePort, ToViews};
use crate::wire::api::Source;

/// The panel's handle on the page: what it told of the API's state, and the way to ask it.
#[derive(Clone, Copy)]
struct ApiPage {
    port: PagePort,
    context: RwSignal<ApiPanelContext>,
}

impl ApiPage {
    /// The handle for the panel mounted in `host`, listening to what the page tells it.
    fn new(host: web_sys::HtmlElement) -> ApiPage {
        let page = ApiPage {
            port: PagePort::new(host),
            context: RwSignal::new(ApiPanelContext::default()),
        };
        page.port.listen(move |told| {
            if let ToViews::Api(context) = told {
                page.context.set(context);
            }
        });
        page
    }

    fn ask(&self, message: FromViews) {
        self.port.ask(message);
    }

    /// Offers `source` as the document, a notice saying how that went.
    fn load(&self, source: Source) {
        self.ask(FromViews::LoadApi {
            source,
            report: true,
        });
    }

    fn notify(&self, text: String) {
        self.ask(FromViews::Notify { error: false, text });
    }

    /// Reads `file` and offers it as the document.
    fn offer_file(self, file: web_sys::File) {
        spawn_local(async move {
            match crate::web::kit::files::read_source(&file).await {
                Ok(source) => self.load(source),
                Err(why) => self.ask(FromViews::Notify {
                    error: true,
                    text: why,
                }),
            }
        });
    }
}

/// The API panel's body mounted into `host` (the page's `api-panel`).
#[component]
pub(crate) fn ApiPanelBody(host: web_sys::HtmlElement) -> impl IntoView {
    let page = ApiPage::new(host);
    let context = page.context;
    let pasted = RwSignal::new(String::new());
    let url = RwSignal::new(String::new());
    let load_pasted = move |_| {
        let text = pasted.get_untracked();
        if text.trim().is_empty() {
            page.notify("Paste an OpenRPC document (JSON) into the box first.".into());
            return;
        }
        page.load(Source {
            text,
            url: None,
            name: "pasted".into(),
        });
    };
    let fetch = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let url = url.get_untracked().trim().to_string();
        if !url.is_empty() {
            page.ask(FromViews::FetchApi { url });
        }
    };
    let loaded = move || context.with(|c| c.in_use.is_some());
    let status = move || {
        context.with(|c| match (&c.in_use, c.busy) {
            (_, true) => "Reading the API document…".to_string(),
            (Some(d), false) => format!(
                "{} {}: {} method{} (from {}). Messages are checked against it; the mock serves it.",
                d.title,
                d.version,
                d.methods,
                if d.methods == 1 { "" } else { "s" },
                d.from
            ),
            (None, false) => {
                "No API document: messages are checked against JSON-RPC alone.".to_string()
            }
        })
    };
    let errors = move || {
        context.get().refused.map(|(name, errors)| {
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
        context.get().failure.map(|why| {
            view! {
                <p class="api-failure" role="alert" data-testid="openrpc-failure">
                    {format!("The API could not run in this page: {why}")}
                </p>
            }
        })
    };
    page.ask(FromViews::Ready);
    view! {
        <p data-testid="openrpc-status" aria-live="polite">{status}</p>
        <p class="api-actions">
            {file_picker(
                ("openrpc-open", "openrpc-file-input"),
                "Open an OpenRPC document (JSON) from a file; or drop it on this panel",
                "Open document…",
                ".json,application/json",
                move |file| page.offer_file(file),
            )}
            " "
            <button
                type="button"
                data-testid="openrpc-discover"
                title="Ask the live link's server for its document (rpc.discover, OpenRPC's own method)"
                on:click=move |_| page.ask(FromViews::DiscoverApi)
            >
                "Ask the live link (rpc.discover)"
            </button>
            " "
            <a href=Route::Reference(None).fragment() data-testid="openrpc-reference-link" hidden=move || !loaded()>"Its reference"</a>
            " "
            <button type="button" data-testid="openrpc-unload" hidden=move || !loaded() on:click=move |_| page.ask(FromViews::UnloadApi)>
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
    }
}
