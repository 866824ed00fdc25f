//! The mock's version shaping: which MCP era a request is answered in (the handshake versions, or
//! 2026-07-28's per-request envelope) and what 2026-07-28 adds to every result.

use crate::json::{Json, Node};
use crate::rpc::McpVersion;

use super::super::ask::ClientCapabilities;
pub(super) use super::era::{is_handshake, is_modern, MODERN};
use super::headers;
use super::lifecycle::server_info;
use super::logging::LOG_LEVELS;
use super::notes::NOTES_URI;
use super::{MockServer, RpcError};

/// Every version the mock speaks, oldest first.
pub const SUPPORTED_VERSIONS: [McpVersion; 5] = McpVersion::ALL;

/// The newest version reachable through `initialize`.
pub(super) const LATEST_HANDSHAKE: McpVersion = McpVersion::V2025_11_25;

pub(super) const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

pub(super) const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

pub(super) const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";

pub(super) const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";

/// MCP 2026-07-28's "Unsupported protocol version".
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// How long (ms) 2026-era clients may cache list results: the mock's lists never change.
pub(super) const TTL_MS: u64 = 3_600_000;

/// The version one request is answered in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Era {
    pub(super) version: McpVersion,
    /// The request carried the 2026-07-28 envelope (or is `server/discover`).
    pub(super) modern: bool,
}

/// What a 2026-07-28 request says about its client in `_meta` (each request on its own: there is
/// no session to remember it). The default is a handshake-era request's: nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(in crate::mock) struct RequestMeta {
    /// The request is a 2026-07-28 one (its envelope, its `MCP-Protocol-Version` header, or
    /// `server/discover` say so).
    pub(in crate::mock) modern: bool,
    /// `io.modelcontextprotocol/logLevel` (an index into MCP's levels): without it the server
    /// sends no `notifications/message` for the request.
    pub(in crate::mock) log_level: Option<usize>,
    /// `io.modelcontextprotocol/clientCapabilities`.
    pub(in crate::mock) client_can: ClientCapabilities,
}

impl RequestMeta {
    /// A 2026-07-28 request's, read from its `params._meta`.
    pub(super) fn of(params: Option<&Node<'_>>) -> Self {
        let meta = params.and_then(|p| p.get("_meta"));
        let log_level = meta
            .and_then(|m| m.get(META_LOG_LEVEL))
            .and_then(Node::as_str)
            .and_then(|l| LOG_LEVELS.iter().position(|known| *known == l));
        RequestMeta {
            modern: true,
            log_level,
            client_can: ClientCapabilities::of(meta.and_then(|m| m.get(META_CLIENT_CAPABILITIES))),
        }
    }
}

/// The era `method` is answered in. `Err`: the request is refused before its method runs, with
/// HTTP 400 — its envelope names a version we do not speak (-32022), or its HTTP headers do not
/// match its body (-32020, SEP-2243).
pub(super) fn era(
    server: &MockServer,
    method: &str,
    params: Option<&Node<'_>>,
) -> Result<Era, RpcError> {
    let header_version = server
        .http
        .as_ref()
        .and_then(|h| h.protocol_version.as_deref())
        .map(str::trim);
    let header_modern = header_version
        .and_then(|v| v.parse::<McpVersion>().ok())
        .is_some_and(is_modern);
    match envelope(params) {
        Some(requested) => {
            let text = match &requested {
                Ok(version) => version.as_str().to_string(),
                Err(text) => text.clone(),
            };
            if let Some(error) = server.http.as_ref().and_then(|h| {
                headers::mismatch(h, method, params, &text, &mirrored(server, method, params))
            }) {
                return Err(error);
            }
            match requested {
                Ok(version) => Ok(Era {
                    version,
                    modern: true,
                }),
                Err(text) => Err(unsupported_version(text)),
            }
        }
        // A 2026-07-28 request without its envelope: answered as one, so its params' problems
        // say what is missing (-32602).
        None if method == "server/discover" || header_modern => Ok(Era {
            version: MODERN[0],
            modern: true,
        }),
        None if method == "initialize" => Ok(Era {
            version: requested_handshake(params),
            modern: false,
        }),
        None => Ok(Era {
            version: server.negotiated.unwrap_or(LATEST_HANDSHAKE),
            modern: false,
        }),
    }
}

