//! What the verdict pane shows, as plain data: built from the engine's [`Report`], no signals,
//! no DOM. Components render it; nothing here decides what is wrong.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

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
    /// True while a worker checks the text (src/web/page/checking.rs): nothing is known yet.
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
        Analysis::run_with(text, profile, prev, now, |_| {})
    }

    /// [`Analysis::run`] with `more` adding its findings to the engine's report first (the
    /// checks under an OpenRPC document: src/web/workers/api.rs).
    pub fn run_with(
        text: &str,
        profile: Profile,
        prev: Option<&Analysis>,
        now: impl Fn() -> f64,
        more: impl FnOnce(&mut Report),
    ) -> Analysis {
        let started = now();
        let src = text.as_bytes();
        let mut report = rpc::check_text(text, profile);
        more(&mut report);
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
        section: v.section(),
        span: v.span,
    }
}

/// An [`Analysis`] as JSON (serde), to cross from the checking worker (src/web/page/checking.rs) to the
/// page. Both ends are this file and the format is never stored, so it is compact: arrays, not
/// objects (serde compiles much less code for a sequence than for named members).
/// `[[documents, with errors, errors, warnings], elapsed ms, [verdict…]]`.
#[derive(Serialize, Deserialize)]
struct WireAnalysis([usize; 4], f64, Vec<WireVerdict>);

/// `[kind, method, id, [line, column, start, end], [finding…], [item…], error code, intent]`.
#[derive(Serialize, Deserialize)]
struct WireVerdict(
    String,
    Option<String>,
    Option<String>,
    [usize; 4],
    Vec<WireFinding>,
    Vec<WireVerdict>,
    Option<i64>,
    Option<String>,
);

/// `[rule id, is an error, pointer, message, [line, column, start, end]]` (the rule's section is
/// looked up in the catalogue on arrival).
#[derive(Serialize, Deserialize)]
struct WireFinding(String, bool, String, String, [usize; 4]);

impl WireVerdict {
    fn from(v: &Verdict) -> WireVerdict {
        WireVerdict(
            v.kind.as_str().to_string(),
            v.method.clone(),
            v.id.clone(),
            [v.at.line, v.at.column, v.span.start, v.span.end],
            v.findings
                .iter()
                .map(|f| {
                    WireFinding(
                        f.rule.to_string(),
                        f.severity == Severity::Error,
                        f.path.clone(),
                        f.message.clone(),
                        [f.at.line, f.at.column, f.span.start, f.span.end],
                    )
                })
                .collect(),
            v.items.iter().map(WireVerdict::from).collect(),
            v.error_code,
            v.intent.map(|k| k.as_str().to_string()),
        )
    }

    /// The verdict, or `None` when a kind or a rule is unknown (only a bug makes that happen).
    fn into_verdict(self) -> Option<Verdict> {
        let WireVerdict(
            kind,
            method,
            id,
            [line, column, start, end],
            findings,
            items,
            error_code,
            intent,
        ) = self;
        let findings = findings
            .into_iter()
            .map(
                |WireFinding(rule, error, path, message, [line, column, start, end])| {
                    // The catalogue's rules, and those of the MCP schemas the API worker checks.
                    let rule = rpc::catalogue::find(&rule).or_else(|| {
                        crate::tool_schemas::RULES
                            .iter()
                            .copied()
                            .find(|r| r.id == rule)
                    })?;
                    Some(Finding {
                        rule: rule.id,
                        severity: if error {
                            Severity::Error
                        } else {
                            Severity::Warning
                        },
                        path,
                        message,
                        at: Position { line, column },
                        section: rule.section,
                        span: Span::new(start, end),
                    })
                },
            )
            .collect::<Option<Vec<_>>>()?;
        let items = items
            .into_iter()
            .map(WireVerdict::into_verdict)
            .collect::<Option<Vec<_>>>()?;
        let intent = match intent {
            Some(k) => Some(Kind::parse(&k)?),
            None => None,
        };
        Some(Verdict {
            kind: Kind::parse(&kind)?,
            method,
            id,
            at: Position { line, column },
            findings,
            items,
            error_code,
            intent,
            span: Span::new(start, end),
        })
    }
}

impl Analysis {
    /// The analysis as JSON for [`Analysis::decode`].
    pub fn encode(&self) -> String {
        let t = self.totals;
        let wire = WireAnalysis(
            [t.documents, t.with_errors, t.errors, t.warnings],
            self.elapsed_ms,
            self.verdicts
                .iter()
                .map(|k| WireVerdict::from(&k.verdict))
                .collect(),
        );
        serde_json::to_string(&wire).unwrap_or_default()
    }

    /// The analysis `text` encodes, keyed after `prev` like [`Analysis::run`]; `None` if the text
    /// is not one (which only a bug makes happen: the page then checks on its own).
    pub fn decode(text: &str, prev: Option<&Analysis>) -> Option<Analysis> {
        let WireAnalysis([documents, with_errors, errors, warnings], elapsed_ms, wire_verdicts) =
            serde_json::from_str(text).ok()?;
        let mut next_key = prev.map_or(0, |p| p.next_key);
        let mut verdicts = Vec::with_capacity(wire_verdicts.len().min(MAX_CARDS));
        for (i, verdict) in wire_verdicts.into_iter().enumerate() {
            let verdict = verdict.into_verdict()?;
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
            totals: Totals {
                documents,
                with_errors,
                errors,
                warnings,
            },
            next_key,
            elapsed_ms,
            pending: false,
        })
    }
}
