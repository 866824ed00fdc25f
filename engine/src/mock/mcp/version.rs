//! The mock's version shaping: which MCP era a request is answered in (the handshake versions, or
//! 2026-07-28's per-request envelope) and what 2026-07-28 adds to every result.

use crate::json::{Json, Node};
use crate::rpc::McpVersion;

use super::lifecycle::server_info;
use super::notes::NOTES_URI;
use super::RpcError;

/// Every version the mock speaks, oldest first.
pub const SUPPORTED_VERSIONS: [McpVersion; 5] = McpVersion::ALL;

/// The newest version reachable through `initialize`.
pub(super) const LATEST_HANDSHAKE: McpVersion = McpVersion::V2025_11_25;

/// Versions that use the per-request envelope instead of `initialize`.
pub(super) const MODERN: [McpVersion; 1] = [McpVersion::V2026_07_28];

pub(super) const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

pub(super) const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// MCP 2026-07-28's "Unsupported protocol version".
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// How long (ms) 2026-era clients may cache list results: the mock's lists never change.
pub(super) const TTL_MS: u64 = 3_600_000;

pub(super) fn is_modern(v: McpVersion) -> bool {
    MODERN.contains(&v)
}

pub(super) fn is_handshake(v: McpVersion) -> bool {
    !is_modern(v)
}

/// The version one request is answered in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Era {
    pub(super) version: McpVersion,
    /// The request carried the 2026-07-28 envelope (or is `server/discover`).
    pub(super) modern: bool,
}

/// The 2026-07-28 envelope's version: `None` without one, `Err(requested)` when we do not speak it.
/// A request carrying the 2026-07-28 envelope (`_meta` naming a version without initialize).
pub(in crate::mock) fn in_modern_envelope(message: &Node<'_>) -> bool {
    matches!(envelope(message.get("params")), Some(Ok(_)))
}

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

/// -32022 with the versions we support, newest first (as MCP's own example lists them).
pub(super) fn unsupported_version(requested: String) -> RpcError {
    let supported = SUPPORTED_VERSIONS
        .iter()
        .rev()
        .map(|v| Json::from(v.as_str()));
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
