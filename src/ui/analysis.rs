//! What the verdict pane shows, as plain data: built from the engine's [`Report`], no signals,
//! no DOM. Components render it; nothing here decides what is wrong.

use std::sync::Arc;

use crate::json::{LineIndex, Position};
use crate::rpc::{self, Document, Kind, Profile, Report, Severity, Violation};

/// One broken rule, ready to render.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// The catalogue id (`version-must-be-2-0`).
    pub rule: &'static str,
    pub severity: Severity,
    /// RFC 6901 pointer from the document root.
    pub path: String,
    pub message: String,
    /// Where the violation starts (1-based line and column, in characters).
    pub at: Position,
}

/// One document of the input, or one element of a batch.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub kind: Kind,
    pub method: Option<String>,
    pub id: Option<String>,
    pub at: Position,
    pub findings: Vec<Finding>,
    /// Batch elements, in order (batches only).
    pub items: Vec<Verdict>,
}

/// A top-level verdict with the key the list is keyed by: keys are assigned from a counter that
/// only grows, and a verdict keeps its key while it stays the same at the same place.
#[derive(Clone, Debug, PartialEq)]
pub struct Keyed {
    pub key: u64,
    pub verdict: Arc<Verdict>,
}

/// The result of checking the editor's text once.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub verdicts: Vec<Keyed>,
    /// The next key to hand out.
    pub next_key: u64,
    /// How long the check took, in milliseconds (engine and conversion).
    pub elapsed_ms: f64,
}

impl Analysis {
    /// Checks `text` and keys its verdicts, reusing the keys of `prev` for unchanged verdicts.
    /// `now` returns a time in milliseconds (the browser's `performance.now()`).
    pub fn run(text: &str, profile: Profile, prev: Option<&Analysis>, now: impl Fn() -> f64) -> Analysis {
        let started = now();
        let src = text.as_bytes();
        let report = rpc::check(src, profile);
        let fresh = verdicts(&report, src);
        let mut next_key = prev.map_or(0, |p| p.next_key);
        let verdicts = fresh
            .into_iter()
            .enumerate()
            .map(|(i, verdict)| match prev.and_then(|p| p.verdicts.get(i)) {
                Some(old) if *old.verdict == verdict => old.clone(),
                _ => {
                    next_key += 1;
                    Keyed { key: next_key, verdict: Arc::new(verdict) }
                }
            })
            .collect();
        Analysis { verdicts, next_key, elapsed_ms: now() - started }
    }
}

/// Every top-level document of `report` as a [`Verdict`]; `src` is the checked text.
pub fn verdicts(report: &Report, src: &[u8]) -> Vec<Verdict> {
    let lines = LineIndex::new(src);
    report.documents.iter().map(|doc| verdict(doc, src, &lines)).collect()
}

fn verdict(doc: &Document, src: &[u8], lines: &LineIndex) -> Verdict {
    Verdict {
        kind: doc.kind,
        method: doc.method.clone(),
        id: doc.id.clone(),
        at: lines.position(src, doc.span.start),
        findings: doc.violations.iter().map(|v| finding(v, src, lines)).collect(),
        items: doc.items.iter().map(|item| verdict(item, src, lines)).collect(),
    }
}

fn finding(v: &Violation, src: &[u8], lines: &LineIndex) -> Finding {
    Finding {
        rule: v.rule.id,
        severity: v.severity,
        path: v.path.clone(),
        message: v.message.clone(),
        at: lines.position(src, v.span.start),
    }
}
