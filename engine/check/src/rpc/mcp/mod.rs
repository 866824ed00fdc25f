//! The MCP profile: JSON-RPC 2.0 as the Model Context Protocol uses it, per protocol version.

mod message;
pub mod methods;
mod params;
pub mod rounds;
mod row;
pub mod rules;
mod session;
mod table;

use std::fmt;
use std::str::FromStr;

use crate::json::{Direction, Node, Pointer, Stream};

use super::{Document, Kind, Sink};

pub use rounds::{Finding, Rounds};

/// A protocol version of MCP, named by its date.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum McpVersion {
    V2024_11_05,
    V2025_03_26,
    V2025_06_18,
    #[default]
    V2025_11_25,
    V2026_07_28,
}

impl McpVersion {
    pub const ALL: [McpVersion; 5] = [
        McpVersion::V2024_11_05,
        McpVersion::V2025_03_26,
        McpVersion::V2025_06_18,
        McpVersion::V2025_11_25,
        McpVersion::V2026_07_28,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            McpVersion::V2024_11_05 => "2024-11-05",
            McpVersion::V2025_03_26 => "2025-03-26",
            McpVersion::V2025_06_18 => "2025-06-18",
            McpVersion::V2025_11_25 => "2025-11-25",
            McpVersion::V2026_07_28 => "2026-07-28",
        }
    }

    /// The newest version.
    pub const LATEST: McpVersion = McpVersion::V2026_07_28;
}

impl fmt::Display for McpVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The text is not one of [`McpVersion::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVersion(pub String);

impl fmt::Display for UnknownVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<_> = McpVersion::ALL.iter().map(|v| v.as_str()).collect();
        write!(
            f,
            "unknown MCP protocol version {} (known: {})",
            crate::json::quote(&self.0),
            known.join(", ")
        )
    }
}

impl std::error::Error for UnknownVersion {}

impl FromStr for McpVersion {
    type Err = UnknownVersion;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        McpVersion::ALL
            .into_iter()
            .find(|v| v.as_str() == s)
            .ok_or_else(|| UnknownVersion(s.to_string()))
    }
}

/// One thing wrong with a method's params, for the validator and for the mock server's -32602 `data`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamProblem {
    /// JSON pointer relative to `params` ("" for params itself, "/clientInfo/name"). A missing
    /// member points at the object lacking it.
    pub path: String,
    pub message: String,
}

/// What is wrong with the params of `method` under `version`: empty when they are right or the
/// method is unknown. `params` is `None` when the member is absent.
pub fn param_problems(
    method: &str,
    params: Option<&Node<'_>>,
    version: McpVersion,
) -> Vec<ParamProblem> {
    params::problems(method, params, version)
        .into_iter()
        .map(|p| ParamProblem {
            path: p.path,
            message: p.message,
        })
        .collect()
}

/// Checks one object message (top level or batch element) after the JSON-RPC checks.
/// `kind` is what the JSON-RPC layer made of it (its intent when invalid).
pub(crate) fn check_message(
    node: &Node<'_>,
    path: &Pointer,
    kind: Kind,
    direction: Option<Direction>,
    version: McpVersion,
    sink: &mut Sink<'_>,
) {
    message::check(node, path, kind, direction, version, sink);
}

/// Checks a batch as a whole (MCP allows batching only in 2025-03-26, and never for `initialize`).
pub(crate) fn check_batch(
    node: &Node<'_>,
    _direction: Option<Direction>,
    version: McpVersion,
    sink: &mut Sink<'_>,
) {
    message::check_batch(node, version, sink);
}

/// Checks a transcript's order (the lifecycle: initialize first, then notifications/initialized)
/// and that no request id is used twice in the session.
pub(crate) fn check_transcript(
    stream: &Stream<'_>,
    documents: &mut [Document],
    version: McpVersion,
) {
    session::check(stream, documents, version);
}
