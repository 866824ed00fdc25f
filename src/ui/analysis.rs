//! What the verdict pane shows, as plain data: built from the engine's [`Report`], no signals,
//! no DOM. Components render it; nothing here decides what is wrong.

use std::sync::Arc;

use crate::json::{LineIndex, Position, Span};
use crate::rpc::{self, Document, Kind, Profile, Report, Section, Severity, Violation};

/// One broken rule, ready to render. Equality ignores `span`: a finding that only moved (text
/// typed before it on the same line) is the same finding, so its card is not rebuilt; the card
/// reads the current span from the current [`Analysis`] when clicked.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The catalogue id (`version-must-be-2-0`).
    pub rule: &'static str,
    pub severity: Severity,
    /// RFC 6901 pointer from the document root.
    pub path: String,
    pub message: String,
    /// Where the violation starts (1-based line and column, in characters).
    pub at: Position,
    /// The specification section the rule comes from (with its link).
    pub section: Section,
    /// The violation's byte span in the editor's text.
    pub span: Span,
}

impl PartialEq for Finding {
    fn eq(&self, other: &Self) -> bool {
        self.rule == other.rule
            && self.severity == other.severity
            && self.path == other.path
            && self.message == other.message
            && self.at == other.at
            && self.section == other.section
    }
}

/// One document of the input, or one element of a batch. Equality ignores `span` (see [`Finding`]).
#[derive(Clone, Debug)]
pub struct Verdict {
    pub kind: Kind,
    pub method: Option<String>,
    pub id: Option<String>,
    pub at: Position,
    pub findings: Vec<Finding>,
    /// Batch elements, in order (batches only).
    pub items: Vec<Verdict>,
    /// The error code of an error response (responses with a result have none).
    pub error_code: Option<i64>,
    /// What an invalid document was trying to be, when that is clear.
    pub intent: Option<Kind>,
    /// The document's byte span in the editor's text.
    pub span: Span,
}

impl PartialEq for Verdict {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind
            && self.method == other.method
            && self.id == other.id
            && self.at == other.at
            && self.findings == other.findings
            && self.items == other.items
            && self.error_code == other.error_code
            && self.intent == other.intent
    }
}

impl Verdict {
    /// True when neither this document nor any batch element breaks any rule.
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty() && self.items.iter().all(Verdict::is_clean)
    }

    /// True when this document or a batch element breaks a MUST.
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(|f| f.severity == Severity::Error)
            || self.items.iter().any(Verdict::has_errors)
    }

    /// The finding at `path` (batch item indices, then the finding's index), if it exists.
    pub fn finding_at(&self, items: &[usize], index: usize) -> Option<&Finding> {
        match items.split_first() {
            None => self.findings.get(index),
            Some((&first, rest)) => self.items.get(first)?.finding_at(rest, index),
        }
    }

    /// What the document is, in words: "request — expects a response with id 1".
    pub fn describe(&self) -> String {
        let id = self.id.as_deref().unwrap_or("null");
        match self.kind {
            Kind::Request => format!("request — expects a response with id {id}"),
            Kind::Notification => "notification — no response expected".to_string(),
            Kind::Response => match self.error_code {
                Some(code) => format!("response — answers id {id} with error {code}"),
                None => format!("response — answers id {id} with a result"),
            },
            Kind::Batch => {
                let n = self.items.len();
                if n > 0 && self.items.iter().all(|i| i.kind == Kind::Response) {
                    return format!("batch of {n} — {n} response{}", plural(n));
                }
                let expects = self
                    .items
                    .iter()
                    .filter(|i| {
                        i.kind == Kind::Request
                            || (i.kind == Kind::Invalid && i.intent != Some(Kind::Response))
                    })
                    .count();
                match expects {
                    0 => format!("batch of {n} — no response expected"),
                    e => format!("batch of {n} — expects {e} response{}", plural(e)),
                }
            }
            Kind::Invalid => match self.intent {
                Some(Kind::Response) => "invalid response".to_string(),
                Some(intent) => format!(
                    "invalid {} — a server answers -32600 Invalid Request",
                    intent.as_str()
                ),
                None => "invalid — not a request, notification or response".to_string(),
            },
            Kind::ParseError => {
                "parse error — not JSON; a server answers -32700 Parse error".to_string()
            }
        }
    }

    /// The kind badge: "response with error -32601", "parse error".
    pub fn badge(&self) -> String {
        match (self.kind, self.error_code) {
            (Kind::Response, Some(code)) => format!("response with error {code}"),
            (Kind::Response, None) => "response with result".to_string(),
            (Kind::ParseError, _) => "parse error".to_string(),
            (kind, _) => kind.as_str().to_string(),
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// A top-level verdict with the key the list is keyed by: keys are assigned from a counter that
/// only grows, and a verdict keeps its key while it stays the same at the same place.
#[derive(Clone, Debug, PartialEq)]
pub struct Keyed {
    pub key: u64,
    pub verdict: Arc<Verdict>,
}

/// At most this many top-level documents get a card (and underlines): a 10 MB stream has over
/// a hundred thousand, which no one reads as cards and which would take the page minutes to lay
/// out. The counts in [`Totals`] still cover every document.
pub const MAX_CARDS: usize = 300;

/// Counts over every document of the text, carded or not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub documents: usize,
    /// Documents (batches counted once) with at least one error.
    pub with_errors: usize,
    /// Violations of severity error, and of any other severity, in all documents.
    pub errors: usize,
    pub warnings: usize,
}

/// The result of checking the editor's text once.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The first [`MAX_CARDS`] documents' verdicts.
    pub verdicts: Vec<Keyed>,
    pub totals: Totals,
    /// The next key to hand out.
    pub next_key: u64,
    /// How long the check took, in milliseconds (engine and conversion).
    pub elapsed_ms: f64,
    /// True while a worker checks the text (src/ui/worker.rs): nothing is known yet.
    pub pending: bool,
}

