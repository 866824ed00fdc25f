//! The teaching text ([`crate::teach::text`]: the rules' explanations and examples, the lessons'
//! paragraphs and examples, the quiz's own items), which the page's wasm leaves out: fetched as
//! data on the first open of the reference, the lessons or the quiz, then kept for the page's life
//! (the service worker precaches the file at install, after the app started, so those views open
//! offline afterwards: src/web/js/sw.js).
//!
//! The file is named in `<meta name="app-entry">` (`data-lazy-teaching`, Trunk.toml) with its
//! Subresource Integrity hash in `data-teaching-integrity` (release builds: scripts/post-build.mjs
//! gives it a hashed name and writes the hash). While it loads the view says so
//! (`teaching-loading`); a failed fetch says why, with a retry (`teaching-failed`,
//! `teaching-retry`).

use std::cell::OnceCell;

use crate::teach::text::{Teaching, TEACHING_MAX_BYTES};
use crate::web::kit::prelude::*;

thread_local! {
    /// The text, once read (leaked once: it lives as long as the page).
    static LOADED: OnceCell<&'static Teaching> = const { OnceCell::new() };
}

/// Where the teaching text is.
#[derive(Clone, Debug)]
pub enum TeachingState {
    /// Not asked for yet: no teaching view was opened.
    NotAsked,
    Loading,
    Ready(&'static Teaching),
    /// The fetch or the file failed: why, in words.
    Failed(String),
}

/// Reads `json` as the page's teaching text and keeps it (the first text read stays).
pub fn install(json: &str) -> Result<&'static Teaching, String> {
    let teaching = Teaching::from_json(json)?;
    Ok(LOADED.with(|cell| *cell.get_or_init(|| Box::leak(Box::new(teaching)))))
}

/// The teaching text's state, starting the fetch the first time `wanted` is true (a teaching
/// view is open) and again after a failure when [`retry`] is called. Call once (`TeachView`).
pub fn provide_teaching(wanted: impl Fn() -> bool + 'static) -> RwSignal<TeachingState> {
    let now = LOADED.with(|cell| cell.get().copied());
    let state = RwSignal::new(now.map_or(TeachingState::NotAsked, TeachingState::Ready));
    Effect::new(move |_| {
        if wanted() && state.with(|s| matches!(s, TeachingState::NotAsked)) {
            fetch_into(state);
        }
    });
    state
}

/// Fetches the text again after a failure.
pub fn retry(state: RwSignal<TeachingState>) {
    if matches!(state.get_untracked(), TeachingState::Failed(_)) {
        fetch_into(state);
    }
}

fn fetch_into(state: RwSignal<TeachingState>) {
    state.set(TeachingState::Loading);
    spawn_local(async move {
        let outcome = match fetch().await {
            Ok(json) => install(&json),
            Err(why) => Err(why),
        };
        state.set(match outcome {
            Ok(t) => TeachingState::Ready(t),
            Err(why) => TeachingState::Failed(why),
        });
    });
}

/// The teaching file's text, checked against its integrity hash and size.
async fn fetch() -> Result<String, String> {
    crate::web::kit::fetch::entry_file(
        "data-lazy-teaching",
        "data-teaching-integrity",
        TEACHING_MAX_BYTES,
    )
    .await
}

/// Who needs the teaching text, in words.
const NEEDED: &str = "The reference, the lessons and the quiz need it";

/// What a teaching view shows until its text is there: "loading", or why it failed and a retry.
pub fn pending(state: RwSignal<TeachingState>) -> AnyView {
    match state.get() {
        TeachingState::Failed(why) => {
            pending_view(Some(why), "teaching text", NEEDED, move || retry(state))
        }
        _ => pending_view(None, "teaching text", NEEDED, || {}),
    }
}

/// "Loading the `what`…", or (`failed`: why) that it did not load (`needed`: who needs it, in
/// words), with a retry that calls `retry`: the teaching text's status, and the views' module's
/// in each of its hosts (src/web/page/router.rs).
pub fn pending_view(
    failed: Option<String>,
    what: &'static str,
    needed: &'static str,
    retry: impl Fn() + 'static,
) -> AnyView {
    match failed {
        Some(why) => view! {
            <section class="teach" data-testid="teaching-failed" role="alert">
                <h2 tabindex="-1">{format!("The {what} did not load")}</h2>
                <p>{format!("{needed}: {why}. Check the connection, then retry.")}</p>
                <button type="button" data-testid="teaching-retry" on:click=move |_| retry()>"Retry"</button>
            </section>
        }
        .into_any(),
        None => view! {
            <section class="teach" data-testid="teaching-loading" role="status">
                <h2 tabindex="-1">{format!("Loading the {what}…")}</h2>
            </section>
        }
        .into_any(),
    }
}
