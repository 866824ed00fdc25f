//! The log in words: a message's place (`#3 request subtract id 1`), its status, a latency, a
//! time of day, and what a frame that is not JSON-RPC says about itself.

use web_sys::js_sys;

use crate::exchange::{At, Direction, Entry, Msg, RoundPart, Status};
use crate::rpc::Kind;

/// What a binary frame's log text starts with (the bytes themselves follow in hex).
/// How many entries the log's list shows (the newest); counts and exports cover all of them.
pub const SHOWN: usize = 500;

/// The peer name of the in-browser mock server in the log.
pub const MOCK_PEER: &str = "mock";

pub const BINARY_PREFIX: &str = "binary frame, ";

/// What a log entry that is not JSON-RPC at all says about itself: a binary frame's size, or
/// the parse error of a text frame (`None` for anything the engine could read).
pub(crate) fn frame_problem(raw: &str, kind: Kind) -> Option<String> {
    if kind != Kind::ParseError {
        return None;
    }
    if let Some(rest) = raw.strip_prefix(BINARY_PREFIX) {
        return Some(format!(
            "binary frame, {}",
            rest.split(':').next().unwrap_or_default()
        ));
    }
    if raw.trim().is_empty() {
        return Some("empty frame: not JSON".into());
    }
    let report = crate::rpc::check_text(raw, crate::rpc::Profile::JsonRpc);
    let v = report.violations().next()?;
    Some(format!("not JSON at byte {}: {}", v.span.start, v.message))
}

/// `key.item`, as rows write a message's place.
pub(crate) fn at_text(at: At) -> String {
    format!("{}.{}", at.key, at.item)
}

pub(crate) fn is_reply(msg: &Msg) -> bool {
    msg.kind == Kind::Response || msg.intent == Some(Kind::Response)
}

/// `#3 request subtract id 1` (or `#4[2] response id "2"` for a batch element).
pub(crate) fn describe_at(entry: &Entry, item: usize) -> String {
    let Some(msg) = entry.msgs.get(item) else {
        return format!("#{}", entry.number);
    };
    let place = if entry.is_batch() {
        format!("#{}[{item}]", entry.number)
    } else {
        format!("#{}", entry.number)
    };
    let mut s = format!("{place} {}", kind_label(entry, msg));
    if let Some(m) = &msg.method {
        s.push(' ');
        s.push_str(m);
    }
    if let Some(id) = &msg.id {
        s.push_str(" id ");
        s.push_str(id);
    }
    s
}

pub(crate) fn kind_label(entry: &Entry, msg: &Msg) -> &'static str {
    match msg.kind {
        Kind::Batch if entry.is_batch() => "empty batch",
        Kind::Response if msg.is_error => "error response",
        k => k.as_str(),
    }
}

/// The message's place in its conversation, in words.
pub(crate) fn status_text(entry: &Entry, msg: &Msg, status: &Status) -> String {
    match *status {
        Status::Pending if entry.direction == Direction::In => "awaiting your reply".into(),
        Status::Pending => "waiting for a reply".into(),
        Status::Paired { with, latency_ms } => {
            if is_reply(msg) {
                format!("answers #{} · {}", with_label(with), latency(latency_ms))
            } else {
                format!(
                    "answered by #{} · {}",
                    with_label(with),
                    latency(latency_ms)
                )
            }
        }
        Status::NoReplyExpected => "no reply expected".into(),
        Status::Unmatched => "answers no pending request".into(),
        Status::TimedOut => "timed out (a late reply still pairs)".into(),
        Status::Lost => match &entry.lost_reason {
            Some(reason) => format!("lost: {reason}"),
            None => "lost: the connection closed".into(),
        },
        Status::Unpaired => String::new(),
    }
}

fn with_label(at: At) -> String {
    // Batch elements show their index; item 0 of a single message is just its key.
    if at.item == 0 {
        at.key.to_string()
    } else {
        format!("{}[{}]", at.key, at.item)
    }
}

pub(crate) fn latency(ms: f64) -> String {
    use crate::json::fixed;
    if ms < 1.0 {
        format!("{} ms", fixed(ms, 2))
    } else if ms < 1000.0 {
        format!("{} ms", fixed(ms, 1))
    } else {
        format!("{} s", fixed(ms / 1000.0, 2))
    }
}

/// `12:03:04.123` in local time.
pub(crate) fn clock_text(ms: f64) -> String {
    let d = js_sys::Date::new(&ms.into());
    format!(
        "{:02}:{:02}:{:02}.{:03}",
        d.get_hours(),
        d.get_minutes(),
        d.get_seconds(),
        d.get_milliseconds()
    )
}

/// Unix epoch milliseconds with sub-millisecond precision (the performance clock's origin plus
/// its reading).
pub fn clock_ms() -> f64 {
    leptos::prelude::window()
        .performance()
        .map_or_else(js_sys::Date::now, |p| p.time_origin() + p.now())
}

/// The arrow in words, for the text alternative (and the latest reply beside the verdicts).
pub fn sentence(e: &Entry) -> String {
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
    let round = match &e.round {
        Some(RoundPart::Asks { asks, .. }) => {
            let asks: Vec<String> = asks
                .iter()
                .map(|a| format!("{} ({})", a.key, a.kind()))
                .collect();
            format!(" — input required: {}", asks.join(", "))
        }
        Some(RoundPart::Retries { .. }) => {
            " — a retry with the answers to an input-required result".into()
        }
        None => String::new(),
    };
    format!("#{} {who}: {batch}{}{round}", e.number, parts.join("; "))
}
