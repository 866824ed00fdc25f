//! Drafts: the editor text, profile and log survive a reload (localStorage), and two tabs never
//! overwrite each other's work.
//!
//! How tabs stay apart:
//! - Each tab saves its draft under its own key, `jrpc.draft.<id>`; the tab's id lives in
//!   sessionStorage (`jrpc.tab`), which is per tab and survives a reload of that tab.
//! - A new tab (no id in its sessionStorage) starts from the draft named by `jrpc.latest`, the
//!   draft saved last by any tab, and from then on saves under an id of its own.
//! - Every page load takes a fresh id (after reading the draft of the previous one), so a
//!   duplicated tab, whose sessionStorage is a copy of its original's, does not share a key with it.
//!   Old drafts beyond [`KEEP_DRAFTS`] are dropped, oldest first.
//! - A draft is one JSON value written with one `setItem` (format and version: [`crate::saved`]),
//!   so a reader sees a whole draft or the previous one, never half of each.
//! - No `storage` event listener: another tab's save never touches this tab's text.
//!
//! Saves are debounced ([`DEBOUNCE`]) and flushed when the page is hidden or unloaded (a reload
//! right after typing keeps the last keystroke). A full storage or an unreadable draft is a
//! notice; the editor's text is never replaced by, or lost to, a failed save or load.

use std::time::Duration;

use crate::web::kit::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::js_sys;

use crate::rpc::Profile;
use crate::saved::Draft;

use crate::web::kit::js;
use crate::web::kit::notice::NoticeLevel;
use crate::web::kit::storage::{local, session};
use crate::web::page::state::AppState;

/// sessionStorage: this tab's draft id.
const TAB_KEY: &str = "jrpc.tab";
/// localStorage: the id of the draft saved last (what a new tab opens with).
const LATEST_KEY: &str = "jrpc.latest";
/// localStorage: prefix of every draft.
const DRAFT_PREFIX: &str = "jrpc.draft.";
/// How many drafts (tabs and past page loads) are kept.
pub const KEEP_DRAFTS: usize = 12;
/// Quiet time after the last edit before the draft is written.
pub const DEBOUNCE: Duration = Duration::from_millis(300);

// ─── The log (owner: src/web/exchange*) ──────────────────────────────────────────────────────────
//
// The log is saved inside the draft (its newest SAVED_LOG_MESSAGES messages). Its owner calls
// [`register_log`] once, from any component under `App`; the saved log, if the draft has one, is
// put back at once (one that cannot be read becomes a notice, and the log starts empty). Until the
// log is registered the saved one is carried over unchanged, so a page that never shows the log
// does not erase it.

/// How many of the log's newest messages a draft keeps.
pub const SAVED_LOG_MESSAGES: usize = 2000;

/// What the draft needs from the log: the log itself (read to save it, tracked so that a change
/// schedules a save; written to restore a saved one). The signal, not closures around it: each
/// `Signal`/`Callback` type costs the web build its own copy of Leptos' wrapper code
/// (docs/size-rules.md, 4).
#[derive(Clone, Copy)]
pub struct LogDraft {
    pub log: RwSignal<crate::exchange::Log>,
}

impl LogDraft {
    fn json(&self) -> Option<String> {
        self.log
            .try_with_untracked(|l| l.to_json_string_last(SAVED_LOG_MESSAGES))
    }

    fn restore(&self, json: &str) -> Result<(), String> {
        crate::exchange::Log::from_json_str(json)
            .map(|l| self.log.set(l))
            .map_err(|e| e.to_string())
    }
}

/// Saves the log with the draft and restores the saved one now. Call under `App`.
pub fn register_log(hook: LogDraft) {
    let Some(slot) = use_context::<LogSlot>() else {
        return;
    };
    if let Some(json) = slot.saved.try_get_value().flatten() {
        if let Err(why) = hook.restore(&json) {
            if let Some(state) = use_context::<AppState>() {
                state.notify(
                    NoticeLevel::Error,
                    format!("The saved log could not be restored ({why}); it starts empty."),
                );
            }
        }
    }
    slot.hook.set(Some(hook));
}

