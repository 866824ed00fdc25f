//! The shape of one catalogue entry ([`Rule`]: id, severity, scope, section, explanation and two
//! examples) and the `rule!` macro that declares one. The lowest level of the catalogue: the
//! entries ([`super::rules`], [`super::mcp::rules`], [`super::openrpc`]) and the checks that raise
//! them depend on it, and it on none of them; [`super::catalogue`] lists the entries.

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

/// One catalogue entry. Its teaching text (summary, explanation, examples, example document) is in the
/// native build only: the page's wasm leaves it out and fetches it as data on the first open of a
/// teaching view (jsonrpc-engine's `teach::text`, generated from these entries and checked by a
/// test; docs/size-rules.md).
#[derive(Debug)]
pub struct Rule {
    /// Stable kebab-case id: scripts and links rely on it; never rename.
    pub id: &'static str,
    pub severity: Severity,
    pub scope: Scope,
    pub section: Section,
    /// The requirement in one line, in our words (native only, like the teaching text: the page
    /// reads it from the teaching file: jsonrpc-engine's `teach::text::Teaching::summary`).
    #[cfg(not(target_arch = "wasm32"))]
    pub summary: &'static str,
    /// Why it matters and how to fix it, in our words.
    #[cfg(not(target_arch = "wasm32"))]
    pub explanation: &'static str,
    /// A minimal input that breaks this rule and no other.
    #[cfg(not(target_arch = "wasm32"))]
    pub bad: &'static str,
    /// The same input fixed: it breaks no rule.
    #[cfg(not(target_arch = "wasm32"))]
    pub good: &'static str,
    /// The MCP version the examples are checked under (MCP rules only; `None`: the default version).
    pub example_version: Option<super::mcp_version::McpVersion>,
    /// OpenRPC rules only: the document the examples are checked under. Empty for the rules about
    /// a document itself, whose `bad` and `good` are documents.
    #[cfg(not(target_arch = "wasm32"))]
    pub example_document: &'static str,
}

impl PartialEq for Rule {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}
impl Eq for Rule {}

/// Declares one catalogue entry as a `pub static`:
/// `rule!(Scope, NAME, "id", Severity, SECTION, "summary", "explanation", bad: "...", good: "..." [, version: V | , document: D]);`
macro_rules! rule {
    ($scope:ident, $name:ident, $id:literal, $sev:ident, $section:expr, $summary:literal, $explanation:literal, bad: $bad:expr, good: $good:expr) => {
        $crate::rpc::rule::rule!(@entry $scope, $name, $id, $sev, $section, $summary, $explanation, $bad, $good, None, "");
    };
    ($scope:ident, $name:ident, $id:literal, $sev:ident, $section:expr, $summary:literal, $explanation:literal, bad: $bad:expr, good: $good:expr, version: $version:expr) => {
        $crate::rpc::rule::rule!(@entry $scope, $name, $id, $sev, $section, $summary, $explanation, $bad, $good, $version, "");
    };
    ($scope:ident, $name:ident, $id:literal, $sev:ident, $section:expr, $summary:literal, $explanation:literal, bad: $bad:expr, good: $good:expr, document: $document:expr) => {
        $crate::rpc::rule::rule!(@entry $scope, $name, $id, $sev, $section, $summary, $explanation, $bad, $good, None, $document);
    };
    (@entry $scope:ident, $name:ident, $id:literal, $sev:ident, $section:expr, $summary:literal, $explanation:literal, $bad:expr, $good:expr, $version:expr, $document:expr) => {
        pub static $name: $crate::rpc::rule::Rule = $crate::rpc::rule::Rule {
            id: $id,
            severity: $crate::rpc::rule::Severity::$sev,
            scope: $crate::rpc::rule::Scope::$scope,
            section: $section,
            #[cfg(not(target_arch = "wasm32"))]
            summary: $summary,
            #[cfg(not(target_arch = "wasm32"))]
            explanation: $explanation,
            #[cfg(not(target_arch = "wasm32"))]
            bad: $bad,
            #[cfg(not(target_arch = "wasm32"))]
            good: $good,
            example_version: $version,
            #[cfg(not(target_arch = "wasm32"))]
            example_document: $document,
        };
    };
}
pub(crate) use rule;
