//! The protocol versions (revisions) of MCP, named by their dates: what the rule catalogue, the
//! MCP checks and the profiles all name, so it sits below each of them.

use std::fmt;
use std::str::FromStr;

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
