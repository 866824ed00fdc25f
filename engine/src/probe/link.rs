//! The probe's connection to the server, as the probe sees it: send one message, receive what the
//! server sends, and a clock. The faces implement it ([`ProbeLink`]): the CLI over stdio, HTTP and
//! WebSocket with tokio, the page over WebSocket and HTTP with the browser's. Stdio and WebSocket
//! are streams (replies and the server's own messages arrive in any order); over HTTP each message
//! is a POST whose response (JSON or an SSE stream) holds the replies, queued by the link until
//! they are received.

use std::fmt;
use std::time::Duration;

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

/// The I/O of a probe. The futures need not be `Send`: a probe runs on one thread (the CLI's
/// current-thread runtime, the browser's event loop).
#[allow(async_fn_in_trait)]
pub trait ProbeLink {
    /// Sends one message (or batch) as it is written, within `timeout`: a stream the server does
    /// not read in time is an error (the probe stops). Over HTTP the POST's response is read here
    /// (within `timeout`: one that does not come in time is not an error, the request is then
    /// unanswered) and its messages queued for [`ProbeLink::receive`].
    async fn send(&mut self, text: &str, timeout: Duration) -> Result<Delivery, LinkError>;

    /// The next message from the server, waiting at most `wait`; `None` when nothing came.
    async fn receive(&mut self, wait: Duration) -> Result<Option<String>, LinkError>;

    /// Tells the transport the negotiated MCP version (Streamable HTTP sends it as a header).
    fn set_protocol_version(&mut self, version: &str);

    /// The time since the probe started (its total timeout counts from there).
    fn elapsed(&self) -> Duration;
}

/// What a message from the server is, judged loosely from its member names alone (their values
/// are skipped, never built: a flood of large notifications costs a scan, not a tree).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// A response or a batch of them (what ends the wait for a reply). Anything unreadable counts
    /// too: it is what the server answered. The engine judges it properly later.
    pub reply: bool,
    /// A request to the probe (an object with an id and a method): it gets an answer.
    pub request: bool,
}

/// The [`Shape`] of `text`.
pub fn shape(text: &str) -> Shape {
    use std::collections::BTreeMap;
    match serde_json::from_str::<BTreeMap<String, serde::de::IgnoredAny>>(text) {
        Ok(members) => {
            let has = |name: &str| members.contains_key(name);
            Shape {
                reply: !has("method") && (has("result") || has("error")),
                request: has("method") && has("id"),
            }
        }
        Err(_) => Shape {
            reply: true,
            request: false,
        },
    }
}

/// A response or a batch of them, as [`Shape::reply`] judges it.
pub fn is_reply(text: &str) -> bool {
    shape(text).reply
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

/// How one HTTP response body (not an event stream) reads: the JSON-RPC message it holds, or the
/// transport's error page (HTML, plain text) summarised for a note.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HttpBody {
    /// Nothing (or only white space).
    Empty,
    /// A JSON body, or any body of a 2xx response: what the server answered.
    Message(String),
    /// Another body of an error status: its content type and an excerpt of its words.
    ErrorPage(String),
}

impl HttpBody {
    /// Reads `body`, sent with HTTP `status` and `content_type` (lower case; "" when absent).
    pub fn read(status: u16, content_type: &str, body: &str) -> HttpBody {
        let text = body.trim();
        if text.is_empty() {
            return HttpBody::Empty;
        }
        let json = content_type.contains("json")
            || (content_type.is_empty() && text.starts_with(['{', '[']));
        if json || (200..300).contains(&status) {
            return HttpBody::Message(text.to_string());
        }
        let shown = if content_type.is_empty() {
            "no content type"
        } else {
            content_type
        };
        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
        HttpBody::ErrorPage(format!("{shown}: {}", excerpt(&words, 80)))
    }
}

/// The note for a POST answered with HTTP `status`: none for a 2xx, else the status with the
/// error page (if one came) or a word on the missing JSON-RPC body.
pub fn http_note(status: u16, error_page: Option<&str>, got_messages: bool) -> Option<String> {
    match (error_page, got_messages) {
        _ if (200..300).contains(&status) => None,
        (Some(page), _) => Some(format!("HTTP {status} ({page})")),
        (None, false) => Some(format!("HTTP {status} with no JSON-RPC body")),
        (None, true) => Some(format!("HTTP {status}")),
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

    #[test]
    fn an_error_page_is_the_transports_and_json_is_a_message() {
        let page = HttpBody::read(502, "text/html", "<html>\n  Bad   gateway </html>");
        assert_eq!(
            page,
            HttpBody::ErrorPage("text/html: <html> Bad gateway </html>".into())
        );
        assert_eq!(
            HttpBody::read(400, "application/json", r#" {"error":1} "#),
            HttpBody::Message(r#"{"error":1}"#.into())
        );
        assert_eq!(
            HttpBody::read(500, "", "[1]"),
            HttpBody::Message("[1]".into())
        );
        assert_eq!(
            HttpBody::read(500, "", "oops"),
            HttpBody::ErrorPage("no content type: oops".into())
        );
        assert_eq!(
            HttpBody::read(200, "text/plain", "hello"),
            HttpBody::Message("hello".into())
        );
        assert_eq!(HttpBody::read(404, "text/html", "  "), HttpBody::Empty);
        assert_eq!(http_note(200, Some("x"), false), None);
        assert_eq!(
            http_note(502, Some("text/html: Bad"), false).as_deref(),
            Some("HTTP 502 (text/html: Bad)")
        );
        assert_eq!(
            http_note(404, None, false).as_deref(),
            Some("HTTP 404 with no JSON-RPC body")
        );
        assert_eq!(http_note(400, None, true).as_deref(), Some("HTTP 400"));
    }
}
