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
        "path": v.path.as_str(),
        "message": v.message.as_str(),
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
    out.insert(
        "violations".into(),
        d.violations
            .iter()
            .map(|v| violation(src, lines, v))
            .collect(),
    );
    if d.kind == super::Kind::Batch {
        out.insert(
            "items".into(),
            d.items.iter().map(|i| document(src, lines, i)).collect(),
        );
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

// ---- The same report, streamed ------------------------------------------------------------------
//
// `jrpc check --format json` writes the report straight to its output instead of building
// `serde_json::Value`s first (one map and one heap string per key, per span, per violation). The
// bytes are exactly `serde_json::to_string(&to_json(..))`'s: same member order, same escapes (the
// fuzz target `check` and tests/hostile.rs compare the two).

use std::io::{self, Write};

fn string(out: &mut impl Write, s: &str) -> io::Result<()> {
    // serde_json's own escaping, without building a Value.
    serde_json::to_writer(&mut *out, s).map_err(io::Error::from)
}

fn write_span(out: &mut impl Write, src: &[u8], lines: &LineIndex, span: Span) -> io::Result<()> {
    let pos = lines.position(src, span.start);
    let end = lines.position(src, span.end);
    write!(
        out,
        r#"{{"start":{},"end":{},"line":{},"column":{},"end_line":{},"end_column":{}}}"#,
        span.start, span.end, pos.line, pos.column, end.line, end.column
    )
}

fn write_violation(
    out: &mut impl Write,
    src: &[u8],
    lines: &LineIndex,
    v: &Violation,
) -> io::Result<()> {
    out.write_all(br#"{"rule":"#)?;
    string(out, v.rule.id)?;
    out.write_all(br#","severity":"#)?;
    string(out, v.severity.as_str())?;
    out.write_all(br#","path":"#)?;
    string(out, &v.path)?;
    out.write_all(br#","message":"#)?;
    string(out, &v.message)?;
    out.write_all(br#","span":"#)?;
    write_span(out, src, lines, v.span)?;
    out.write_all(br#","spec":{"section":"#)?;
    string(out, v.rule.section.name)?;
    out.write_all(br#","title":"#)?;
    string(out, v.rule.section.title)?;
    out.write_all(br#","url":"#)?;
    string(out, v.rule.section.url)?;
    out.write_all(b"}")?;
    if !v.related.is_empty() {
        out.write_all(br#","related":["#)?;
        for (i, (s, message)) in v.related.iter().enumerate() {
            out.write_all(if i == 0 {
                br#"{"span":"#
            } else {
                br#",{"span":"#
            })?;
            write_span(out, src, lines, *s)?;
            out.write_all(br#","message":"#)?;
            string(out, message)?;
            out.write_all(b"}")?;
        }
        out.write_all(b"]")?;
    }
    out.write_all(b"}")
}

/// One document object; `file` (the CLI's `"file"` member) goes last when given.
pub(super) fn write_document(
    out: &mut impl Write,
    src: &[u8],
    lines: &LineIndex,
    d: &Document,
    file: Option<&str>,
) -> io::Result<()> {
    out.write_all(br#"{"kind":"#)?;
    string(out, d.kind.as_str())?;
    out.write_all(br#","span":"#)?;
    write_span(out, src, lines, d.span)?;
    out.write_all(br#","violations":["#)?;
    for (i, v) in d.violations.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        write_violation(out, src, lines, v)?;
    }
    out.write_all(b"]")?;
    if d.kind == super::Kind::Batch {
        out.write_all(br#","items":["#)?;
        for (i, item) in d.items.iter().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            write_document(out, src, lines, item, None)?;
        }
        out.write_all(b"]")?;
    }
    if let Some(dir) = d.direction {
        out.write_all(br#","direction":"#)?;
        string(out, dir.as_str())?;
    }
    if let Some(intent) = d.intent {
        out.write_all(br#","intent":"#)?;
        string(out, intent.as_str())?;
    }
    if let Some(method) = &d.method {
        out.write_all(br#","method":"#)?;
        string(out, method)?;
    }
    if let Some(id) = &d.id {
        out.write_all(br#","id":"#)?;
        string(out, id)?;
    }
    if let Some(code) = d.error_code {
        write!(out, r#","error_code":{code}"#)?;
    }
    if let Some(file) = file {
        out.write_all(br#","file":"#)?;
        string(out, file)?;
    }
    out.write_all(b"}")
}

pub(super) fn write_json(
    out: &mut impl Write,
    report: &Report,
    src: &[u8],
    lines: &LineIndex,
) -> io::Result<()> {
    out.write_all(br#"{"documents":["#)?;
    for (i, d) in report.documents.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        write_document(out, src, lines, d, None)?;
    }
    out.write_all(b"]")?;
    write!(
        out,
        r#","transcript":{},"profile":{{"name":"#,
        report.transcript
    )?;
    match report.profile {
        super::Profile::JsonRpc => out.write_all(br#""jsonrpc"}"#)?,
        super::Profile::Mcp(v) => {
            out.write_all(br#""mcp","mcp_version":"#)?;
            string(out, v.as_str())?;
            out.write_all(b"}")?;
        }
    }
    let errors = report
        .violations()
        .filter(|v| v.severity == super::Severity::Error)
        .count();
    let warnings = report
        .violations()
        .filter(|v| v.severity == super::Severity::Warning)
        .count();
    write!(out, r#","errors":{errors},"warnings":{warnings}}}"#)
}
