//! The probe's connection to the server, as the probe sees it: send one message, receive what the
//! server sends, and a clock. The faces implement it ([`ProbeLink`]): the CLI over stdio, HTTP and
//! WebSocket with tokio, the page over WebSocket and HTTP with the browser's. Stdio and WebSocket
//! are streams (replies and the server's own messages arrive in any order); over HTTP each message
//! is a POST whose response (JSON or an SSE stream) holds the replies, queued by the link until
//! they are received.

pub use super::excerpt::excerpt;
use std::fmt;
use std::time::Duration;

/// The most times one event stream is resumed (GET with Last-Event-ID) before its reply (both
/// faces: `jrpc probe` and the page's Probe).
pub const MAX_RESUMES: usize = 3;
/// The reconnection time when the stream asked for none (`retry:`), and the longest one honoured.
pub const DEFAULT_RETRY: Duration = Duration::from_millis(1000);
pub const MAX_RETRY: Duration = Duration::from_secs(10);

/// `text` is the `notifications/initialized` notification: once a POST of it is accepted, an HTTP
/// client opens the standalone event stream (GET) on which the server may send its own messages.
pub fn is_initialized_notification(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| {
        v.get("method").and_then(serde_json::Value::as_str) == Some("notifications/initialized")
            && v.get("id").is_none()
    })
}

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

    /// Tells the transport the negotiated MCP version (Streamable HTTP sends it as a header);
    /// `None`: none (yet), after a server/discover the server did not serve.
    fn set_protocol_version(&mut self, version: Option<&str>);

    /// The time since the probe started (its total timeout counts from there).
    fn elapsed(&self) -> Duration;

    /// Tells the transport which arguments of tool `name` it mirrors into `Mcp-Param-*` headers
    /// (2026-07-28 Streamable HTTP). Transports without headers ignore it.
    fn declare_header_params(&mut self, _name: &str, _params: Vec<HeaderParam>) {}

    /// The steps of the MCP authorization the transport performed (HTTP), taken: each becomes a
    /// check of the report. Transports that do not authorize have none.
    fn auth_steps(&mut self) -> Vec<crate::probe::auth::Step> {
        Vec::new()
    }

    /// Makes the next request go with an `Mcp-Method` header that names another method than its
    /// body (what a server validating SEP-2243's headers must refuse). `false`: this transport
    /// sends no headers (stdio, WebSocket, the page's links), and nothing changes.
    fn mismatch_next_method(&mut self) -> bool {
        false
    }
}

/// The `Mcp-Method` a mismatching request claims instead of its own `method`.
pub fn mismatched_method(method: &str) -> &'static str {
    if method == "tools/list" {
        "prompts/list"
    } else {
        "tools/list"
    }
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

/// The headers Streamable HTTP mirrors from a request's body under MCP 2026-07-28 (SEP-2243):
/// `Mcp-Method` (its method, on every request and notification) and, for `tools/call` and `prompts/get` (`params.name`) and
/// `resources/read` (`params.uri`), `Mcp-Name`. `protocol_version` is the version the link
/// sends as `MCP-Protocol-Version` (none: nothing negotiated yet). Earlier versions, a batch, a
/// response and text that is not JSON get none. A name that is not a plain
/// header value (non-ASCII, a control character, white space at an end, or the sentinel's own
/// shape) is sent Base64-encoded as `=?base64?…?=`; a method that is not one is left out (the
/// spec gives it no encoding: the server then refuses the request, as it should).
/// <https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#standard-request-headers>
pub fn request_headers(protocol_version: Option<&str>, text: &str) -> Vec<(&'static str, String)> {
    let mirrored = protocol_version
        .and_then(|v| v.parse::<crate::rpc::McpVersion>().ok())
        .is_some_and(|v| v >= crate::rpc::McpVersion::V2026_07_28);
    if !mirrored {
        return Vec::new();
    }
    let Ok(serde_json::Value::Object(message)) = serde_json::from_str(text) else {
        return Vec::new();
    };
    let Some(method) = message.get("method").and_then(serde_json::Value::as_str) else {
        return Vec::new();
    };
    let mut headers = Vec::new();
    if plain_header_value(method) {
        headers.push(("Mcp-Method", method.to_string()));
    }
    if !message.contains_key("id") {
        // A notification: its method only (every POST carries Mcp-Method).
        return headers;
    }
    let source = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" => "uri",
        _ => return headers,
    };
    if let Some(name) = message
        .get("params")
        .and_then(|p| p.get(source))
        .and_then(serde_json::Value::as_str)
    {
        headers.push(("Mcp-Name", header_name_value(name)));
    }
    headers
}

