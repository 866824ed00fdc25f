//! The rule catalogue: every [`Rule`], one per requirement. The same entry drives the validator
//! (rule id, severity), the reference page (section, explanation) and the quiz (the two examples).
//! The entries themselves live beside the checks that raise them: [`super::rules`] for JSON-RPC 2.0,
//! [`super::mcp::rules`] for the MCP profile, [`super::openrpc`] for OpenRPC; their shape is
//! [`super::rule`] (below all of them, so no entry module needs this one).

pub use super::rule::{Rule, Scope, Section, Severity};

/// Every rule of a message on its own, JSON-RPC's first, then MCP's (what the reference page and
/// the quiz show: each example is checked without a document). The OpenRPC rules are [`openrpc`].
pub fn all() -> impl Iterator<Item = &'static Rule> {
    super::rules::RULES
        .iter()
        .copied()
        .chain(super::mcp::rules::RULES.iter().copied())
}

/// The rules that need an OpenRPC document (its own rules, and those of messages under it).
pub fn openrpc() -> impl Iterator<Item = &'static Rule> {
    super::openrpc::RULES.iter().copied()
}

/// The rule with this id. (A plain loop: at opt-level 3 the iterator version is unrolled into
/// ~5 KB of wasm for a lookup that is never hot: docs/size-rules.md, 7.)
pub fn find(id: &str) -> Option<&'static Rule> {
    for rules in [
        super::rules::RULES,
        super::mcp::rules::RULES,
        super::openrpc::RULES,
    ] {
        for &rule in rules {
            if rule.id.as_bytes() == id.as_bytes() {
                return Some(rule);
            }
        }
    }
    None
}
