//! The probe's connection to the server: send one message, receive what the server sends, whatever
//! the transport. Stdio and WebSocket are streams (replies and the server's own messages arrive in
//! any order); over HTTP each message is a POST whose response (JSON or an SSE stream) holds the
//! replies, queued here until they are received.

mod http;
mod stdio;
mod ws;

use std::fmt;
use std::time::Duration;

use super::target::Target;

/// The connection failed: the server is gone, refused, or broke the transport.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkError(pub String);

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What the transport said about a sent message besides the messages (HTTP only).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Delivery {
    /// The HTTP status of the POST.
    pub http_status: Option<u16>,
    /// A transport-level remark worth showing (an HTTP error status without a JSON-RPC body).
    pub note: Option<String>,
}

pub enum Link {
    Stdio(stdio::StdioLink),
    Http(http::HttpLink),
    Ws(ws::WsLink),
}

impl Link {
    /// Starts or connects to `target`, within `timeout`.
    pub async fn open(target: &Target, timeout: Duration) -> Result<Link, LinkError> {
        match target {
            Target::Spawn { program, args } => {
                stdio::StdioLink::spawn(program, args).map(Link::Stdio)
            }
            Target::Http(uri) => Ok(Link::Http(http::HttpLink::new(uri.clone(), timeout))),
            Target::Ws(url) => ws::WsLink::connect(url, timeout).await.map(Link::Ws),
        }
    }

    /// Sends one message (or batch) as it is written.
    pub async fn send(&mut self, text: &str, timeout: Duration) -> Result<Delivery, LinkError> {
        match self {
            Link::Stdio(link) => link.send(text).await.map(|()| Delivery::default()),
            Link::Http(link) => link.post(text, timeout).await,
            Link::Ws(link) => link.send(text).await.map(|()| Delivery::default()),
        }
    }

    /// The next message from the server, waiting at most `wait`; `None` when nothing came.
    pub async fn receive(&mut self, wait: Duration) -> Result<Option<String>, LinkError> {
        match self {
            Link::Stdio(link) => link.receive(wait).await,
            Link::Http(link) => Ok(link.queued()),
            Link::Ws(link) => link.receive(wait).await,
        }
    }

    /// Tells the transport the negotiated MCP version (Streamable HTTP sends it as a header).
    pub fn set_protocol_version(&mut self, version: &str) {
        if let Link::Http(link) = self {
            link.protocol_version = Some(version.to_string());
        }
    }

    /// Ends the connection: the spawned server (and its process group) is stopped, the HTTP
    /// session deleted, the WebSocket closed.
    pub async fn close(self) {
        match self {
            Link::Stdio(link) => link.stop().await,
            Link::Http(link) => link.end_session().await,
            Link::Ws(link) => link.close().await,
        }
    }
}

/// A response or a batch of them (what ends the wait for a reply), judged loosely: the engine
/// judges it properly later. Anything unreadable counts too: it is what the server answered.
pub fn is_reply(text: &str) -> bool {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(o)) => {
            !o.contains_key("method") && (o.contains_key("result") || o.contains_key("error"))
        }
        _ => true,
    }
}

/// `text` cut to `max` characters for a message (with "…" when cut).
pub fn excerpt(text: &str, max: usize) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(max).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_end_the_wait() {
        assert!(is_reply(r#"{"jsonrpc":"2.0","result":{},"id":1}"#));
        assert!(is_reply(r#"[{"jsonrpc":"2.0","result":{},"id":1}]"#));
        assert!(!is_reply(
            r#"{"jsonrpc":"2.0","method":"notifications/message"}"#
        ));
        assert!(!is_reply(r#"{"jsonrpc":"2.0","method":"ping","id":1}"#));
        assert!(is_reply("not json"));
        assert_eq!(excerpt("abcdef", 3), "abc…");
        assert_eq!(excerpt("abc", 3), "abc");
    }
}
