//! `jrpc check`'s text output: each violation as a compiler-style diagnostic drawn by
//! codespan-reporting (primary span, the related spans as secondary labels, multi-line spans,
//! widths right for CJK and emoji), then one summary line per input.
//!
//! What the terminal receives is bounded and inert whatever the input holds:
//! - a long source line is shown as a window around the spans on it ([`Excerpt`]), as rustc does, so
//!   a 170 KB one-line batch prints kilobytes, not a copy of the line per finding;
//! - after [`SHOWN_PER_RULE`] findings of one rule in one input, the rest are counted on one line;
//! - control characters never reach the terminal raw: in source lines they are shown as their
//!   Unicode control pictures (`␛`, `␍`), in messages and pointers as JSON escapes (`\u001b`);
//!   bytes that are not UTF-8 are shown as `�`.
//!
//! Every string a peer, a document or an input supplies reaches the terminal through one of three
//! paths, each inert: [`printable`] in text (standard error included), [`JsonEscapes`] around
//! every JSON output, and the JUnit writer's XML escape (src/cli/probe/output.rs).

use std::collections::HashMap;
use std::io;
use std::ops::Range;

use codespan_reporting::diagnostic::{Diagnostic, Label, Severity as Level};
use codespan_reporting::files::{Error as FilesError, Files, Location};
use codespan_reporting::term::termcolor::{Color, ColorSpec, WriteColor};
use codespan_reporting::term::{self, Chars, Config};

use crate::json::{LineIndex, Span};
use crate::rpc::{Document, Kind, Report, Severity, Violation};

/// Findings of one rule drawn in full per input; the rest are counted.
pub const SHOWN_PER_RULE: usize = 20;
/// Bytes of a source line shown around a span before it is cut ("…").
const CONTEXT: usize = 40;
/// The most bytes of one span drawn on one line (a longer span is cut in its middle).
const SPAN_SHOWN: usize = 80;
/// A line up to this long is shown whole.
const SHORT_LINE: usize = 160;
/// A span over more lines than this is drawn on its first line only.
const MULTI_LINE_SHOWN: usize = 8;
/// Document kinds listed in the summary line before "… and N more".
const KINDS_LISTED: usize = 10;

/// Renders one input's report: every violation (within the caps), then the summary line.
pub fn render(
    out: &mut dyn WriteColor,
    name: &str,
    src: &[u8],
    lines: &LineIndex,
    report: &Report,
) -> io::Result<()> {
    let config = Config {
        chars: Chars::ascii(),
        ..Config::default()
    };
    let (mut errors, mut warnings) = (0usize, 0usize);
    let mut per_rule: HashMap<&'static str, usize> = HashMap::new();
    let walk = report
        .documents
        .iter()
        .flat_map(|d| std::iter::once(d).chain(d.items.iter()));
    for v in walk.flat_map(|d: &Document| d.violations.iter()) {
        match v.severity {
            Severity::Error => errors += 1,
            Severity::Warning => warnings += 1,
        }
        let seen = per_rule.entry(v.rule.id).or_default();
        *seen += 1;
        if *seen > SHOWN_PER_RULE {
            continue;
        }
        let excerpt = Excerpt::new(name, src, lines, v);
        let diagnostic = excerpt.diagnostic(v);
        term::emit_to_write_style(out, &config, &excerpt, &diagnostic).map_err(files_error)?;
    }
    let mut hidden: Vec<(&str, usize)> = per_rule
        .into_iter()
        .filter(|&(_, n)| n > SHOWN_PER_RULE)
        .map(|(rule, n)| (rule, n - SHOWN_PER_RULE))
        .collect();
    hidden.sort_unstable();
    for (rule, n) in hidden {
        writeln!(
            out,
            "note: {n} more [{rule}] finding{} not shown (--format json lists every one)",
            plural(n)
        )?;
    }
    summary(out, name, report, errors, warnings)
}

fn summary(
    out: &mut dyn WriteColor,
    name: &str,
    report: &Report,
    errors: usize,
    warnings: usize,
) -> io::Result<()> {
    let bold = ColorSpec::new().set_bold(true).clone();
    out.set_color(&bold)?;
    write!(
        out,
        "{}",
        printable(if name == "-" { "<stdin>" } else { name })
    )?;
    out.reset()?;
    let n = report.documents.len();
    write!(out, ": {n} document{}", plural(n))?;
    if report.transcript {
        write!(out, " (transcript)")?;
    }
    if n > 0 {
        let mut kinds: Vec<String> = report
            .documents
            .iter()
            .take(KINDS_LISTED)
            .map(kind_label)
            .collect();
        if n > KINDS_LISTED {
            kinds.push(format!("… and {} more", n - KINDS_LISTED));
        }
        write!(out, " ({})", kinds.join(", "))?;
    }
    write!(out, ": ")?;
    if errors == 0 && warnings == 0 {
        out.set_color(ColorSpec::new().set_bold(true).set_fg(Some(Color::Green)))?;
        write!(out, "ok")?;
        out.reset()?;
        writeln!(out)
    } else {
        writeln!(
            out,
            "{errors} error{}, {warnings} warning{}",
            plural(errors),
            plural(warnings)
        )
    }
}

