//! The rule catalogue's shape: one [`Rule`] per requirement. The same entry drives the validator
//! (rule id, severity), the reference page (section, explanation) and the quiz (the two examples).
//! The entries themselves live beside the checks that raise them: [`super::rules`] for JSON-RPC 2.0,
//! [`super::mcp::rules`] for the MCP profile.

/// How bad a violation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Interop hazards and SHOULD / SHOULD NOT.
    Warning,
    /// MUST, MUST NOT, REQUIRED.
    Error,
}

impl Severity {
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }

    /// The specification's word for it, as taught: an error breaks a MUST, a warning a SHOULD.
    pub const fn keyword(self) -> &'static str {
        match self {
            Severity::Error => "MUST",
            Severity::Warning => "SHOULD",
        }
    }

    /// The title of a rule's broken example: an error's breaks the rule (the message is
    /// invalid), a warning's is valid but discouraged.
    pub const fn bad_title(self) -> &'static str {
        match self {
            Severity::Error => "Breaks it",
            Severity::Warning => "Discouraged (valid, but)",
        }
    }
}

/// Where a rule comes from: a section of a specification, with a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Section {
    /// "JSON-RPC 2.0 §5.1", "RFC 8259 §4", "MCP 2025-11-25 lifecycle".
    pub name: &'static str,
    pub title: &'static str,
    pub url: &'static str,
}

/// Which profile checks a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every profile (JSON itself and JSON-RPC 2.0).
    JsonRpc,
    /// Only `--profile mcp`.
    Mcp,
    /// Only under an OpenRPC document (`jrpc check --openrpc DOC`): the API's own rules.
    OpenRpc,
}

/// One catalogue entry.
#[derive(Debug)]
pub struct Rule {
    /// Stable kebab-case id: scripts and links rely on it; never rename.
    pub id: &'static str,
    pub severity: Severity,
    pub scope: Scope,
    pub section: Section,
    /// The requirement in one line, in our words.
    pub summary: &'static str,
    /// Why it matters and how to fix it, in our words.
    pub explanation: &'static str,
    /// A minimal input that breaks this rule and no other.
    pub bad: &'static str,
    /// The same input fixed: it breaks no rule.
    pub good: &'static str,
    /// The MCP version the examples are checked under (MCP rules only; `None`: the default version).
    pub example_version: Option<super::McpVersion>,
    /// OpenRPC rules only: the document the examples are checked under. Empty for the rules about
    /// a document itself, whose `bad` and `good` are documents.
    pub example_document: &'static str,
}

impl PartialEq for Rule {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}
impl Eq for Rule {}

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
/// ~5 KB of wasm for a lookup that is never hot.)
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

/// Declares one catalogue entry as a `pub static`:
/// `rule!(Scope, NAME, "id", Severity, SECTION, "summary", "explanation", bad: "...", good: "..." [, version: V | , document: D]);`
macro_rules! rule {
    ($scope:ident, $name:ident, $id:literal, $sev:ident, $section:expr, $summary:literal, $explanation:literal, bad: $bad:expr, good: $good:expr) => {
        $crate::rpc::catalogue::rule!(@entry $scope, $name, $id, $sev, $section, $summary, $explanation, $bad, $good, None, "");
    };
    ($scope:ident, $name:ident, $id:literal, $sev:ident, $section:expr, $summary:literal, $explanation:literal, bad: $bad:expr, good: $good:expr, version: $version:expr) => {
        $crate::rpc::catalogue::rule!(@entry $scope, $name, $id, $sev, $section, $summary, $explanation, $bad, $good, $version, "");
    };
    ($scope:ident, $name:ident, $id:literal, $sev:ident, $section:expr, $summary:literal, $explanation:literal, bad: $bad:expr, good: $good:expr, document: $document:expr) => {
        $crate::rpc::catalogue::rule!(@entry $scope, $name, $id, $sev, $section, $summary, $explanation, $bad, $good, None, $document);
    };
    (@entry $scope:ident, $name:ident, $id:literal, $sev:ident, $section:expr, $summary:literal, $explanation:literal, $bad:expr, $good:expr, $version:expr, $document:expr) => {
        pub static $name: $crate::rpc::catalogue::Rule = $crate::rpc::catalogue::Rule {
            id: $id,
            severity: $crate::rpc::catalogue::Severity::$sev,
            scope: $crate::rpc::catalogue::Scope::$scope,
            section: $section,
            summary: $summary,
            explanation: $explanation,
            bad: $bad,
            good: $good,
            example_version: $version,
            example_document: $document,
        };
    };
}
pub(crate) use rule;
