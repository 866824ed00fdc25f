//! Splitting an input into documents: one message, a whitespace-separated stream of them (as on
//! the stdio transport), or a transcript whose lines start with `-->` (client to server) and `<--`
//! (server to client), as the specification writes its examples.
//!
//! Comments exist only in transcripts, and only as whole lines (JSON itself has none):
//! - `<-- // text` / `--> // text`: a marker followed by `//`, the specification's way of writing
//!   "nothing is returned" ([`Stream::comments`], with the side it speaks for);
//! - `// text` on a line of its own between documents, after optional spaces or tabs, as real
//!   projects' test transcripts carry above their exchanges ([`Stream::line_comments`]).
//!
//! An input is a transcript when any of its lines starts (after optional spaces or tabs) with
//! `-->` or `<--`. Everywhere else a `//` line stays what it is to a JSON reader: a parse error.
//! A `//` after a document on the same line, or inside one, is never a comment.

use super::parse::Scratch;
use super::{ParseError, Parsed, Span};

/// Who sent a document of a transcript.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// `-->`: client to server.
    Client,
    /// `<--`: server to client.
    Server,
}

impl Direction {
    pub const fn as_str(self) -> &'static str {
        match self {
            Direction::Client => "client",
            Direction::Server => "server",
        }
    }
}

/// One document of the input, parsed or not.
#[derive(Clone, Debug)]
pub struct Segment<'a> {
    /// The document's text; for a parse error, from its first byte to where parsing resumed.
    pub span: Span,
    /// Set in a transcript, by the last marker before the document.
    pub direction: Option<Direction>,
    pub parsed: Result<Parsed<'a>, ParseError>,
}

/// The documents of an input and what the input turned out to be.
#[derive(Clone, Debug, Default)]
pub struct Stream<'a> {
    pub segments: Vec<Segment<'a>>,
    /// True when at least one line starts with `-->` or `<--`.
    pub transcript: bool,
    /// `<-- // comment` lines: the spec's way of writing "nothing is returned".
    pub comments: Vec<(Direction, Span)>,
    /// Whole-line `// comment`s of a transcript (from `//` to the line's last non-blank byte).
    pub line_comments: Vec<Span>,
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// True when only spaces or tabs stand between the start of the line and `pos`.
fn at_line_start(src: &[u8], pos: usize) -> bool {
    let mut i = pos;
    while i > 0 && matches!(src[i - 1], b' ' | b'\t') {
        i -= 1;
    }
    i == 0 || src[i - 1] == b'\n'
}

/// Whether `line` (one line, without its `\n`) is a whole-line comment when it sits in a transcript:
/// `//` after optional spaces or tabs.
pub fn is_comment_line(line: &[u8]) -> bool {
    let text = line
        .iter()
        .position(|&b| !matches!(b, b' ' | b'\t'))
        .unwrap_or(line.len());
    line[text..].starts_with(b"//")
}

/// Whether some line of `src` starts, after optional spaces or tabs, with `-->` or `<--`: the
/// input is a transcript (see the module's documentation).
pub fn has_marker_line(src: &[u8]) -> bool {
    src.split(|&b| b == b'\n').any(|line| {
        let text = line
            .iter()
            .position(|&b| !matches!(b, b' ' | b'\t'))
            .unwrap_or(line.len());
        marker_at(line, text).is_some()
    })
}

/// Whether the input is a transcript, worked out the first time a `//` line asks (most inputs
/// have none and never pay for the scan) and remembered.
struct TranscriptTest<'s> {
    src: &'s [u8],
    known: Option<bool>,
}

impl TranscriptTest<'_> {
    fn holds(&mut self) -> bool {
        let src = self.src;
        *self.known.get_or_insert_with(|| has_marker_line(src))
    }

    /// Whether a whole-line comment starts at `pos` (the first non-blank byte of its line).
    fn comment_at(&mut self, pos: usize) -> bool {
        self.src.get(pos..pos + 2) == Some(b"//") && at_line_start(self.src, pos) && self.holds()
    }
}

fn marker_at(src: &[u8], pos: usize) -> Option<Direction> {
    match src.get(pos..pos + 3) {
        Some(b"-->") => Some(Direction::Client),
        Some(b"<--") => Some(Direction::Server),
        _ => None,
    }
}

