//! The report as JSON: the `jrpc check --format json` contract, written once, as `serde` structs.
//!
//! `{"documents": [D, ...], "transcript", "profile": {"name", "mcp_version"?}, "errors", "warnings"}`;
//! D = `{"kind", "span": S, "violations": [V, ...], "items": [D, ...] (batch only), "direction"
//! (transcripts only), "intent", "method", "id", "error_code", "file" (the CLI's, last)}` with the
//! optional members present only when known; V = `{"rule", "severity", "path", "message", "span": S,
//! "spec": {"section", "title", "url"}, "related": [{"span": S, "message"}]?}`;
//! S = `{"start", "end", "line", "column", "end_line", "end_column"}`. Fields may be added, never
//! renamed; the order of the members is the order of the fields below.
//!
//! The structs borrow from the [`Report`] and its source: nothing is copied, and the lists are
//! serialized as they are walked ([`Each`]), so `serde_json::to_writer` streams a report of any
//! size without building it first.

use serde::{Serialize, Serializer};

use crate::json::{LineIndex, Span};

use super::{Document, Kind, Profile, Report, Severity, Violation};

/// Where a report's spans get their lines and columns.
#[derive(Clone, Copy)]
pub struct Source<'a> {
    pub src: &'a [u8],
    pub lines: &'a LineIndex,
}

/// A list of the report serialized element by element as its JSON struct (no intermediate `Vec`).
pub struct Each<'a, T>(&'a [T], Source<'a>);

impl Serialize for Each<'_, Document> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|d| DocumentJson::new(self.1, d, None)))
    }
}

impl Serialize for Each<'_, Violation> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|v| ViolationJson::new(self.1, v)))
    }
}

impl<'a> Serialize for Each<'a, (Span, String)> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let source = self.1;
        let related = move |(span, message): &'a (Span, String)| RelatedJson {
            span: SpanJson::new(source, *span),
            message: message.as_str(),
        };
        serializer.collect_seq(self.0.iter().map(related))
    }
}

#[derive(Serialize)]
pub struct SpanJson {
    start: usize,
    end: usize,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
}

impl SpanJson {
    fn new(source: Source<'_>, span: Span) -> Self {
        let start = source.lines.position(source.src, span.start);
        let end = source.lines.position(source.src, span.end);
        SpanJson {
            start: span.start,
            end: span.end,
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
        }
    }
}

#[derive(Serialize)]
pub struct SpecJson {
    section: &'static str,
    title: &'static str,
    url: &'static str,
}

#[derive(Serialize)]
pub struct RelatedJson<'a> {
    span: SpanJson,
    message: &'a str,
}

#[derive(Serialize)]
pub struct ViolationJson<'a> {
    rule: &'static str,
    severity: &'static str,
    path: &'a str,
    message: &'a str,
    span: SpanJson,
    spec: SpecJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    related: Option<Each<'a, (Span, String)>>,
    /// Under an OpenRPC document: `{"method": {"pointer", "line", "column"}, "schema": {…}}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    openrpc: Option<PlaceJson<'a>>,
}

/// Where in the OpenRPC document a finding's method and failing schema are.
#[derive(Serialize)]
pub struct PlaceJson<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    method: Option<SpotJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    schema: Option<SpotJson<'a>>,
}

#[derive(Serialize)]
pub struct SpotJson<'a> {
    pointer: &'a str,
    line: usize,
    column: usize,
}

impl<'a> SpotJson<'a> {
    fn new(spot: &'a super::DocumentSpot) -> Self {
        SpotJson {
            pointer: &spot.pointer,
            line: spot.line,
            column: spot.column,
        }
    }
}

impl<'a> ViolationJson<'a> {
    fn new(source: Source<'a>, v: &'a Violation) -> Self {
        ViolationJson {
            rule: v.rule.id,
            severity: v.severity.as_str(),
            path: &v.path,
            message: &v.message,
            span: SpanJson::new(source, v.span),
            spec: SpecJson {
                section: v.section().name,
                title: v.section().title,
                url: v.section().url,
            },
            related: (!v.related.is_empty()).then_some(Each(v.related.as_slice(), source)),
            openrpc: v
                .place
                .as_deref()
                .filter(|p| p.method.is_some() || p.schema.is_some())
                .map(|p| PlaceJson {
                    method: p.method.as_ref().map(SpotJson::new),
                    schema: p.schema.as_ref().map(SpotJson::new),
                }),
        }
    }
}

/// One document of a report (a batch with its items).
#[derive(Serialize)]
pub struct DocumentJson<'a> {
    kind: &'static str,
    span: SpanJson,
    violations: Each<'a, Violation>,
    #[serde(skip_serializing_if = "Option::is_none")]
    items: Option<Each<'a, Document>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    direction: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    intent: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    method: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error_code: Option<i64>,
    /// The input the document was read from (the CLI's report of several files).
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
}

impl<'a> DocumentJson<'a> {
    pub fn new(source: Source<'a>, d: &'a Document, file: Option<&'a str>) -> Self {
        DocumentJson {
            kind: d.kind.as_str(),
            span: SpanJson::new(source, d.span),
            violations: Each(d.violations.as_slice(), source),
            items: (d.kind == Kind::Batch).then_some(Each(d.items.as_slice(), source)),
            direction: d.direction.map(|dir| dir.as_str()),
            intent: d.intent.map(Kind::as_str),
            method: d.method.as_deref(),
            id: d.id.as_deref(),
            error_code: d.error_code,
            file,
        }
    }
}

/// The profile a report was checked under.
#[derive(Serialize)]
pub struct ProfileJson {
    name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    mcp_version: Option<&'static str>,
}

impl From<Profile> for ProfileJson {
    fn from(profile: Profile) -> Self {
        match profile {
            Profile::JsonRpc => ProfileJson {
                name: "jsonrpc",
                mcp_version: None,
            },
            Profile::Mcp(v) => ProfileJson {
                name: "mcp",
                mcp_version: Some(v.as_str()),
            },
        }
    }
}

/// The whole report of one input.
#[derive(Serialize)]
pub struct ReportJson<'a> {
    documents: Each<'a, Document>,
    transcript: bool,
    profile: ProfileJson,
    errors: usize,
    warnings: usize,
}

impl<'a> ReportJson<'a> {
    pub fn new(source: Source<'a>, report: &'a Report) -> Self {
        let count = |severity| {
            report
                .violations()
                .filter(|v| v.severity == severity)
                .count()
        };
        ReportJson {
            documents: Each(report.documents.as_slice(), source),
            transcript: report.transcript,
            profile: report.profile.into(),
            errors: count(Severity::Error),
            warnings: count(Severity::Warning),
        }
    }
}
