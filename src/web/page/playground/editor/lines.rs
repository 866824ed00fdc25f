//! The editor's mirror as plain data: the text cut into lines, each with its syntax tokens and
//! the underlined pieces of violations that touch it. Lines are keyed: a line whose text and
//! underlines did not change keeps its key (and so its DOM) from one keystroke to the next.
//! Offsets here are bytes; UTF-16 only exists in the editor component.

use std::sync::Arc;

use crate::json::Span;
use crate::rpc::Severity;

/// One violation to underline, in the editor's text.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub span: Span,
    pub severity: Severity,
    pub rule: &'static str,
    pub message: String,
}

/// An underlined piece of one line (line-local byte offsets). An empty piece (`start == end`)
/// marks a place at the end of the line (an error "at the end of the document").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seg {
    pub start: usize,
    pub end: usize,
    /// The worst severity of the marks covering this piece.
    pub severity: Severity,
    /// Indices into the mark list.
    pub marks: Vec<u32>,
}

/// One line of the mirror.
#[derive(Debug, PartialEq, Eq)]
pub struct Line {
    /// Monotonic key for the keyed list.
    pub key: u64,
    /// The line's text without its `\n`.
    pub text: String,
    /// A whole-line `//` comment of a transcript (the engine skips it: never a document).
    pub comment: bool,
    pub segs: Vec<Seg>,
}

/// Every line of the text.
#[derive(Clone, Debug, Default)]
pub struct Lines {
    pub rows: Vec<Arc<Line>>,
    pub next_key: u64,
}

/// Lines are equal when they hold the same keys (a key names one text with one set of underlines).
impl PartialEq for Lines {
    fn eq(&self, other: &Self) -> bool {
        self.rows.len() == other.rows.len()
            && self
                .rows
                .iter()
                .zip(&other.rows)
                .all(|(a, b)| a.key == b.key)
    }
}

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r')
}

/// Byte ranges of the lines of `text` (without their `\n`).
fn line_ranges(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(text.len() / 40 + 1);
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' {
            out.push((start, i));
            start = i + 1;
        }
    }
    out.push((start, text.len()));
    out
}

/// The underlined pieces of each line touched by a mark, as `(line, start, end, mark)`.
fn pieces(
    text: &str,
    ranges: &[(usize, usize)],
    marks: &[Mark],
) -> Vec<(usize, usize, usize, u32)> {
    let bytes = text.as_bytes();
    let line_of = |offset: usize| {
        ranges
            .partition_point(|&(s, _)| s <= offset)
            .saturating_sub(1)
    };
    let mut out = Vec::new();
    for (m, mark) in marks.iter().enumerate() {
        let m = m as u32;
        let (start, end) = (
            mark.span.start.min(text.len()),
            mark.span.end.min(text.len()),
        );
        if start >= end {
            // A place, not a range: underline the character there, or mark the line's end.
            let line = line_of(start);
            let (ls, le) = ranges[line];
            let trimmed_end = ls
                + bytes[ls..le]
                    .iter()
                    .rposition(|&b| !is_blank(b))
                    .map_or(0, |p| p + 1);
            if start < trimmed_end {
                let width = text[start..].chars().next().map_or(1, char::len_utf8);
                out.push((line, start - ls, start - ls + width, m));
            } else {
                out.push((line, le - ls, le - ls, m));
            }
            continue;
        }
        let first_line = line_of(start);
        for (line, &(ls, le)) in ranges
            .iter()
            .enumerate()
            .take(line_of(end - 1) + 1)
            .skip(first_line)
        {
            // Skip indentation and trailing blanks: a multi-line span underlines the text only.
            let Some(first) = bytes[ls..le].iter().position(|&b| !is_blank(b)) else {
                continue;
            };
            let last = bytes[ls..le]
                .iter()
                .rposition(|&b| !is_blank(b))
                .unwrap_or(first)
                + 1;
            let s = start.max(ls + first);
            let e = end.min(ls + last);
            if s < e {
                out.push((line, s - ls, e - ls, m));
            }
        }
    }
    // By (line, start) then (end, mark), through the one compiled sort (crate::order).
    let mut keys: Vec<(u64, u64)> = out
        .iter()
        .map(|&(l, s, e, m)| ((l as u64) << 32 | s as u64, (e as u64) << 32 | u64::from(m)))
        .collect();
    crate::order::sort_pairs(&mut keys);
    keys.into_iter()
        .map(|(a, b)| {
            (
                (a >> 32) as usize,
                a as u32 as usize,
                (b >> 32) as usize,
                b as u32,
            )
        })
        .collect()
}

