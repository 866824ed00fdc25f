//! The editor: a textarea with transparent text over a mirror that shows the same text coloured,
//! with every violation underlined, and a gutter of line numbers. The textarea does the editing
//! (caret, selection, undo, IME); the mirror is built from Leptos views (text nodes and spans,
//! never HTML) as a keyed list of lines, so a keystroke re-renders only the lines it changed.
//!
//! Byte offsets (the engine's spans) and UTF-16 units (the textarea's selection) are converted
//! here and nowhere else: [`byte_to_utf16`], [`utf16_to_byte`].

mod large;
pub use large::LARGE_BYTES;
mod lines;

use std::sync::Arc;

use crate::ui::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlTextAreaElement;

use self::lines::{tokens, Line, Lines, Mark, Tok};
use super::analysis::Verdict;
use super::dom::{self, h, KeyedList, Tag};
use crate::rpc::Severity;

/// The UTF-16 offset of byte `byte` of `text` (clamped to the text and to a character start).
pub(crate) fn byte_to_utf16(text: &str, byte: usize) -> u32 {
    let mut byte = byte.min(text.len());
    while !text.is_char_boundary(byte) {
        byte -= 1;
    }
    let head = &text[..byte];
    if head.is_ascii() {
        return byte as u32;
    }
    head.chars().map(char::len_utf16).sum::<usize>() as u32
}

