//! The mirror: the editor's text coloured and underlined, under the transparent textarea, as a
//! keyed list of lines (only the lines an edit touched are rebuilt).

use crate::web::kit::prelude::*;
use leptos::either::Either;

use crate::web::page::playground::editor::lines::{tokens, Line, Lines};

/// The lines of `lines`, moved with the textarea's scroll (`data-testid="mirror"`).
#[component]
pub fn Mirror(
    /// The lines to show (none when the editor is plain).
    lines: Memo<Lines>,
    /// The textarea's scroll (left, top) in pixels.
    scroll: RwSignal<(i32, i32)>,
    /// The mirror's element (the editor scrolls a selected line into view through it).
    node: NodeRef<leptos::html::Div>,
) -> impl IntoView {
    view! {
        <div
            class="mirror"
            aria-hidden="true"
            data-testid="mirror"
            node_ref=node
            style:transform=move || {
                let (left, top) = scroll.get();
                format!("translate({}px, {}px)", -left, -top)
            }
        >
            <For
                each=move || lines.with(|l| l.rows.clone())
                key=|row| row.key
                children=|row| line_view(&row)
            />
        </div>
    }
}

/// A piece of a mirror line: a token's text, coloured by its class when it has one.
fn token_view(class: Option<&'static str>, text: String) -> impl IntoView {
    match class {
        Some(class) => Either::Left(view! { <span class=class>{text}</span> }),
        None => Either::Right(text),
    }
}

/// One line of the mirror: coloured tokens, underlined where a violation touches it (the
/// underline's `data-marks` names its marks for the tooltip).
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
