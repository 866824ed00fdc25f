//! The connection panel (`link-url`, `link-connect`, `link-status`, the Probe's fold), the list of messages still
//! waiting (`pending`, with their age and a reply action for the server's requests), and the
//! target switch of Send (`target`: mock | link).
//!
//! Components: the fields write the connection's draft as they change; the status and the
//! pending list follow the link's state and the log.

use crate::web::kit::prelude::*;

use crate::exchange::{Direction, Status};
use crate::rpc::Kind;
use crate::web::kit::log_words::describe_at;
use crate::web::kit::log_words::MOCK_PEER;
use crate::web::page::exchange::use_log;
use crate::web::page::link::{use_link, LinkState, DEFAULT_TIMEOUT_S};
use crate::web::page::state::{use_app, Target};

/// How many waiting messages the pending list shows (the oldest); the count is exact.
const PENDING_SHOWN: usize = 50;

/// Where Send goes: the in-browser mock server or the live link (`data-testid="target"`).
#[component]
pub fn TargetSelect() -> impl IntoView {
    let app = use_app();
    let target = app.target;
    // Which server the mock is follows the profile (the verdicts and the mock agree).
    let mock_name = move || match app.profile.get() {
        crate::rpc::Profile::JsonRpc => "mock JSON-RPC server (in the page)".to_string(),
        crate::rpc::Profile::Mcp(v) => format!("mock MCP {v} server (in the page)"),
    };
    let value = move || {
        if target.get() == Target::Link {
            "link"
        } else {
            "mock"
        }
    };
    let on_change = move |ev| {
        target.set(if event_target_value(&ev) == "link" {
            Target::Link
        } else {
            Target::Mock
        })
    };
    view! {
        <label class="target">
            <span class="label">"Send to"</span>
            <select data-testid="target" prop:value=value on:change=on_change>
                <option value="mock" data-testid="target-mock">{mock_name}</option>
                <option value="link">"live link"</option>
            </select>
        </label>
    }
}

/// The connection panel; `children` go at its end (the page's Probe fold).
#[component]
pub fn LinkPanel(children: Children) -> impl IntoView {
    let link = use_link();
    let state = link.state();
    let busy = move || !matches!(state.get(), LinkState::Closed | LinkState::Error(_));
    let set = move |change: &dyn Fn(&mut crate::web::page::link::LinkOptions)| {
        link.draft.update(|d| change(d))
    };
    let on_timeout = move |ev| {
        let s = event_target_value(&ev)
            .trim()
            .parse::<u32>()
            .unwrap_or(DEFAULT_TIMEOUT_S)
            .clamp(1, 3600);
        link.draft.update(|d| d.timeout_s = s);
        link.conn.update_value(|c| c.options.timeout_s = s);
    };
    view! {
        <section class="link-panel" aria-label="Live link" data-testid="link-panel">
            <h2 class="link-title">"Live link"</h2>
            <div class="link-fields">
                <label class="link-url">
                    <span class="label">"Endpoint"</span>
                    <input
                        type="url"
                        name="url"
                        data-testid="link-url"
                        spellcheck="false"
                        placeholder="ws://127.0.0.1:8765 or http://127.0.0.1:8766"
                        on:input=move |ev| { let v = event_target_value(&ev); set(&|d| d.url = v.clone()) }
                    />
                </label>
                <button
                    type="button"
                    data-testid="link-connect"
                    on:click=move |_| if busy() { link.disconnect() } else { link.connect() }
                >
                    {move || if busy() { "Disconnect" } else { "Connect" }}
                </button>
            </div>
            <p class="link-status" data-testid="link-status" role="status" data-state=move || state.with(LinkState::as_str)>
                {move || state.with(ToString::to_string)}
            </p>
            <details class="link-more">
                <summary>"Connection options"</summary>
                <label>
                    <span class="label">"WebSocket subprotocol"</span>
                    <input
                        type="text"
                        name="protocol"
                        data-testid="link-protocol"
                        spellcheck="false"
                        placeholder="none"
                        on:input=move |ev| { let v = event_target_value(&ev); set(&|d| d.protocol = v.clone()) }
                    />
                </label>
                <label>
                    <span class="label">"HTTP headers (Name: value per line)"</span>
                    <textarea
                        name="headers"
                        data-testid="link-headers"
                        rows="2"
                        spellcheck="false"
                        placeholder="Authorization: Bearer …"
                        on:input=move |ev| { let v = event_target_value(&ev); set(&|d| d.headers = v.clone()) }
                    ></textarea>
                </label>
                <label class="link-check">
                    <input
                        type="checkbox"
                        name="reconnect"
                        data-testid="link-reconnect"
                        checked
                        on:change=move |ev| { let on = event_target_checked(&ev); set(&|d| d.auto_reconnect = on) }
                    />
                    "Reconnect automatically (with backoff)"
                </label>
                <label>
                    <span class="label">"Timeout (s)"</span>
                    <input type="number" name="timeout" data-testid="link-timeout" min="1" max="3600" step="1" value="30" on:input=on_timeout />
                </label>
            </details>
            <PendingList link />
            {children()}
        </section>
    }
}