/// Context: the log's hook, once registered, and the saved log until then.
#[derive(Clone, Copy)]
struct LogSlot {
    hook: RwSignal<Option<LogDraft>>,
    /// The log read from the draft: saved again as is until the hook is registered.
    saved: StoredValue<Option<String>>,
}

// ─────────────────────────────────────────────────────────────────────────────────────────────

/// What [`initial_text_and_profile`] found besides the text and profile, handed to [`sync`]
/// (which runs once the state exists).
pub struct Boot {
    /// This page load's draft id.
    id: String,
    /// The saved log.
    log: Option<String>,
    /// Problems to show as notices.
    problems: Vec<String>,
}

fn new_id() -> String {
    let now = js_sys::Date::now() as u64;
    let random = (js_sys::Math::random() * f64::from(1u32 << 24)) as u32;
    format!("{now:x}{random:06x}")
}

/// The text and profile the page starts with: this tab's saved draft, else the draft saved last
/// by any tab, else `sample`; and what [`sync`] needs to keep saving it.
pub fn initial_text_and_profile(sample: &str) -> (String, Profile, Boot) {
    let mut problems = Vec::new();
    let mut log = None;
    let mut start = (sample.to_string(), Profile::JsonRpc);
    match local() {
        None => problems.push(
            "This browser does not allow localStorage here: drafts are not saved. Use a share link to keep your work."
                .to_string(),
        ),
        Some(local) => {
            let previous = session()
                .and_then(|s| s.get_item(TAB_KEY).ok().flatten())
                .or_else(|| local.get_item(LATEST_KEY).ok().flatten());
            if let Some(prev) = previous {
                let key = format!("{DRAFT_PREFIX}{prev}");
                match local.get_item(&key).ok().flatten().map(|json| Draft::from_json(&json)) {
                    Some(Ok(draft)) => {
                        log = draft.log;
                        start = (draft.text, draft.profile);
                    }
                    Some(Err(why)) => problems.push(format!(
                        "The saved draft could not be read: {why}. The editor starts with the sample; \
                         the damaged copy stays in localStorage under \"{key}\"."
                    )),
                    // Dropped as one of the oldest, or cleared by the user: nothing to restore.
                    None => {}
                }
            }
        }
    }
    let id = new_id();
    if let Some(s) = session() {
        let _ = s.set_item(TAB_KEY, &id);
    }
    (start.0, start.1, Boot { id, log, problems })
}

/// How saving is going, so a problem is reported once, not on every keystroke.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Health {
    Saving,
    Full,
    Unavailable,
    /// The text alone is over [`DRAFT_MAX_BYTES`].
    TooLarge,
}

/// Texts above this many bytes are not saved as drafts (they cannot fit in localStorage).
pub const DRAFT_MAX_BYTES: usize = 4_000_000;

