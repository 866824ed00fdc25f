//! The connection panel (`link-url`, `link-connect`, `link-status`), the list of messages still
//! waiting (`pending`, with their age and a reply action for the server's requests), and the
//! target switch of Send (`target`: mock | link).
//!
//! Kept small on purpose (every reactive attribute and handler is code in the wasm): the fields
//! are plain inputs read by one delegated `input` handler, the status is one text, the pending
//! list one closure.

use crate::ui::prelude::*;

use super::{use_link, LinkState, DEFAULT_TIMEOUT_S};
use crate::exchange::{Direction, Status};
use crate::rpc::Kind;
use crate::ui::dom::{self, h, Tag};
use crate::ui::exchange::{describe_at, use_log, MOCK_PEER};
use crate::ui::state::{use_app, Target};

/// How many waiting messages the pending list shows (the oldest); the count is exact.
const PENDING_SHOWN: usize = 50;

/// Where Send goes: the in-browser mock server or the live link (`data-testid="target"`).
pub fn target_select() -> web_sys::Element {
    let app = use_app();
    let select = h("select")
        .testid("target")
        .child(
            h("option")
                .attr("value", "mock")
                .text("mock server (in the page)"),
        )
        .child(h("option").attr("value", "link").text("live link"))
        .on("change", move |e| {
            app.target.set(if dom::target_value(&e) == "link" {
                Target::Link
            } else {
                Target::Mock
            })
        })
        .el();
    dom::bind_value(&select, move || {
        (if app.target.get() == Target::Link {
            "link"
        } else {
            "mock"
        })
        .to_string()
    });
    h("label")
        .class("target")
        .child(h("span").class("label").text("Send to"))
        .node(select)
        .el()
}

/// A labelled field of the panel.
fn field(label: &'static str, input: Tag) -> Tag {
    h("label")
        .child(h("span").class("label").text(label))
        .child(input)
}

/// The connection panel.
pub fn link_panel() -> web_sys::Element {
    let link = use_link();
    let state = link.state();
    let busy = move || !matches!(state.get(), LinkState::Closed | LinkState::Error(_));
    // Every field, through one handler: its `name` says which option it is.
    let on_input = move |e: web_sys::Event| {
        let Some(target) = e.target() else { return };
        let name = dom::prop(&target, "name").unwrap_or_default();
        let value = dom::prop(&target, "value").unwrap_or_default();
        let checked = name == "reconnect" && dom::prop_bool(&target, "checked");
        link.conn.update_value(|c| match name.as_str() {
            "url" => c.draft.url = value,
            "protocol" => c.draft.protocol = value,
            "headers" => c.draft.headers = value,
            "reconnect" => c.draft.auto_reconnect = checked,
            "timeout" => {
                let s = value
                    .trim()
                    .parse::<u32>()
                    .unwrap_or(DEFAULT_TIMEOUT_S)
                    .clamp(1, 3600);
                c.draft.timeout_s = s;
                c.options.timeout_s = s;
            }
            _ => {}
        });
    };
    let connect = h("button")
        .attr("type", "button")
        .testid("link-connect")
        .on("click", move |_| {
            if busy() {
                link.disconnect()
            } else {
                link.connect()
            }
        })
        .el();
    dom::bind_text(&connect, move || {
        (if busy() { "Disconnect" } else { "Connect" }).to_string()
    });
    let status = h("p")
        .class("link-status")
        .testid("link-status")
        .attr("role", "status")
        .el();
    dom::bind_attr(&status, "data-state", move || {
        Some(state.with(LinkState::as_str).to_string())
    });
    dom::bind_text(&status, move || state.with(ToString::to_string));
    h("section")
        .class("link-panel")
        .attr("aria-label", "Live link")
        .testid("link-panel")
        .on("input", on_input)
        .child(h("h2").class("link-title").text("Live link"))
        .child(
            h("div")
                .class("link-fields")
                .child(
                    h("label")
                        .class("link-url")
                        .child(h("span").class("label").text("Endpoint"))
                        .child(
                            h("input")
                                .attr("type", "url")
                                .attr("name", "url")
                                .testid("link-url")
                                .attr("spellcheck", "false")
                                .attr(
                                    "placeholder",
                                    "ws://127.0.0.1:8765 or http://127.0.0.1:8766",
                                ),
                        ),
                )
                .node(connect),
        )
        .node(status)
        .child(
            h("details")
                .class("link-more")
                .child(h("summary").text("Options"))
                .child(field(
                    "WebSocket subprotocol",
                    h("input")
                        .attr("type", "text")
                        .attr("name", "protocol")
                        .testid("link-protocol")
                        .attr("spellcheck", "false")
                        .attr("placeholder", "none"),
                ))
                .child(field(
                    "HTTP headers (Name: value per line)",
                    h("textarea")
                        .attr("name", "headers")
                        .testid("link-headers")
                        .attr("rows", "2")
                        .attr("spellcheck", "false")
                        .attr("placeholder", "Authorization: Bearer …"),
                ))
                .child(
                    h("label")
                        .class("link-check")
                        .child(
                            h("input")
                                .attr("type", "checkbox")
                                .attr("name", "reconnect")
                                .testid("link-reconnect")
                                .attr("checked", ""),
                        )
                        .text("Reconnect automatically (with backoff)"),
                )
                .child(field(
                    "Timeout (s)",
                    h("input")
                        .attr("type", "number")
                        .attr("name", "timeout")
                        .testid("link-timeout")
                        .attr("min", "1")
                        .attr("max", "3600")
                        .attr("step", "1")
                        .attr("value", "30"),
                )),
        )
        .node(pending_list(link))
        .el()
}