impl Analysis {
    /// Checks `text` and keys its verdicts, reusing the keys of `prev` for unchanged verdicts.
    /// `now` returns a time in milliseconds (the browser's `performance.now()`).
    pub fn run(
        text: &str,
        profile: Profile,
        prev: Option<&Analysis>,
        now: impl Fn() -> f64,
    ) -> Analysis {
        let started = now();
        let src = text.as_bytes();
        let report = rpc::check_text(text, profile);
        let fresh = verdicts(&report, src);
        let mut totals = Totals {
            documents: report.documents.len(),
            ..Totals::default()
        };
        for doc in &report.documents {
            totals.with_errors += usize::from(doc.has_errors());
            for v in doc.all_violations() {
                if v.severity == Severity::Error {
                    totals.errors += 1;
                } else {
                    totals.warnings += 1;
                }
            }
        }
        let mut next_key = prev.map_or(0, |p| p.next_key);
        let verdicts = fresh
            .into_iter()
            .enumerate()
            .map(|(i, verdict)| match prev.and_then(|p| p.verdicts.get(i)) {
                // Same verdict, maybe moved: keep the key (the card stays), take the fresh spans.
                Some(old) if *old.verdict == verdict => Keyed {
                    key: old.key,
                    verdict: Arc::new(verdict),
                },
                _ => {
                    next_key += 1;
                    Keyed {
                        key: next_key,
                        verdict: Arc::new(verdict),
                    }
                }
            })
            .collect();
        Analysis {
            verdicts,
            totals,
            next_key,
            elapsed_ms: now() - started,
            pending: false,
        }
    }

    /// The analysis while the worker checks: the previous one, marked pending (the status says
    /// so), so that cards whose verdict does not change keep their place and key.
    pub fn pending(prev: Option<&Analysis>) -> Analysis {
        let mut a = prev.cloned().unwrap_or(Analysis {
            verdicts: Vec::new(),
            totals: Totals::default(),
            next_key: 0,
            elapsed_ms: 0.0,
            pending: true,
        });
        a.pending = true;
        a
    }
}

/// The first [`MAX_CARDS`] top-level documents of `report` as [`Verdict`]s; `src` is the checked text.
pub fn verdicts(report: &Report, src: &[u8]) -> Vec<Verdict> {
    let lines = LineIndex::new(src);
    report
        .documents
        .iter()
        .take(MAX_CARDS)
        .map(|doc| verdict(doc, src, &lines))
        .collect()
}

fn verdict(doc: &Document, src: &[u8], lines: &LineIndex) -> Verdict {
    Verdict {
        kind: doc.kind,
        method: doc.method.as_deref().map(str::to_string),
        id: doc.id.as_deref().map(str::to_string),
        at: lines.position(src, doc.span.start),
        findings: doc
            .violations
            .iter()
            .map(|v| finding(v, src, lines))
            .collect(),
        items: doc
            .items
            .iter()
            .map(|item| verdict(item, src, lines))
            .collect(),
        error_code: doc.error_code,
        intent: doc.intent,
        span: doc.span,
    }
}

fn finding(v: &Violation, src: &[u8], lines: &LineIndex) -> Finding {
    Finding {
        rule: v.rule.id,
        severity: v.severity,
        path: v.path.as_str().to_owned(),
        message: v.message.as_str().to_owned(),
        at: lines.position(src, v.span.start),
        section: v.rule.section,
        span: v.span,
    }
}

/// An [`Analysis`] as text, to cross from the checking worker (src/ui/worker.rs) to the page:
/// one record a line, fields split by tabs (`\`, tab and newline escaped), `=` before a present
/// optional field. Both ends are this file; the format is never stored.
impl Analysis {
    pub fn encode(&self) -> String {
        let t = self.totals;
        let mut out = format!(
            "A\t{}\t{}\t{}\t{}\t{}\t{}\n",
            t.documents,
            t.with_errors,
            t.errors,
            t.warnings,
            crate::json::shortest(self.elapsed_ms),
            self.verdicts.len()
        );
        for k in &self.verdicts {
            encode_verdict(&k.verdict, &mut out);
        }
        out
    }

