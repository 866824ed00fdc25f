//! The connection panel (`link-url`, `link-connect`, `link-status`), the list of requests still
//! waiting (`pending`, with their age and a reply action for the server's requests), and the
//! target switch of Send (`target`: mock | link).

use leptos::prelude::*;

use super::{use_link, LinkState};
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
    let options = link.options;
    let state = link.state();
    let is_http = move || options.with(|o| o.url.trim_start().starts_with("http"));
    let busy = move || !matches!(state.get(), LinkState::Closed | LinkState::Error(_));
    let toggle = move |_| if busy() { link.disconnect() } else { link.connect() };
    view! {
        <section class="link-panel" aria-label="Live link" data-testid="link-panel">
            <h2 class="link-title">"Live link"</h2>
            <div class="link-fields">
                <label class="link-url">
                    <span class="label">"Endpoint"</span>
                    <input type="url" data-testid="link-url" spellcheck="false" placeholder="ws://127.0.0.1:8765 or http://127.0.0.1:8766"
                        prop:value=move || options.with(|o| o.url.clone())
                        on:input=move |e| options.update(|o| o.url = event_target_value(&e))
                        on:keydown=move |e| if e.key() == "Enter" { link.connect() }
                    />
                </label>
                <button type="button" data-testid="link-connect" class="link-connect" on:click=toggle>
                    {move || if busy() { "Disconnect" } else { "Connect" }}
                </button>
            </div>
            <p class="link-status" data-testid="link-status" data-state=move || state.with(LinkState::as_str) role="status" aria-live="polite">
                {move || state.with(ToString::to_string)}
                {move || link.session().get().map(|s| format!(" · MCP session {s}"))}
            </p>
            <details class="link-more">
                <summary>"Options"</summary>
                <label>
                    <span class="label">"WebSocket subprotocol"</span>
                    <input type="text" data-testid="link-protocol" spellcheck="false" placeholder="none" disabled=is_http
                        prop:value=move || options.with(|o| o.protocol.clone())
                        on:input=move |e| options.update(|o| o.protocol = event_target_value(&e))
                    />
                </label>
                <label>
                    <span class="label">"HTTP headers (Name: value per line)"</span>
                    <textarea data-testid="link-headers" rows="2" spellcheck="false" placeholder="Authorization: Bearer …"
                        prop:value=move || options.with(|o| o.headers.clone())
                        on:input=move |e| options.update(|o| o.headers = event_target_value(&e))
                    ></textarea>
                </label>
                <label class="link-check">
                    <input type="checkbox" data-testid="link-reconnect"
                        prop:checked=move || options.with(|o| o.auto_reconnect)
                        on:change=move |e| options.update(|o| o.auto_reconnect = event_target_checked(&e))
                    />
                    "Reconnect automatically (with backoff)"
                </label>
                <label>
                    <span class="label">"Timeout (s)"</span>
                    <input type="number" data-testid="link-timeout" min="1" max="3600" step="1"
                        prop:value=move || options.with(|o| o.timeout_s.to_string())
                        on:change=move |e| {
                            let s = event_target_value(&e).trim().parse::<u32>().unwrap_or(super::DEFAULT_TIMEOUT_S).clamp(1, 3600);
                            options.update(|o| o.timeout_s = s);
                            link.conn.update_value(|c| c.options.timeout_s = s);
                        }
                    />
                </label>
            </details>
            <PendingList />
        </section>
    }
    .into_any()
}

/// Messages of the link still waiting for a reply, oldest first, with their age; a request the
/// server sent gets a reply action (`data-testid="pending"`).
#[component]
pub fn PendingList() -> impl IntoView {
    let link = use_link();
    let log = use_log().log;
    let rows = move || {
        let now = link.now.get();
        log.with(|l| {
            let waiting: Vec<_> = l
                .waiting()
                .into_iter()
                .filter_map(|at| {
                    let e = l.get(at.key)?;
                    let m = e.msgs.get(at.item)?;
                    (e.peer != MOCK_PEER).then(|| {
                        let age_s = ((now - e.time_ms).max(0.0) as u64) / 1000;
                        let server_request = e.direction == Direction::In && m.kind == Kind::Request;
                        (describe_at(e, at.item), age_s, m.status, server_request.then(|| m.id.clone()).flatten())
                    })
                })
                .collect();
            waiting
        })
    };
    view! {
        <div class="link-pending" data-testid="pending" data-count=move || rows().len()>
            {move || {
                let rows = rows();
                let total = rows.len();
                if total == 0 {
                    return view! { <p class="link-none">"Nothing waits for a reply."</p> }.into_any();
                }
                let items = rows
                    .into_iter()
                    .take(PENDING_SHOWN)
                    .map(|(label, age, status, reply_id)| {
                        let status_text = match status {
                            Status::TimedOut => " · timed out",
                            _ if reply_id.is_some() => " · awaiting your reply",
                            _ => "",
                        };
                        view! {
                            <li data-testid="pending-item" data-status=status.as_str()>
                                <span class="link-label">{label}</span>
                                <span class="link-age">{format!(" · {age} s{status_text}")}</span>
                                {reply_id.map(|id| view! {
                                    <button type="button" data-testid="reply" class="link-reply" on:click=move |_| link.prefill_reply(&id)>"Reply"</button>
                                })}
                            </li>
                        }
                    })
                    .collect_view();
                view! {
                    <p class="link-pending-title">{format!("{total} waiting for a reply")}</p>
                    <ul class="link-pending-list">{items}</ul>
                }
                .into_any()
            }}
        </div>
    }
    .into_any()
}
