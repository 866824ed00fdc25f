//! One entry of the log: a line per message, its part in an input-required round, its raw text,
//! and the actions that ask the page to put the client's next message in the editor (Reply,
//! Answer). Drawn by the views' module from its copy of the log ([`LogCopy`]).

use crate::web::kit::prelude::*;

use crate::exchange::{At, Direction, Entry, Log, RoundPart, Status};
use crate::rpc::Kind;
use crate::web::kit::log_words::at_text;
use crate::web::kit::log_words::clock_text;
use crate::web::kit::log_words::frame_problem;
use crate::web::kit::log_words::kind_label;
use crate::web::kit::log_words::status_text;
use crate::web::kit::log_words::MOCK_PEER;
use crate::web::kit::views_port::FromViews;
use crate::web::views::log_rows::copy::LogCopy;

/// One entry of the list (`data-testid="log-entry"`), read from the log by its key: a line per
/// message (one, or one per batch element), the raw text one click away. A click on a message
/// selects it (or unselects it); the selected message, its entry and their partners are marked.
/// The list rebuilds a row when its entry's revision changes, so a row reads its entry once.
#[component]
pub(super) fn LogRow(
    /// The entry's key in the log.
    entry: u64,
) -> impl IntoView {
    let copy = expect_context::<LogCopy>();
    copy.log
        .with_untracked(|log| log.get(entry).map(|e| entry_view(e, log, copy)))
}

/// [`LogRow`]'s view of `entry`.
fn entry_view(entry: &Entry, log: &Log, copy: LogCopy) -> impl IntoView {
    let selected = copy.selected;
    let key = entry.key;
    let round = round_view(entry, log, copy);
    let arrow = match entry.direction {
        Direction::Out => "→ sent",
        Direction::In => "← received",
    };
    let status = entry.msgs.first().map_or("", |m| m.status.as_str());
    // One message (`[]` included): the entry points at its partner.
    let pair = match entry.msgs.as_slice() {
        [m] => m.status.pair(),
        _ => None,
    };
    let partners: Vec<At> = entry
        .msgs
        .iter()
        .filter_map(|m| m.status.pair().map(|(w, _)| w))
        .collect();
    let partner_text: Vec<String> = partners.iter().map(|&w| at_text(w)).collect();
    let lines = entry
        .msgs
        .iter()
        .enumerate()
        .map(|(item, msg)| {
            let at = At { key, item };
            let label = if entry.is_batch() && entry.msgs.len() > 1 || entry.is_batch() && msg.kind != Kind::Batch {
                format!("[{item}] {}", kind_label(entry, msg))
            } else {
                kind_label(entry, msg).to_string()
            };
            let with = msg.status.pair().map(|(w, _)| w);
            let method = msg.method.clone().map(|m| view! { <span class="xl-method">{m}</span> });
            let id = msg.id.clone().map(|id| view! { <span class="xl-id">"id "{id}</span> });
            let problem = frame_problem(&entry.raw, msg.kind)
                .map(|p| view! { <span class="xl-problem" data-testid="log-problem">{p}</span> });
            let pick = move |_| selected.update(|s| *s = if *s == Some(at) { None } else { Some(at) });
            // The mock server's own request, still unanswered: Reply puts a client's answer in
            // the editor (the learner edits it, then sends it to the mock).
            let reply = (entry.direction == Direction::In
                && entry.peer == MOCK_PEER
                && msg.kind == Kind::Request
                && matches!(msg.status, Status::Pending)
                && !entry.is_batch())
            .then(|| {
                let raw = entry.raw.clone();
                action_button(
                    "log-reply",
                    "Reply",
                    Box::new(move || copy.ask(FromViews::LogReply { raw: raw.clone() })),
                )
            });
            view! {
                <li
                    class=if msg.is_error { "xl-msg xl-error" } else { "xl-msg" }
                    class:is-selected=move || selected.get() == Some(at)
                    class:is-partner=move || with.is_some() && selected.get() == with
                    data-testid="log-item"
                    data-kind=msg.kind.as_str()
                    data-status=msg.status.as_str()
                    data-item-at=at_text(at)
                    data-with=with.map(at_text)
                >
                    <button
                        type="button"
                        class="xl-msg-button"
                        aria-pressed=move || if selected.get() == Some(at) { "true" } else { "false" }
                        data-at=at_text(at)
                        on:click=pick
                    >
                        <span class=format!("xl-kind kind-{}", msg.kind.as_str())>{label}</span>
                        {method}
                        {id}
                        <span class="xl-summary">{msg.summary.clone()}</span>
                        {problem}
                        <span class="xl-status" data-testid="log-status">{status_text(entry, msg, &msg.status)}</span>
                    </button>
                    {reply}
                </li>
            }
        })
        .collect_view();
    let mut class = String::from("xl-entry");
    if entry.direction == Direction::In {
        class.push_str(" xl-in");
    }
    if entry.has_error() {
        class.push_str(" xl-error");
    }
    let batch = entry.is_batch().then(|| {
        let text = match entry.msgs.as_slice() {
            [m] if m.kind == Kind::Batch => "empty batch".to_string(),
            msgs => format!("batch of {}", msgs.len()),
        };
        view! { <span class="xl-batch">{text}</span> }
    });
    view! {
        <li
            class=class
            class:is-selected=move || selected.get().is_some_and(|s| s.key == key)
            class:is-partner=move || selected.get().is_some_and(|s| partners.contains(&s))
            data-testid="log-entry"
            data-key=key.to_string()
            data-direction=entry.direction.as_str()
            data-kind=entry.kind.as_str()
            data-status=status
            data-pair=pair.map(|(w, _)| w.key.to_string())
            data-latency-ms=pair.map(|(_, l)| crate::json::fixed(l, 3))
            data-partners=partner_text.join(" ")
        >
            <div class="xl-entry-head">
                <span class="xl-seq" data-testid="log-number">"#"{entry.number.to_string()}</span>
                <time class="xl-time">{clock_text(entry.time_ms)}</time>
                <span class="xl-dir">{arrow}</span>
                {batch}
            </div>
            <ol class="xl-msgs">{lines}</ol>
            {round}
            <details class="xl-raw">
                <summary>{format!("raw ({} bytes)", entry.raw.len())}</summary>
                <pre data-testid="log-raw">{entry.raw.clone()}</pre>
            </details>
        </li>
    }
}

