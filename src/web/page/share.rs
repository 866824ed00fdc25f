//! Share links: the editor text and profile, compressed into the URL fragment (never the query:
//! static hosts fail on long query strings, and a fragment never reaches the server). The format
//! is [`crate::saved`]'s; the browser compresses (`CompressionStream("deflate-raw")`), so the
//! wasm carries no compressor.
//!
//! Opening a link (on load, or on `hashchange`: the router in views.rs hands it over) replaces the editor's text and profile, then
//! removes the fragment from the address bar, so a later reload keeps the edits made since. A
//! link that cannot be read is a notice saying why; the draft is not touched.

use crate::web::kit::prelude::spawn_local;
use crate::web::kit::prelude::*;
use wasm_bindgen::prelude::*;
use web_sys::js_sys::{self, futures::JsFuture, Reflect, Uint8Array};
use web_sys::{ReadableStream, ReadableStreamDefaultReader, ReadableWritablePair, Response};

use crate::rpc::Profile;
use crate::saved::{self, FormatError};

use crate::web::kit::notice::NoticeLevel;
use crate::web::page::api::{use_api, ApiState, Source};
use crate::web::page::state::use_app;
use crate::web::page::state::AppState;

// The Compression Streams API (stable in every current browser; web-sys still files it as
// unstable, so it is bound here). Both are a {readable, writable} pair for `pipeThrough`.
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(extends = js_sys::Object)]
    type CompressionStream;
    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<CompressionStream, JsValue>;

    #[wasm_bindgen(extends = js_sys::Object)]
    type DecompressionStream;
    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<DecompressionStream, JsValue>;
}

/// `bytes` as a stream.
fn stream_of(bytes: &[u8]) -> Result<ReadableStream, JsValue> {
    let mut owned = bytes.to_vec();
    Response::new_with_opt_u8_array(Some(&mut owned))?
        .body()
        .ok_or_else(|| JsValue::from_str("no body"))
}

/// Raw DEFLATE of `bytes`.
async fn deflate(bytes: &[u8]) -> Result<Vec<u8>, String> {
    async {
        let pair = CompressionStream::new("deflate-raw")?;
        let out = stream_of(bytes)?.pipe_through(pair.unchecked_ref::<ReadableWritablePair>());
        let buffer =
            JsFuture::from(Response::new_with_opt_readable_stream(Some(&out))?.array_buffer()?)
                .await?;
        Ok(Uint8Array::new(&buffer).to_vec())
    }
    .await
    .map_err(|e: JsValue| crate::web::kit::js::js_error_text(&e))
}

/// The inverse of [`deflate`], stopping past [`saved::MAX_LINK_TEXT`] bytes.
async fn inflate(bytes: &[u8]) -> Result<Vec<u8>, FormatError> {
    let bad = |e: JsValue| FormatError::BadDeflate(crate::web::kit::js::js_error_text(&e));
    let pair = DecompressionStream::new("deflate-raw").map_err(bad)?;
    let out = stream_of(bytes)
        .map_err(bad)?
        .pipe_through(pair.unchecked_ref::<ReadableWritablePair>());
    let reader: ReadableStreamDefaultReader = out.get_reader().unchecked_into();
    let mut inflated = Vec::new();
    let mut too_large = false;
    crate::web::kit::js::read_stream(&reader, &mut |chunk| {
        too_large = inflated.len() + chunk.len() > saved::MAX_LINK_TEXT;
        if !too_large {
            inflated.extend_from_slice(chunk);
        }
        !too_large
    })
    .await
    .map_err(bad)?;
    if too_large {
        return Err(FormatError::TooLarge);
    }
    Ok(inflated)
}

/// The page's address without its fragment.
fn page_address() -> String {
    let location = window().location();
    let href = location.href().unwrap_or_default();
    match href.split_once('#') {
        Some((before, _)) => before.to_string(),
        None => href,
    }
}

/// The full share link for `text` under `profile`.
pub async fn make_link(
    text: &str,
    profile: Profile,
    openrpc: Option<saved::LinkDocument>,
) -> Result<String, String> {
    let deflated = deflate(saved::link_json_with(text, profile, openrpc).as_bytes()).await?;
    Ok(format!(
        "{}#{}",
        page_address(),
        saved::link_fragment(&deflated)
    ))
}

/// What a share link holds: the text, its profile and the OpenRPC document, if any.
type LinkContent = (String, Profile, Option<saved::LinkDocument>);

