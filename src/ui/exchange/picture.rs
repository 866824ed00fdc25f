//! The sequence picture: the client's and the server's lanes, one arrow per message (a batch is
//! one arrow), time running down; a request and its reply share a colour and a bracket with the
//! latency; errors are dashed and crossed; notifications say that no reply comes. Built from SVG
//! elements (never markup text), with a title, a description and the same story as a list.

use crate::ui::prelude::*;
use wasm_bindgen::JsCast;

use crate::ui::dom::{self, h, s, Tag};

use super::{describe_at, latency, status_text, use_log};
use crate::exchange::{At, Direction, Entry, Log};
use crate::rpc::Kind;

/// How many of the newest entries the picture draws.
pub const PICTURED: usize = 40;

// Whole user units: integer coordinates keep float formatting out of the web build.
const CLIENT_X: i32 = 150;
const SERVER_X: i32 = 420;
const WIDTH: i32 = 470;
const TOP: i32 = 46;
const ROW: i32 = 30;
const SLOPE: i32 = 12;
const PALETTE: u64 = 6;

/// What one arrow shows.
struct Arrow {
    key: u64,
    from_x: i32,
    to_x: i32,
    y0: i32,
    y1: i32,
    label: String,
    /// Colour group: the key of the request side of the pair.
    group: Option<u64>,
    /// The first message it is paired with.
    partner: Option<At>,
    partners: Vec<At>,
    latency_ms: Option<f64>,
    error: bool,
    notification: bool,
    sentence: String,
}

fn arrows(entries: &[Entry]) -> Vec<Arrow> {
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let (from_x, to_x) = match e.direction {
                Direction::Out => (CLIENT_X, SERVER_X),
                Direction::In => (SERVER_X, CLIENT_X),
            };
            let y0 = TOP + i as i32 * ROW;
            let pair = e.msgs.iter().find_map(|m| m.status.pair());
            let replies = e
                .msgs
                .iter()
                .any(|m| m.kind == Kind::Response || m.intent == Some(Kind::Response));
            let group = pair.map(|(with, _)| if replies { with.key } else { e.key });
            let notification = e.msgs.iter().all(|m| m.kind == Kind::Notification);
            Arrow {
                key: e.key,
                from_x,
                to_x,
                y0,
                y1: y0 + SLOPE,
                label: label(e),
                group,
                partner: pair.map(|(w, _)| w),
                partners: e
                    .msgs
                    .iter()
                    .filter_map(|m| m.status.pair().map(|(w, _)| w))
                    .collect(),
                latency_ms: pair.filter(|_| !replies).map(|(_, l)| l),
                error: e.has_error(),
                notification,
                sentence: sentence(e),
            }
        })
        .collect()
}

fn label(e: &Entry) -> String {
    let text = if e.is_batch() {
        match e.msgs.as_slice() {
            [m] if m.kind == Kind::Batch => "[] empty batch".to_string(),
            msgs => format!("batch ×{}", msgs.len()),
        }
    } else {
        let m = &e.msgs[0];
        match (m.kind, &m.method) {
            (Kind::Notification, Some(method)) => format!("{method} (no reply)"),
            (_, Some(method)) => method.clone(),
            (Kind::ParseError, _) => "not JSON".into(),
            (Kind::Response, _) => m.summary.clone(),
            (kind, _) => kind.as_str().into(),
        }
    };
    let text = format!("#{} {text}", e.number);
    if text.chars().count() > 34 {
        let mut t: String = text.chars().take(33).collect();
        t.push('…');
        t
    } else {
        text
    }
}

/// The arrow in words, for the text alternative (and the latest reply beside the verdicts).
pub(super) fn sentence(e: &Entry) -> String {
    let who = match e.direction {
        Direction::Out => "client → server",
        Direction::In => "server → client",
    };
    let parts: Vec<String> = e
        .msgs
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let status = status_text(e, m, &m.status);
            let what = describe_at(e, i);
            let what = what
                .split_once(' ')
                .map_or(what.clone(), |(_, rest)| rest.to_string());
            let summary = if m.summary.is_empty() {
                String::new()
            } else {
                format!(" {}", m.summary)
            };
            if status.is_empty() {
                format!("{what}{summary}")
            } else {
                format!("{what}{summary} ({status})")
            }
        })
        .collect();
    let batch = if e.is_batch() && e.msgs.len() > 1 {
        "batch: "
    } else {
        ""
    };
    format!("#{} {who}: {batch}{}", e.number, parts.join("; "))
}

/// The picture of the newest [`PICTURED`] entries: read-only SVG from [`crate::ui::dom`], rebuilt
/// when the log changes; the selection only toggles a class on the arrows it concerns.
pub fn sequence_picture() -> web_sys::Element {
    let state = use_log();
    let log = state.log;
    let selected = state.selected;
    let host = dom::h("div").class("xl-picture-wrap").el();
    let el = host.clone();
    dom::effect(move || log.with(|l: &Log| dom::replace(&el, picture(l))));
    // Highlight the selected message's arrows and their partners' (after each rebuild too).
    let el = host.clone();
    dom::effect(move || {
        log.track();
        let at = selected.get();
        let Ok(arrows) = el.query_selector_all("g[data-key]") else {
            return;
        };
        for i in 0..arrows.length() {
            let Some(g) = arrows
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            else {
                continue;
            };
            let on = at.is_some_and(|s| {
                g.get_attribute("data-key")
                    .is_some_and(|k| k == s.key.to_string())
                    || g.get_attribute("data-partners")
                        .is_some_and(|p| p.split(' ').any(|w| w == at_text(s)))
            });
            let _ = g.class_list().toggle_with_force("is-highlighted", on);
        }
    });
    host
}

