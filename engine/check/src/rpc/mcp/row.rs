//! The shape of a row of the MCP method table ([`super::table`], generated): JSON types and
//! version sets as bit sets, who sends a method, its params' and result's members. The lookups
//! over the rows are [`super::methods`]'.

use super::McpVersion;

/// JSON types a member may have, as a bit set (`0`: any type, not checked).
pub type Types = u8;
pub const STRING: Types = 1;
/// Any number (integers included).
pub const NUMBER: Types = 2;
/// A number without a fractional part.
pub const INTEGER: Types = 4;
pub const BOOLEAN: Types = 8;
pub const OBJECT: Types = 16;
pub const ARRAY: Types = 32;
pub const NULL: Types = 64;
pub const ANY: Types = 0;

/// The versions a row holds for, as a bit set.
pub type Versions = u8;
pub const IN_2024_11_05: Versions = 1;
pub const IN_2025_03_26: Versions = 2;
pub const IN_2025_06_18: Versions = 4;
pub const IN_2025_11_25: Versions = 8;
pub const IN_2026_07_28: Versions = 16;

/// The bit of one version.
pub const fn bit(version: McpVersion) -> Versions {
    match version {
        McpVersion::V2024_11_05 => IN_2024_11_05,
        McpVersion::V2025_03_26 => IN_2025_03_26,
        McpVersion::V2025_06_18 => IN_2025_06_18,
        McpVersion::V2025_11_25 => IN_2025_11_25,
        McpVersion::V2026_07_28 => IN_2026_07_28,
    }
}

/// The versions of a bit set, oldest first.
pub fn versions_of(set: Versions) -> impl Iterator<Item = McpVersion> {
    McpVersion::ALL
        .into_iter()
        .filter(move |v| set & bit(*v) != 0)
}

/// Whether a method expects a response.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Call {
    Request,
    Notification,
}

/// Who may send a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sender {
    Client,
    Server,
    Both,
}

impl Sender {
    pub const fn as_str(self) -> &'static str {
        match self {
            Sender::Client => "the client",
            Sender::Server => "the server",
            Sender::Both => "either side",
        }
    }
}

/// One member of `params`, or of a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Param {
    /// JSON pointer relative to `params` (or the result), without the leading slash: `name`,
    /// `clientInfo/version`, `tools/*/name` (`*`: each item of the array),
    /// `_meta/io.modelcontextprotocol~1protocolVersion`. Parents come before their members.
    pub path: &'static str,
    /// Required whenever its parent is present.
    pub required: bool,
    pub types: Types,
}

/// One method in the versions of `versions` (a method whose shape changed has one row per shape).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Method {
    pub name: &'static str,
    pub call: Call,
    pub from: Sender,
    pub versions: Versions,
    /// `params` itself is required.
    pub params_required: bool,
    pub params: &'static [Param],
    /// Members of a successful result (requests only), as `params` (required ones, typed ones a
    /// few levels deep), with `*` for each item of an array: `tools/*/name`.
    pub result: &'static [Param],
}

/// A required member.
pub const fn req(path: &'static str, types: Types) -> Param {
    Param {
        path,
        required: true,
        types,
    }
}

/// An optional member with a fixed type.
pub const fn opt(path: &'static str, types: Types) -> Param {
    Param {
        path,
        required: false,
        types,
    }
}

/// The members' types in words: "a string", "an object or null".
pub fn types_name(types: Types) -> String {
    let names: Vec<&str> = [
        (STRING, "a string"),
        (INTEGER, "an integer"),
        (NUMBER, "a number"),
        (BOOLEAN, "a boolean"),
        (OBJECT, "an object"),
        (ARRAY, "an array"),
        (NULL, "null"),
    ]
    .into_iter()
    .filter(|(t, _)| types & t != 0)
    .map(|(_, n)| n)
    .collect();
    match names.as_slice() {
        [] => "any value".to_string(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}