    /// The analysis `text` encodes, keyed after `prev` like [`Analysis::run`]; `None` if the text
    /// is not one (which only a bug makes happen: the page then checks on its own).
    pub fn decode(text: &str, prev: Option<&Analysis>) -> Option<Analysis> {
        let mut lines = text.lines();
        let head = fields(lines.next()?);
        if head.len() != 7 || head[0] != "A" {
            return None;
        }
        let n = |i: usize| head[i].parse::<usize>().ok();
        let totals = Totals {
            documents: n(1)?,
            with_errors: n(2)?,
            errors: n(3)?,
            warnings: n(4)?,
        };
        let elapsed_ms = crate::json::to_f64(head[5])?;
        let count = n(6)?;
        let mut next_key = prev.map_or(0, |p| p.next_key);
        let mut verdicts = Vec::with_capacity(count.min(MAX_CARDS));
        for i in 0..count {
            let verdict = decode_verdict(&mut lines)?;
            let key = match prev.and_then(|p| p.verdicts.get(i)) {
                Some(old) if *old.verdict == verdict => old.key,
                _ => {
                    next_key += 1;
                    next_key
                }
            };
            verdicts.push(Keyed {
                key,
                verdict: Arc::new(verdict),
            });
        }
        Some(Analysis {
            verdicts,
            totals,
            next_key,
            elapsed_ms,
            pending: false,
        })
    }
}

fn escape_field(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
}

fn unescape_field(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(c) => out.push(c),
            None => {}
        }
    }
    out
}

fn fields(line: &str) -> Vec<&str> {
    line.split('\t').collect()
}

fn push_opt(out: &mut String, v: Option<&str>) {
    out.push('\t');
    if let Some(v) = v {
        out.push('=');
        escape_field(v, out);
    }
}

fn opt(field: &str) -> Option<String> {
    field.strip_prefix('=').map(unescape_field)
}

fn encode_verdict(v: &Verdict, out: &mut String) {
    out.push_str("V\t");
    out.push_str(v.kind.as_str());
    push_opt(out, v.method.as_deref());
    push_opt(out, v.id.as_deref());
    push_opt(out, v.error_code.map(|c| c.to_string()).as_deref());
    push_opt(out, v.intent.map(Kind::as_str));
    out.push_str(&format!(
        "\t{}\t{}\t{}\t{}\t{}\t{}\n",
        v.at.line,
        v.at.column,
        v.span.start,
        v.span.end,
        v.findings.len(),
        v.items.len()
    ));
    for f in &v.findings {
        out.push_str("F\t");
        out.push_str(f.rule);
        out.push('\t');
        out.push_str(f.severity.as_str());
        out.push('\t');
        escape_field(&f.path, out);
        out.push('\t');
        escape_field(&f.message, out);
        out.push_str(&format!(
            "\t{}\t{}\t{}\t{}\n",
            f.at.line, f.at.column, f.span.start, f.span.end
        ));
    }
    for item in &v.items {
        encode_verdict(item, out);
    }
}

fn kind_of(s: &str) -> Option<Kind> {
    [
        Kind::Request,
        Kind::Notification,
        Kind::Response,
        Kind::Invalid,
        Kind::Batch,
        Kind::ParseError,
    ]
    .into_iter()
    .find(|k| k.as_str() == s)
}

fn decode_verdict<'a>(lines: &mut impl Iterator<Item = &'a str>) -> Option<Verdict> {
    let f = fields(lines.next()?);
    if f.len() != 12 || f[0] != "V" {
        return None;
    }
    let n = |i: usize| f[i].parse::<usize>().ok();
    let (at, span) = (
        Position {
            line: n(6)?,
            column: n(7)?,
        },
        Span::new(n(8)?, n(9)?),
    );
    let (finding_count, item_count) = (n(10)?, n(11)?);
    let error_code = match opt(f[4]) {
        Some(c) => Some(c.parse::<i64>().ok()?),
        None => None,
    };
    let intent = match opt(f[5]) {
        Some(k) => Some(kind_of(&k)?),
        None => None,
    };
    let mut findings = Vec::with_capacity(finding_count.min(1024));
    for _ in 0..finding_count {
        let g = fields(lines.next()?);
        if g.len() != 9 || g[0] != "F" {
            return None;
        }
        let rule = rpc::catalogue::find(g[1])?;
        let severity = if g[2] == Severity::Error.as_str() {
            Severity::Error
        } else {
            Severity::Warning
        };
        let m = |i: usize| g[i].parse::<usize>().ok();
        findings.push(Finding {
            rule: rule.id,
            severity,
            path: unescape_field(g[3]),
            message: unescape_field(g[4]),
            at: Position {
                line: m(5)?,
                column: m(6)?,
            },
            section: rule.section,
            span: Span::new(m(7)?, m(8)?),
        });
    }
    let mut items = Vec::with_capacity(item_count.min(1024));
    for _ in 0..item_count {
        items.push(decode_verdict(lines)?);
    }
    Some(Verdict {
        kind: kind_of(f[1])?,
        method: opt(f[2]),
        id: opt(f[3]),
        at,
        findings,
        items,
        error_code,
        intent,
        span,
    })
}