/// Keeps the saved draft in step with the state: saves [`DEBOUNCE`] after the last change, and at
/// once when the page is hidden. Call once, right after the state is created, with what
/// [`initial_text_and_profile`] found.
pub fn sync(state: AppState, boot: Boot) {
    let Boot { id, log, problems } = boot;
    for p in problems {
        state.notify(NoticeLevel::Error, p);
    }
    let Some(storage) = local() else { return };
    // Everything below runs in event handlers and timers: non-Send browser objects stay local.
    let slot = LogSlot {
        hook: RwSignal::new(None),
        saved: StoredValue::new(log),
    };
    provide_context(slot);
    // One stored value for the saver's state (each stored type is its own compiled copy:
    // docs/size-rules.md, 4).
    let saver = StoredValue::new_local(Saver {
        storage,
        id,
        health: Health::Saving,
        pending: None,
    });
    let take_pending = move || saver.try_update_value(|s| s.pending.take()).flatten();

    let save = move || {
        if let Some(handle) = take_pending() {
            handle.clear();
        }
        // A text this large cannot fit in browser storage (about 5 million characters per site):
        // say so without copying and escaping megabytes only to have the write refused.
        let too_large = state
            .text
            .try_with_untracked(|t| (t.len() > DRAFT_MAX_BYTES).then_some(t.len()))
            .flatten();
        if let Some(bytes) = too_large {
            if saver.try_update_value(|s| std::mem::replace(&mut s.health, Health::TooLarge))
                != Some(Health::TooLarge)
            {
                state.notify(
                    NoticeLevel::Error,
                    format!(
                        "The text ({} MB) is too large for browser storage: it is not kept as a draft. It is still in the editor; \
                         save it to a file to keep it.",
                        crate::json::fixed(bytes as f64 / 1e6, 1)
                    ),
                );
            }
            return;
        }
        let (Some(text), Some(profile)) = (
            state.text.try_get_untracked(),
            state.profile.try_get_untracked(),
        ) else {
            return;
        };
        let log = match slot.hook.try_get_untracked().flatten() {
            Some(hook) => hook.json(),
            None => slot.saved.try_get_value().flatten(),
        };
        let draft = Draft {
            text,
            profile,
            log,
            saved: js_sys::Date::now(),
        };
        let Some((outcome, before)) = saver.try_update_value(|s| {
            let outcome = write_draft(&s.storage, &s.id, &draft);
            let health = match outcome {
                Ok(()) => Health::Saving,
                Err(WriteError::Full { .. }) => Health::Full,
                Err(WriteError::Other(_)) => Health::Unavailable,
            };
            (outcome, std::mem::replace(&mut s.health, health))
        }) else {
            return;
        };
        match outcome {
            Ok(()) if before != Health::Saving => {
                state.notify(NoticeLevel::Info, "Drafts are being saved again.");
            }
            Ok(()) => {}
            Err(WriteError::Full { log_dropped: true }) if before == Health::Saving => state.notify(
                NoticeLevel::Error,
                "Browser storage is full: the draft is saved without the log. Export the log to keep it.",
            ),
            Err(WriteError::Full { .. }) if before == Health::Saving => state.notify(
                NoticeLevel::Error,
                "Browser storage is full: your draft is not being saved. Your text is still in the editor; \
                 copy it or make a share link to keep it.",
            ),
            Err(WriteError::Other(why)) if before == Health::Saving => state.notify(
                NoticeLevel::Error,
                format!("The draft could not be saved ({why}). Your text is still in the editor."),
            ),
            Err(_) => {}
        }
    };

    // Claim this page load's id, so a reload before any edit finds this draft, and drop old
    // drafts, once the first frame is painted (the page's start does not wait for the writing
    // and the reading of every draft); a reload before then saves on `pagehide`, the effect
    // below having scheduled a save.
    crate::web::kit::js::after_next_paint(Box::new(move || {
        save();
        let _ = saver.try_with_value(|s| prune(&s.storage, &s.id));
    }));

    // Syncs localStorage with the state: any change of text, profile or log schedules a save.
    // (The first run schedules one too: an edit can come before the effect first runs.)
    Effect::new(move |_| {
        state.text.track();
        state.profile.track();
        if let Some(hook) = slot.hook.get() {
            hook.log.track();
        }
        let handle = set_timeout_with_handle(save, DEBOUNCE).ok();
        if let Some(old) = saver
            .try_update_value(|s| std::mem::replace(&mut s.pending, handle))
            .flatten()
        {
            old.clear();
        }
    });
    let flush = move || {
        if saver
            .try_with_value(|s| s.pending.is_some())
            .unwrap_or(false)
        {
            save();
        }
    };
    js::listen(&window(), "pagehide", move |_| flush());
    js::listen(&document(), "visibilitychange", move |_| {
        if document().visibility_state() == web_sys::VisibilityState::Hidden {
            flush();
        }
    });
    on_cleanup(move || {
        if let Some(handle) = take_pending() {
            handle.clear();
        }
    });
}

