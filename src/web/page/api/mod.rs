//! Your API (#26, the page side): an OpenRPC document loaded into the page (Open file, drop,
//! paste, a URL), checked against the meta-schema with located errors, kept across reloads; with
//! it the editor's messages are checked against the API, the mock serves it and the reference
//! lists its methods.
//!
//! The page never runs the OpenRPC engine itself: it sends serde messages
//! ([`crate::web::workers::api::ApiRequest`]) to the API's runner and renders what comes back
//! ([`crate::web::workers::api::ApiAnswer`]). Answers arrive in the order the requests went.

mod panel;
mod runner;

pub(crate) use panel::DocumentPanel;

use crate::web::kit::prelude::spawn_local;
use crate::web::kit::prelude::*;

use crate::rpc::Profile;
use crate::web::kit::api_scope::{needs_more_checks, MAX_CHECK_BYTES};
use crate::web::kit::log_words::clock_ms;
use crate::web::kit::log_words::MOCK_PEER;
use crate::web::page::checking::fingerprint;
use crate::web::page::exchange::LogState;
use crate::web::page::state::{ApiCheck, AppState, NoticeLevel};
pub use crate::wire::api::Source;
use crate::wire::api::{ApiAnswer, ApiRequest, DocumentError, LoadedReference};
use crate::wire::probe::ApiProbe;
use crate::wire::Passed;

/// localStorage: the document loaded (`{"text": …, "url": …}`), put back on the next load.
const STORAGE_KEY: &str = "jrpc.openrpc";

/// The API's state in the page (its own context, [`provide`]).
#[derive(Clone, Copy)]
pub struct ApiState {
    /// The document in use (loaded and valid).
    pub source: RwSignal<Option<Source>>,
    /// Its reference (the methods), present exactly when a document is in use: the page says its
    /// title, version and number of methods, and passes the rest to the views unread.
    pub reference: RwSignal<Option<LoadedReference>>,
    /// What is wrong with the document last offered (it was refused), and its name.
    pub errors: RwSignal<Option<(String, Vec<DocumentError>)>>,
    /// A document is being read, fetched or checked.
    pub busy: RwSignal<bool>,
    /// What the analysis reads: the document in use, its generation, the API's latest verdicts
    /// (the app state's).
    pub check: ApiCheck,
    runner: StoredValue<runner::Runner, LocalStorage>,
}

/// Provides [`ApiState`] to the page (App calls it once, after providing [`AppState`]): the
/// document of the last visit loaded again, and the text checked by the API under a document.
pub fn provide(app: AppState) -> ApiState {
    let state = ApiState {
        source: RwSignal::new(None),
        reference: RwSignal::new(None),
        errors: RwSignal::new(None),
        busy: RwSignal::new(false),
        check: app.api_check,
        runner: StoredValue::new_local(runner::Runner::new()),
    };
    // The document of the last visit, loaded again (never at load when there is none: the
    // runner starts on first use).
    if let Some(saved) = saved() {
        state.load(saved, None);
    }
    // Keeps the API's checks in step with the editor: every new text (or profile, or document)
    // the API checks is sent to it; answers to older texts are kept but never shown for a newer
    // one (their fingerprint differs), and the runner sends only the newest of the checks asked
    // while one is with the worker.
    let (text, profile) = (app.text, app.profile);
    Effect::new(move |_| {
        let p = profile.get();
        let generation = state.check.generation.get();
        text.with(|t| {
            if !state.check.checks(t, p) {
                return;
            }
            let fp = fingerprint(t, p) ^ generation;
            let request = ApiRequest::Check {
                fp: fp.to_string(),
                text: t.clone(),
                profile: crate::saved::profile_to_string(p),
            };
            let checked = state.check.checked;
            state.ask(request, move |answer| {
                if let ApiAnswer::Checked { fp, analysis } = answer {
                    if let Ok(fp) = fp.parse::<u64>() {
                        checked.set(Some((fp, analysis)));
                    }
                }
            });
        });
    });
    provide_context(state);
    state
}