/// The text and profile of a link's fragment (with or without `#`); `Ok(None)`: no fragment.
pub async fn read_link(fragment: &str) -> Result<Option<LinkContent>, FormatError> {
    let Some(deflated) = saved::parse_fragment(fragment)? else {
        return Ok(None);
    };
    let inflated = inflate(&deflated).await?;
    saved::read_link_content(&inflated).map(Some)
}

/// Copies `text` to the clipboard; false when the browser does not allow it.
async fn copy_to_clipboard(text: &str) -> bool {
    let navigator = window().navigator();
    // navigator.clipboard only exists in secure contexts (https, localhost).
    if !Reflect::has(&navigator, &"clipboard".into()).unwrap_or(false) {
        return false;
    }
    JsFuture::from(navigator.clipboard().write_text(text))
        .await
        .is_ok()
}

/// Makes a link holding the editor's text and profile, copies it when the browser allows, and
/// shows it in a read-only field to copy by hand (`data-testid="share"`, `"share-link"`).
#[component]
pub fn ShareButton() -> impl IntoView {
    let state = use_app();
    let api = use_api();
    let field = NodeRef::<leptos::html::Input>::new();
    // The link once made (the field shows then).
    let link = RwSignal::new(None::<String>);
    let share = move |_| {
        let text = state.text.get_untracked();
        let profile = state.profile.get_untracked();
        // The API document in use goes with the link: its URL when it came from one.
        let openrpc = api.source.get_untracked().map(|s| match s.url {
            Some(url) => saved::LinkDocument::Url(url),
            None => saved::LinkDocument::Text(s.text),
        });
        spawn_local(async move {
            match make_link(&text, profile, openrpc).await {
                Ok(url) => {
                    let copied = copy_to_clipboard(&url).await;
                    let len = url.len();
                    link.set(Some(url));
                    if copied {
                        state.notify(
                            NoticeLevel::Info,
                            format!("Share link copied to the clipboard ({len} characters)."),
                        );
                    } else {
                        state.notify(
                            NoticeLevel::Info,
                            "Share link ready: copy it from the field (Ctrl+C).",
                        );
                        if let Some(input) = field.get_untracked() {
                            let _ = input.focus();
                            input.select();
                        }
                    }
                }
                Err(why) => state.notify(
                    NoticeLevel::Error,
                    format!("The share link could not be made: {why}."),
                ),
            }
        });
    };
    view! {
        <div class="share">
            <button
                type="button"
                data-testid="share"
                title="Copy a link holding the editor's text and profile"
                on:click=share
            >
                "Share link"
            </button>
            <input
                type="text"
                class="share-link"
                data-testid="share-link"
                aria-label="Share link"
                readonly
                node_ref=field
                hidden=move || link.with(Option::is_none)
                prop:value=move || link.get().unwrap_or_default()
                on:focus=move |_| {
                    if let Some(input) = field.get_untracked() {
                        input.select();
                    }
                }
            />
        </div>
    }
}

/// Opens the share link `fragment` (the router, src/web/page/router.rs, hands over every fragment that
/// names no view, on load and on every `hashchange`); an empty one (`#`) opens nothing.
pub fn open_fragment(state: AppState, api: ApiState, fragment: String) {
    if fragment.len() <= 1 {
        return;
    }
    state.opening_link.set(true);
    spawn_local(async move {
        let read = read_link(&fragment).await;
        // try_set hands the value back when the app is gone (unmounted meanwhile).
        if state.opening_link.try_set(false).is_some() {
            return;
        }
        match read {
            Ok(None) => {}
            Ok(Some((text, profile, openrpc))) => {
                // try_set hands the value back when the app is gone (unmounted meanwhile).
                if state.text.try_set(text).is_some() {
                    return;
                }
                match openrpc {
                    Some(saved::LinkDocument::Url(url)) => api.fetch(url, state),
                    Some(saved::LinkDocument::Text(text)) => api.load(
                        Source {
                            text,
                            url: None,
                            name: "the shared link".into(),
                        },
                        Some(state),
                    ),
                    None => {}
                }
                state.profile.set(profile);
                forget_fragment();
                let lines = match state.text.with_untracked(|t| t.lines().count()) {
                    1 => "1 line".to_string(),
                    n => format!("{n} lines"),
                };
                let profile = profile.to_string();
                state.notify(
                    NoticeLevel::Info,
                    format!("Opened a shared link: {lines}, {profile}."),
                );
            }
            Err(why) => state.notify(
                NoticeLevel::Error,
                format!("This share link could not be opened: {why}. Your draft is unchanged."),
            ),
        }
    });
}

/// Removes the fragment from the address bar (no new history entry, no `hashchange`).
fn forget_fragment() {
    let address = page_address();
    if let Ok(history) = window().history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&address));
    }
}
