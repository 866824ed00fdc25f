//! The connection panel (`link-url`, `link-connect`, `link-status`), the list of messages still
//! waiting (`pending`, with their age and a reply action for the server's requests), and the
//! target switch of Send (`target`: mock | link).
//!
//! Kept small on purpose (every reactive attribute and handler is code in the wasm): the fields
//! are plain inputs read by one delegated `input` handler, the status is one text, the pending
//! list one closure.

use leptos::ev::Event;
use leptos::prelude::*;
use leptos::web_sys::Element;

use super::{use_link, LinkState, DEFAULT_TIMEOUT_S};
use crate::exchange::{Direction, Status};
use crate::rpc::Kind;
use crate::ui::exchange::{describe_at, use_log, MOCK_PEER};
use crate::ui::state::{use_app, Target};

/// How many waiting messages the pending list shows (the oldest); the count is exact.
const PENDING_SHOWN: usize = 50;

/// Where Send goes: the in-browser mock server or the live link (`data-testid="target"`).
#[component]
pub fn TargetSelect() -> impl IntoView {
    let app = use_app();
    view! {
        <label class="target">
            <span class="label">"Send to"</span>
            <select data-testid="target"
                prop:value=move || if app.target.get() == Target::Link { "link" } else { "mock" }
                on:change=move |e| app.target.set(if event_target_value(&e) == "link" { Target::Link } else { Target::Mock })
            >
                <option value="mock">"mock server (in the page)"</option>
                <option value="link">"live link"</option>
            </select>
        </label>
    }
    .into_any()
}

/// The connection panel.
#[component]
pub fn LinkPanel() -> impl IntoView {
    let link = use_link();
    let state = link.state();
    let busy = move || !matches!(state.get(), LinkState::Closed | LinkState::Error(_));
    // Every field, through one handler: its `name` says which option it is.
    let field = move |e: Event| {
        let name = event_target::<Element>(&e).get_attribute("name").unwrap_or_default();
        let value = event_target_value(&e);
        let checked = name == "reconnect" && event_target_checked(&e);
        link.conn.update_value(|c| match name.as_str() {
            "url" => c.draft.url = value,
            "protocol" => c.draft.protocol = value,
            "headers" => c.draft.headers = value,
            "reconnect" => c.draft.auto_reconnect = checked,
            "timeout" => {
                let s = value.trim().parse::<u32>().unwrap_or(DEFAULT_TIMEOUT_S).clamp(1, 3600);
                c.draft.timeout_s = s;
                c.options.timeout_s = s;
            }
            _ => {}
        });
    };
    view! {
        <section class="link-panel" aria-label="Live link" data-testid="link-panel" on:input=field>
            <h2 class="link-title">"Live link"</h2>
            <div class="link-fields">
                <label class="link-url">
                    <span class="label">"Endpoint"</span>
                    <input type="url" name="url" data-testid="link-url" spellcheck="false" placeholder="ws://127.0.0.1:8765 or http://127.0.0.1:8766" />
                </label>
                <button type="button" data-testid="link-connect" on:click=move |_| if busy() { link.disconnect() } else { link.connect() }>
                    {move || if busy() { "Disconnect" } else { "Connect" }}
                </button>
            </div>
            <p class="link-status" data-testid="link-status" data-state=move || state.with(LinkState::as_str) role="status">
                {move || state.with(ToString::to_string)}
            </p>
            <details class="link-more">
                <summary>"Options"</summary>
                <label>
                    <span class="label">"WebSocket subprotocol"</span>
                    <input type="text" name="protocol" data-testid="link-protocol" spellcheck="false" placeholder="none" />
                </label>
                <label>
                    <span class="label">"HTTP headers (Name: value per line)"</span>
                    <textarea name="headers" data-testid="link-headers" rows="2" spellcheck="false" placeholder="Authorization: Bearer …"></textarea>
                </label>
                <label class="link-check">
                    <input type="checkbox" name="reconnect" data-testid="link-reconnect" checked />
                    "Reconnect automatically (with backoff)"
                </label>
                <label>
                    <span class="label">"Timeout (s)"</span>
                    <input type="number" name="timeout" data-testid="link-timeout" min="1" max="3600" step="1" value="30" />
                </label>
            </details>
            {pending_list(link)}
        </section>
    }
    .into_any()
}

/// Messages of the link still waiting for a reply, oldest first, with their age; a request the
/// server sent gets a reply action (`data-testid="pending"`, `data-count` exact).
fn pending_list(link: super::Link) -> impl IntoView {
    let log = use_log().log;
    move || {
        let now = link.now.get();
        let rows: Vec<_> = log.with(|l| {
            if l.counts().waiting == 0 {
                return Vec::new();
            }
            l.entries()
                .iter()
                .filter(|e| e.peer != MOCK_PEER)
                .flat_map(|e| e.msgs.iter().enumerate().map(move |(item, m)| (e, item, m)))
                .filter(|(_, _, m)| m.status.is_waiting())
                .map(|(e, item, m)| {
                    let age_s = ((now - e.time_ms).max(0.0) as u64) / 1000;
                    let reply_id = (e.direction == Direction::In && m.kind == Kind::Request).then(|| m.id.clone()).flatten();
                    (describe_at(e, item), age_s, m.status, reply_id)
                })
                .collect()
        });
        let total = rows.len();
        let title = if total == 0 { "Nothing waits for a reply.".to_string() } else { format!("{total} waiting for a reply") };
        let items = rows
            .into_iter()
            .take(PENDING_SHOWN)
            .map(|(label, age, status, reply_id)| {
                let note = match status {
                    Status::TimedOut => " · timed out",
                    _ if reply_id.is_some() => " · awaiting your reply",
                    _ => "",
                };
                view! {
                    <li data-testid="pending-item" data-status=status.as_str()>
                        <span class="link-label">{label}</span>
                        <span class="link-age">{format!(" · {age} s{note}")}</span>
                        {reply_id.map(|id| view! {
                            <button type="button" data-testid="reply" class="link-reply" on:click=move |_| link.prefill_reply(&id)>"Reply"</button>
                        })}
                    </li>
                }
            })
            .collect::<Vec<_>>();
        view! {
            <div class="link-pending" data-testid="pending" data-count=total>
                <p class="link-pending-title">{title}</p>
                <ul class="link-pending-list">{items}</ul>
            </div>
        }
    }
}
