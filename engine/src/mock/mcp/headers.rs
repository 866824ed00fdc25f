//! SEP-2243: over Streamable HTTP a 2026-07-28 request mirrors its version, method and name into
//! headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`), and a server that reads the body
//! rejects a request whose headers are missing or say otherwise: `400 Bad Request` with -32020
//! HeaderMismatch. The handshake versions have no such rule (their requests are not checked).
//! <https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#server-validation>

use base64::Engine as _;

use crate::json::{quote, Json, Node, Value};

use super::super::params::HeaderParam;
use super::RpcError;

/// MCP 2026-07-28's "Header mismatch".
pub const HEADER_MISMATCH: i64 = -32020;

/// The request headers of one HTTP POST that SEP-2243 compares with its body, as the transport
/// read them (names case-insensitively). Values keep their text; the transport decodes a
/// Base64-sentinel `Mcp-Name` (`=?base64?…?=`) before, and passes one it cannot decode as it came.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HttpHeaders {
    /// `MCP-Protocol-Version`.
    pub protocol_version: Option<String>,
    /// `Mcp-Method`.
    pub method: Option<String>,
    /// `Mcp-Name`.
    pub name: Option<String>,
    /// Every `Mcp-Param-{Name}` header: the name after `Mcp-Param-` and the value.
    pub params: Vec<(String, String)>,
}

/// The value of a header that may carry the Base64 sentinel `=?base64?…?=`: decoded (strictly:
/// the standard alphabet with its padding, UTF-8) when it does, as written otherwise. `Err`: a
/// sentinel that does not decode, or characters a header value may not hold.
fn decoded(value: &str) -> Result<String, &'static str> {
    let value = value.trim_matches(|c| c == ' ' || c == '\t');
    if !value
        .bytes()
        .all(|b| b == b'\t' || (0x20..0x7f).contains(&b))
    {
        return Err("holds characters a header value may not (visible ASCII, space and tab)");
    }
    let Some(encoded) = value
        .strip_prefix("=?base64?")
        .and_then(|v| v.strip_suffix("?="))
    else {
        return Ok(value.to_string());
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .map_err(|_| "is not valid Base64 inside =?base64?…?= (its alphabet and padding)")?;
    String::from_utf8(bytes).map_err(|_| "decodes to bytes that are not UTF-8")
}

/// An argument as its header carries it: a string as is, an integer in decimal, a boolean as
/// `true`/`false`; `None` for no value (absent or null: no header is expected).
fn header_text(node: &Node<'_>) -> Option<String> {
    match &node.value {
        Value::String(_) => node.as_str().map(str::to_string),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn header_mismatch(header: &str, problem: String) -> RpcError {
    RpcError {
        code: HEADER_MISMATCH,
        message: format!("Header mismatch: {problem}"),
        data: Some(Json::obj([("header", Json::from(header))])),
    }
}

/// The member of `params` that `Mcp-Name` mirrors: `name` of `tools/call` and `prompts/get`,
/// `uri` of `resources/read`, `taskId` of the Tasks extension's `tasks/get`, `tasks/update` and
/// `tasks/cancel` (SEP-2663's routing header).
fn name_member(method: &str) -> Option<&'static str> {
    match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        "tasks/get" | "tasks/update" | "tasks/cancel" => Some("taskId"),
        _ => None,
    }
}

/// The body value `Mcp-Name` mirrors.
fn name_source<'n>(method: &str, params: Option<&'n Node<'_>>) -> Option<&'n str> {
    params?.get(name_member(method)?)?.as_str()
}

/// -32020 unless the headers match the body of a 2026-07-28 request whose envelope names
/// `version` (its text), `mirrored` being the arguments the called tool mirrors into
/// `Mcp-Param-*` headers. Header values are compared exactly, without surrounding whitespace,
/// after the Base64 sentinel is decoded (Mcp-Name, Mcp-Param-*).
pub(super) fn mismatch(
    headers: &HttpHeaders,
    method: &str,
    params: Option<&Node<'_>>,
    version: &str,
    mirrored: &[HeaderParam],
) -> Option<RpcError> {
    let pairs = [
        (
            "MCP-Protocol-Version",
            headers.protocol_version.as_deref(),
            Some(version),
            "io.modelcontextprotocol/protocolVersion in params._meta",
        ),
        (
            "Mcp-Method",
            headers.method.as_deref(),
            Some(method),
            "method",
        ),
        (
            "Mcp-Name",
            headers.name.as_deref(),
            name_source(method, params),
            match name_member(method) {
                Some("uri") => "params.uri",
                Some("taskId") => "params.taskId",
                _ => "params.name",
            },
        ),
    ];
    for (header, value, body, member) in pairs {
        let Some(body) = body else { continue };
        let value = match value.map(|v| {
            if header == "Mcp-Name" {
                decoded(v)
            } else {
                Ok(v.trim().to_string())
            }
        }) {
            Some(Err(why)) => {
                return Some(header_mismatch(
                    header,
                    format!("the {header} header {why}"),
                ))
            }
            Some(Ok(v)) => Some(v),
            None => None,
        };
        let problem = match value.as_deref() {
            None => format!(
                "the {header} header is missing (the body's {member} is {})",
                quote(body)
            ),
            Some(value) if value != body => format!(
                "the {header} header {} does not match the body's {member} {}",
                quote(value),
                quote(body)
            ),
            Some(_) => continue,
        };
        return Some(header_mismatch(header, problem));
    }
    let arguments = params.and_then(|p| p.get("arguments"));
    for param in mirrored {
        let header = format!("Mcp-Param-{}", param.header);
        let sent = headers
            .params
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(param.header))
            .map(|(_, value)| decoded(value));
        let body = arguments
            .and_then(|a| a.get(param.argument))
            .and_then(header_text);
        let problem = match (sent, body) {
            (Some(Err(why)), _) => format!("the {header} header {why}"),
            (None, Some(body)) => format!(
                "the {header} header is missing (the argument {} is {})",
                param.argument,
                quote(&body)
            ),
            (Some(Ok(sent)), Some(body)) if sent != body => format!(
                "the {header} header {} does not match the argument {} {}",
                quote(&sent),
                param.argument,
                quote(&body)
            ),
            _ => continue,
        };
        return Some(header_mismatch(&header, problem));
    }
    None
}