/// A message's place as the `data-partners` attribute writes it: `key.item`.
fn at_text(at: At) -> String {
    format!("{}.{}", at.key, at.item)
}

fn picture(l: &Log) -> Option<Tag> {
    if l.is_empty() {
        return None;
    }
    let entries = l.tail(PICTURED);
    let shown = entries.len();
    let arrows = arrows(entries);
    let height = TOP + shown as i32 * ROW + 8;
    let by_key = |key: u64| arrows.iter().find(|a| a.key == key).map(|a| a.y1);
    // Brackets: request → its reply, on the client's side of the picture.
    let brackets = arrows.iter().filter_map(|a| {
        let (partner, lat) = (a.partner?, a.latency_ms?);
        let end = by_key(partner.key)?;
        let column = (a.key % 3) as i32;
        let x = CLIENT_X - 24 - column * 10;
        let group = a.group.unwrap_or(0) % PALETTE;
        let d = format!("M {} {} H {x} V {end} H {}", x + 6, a.y0, x + 6);
        let mid = (a.y0 + end) / 2 + 4;
        Some(
            s("g")
                .class(format!("xl-bracket pc-{group}"))
                .child(s("path").attr("d", d).attr("fill", "none"))
                .child(
                    s("text")
                        .attr("x", (x - 4).to_string())
                        .attr("y", mid.to_string())
                        .attr("text-anchor", "end")
                        .text(latency(lat)),
                ),
        )
    });
    let brackets: Vec<Tag> = brackets.collect();
    let drawn = arrows.iter().map(|a| {
        let dx = if a.to_x > a.from_x { 1 } else { -1 };
        let head = format!(
            "{},{} {},{} {},{}",
            a.to_x,
            a.y1,
            a.to_x - 9 * dx,
            a.y1 - 5,
            a.to_x - 9 * dx,
            a.y1 + 5
        );
        let colour = a
            .group
            .map_or_else(|| "pc-none".to_string(), |g| format!("pc-{}", g % PALETTE));
        let class = format!(
            "xl-arrow {colour}{}{}",
            if a.error { " is-error" } else { "" },
            if a.notification {
                " is-notification"
            } else {
                ""
            }
        );
        let partners: Vec<String> = a.partners.iter().map(|p| at_text(*p)).collect();
        let mid_x = (a.from_x + a.to_x) / 2;
        let cross_x = a.to_x - 18 * dx;
        s("g")
            .class(class)
            .attr("data-key", a.key.to_string())
            .attr("data-partners", partners.join(" "))
            .child(
                s("line")
                    .attr("x1", a.from_x.to_string())
                    .attr("y1", a.y0.to_string())
                    .attr("x2", (a.to_x - 8 * dx).to_string())
                    .attr("y2", a.y1.to_string()),
            )
            .child(s("polygon").attr("points", head))
            .child(
                s("text")
                    .class("xl-arrow-label")
                    .attr("x", mid_x.to_string())
                    .attr("y", (a.y0 - 4).to_string())
                    .attr("text-anchor", "middle")
                    .text(a.label.clone()),
            )
            .child_opt(a.error.then(|| {
                s("text")
                    .class("xl-cross")
                    .attr("x", cross_x.to_string())
                    .attr("y", (a.y1 + 4).to_string())
                    .attr("text-anchor", "middle")
                    .text("✕")
            }))
    });
    let drawn: Vec<Tag> = drawn.collect();
    let sentences = arrows.iter().map(|a| h("li").text(a.sentence.clone()));
    let total = l.len();
    let story = "oldest at the top. Arrows to the right are sent by the client; a request and its reply share a colour and a bracket with the latency; errors are dashed and marked with a cross.";
    let desc = if total > shown {
        format!("The newest {shown} of {total} messages between the client and the server (the mock or the live link), {story}")
    } else {
        format!("{shown} messages between the client and the server (the mock or the live link), {story}")
    };
    let lane = |x: i32| {
        s("line")
            .class("xl-lane")
            .attr("x1", x.to_string())
            .attr("y1", "26")
            .attr("x2", x.to_string())
            .attr("y2", height.to_string())
    };
    let lane_name = |x: i32, name: &str| {
        s("text")
            .class("xl-lane-name")
            .attr("x", x.to_string())
            .attr("y", "18")
            .attr("text-anchor", "middle")
            .text(name.to_string())
    };
    Some(
        h("figure")
            .class("xl-picture")
            .child(
                s("svg")
                    .class("xl-svg")
                    .testid("sequence")
                    .attr("role", "img")
                    .attr("aria-labelledby", "xl-seq-title xl-seq-desc")
                    .attr("viewBox", format!("0 0 {WIDTH} {height}"))
                    .attr("width", WIDTH.to_string())
                    .attr("height", height.to_string())
                    .child(
                        s("title")
                            .attr("id", "xl-seq-title")
                            .text("Sequence picture of the exchange"),
                    )
                    .child(s("desc").attr("id", "xl-seq-desc").text(desc))
                    .child(lane_name(CLIENT_X, "Client (you)"))
                    .child(lane_name(SERVER_X, "Server"))
                    .child(lane(CLIENT_X))
                    .child(lane(SERVER_X))
                    .children(brackets)
                    .children(drawn),
            )
            .child(
                h("details")
                    .class("xl-picture-text")
                    .child(h("summary").text("The picture as text"))
                    .child(h("ol").testid("sequence-text").children(sentences)),
            ),
    )
}