/// The byte offset of UTF-16 offset `units` of `text` (clamped; inside a surrogate pair: the
/// character's start).
pub(crate) fn utf16_to_byte(text: &str, units: u32) -> usize {
    let units = units as usize;
    if text.len() >= units && text.as_bytes()[..units].is_ascii() {
        return units;
    }
    let mut seen = 0;
    for (i, c) in text.char_indices() {
        if seen >= units {
            return i;
        }
        seen += c.len_utf16();
        if seen > units {
            return i;
        }
    }
    text.len()
}

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
pub fn editor() -> web_sys::Element {
    let state = super::use_app();
    let text = state.text;
    let textarea_ref = state.editor;

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
    let large =
        Memo::new(move |_| text.with(String::len) > large::LARGE_BYTES && !edit_anyway.get());
    let lines = Memo::new(move |prev: Option<&Lines>| {
        if plain.get() {
            return Lines::default();
        }
        text.with(|t| marks.with(|m| Lines::build(t, m, prev)))
    });

    let mirror = h("div")
        .class("mirror")
        .attr("aria-hidden", "true")
        .testid("mirror")
        .el();
    let gutter = h("pre").el();
    let tip_host = h("div").el();
    let caret_host = h("p")
        .class("caret-info")
        .attr("id", "editor-caret")
        .testid("caret-info")
        .attr("aria-live", "polite")
        .el();
    let textarea: HtmlTextAreaElement = h("textarea")
        .attr("id", "editor-text")
        .testid("editor")
        .attr("spellcheck", "false")
        .attr("autocomplete", "off")
        .attr("autocapitalize", "off")
        .attr("wrap", "off")
        .attr("aria-describedby", "editor-caret")
        .el()
        .unchecked_into();
    // The textarea's value is set here (before anything can be typed), then kept in step when
    // the text changes elsewhere (an example, a draft, a share link); typing needs no write back.
    text.with_untracked(|t| textarea.set_value(t));
    textarea_ref.set(textarea.clone());

    // No numbers for huge text: laying out 100 000 of them takes the browser seconds.
    dom::bind_text(&gutter, move || {
        let n = if plain.get() { 0 } else { line_count.get() };
        let mut s = String::with_capacity(n * 6);
        for i in 1..=n {
            s.push_str(&i.to_string());
            s.push('\n');
        }
        s
    });

    // The caret (UTF-16 selection of the textarea), and the violations under it.
    let caret = RwSignal::new(None::<(u32, u32)>);
    let update_caret = {
        let ta = textarea.clone();
        move || {
            let sel = (
                ta.selection_start().ok().flatten().unwrap_or(0),
                ta.selection_end().ok().flatten().unwrap_or(0),
            );
            if caret.get_untracked() != Some(sel) {
                caret.set(Some(sel));
            }
        }
    };
    // Where the caret is and what is broken there (computed in the effect below: a Memo of this
    // type would be compiled for it alone).
    let at_caret = move || {
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
    };

    let from_input = StoredValue::new(false);
    {
        let ta = textarea.clone();
        dom::effect(move || {
            let typed = from_input.get_value();
            from_input.set_value(false);
            if large.get() {
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
    }

    // A violation was clicked: select its span and bring it into view.
    {
        let (ta, mirror, update_caret) = (textarea.clone(), mirror.clone(), update_caret.clone());
        dom::effect(move || {
            let Some(span) = state.select.get() else {
                return;
            };
            if large.get_untracked() {
                return; // the viewer (large.rs) shows the span
            }
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
    }

    // Hovering an underline (the mirror lies under the textarea: look through it).
    let hover = RwSignal::new(None::<Hover>);
    let code = h("div")
        .class("code")
        .on("mouseleave", move |_| hover.set(None))
        .el();
    let on_move = {
        let code = code.clone();
        move |ev: web_sys::Event| {
            let ev: &web_sys::MouseEvent = ev.unchecked_ref();
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
                        let r = code.get_bounding_client_rect();
                        hover.set(Some(Hover {
                            ids,
                            x: (f64::from(x) - r.left()) as i32,
                            y: (f64::from(y) - r.top()) as i32,
                        }));
                    }
                }
            }
        }
    };

    // The mirror's lines, kept by key: only the lines an edit touched are rebuilt.
    let mirror_lines = StoredValue::new_local(KeyedList::default());
    {
        let mirror = mirror.clone();
        dom::effect(move || {
            lines.with(|l| {
                mirror_lines
                    .update_value(|list| list.patch(&mirror, &l.rows, |r| r.key, |r| line_tag(r)))
            })
        });
    }

    // The tooltip of the hovered underline and the caret line: read-only markup from ui::dom.
    {
        let host = tip_host.clone();
        dom::effect(move || {
            let shown = hover.with(|hv| {
                let hv = hv.as_ref()?;
                let rows: Vec<Tag> = marks.with(|m| {
                    hv.ids
                        .iter()
                        .filter_map(|&i| m.get(i as usize))
                        .map(|m| mark_line(m, "tip", " "))
                        .collect()
                });
                Some((
                    hv.x,
                    hv.y,
                    h("ul")
                        .class("mark-tip")
                        .attr("role", "tooltip")
                        .testid("mark-tip")
                        .children(rows),
                ))
            });
            match shown {
                None => dom::replace(&host, None),
                Some((x, y, tip)) => {
                    dom::replace(&host, Some(tip));
                    if let Some(el) = host
                        .first_element_child()
                        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
                    {
                        // CSSOM, not a style attribute: the page's CSP allows no inline style.
                        let _ = el.style().set_property("left", &format!("{}px", x + 12));
                        let _ = el.style().set_property("top", &format!("{}px", y + 18));
                    }
                }
            }
        });
    }
    {
        let host = caret_host.clone();
        // The line is rebuilt only when what it says changes (typing elsewhere leaves it alone).
        let shown = std::cell::RefCell::new(None);
        dom::effect(move || {
            let now = Some(at_caret());
            if *shown.borrow() == now {
                return;
            }
            match now.as_ref().and_then(Option::as_ref) {
                None => dom::replace(&host, Some(h("span").class("pos").text(" "))),
                Some((line, column, here)) => dom::replace(
                    &host,
                    std::iter::once(
                        h("span")
                            .class("pos")
                            .text(format!("Ln {line}, Col {column}")),
                    )
                    .chain(here.iter().map(|m| mark_line(m, "here", ": "))),
                ),
            }
            *shown.borrow_mut() = now;
        });
    }

    // The textarea's own events: typing, scrolling (the mirror and the gutter follow), the caret.
    let ta = textarea.clone();
    let on_input = {
        let update_caret = update_caret.clone();
        move |_| {
            from_input.set_value(true);
            text.set(dom::value_of(&ta));
            update_caret();
        }
    };
    let ta = textarea.clone();
    let (m, g) = (mirror.clone(), gutter.clone());
    let on_scroll = move |_| {
        let (top, left) = (ta.scroll_top(), ta.scroll_left());
        let _ = m
            .unchecked_ref::<web_sys::HtmlElement>()
            .style()
            .set_property("transform", &format!("translate({}px, {}px)", -left, -top));
        let _ = g
            .unchecked_ref::<web_sys::HtmlElement>()
            .style()
            .set_property("transform", &format!("translateY({}px)", -top));
        hover.set(None);
    };
    dom::listen_el(&textarea, "input", on_input);
    // A paste that makes the text large goes into the state, not into the textarea.
    let ta = textarea.clone();
    dom::listen_el(&textarea, "paste", move |ev| {
        let Some(pasted) = large::pasted_text(&ev) else {
            return;
        };
        let value = ta.value();
        if value.len() + pasted.len() <= large::LARGE_BYTES {
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
        if new.len() > large::LARGE_BYTES {
            ev.prevent_default();
            edit_anyway.set(false);
            text.set(new);
        }
    });
    dom::listen_el(&textarea, "scroll", on_scroll);
    dom::listen_el(&textarea, "mousemove", on_move);
    for (event, handler) in [
        ("selectionchange", update_caret.clone()),
        ("keyup", update_caret.clone()),
        ("mouseup", update_caret.clone()),
        ("focus", update_caret.clone()),
    ] {
        dom::listen_el(&textarea, event, move |_| handler());
    }

    let note = h("p")
        .class("editor-note")
        .testid("editor-plain")
        .text(format!(
            "Colouring, underlines and line numbers are off above {PLAIN_LINES} lines or {} MB: the text is shown as is (the caret line and column are below); the verdicts are still exact.",
            PLAIN_BYTES / 1_000_000
        ))
        .el();
    dom::bind_flag(&note, "hidden", move || !plain.get() || large.get());
    let (big_view, big_note) = large::viewer(text, large, edit_anyway, state.select);
    let _ = code.append_child(
        &h("div")
            .class("gutter")
            .attr("aria-hidden", "true")
            .node(gutter)
            .el(),
    );
    let _ = code.append_child(&h("div").class("surface").node(mirror).node(textarea).el());
    let _ = code.append_child(&tip_host);
    let root = h("div")
        .class("editor")
        .child(
            h("label")
                .class("label")
                .attr("for", "editor-text")
                .text("Messages (one JSON value, a stream, or a --> / <-- transcript)"),
        )
        .node(code)
        .node(big_view)
        .node(note)
        .node(big_note)
        .node(caret_host)
        .el();
    dom::bind_class(&root, "is-plain", move || plain.get());
    dom::bind_class(&root, "is-large", move || large.get());
    root
}

/// A violation in words: `<severity> <rule>: <message>` (in the tooltip, and at the caret).
fn mark_line(m: &Mark, class: &str, sep: &'static str) -> Tag {
    let severity = m.severity.as_str();
    let outer = if class == "tip" { "li" } else { "span" };
    h(outer)
        .class(format!("{class} {severity}"))
        .child(h("span").class("severity").text(severity))
        .text(" ")
        .child(h("code").class("rule").text(m.rule))
        .text(sep)
        .child(h("span").class("message").text(m.message.clone()))
}

/// One line of the mirror: coloured tokens, underlined where a violation touches it.
fn line_tag(line: &Line) -> Tag {
    let text = line.text.as_str();
    let toks = tokens(text);
    let mut next = 0; // the first token not yet fully emitted
    let mut out = h("div").class("line");
    let mut pos = 0;
    // The pieces of tokens between `from` and `to`, appended to `parent`.
    let emit = |mut parent: Tag, from: usize, to: usize, next: &mut usize| -> Tag {
        while *next < toks.len() && toks[*next].0 < to {
            let (s, e, tok) = toks[*next];
            let (a, b) = (s.max(from), e.min(to));
            if a < b {
                let piece = &text[a..b];
                parent = match tok.class() {
                    Some(class) => parent.child(h("span").class(class).text(piece.to_string())),
                    None => parent.text(piece.to_string()),
                };
            }
            if e <= to {
                *next += 1;
            } else {
                break;
            }
        }
        parent
    };
    for seg in &line.segs {
        out = emit(out, pos, seg.start, &mut next);
        let severity = seg.severity.as_str();
        let eol = if seg.start == seg.end { " eol" } else { "" };
        let ids = seg
            .marks
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        let mark = h("span")
            .class(format!("mark {severity}{eol}"))
            .attr("data-severity", severity)
            .attr("data-marks", ids);
        out = out.child(emit(mark, seg.start, seg.end, &mut next));
        pos = seg.end;
    }
    emit(out, pos, text.len(), &mut next)
}

// Keep `Severity` and `Tok` in the public shape of this module's helpers.
const _: fn(Severity, Tok) = |_, _| {};