fn kind_label(d: &Document) -> String {
    match d.kind {
        Kind::Batch => format!("batch of {}", d.items.len()),
        k => k.as_str().to_string(),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn files_error(e: FilesError) -> io::Error {
    match e {
        FilesError::Io(e) => e,
        other => io::Error::other(other.to_string()),
    }
}

/// `s` with every control character written as a JSON escape (`\u001b`), so that a message or a
/// pointer quoting the input cannot move the cursor, recolour or retitle the terminal.
pub fn printable(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// [`printable`] of what `value` displays as.
pub fn printable_of(value: &impl std::fmt::Display) -> String {
    printable(&value.to_string())
}

/// A writer of JSON text that escapes DEL and the C1 controls (U+0080–U+009F), which JSON lets a
/// string hold raw (`\u007f`, `\u0080`…; the C0 controls every JSON writer escapes already), so
/// no control character of the input reaches the terminal raw. JSON's own syntax is ASCII: these
/// bytes occur only inside strings, where the escape reads back as the same character.
pub struct JsonEscapes<W: io::Write> {
    inner: W,
    /// A 0xC2 byte (the lead of U+0080–U+00BF) whose next byte has not been written yet.
    held_lead: bool,
}

impl<W: io::Write> JsonEscapes<W> {
    pub fn new(inner: W) -> Self {
        JsonEscapes {
            inner,
            held_lead: false,
        }
    }

    fn escape(&mut self, code: u8) -> io::Result<()> {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        self.inner.write_all(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[usize::from(code >> 4)],
            HEX[usize::from(code & 0xf)],
        ])
    }
}

impl<W: io::Write> io::Write for JsonEscapes<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let is_c1 = |b: u8| (0x80..=0x9f).contains(&b);
        let mut start = 0;
        if self.held_lead && !buf.is_empty() {
            self.held_lead = false;
            if is_c1(buf[0]) {
                self.escape(buf[0])?;
                start = 1;
            } else {
                self.inner.write_all(&[0xc2])?;
            }
        }
        let mut i = start;
        while i < buf.len() {
            match buf[i] {
                0x7f => {
                    self.inner.write_all(&buf[start..i])?;
                    self.escape(0x7f)?;
                    i += 1;
                    start = i;
                }
                0xc2 if i + 1 == buf.len() => {
                    self.inner.write_all(&buf[start..i])?;
                    self.held_lead = true;
                    i += 1;
                    start = i;
                }
                0xc2 if is_c1(buf[i + 1]) => {
                    self.inner.write_all(&buf[start..i])?;
                    self.escape(buf[i + 1])?;
                    i += 2;
                    start = i;
                }
                _ => i += 1,
            }
        }
        self.inner.write_all(&buf[start..])?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if std::mem::take(&mut self.held_lead) {
            self.inner.write_all(&[0xc2])?;
        }
        self.inner.flush()
    }
}

/// What one byte of a source line is shown as.
fn shown(c: char) -> Option<char> {
    match c {
        '\t' => None,
        // Control pictures: U+2400 + the code for C0, U+2421 for DEL.
        '\0'..='\x1f' => char::from_u32(0x2400 + c as u32),
        '\x7f' => Some('\u{2421}'),
        c if c.is_control() => Some('\u{fffd}'),
        _ => None,
    }
}

/// The source a diagnostic needs, and only that: the lines its spans touch, each cut to windows
/// around the spans when long, sanitized; the lines in between are left empty (never drawn). It
/// keeps the real line numbers and columns for codespan-reporting ([`Files`]).
struct Excerpt<'a> {
    name: String,
    src: &'a [u8],
    lines: &'a LineIndex,
    /// The 0-based line of the input that the excerpt's first line is.
    first_line: usize,
    text: String,
    line_starts: Vec<usize>,
    /// Each kept piece of the input: its input range and where each of its bytes is in `text`
    /// (one more entry than bytes, for the end).
    pieces: Vec<(Range<usize>, Vec<usize>)>,
    /// The spans to draw (primary first), clamped to what is shown.
    spans: Vec<Span>,
    /// Where the primary span starts in the input.
    primary_start: usize,
}