/// Turns the (possibly overlapping) underlined pieces of one line into disjoint segments.
fn segments(pieces: &[(usize, usize, usize, u32)], marks: &[Mark]) -> Vec<Seg> {
    let severity = |ids: &[u32]| {
        ids.iter()
            .map(|&i| marks[i as usize].severity)
            .max()
            .unwrap_or(Severity::Warning)
    };
    let mut pairs: Vec<(u64, u64)> = pieces
        .iter()
        .filter(|p| p.1 < p.2)
        .flat_map(|p| [(p.1 as u64, 0), (p.2 as u64, 0)])
        .collect();
    crate::order::sort_pairs(&mut pairs);
    let mut cuts: Vec<usize> = pairs.into_iter().map(|(c, _)| c as usize).collect();
    cuts.dedup();
    let mut segs: Vec<Seg> = Vec::new();
    for w in cuts.windows(2) {
        let (a, b) = (w[0], w[1]);
        let ids: Vec<u32> = pieces
            .iter()
            .filter(|p| p.1 <= a && b <= p.2 && p.1 < p.2)
            .map(|p| p.3)
            .collect();
        if ids.is_empty() {
            continue;
        }
        match segs.last_mut() {
            Some(last) if last.end == a && last.marks == ids => last.end = b,
            _ => segs.push(Seg {
                start: a,
                end: b,
                severity: severity(&ids),
                marks: ids,
            }),
        }
    }
    // Places at the end of the line come last (they are never before a non-empty piece's end).
    let points: Vec<u32> = pieces.iter().filter(|p| p.1 == p.2).map(|p| p.3).collect();
    if let Some(at) = pieces.iter().find(|p| p.1 == p.2).map(|p| p.1) {
        segs.push(Seg {
            start: at,
            end: at,
            severity: severity(&points),
            marks: points,
        });
    }
    segs
}

impl Lines {
    /// The lines of `text` underlined with `marks`, reusing the keys of `prev` for lines that did
    /// not change (compared from the start and from the end, so one edit costs one pass).
    pub fn build(text: &str, marks: &[Mark], prev: Option<&Lines>) -> Lines {
        let ranges = line_ranges(text);
        let pieces = pieces(text, &ranges, marks);
        let empty = Lines::default();
        let prev = prev.unwrap_or(&empty);
        let old = &prev.rows;
        let (n, o) = (ranges.len(), old.len());
        let same = |i: usize, j: usize| {
            old[j].text.as_bytes() == &text.as_bytes()[ranges[i].0..ranges[i].1]
        };
        let mut prefix = 0;
        while prefix < n.min(o) && same(prefix, prefix) {
            prefix += 1;
        }
        let mut suffix = 0;
        while suffix < n.min(o) - prefix && same(n - 1 - suffix, o - 1 - suffix) {
            suffix += 1;
        }
        // The engine's own test of what a comment line is (jsonrpc-json's stream module).
        let transcript = crate::json::has_marker_line(text.as_bytes());
        let mut next_key = prev.next_key;
        let mut rows = Vec::with_capacity(n);
        let mut p = 0;
        for (i, &(ls, le)) in ranges.iter().enumerate() {
            let start = p;
            while p < pieces.len() && pieces[p].0 == i {
                p += 1;
            }
            let segs = if start == p {
                Vec::new()
            } else {
                segments(&pieces[start..p], marks)
            };
            let candidate = if i < prefix {
                Some(&old[i])
            } else if i >= n - suffix {
                Some(&old[i + o - n])
            } else {
                None
            };
            let comment = transcript && crate::json::is_comment_line(&text.as_bytes()[ls..le]);
            match candidate {
                Some(line) if line.segs == segs && line.comment == comment => {
                    rows.push(line.clone())
                }
                _ => {
                    next_key += 1;
                    rows.push(Arc::new(Line {
                        key: next_key,
                        text: text[ls..le].to_string(),
                        comment,
                        segs,
                    }));
                }
            }
        }
        Lines { rows, next_key }
    }
}

