//! The editor: a textarea with transparent text over a mirror that shows the same text coloured,
//! with every violation underlined, and a gutter of line numbers. The textarea does the editing
//! (caret, selection, undo, IME); the mirror is built from Leptos views (text nodes and spans,
//! never HTML) as a keyed list of lines, so a keystroke re-renders only the lines it changed.
//!
//! Byte offsets (the engine's spans) and UTF-16 units (the textarea's selection) are converted
//! by [`crate::web::kit::js`]'s [`byte_to_utf16`] and [`utf16_to_byte`] (the quiz points the same way).
//!
//! One component per job: [`Editor`] owns the text's sync with the textarea, selecting a clicked
//! violation and large pastes; [`Gutter`] the line numbers, [`Mirror`] the coloured lines,
//! [`MarkTip`] an underline's tooltip, [`CaretInfo`] the caret's line, column and violations
//! (from the [`use_caret`] hook); `large` the viewer of texts too large for the textarea.

mod caret;
mod gutter;
mod large;
mod lines;
mod mark_tip;
mod mirror;

use std::sync::Arc;

use crate::web::kit::prelude::*;
use wasm_bindgen::JsCast;

use crate::web::kit::analysis::Verdict;
use crate::web::kit::js::{byte_to_utf16, utf16_to_byte};
use crate::web::page::playground::editor::caret::{use_caret, CaretInfo};
use crate::web::page::playground::editor::gutter::Gutter;
use crate::web::page::playground::editor::lines::{Lines, Mark};
use crate::web::page::playground::editor::mark_tip::{hover_on_move, Hover, MarkTip};
use crate::web::page::playground::editor::mirror::Mirror;
use crate::web::page::state::LARGE_BYTES;

/// Every violation of `verdicts` (batch elements included), in document order.
fn collect_marks(verdicts: &[Arc<Verdict>]) -> Vec<Mark> {
    fn walk(v: &Verdict, out: &mut Vec<Mark>) {
        out.extend(v.findings.iter().map(|f| Mark {
            span: f.span,
            severity: f.severity,
            rule: f.rule,
            message: f.message.clone(),
        }));
        v.items.iter().for_each(|item| walk(item, out));
    }
    let mut out = Vec::new();
    verdicts.iter().for_each(|v| walk(v, &mut out));
    out
}

/// Above this many lines the editor shows its text without the coloured mirror.
pub const PLAIN_LINES: usize = 20_000;
/// Above this many bytes likewise.
pub const PLAIN_BYTES: usize = 2_000_000;