/// Where parsing may resume after an error at `from` in a document starting at `start`: the next
/// line that starts with a transcript marker, or with `{` or `[` in its first column (a new
/// document), or in a transcript with a whole-line `//` comment. The error's own line counts when
/// the error is that line's first character (an unclosed document followed by the next one).
fn resync(src: &[u8], start: usize, from: usize, transcript: &mut TranscriptTest<'_>) -> usize {
    if from > start {
        let line = src[..from]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |n| n + 1);
        let mut text = line;
        while matches!(src.get(text), Some(b' ' | b'\t')) {
            text += 1;
        }
        // The error is on a later line that starts with a marker or a comment (wherever on it the
        // parser noticed: `-->` reads as the start of a number), or at a `{` or `[` in column 1.
        if line > start
            && text <= from
            && (marker_at(src, text).is_some() || transcript.comment_at(text))
        {
            return line;
        }
        if line == from && matches!(src.get(from), Some(b'{' | b'[')) {
            return line;
        }
    }
    let mut pos = from;
    loop {
        match src[pos.min(src.len())..].iter().position(|&b| b == b'\n') {
            None => return src.len(),
            Some(nl) => pos += nl + 1,
        }
        let mut text = pos;
        while matches!(src.get(text), Some(b' ' | b'\t')) {
            text += 1;
        }
        if marker_at(src, text).is_some()
            || matches!(src.get(pos), Some(b'{' | b'['))
            || transcript.comment_at(text)
        {
            return pos;
        }
    }
}

/// Where the line holding `pos` ends (its `\n`, or the end of the input).
fn line_end(src: &[u8], pos: usize) -> usize {
    src[pos..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(src.len(), |n| pos + n)
}

/// `end` moved back over trailing whitespace, not before `start`.
fn trim_end(src: &[u8], start: usize, mut end: usize) -> usize {
    while end > start && is_ws(src[end - 1]) {
        end -= 1;
    }
    end
}

/// Splits `src` into its documents, parsing each.
pub fn split_stream(src: &[u8]) -> Stream<'_> {
    // Checked once for the whole input: then every string of every document is a plain slice.
    split(src, std::str::from_utf8(src).ok())
}

/// [`split_stream`] of text already known to be UTF-8 (the page's editor text, a `String` from
/// JavaScript): the input is not validated a second time.
pub fn split_text(text: &str) -> Stream<'_> {
    split(text.as_bytes(), Some(text))
}

