//! JSON-RPC 2.0 (and the MCP profile on top): classify each document and name every violation.
//!
//! Two layers, as the style guide asks: the span tree of [`crate::json`] describes whatever was
//! typed, broken or not; this module describes it in protocol terms ([`Document`], [`Violation`]).
//! Diagnostics are data: the CLI and the UI render them, neither decides what is wrong.

pub mod catalogue;
mod classify;
pub mod errors;
pub mod mcp;
mod mcp_version;
pub mod openrpc;
#[cfg(any(not(target_arch = "wasm32"), feature = "report-json"))]
pub mod report;
pub mod rule;
pub mod rules;
mod text;
mod transcript;

#[cfg(any(not(target_arch = "wasm32"), feature = "report-json"))]
use crate::json::LineIndex;
use crate::json::{split_stream, split_text, Direction, Pointer, Span, Stream};
pub use mcp_version::McpVersion;
pub use rule::{Rule, Scope, Section, Severity};
pub use text::Text;

/// What a document (or a batch element) is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Request,
    Notification,
    Response,
    Invalid,
    Batch,
    ParseError,
}

impl Kind {
    /// The kind [`Kind::as_str`] names `name`, if any.
    pub fn parse(name: &str) -> Option<Kind> {
        [
            Kind::Request,
            Kind::Notification,
            Kind::Response,
            Kind::Invalid,
            Kind::Batch,
            Kind::ParseError,
        ]
        .into_iter()
        .find(|k| k.as_str() == name)
    }

    pub const fn as_str(self) -> &'static str {
        match self {
            Kind::Request => "request",
            Kind::Notification => "notification",
            Kind::Response => "response",
            Kind::Invalid => "invalid",
            Kind::Batch => "batch",
            Kind::ParseError => "parse-error",
        }
    }
}

/// Which rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Profile {
    /// Plain JSON-RPC 2.0.
    #[default]
    JsonRpc,
    /// JSON-RPC 2.0 as the Model Context Protocol of this version uses it.
    Mcp(McpVersion),
}

/// The profile in words, as a learner reads it: `JSON-RPC 2.0`, `MCP 2025-11-25`.
impl std::fmt::Display for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Profile::JsonRpc => f.write_str("JSON-RPC 2.0"),
            Profile::Mcp(v) => write!(f, "MCP {v}"),
        }
    }
}

impl Profile {
    pub const fn mcp_version(self) -> Option<McpVersion> {
        match self {
            Profile::JsonRpc => None,
            Profile::Mcp(v) => Some(v),
        }
    }
}

/// One broken rule at one place.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    pub rule: &'static Rule,
    /// The rule's severity, unless the profile makes it stricter.
    pub severity: Severity,
    /// RFC 6901 pointer from the document root (a missing member points at the object lacking it).
    pub path: Text,
    pub span: Span,
    pub message: Text,
    /// Other places that explain this one (e.g. the first of two duplicate members).
    pub related: Vec<(Span, String)>,
    /// Findings under an OpenRPC document: where in the document the method and the failing
    /// schema are (the document is another text, so these are not spans of this input).
    pub place: Option<Box<DocumentPlace>>,
}

impl Violation {
    /// A violation of `rule` at `path` and `span`, with the rule's severity and nothing related.
    pub fn new(
        rule: &'static Rule,
        path: impl Into<Text>,
        span: Span,
        message: impl Into<Text>,
    ) -> Self {
        Violation {
            rule,
            severity: rule.severity,
            path: path.into(),
            span,
            message: message.into(),
            related: Vec::new(),
            place: None,
        }
    }

    /// The section of the specification the finding cites: its place's, else its rule's.
    pub fn section(&self) -> Section {
        self.place
            .as_deref()
            .and_then(|p| p.section)
            .unwrap_or(self.rule.section)
    }
}

/// Where a finding's method and failing schema are in the OpenRPC document it was checked under.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DocumentPlace {
    pub method: Option<DocumentSpot>,
    pub schema: Option<DocumentSpot>,
    /// The section of the specification about the object the finding is in, when it is not the
    /// rule's own (a meta-schema finding in a Method Object cites the Method Object).
    pub section: Option<Section>,
}

/// A place in an OpenRPC document: its JSON pointer and 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentSpot {
    pub pointer: String,
    pub line: usize,
    pub column: usize,
}

/// One document of the input, or one element of a batch.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    pub kind: Kind,
    pub span: Span,
    /// Set in transcripts (`-->` client, `<--` server).
    pub direction: Option<Direction>,
    pub violations: Vec<Violation>,
    /// Batch elements (batches only), each classified; their paths start at the batch root.
    pub items: Vec<Document>,
    /// What an invalid document was trying to be (request, notification or response), if that is clear.
    pub intent: Option<Kind>,
    /// The method, when it is a string.
    pub method: Option<Text>,
    /// The id's exact source text (`1`, `"a"`, `null`), when the member is present.
    pub id: Option<Text>,
    /// The error code of an error response, when it is an integer.
    pub error_code: Option<i64>,
}

