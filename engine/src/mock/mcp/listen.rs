//! `subscriptions/listen` (MCP 2026-07-28, SEP-2575): the long-lived request that replaced
//! `resources/subscribe`. The server answers it at once with `notifications/subscriptions/
//! acknowledged` (the part of the client's filter it agreed to honor) and not with a reply: the
//! request stays open, and the notifications it asked for follow on it, each carrying the
//! request's id as `_meta["io.modelcontextprotocol/subscriptionId"]`, until the client cancels it
//! (`notifications/cancelled` naming the request, or closing the HTTP stream) or the server ends
//! it with the request's result (graceful closure, [`MockServer::end_listen`]).
//!
//! What the mock honors: `resourceSubscriptions` for the resources it has (the friendly set's
//! mock://notes changes with add_note, which then sends `notifications/resources/updated` on every
//! subscription naming it). Its lists of tools, prompts and resources never change under
//! 2026-07-28 and it pushes no task notifications, so those filters are left out of the
//! acknowledgement (the spec's "not supported"); asking for `taskIds` without declaring the Tasks
//! extension is -32021. At most [`MAX_LISTENS`] subscriptions are open per server.
//! <https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions>

use crate::json::{Json, Node};
use crate::rpc::errors::INTERNAL_ERROR;

use super::super::ask::missing_extension;
use super::super::ask::{CallId, OutgoingKind};
use super::notes::note_number;
use super::resources::RESOURCES;
use super::{MockServer, Outcome, RpcError};

/// The most subscriptions open at once on one server.
pub const MAX_LISTENS: usize = 16;

const META_SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// One open subscription.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::mock) struct Listen {
    /// The call of its `subscriptions/listen` (what the server sends on it is tagged with it).
    call: CallId,
    /// The request's id: the subscription's id.
    id: Json,
    /// The resources it hears about (the agreed `resourceSubscriptions`).
    uris: Vec<String>,
}

/// `subscriptions/listen`: acknowledges the agreed filter and opens the subscription (the request
/// gets no reply now).
pub(super) fn listen(server: &mut MockServer, params: Option<&Node<'_>>) -> Outcome {
    let (Some(call), Some(id)) = (server.current_call, server.current_id.clone()) else {
        return Err(RpcError::new(
            INTERNAL_ERROR,
            "subscriptions/listen is a request: it needs an id",
        ));
    };
    let filter = params.and_then(|p| p.get("notifications"));
    if filter.and_then(|f| f.get("taskIds")).is_some() && !server.request.client_can.tasks {
        return Err(missing_extension(
            "notifications for taskIds are the Tasks extension's",
        ));
    }
    server.listens.retain(|l| l.id != id);
    if server.listens.len() >= MAX_LISTENS {
        return Err(RpcError::new(
            INTERNAL_ERROR,
            format!("Too many subscriptions: at most {MAX_LISTENS} are open at once; cancel one (notifications/cancelled naming its request id)"),
        ));
    }
    let mut uris: Vec<String> = Vec::new();
    if let Some(crate::json::Value::Array(items)) = filter
        .and_then(|f| f.get("resourceSubscriptions"))
        .map(|r| &r.value)
    {
        for uri in items.iter().filter_map(Node::as_str) {
            if has_resource(server, uri) && !uris.iter().any(|u| u == uri) {
                uris.push(uri.to_string());
            }
        }
    }
    let mut agreed = Vec::new();
    if !uris.is_empty() {
        agreed.push((
            "resourceSubscriptions",
            Json::arr(uris.iter().map(|u| Json::from(u.as_str()))),
        ));
    }
    let ack = Json::obj([
        ("jsonrpc", Json::from("2.0")),
        (
            "method",
            Json::from("notifications/subscriptions/acknowledged"),
        ),
        (
            "params",
            Json::obj([
                ("_meta", Json::obj([(META_SUBSCRIPTION_ID, id.clone())])),
                ("notifications", Json::obj(agreed)),
            ]),
        ),
    ]);
    server.send(ack.compact(), OutgoingKind::Notification, Some(call));
    server.listens.push(Listen { call, id, uris });
    server.listen_opened = true;
    Ok(Json::Null)
}

/// Whether the server has the resource `uri` (what a subscription can name).
fn has_resource(server: &MockServer, uri: &str) -> bool {
    #[cfg(feature = "conformance")]
    if server.fixtures == super::Fixtures::Conformance {
        return super::super::conformance::read(uri).is_some();
    }
    RESOURCES.iter().any(|r| r.uri == uri) || note_number(server, uri).is_some()
}

/// Sends `notifications/resources/updated` for `uri` on every subscription naming it; whether one
/// did.
pub(super) fn resource_updated(server: &mut MockServer, uri: &str) -> bool {
    let heard: Vec<(CallId, Json)> = server
        .listens
        .iter()
        .filter(|l| l.uris.iter().any(|u| u == uri))
        .map(|l| (l.call, l.id.clone()))
        .collect();
    for (call, id) in &heard {
        let message = Json::obj([
            ("jsonrpc", Json::from("2.0")),
            ("method", Json::from("notifications/resources/updated")),
            (
                "params",
                Json::obj([
                    ("_meta", Json::obj([(META_SUBSCRIPTION_ID, id.clone())])),
                    ("uri", Json::from(uri)),
                ]),
            ),
        ]);
        server.send(message.compact(), OutgoingKind::Notification, Some(*call));
    }
    !heard.is_empty()
}

/// `notifications/cancelled` naming a subscription's request: it ends (nothing is sent).
pub(in crate::mock) fn cancelled(server: &mut MockServer, params: Option<&Node<'_>>) {
    if let Some(id) = params.and_then(|p| p.get("requestId")) {
        let id = Json::from_node(id);
        server.listens.retain(|l| l.id != id);
    }
}

impl MockServer {
    /// The calls whose subscription is open (`subscriptions/listen`), oldest first.
    pub fn listening(&self) -> Vec<CallId> {
        self.listens.iter().map(|l| l.call).collect()
    }

    /// Ends the subscription of `call` on the server's side (graceful closure): its request's
    /// reply, the result carrying the subscription's id; `None` when it is not open.
    pub fn end_listen(&mut self, call: CallId) -> Option<String> {
        let index = self.listens.iter().position(|l| l.call == call)?;
        let listen = self.listens.remove(index);
        let result = Json::obj([
            ("resultType", Json::from("complete")),
            (
                "_meta",
                Json::obj([(META_SUBSCRIPTION_ID, listen.id.clone())]),
            ),
        ]);
        Some(super::super::success(&listen.id.compact(), &result))
    }
}