/// What a piece of a line is, for colouring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    /// Blanks.
    Space,
    /// A member name (a string followed by `:`).
    Key,
    Str,
    Num,
    /// `true`, `false`, `null`.
    Lit,
    /// `{ } [ ] , :`
    Punct,
    /// `-->` or `<--` at the start of a line.
    Marker,
    /// `// ...` after a marker, or a whole-line comment of a transcript.
    Comment,
    /// Anything else (a typo, a bare word).
    Other,
}

impl Tok {
    /// The CSS class (`None`: plain text).
    pub const fn class(self) -> Option<&'static str> {
        match self {
            Tok::Space => None,
            Tok::Key => Some("t-key"),
            Tok::Str => Some("t-str"),
            Tok::Num => Some("t-num"),
            Tok::Lit => Some("t-lit"),
            Tok::Punct => Some("t-punct"),
            Tok::Marker => Some("t-marker"),
            Tok::Comment => Some("t-comment"),
            Tok::Other => Some("t-other"),
        }
    }
}

/// The tokens of one line, covering it without gaps, in one pass. JSON strings cannot hold a raw
/// line break, so a line can be coloured alone; an unterminated string runs to the line's end.
/// `comment`: the line is a whole-line comment of a transcript ([`Line::comment`]).
pub fn tokens(line: &str, comment: bool) -> Vec<(usize, usize, Tok)> {
    let b = line.as_bytes();
    let mut out = Vec::with_capacity(b.len() / 4 + 1);
    let mut i = 0;
    while i < b.len() && is_blank(b[i]) {
        i += 1;
    }
    if i > 0 {
        out.push((0, i, Tok::Space));
    }
    if comment {
        out.push((i, b.len(), Tok::Comment));
        return out;
    }
    if matches!(b.get(i..i + 3), Some(b"-->" | b"<--")) {
        out.push((i, i + 3, Tok::Marker));
        i += 3;
        let mut j = i;
        while j < b.len() && is_blank(b[j]) {
            j += 1;
        }
        if b.get(j..j + 2) == Some(b"//") {
            if j > i {
                out.push((i, j, Tok::Space));
            }
            out.push((j, b.len(), Tok::Comment));
            return out;
        }
    }
    while i < b.len() {
        let start = i;
        let tok = match b[i] {
            c if is_blank(c) => {
                while i < b.len() && is_blank(b[i]) {
                    i += 1;
                }
                Tok::Space
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                let mut j = i;
                while j < b.len() && is_blank(b[j]) {
                    j += 1;
                }
                if b.get(j) == Some(&b':') {
                    Tok::Key
                } else {
                    Tok::Str
                }
            }
            b'-' | b'0'..=b'9' => {
                i += 1;
                while i < b.len() && matches!(b[i], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
                {
                    i += 1;
                }
                Tok::Num
            }
            b'{' | b'}' | b'[' | b']' | b',' | b':' => {
                i += 1;
                Tok::Punct
            }
            c if c.is_ascii_alphabetic() => {
                while i < b.len() && b[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                if matches!(&b[start..i], b"true" | b"false" | b"null") {
                    Tok::Lit
                } else {
                    Tok::Other
                }
            }
            _ => {
                i += line[i..].chars().next().map_or(1, char::len_utf8);
                Tok::Other
            }
        };
        // A backslash just before the end may step past it; stay on the line.
        out.push((start, i.min(b.len()), tok));
    }
    out
}
