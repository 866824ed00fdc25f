//! The tooltip of an underline: hovering the textarea over an underlined piece of the mirror
//! lists the violations there.

use crate::web::kit::prelude::*;
use wasm_bindgen::JsCast;

use crate::web::page::playground::editor::lines::Mark;
use crate::web::page::playground::editor::mark_line;

/// A hovered underline: its marks and where to show them (px from the editor box's corner).
#[derive(Clone, Debug, PartialEq)]
pub struct Hover {
    ids: Vec<u32>,
    // Whole pixels: integer formatting keeps float formatting out of the build
    // (docs/size-rules.md, 2).
    x: i32,
    y: i32,
}

/// The mark ids a mirror element carries (`data-marks="3 4"`).
fn mark_ids(el: &web_sys::Element) -> Option<Vec<u32>> {
    let ids = el.get_attribute("data-marks")?;
    Some(ids.split(' ').filter_map(|s| s.parse().ok()).collect())
}

/// The textarea's `on:mousemove`: what underline is under the pointer (the mirror lies under the
/// textarea: the browser looks through it), into `hover`; `code` is the box the tip is placed in.
pub fn hover_on_move(
    hover: RwSignal<Option<Hover>>,
    code: NodeRef<leptos::html::Div>,
) -> impl Fn(leptos::ev::MouseEvent) + Copy + 'static {
    move |ev| {
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
    }
}

/// The tooltip of the hovered underline (`data-testid="mark-tip"`).
#[component]
pub fn MarkTip(
    /// The hovered underline, if any.
    hover: RwSignal<Option<Hover>>,
    /// Every violation of the text (the underline names them by index).
    marks: Memo<Vec<Mark>>,
) -> impl IntoView {
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
    view! { <div>{tip}</div> }
}