/// The arguments of the tool a `tools/call` names that its schema mirrors into headers.
fn mirrored(
    server: &MockServer,
    method: &str,
    params: Option<&Node<'_>>,
) -> Vec<super::super::params::HeaderParam> {
    let tool = params.and_then(|p| p.get("name")).and_then(Node::as_str);
    match (method, tool) {
        ("tools/call", Some(tool)) => super::header_params(server, tool).to_vec(),
        _ => Vec::new(),
    }
}

/// Whether `params._meta` holds what every 2026-07-28 request must: the protocol version (a
/// string) and the client's capabilities (an object).
pub(super) fn envelope_complete(params: Option<&Node<'_>>) -> bool {
    let meta = params.and_then(|p| p.get("_meta"));
    let version = meta.and_then(|m| m.get(META_PROTOCOL_VERSION));
    let capabilities = meta.and_then(|m| m.get(META_CLIENT_CAPABILITIES));
    version.is_some_and(|v| v.as_str().is_some()) && capabilities.is_some_and(Node::is_object)
}

/// A request carrying the 2026-07-28 envelope (`_meta` naming a version without initialize).
pub(in crate::mock) fn in_modern_envelope(message: &Node<'_>) -> bool {
    matches!(envelope(message.get("params")), Some(Ok(_)))
}

/// The 2026-07-28 envelope's version: `None` without one, `Err(requested)` when we do not speak it.
pub(super) fn envelope(params: Option<&Node<'_>>) -> Option<Result<McpVersion, String>> {
    let node = params?.get("_meta")?.get(META_PROTOCOL_VERSION)?;
    Some(match node.as_str() {
        Some(text) => text
            .parse()
            .ok()
            .filter(|v| is_modern(*v))
            .ok_or_else(|| text.to_string()),
        None => Err(Json::from_node(node).compact()),
    })
}

/// -32022 with the versions the envelope reaches (what `server/discover` lists as
/// `supportedVersions`; the handshake versions are reached through `initialize` instead).
pub(super) fn unsupported_version(requested: String) -> RpcError {
    let supported = MODERN.iter().map(|v| Json::from(v.as_str()));
    RpcError {
        code: UNSUPPORTED_PROTOCOL_VERSION,
        message: "Unsupported protocol version".into(),
        data: Some(Json::obj([
            ("supported", Json::arr(supported)),
            ("requested", Json::from(requested)),
        ])),
    }
}

/// The handshake version `initialize` settles on: the client's, when we speak it, else our latest.
pub(super) fn requested_handshake(params: Option<&Node<'_>>) -> McpVersion {
    params
        .and_then(|p| p.get("protocolVersion"))
        .and_then(Node::as_str)
        .and_then(|s| s.parse().ok())
        .filter(|v| is_handshake(*v))
        .unwrap_or(LATEST_HANDSHAKE)
}

/// Adds what 2026-07-28 requires of a result: `resultType` first, `ttlMs` and `cacheScope` on
/// cacheable results, and the `serverInfo` stamp in `_meta`.
pub(super) fn modern_shape(method: &str, result: Json) -> Json {
    let Json::Object(members) = result else {
        return result;
    };
    let mut out = Json::obj([("resultType", Json::from("complete"))]);
    for (key, value) in members {
        out.set(&key, value);
    }
    let cacheable = matches!(
        method,
        "server/discover"
            | "tools/list"
            | "resources/list"
            | "resources/templates/list"
            | "resources/read"
            | "prompts/list"
    );
    if cacheable {
        // The notes change (add_note): a read of them is stale at once, and one session's.
        let first_uri = out
            .get("contents")
            .and_then(|c| match c {
                Json::Array(items) => items.first(),
                _ => None,
            })
            .and_then(|c| c.get("uri"));
        let (ttl, scope) = if first_uri == Some(&Json::from(NOTES_URI)) {
            (0, "private")
        } else {
            (TTL_MS, "public")
        };
        out.set("ttlMs", Json::from(ttl));
        out.set("cacheScope", Json::from(scope));
    }
    out.set(
        "_meta",
        Json::obj([(META_SERVER_INFO, server_info(MODERN[0]))]),
    );
    out
}
