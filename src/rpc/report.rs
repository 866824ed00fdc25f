//! The report as JSON: the `jrpc check --format json` contract.
//!
//! `{"documents": [D, ...]}`; D = `{"kind", "span": {"start", "end", "line", "column"}, "violations":
//! [V, ...], "items": [D, ...] (batch only), "direction" (transcripts only), ...}`; V = `{"rule",
//! "severity", "path", "message", "span", "spec"}`. Fields may be added, never renamed.

use serde_json::{json, Map, Value};

use crate::json::{LineIndex, Span};

use super::{Document, Report, Violation};

fn span(src: &[u8], lines: &LineIndex, span: Span) -> Value {
    let pos = lines.position(src, span.start);
    let end = lines.position(src, span.end);
    json!({
        "start": span.start, "end": span.end,
        "line": pos.line, "column": pos.column,
        "end_line": end.line, "end_column": end.column,
    })
}

fn violation(src: &[u8], lines: &LineIndex, v: &Violation) -> Value {
    let mut out = json!({
        "rule": v.rule.id,
        "severity": v.severity.as_str(),
        "path": v.path,
        "message": v.message,
        "span": span(src, lines, v.span),
        "spec": { "section": v.rule.section.name, "title": v.rule.section.title, "url": v.rule.section.url },
    });
    if !v.related.is_empty() {
        out["related"] = v
            .related
            .iter()
            .map(|(s, message)| json!({ "span": span(src, lines, *s), "message": message }))
            .collect();
    }
    out
}

fn document(src: &[u8], lines: &LineIndex, d: &Document) -> Value {
    let mut out = Map::new();
    out.insert("kind".into(), d.kind.as_str().into());
    out.insert("span".into(), span(src, lines, d.span));
    out.insert("violations".into(), d.violations.iter().map(|v| violation(src, lines, v)).collect());
    if d.kind == super::Kind::Batch {
        out.insert("items".into(), d.items.iter().map(|i| document(src, lines, i)).collect());
    }
    if let Some(dir) = d.direction {
        out.insert("direction".into(), dir.as_str().into());
    }
    if let Some(intent) = d.intent {
        out.insert("intent".into(), intent.as_str().into());
    }
    if let Some(method) = &d.method {
        out.insert("method".into(), method.as_str().into());
    }
    if let Some(id) = &d.id {
        out.insert("id".into(), id.as_str().into());
    }
    if let Some(code) = d.error_code {
        out.insert("error_code".into(), code.into());
    }
    Value::Object(out)
}

pub(super) fn to_json(report: &Report, src: &[u8], lines: &LineIndex) -> Value {
    let mut profile = json!({ "name": match report.profile { super::Profile::JsonRpc => "jsonrpc", super::Profile::Mcp(_) => "mcp" } });
    if let Some(v) = report.profile.mcp_version() {
        profile["mcp_version"] = v.as_str().into();
    }
    json!({
        "documents": report.documents.iter().map(|d| document(src, lines, d)).collect::<Vec<_>>(),
        "transcript": report.transcript,
        "profile": profile,
        "errors": report.violations().filter(|v| v.severity == super::Severity::Error).count(),
        "warnings": report.violations().filter(|v| v.severity == super::Severity::Warning).count(),
    })
}