impl<'a> Excerpt<'a> {
    fn new(name: &str, src: &'a [u8], lines: &'a LineIndex, v: &Violation) -> Self {
        let mut spans: Vec<Span> = std::iter::once(v.span)
            .chain(v.related.iter().map(|(s, _)| *s))
            .collect();
        for span in &mut spans {
            span.start = span.start.min(src.len());
            span.end = span.end.clamp(span.start, src.len());
            let (first, last) = (lines.line_of(span.start), lines.line_of(span.end));
            if last - first > MULTI_LINE_SHOWN {
                // Drawn on its first line only.
                span.end = lines.line_span(src, first).1.max(span.start);
            }
        }
        let first_line = spans
            .iter()
            .map(|s| lines.line_of(s.start))
            .min()
            .unwrap_or(0);
        let last_line = spans
            .iter()
            .map(|s| lines.line_of(s.end))
            .max()
            .unwrap_or(0);
        let mut excerpt = Excerpt {
            name: printable(if name == "-" { "<stdin>" } else { name }),
            src,
            lines,
            first_line,
            text: String::new(),
            line_starts: Vec::new(),
            pieces: Vec::new(),
            spans: Vec::new(),
            primary_start: spans[0].start,
        };
        for line in first_line..=last_line {
            excerpt.line_starts.push(excerpt.text.len());
            let (start, end) = lines.line_span(src, line);
            let on_line: Vec<Range<usize>> = spans
                .iter()
                .filter(|s| s.start <= end && s.end >= start)
                .map(|s| s.start.max(start)..s.end.min(end))
                .collect();
            if !on_line.is_empty() {
                excerpt.push_line(start..end, &on_line);
            }
            excerpt.text.push('\n');
        }
        excerpt.spans = spans.iter().map(|s| excerpt.map_span(*s)).collect();
        excerpt
    }

    /// The parts of the line `line` worth showing around `marks` (all of it when short).
    fn push_line(&mut self, line: Range<usize>, marks: &[Range<usize>]) {
        if line.len() <= SHORT_LINE {
            self.push_piece(line);
            return;
        }
        let mut windows: Vec<Range<usize>> = Vec::new();
        for mark in marks {
            let before = mark.start.saturating_sub(CONTEXT).max(line.start);
            if mark.len() > SPAN_SHOWN {
                // Its head and its tail, the middle cut.
                windows.push(before..mark.start + SPAN_SHOWN * 3 / 4);
                windows.push(mark.end - SPAN_SHOWN / 4..(mark.end + CONTEXT).min(line.end));
            } else {
                windows.push(before..(mark.end + CONTEXT).min(line.end));
            }
        }
        windows.sort_by_key(|w| w.start);
        let mut merged: Vec<Range<usize>> = Vec::new();
        for w in windows {
            let w = self.char_start(w.start)..self.char_start(w.end);
            match merged.last_mut() {
                Some(last) if w.start <= last.end => last.end = last.end.max(w.end),
                _ => merged.push(w),
            }
        }
        if merged.first().is_some_and(|w| w.start > line.start) {
            self.text.push('…');
        }
        for (i, w) in merged.iter().enumerate() {
            if i > 0 {
                self.text.push_str(" … ");
            }
            self.push_piece(w.clone());
        }
        if merged.last().is_some_and(|w| w.end < line.end) {
            self.text.push('…');
        }
    }

    /// The nearest character start at or before `at`.
    fn char_start(&self, mut at: usize) -> usize {
        while at > 0 && at < self.src.len() && self.src[at] & 0xC0 == 0x80 {
            at -= 1;
        }
        at
    }

    /// Copies `range` of the input into the text, sanitized, remembering where each byte went.
    fn push_piece(&mut self, range: Range<usize>) {
        let mut at = Vec::with_capacity(range.len() + 1);
        let mut rest = &self.src[range.clone()];
        while !rest.is_empty() {
            let (valid, bad) = match std::str::from_utf8(rest) {
                Ok(s) => (s, 0),
                Err(e) => (
                    std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or_default(),
                    e.error_len().unwrap_or(rest.len() - e.valid_up_to()),
                ),
            };
            for c in valid.chars() {
                let here = self.text.len();
                at.extend(std::iter::repeat_n(here, c.len_utf8()));
                self.text.push(shown(c).unwrap_or(c));
            }
            for _ in 0..bad {
                at.push(self.text.len());
                self.text.push('\u{fffd}');
            }
            rest = &rest[valid.len() + bad..];
        }
        at.push(self.text.len());
        self.pieces.push((range, at));
    }