/// The JSON-RPC text being checked (`data-testid="editor"` is the textarea).
#[component]
pub fn Editor() -> impl IntoView {
    let state = crate::web::page::state::use_app();
    let text = state.text;
    let textarea = state.editor;
    let mirror = NodeRef::<leptos::html::Div>::new();
    let code = NodeRef::<leptos::html::Div>::new();

    let marks = Memo::new(move |_| {
        state.analysis.with(|a| {
            collect_marks(
                &a.verdicts
                    .iter()
                    .map(|k| k.verdict.clone())
                    .collect::<Vec<_>>(),
            )
        })
    });
    let line_count =
        Memo::new(move |_| text.with(|t| 1 + t.bytes().filter(|&b| b == b'\n').count()));
    // Past PLAIN_LINES lines or PLAIN_BYTES bytes the mirror is off: the textarea shows its own
    // text, uncoloured (laying out a 10 MB mirror would freeze the page for minutes).
    let plain =
        Memo::new(move |_| line_count.get() > PLAIN_LINES || text.with(String::len) > PLAIN_BYTES);
    // Past LARGE_BYTES the text is not in the textarea at all (Chromium would lay all of it out):
    // a read-only viewer shows it, unless the user asks to edit it anyway.
    let edit_anyway = RwSignal::new(false);
    let large = Memo::new(move |_| text.with(String::len) > LARGE_BYTES && !edit_anyway.get());
    let lines = Memo::new(move |prev: Option<&Lines>| {
        if plain.get() {
            return Lines::default();
        }
        text.with(|t| marks.with(|m| Lines::build(t, m, prev)))
    });

    // No numbers for huge text (the gutter's count is 0 when plain).
    let numbered = Memo::new(move |_| if plain.get() { 0 } else { line_count.get() });

    // The caret (the textarea's selection) and the violations under it.
    let caret = use_caret(textarea, text, marks);

    // The textarea's value follows the text when it changes elsewhere (an example, a draft, a
    // share link); typing needs no write back. Syncing with the DOM is what this effect is for.
    let from_input = StoredValue::new(false);
    Effect::new(move |_| {
        let typed = from_input.get_value();
        from_input.set_value(false);
        let large = large.get();
        let Some(ta) = textarea.get() else {
            return;
        };
        if large {
            // The viewer shows the text; the textarea keeps nothing to lay out.
            if !ta.value().is_empty() {
                ta.set_value("");
            }
            return;
        }
        text.with(|t| {
            if !typed && ta.value() != *t {
                ta.set_value(t);
            }
        });
    });

    // A violation was clicked: select its span and bring it into view.
    Effect::new(move |_| {
        let Some(span) = state.select.get() else {
            return;
        };
        if large.get_untracked() {
            return; // the viewer (large.rs) shows the span
        }
        let (Some(ta), Some(mirror)) = (textarea.get_untracked(), mirror.get_untracked()) else {
            return;
        };
        let (start, end, line) = text.with_untracked(|t| {
            let line = t.as_bytes()[..span.start.min(t.len())]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            (
                byte_to_utf16(t, span.start),
                byte_to_utf16(t, span.end),
                line,
            )
        });
        let _ = ta.focus();
        let _ = ta.set_selection_range(start, end);
        let top = mirror
            .children()
            .item(line as u32)
            .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
            .map(|el| el.offset_top());
        if let Some(top) = top {
            let visible = ta.scroll_top()..ta.scroll_top() + ta.client_height() - 24;
            if !visible.contains(&top) {
                ta.set_scroll_top((top - ta.client_height() / 3).max(0));
            }
        }
        caret.update();
    });

    // Hovering an underline: the tooltip lists its violations.
    let hover = RwSignal::new(None::<Hover>);

    // Scrolling the textarea: the mirror and the gutter follow (CSSOM transforms).
    let scroll = RwSignal::new((0, 0));
    let on_scroll = move |_| {
        if let Some(ta) = textarea.get_untracked() {
            scroll.set((ta.scroll_left(), ta.scroll_top()));
        }
        hover.set(None);
    };
    let on_input = move |ev: leptos::ev::Event| {
        from_input.set_value(true);
        if let Some(target) = ev.target() {
            text.set(crate::web::kit::js::value_of(&target));
        }
        caret.update();
    };
    // A paste that makes the text large goes into the state, not into the textarea.
    let on_paste = move |ev: leptos::ev::ClipboardEvent| {
        let (Some(pasted), Some(ta)) = (large::pasted_text(&ev), textarea.get_untracked()) else {
            return;
        };
        let value = ta.value();
        if value.len() + pasted.len() <= LARGE_BYTES {
            return;
        }
        let (start, end) = (
            ta.selection_start().ok().flatten().unwrap_or(0),
            ta.selection_end().ok().flatten().unwrap_or(0),
        );
        let (start, end) = (utf16_to_byte(&value, start), utf16_to_byte(&value, end));
        let mut new = String::with_capacity(value.len() + pasted.len());
        new.push_str(&value[..start]);
        new.push_str(&pasted);
        new.push_str(&value[end.max(start)..]);
        if new.len() > LARGE_BYTES {
            ev.prevent_default();
            edit_anyway.set(false);
            text.set(new);
        }
    };

    view! {
        <div class="editor" class:is-plain=move || plain.get() class:is-large=move || large.get()>
            <label class="label" for="editor-text">
                "Messages (one JSON value, a stream, or a --> / <-- transcript)"
            </label>
            <div class="code" node_ref=code on:mouseleave=move |_| hover.set(None)>
                <Gutter count=numbered scroll />
                <div class="surface">
                    <Mirror lines scroll node=mirror />
                    <textarea
                        id="editor-text"
                        data-testid="editor"
                        spellcheck="false"
                        autocomplete="off"
                        autocapitalize="off"
                        wrap="off"
                        aria-describedby="editor-caret"
                        node_ref=textarea
                        on:input=on_input
                        on:paste=on_paste
                        on:scroll=on_scroll
                        on:mousemove=hover_on_move(hover, code)
                        on:selectionchange=move |_| caret.update()
                        on:keyup=move |_| caret.update()
                        on:mouseup=move |_| caret.update()
                        on:focus=move |_| caret.update()
                    ></textarea>
                </div>
                <MarkTip hover marks />
            </div>
            <p class="editor-note" data-testid="editor-plain" hidden=move || !plain.get() || large.get()>
                {format!(
                    "Colouring, underlines and line numbers are off above {PLAIN_LINES} lines or {} MB: the text is shown as is (the caret line and column are below); the verdicts are still exact.",
                    PLAIN_BYTES / 1_000_000
                )}
            </p>
            <large::Viewer text=text show=large edit_anyway=edit_anyway select=state.select />
            <CaretInfo at=caret.at />
        </div>
    }
}

/// A violation in words: `<severity> <rule>: <message>` (a list item in the tooltip, a span at
/// the caret).
fn mark_line(m: &Mark, in_tip: bool) -> AnyView {
    let severity = m.severity.as_str();
    let inner = (
        view! { <span class="severity">{severity}</span> },
        " ",
        view! { <code class="rule">{m.rule}</code> },
        if in_tip { " " } else { ": " },
        view! { <span class="message">{m.message.clone()}</span> },
    );
    if in_tip {
        view! { <li class=format!("tip {severity}")>{inner}</li> }.into_any()
    } else {
        view! { <span class=format!("here {severity}")>{inner}</span> }.into_any()
    }
}
