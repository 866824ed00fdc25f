//! The sequence picture: the client's and the server's lanes, one arrow per message (a batch is
//! one arrow), time running down; a request and its reply share a colour and a bracket with the
//! latency; errors are dashed and crossed; notifications say that no reply comes. Built from SVG
//! elements (never markup text), with a title, a description and the same story as a list.

use crate::web::kit::prelude::*;

use crate::exchange::{At, Direction, Entry, Log, RoundPart};
use crate::rpc::Kind;
use crate::web::kit::log_words::{latency, sentence};

/// How many of the newest entries the picture draws.
pub const PICTURED: usize = 40;

// Whole user units: integer coordinates keep float formatting out of the web build
// (docs/size-rules.md, 2). They are written into the attributes as text: an attribute value of
// a number type compiles Leptos' attribute code once more for that type (docs/size-rules.md, 4).
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
    /// The input-required round it belongs to (MCP 2026-07-28), from 1.
    round: Option<usize>,
}

fn arrows(l: &Log, entries: &[Entry]) -> Vec<Arrow> {
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
                round: l.round_number(e.key),
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
    let text = match &e.round {
        Some(RoundPart::Asks { asks, .. }) => {
            let kinds: Vec<&str> = asks.iter().map(|a| a.kind()).collect();
            format!("input required: {}", kinds.join(", "))
        }
        Some(RoundPart::Retries { .. }) => format!("{text} ↻ retry"),
        None => text,
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

/// The picture of the newest [`PICTURED`] entries, redrawn when the log changes; the selection,
/// when there is one (the log pane's rows, src/web/log_rows), only toggles a class on the arrows it
/// concerns.
#[component]
pub fn SequencePicture(
    /// The log to draw (the log pane's copy of the page's log, or a lesson's run).
    log: RwSignal<crate::exchange::Log>,
    /// The selected message (the log pane's; a lesson's run has none).
    #[prop(optional)]
    selected: Option<RwSignal<Option<At>>>,
    /// How many entries the log it draws from holds, when `log` is a copy of its newest.
    #[prop(optional)]
    total: Option<RwSignal<usize>>,
) -> impl IntoView {
    // Whether an arrow (its key and the messages it is paired with) concerns the selection.
    let highlighted = move |key: u64, partners: &[At]| {
        selected.is_some_and(|selected| {
            selected.with(|at| at.is_some_and(|s| s.key == key || partners.contains(&s)))
        })
    };
    view! {
        <div class="xl-picture-wrap">
            {move || {
                let total = total.map(|total| total.get());
                log.with(|l| picture(l, total.unwrap_or(l.len()), highlighted))
            }}
        </div>
    }
}

/// A message's place as the `data-partners` attribute writes it: `key.item`.
fn at_text(at: At) -> String {
    format!("{}.{}", at.key, at.item)
}

/// A lane: a vertical line from the names down to the bottom.
fn lane(x: i32, height: i32) -> impl IntoView {
    let x = x.to_string();
    view! { <line class="xl-lane" x1=x.clone() y1="26" x2=x y2=height.to_string() /> }
}

fn lane_name(x: i32, name: &'static str) -> impl IntoView {
    view! { <text class="xl-lane-name" x=x.to_string() y="18" text-anchor="middle">{name}</text> }
}

/// The bracket from a request to its reply, with the latency, on the client's side.
fn bracket(x: i32, from: i32, to: i32, group: u64, latency_text: String) -> impl IntoView {
    let d = format!("M {} {from} H {x} V {to} H {}", x + 6, x + 6);
    let mid = (from + to) / 2 + 4;
    view! {
        <g class=format!("xl-bracket pc-{group}")>
            <path d=d fill="none" />
            <text x=(x - 4).to_string() y=mid.to_string() text-anchor="end">{latency_text}</text>
        </g>
    }
}

/// One arrow: its line, head, label, and a cross for an error.
fn arrow(
    a: Arrow,
    highlighted: impl Fn(u64, &[At]) -> bool + Copy + Send + Sync + 'static,
) -> impl IntoView {
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
        "xl-arrow {colour}{}{}{}",
        if a.error { " is-error" } else { "" },
        if a.round.is_some() { " is-round" } else { "" },
        if a.notification {
            " is-notification"
        } else {
            ""
        }
    );
    let partners_text: Vec<String> = a.partners.iter().map(|p| at_text(*p)).collect();
    let mid_x = (a.from_x + a.to_x) / 2;
    let cross_x = a.to_x - 18 * dx;
    let (key, partners) = (a.key, a.partners);
    let cross = a.error.then(|| {
        view! { <text class="xl-cross" x=cross_x.to_string() y=(a.y1 + 4).to_string() text-anchor="middle">"✕"</text> }
    });
    view! {
        <g
            class=class
            class:is-highlighted=move || highlighted(key, &partners)
            data-key=key.to_string()
            data-partners=partners_text.join(" ")
            data-round=a.round.map(|n| n.to_string())
        >
            <line x1=a.from_x.to_string() y1=a.y0.to_string() x2=(a.to_x - 8 * dx).to_string() y2=a.y1.to_string() />
            <polygon points=head />
            <text class="xl-arrow-label" x=mid_x.to_string() y=(a.y0 - 4).to_string() text-anchor="middle">{a.label}</text>
            {cross}
        </g>
    }
}

fn picture(
    l: &Log,
    total: usize,
    highlighted: impl Fn(u64, &[At]) -> bool + Copy + Send + Sync + 'static,
) -> Option<impl IntoView> {
    if l.is_empty() {
        return None;
    }
    let entries = l.tail(PICTURED);
    let shown = entries.len();
    let arrows = arrows(l, entries);
    let height = TOP + shown as i32 * ROW + 8;
    let by_key = |key: u64| arrows.iter().find(|a| a.key == key).map(|a| a.y1);
    let brackets: Vec<_> = arrows
        .iter()
        .filter_map(|a| {
            let (partner, lat) = (a.partner?, a.latency_ms?);
            let end = by_key(partner.key)?;
            let column = (a.key % 3) as i32;
            let x = CLIENT_X - 24 - column * 10;
            let group = a.group.unwrap_or(0) % PALETTE;
            Some(bracket(x, a.y0, end, group, latency(lat)))
        })
        .collect();
    let sentences: Vec<_> = arrows
        .iter()
        .map(|a| view! { <li>{a.sentence.clone()}</li> })
        .collect();
    let story = "oldest at the top. Arrows to the right are sent by the client; a request and its reply share a colour and a bracket with the latency; errors are dashed and marked with a cross.";
    let desc = if total > shown {
        format!("The newest {shown} of {total} messages between the client and the server (the mock or the live link), {story}")
    } else {
        format!("{shown} messages between the client and the server (the mock or the live link), {story}")
    };
    let drawn: Vec<_> = arrows.into_iter().map(|a| arrow(a, highlighted)).collect();
    Some(view! {
        <figure class="xl-picture">
            <svg
                class="xl-svg"
                data-testid="sequence"
                role="img"
                aria-labelledby="xl-seq-title xl-seq-desc"
                viewBox=format!("0 0 {WIDTH} {height}")
                width=WIDTH.to_string()
                height=height.to_string()
            >
                <title id="xl-seq-title">"Sequence picture of the exchange"</title>
                <desc id="xl-seq-desc">{desc}</desc>
                {lane_name(CLIENT_X, "Client (you)")}
                {lane_name(SERVER_X, "Server")}
                {lane(CLIENT_X, height)}
                {lane(SERVER_X, height)}
                {brackets}
                {drawn}
            </svg>
            <details class="xl-picture-text">
                <summary>"The picture as text"</summary>
                <ol data-testid="sequence-text">{sentences}</ol>
            </details>
        </figure>
    })
}