/// [`split_stream`], with `text` = `src` as `str` when all of it is UTF-8.
fn split<'a>(src: &'a [u8], text: Option<&'a str>) -> Stream<'a> {
    let mut out = Stream::default();
    let mut scratch = Scratch::default();
    let mut direction = None;
    let mut transcript = TranscriptTest { src, known: None };
    let mut pos = 0;
    loop {
        // Whitespace, markers, `<-- //` comments and whole-line `//` comments between documents.
        loop {
            while pos < src.len() && is_ws(src[pos]) {
                pos += 1;
            }
            if transcript.comment_at(pos) {
                let end = line_end(src, pos);
                out.line_comments
                    .push(Span::new(pos, trim_end(src, pos, end)));
                pos = end;
                continue;
            }
            let Some(dir) = marker_at(src, pos).filter(|_| at_line_start(src, pos)) else {
                break;
            };
            out.transcript = true;
            transcript.known = Some(true);
            direction = Some(dir);
            pos += 3;
            while matches!(src.get(pos), Some(b' ' | b'\t')) {
                pos += 1;
            }
            if src.get(pos..pos + 2) == Some(b"//") {
                let end = line_end(src, pos);
                out.comments
                    .push((dir, Span::new(pos, trim_end(src, pos, end))));
                pos = end;
            }
        }
        if pos >= src.len() {
            return out;
        }
        let start = pos;
        match scratch.parse(src, text, start) {
            Ok((parsed, end)) => {
                out.segments.push(Segment {
                    span: parsed.root.span,
                    direction,
                    parsed: Ok(parsed),
                });
                pos = end;
            }
            Err(mut error) => {
                let next = resync(src, start, error.span.start.max(start), &mut transcript);
                let mut end = next;
                while end > start && is_ws(src[end - 1]) {
                    end -= 1;
                }
                if next <= error.span.start {
                    // The document stopped short and the next one began: say so at its end.
                    let expected = match error
                        .message
                        .as_bytes()
                        .windows(8)
                        .position(|w| w == b", found ")
                    {
                        Some(at) => error.message[..at].to_string(),
                        None => error.message.clone(),
                    };
                    error.message = format!("{expected}, found the end of the document (the next line starts a new one)");
                    error.span = Span::new(end, end);
                }
                let end = end
                    .max(error.span.end.min(src.len()))
                    .max(start + 1)
                    .min(src.len());
                out.segments.push(Segment {
                    span: Span::new(start, end),
                    direction,
                    parsed: Err(error),
                });
                pos = next.max(start + 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(Option<Direction>, bool, String)> {
        split_stream(src.as_bytes())
            .segments
            .iter()
            .map(|s| {
                (
                    s.direction,
                    s.parsed.is_ok(),
                    src[s.span.start..s.span.end].to_string(),
                )
            })
            .collect()
    }

    #[test]
    fn whitespace_separated_documents() {
        assert_eq!(
            kinds("{\"a\":1}\n{\"b\":2} [3]"),
            vec![
                (None, true, "{\"a\":1}".into()),
                (None, true, "{\"b\":2}".into()),
                (None, true, "[3]".into())
            ]
        );
    }

    #[test]
    fn transcript_markers_set_direction_and_comments_are_kept() {
        let src = "--> {\"m\": 1}\n<-- [\n  1,\n  2\n]\n--> [1]\n<-- //Nothing is returned\n";
        let s = split_stream(src.as_bytes());
        assert!(s.transcript);
        let dirs: Vec<_> = s.segments.iter().map(|s| s.direction).collect();
        assert_eq!(
            dirs,
            vec![
                Some(Direction::Client),
                Some(Direction::Server),
                Some(Direction::Client)
            ]
        );
        assert_eq!(s.comments.len(), 1);
        assert_eq!(
            &src[s.comments[0].1.start..s.comments[0].1.end],
            "//Nothing is returned"
        );
    }

    #[test]
    fn parse_error_resumes_at_the_next_marker() {
        let src = "--> {\"jsonrpc\": \"2.0\", \"method\": \"foobar, \"params\": \"bar\", \"baz]\n<-- {\"id\": null}\n";
        let k = kinds(src);
        assert_eq!(k.len(), 2);
        assert!(!k[0].1);
        assert_eq!(
            k[0].2,
            "{\"jsonrpc\": \"2.0\", \"method\": \"foobar, \"params\": \"bar\", \"baz]"
        );
        assert_eq!(
            k[1],
            (Some(Direction::Server), true, "{\"id\": null}".into())
        );
    }

    #[test]
    fn parse_error_in_a_pretty_document_skips_its_indented_rest() {
        let src = "{\n  \"a\": 1,,\n  \"b\": 2\n}\n{\"c\": 3}";
        let k = kinds(src);
        assert_eq!(k.len(), 2, "{k:?}");
        assert!(!k[0].1);
        assert_eq!(k[1].2, "{\"c\": 3}");
    }

    #[test]
    fn an_unclosed_document_does_not_swallow_the_next_line() {
        let k = kinds("--> {\"a\": 1\n<-- {\"b\": 2}\n{\"c\": 1\n{\"d\": 2}");
        assert_eq!(k.len(), 4, "{k:?}");
        assert_eq!((k[0].1, k[0].2.as_str()), (false, "{\"a\": 1"));
        let s = split_stream(b"{\"a\": 1\n{\"b\": 2}");
        let e = s.segments[0].parsed.as_ref().unwrap_err();
        assert_eq!(e.span, Span::new(7, 7));
        assert_eq!(e.message, "expected ',' or '}' after an object member, found the end of the document (the next line starts a new one)");
        assert_eq!((k[1].0, k[1].1), (Some(Direction::Server), true));
        assert_eq!((k[2].1, k[3].1), (false, true));
    }

    #[test]
    fn a_document_cut_short_before_a_marker_line_leaves_that_line_its_own() {
        // `-->` reads as the start of a number, so the parser stops inside the marker.
        let k = kinds("--> {\"jsonrpc\": \n--> {\"b\": 2}\n<-- {\"c\": 3}");
        assert_eq!(k.len(), 3, "{k:?}");
        assert_eq!((k[0].1, k[0].2.as_str()), (false, "{\"jsonrpc\":"));
        assert_eq!(k[1], (Some(Direction::Client), true, "{\"b\": 2}".into()));
    }

    #[test]
    fn trailing_garbage_is_its_own_error() {
        let k = kinds("{} x");
        assert_eq!(k.len(), 2);
        assert!(k[0].1 && !k[1].1);
    }

    /// A transcript as real projects' tests write it: a comment above each exchange, blank lines
    /// between them, indented comments too.
    const COMMENTED: &str = "// This test checks that echo answers.\n// A second line.\n\n--> {\"m\": 1}\n<-- {\"r\": 1}\n\n  // Then a notification:\n\t// (nothing comes back)\n--> {\"n\": 2}\n<-- // nothing\n";

    #[test]
    fn whole_line_comments_of_a_transcript_are_not_documents() {
        let s = split_stream(COMMENTED.as_bytes());
        assert!(s.transcript);
        let k = kinds(COMMENTED);
        assert_eq!(
            k,
            vec![
                (Some(Direction::Client), true, "{\"m\": 1}".into()),
                (Some(Direction::Server), true, "{\"r\": 1}".into()),
                (Some(Direction::Client), true, "{\"n\": 2}".into()),
            ]
        );
        let texts: Vec<&str> = s
            .line_comments
            .iter()
            .map(|c| &COMMENTED[c.start..c.end])
            .collect();
        assert_eq!(
            texts,
            [
                "// This test checks that echo answers.",
                "// A second line.",
                "// Then a notification:",
                "// (nothing comes back)"
            ]
        );
        // The marker comment keeps its own list and side.
        assert_eq!(s.comments.len(), 1);
        assert_eq!(s.comments[0].0, Direction::Server);
    }

    #[test]
    fn a_comment_line_before_the_first_marker_counts_once_a_marker_appears_later() {
        let src = "// header\n// more\n--> {\"m\": 1}";
        assert_eq!(kinds(src).len(), 1);
        assert_eq!(split_stream(src.as_bytes()).line_comments.len(), 2);
    }

    #[test]
    fn outside_a_transcript_a_comment_line_is_a_parse_error() {
        for src in [
            "// note\n{\"a\": 1}",
            "{\"a\": 1}\n  // note\n",
            "// only a comment",
        ] {
            let s = split_stream(src.as_bytes());
            assert!(!s.transcript, "{src}");
            assert!(s.line_comments.is_empty(), "{src}");
            assert!(s.segments.iter().any(|seg| seg.parsed.is_err()), "{src}");
        }
    }

    #[test]
    fn a_comment_after_a_document_on_its_line_is_not_a_comment() {
        let k = kinds("--> {\"m\": 1} // trailing\n<-- {\"r\": 1}");
        assert_eq!(k.len(), 3, "{k:?}");
        assert!(k[0].1 && !k[1].1 && k[2].1);
        assert_eq!(k[1].2, "// trailing");
    }

    #[test]
    fn a_broken_document_stops_before_a_comment_line() {
        let src = "--> {\"a\": 1\n// the next exchange\n<-- {\"b\": 2}";
        let s = split_stream(src.as_bytes());
        let k = kinds(src);
        assert_eq!(k.len(), 2, "{k:?}");
        assert_eq!((k[0].1, k[0].2.as_str()), (false, "{\"a\": 1"));
        assert_eq!(k[1], (Some(Direction::Server), true, "{\"b\": 2}".into()));
        assert_eq!(s.line_comments.len(), 1);
        // Garbage before a comment line stops there too.
        let k = kinds("--> nonsense here\n// comment\n--> {}");
        assert_eq!(k.len(), 2, "{k:?}");
        assert_eq!(k[0].2, "nonsense here");
    }

    #[test]
    fn comment_lines_and_marker_lines_are_told_by_their_first_non_blank_bytes() {
        assert!(is_comment_line(b"// x"));
        assert!(is_comment_line(b" \t//"));
        assert!(!is_comment_line(b"/ / x"));
        assert!(!is_comment_line(b"{} // x"));
        assert!(!is_comment_line(b""));
        assert!(has_marker_line(b"{}\n  --> {}"));
        assert!(has_marker_line(b"<--"));
        assert!(!has_marker_line(b"{\"a\": \"-->\"}\n// x"));
    }

    #[test]
    fn empty_input_has_no_documents() {
        assert!(split_stream(b"  \n ").segments.is_empty());
    }
}
