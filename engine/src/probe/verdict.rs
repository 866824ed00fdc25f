//! The verdict: the conversation as a `-->` / `<--` transcript, checked by the engine under the
//! negotiated profile (every message, and the conversation's pairing rules), the probe's own
//! findings added to the messages they are about, and each check's status from the findings about
//! its messages. Findings about what the probe sent on purpose broken are the probe's doing and are
//! left out; of the client's messages only the server's failure to answer one counts.

use crate::json::{parse_document, LineIndex, Node, Parsed, Span, Value};
use crate::rpc::rules::REQUEST_UNANSWERED;
use crate::rpc::{check, Document, Report, Severity, Violation};

use super::checks::{Check, ProbeFinding, Run, Status, MAX_FINDINGS_PER_CHECK};
use super::conversation::{Entry, Side};

pub struct Verdict {
    /// The conversation as a transcript (`jrpc check` reads it).
    pub transcript: String,
    /// The engine's report on the transcript, with the probe's findings added.
    pub report: Report,
    pub checks: Vec<Check>,
    /// The run stopped early, and why.
    pub stopped: Option<String>,
    /// The 1-based transcript line each message starts on.
    entry_lines: Vec<usize>,
    /// Where each message is in the transcript.
    entry_spans: Vec<Span>,
}

impl Verdict {
    pub fn failed(&self) -> bool {
        self.stopped.is_some() || self.checks.iter().any(|c| c.status == Status::Fail)
    }
    pub fn count(&self, status: Status) -> usize {
        self.checks.iter().filter(|c| c.status == status).count()
    }
    /// The 1-based transcript lines of a check's messages (`None` when it exchanged none).
    pub fn lines(&self, check: &Check) -> Option<(usize, usize)> {
        if check.entries.is_empty() {
            return None;
        }
        let line_of = |entry: usize| self.entry_lines.get(entry).copied().unwrap_or(0);
        Some((line_of(check.entries.start), line_of(check.entries.end - 1)))
    }
    /// The findings about a check's messages (those that decided its status), in transcript
    /// order.
    pub fn findings<'a>(&'a self, check: &Check) -> impl Iterator<Item = &'a Violation> + 'a {
        let within = match (
            self.entry_spans.get(check.entries.start),
            check
                .entries
                .end
                .checked_sub(1)
                .and_then(|last| self.entry_spans.get(last)),
        ) {
            (Some(first), Some(last)) if !check.entries.is_empty() => first.start..last.end,
            _ => 0..0,
        };
        self.report
            .documents
            .iter()
            .filter(move |d| within.contains(&d.span.start))
            .flat_map(Document::all_violations)
    }
}

/// The transcript of `entries`, and where each entry is in it.
pub fn transcript(entries: &[Entry]) -> (String, Vec<Span>) {
    let mut text = String::new();
    let mut spans = Vec::with_capacity(entries.len());
    for entry in entries {
        let start = text.len();
        text.push_str(entry.side.marker());
        text.push(' ');
        text.push_str(&entry.text);
        spans.push(Span::new(start, text.len()));
        text.push('\n');
    }
    (text, spans)
}

