//! Which MCP versions are the 2026-07-28 era (the per-request envelope) and which the handshake
//! era: the facts every part of the mock asks about a version, below the version shaping
//! ([`super::version`]) that answers in them.

use crate::rpc::McpVersion;

/// Versions that use the per-request envelope instead of `initialize`.
pub(super) const MODERN: [McpVersion; 1] = [McpVersion::V2026_07_28];

pub(super) fn is_modern(v: McpVersion) -> bool {
    MODERN.contains(&v)
}

pub(super) fn is_handshake(v: McpVersion) -> bool {
    !is_modern(v)
}
