//! The MCP profile: JSON-RPC 2.0 as the Model Context Protocol uses it, per protocol version.

mod message;
pub mod methods;
mod params;
pub mod rounds;
mod row;
pub mod rules;
mod session;
mod table;

use crate::json::{Direction, Node, Pointer, Stream};

use super::{Document, Kind, Sink};

pub use super::mcp_version::{McpVersion, UnknownVersion};
pub use rounds::{Finding, Rounds};

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