pub fn judge(entries: &[Entry], run: Run) -> Verdict {
    let (text, spans) = transcript(entries);
    let mut report = check(text.as_bytes(), run.profile);
    // The entry a document starts in (the spans are in order: a binary search).
    let entry_of = |span: Span| {
        let i = spans.partition_point(|s| s.end < span.start);
        spans.get(i).filter(|s| s.start <= span.start).map(|_| i)
    };
    let mut checks = run.checks;
    let ranges: Vec<_> = checks.iter().map(|c| c.entries.clone()).collect();
    let owner_of = |entry: usize| ranges.iter().position(|r| r.contains(&entry));

    // Keep what the server is answerable for.
    for doc in &mut report.documents {
        let Some(entry) = entry_of(doc.span) else {
            continue;
        };
        let tolerated = owner_of(entry).map_or(&[][..], |c| checks[c].tolerated);
        let e = &entries[entry];
        // The server's messages: every finding but that the probe left one unanswered. The
        // probe's: only that the server left one unanswered.
        let keep = |v: &Violation| {
            !tolerated.contains(&v.rule.id)
                && ((e.side == Side::Server) != (v.rule.id == REQUEST_UNANSWERED.id))
        };
        doc.violations.retain(keep);
        for item in &mut doc.items {
            item.violations.retain(keep);
        }
    }
    // Add the probe's own findings to the messages they are about: grouped by message, so each
    // message is parsed once (to locate its findings' members) whatever its number of findings.
    let mut about: Vec<(usize, &ProbeFinding)> = checks
        .iter()
        .flat_map(|c| &c.findings)
        .filter_map(|finding| {
            let span = spans.get(finding.entry)?;
            let first = report
                .documents
                .partition_point(|d| d.span.start < span.start);
            let doc = report.documents.get(first)?;
            (doc.span.start <= span.end).then_some((first, finding))
        })
        .collect();
    about.sort_by_key(|(doc, _)| *doc);
    let mut parsed: Option<(usize, Option<Parsed<'_>>)> = None;
    for (index, finding) in about {
        let doc = &mut report.documents[index];
        if parsed.as_ref().map(|(i, _)| *i) != Some(index) {
            let tree = parse_document(text.as_bytes(), doc.span.start)
                .ok()
                .map(|(tree, _)| tree);
            parsed = Some((index, tree));
        }
        let at = parsed
            .as_ref()
            .and_then(|(_, tree)| tree.as_ref())
            .and_then(|tree| member_span(&tree.root, &finding.path))
            .unwrap_or(doc.span);
        doc.violations.push(Violation {
            rule: finding.rule,
            severity: finding.rule.severity,
            path: finding.path.clone().into(),
            span: at,
            message: finding.message.clone().into(),
            related: Vec::new(),
            place: None,
        });
    }
    drop(parsed);
    // Each check's status from the findings about its messages.
    let mut found: Vec<(bool, Vec<&'static str>)> = vec![(false, Vec::new()); checks.len()];
    for doc in &report.documents {
        let Some(owner) = entry_of(doc.span).and_then(owner_of) else {
            continue;
        };
        let (errors, rules) = &mut found[owner];
        for v in doc.all_violations() {
            *errors |= v.severity == Severity::Error;
            if !rules.contains(&v.rule.id) {
                rules.push(v.rule.id);
            }
        }
    }
    for (check, (errors, rules)) in checks.iter_mut().zip(found) {
        if check.status == Status::Skipped {
            continue;
        }
        if errors {
            check.status = Status::Fail;
        }
        if check.findings_dropped > 0 {
            let dropped = format!(
                "{} more findings not listed (at most {MAX_FINDINGS_PER_CHECK} a check)",
                check.findings_dropped
            );
            check.detail = if check.detail.is_empty() {
                dropped
            } else {
                format!("{}; {dropped}", check.detail)
            };
        }
        if !rules.is_empty() {
            let found = format!("findings: {}", rules.join(", "));
            check.detail = if check.detail.is_empty() {
                found
            } else {
                format!("{}; {found}", check.detail)
            };
        }
    }
    let lines = LineIndex::new(text.as_bytes());
    let entry_lines = spans
        .iter()
        .map(|s| lines.position(text.as_bytes(), s.start).line)
        .collect();
    Verdict {
        entry_lines,
        entry_spans: spans,
        transcript: text,
        report,
        checks,
        stopped: run.stopped.map(|e| e.0),
    }
}

/// The span of the member `pointer` names in the message `root`, if it is there.
fn member_span(root: &Node<'_>, pointer: &str) -> Option<Span> {
    let mut node = root;
    for token in pointer.split('/').skip(1) {
        let token = token.replace("~1", "/").replace("~0", "~");
        node = match &node.value {
            Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
            _ => node.get(&token)?,
        };
    }
    Some(node.span)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transcript_marks_each_message_with_its_side() {
        let entries = [
            Entry {
                side: Side::Client,
                text: "{\"a\":1}".into(),
            },
            Entry {
                side: Side::Server,
                text: "{\"b\":2}".into(),
            },
        ];
        let (text, spans) = transcript(&entries);
        assert_eq!(text, "--> {\"a\":1}\n<-- {\"b\":2}\n");
        assert_eq!(&text[spans[1].start..spans[1].end], "<-- {\"b\":2}");
    }
}
