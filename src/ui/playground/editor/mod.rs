//! The editor: a textarea with transparent text over a mirror that shows the same text coloured,
//! with every violation underlined, and a gutter of line numbers. The textarea does the editing
//! (caret, selection, undo, IME); the mirror is built from Leptos views (text nodes and spans,
//! never HTML) as a keyed list of lines, so a keystroke re-renders only the lines it changed.
//!
//! Byte offsets (the engine's spans) and UTF-16 units (the textarea's selection) are converted
//! by [`crate::ui::js`]'s [`byte_to_utf16`] and [`utf16_to_byte`] (the quiz points the same way).

mod large;
mod lines;

use std::sync::Arc;

use crate::ui::prelude::*;
use leptos::either::Either;
use wasm_bindgen::JsCast;

use self::lines::{tokens, Line, Lines, Mark, Tok};
use crate::rpc::Severity;
use crate::ui::analysis::Verdict;
use crate::ui::js::{byte_to_utf16, utf16_to_byte};
use crate::ui::state::LARGE_BYTES;

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

/// The mark ids a mirror element carries (`data-marks="3 4"`).
fn mark_ids(el: &web_sys::Element) -> Option<Vec<u32>> {
    let ids = el.get_attribute("data-marks")?;
    Some(ids.split(' ').filter_map(|s| s.parse().ok()).collect())
}

/// A hovered underline: its marks and where to show them (px from the editor box's corner).
#[derive(Clone, Debug, PartialEq)]
struct Hover {
    ids: Vec<u32>,
    // Whole pixels (integer formatting keeps float code out of the build).
    x: i32,
    y: i32,
}

/// Above this many lines the editor shows its text without the coloured mirror.
pub const PLAIN_LINES: usize = 20_000;
/// Above this many bytes likewise.
pub const PLAIN_BYTES: usize = 2_000_000;

/// The JSON-RPC text being checked (`data-testid="editor"` is the textarea).
#[component]
pub fn Editor() -> impl IntoView {
    let state = crate::ui::use_app();
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

    // No numbers for huge text: laying out 100 000 of them takes the browser seconds.
    let numbers = move || {
        let n = if plain.get() { 0 } else { line_count.get() };
        let mut s = String::with_capacity(n * 6);
        for i in 1..=n {
            s.push_str(&i.to_string());
            s.push('\n');
        }
        s
    };

    // The caret (UTF-16 selection of the textarea), and the violations under it.
    let caret = RwSignal::new(None::<(u32, u32)>);
    let update_caret = move || {
        let Some(ta) = textarea.get_untracked() else {
            return;
        };
        let sel = (
            ta.selection_start().ok().flatten().unwrap_or(0),
            ta.selection_end().ok().flatten().unwrap_or(0),
        );
        if caret.get_untracked() != Some(sel) {
            caret.set(Some(sel));
        }
    };
    // Where the caret is and what is broken there (only a change of what it says re-renders it).
    let at_caret = Memo::new(move |_| {
        let (start, _) = caret.get()?;
        let (byte, line, column) = text.with(|t| {
            let byte = utf16_to_byte(t, start);
            let line_start = t[..byte].rfind('\n').map_or(0, |n| n + 1);
            let line = 1 + t.as_bytes()[..line_start]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            (byte, line, 1 + t[line_start..byte].chars().count())
        });
        let here: Vec<Mark> = marks.with(|m| {
            m.iter()
                .filter(|m| {
                    m.span.start <= byte
                        && (byte < m.span.end || (m.span.is_empty() && byte == m.span.start))
                })
                .cloned()
                .collect()
        });
        Some((line, column, here))
    });

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
        update_caret();
    });

    // Hovering an underline (the mirror lies under the textarea: look through it).
    let hover = RwSignal::new(None::<Hover>);
    let on_move = move |ev: leptos::ev::MouseEvent| {
        let (x, y) = (ev.client_x() as f32, ev.client_y() as f32);
        let found = document()
            .elements_from_point(x, y)
            .iter()
            .filter_map(|el| el.dyn_into::<web_sys::Element>().ok())
            .find_map(|el| mark_ids(&el));
        match found {
            None => {
                if hover.with_untracked(Option::is_some) {
                    hover.set(None);
                }
            }
            Some(ids) => {
                if hover.with_untracked(|h| h.as_ref().map(|h| &h.ids) != Some(&ids)) {
                    let Some(code) = code.get_untracked() else {
                        return;
                    };
                    let r = code.get_bounding_client_rect();
                    hover.set(Some(Hover {
                        ids,
                        x: (f64::from(x) - r.left()) as i32,
                        y: (f64::from(y) - r.top()) as i32,
                    }));
                }
            }
        }
    };
    // The tooltip of the hovered underline.
    let tip = move || {
        hover.with(|hv| {
            let hv = hv.as_ref()?;
            let rows: Vec<Mark> = marks.with(|m| {
                hv.ids
                    .iter()
                    .filter_map(|&i| m.get(i as usize).cloned())
                    .collect()
            });
            // `style:` sets CSSOM properties (the page's CSP allows no style attribute).
            Some(view! {
                <ul
                    class="mark-tip"
                    role="tooltip"
                    data-testid="mark-tip"
                    style:left=format!("{}px", hv.x + 12)
                    style:top=format!("{}px", hv.y + 18)
                >
                    {rows.iter().map(|m| mark_line(m, true)).collect_view()}
                </ul>
            })
        })
    };
    let caret_line = move || {
        at_caret.with(|now| match now {
            None => view! { <span class="pos">" "</span> }.into_any(),
            Some((line, column, here)) => view! {
                <span class="pos">{format!("Ln {line}, Col {column}")}</span>
                {here.iter().map(|m| mark_line(m, false)).collect_view()}
            }
            .into_any(),
        })
    };

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
            text.set(crate::ui::js::value_of(&target));
        }
        update_caret();
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
                <div class="gutter" aria-hidden="true">
                    <pre style:transform=move || format!("translateY({}px)", -scroll.get().1)>
                        {numbers}
                    </pre>
                </div>
                <div class="surface">
                    <div
                        class="mirror"
                        aria-hidden="true"
                        data-testid="mirror"
                        node_ref=mirror
                        style:transform=move || {
                            let (left, top) = scroll.get();
                            format!("translate({}px, {}px)", -left, -top)
                        }
                    >
                        // The mirror's lines, kept by key: only the lines an edit touched are rebuilt.
                        <For
                            each=move || lines.with(|l| l.rows.clone())
                            key=|row| row.key
                            children=|row| line_view(&row)
                        />
                    </div>
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
                        on:mousemove=on_move
                        on:selectionchange=move |_| update_caret()
                        on:keyup=move |_| update_caret()
                        on:mouseup=move |_| update_caret()
                        on:focus=move |_| update_caret()
                    ></textarea>
                </div>
                <div>{tip}</div>
            </div>
            <p class="editor-note" data-testid="editor-plain" hidden=move || !plain.get() || large.get()>
                {format!(
                    "Colouring, underlines and line numbers are off above {PLAIN_LINES} lines or {} MB: the text is shown as is (the caret line and column are below); the verdicts are still exact.",
                    PLAIN_BYTES / 1_000_000
                )}
            </p>
            <large::Viewer text=text show=large edit_anyway=edit_anyway select=state.select />
            <p class="caret-info" id="editor-caret" data-testid="caret-info" aria-live="polite">
                {caret_line}
            </p>
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

