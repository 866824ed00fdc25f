//! SEP-2243: over Streamable HTTP a 2026-07-28 request mirrors its version, method and name into
//! headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`), and a server that reads the body
//! rejects a request whose headers are missing or say otherwise: `400 Bad Request` with -32020
//! HeaderMismatch. The handshake versions have no such rule (their requests are not checked).
//! <https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#server-validation>

use crate::json::{quote, Json, Node};

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
}

/// The body value `Mcp-Name` mirrors: `params.name` of `tools/call` and `prompts/get`,
/// `params.uri` of `resources/read`.
fn name_source<'n>(method: &str, params: Option<&'n Node<'_>>) -> Option<&'n str> {
    let key = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" => "uri",
        _ => return None,
    };
    params?.get(key)?.as_str()
}

/// -32020 unless the headers match the body of a 2026-07-28 request whose envelope names
/// `version` (its text). Header values are compared exactly, without surrounding whitespace.
pub(super) fn mismatch(
    headers: &HttpHeaders,
    method: &str,
    params: Option<&Node<'_>>,
    version: &str,
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
            if method == "resources/read" {
                "params.uri"
            } else {
                "params.name"
            },
        ),
    ];
    for (header, value, body, member) in pairs {
        let Some(body) = body else { continue };
        let problem = match value.map(str::trim) {
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
        return Some(RpcError {
            code: HEADER_MISMATCH,
            message: format!("Header mismatch: {problem}"),
            data: Some(Json::obj([("header", Json::from(header))])),
        });
    }
    None
}