impl Document {
    /// Gives back the spare capacity of its lists (a 10 MB stream holds 100 000+ documents, and
    /// a vector grown by one push keeps room for four).
    fn shrink(&mut self) {
        self.violations.shrink_to_fit();
        self.items.shrink_to_fit();
        for item in &mut self.items {
            item.shrink();
        }
    }

    pub(crate) fn new(kind: Kind, span: Span) -> Self {
        Document {
            kind,
            span,
            direction: None,
            violations: Vec::new(),
            items: Vec::new(),
            intent: None,
            method: None,
            id: None,
            error_code: None,
        }
    }

    /// True when this document or any of its items breaks a MUST.
    pub fn has_errors(&self) -> bool {
        self.violations
            .iter()
            .any(|v| v.severity == Severity::Error)
            || self.items.iter().any(Document::has_errors)
    }

    /// Every violation of this document and its items.
    pub fn all_violations(&self) -> impl Iterator<Item = &Violation> {
        self.violations
            .iter()
            .chain(self.items.iter().flat_map(|i| i.violations.iter()))
    }

    /// This response (a message, not a batch) answers a request whose id was null. §5: the
    /// response's id "MUST be the same as the value of the id member in the Request Object", so a
    /// result with id null is right here, and `response-null-id-with-result` (which holds for a
    /// response on its own, where id null means the request could not be read) is taken back; with
    /// nothing else broken the document is a response again. Returns whether anything changed.
    /// Transcripts call it when they pair such a reply, and so does the exchange log.
    pub fn answers_null_id_request(&mut self) -> bool {
        let before = self.violations.len();
        self.violations
            .retain(|v| v.rule.id != rules::RESPONSE_NULL_ID_WITH_RESULT.id);
        if self.violations.len() == before {
            return false;
        }
        let broken = self
            .violations
            .iter()
            .any(|v| v.severity == Severity::Error);
        if self.kind == Kind::Invalid && self.intent == Some(Kind::Response) && !broken {
            self.kind = Kind::Response;
            self.intent = None;
        }
        true
    }
}

/// The verdict on a whole input.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub documents: Vec<Document>,
    /// The input used `-->` / `<--` markers.
    pub transcript: bool,
    pub profile: Profile,
}

impl Report {
    pub fn has_errors(&self) -> bool {
        self.documents.iter().any(Document::has_errors)
    }
    pub fn violations(&self) -> impl Iterator<Item = &Violation> {
        self.documents.iter().flat_map(Document::all_violations)
    }
    #[cfg(any(not(target_arch = "wasm32"), feature = "report-json"))]
    /// The report as the `jrpc check --format json` contract: a `serde::Serialize` view that
    /// borrows the report (spans get line and column from `src`); `serde_json::to_writer` streams it.
    pub fn json<'a>(&'a self, src: &'a [u8], lines: &'a LineIndex) -> report::ReportJson<'a> {
        report::ReportJson::new(report::Source { src, lines }, self)
    }
    #[cfg(any(not(target_arch = "wasm32"), feature = "report-json"))]
    /// The report as a `serde_json::Value` (for tests and tools that edit it).
    pub fn to_json(&self, src: &[u8], lines: &LineIndex) -> serde_json::Value {
        serde_json::to_value(self.json(src, lines)).unwrap_or_default()
    }
    #[cfg(any(not(target_arch = "wasm32"), feature = "report-json"))]
    /// The report written to `out` (what `jrpc check --format json` prints for one input).
    pub fn write_json(
        &self,
        src: &[u8],
        lines: &LineIndex,
        out: &mut impl std::io::Write,
    ) -> std::io::Result<()> {
        serde_json::to_writer(out, &self.json(src, lines)).map_err(std::io::Error::from)
    }
    #[cfg(any(not(target_arch = "wasm32"), feature = "report-json"))]
    /// One document of a report as its JSON view, with a `"file"` member last when `file` is given
    /// (the CLI's report of several inputs).
    pub fn document_json<'a>(
        doc: &'a Document,
        src: &'a [u8],
        lines: &'a LineIndex,
        file: Option<&'a str>,
    ) -> report::DocumentJson<'a> {
        report::DocumentJson::new(report::Source { src, lines }, doc, file)
    }
}

/// Checks every document of `src` (one message, a stream, or a transcript) under `profile`.
pub fn check(src: &[u8], profile: Profile) -> Report {
    check_stream(src, split_stream(src), profile)
}

/// [`check`] of text already known to be UTF-8 (it is not validated again: the page's editor
/// text arrives from JavaScript as a `String`).
pub fn check_text(text: &str, profile: Profile) -> Report {
    check_stream(text.as_bytes(), split_text(text), profile)
}

fn check_stream(src: &[u8], stream: Stream<'_>, profile: Profile) -> Report {
    // Where each message's violations are collected before they move to it in one allocation.
    let mut found = Vec::new();
    let mut documents: Vec<Document> = stream
        .segments
        .iter()
        .map(|segment| {
            let mut doc = classify::segment(segment, src, profile, &mut found);
            doc.direction = segment.direction;
            doc.shrink();
            doc
        })
        .collect();
    if stream.segments.is_empty() {
        documents.push(no_value(src));
    }
    if stream.transcript {
        transcript::check(&stream, &mut documents, profile);
    }
    Report {
        documents,
        transcript: stream.transcript,
        profile,
    }
}

