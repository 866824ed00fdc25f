//! The page's shared state: a few signals, provided once by [`super::App`] through context.
//! Components read and write these; derived values are Memos, and effects only sync with the
//! outside (the textarea's selection, localStorage, the URL fragment).

use crate::web::kit::prelude::*;
use wasm_bindgen::JsCast;

use crate::json::Span;
use crate::rpc::Profile;
use crate::web::kit::analysis::Analysis;
use crate::web::page::checking::{fingerprint, Offload};

/// Above this many bytes the text is large: the editor shows it in its read-only viewer
/// (src/web/page/playground/editor/large.rs) and a worker checks it (src/web/page/checking.rs), so typing never
/// waits for a worker's answer.
pub const LARGE_BYTES: usize = 2_000_000;

/// A message for the user that is not a verdict: a share link that could not be read, storage
/// that is full, an export that failed.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// Monotonic key for keyed lists.
    pub key: u64,
    pub level: NoticeLevel,
    pub text: String,
}

pub use crate::web::kit::notice::NoticeLevel;

/// Everything the page's components share.
#[derive(Clone, Copy)]
pub struct AppState {
    /// The editor's text (the source of truth; the textarea mirrors it).
    pub text: RwSignal<String>,
    /// JSON-RPC 2.0 or MCP with a protocol version.
    pub profile: RwSignal<Profile>,
    /// The engine's verdict on `text` under `profile`, recomputed when either changes.
    pub analysis: Memo<Analysis>,
    /// A byte span of `text` the editor should select and reveal (set by clicking a violation).
    pub select: RwSignal<Option<Span>>,
    /// The editor's textarea (its `node_ref`), for edits that must stay undoable with the
    /// browser's undo and for focus.
    pub editor: NodeRef<leptos::html::Textarea>,
    /// The page's two `<main>`s: the playground's (kept mounted, hidden under another view) and
    /// the teaching view's. The skip link focuses the one that shows.
    pub playground_main: NodeRef<leptos::html::Main>,
    pub teach_main: NodeRef<leptos::html::Main>,
    /// Notices shown above the panes, newest last.
    pub notices: RwSignal<Vec<Notice>>,
    /// Where Send goes: the in-browser mock server or the live link (src/web/link).
    pub target: RwSignal<Target>,
    /// A share link is being read (a large one takes a while): the verdicts on screen are not for
    /// it, so none is shown until its text arrives.
    pub opening_link: RwSignal<bool>,
    /// The example last loaded: its description stays beside the editor (one, never a pile of
    /// notices) until it is dismissed or another example is loaded.
    pub example: RwSignal<Option<&'static crate::examples::Example>>,
    /// The verdicts under the API document in use, if any (src/web/api loads documents, runs the
    /// API and fills these; its own state is a context of its own).
    pub api_check: ApiCheck,
}

/// What the analysis needs of the API document in use: src/web/api fills it, the analysis reads it.
#[derive(Clone, Copy)]
pub struct ApiCheck {
    /// A document is in use: the API checks the text, not the page.
    pub in_use: RwSignal<bool>,
    /// Bumped on every document change: part of the fingerprint an analysis is for.
    pub generation: RwSignal<u64>,
    /// The latest analysis under the document: its fingerprint and [`Analysis::encode`].
    pub checked: RwSignal<Option<(u64, String)>>,
    /// The API's worker could not start or failed (said in the API panel): the page checks alone.
    pub failure: RwSignal<Option<String>>,
}

impl ApiCheck {
    /// Whether the API checks `text` under `profile` (tracked): a document is loaded or the text
    /// holds MCP schemas ([`crate::web::kit::api_scope::needs_more_checks`]), it is within
    /// [`crate::web::kit::api_scope::MAX_CHECK_BYTES`], and the API's worker has not failed. Otherwise the page
    /// checks it alone, and the worker is not started for it.
    pub fn checks(&self, text: &str, profile: Profile) -> bool {
        text.len() <= crate::web::kit::api_scope::MAX_CHECK_BYTES
            && self.failure.with(Option::is_none)
            && crate::web::kit::api_scope::needs_more_checks(profile, self.in_use.get(), text)
    }

    /// The analysis of the text with fingerprint `fp` (before [`ApiCheck::generation`] is mixed
    /// in) when the API's answer for it has come (tracked).
    pub fn analysis(&self, fp: u64, prev: Option<&Analysis>) -> Option<Analysis> {
        let fp = fp ^ self.generation.get();
        self.checked.with(|a| match a {
            Some((f, encoded)) if *f == fp => Analysis::decode(encoded, prev),
            _ => None,
        })
    }
}

/// Where Send goes (`data-testid="target"`: `mock` | `link`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Mock,
    Link,
}