/// One argument a tool mirrors into a header under 2026-07-28 (`x-mcp-header` on a property of
/// its inputSchema): the argument's name and the header's suffix (`Mcp-Param-{header}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderParam {
    pub argument: String,
    pub header: String,
}

/// The most `x-mcp-header` declarations read from one tool (a larger inputSchema is refused: no
/// server needs more, and each one is a header on every call).
pub const MAX_HEADER_PARAMS: usize = 64;

/// The arguments `input_schema` (a tool's inputSchema) mirrors into headers, in property order.
/// Err: the first invalid declaration, as (the JSON pointer of the property within the
/// inputSchema, why): an `x-mcp-header` that is not a non-empty string of header-name characters
/// (RFC 9110 `tchar`: visible ASCII but no space, colon or other separator), on a property whose
/// type is not string, integer or boolean, or the same as another one's ignoring case; more than
/// [`MAX_HEADER_PARAMS`] of them. A client must not call such a tool (SEP-2243).
/// <https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#custom-headers-from-tool-parameters>
pub fn header_params(
    input_schema: &serde_json::Value,
) -> Result<Vec<HeaderParam>, (String, String)> {
    let Some(properties) = input_schema
        .get("properties")
        .and_then(serde_json::Value::as_object)
    else {
        return Ok(Vec::new());
    };
    let mut params: Vec<HeaderParam> = Vec::new();
    for (argument, property) in properties {
        let Some(declared) = property.get("x-mcp-header") else {
            continue;
        };
        let pointer = format!("/properties/{}", pointer_token(argument));
        let Some(header) = declared.as_str() else {
            return Err((pointer, "its x-mcp-header is not a string".into()));
        };
        if header.is_empty() {
            return Err((pointer, "its x-mcp-header is empty".into()));
        }
        if let Some(bad) = header.chars().find(|c| !is_tchar(*c)) {
            return Err((
                pointer,
                format!(
                    "its x-mcp-header {:?} has {bad:?}, which a header name cannot hold (visible ASCII but no space, colon or other separator)",
                    excerpt(header, 40)
                ),
            ));
        }
        match property.get("type").and_then(serde_json::Value::as_str) {
            Some("string" | "integer" | "boolean") => {}
            other => {
                let ty = other.map_or("no single type".to_string(), |t| format!("type {t:?}"));
                return Err((
                    pointer,
                    format!("its x-mcp-header {header:?} is on a property of {ty}: only string, integer and boolean properties may be mirrored"),
                ));
            }
        }
        if let Some(first) = params
            .iter()
            .find(|p| p.header.eq_ignore_ascii_case(header))
        {
            return Err((
                pointer,
                format!(
                    "its x-mcp-header {header:?} is also property {:?}'s ({:?}): header names are unique ignoring case",
                    excerpt(&first.argument, 40),
                    first.header
                ),
            ));
        }
        if params.len() == MAX_HEADER_PARAMS {
            return Err((
                pointer,
                format!("more than {MAX_HEADER_PARAMS} x-mcp-header declarations"),
            ));
        }
        params.push(HeaderParam {
            argument: argument.clone(),
            header: header.to_string(),
        });
    }
    Ok(params)
}

