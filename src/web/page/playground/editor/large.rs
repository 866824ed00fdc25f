//! A document too large for the textarea (above [`LARGE_BYTES`](crate::web::page::state::LARGE_BYTES)): shown read-only in a viewer
//! that lays out only the lines in sight.
//!
//! Why: Chromium lays out a textarea's whole value. With 10 MB in it the page freezes for about
//! 3 s on every change (measured with a bare textarea, outside the app), whatever the app does.
//! So a paste that would make the text this large goes into the state, not into the textarea,
//! and this viewer shows it: a spacer as tall as all the lines, and the ~60 lines under the
//! scroll position rebuilt on scroll. The verdicts are exact as always; "Edit anyway" puts the
//! text into the textarea for whoever accepts the wait.

use crate::web::kit::prelude::*;

use crate::json::Span;

/// The height of one line in the viewer, in CSS px (style/app.css `.big-line`).
const LINE_PX: f64 = 20.0;
/// Browsers stop growing an element near 33 million px: the spacer stays below this, and a
/// scroll position maps to a line through the scale.
const MAX_PX: f64 = 15_000_000.0;
/// Lines rendered beyond the visible ones, above and below.
const OVERSCAN: usize = 20;
/// A line longer than this is cut in the viewer (a 10 MB one-line document is one line).
const LINE_CHARS: usize = 2_000;

/// The byte offset where each line starts.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        )
        .collect()
}

/// The viewer and its note (both hidden unless `show`). `show` is true while the text is large
/// and the user has not asked to edit it anyway; `edit_anyway` is set by the note's button.
#[component]
pub fn Viewer(
    text: RwSignal<String>,
    show: Memo<bool>,
    edit_anyway: RwSignal<bool>,
    select: RwSignal<Option<Span>>,
) -> impl IntoView {
    let starts = Memo::new(move |_| {
        if show.get() {
            text.with(|t| line_starts(t))
        } else {
            Vec::new()
        }
    });
    // The line to mark (a violation was clicked), and the first line in sight.
    let marked = RwSignal::new(None::<usize>);
    let first = RwSignal::new(0usize);
    let view_ref = NodeRef::<leptos::html::Div>::new();
    let scale = move || starts.with(|s| (s.len() as f64 * LINE_PX / MAX_PX).max(1.0));

    // The spacer is as tall as every line (scaled down past MAX_PX).
    let spacer_height = move || {
        let px = starts.with(|s| s.len() as f64 * LINE_PX) / scale();
        format!("{}px", px as u64)
    };
    let on_scroll = move |_| {
        let Some(view) = view_ref.get_untracked() else {
            return;
        };
        let top = f64::from(view.scroll_top()) * scale();
        let line = (top / LINE_PX) as usize;
        if first.get_untracked() != line {
            first.set(line);
        }
    };
    // The lines in sight: numbered, cut when very long, the marked one highlighted.
    let window = Memo::new(move |_| {
        // Hidden: nothing to lay out (and reading the height would force a layout on every
        // keystroke of a small text).
        if !show.get() {
            return (0, Vec::new());
        }
        // The viewer is never taller than the window: that many lines fill it (reading the
        // viewer's own height would depend on what is being laid out).
        let height = window()
            .inner_height()
            .ok()
            .and_then(|h| h.as_f64())
            .unwrap_or(600.0)
            .max(600.0);
        let from = first.get().saturating_sub(OVERSCAN);
        let seen = (height / LINE_PX) as usize + 2 * OVERSCAN;
        let mark = marked.get();
        let rows: Vec<(usize, bool, String)> = text.with(|t| {
            starts.with(|s| {
                (from..(from + seen).min(s.len()))
                    .map(|i| {
                        let end = s.get(i + 1).map_or(t.len(), |&n| n - 1);
                        let line = t.get(s[i]..end).unwrap_or("");
                        let shown = match line.char_indices().nth(LINE_CHARS) {
                            Some((cut, _)) => {
                                format!("{} … ({} more bytes)", &line[..cut], line.len() - cut)
                            }
                            None => line.to_string(),
                        };
                        (i, mark == Some(i), shown)
                    })
                    .collect()
            })
        });
        (from, rows)
    });
    // Scrolled past the spacer's scale: the block sits where the scroll position is.
    let lines_top = move || {
        let from = window.with(|w| w.0);
        format!("translateY({}px)", (from as f64 * LINE_PX / scale()) as u64)
    };
    let rows = move || {
        window.with(|(_, rows)| {
            rows.iter()
                .map(|(i, marked, shown)| {
                    view! {
                        <div class="big-line" class:marked=*marked>
                            <span class="big-no">{(i + 1).to_string()}</span>
                            <span class="big-text">{shown.clone()}</span>
                        </div>
                    }
                })
                .collect_view()
        })
    };
    // A violation was clicked: scroll its line into sight and mark it.
    Effect::new(move |_| {
        let Some(span) = select.get() else { return };
        if !show.get_untracked() {
            return;
        }
        let Some(view) = view_ref.get_untracked() else {
            return;
        };
        let line =
            starts.with_untracked(|s| s.partition_point(|&n| n <= span.start).saturating_sub(1));
        marked.set(Some(line));
        let top = (line.saturating_sub(3) as f64 * LINE_PX / scale()) as i32;
        view.set_scroll_top(top);
        first.set(line.saturating_sub(3));
        let _ = view.focus();
    });
    // Pasting into the viewer replaces the whole text.
    let on_paste = move |ev: leptos::ev::ClipboardEvent| {
        if let Some(pasted) = pasted_text(&ev) {
            ev.prevent_default();
            text.set(pasted);
        }
    };
    let size = move || {
        if !show.get() {
            return String::new();
        }
        let (bytes, lines) = (text.with(String::len), starts.with(Vec::len));
        format!(
            "{} MB in {lines} lines: too large to edit here without freezing the page, so it is shown read-only (paste replaces it). The verdicts are exact.",
            crate::json::fixed(bytes as f64 / 1e6, 1)
        )
    };
    view! {
        <div
            class="big-view"
            data-testid="big-view"
            tabindex="0"
            role="region"
            aria-label="The messages, read-only (too large to edit here)"
            hidden=move || !show.get()
            node_ref=view_ref
            on:scroll=on_scroll
            on:paste=on_paste
        >
            <div class="big-spacer" style:height=spacer_height></div>
            <div class="big-lines" data-testid="big-lines" style:transform=lines_top>
                {rows}
            </div>
        </div>
        <p class="editor-note big-note" data-testid="big-note" hidden=move || !show.get()>
            <span>{size}</span>
            " "
            <button type="button" data-testid="big-edit" on:click=move |_| edit_anyway.set(true)>
                "Edit anyway"
            </button>
            " "
            <button type="button" data-testid="big-clear" on:click=move |_| text.set(String::new())>
                "Clear"
            </button>
        </p>
    }
}

/// The text of a paste event, if it has any.
pub fn pasted_text(ev: &web_sys::ClipboardEvent) -> Option<String> {
    let data = ev.clipboard_data()?;
    data.get_data("text/plain").ok()
}
