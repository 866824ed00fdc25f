//! The MCP method table: for every request and notification of every protocol version, who sends
//! it, what its `params` must hold and what its result holds (required members and their JSON
//! types, a few levels deep).
//!
//! The rows live in [`super::table`], generated from the published schemas by
//! `MCP_TABLE_UPDATE=1 cargo test --test mcp_schema`; the same test checks them against the schemas
//! on every run, so a row that disagrees with its schema fails CI. Nothing is read at run time.

pub use super::row::*;
use super::McpVersion;

pub use super::table::METHODS;

/// The row of `name` in `version`.
pub fn lookup(name: &str, version: McpVersion) -> Option<&'static Method> {
    METHODS
        .iter()
        .find(|m| m.name == name && m.versions & bit(version) != 0)
}

/// Every version in which `name` exists.
pub fn versions_having(name: &str) -> Versions {
    METHODS
        .iter()
        .filter(|m| m.name == name)
        .fold(0, |set, m| set | m.versions)
}