/// RFC 9110's `tchar`: what a header field name is made of.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// `name` escaped as a JSON pointer token.
fn pointer_token(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// The `Mcp-Param-*` headers of a 2026-07-28 `tools/call` in `text` whose tool declared `params`
/// ([`header_params`]): each argument given as a string (Base64 in the sentinel when it is not a
/// plain header value), a number or a boolean, as its JSON text; an argument that is null, absent,
/// an array or an object gets none.
pub fn param_headers(
    protocol_version: Option<&str>,
    text: &str,
    params: &[HeaderParam],
) -> Vec<(String, String)> {
    let mirrored = protocol_version
        .and_then(|v| v.parse::<crate::rpc::McpVersion>().ok())
        .is_some_and(|v| v >= crate::rpc::McpVersion::V2026_07_28);
    if !mirrored || params.is_empty() {
        return Vec::new();
    }
    let Ok(message) = serde_json::from_str::<serde_json::Value>(text) else {
        return Vec::new();
    };
    let Some(arguments) = message.pointer("/params/arguments") else {
        return Vec::new();
    };
    params
        .iter()
        .filter_map(|param| {
            let value = match arguments.get(&param.argument)? {
                serde_json::Value::String(s) => header_name_value(s),
                serde_json::Value::Number(n) => n.to_string(),
                serde_json::Value::Bool(b) => b.to_string(),
                _ => return None,
            };
            Some((format!("Mcp-Param-{}", param.header), value))
        })
        .collect()
}

/// The name of the tool a `tools/call` in `text` calls.
pub fn called_tool(text: &str) -> Option<String> {
    let message: serde_json::Value = serde_json::from_str(text).ok()?;
    if message.get("method")?.as_str()? != "tools/call" {
        return None;
    }
    Some(message.pointer("/params/name")?.as_str()?.to_string())
}

/// SEP-2243's Base64 sentinel: the prefix and suffix of an encoded header value.
const SENTINEL: (&str, &str) = ("=?base64?", "?=");

/// Visible ASCII and inner spaces only, and not shaped like the sentinel.
fn plain_header_value(value: &str) -> bool {
    value.bytes().all(|b| (0x20..=0x7e).contains(&b))
        && !value.starts_with(' ')
        && !value.ends_with(' ')
        && (!value.starts_with(SENTINEL.0) || !value.ends_with(SENTINEL.1))
}

/// `value` as an `Mcp-Name` header value: as it is when plain, else Base64 (standard alphabet,
/// padded) of its UTF-8 between the sentinel's markers.
fn header_name_value(value: &str) -> String {
    use base64::Engine;
    if plain_header_value(value) {
        return value.to_string();
    }
    let encoded = base64::engine::general_purpose::STANDARD.encode(value.as_bytes());
    format!("{}{encoded}{}", SENTINEL.0, SENTINEL.1)
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
    fn a_2026_07_28_request_mirrors_its_method_and_name_into_headers() {
        let v = Some("2026-07-28");
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{}}}"#;
        assert_eq!(
            request_headers(v, call),
            [
                ("Mcp-Method", "tools/call".into()),
                ("Mcp-Name", "echo".into())
            ]
        );
        let read = r#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"file:///a b.txt"}}"#;
        assert_eq!(
            request_headers(v, read),
            [
                ("Mcp-Method", "resources/read".into()),
                ("Mcp-Name", "file:///a b.txt".into())
            ]
        );
        let list = r#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"name":"x"}}"#;
        assert_eq!(
            request_headers(v, list),
            [("Mcp-Method", "tools/list".into())]
        );
    }

    #[test]
    fn a_name_unsafe_in_a_header_is_sent_base64_encoded() {
        let v = Some("2026-07-28");
        let name = |n: &str| {
            let text = serde_json::json!({"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":n}});
            request_headers(v, &text.to_string())
                .pop()
                .map(|(_, value)| value)
        };
        // The spec's own examples (Value Encoding).
        assert_eq!(
            name("Hello, 世界").as_deref(),
            Some("=?base64?SGVsbG8sIOS4lueVjA==?=")
        );
        assert_eq!(name(" padded ").as_deref(), Some("=?base64?IHBhZGRlZCA=?="));
        assert_eq!(
            name("line1\nline2").as_deref(),
            Some("=?base64?bGluZTEKbGluZTI=?=")
        );
        assert_eq!(
            name("=?base64?literal?=").as_deref(),
            Some("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=")
        );
        assert_eq!(name("us-west1").as_deref(), Some("us-west1"));
    }

    #[test]
    fn other_versions_batches_and_broken_text_get_no_headers_and_a_notification_its_method() {
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}"#;
        assert!(request_headers(Some("2025-11-25"), call).is_empty());
        assert!(request_headers(None, call).is_empty());
        let v = Some("2026-07-28");
        assert!(request_headers(v, &format!("[{call}]")).is_empty());
        assert_eq!(
            request_headers(v, r#"{"jsonrpc":"2.0","method":"notifications/probe"}"#),
            [("Mcp-Method", "notifications/probe".into())]
        );
        assert!(request_headers(v, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#).is_empty());
        assert!(request_headers(
            v,
            r#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#
        )
        .is_empty());
        assert!(
            request_headers(v, r#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#).is_empty()
        );
        // A method no header can carry is left out; the request is still sent.
        assert!(request_headers(v, r#"{"jsonrpc":"2.0","id":1,"method":"prüfen"}"#).is_empty());
    }

    #[test]
    fn x_mcp_header_declarations_are_read_and_invalid_ones_refused() {
        let schema = serde_json::json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "priority": {"type": "integer", "x-mcp-header": "Priority"},
            "query": {"type": "string"}
        }});
        let params = header_params(&schema).unwrap();
        assert_eq!(
            params
                .iter()
                .map(|p| (p.argument.as_str(), p.header.as_str()))
                .collect::<Vec<_>>(),
            [("region", "Region"), ("priority", "Priority")]
        );
        for (property, why) in [
            (
                serde_json::json!({"a": {"type": "string", "x-mcp-header": ""}}),
                "empty",
            ),
            (
                serde_json::json!({"a": {"type": "object", "x-mcp-header": "A"}}),
                "only string",
            ),
            (
                serde_json::json!({"a": {"type": "array", "x-mcp-header": "A"}}),
                "only string",
            ),
            (
                serde_json::json!({"a": {"type": "null", "x-mcp-header": "A"}}),
                "only string",
            ),
            (
                serde_json::json!({"a": {"type": "number", "x-mcp-header": "A"}}),
                "only string",
            ),
            (
                serde_json::json!({"a": {"type": "string", "x-mcp-header": "MyField"}, "b": {"type": "string", "x-mcp-header": "myfield"}}),
                "unique",
            ),
            (
                serde_json::json!({"a": {"type": "string", "x-mcp-header": "My Region"}}),
                "' '",
            ),
            (
                serde_json::json!({"a": {"type": "string", "x-mcp-header": "Region:Primary"}}),
                "':'",
            ),
            (
                serde_json::json!({"a": {"type": "string", "x-mcp-header": "Région"}}),
                "'é'",
            ),
            (
                serde_json::json!({"a": {"type": "string", "x-mcp-header": "Region\t1"}}),
                "'\\t'",
            ),
            (
                serde_json::json!({"a/b": {"type": "string", "x-mcp-header": 7}}),
                "not a string",
            ),
        ] {
            let schema = serde_json::json!({"type": "object", "properties": property});
            let (pointer, said) = header_params(&schema).unwrap_err();
            assert!(said.contains(why), "{property}: {said}");
            assert!(pointer.starts_with("/properties/"), "{pointer}");
        }
        let slash =
            serde_json::json!({"properties": {"a/b": {"type": "string", "x-mcp-header": ""}}});
        assert_eq!(header_params(&slash).unwrap_err().0, "/properties/a~1b");
    }

    #[test]
    fn a_2026_tool_call_mirrors_its_declared_arguments_into_mcp_param_headers() {
        let params = [
            ("region", "Region"),
            ("priority", "Priority"),
            ("verbose", "Verbose"),
            ("name", "Name"),
            ("gone", "Gone"),
        ]
        .map(|(argument, header)| HeaderParam {
            argument: argument.into(),
            header: header.into(),
        });
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"region":"us-west1","priority":42,"verbose":false,"name":"Hello, 世界","gone":null,"query":"x"}}}"#;
        assert_eq!(
            param_headers(Some("2026-07-28"), call, &params),
            [
                ("Mcp-Param-Region".to_string(), "us-west1".to_string()),
                ("Mcp-Param-Priority".into(), "42".into()),
                ("Mcp-Param-Verbose".into(), "false".into()),
                (
                    "Mcp-Param-Name".into(),
                    "=?base64?SGVsbG8sIOS4lueVjA==?=".into()
                ),
            ]
        );
        assert!(param_headers(Some("2025-11-25"), call, &params).is_empty());
        assert_eq!(called_tool(call).as_deref(), Some("t"));
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