/// An input holding no JSON value at all (empty, only whitespace, only markers and comments): a JSON
/// text is exactly one value (RFC 8259 §2), so a server reading it answers -32700. One parse-error
/// document, located at the end of the input.
fn no_value(src: &[u8]) -> Document {
    let end = Span::new(src.len(), src.len());
    let found = if src.is_empty() {
        "the input is empty"
    } else {
        "the input holds no value, only whitespace"
    };
    let mut doc = Document::new(Kind::ParseError, end);
    Sink { out: &mut doc.violations }.push(
        &rules::JSON_SYNTAX,
        Pointer::root(),
        end,
        format!("expected a JSON value (object, array, string, number, true, false or null), found the end of the input ({found})"),
    );
    doc
}

/// Collects violations while one document is checked.
pub(crate) struct Sink<'v> {
    pub out: &'v mut Vec<Violation>,
}

impl Sink<'_> {
    /// `message` is a constant (`&'static str`, never copied) or a built `String`.
    pub fn push(
        &mut self,
        rule: &'static Rule,
        path: impl IntoPath,
        span: Span,
        message: impl Into<Text>,
    ) {
        self.push_full(rule, path.into_path(), span, message, Vec::new());
    }

    pub fn push_full(
        &mut self,
        rule: &'static Rule,
        path: impl Into<Text>,
        span: Span,
        message: impl Into<Text>,
        related: Vec<(Span, String)>,
    ) {
        self.out.push(Violation {
            related,
            ..Violation::new(rule, path, span, message)
        });
    }
}

/// A violation's path: a pointer built for it is moved in, a borrowed one is copied (in place
/// when short), and [`Child`] is written straight into the violation.
pub(crate) trait IntoPath {
    fn into_path(self) -> Text;
}

impl IntoPath for Pointer {
    fn into_path(self) -> Text {
        Text::copy(self.as_str())
    }
}

impl IntoPath for &Pointer {
    fn into_path(self) -> Text {
        Text::copy(self.as_str())
    }
}

/// The pointer `parent` extended by a member name, built only when a violation is pushed,
/// without an intermediate `Pointer` (in place when it is short, as most are).
pub(crate) struct Child<'p>(pub &'p Pointer, pub &'p str);

impl IntoPath for Child<'_> {
    fn into_path(self) -> Text {
        let Child(parent, key) = self;
        if key.bytes().any(|b| b == b'~' || b == b'/') {
            // A name to escape (`~0`, `~1`), rare: the pointer built the general way.
            return parent.key(key).into_path();
        }
        Text::concat(&[parent.as_str(), "/", key])
    }
}

/// The pointer `parent` extended by `tail`, a constant pointer of names that need no escape
/// (`"/id"`, `"/error/code"`), built only when a violation is pushed.
pub(crate) struct Under<'p>(pub &'p Pointer, pub &'static str);

impl IntoPath for Under<'_> {
    fn into_path(self) -> Text {
        Text::concat(&[self.0.as_str(), self.1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn child_paths_are_the_pointers_key_would_build() {
        let parents = [
            Pointer::root(),
            Pointer::root().index(12),
            Pointer::root().key("a~b").index(123456),
        ];
        let keys = ["id", "a/b", "m~n", "", "~/", &"k".repeat(40)];
        for parent in &parents {
            for key in keys {
                assert_eq!(
                    Child(parent, key).into_path(),
                    parent.key(key).as_str(),
                    "{parent:?} {key:?}"
                );
            }
            assert_eq!(
                Under(parent, "/error/code").into_path(),
                parent.key("error").key("code").as_str()
            );
        }
    }

    #[test]
    fn a_typical_reports_texts_are_not_on_the_heap() {
        let report = check(
            br#"[{"jsonrpc": "2.0", "method": "subtract", "id": 12345}, {"foo": 1}]"#,
            Profile::JsonRpc,
        );
        let batch = &report.documents[0];
        let request = &batch.items[0];
        assert_eq!(
            (request.method.as_deref(), request.id.as_deref()),
            (Some("subtract"), Some("12345"))
        );
        assert!(
            !request.method.as_ref().unwrap().is_on_heap()
                && !request.id.as_ref().unwrap().is_on_heap()
        );
        let invalid = &batch.items[1];
        let rules: Vec<_> = invalid
            .violations
            .iter()
            .map(|v| (v.rule.id, v.path.as_str()))
            .collect();
        assert_eq!(
            rules,
            [
                ("jsonrpc-missing", "/1"),
                ("method-result-or-error-required", "/1"),
                ("member-unknown", "/1/foo")
            ]
        );
        // Paths in place; the constant messages too (only "unknown member \"foo\" …" is built).
        assert!(invalid.violations.iter().all(|v| !v.path.is_on_heap()));
        assert!(
            !invalid.violations[0].message.is_on_heap()
                && !invalid.violations[1].message.is_on_heap()
        );
    }
}