/// Messages of the link still waiting for a reply, oldest first, with their age; a request the
/// server sent gets a reply action (`data-testid="pending"`, `data-count` exact).
fn pending_list(link: super::Link) -> web_sys::Element {
    let log = use_log().log;
    let title = h("p").class("link-pending-title").el();
    let list = h("ul").class("link-pending-list").el();
    // The Reply buttons carry the id to answer; one delegated click handler reads it.
    let host = h("div")
        .class("link-pending")
        .testid("pending")
        .node(title.clone())
        .node(list.clone())
        .on("click", move |ev| {
            if let Some((_, id)) = dom::closest_data(&ev, "data-reply") {
                link.prefill_reply(&id);
            }
        })
        .el();
    let el = host.clone();
    dom::effect(move || {
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
                    let reply_id = (e.direction == Direction::In && m.kind == Kind::Request)
                        .then(|| m.id.clone())
                        .flatten();
                    (describe_at(e, item), age_s, m.status, reply_id)
                })
                .collect()
        });
        let total = rows.len();
        let _ = el.set_attribute("data-count", &total.to_string());
        title.set_text_content(Some(&if total == 0 {
            "Nothing waits for a reply.".to_string()
        } else {
            format!("{total} waiting for a reply")
        }));
        let items = rows
            .into_iter()
            .take(PENDING_SHOWN)
            .map(|(label, age, status, reply_id)| {
                let note = match status {
                    Status::TimedOut => " · timed out",
                    _ if reply_id.is_some() => " · awaiting your reply",
                    _ => "",
                };
                h("li")
                    .testid("pending-item")
                    .attr("data-status", status.as_str())
                    .child(h("span").class("link-label").text(label))
                    .child(
                        h("span")
                            .class("link-age")
                            .text(format!(" · {age} s{note}")),
                    )
                    .child_opt(reply_id.map(|id| {
                        h("button")
                            .attr("type", "button")
                            .testid("reply")
                            .class("link-reply")
                            .attr("data-reply", id)
                            .text("Reply")
                    }))
            });
        dom::replace(&list, items);
    });
    host
}