impl ApiState {
    /// Whether a document is in use.
    pub fn loaded(&self) -> bool {
        self.check.in_use.get()
    }

    /// Sends `request`; `then` gets the answer.
    pub fn ask(&self, request: ApiRequest, then: impl FnOnce(ApiAnswer) + 'static) {
        let failure = self.check.failure;
        let busy = self.busy;
        let then = move |answer| {
            // The worker answers again (a new one started after a failure).
            if failure.with_untracked(Option::is_some) {
                failure.set(None);
            }
            then(answer)
        };
        self.runner.update_value(|r| {
            r.ask(request, Box::new(then), move |why| {
                failure.set(Some(why));
                busy.set(false);
            })
        });
    }

    /// Runs the Probe under an OpenRPC document in the API's worker (src/web/workers/probe/api_side.rs):
    /// `probe` (an `ApiProbe`'s JSON text, passed on unread) under `document` (`None`: the one
    /// the server's `rpc.discover` returns); `listener` gets the probe's events as the worker wrote
    /// them, and why the worker failed or refused the probe.
    pub fn probe(
        &self,
        probe: Passed<ApiProbe>,
        document: Option<String>,
        listener: runner::ProbeListener,
    ) {
        self.runner
            .update_value(|r| r.probe(ApiRequest::Probe { probe, document }, listener));
    }

    /// Stops the probe the API's worker runs, if it was started.
    pub fn cancel_probe(&self) {
        if self.runner.with_value(runner::Runner::started) {
            self.ask(ApiRequest::ProbeCancel, |_| {});
        }
    }

    /// Offers `source` as the document: in use once the API accepts it, else its errors shown
    /// (the document in use, if any, stays). `app` gets a notice either way.
    pub fn load(&self, source: Source, app: Option<AppState>) {
        let this = *self;
        self.busy.set(true);
        let text = source.text.clone();
        self.ask(ApiRequest::Load { text }, move |answer| {
            this.busy.set(false);
            match answer {
                ApiAnswer::Loaded { reference } => {
                    if let Some(app) = app {
                        app.notify(
                            NoticeLevel::Info,
                            format!(
                                "API document loaded: {} {} ({} methods). Messages are checked against it, and the mock serves it.",
                                reference.title, reference.version, reference.methods
                            ),
                        );
                    }
                    store(Some(&source));
                    this.errors.set(None);
                    this.reference.set(Some(reference));
                    this.source.set(Some(source));
                    this.check.in_use.set(true);
                    this.check.generation.update(|g| *g += 1);
                }
                ApiAnswer::Refused { errors } => {
                    if let Some(app) = app {
                        app.notify(
                            NoticeLevel::Error,
                            format!(
                                "The API document {} was not loaded: {} problem{} (listed in the API panel).",
                                source.name,
                                errors.len(),
                                if errors.len() == 1 { "" } else { "s" }
                            ),
                        );
                    }
                    this.errors.set(Some((source.name, errors)));
                }
                ApiAnswer::Failed { error } => this.check.failure.set(Some(error)),
                _ => {}
            }
        });
    }

    /// Stops using the document.
    pub fn unload(&self) {
        let this = *self;
        store(None);
        self.ask(ApiRequest::Unload, move |_| {
            this.reference.set(None);
            this.source.set(None);
            this.errors.set(None);
            this.check.in_use.set(false);
            this.check.generation.update(|g| *g += 1);
        });
    }

    /// Fetches the document at `url` and offers it.
    pub fn fetch(&self, url: String, app: AppState) {
        let this = *self;
        self.busy.set(true);
        spawn_local(async move {
            match fetch_text(&url).await {
                Ok(text) => this.load(
                    Source {
                        text,
                        name: url.clone(),
                        url: Some(url),
                    },
                    Some(app),
                ),
                Err(why) => {
                    this.busy.set(false);
                    app.notify(
                        NoticeLevel::Error,
                        format!("The API document at {url} could not be fetched: {why}."),
                    );
                }
            }
        });
    }