impl AppState {
    /// Creates the state with `text` in the editor.
    pub fn new(text: String, profile: Profile) -> Self {
        let text = RwSignal::new(text);
        let profile = RwSignal::new(profile);
        // A large text is checked by a worker (the page stays responsive): until its answer for
        // this very text arrives, the analysis is pending.
        let offload = Offload::new();
        let api = ApiCheck {
            in_use: RwSignal::new(false),
            generation: RwSignal::new(0),
            checked: RwSignal::new(None),
            failure: RwSignal::new(None),
        };
        let analysis = Memo::new(move |prev: Option<&Analysis>| {
            let p = profile.get();
            // Under an API document, or with MCP schemas in the text, the API checks the text
            // (src/web/api), large or not: until its answer for this very text, document and
            // profile arrives, the analysis is pending.
            if text.with(|t| api.checks(t, p)) {
                let fp = text.with(|t| fingerprint(t, p));
                return api
                    .analysis(fp, prev)
                    .unwrap_or_else(|| Analysis::pending(prev));
            }
            if offload.usable.get() && text.with(|t| t.len() > LARGE_BYTES) {
                let fp = text.with(|t| fingerprint(t, p));
                let done = offload.answer.with(|a| match a {
                    Some((f, encoded)) if *f == fp => Analysis::decode(encoded, prev),
                    _ => None,
                });
                return done.unwrap_or_else(|| Analysis::pending(prev));
            }
            text.with(|t| Analysis::run(t, p, prev, crate::web::kit::js::now_ms))
        });
        // Syncs the worker (outside the page) with the text: asks it about every new large text.
        Effect::new(move |_| {
            let p = profile.get();
            if !offload.usable.get() {
                return;
            }
            text.with(|t| {
                if t.len() > LARGE_BYTES && !api.checks(t, p) {
                    offload.ask(fingerprint(t, p), t, p);
                }
            });
        });
        AppState {
            api_check: api,
            text,
            profile,
            analysis,
            select: RwSignal::new(None),
            editor: NodeRef::new(),
            playground_main: NodeRef::new(),
            teach_main: NodeRef::new(),
            notices: RwSignal::new(Vec::new()),
            target: RwSignal::new(Target::Mock),
            opening_link: RwSignal::new(false),
            example: RwSignal::new(None),
        }
    }

    /// Shows a notice to the user. At most [`NOTICES_SHOWN`] stay (the oldest goes first), and a
    /// note (not an error) goes by itself after [`NOTE_SECONDS`]: notices never pile up over the
    /// page.
    pub fn notify(&self, level: NoticeLevel, text: impl Into<String>) {
        let text = text.into();
        let notices = self.notices;
        let mut key = 0;
        notices.update(|n| {
            key = n.last().map_or(1, |last| last.key + 1);
            n.push(Notice { key, level, text });
            let extra = n.len().saturating_sub(NOTICES_SHOWN);
            n.drain(..extra);
        });
        if level == NoticeLevel::Info {
            set_timeout(
                move || notices.update(|n| n.retain(|x| x.key != key)),
                std::time::Duration::from_secs(NOTE_SECONDS),
            );
        }
    }

    /// Replaces the whole textarea content through the browser's editing commands, so Ctrl+Z undoes
    /// it, then puts the text into the state (the textarea's `input` event usually did already).
    pub fn replace_text_undoably(&self, text: &str) {
        // A large text lives in the read-only viewer, not the textarea
        // (src/web/page/playground/editor/large.rs): putting it through the textarea's editing commands
        // would freeze the page for seconds.
        let large = text.len() > LARGE_BYTES || self.text.with_untracked(|t| t.len() > LARGE_BYTES);
        if let Some(textarea) = self.editor.get_untracked().filter(|_| !large) {
            let _ = textarea.focus();
            textarea.select();
            let inserted = document()
                .dyn_into::<web_sys::HtmlDocument>()
                .ok()
                .and_then(|d| {
                    d.exec_command_with_show_ui_and_value("insertText", false, text)
                        .ok()
                })
                .unwrap_or(false);
            if !inserted || textarea.value() != text {
                // No editing command (or it did something else): set the value; undo history is
                // lost.
                textarea.set_value(text);
            }
        }
        if self.text.with_untracked(|t| t != text) {
            self.text.set(text.to_string());
        }
    }

    /// Puts `text` into the editor with `profile` and shows the playground (a reference entry's
    /// "Try it", a lesson's "Open"), saying so with `what`.
    pub fn open_in_playground(&self, text: &str, profile: Profile, what: &str) {
        self.profile.set(profile);
        self.text.set(text.to_string());
        if let Some(editor) = self.editor.get_untracked() {
            editor.set_value(text);
        }
        let _ = window().location().set_hash("/");
        self.notify(
            NoticeLevel::Info,
            format!("Loaded into the editor: {what}."),
        );
    }
}

/// How many notices show at once.
pub const NOTICES_SHOWN: usize = 3;
/// How long a note (not an error) stays, in seconds.
pub const NOTE_SECONDS: u64 = 10;

/// The state provided by [`super::App`].
pub fn use_app() -> AppState {
    expect_context::<AppState>()
}