    /// Where input byte `offset` is in the text (the nearest kept byte when it was cut away).
    fn map(&self, offset: usize) -> usize {
        for (range, at) in &self.pieces {
            if range.contains(&offset) || offset == range.end {
                return at[offset - range.start];
            }
        }
        // Cut away (or on an empty line): the end of the nearest piece before it, else the line's start.
        let line = self.lines.line_of(offset).saturating_sub(self.first_line);
        let line_start = self.line_starts.get(line).copied().unwrap_or(0);
        self.pieces
            .iter()
            .filter(|(range, at)| {
                range.end <= offset && at.last().is_some_and(|&end| end >= line_start)
            })
            .map(|(_, at)| *at.last().unwrap_or(&line_start))
            .max()
            .unwrap_or(line_start)
    }

    fn map_span(&self, span: Span) -> Span {
        let start = self.map(span.start);
        Span::new(start, self.map(span.end).max(start))
    }

    /// The input byte shown at text offset `at` (for the `--> file:line:column` header).
    fn unmap(&self, at: usize) -> usize {
        for (range, offsets) in &self.pieces {
            if let Some(i) = offsets.iter().position(|&o| o == at) {
                return range.start + i;
            }
        }
        self.primary_start
    }

    fn diagnostic(&self, v: &Violation) -> Diagnostic<()> {
        let level = match v.severity {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
        };
        let mut labels = Vec::with_capacity(self.spans.len());
        for (i, span) in self.spans.iter().enumerate() {
            let range = span.start..span.end;
            labels.push(match i {
                0 => Label::primary((), range),
                _ => Label::secondary((), range).with_message(printable(&v.related[i - 1].1)),
            });
        }
        let at = if v.path.is_empty() {
            "the document root".to_string()
        } else {
            printable(&v.path)
        };
        let section = v.section();
        let mut notes = vec![format!("at {at}")];
        if let Some(place) = v.place.as_deref() {
            for (what, spot) in [("method", &place.method), ("schema", &place.schema)] {
                if let Some(spot) = spot {
                    notes.push(format!(
                        "{what} in the OpenRPC document at {}:{} ({})",
                        spot.line,
                        spot.column,
                        printable(&spot.pointer)
                    ));
                }
            }
        }
        notes.push(format!(
            "spec: {} {} <{}>",
            section.name, section.title, section.url
        ));
        Diagnostic::new(level)
            .with_code(v.rule.id)
            .with_message(printable(&v.message))
            .with_labels(labels)
            .with_notes(notes)
    }
}

impl<'f> Files<'f> for Excerpt<'_> {
    type FileId = ();
    type Name = &'f str;
    type Source = &'f str;

    fn name(&'f self, (): ()) -> Result<&'f str, FilesError> {
        Ok(&self.name)
    }

    fn source(&'f self, (): ()) -> Result<&'f str, FilesError> {
        Ok(&self.text)
    }

    fn line_index(&'f self, (): (), byte_index: usize) -> Result<usize, FilesError> {
        Ok(self
            .line_starts
            .partition_point(|&s| s <= byte_index)
            .saturating_sub(1))
    }

    fn line_number(&'f self, (): (), line_index: usize) -> Result<usize, FilesError> {
        Ok(self.first_line + line_index + 1)
    }

    fn line_range(&'f self, (): (), line_index: usize) -> Result<Range<usize>, FilesError> {
        let start = *self
            .line_starts
            .get(line_index)
            .ok_or(FilesError::LineTooLarge {
                given: line_index,
                max: self.line_starts.len(),
            })?;
        let end = self
            .line_starts
            .get(line_index + 1)
            .copied()
            .unwrap_or(self.text.len());
        Ok(start..end)
    }

    /// The real line and column in the input (columns count characters, as the JSON report does).
    fn location(&'f self, (): (), byte_index: usize) -> Result<Location, FilesError> {
        let position = self.lines.position(self.src, self.unmap(byte_index));
        Ok(Location {
            line_number: position.line,
            column_number: position.column,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::{printable, JsonEscapes};

    #[test]
    fn json_escapes_write_del_and_c1_as_escapes_even_split_between_writes() {
        let text = "{\"a\":\"x\u{9b}31m\u{7f}\u{1b}é\u{85}\"}";
        let bytes = text.as_bytes();
        for cut in 0..=bytes.len() {
            let mut out = JsonEscapes::new(Vec::new());
            out.write_all(&bytes[..cut]).unwrap();
            out.write_all(&bytes[cut..]).unwrap();
            out.flush().unwrap();
            let written = String::from_utf8(out.inner).unwrap();
            assert_eq!(
                written, "{\"a\":\"x\\u009b31m\\u007f\u{1b}é\\u0085\"}",
                "cut at {cut}"
            );
        }
    }

    #[test]
    fn printable_escapes_c0_del_and_c1() {
        assert_eq!(
            printable("a\u{1b}[31m\u{7}\u{7f}\u{9b}b"),
            "a\\u001b[31m\\u0007\\u007f\\u009bb"
        );
    }
}
