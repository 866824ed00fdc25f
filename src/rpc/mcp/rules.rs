//! The MCP profile's catalogue entries.

use crate::rpc::catalogue::Rule;

pub static RULES: &[&Rule] = &[];