/// One message of the link still waiting for a reply.
#[derive(Clone, PartialEq)]
struct Waiting {
    label: String,
    age_s: u64,
    status: Status,
    /// A cooperative client's answer, for a request the server sent (`crate::client`).
    reply: Option<String>,
}

/// Messages of the link still waiting for a reply, oldest first, with their age; a request the
/// server sent gets a reply action (`data-testid="pending"`, `data-count` exact).
#[component]
fn PendingList(link: crate::web::page::link::Link) -> impl IntoView {
    let log = use_log().log;
    // The link's messages still waiting: how many, and the first `shown` of them built as rows.
    // Read where it is needed, no memo type of its own (docs/size-rules.md, 4), and only the
    // rows shown are built (a flood of thousands waiting builds 50).
    let waiting = move |shown: usize| -> (usize, Vec<Waiting>) {
        let now = link.now.get();
        log.with(|l| {
            if l.counts().waiting == 0 {
                return (0, Vec::new());
            }
            let mut all = l
                .entries()
                .iter()
                .filter(|e| e.peer != MOCK_PEER)
                .flat_map(|e| e.msgs.iter().enumerate().map(move |(item, m)| (e, item, m)))
                .filter(|(_, _, m)| m.status.is_waiting());
            let rows = all
                .by_ref()
                .take(shown)
                .map(|(e, item, m)| Waiting {
                    label: describe_at(e, item),
                    age_s: ((now - e.time_ms).max(0.0) as u64) / 1000,
                    status: m.status,
                    reply: (e.direction == Direction::In && m.kind == Kind::Request)
                        .then(|| {
                            // A batch element has no text of its own: an empty result for its id.
                            let own = (!e.is_batch())
                                .then(|| crate::client::reply_to(&e.raw))
                                .flatten();
                            own.or_else(|| m.id.as_deref().map(crate::web::page::link::reply_text))
                        })
                        .flatten(),
                })
                .collect::<Vec<_>>();
            (rows.len() + all.count(), rows)
        })
    };
    let total = move || waiting(0).0;
    let title = move || match total() {
        0 => "Nothing waits for a reply.".to_string(),
        n => format!("{n} waiting for a reply"),
    };
    let items = move || {
        waiting(PENDING_SHOWN)
            .1
            .into_iter()
            .map(|w| {
                let note = match w.status {
                    Status::TimedOut => " · timed out",
                    _ if w.reply.is_some() => " · awaiting your reply",
                    _ => "",
                };
                let reply = w.reply.map(|answer| {
                    view! { <button type="button" data-testid="reply" class="link-reply" on:click=move |_| link.prefill_reply(&answer)>"Reply"</button> }
                });
                view! {
                    <li data-testid="pending-item" data-status=w.status.as_str()>
                        <span class="link-label">{w.label}</span>
                        <span class="link-age">{format!(" · {} s{note}", w.age_s)}</span>
                        {reply}
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <div class="link-pending" data-testid="pending" data-count=move || total().to_string()>
            <p class="link-pending-title">{title}</p>
            <ul class="link-pending-list">{items}</ul>
        </div>
    }
}