/// What the draft saver keeps between saves.
struct Saver {
    storage: web_sys::Storage,
    /// This page load's draft id.
    id: String,
    health: Health,
    /// The debounced save waiting to run.
    pending: Option<TimeoutHandle>,
}

enum WriteError {
    /// Over quota even after dropping old drafts (and, if `log_dropped`, saved without the log).
    Full {
        log_dropped: bool,
    },
    Other(String),
}

fn is_quota_error(err: &wasm_bindgen::JsValue) -> bool {
    err.dyn_ref::<web_sys::DomException>().is_some_and(|e| {
        // Chromium and Firefox name it QuotaExceededError; old Firefox used its own name.
        e.name() == "QuotaExceededError"
            || e.name() == "NS_ERROR_DOM_QUOTA_REACHED"
            || e.code() == 22
    })
}

/// Writes `draft` as this tab's draft and points `jrpc.latest` at it. When storage is full,
/// drops the other drafts' oldest first, then tries without the log.
fn write_draft(storage: &web_sys::Storage, id: &str, draft: &Draft) -> Result<(), WriteError> {
    let key = format!("{DRAFT_PREFIX}{id}");
    let put = |json: &str| storage.set_item(&key, json);
    let mut result = put(&draft.to_json());
    // Full: drop other drafts, oldest first, one at a time, until this one fits.
    let mut others = others_oldest_first(storage, id).into_iter();
    while result.as_ref().is_err_and(is_quota_error) {
        let Some(old) = others.next() else { break };
        let _ = storage.remove_item(&old);
        result = put(&draft.to_json());
    }
    let mut log_dropped = false;
    if result.as_ref().is_err_and(is_quota_error) && draft.log.is_some() {
        result = put(&Draft {
            log: None,
            ..draft.clone()
        }
        .to_json());
        log_dropped = result.is_ok();
    }
    match result {
        Ok(()) => {
            let _ = storage.set_item(LATEST_KEY, id);
            if log_dropped {
                Err(WriteError::Full { log_dropped })
            } else {
                Ok(())
            }
        }
        Err(e) if is_quota_error(&e) => Err(WriteError::Full { log_dropped: false }),
        Err(e) => Err(WriteError::Other(crate::web::kit::js::js_error_text(&e))),
    }
}

/// Keeps the newest [`KEEP_DRAFTS`] drafts (this tab's always).
fn prune(storage: &web_sys::Storage, id: &str) {
    let others = others_oldest_first(storage, id);
    let extra = (others.len() + 1).saturating_sub(KEEP_DRAFTS);
    for key in &others[..extra] {
        let _ = storage.remove_item(key);
    }
}

/// The keys of the drafts other than this tab's, oldest first (unreadable ones first of all).
fn others_oldest_first(storage: &web_sys::Storage, id: &str) -> Vec<String> {
    let own = format!("{DRAFT_PREFIX}{id}");
    let n = storage.length().unwrap_or(0);
    let mut drafts: Vec<(f64, String)> = (0..n)
        .filter_map(|i| storage.key(i).ok().flatten())
        .filter(|k| k.starts_with(DRAFT_PREFIX) && *k != own)
        .map(|k| {
            let saved = storage
                .get_item(&k)
                .ok()
                .flatten()
                .and_then(|json| Draft::from_json(&json).ok())
                .map_or(0.0, |d| d.saved);
            (saved, k)
        })
        .collect();
    // Oldest first (whole milliseconds), through the one compiled sort (docs/size-rules.md, 1).
    crate::order::sort_by_key(&mut drafts, |(saved, _)| *saved as u64);
    drafts.into_iter().map(|(_, k)| k).collect()
}
