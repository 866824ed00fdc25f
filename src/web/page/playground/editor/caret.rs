//! The caret: where it is in the text (line and column) and what is broken there.

use crate::web::kit::prelude::*;

use crate::web::kit::js::utf16_to_byte;
use crate::web::page::playground::editor::lines::Mark;
use crate::web::page::playground::editor::mark_line;

/// Line and column (1-based, in characters) of the caret, and the violations under it.
pub type AtCaret = Option<(usize, usize, Vec<Mark>)>;

/// The caret of the editor's textarea: its selection (UTF-16 units) and what it points at.
#[derive(Clone, Copy)]
pub struct Caret {
    selection: RwSignal<Option<(u32, u32)>>,
    textarea: NodeRef<leptos::html::Textarea>,
    /// Where the caret is and what is broken there (only a change of what it says notifies).
    pub at: Memo<AtCaret>,
}

impl Caret {
    /// Reads the textarea's selection again (after an input, a key, a click, a focus).
    pub fn update(&self) {
        let Some(ta) = self.textarea.get_untracked() else {
            return;
        };
        let sel = (
            ta.selection_start().ok().flatten().unwrap_or(0),
            ta.selection_end().ok().flatten().unwrap_or(0),
        );
        if self.selection.get_untracked() != Some(sel) {
            self.selection.set(Some(sel));
        }
    }
}

/// The caret of `textarea` over `text`, and the violations of `marks` under it.
pub fn use_caret(
    textarea: NodeRef<leptos::html::Textarea>,
    text: RwSignal<String>,
    marks: Memo<Vec<Mark>>,
) -> Caret {
    let selection = RwSignal::new(None::<(u32, u32)>);
    let at = Memo::new(move |_| {
        let (start, _) = selection.get()?;
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
    Caret {
        selection,
        textarea,
        at,
    }
}

/// `Ln 3, Col 7` and the violations at the caret (`data-testid="caret-info"`, a polite live
/// region; the textarea's `aria-describedby`).
#[component]
pub fn CaretInfo(
    /// What [`use_caret`] says.
    at: Memo<AtCaret>,
) -> impl IntoView {
    let said = move || {
        at.with(|now| match now {
            None => view! { <span class="pos">" "</span> }.into_any(),
            Some((line, column, here)) => view! {
                <span class="pos">{format!("Ln {line}, Col {column}")}</span>
                {here.iter().map(|m| mark_line(m, false)).collect_view()}
            }
            .into_any(),
        })
    };
    view! {
        <p class="caret-info" id="editor-caret" data-testid="caret-info" aria-live="polite">
            {said}
        </p>
    }
}