/// A piece of a mirror line: a token's text, coloured by its class when it has one.
fn token_view(class: Option<&'static str>, text: String) -> impl IntoView {
    match class {
        Some(class) => Either::Left(view! { <span class=class>{text}</span> }),
        None => Either::Right(text),
    }
}

/// One line of the mirror: coloured tokens, underlined where a violation touches it.
fn line_view(line: &Line) -> impl IntoView {
    let text = line.text.as_str();
    let toks = tokens(text, line.comment);
    let mut next = 0; // the first token not yet fully emitted
                      // The pieces of tokens between `from` and `to`.
    let pieces = |from: usize, to: usize, next: &mut usize| {
        let mut out = Vec::new();
        while *next < toks.len() && toks[*next].0 < to {
            let (s, e, tok) = toks[*next];
            let (a, b) = (s.max(from), e.min(to));
            if a < b {
                out.push(token_view(tok.class(), text[a..b].to_string()));
            }
            if e <= to {
                *next += 1;
            } else {
                break;
            }
        }
        out
    };
    let mut out = Vec::new();
    let mut pos = 0;
    for seg in &line.segs {
        out.push(Either::Left(pieces(pos, seg.start, &mut next)));
        let severity = seg.severity.as_str();
        let eol = if seg.start == seg.end { " eol" } else { "" };
        let ids = seg
            .marks
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        let inside = pieces(seg.start, seg.end, &mut next);
        out.push(Either::Right(view! {
            <span class=format!("mark {severity}{eol}") data-severity=severity data-marks=ids>
                {inside}
            </span>
        }));
        pos = seg.end;
    }
    out.push(Either::Left(pieces(pos, text.len(), &mut next)));
    view! { <div class="line">{out}</div> }
}

// Keep `Severity` and `Tok` in the public shape of this module's helpers.
const _: fn(Severity, Tok) = |_, _| {};
