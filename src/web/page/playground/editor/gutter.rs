//! The gutter: the line numbers beside the text, moved with the textarea's scroll.

use crate::web::kit::prelude::*;

/// The line numbers 1 to `count` (none when `count` is 0: the editor is plain), shifted up by
/// `scroll_top` pixels.
#[component]
pub fn Gutter(
    /// How many lines to number (0 for none: laying out 100 000 numbers takes the browser seconds).
    count: Memo<usize>,
    /// The textarea's scroll (left, top) in pixels; the gutter follows the top.
    scroll: RwSignal<(i32, i32)>,
) -> impl IntoView {
    let numbers = move || {
        let n = count.get();
        let mut s = String::with_capacity(n * 6);
        for i in 1..=n {
            s.push_str(&i.to_string());
            s.push('\n');
        }
        s
    };
    view! {
        <div class="gutter" aria-hidden="true">
            <pre style:transform=move || format!("translateY({}px)", -scroll.get().1)>
                {numbers}
            </pre>
        </div>
    }
}