    /// Sends each client document of `text` to the mock serving the document, logging both
    /// directions. Returns how many were sent.
    pub fn send_to_mock(&self, log: LogState, text: &str) -> usize {
        let stream = crate::json::split_stream(text.as_bytes());
        let docs: Vec<String> = stream
            .segments
            .iter()
            .filter(|s| s.direction != Some(crate::json::Direction::Server))
            .map(|s| text[s.span.start..s.span.end].to_string())
            .collect();
        for doc in &docs {
            log.log.update(|l| {
                l.record(MOCK_PEER, crate::exchange::Direction::Out, clock_ms(), doc);
            });
            let message = doc.clone();
            self.ask(ApiRequest::Mock { message }, move |answer| {
                if let ApiAnswer::Replied { reply: Some(reply) } = answer {
                    log.log.update(|l| {
                        l.record(MOCK_PEER, crate::exchange::Direction::In, clock_ms(), reply);
                    });
                }
            });
        }
        docs.len()
    }
}

/// What the page says when the API does not check the editor's text because it is larger than
/// [`MAX_CHECK_BYTES`] (`jrpc check` stops at its `--max-bytes` too): the text's size, the bound
/// and the line and column where the bound falls; the text is checked against JSON-RPC alone.
/// `None` when the API checks the text or has nothing to check in it.
fn unchecked_note(text: &str, profile: Profile, loaded: bool) -> Option<String> {
    if text.len() <= MAX_CHECK_BYTES || !needs_more_checks(profile, loaded, text) {
        return None;
    }
    let head = &text.as_bytes()[..=MAX_CHECK_BYTES];
    let at = crate::json::LineIndex::new(head).position(head, MAX_CHECK_BYTES);
    let what = if loaded {
        "the API document"
    } else {
        "the MCP schemas it holds"
    };
    let mb = |n: usize| crate::json::fixed(n as f64 / (1024.0 * 1024.0), 1);
    Some(format!(
        "This text is {} MB: it is checked against JSON-RPC alone, not against {what}, which is \
         checked up to {} MB (as jrpc check's --max-bytes); that bound falls at line {}, column {} \
         (byte {MAX_CHECK_BYTES}).",
        mb(text.len()),
        mb(MAX_CHECK_BYTES),
        at.line,
        at.column,
    ))
}

/// The note that the API does not check the editor's text (`data-testid="api-unchecked"`, shown
/// under the verdicts' status only then): see [`unchecked_note`].
#[component]
pub fn CheckLimit() -> impl IntoView {
    let app = crate::web::page::state::use_app();
    let api = use_api();
    // Read once where it shows: no memo type of its own (docs/size-rules.md, 4).
    let note = move || {
        let p = app.profile.get();
        let loaded = api.loaded();
        app.text.with(|t| unchecked_note(t, p, loaded))
    };
    move || {
        note().map(|note| {
            view! { <p class="status api-unchecked" role="status" data-testid="api-unchecked">{note}</p> }
        })
    }
}

/// The API state [`provide`]d by App.
pub fn use_api() -> ApiState {
    expect_context::<ApiState>()
}

/// The largest document fetched (the engine reads no more).
const MAX_FETCH: usize = crate::openrpc::MAX_DOCUMENT_BYTES;

async fn fetch_text(url: &str) -> Result<String, String> {
    crate::web::kit::fetch::text(gloo_net::http::Request::get(url), MAX_FETCH).await
}

fn local() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// The document saved by the last visit.
fn saved() -> Option<Source> {
    let json = local()?.get_item(STORAGE_KEY).ok()??;
    serde_json::from_str(&json).ok()
}

/// Saves (or forgets) the document for the next visit.
fn store(source: Option<&Source>) {
    let Some(storage) = local() else { return };
    let _ = match source.and_then(|s| serde_json::to_string(s).ok()) {
        Some(json) => storage.set_item(STORAGE_KEY, &json),
        None => storage.remove_item(STORAGE_KEY),
    };
}