/// An entry's part in an input-required round (MCP 2026-07-28), in words
/// (`data-testid="log-round"`, its round in `data-round`): the result that asks, listing its
/// input requests by key and kind (`data-asks`: `key:kind …`) with "Answer" (the retry in the
/// editor, one undoable edit, for the mock or the live link it came from) or the retry that answered it (`data-retried-by`); a retry, naming
/// the result it answers (`data-of`); the reply to a retry.
fn round_view(entry: &Entry, log: &Log, copy: LogCopy) -> Option<impl IntoView> {
    let number = log.round_number(entry.key)?;
    let no = |key: u64| log.get(key).map_or(0, |e| e.number);
    let (mut asks, mut of, mut retried_by, mut answer) = (None, None, None, None);
    let text = match &entry.round {
        Some(RoundPart::Asks {
            asks: asked,
            retried_by: by,
        }) => {
            let listed = |sep: &str| -> Vec<String> {
                asked
                    .iter()
                    .map(|a| format!("{}{sep}{}", a.key, a.kind()))
                    .collect()
            };
            asks = Some(listed(":").join(" "));
            retried_by = by.map(|k| k.to_string());
            let text = format!(
                "Input required (round {number}): {}",
                listed(": ").join(", ")
            );
            match by {
                Some(retry) => format!("{text} · answered by the retry #{}", no(*retry)),
                None => {
                    let (key, mock) = (entry.key, entry.peer == MOCK_PEER);
                    answer = Some(action_button(
                        "log-round-answer",
                        "Answer",
                        Box::new(move || copy.ask(FromViews::LogAnswer { key, mock })),
                    ));
                    text
                }
            }
        }
        Some(RoundPart::Retries { of: asking }) => {
            of = Some(asking.to_string());
            format!("Retry answering #{} (round {number})", no(*asking))
        }
        None => format!("The reply to the retry of round {number}"),
    };
    Some(view! {
        <p class="xl-round" data-testid="log-round" data-round=number.to_string() data-asks=asks data-of=of data-retried-by=retried_by>
            {text}
            {answer}
        </p>
    })
}

/// A button beside a log message that puts what the client sends next in the editor: Reply to
/// the server's request, Answer to an input-required round. (`act` is a `dyn`: one compiled
/// button for both; docs/size-rules.md, 5.)
fn action_button(testid: &'static str, label: &'static str, act: Box<dyn Fn()>) -> impl IntoView {
    view! {
        <button type="button" class="xl-reply" data-testid=testid on:click=move |_| act()>
            {label}
        </button>
    }
}
