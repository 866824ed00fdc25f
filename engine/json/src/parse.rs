//! The recursive-descent parser. It reads bytes (so input that is not UTF-8 is a located error,
//! not a crash), bounds nesting at [`MAX_DEPTH`] (so 100 000 `[` never overflow the stack) and
//! stops at the first error, saying what it expected and what it found.

use std::borrow::Cow;
use std::fmt;

use super::{JsonStr, Member, Node, ParseNote, Parsed, Span, Value};

/// An object's first members are checked for repeated names as they are read, by comparing each
/// with those before it; past this many, the rest are checked when the object closes.
const SCANNED_MEMBERS: usize = 16;

/// Deepest nesting of arrays and objects accepted. Real messages are a few levels deep; the bound
/// keeps recursion (here and in every tree walk) far from the stack's end, native and wasm.
pub const MAX_DEPTH: usize = 512;

/// Why a document is not JSON, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The offending bytes (empty at the end of input).
    pub span: Span,
    /// What the parser expected and what it found, e.g. "expected ',' or '}' after a member, found 'p'".
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (byte {})", self.message, self.span.start)
    }
}

impl std::error::Error for ParseError {}

/// Parses one JSON value starting at `start` (leading whitespace allowed) and returns it with the
/// offset just past it. Whatever follows is left to the caller (a stream holds several documents).
pub fn parse_document(src: &[u8], start: usize) -> Result<(Parsed<'_>, usize), ParseError> {
    Scratch::default().parse(src, None, start)
}

/// What parsing one document after another can share: `src` as text when all of it is UTF-8
/// (checked once, so each string is then a slice, not validated again), and the stacks where
/// array elements and object members wait until their container closes (then each container gets
/// one allocation of exactly its size, instead of growing by pushes and shrinking after).
#[derive(Default)]
pub(crate) struct Scratch<'a> {
    nodes: Vec<Node<'a>>,
    members: Vec<Member<'a>>,
}

impl<'a> Scratch<'a> {
    /// [`parse_document`], with `text` = `src` as `str` when the caller knows it is UTF-8.
    pub(crate) fn parse(
        &mut self,
        src: &'a [u8],
        text: Option<&'a str>,
        start: usize,
    ) -> Result<(Parsed<'a>, usize), ParseError> {
        self.nodes.clear();
        self.members.clear();
        let mut p = Parser {
            src,
            text,
            pos: start,
            notes: Vec::new(),
            nodes: std::mem::take(&mut self.nodes),
            members: std::mem::take(&mut self.members),
        };
        p.skip_ws();
        let root = p.value(0);
        self.nodes = p.nodes;
        self.members = p.members;
        Ok((
            Parsed {
                root: root?,
                notes: p.notes,
            },
            p.pos,
        ))
    }
}

struct Parser<'a> {
    src: &'a [u8],
    /// `src` as text, when all of it is UTF-8.
    text: Option<&'a str>,
    pos: usize,
    notes: Vec<ParseNote>,
    /// Elements of the arrays being parsed (innermost last).
    nodes: Vec<Node<'a>>,
    /// Members of the objects being parsed (innermost last).
    members: Vec<Member<'a>>,
}

/// Bytes that end a run of plain string text: '"', '\\' and the control characters.
static STRING_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// The value of each hex digit, 0xFF for every other byte.
static HEX: [u8; 256] = {
    let mut t = [0xFF; 256];
    let mut b = 0;
    while b < 10 {
        t[b'0' as usize + b] = b as u8;
        b += 1;
    }
    let mut b = 0;
    while b < 6 {
        t[b'a' as usize + b] = 10 + b as u8;
        t[b'A' as usize + b] = 10 + b as u8;
        b += 1;
    }
    t
};

/// How a byte reads in an error message.
fn describe(src: &[u8], at: usize) -> String {
    match src.get(at) {
        None => "the end of the input".to_string(),
        Some(&b) if b.is_ascii_graphic() => format!("'{}'", b as char),
        Some(b' ') => "a space".to_string(),
        Some(b'\n') => "a line break".to_string(),
        Some(b'\r') => "a carriage return".to_string(),
        Some(b'\t') => "a tab".to_string(),
        // Invisible when quoted: name it (RFC 8259 §8.1: no byte order mark in JSON text).
        Some(0xEF) if src[at..].starts_with(b"\xEF\xBB\xBF") => {
            "a byte order mark (U+FEFF; JSON text must not have one)".to_string()
        }
        Some(&b) if b < 0x80 => format!("the control character U+{b:04X}"),
        Some(_) => match std::str::from_utf8(&src[at..src.len().min(at + 4)]) {
            Ok(s) => s
                .chars()
                .next()
                .map(|c| format!("'{c}'"))
                .unwrap_or_default(),
            Err(e) if e.valid_up_to() > 0 => {
                let s = std::str::from_utf8(&src[at..at + e.valid_up_to()]).unwrap_or_default();
                s.chars()
                    .next()
                    .map(|c| format!("'{c}'"))
                    .unwrap_or_default()
            }
            Err(_) => format!("the byte 0x{:02X}, which is not UTF-8", src[at]),
        },
    }
}

/// The length of the character at `at` (1 for a byte that starts no valid UTF-8 sequence).
fn char_len(src: &[u8], at: usize) -> usize {
    let end = src.len().min(at + 4);
    match std::str::from_utf8(&src[at..end]) {
        Ok(s) => s.chars().next().map_or(1, char::len_utf8),
        Err(e) if e.valid_up_to() > 0 => std::str::from_utf8(&src[at..at + e.valid_up_to()])
            .ok()
            .and_then(|s| s.chars().next())
            .map_or(1, char::len_utf8),
        Err(_) => 1,
    }
}

/// The text of a string whose escapes [`Parser::string_value`] checked, decoded (a lone
/// surrogate becomes U+FFFD, as when it was parsed).
pub(super) fn decode_escaped(raw: &str) -> String {
    let mut p = Parser {
        src: raw.as_bytes(),
        text: Some(raw),
        pos: 0,
        notes: Vec::new(),
        nodes: Vec::new(),
        members: Vec::new(),
    };
    let mut out = String::with_capacity(raw.len());
    loop {
        let run_start = p.pos;
        p.plain_run();
        out.push_str(raw.get(run_start..p.pos).unwrap_or_default());
        if p.peek() != Some(b'\\') {
            // The end (or, not reached for checked text, a byte no string holds: kept as is).
            out.push_str(raw.get(p.pos..).unwrap_or_default());
            return out;
        }
        match p.escape() {
            Ok(c) => out.push(c),
            // Not reached for checked text; the rest kept as written rather than lost.
            Err(_) => {
                out.push_str(raw.get(p.pos..).unwrap_or_default());
                return out;
            }
        }
    }
}

impl<'a> Parser<'a> {
    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    /// Moves past whitespace. Hot and small: always inlined, and the position kept in a local
    /// while it moves (at opt-level "z" a loop on `self.pos` reads and writes memory each byte).
    #[inline(always)]
    fn skip_ws(&mut self) {
        let src = self.src;
        let mut pos = self.pos;
        while pos < src.len() && matches!(src[pos], b' ' | b'\t' | b'\n' | b'\r') {
            pos += 1;
        }
        self.pos = pos;
    }

    fn error_here(&self, expected: &str) -> ParseError {
        let len = if self.pos < self.src.len() {
            char_len(self.src, self.pos)
        } else {
            0
        };
        ParseError {
            span: Span::new(self.pos, self.pos + len),
            message: format!(
                "expected {expected}, found {}",
                describe(self.src, self.pos)
            ),
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node<'a>, ParseError> {
        let start = self.pos;
        let value = match self.peek() {
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => Value::String(self.string_value()?),
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(b't') => self.literal("true", Value::Bool(true))?,
            Some(b'f') => self.literal("false", Value::Bool(false))?,
            Some(b'n') => self.literal("null", Value::Null)?,
            _ => {
                return Err(self.error_here(
                    "a JSON value (object, array, string, number, true, false or null)",
                ))
            }
        };
        Ok(Node {
            span: Span::new(start, self.pos),
            value,
        })
    }

    fn literal(&mut self, word: &'static str, value: Value<'a>) -> Result<Value<'a>, ParseError> {
        let bytes = word.as_bytes();
        for (i, &b) in bytes.iter().enumerate() {
            if self.src.get(self.pos + i) != Some(&b) {
                let at = self.pos + i;
                let len = if at < self.src.len() {
                    char_len(self.src, at)
                } else {
                    0
                };
                return Err(ParseError {
                    span: Span::new(self.pos, at + len),
                    message: format!("expected `{word}`, found {} in it", describe(self.src, at)),
                });
            }
        }
        self.pos += bytes.len();
        Ok(value)
    }

    fn too_deep(&self) -> ParseError {
        ParseError {
            span: Span::new(self.pos, self.pos + 1),
            message: format!("expected at most {MAX_DEPTH} nested arrays and objects, found deeper nesting (no JSON-RPC message needs that)"),
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value<'a>, ParseError> {
        if depth >= MAX_DEPTH {
            return Err(self.too_deep());
        }
        self.pos += 1; // '['
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Value::Array(Vec::new()));
        }
        let mark = self.nodes.len();
        loop {
            self.skip_ws();
            if self.peek() == Some(b']') && self.nodes.len() > mark {
                return Err(ParseError {
                    span: Span::new(self.pos, self.pos + 1),
                    message:
                        "expected a value after ',', found ']' (JSON allows no trailing comma)"
                            .into(),
                });
            }
            let item = self.value(depth + 1)?;
            self.nodes.push(item);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    // One allocation of exactly the array's length.
                    return Ok(Value::Array(self.nodes.split_off(mark)));
                }
                _ => return Err(self.error_here("',' or ']' after an array element")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value<'a>, ParseError> {
        if depth >= MAX_DEPTH {
            return Err(self.too_deep());
        }
        self.pos += 1; // '{'
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Value::Object(Vec::new()));
        }
        let mark = self.members.len();
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b'"') => {}
                Some(b'}') if self.members.len() > mark => {
                    return Err(ParseError {
                        span: Span::new(self.pos, self.pos + 1),
                        message: "expected a member name after ',', found '}' (JSON allows no trailing comma)".into(),
                    })
                }
                Some(b'\'') => return Err(self.error_here("a member name in double quotes (JSON has no single quotes)")),
                _ => return Err(self.error_here("a member name in double quotes")),
            }
            let key_start = self.pos;
            let key = self.string()?;
            let key_span = Span::new(key_start, self.pos);
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.error_here("':' after the member name"));
            }
            self.pos += 1;
            self.skip_ws();
            let value = self.value(depth + 1)?;
            // The first members are compared with each other as they come (lengths first: most
            // names differ in length, and then no string comparison is made); a larger object's
            // later members are checked once it closes, by sorting (linear scans would make a
            // 160,000-member object cost 10^10 comparisons).
            if self.members.len() - mark < SCANNED_MEMBERS {
                if let Some(first) = self.members[mark..]
                    .iter()
                    .find(|m| m.key.len() == key.len() && m.key == key)
                {
                    self.notes.push(ParseNote::DuplicateMember {
                        key: key.to_string(),
                        first: first.key_span,
                        second: key_span,
                    });
                }
            }
            self.members.push(Member {
                key,
                key_span,
                value,
            });
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    if self.members.len() - mark > SCANNED_MEMBERS {
                        self.later_duplicates(mark);
                    }
                    // One allocation of exactly the object's size.
                    return Ok(Value::Object(self.members.split_off(mark)));
                }
                _ => return Err(self.error_here("',' or '}' after an object member")),
            }
        }
    }

    /// Notes the duplicate names of the object whose members start at `mark` that the scan as
    /// they came did not compare (those after the first [`SCANNED_MEMBERS`]): members sorted by the
    /// hash of their name (integer pairs, the one compiled sort: [`crate::order`]; a sort by the
    /// names themselves compiled to 15 KB of wasm), so equal names are neighbours; each repeat is
    /// paired with the name's first occurrence, as the scan pairs them. The hash is std's
    /// (SipHash, randomly keyed natively): names crafted to collide cannot make it quadratic.
    #[inline(never)]
    fn later_duplicates(&mut self, mark: usize) {
        use std::hash::BuildHasher;
        let members = &self.members[mark..];
        let hasher = std::collections::hash_map::RandomState::new();
        let mut pairs: Vec<(u64, u64)> = members
            .iter()
            .enumerate()
            .map(|(i, m)| (hasher.hash_one(&*m.key), i as u64))
            .collect();
        crate::order::sort_pairs(&mut pairs);
        let mut found: Vec<(usize, ParseNote)> = Vec::new();
        for group in pairs.chunk_by(|a, b| a.0 == b.0) {
            for (n, &(_, later)) in group.iter().enumerate().skip(1) {
                let later = later as usize;
                let name = &members[later].key;
                // The group is in source order: the first member with this name.
                let first = group[..n]
                    .iter()
                    .map(|&(_, i)| &members[i as usize])
                    .find(|m| m.key == *name);
                if let (Some(first), true) = (first, later >= SCANNED_MEMBERS) {
                    found.push((
                        later,
                        ParseNote::DuplicateMember {
                            key: first.key.to_string(),
                            first: first.key_span,
                            second: members[later].key_span,
                        },
                    ));
                }
            }
        }
        crate::order::sort_by_key(&mut found, |(later, _)| *later as u64);
        self.notes.extend(found.into_iter().map(|(_, note)| note));
    }

    /// A string value starting at the opening quote: its text as written, checked (escapes
    /// included) but not decoded. Most string values of a message are never read (a tool's
    /// text, a log line), and decoding each one with escapes cost an allocation and a copy: a
    /// value is decoded when it is first read ([`JsonStr`]). Not inlined (only the keys' copy
    /// of the fast path is: the same speed for less code).
    #[inline(never)]
    fn string_value(&mut self) -> Result<JsonStr<'a>, ParseError> {
        let (open, content_start) = (self.pos, self.pos + 1);
        if let Some(text) = self.plain_string() {
            return Ok(JsonStr::plain(text));
        }
        let (raw, escaped) = self.string_rest(open, content_start, None)?;
        Ok(if escaped {
            JsonStr::escaped(raw)
        } else {
            JsonStr::plain(raw)
        })
    }

    /// A member name starting at the opening quote; returns its decoded text (names are compared
    /// with each other and with the protocol's, so each is decoded at once). Inlined into the
    /// member loop in optimized builds: the fast path is small and runs for every key (as a call,
    /// at opt-level "s", the check took 5-10% longer in wasm). Not in debug builds, whose frames
    /// are so large that the recursion to [`MAX_DEPTH`] would not fit a test thread's stack.
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn string(&mut self) -> Result<Cow<'a, str>, ParseError> {
        let (open, content_start) = (self.pos, self.pos + 1);
        if let Some(text) = self.plain_string() {
            return Ok(Cow::Borrowed(text));
        }
        let mut out = String::new();
        let (raw, escaped) = self.string_rest(open, content_start, Some(&mut out))?;
        Ok(if escaped {
            Cow::Owned(out)
        } else {
            Cow::Borrowed(raw)
        })
    }

    /// The fast path of a string starting at the opening quote: no escapes, and the input
    /// already known to be UTF-8: its text, past the closing quote. Otherwise `None`, with `pos`
    /// at the end of the plain start for [`Self::string_rest`].
    #[inline(always)]
    fn plain_string(&mut self) -> Option<&'a str> {
        let content_start = self.pos + 1;
        self.pos = content_start;
        self.plain_run();
        if self.peek() != Some(b'"') {
            return None;
        }
        let text = self.text.and_then(|t| t.get(content_start..self.pos))?;
        self.pos += 1;
        Some(text)
    }

    /// The rest of a string after its plain start `src[content_start..pos]`: the closing quote
    /// (text not yet known to be UTF-8), escapes, or an error. Returns the text between the quotes
    /// as written and whether it holds escapes; with `decoded`, the escapes are decoded into it.
    #[inline(never)]
    fn string_rest(
        &mut self,
        open: usize,
        content_start: usize,
        mut decoded: Option<&mut String>,
    ) -> Result<(&'a str, bool), ParseError> {
        match self.peek() {
            None => return Err(self.unterminated(open)),
            Some(b'"') => {
                let text = self.utf8(content_start, self.pos)?;
                self.pos += 1;
                return Ok((text, false));
            }
            Some(b'\\') => {}
            Some(_) => return Err(self.control_in_string()),
        }
        // Slow path: every escape checked (and decoded when asked).
        let first = self.utf8(content_start, self.pos)?;
        if let Some(out) = decoded.as_deref_mut() {
            out.push_str(first);
        }
        // Only checked, not decoded, when the whole input is known to be UTF-8: then the runs
        // between escapes need no look either.
        let check_only = decoded.is_none() && self.text.is_some();
        loop {
            let run_start = self.pos;
            self.plain_run();
            if !check_only {
                let run = self.utf8(run_start, self.pos)?;
                if let Some(out) = decoded.as_deref_mut() {
                    out.push_str(run);
                }
            }
            match self.peek() {
                None => return Err(self.unterminated(open)),
                Some(b'"') => {
                    let raw = self.utf8(content_start, self.pos)?;
                    self.pos += 1;
                    return Ok((raw, true));
                }
                Some(b'\\') if check_only && self.skip_plain_escape() => {}
                Some(b'\\') => {
                    let c = self.escape()?;
                    if let Some(out) = decoded.as_deref_mut() {
                        out.push(c);
                    }
                }
                Some(_) => return Err(self.control_in_string()),
            }
        }
    }

    /// Moves past string text up to the next '"', '\\', control character or the end: eight
    /// bytes at a time while they last (a string's text is usually longer than its quotes).
    #[inline(always)]
    fn plain_run(&mut self) {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGHS: u64 = 0x8080_8080_8080_8080;
        let mut pos = self.pos;
        while let Some(chunk) = self.src.get(pos..pos + 8) {
            let Ok(bytes) = <[u8; 8]>::try_from(chunk) else {
                break;
            };
            let x = u64::from_le_bytes(bytes);
            // A high bit set for each byte that is '"', '\\' or below 0x20. Borrows may flag a
            // byte above a match as well, never one below it: the lowest flag is the first stop.
            let quote = x ^ (ONES * b'"' as u64);
            let backslash = x ^ (ONES * b'\\' as u64);
            let stops = (quote.wrapping_sub(ONES) & !quote
                | backslash.wrapping_sub(ONES) & !backslash
                | x.wrapping_sub(ONES * 0x20) & !x)
                & HIGHS;
            if stops != 0 {
                self.pos = pos + (stops.trailing_zeros() / 8) as usize;
                return;
            }
            pos += 8;
        }
        let rest = self.src.get(pos..).unwrap_or_default();
        self.pos = pos
            + rest
                .iter()
                .position(|&b| STRING_STOP[b as usize])
                .unwrap_or(rest.len());
    }

    /// `src[at..end]` as text (both ends next to ASCII bytes), or where it is not UTF-8.
    fn utf8(&self, at: usize, end: usize) -> Result<&'a str, ParseError> {
        if let Some(text) = self.text {
            // Already known to be UTF-8: a slice, checked only at its two ends.
            return Ok(text.get(at..end).unwrap_or_default());
        }
        let bytes = &self.src[at..end];
        std::str::from_utf8(bytes).map_err(|e| {
            let bad = at + e.valid_up_to();
            ParseError {
                span: Span::new(bad, bad + e.error_len().unwrap_or(1)),
                message: format!(
                    "expected UTF-8 text in the string, found the byte 0x{:02X} (JSON text must be UTF-8)",
                    self.src[bad]
                ),
            }
        })
    }

    fn unterminated(&self, open: usize) -> ParseError {
        ParseError {
            span: Span::new(open, self.pos),
            message: "expected '\"' to close the string, found the end of the input".into(),
        }
    }

    fn control_in_string(&self) -> ParseError {
        let b = self.src[self.pos];
        let name = match b {
            b'\n' => "a line break".to_string(),
            b'\t' => "a tab".to_string(),
            b'\r' => "a carriage return".to_string(),
            _ => format!("the control character U+{b:04X}"),
        };
        ParseError {
            span: Span::new(self.pos, self.pos + 1),
            message: format!("expected '\"' or more string text, found {name} (write it escaped, e.g. \\n, \\t or \\u{b:04X})"),
        }
    }

    /// Moves past the escape at the backslash at `pos` when it is well-formed and stands for one
    /// character of its own (not half of a surrogate pair): the common escapes, checked without
    /// being decoded. Anything else is left to [`Self::escape`], which decodes, notes and reports.
    #[inline(always)]
    fn skip_plain_escape(&mut self) -> bool {
        let at = self.pos;
        match self.src.get(at + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                self.pos = at + 2;
                true
            }
            Some(b'u') => match self.unicode_escape(at) {
                // A character of its own.
                Some(unit) if !(0xD800..0xE000).contains(&unit) => {
                    self.pos = at + 6;
                    true
                }
                // A high surrogate followed by a low one: one character (an emoji).
                Some(0xD800..0xDC00) => match self.unicode_escape(at + 6) {
                    Some(0xDC00..0xE000) if self.src.get(at + 6) == Some(&b'\\') => {
                        self.pos = at + 12;
                        true
                    }
                    _ => false,
                },
                _ => false,
            },
            _ => false,
        }
    }

    /// The code unit of the `\uXXXX` escape whose backslash is at `at`, when it is one.
    #[inline(always)]
    fn unicode_escape(&self, at: usize) -> Option<u32> {
        let Some(&[b'u', a, b, c, d]) = self.src.get(at + 1..at + 6) else {
            return None;
        };
        let digits = [
            HEX[a as usize],
            HEX[b as usize],
            HEX[c as usize],
            HEX[d as usize],
        ];
        if digits.contains(&0xFF) {
            return None;
        }
        Some(digits.iter().fold(0, |v, &d| v << 4 | u32::from(d)))
    }

    /// One escape sequence starting at the backslash: moves past it and returns what it stands
    /// for (U+FFFD for a lone surrogate, which is noted).
    fn escape(&mut self) -> Result<char, ParseError> {
        let at = self.pos;
        let c = match self.src.get(at + 1) {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                let high = self.hex4(at)?;
                self.pos = at + 6;
                if (0xD800..0xDC00).contains(&high) {
                    if self.src.get(self.pos) == Some(&b'\\')
                        && self.src.get(self.pos + 1) == Some(&b'u')
                    {
                        let low = self.hex4(self.pos)?;
                        if (0xDC00..0xE000).contains(&low) {
                            self.pos += 6;
                            let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                            return Ok(char::from_u32(code).unwrap_or('\u{FFFD}'));
                        }
                    }
                    self.notes.push(ParseNote::LoneSurrogate {
                        span: Span::new(at, at + 6),
                    });
                    return Ok('\u{FFFD}');
                }
                return Ok(char::from_u32(high).unwrap_or_else(|| {
                    self.notes.push(ParseNote::LoneSurrogate {
                        span: Span::new(at, at + 6),
                    });
                    '\u{FFFD}'
                }));
            }
            _ => {
                self.pos = at + 1;
                let len = if self.pos < self.src.len() {
                    char_len(self.src, self.pos)
                } else {
                    0
                };
                return Err(ParseError {
                    span: Span::new(at, self.pos + len),
                    message: format!(
                        "expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX) after '\\', found {}",
                        describe(self.src, self.pos)
                    ),
                });
            }
        };
        self.pos = at + 2;
        Ok(c)
    }

    /// The four hex digits of a `\uXXXX` escape starting at `at` (the backslash).
    fn hex4(&self, at: usize) -> Result<u32, ParseError> {
        let mut v = 0;
        for i in 0..4 {
            let pos = at + 2 + i;
            let d = match self.src.get(pos) {
                Some(&b) if b.is_ascii_hexdigit() => (b as char).to_digit(16).unwrap_or(0),
                _ => {
                    let len = if pos < self.src.len() {
                        char_len(self.src, pos)
                    } else {
                        0
                    };
                    return Err(ParseError {
                        span: Span::new(at, pos + len),
                        message: format!(
                            "expected four hex digits after \\u, found {}",
                            describe(self.src, pos)
                        ),
                    });
                }
            };
            v = v * 16 + d;
        }
        Ok(v)
    }

    fn number(&mut self) -> Result<Value<'a>, ParseError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => {
                self.pos += 1;
                if let Some(b'0'..=b'9') = self.peek() {
                    return Err(ParseError {
                        span: Span::new(start, self.pos + 1),
                        message: "expected '.', 'e' or the number's end after 0, found a digit (JSON numbers have no leading zeros)".into(),
                    });
                }
            }
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.error_here("a digit in the number")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error_here("a digit after the decimal point"));
            }
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error_here("a digit in the exponent"));
            }
            self.digits();
        }
        // The grammar above admits only ASCII.
        Ok(Value::Number(match self.text {
            Some(text) => text.get(start..self.pos).unwrap_or("0"),
            None => std::str::from_utf8(&self.src[start..self.pos]).unwrap_or("0"),
        }))
    }

    #[inline(always)]
    fn digits(&mut self) {
        let src = self.src;
        let mut pos = self.pos;
        while pos < src.len() && src[pos].is_ascii_digit() {
            pos += 1;
        }
        self.pos = pos;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(src: &str) -> Node<'_> {
        let (parsed, end) = parse_document(src.as_bytes(), 0).expect("parses");
        assert_eq!(end, src.len());
        parsed.root
    }

    fn err(src: &str) -> ParseError {
        parse_document(src.as_bytes(), 0).expect_err("must fail")
    }

    #[test]
    fn spans_cover_keys_and_values() {
        let root = ok(r#"{"a": [1, "x"]}"#);
        let m = &root.members()[0];
        assert_eq!(m.key_span, Span::new(1, 4));
        assert_eq!(m.value.span, Span::new(6, 14));
        assert_eq!(m.value.as_array().unwrap()[1].span, Span::new(10, 13));
    }

    #[test]
    fn numbers_keep_source_text() {
        let root = ok("[1.0, 12345678901234567890, -0, 1E+2]");
        let texts: Vec<_> = root
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.value.clone())
            .collect();
        assert_eq!(
            texts,
            vec![
                Value::Number("1.0"),
                Value::Number("12345678901234567890"),
                Value::Number("-0"),
                Value::Number("1E+2")
            ]
        );
    }

    #[test]
    fn escapes_are_decoded_and_plain_strings_borrowed() {
        let root = ok(r#"["a\u00e9\n\ud83d\ude00", "plain"]"#);
        let items = root.as_array().unwrap();
        assert_eq!(items[0].as_str(), Some("aé\n😀"));
        assert!(matches!(&items[1].value, Value::String(s) if s.raw() == "plain"));
    }

    #[test]
    fn escaped_values_are_checked_at_once_and_decoded_when_read() {
        // Checked while parsing: a bad escape or a lone surrogate in a value is found then.
        assert!(parse_document(br#"{"a": "x\qy"}"#, 0).is_err());
        for (lone, notes) in [
            (&br#"{"a": "x\ud800y"}"#[..], 1),
            (br#"{"a": "\ud83d\u0041"}"#, 1),
            (br#"{"a": "\ude00\ud83d"}"#, 2),
        ] {
            let (parsed, _) = parse_document(lone, 0).unwrap();
            assert_eq!(
                parsed.notes.len(),
                notes,
                "{}",
                String::from_utf8_lossy(lone)
            );
        }
        // Decoded when read, the same text as a member name decoded at once.
        let (parsed, _) = parse_document(
            r#"{"t\u00e9\"": "t\u00e9\"\\\/\b\f\n\r\t\ud83d\ude00\ud800!"}"#.as_bytes(),
            0,
        )
        .unwrap();
        let member = &parsed.root.members()[0];
        let Value::String(value) = &member.value.value else {
            panic!("a string");
        };
        assert_eq!(value.raw(), r#"t\u00e9\"\\\/\b\f\n\r\t\ud83d\ude00\ud800!"#);
        assert_eq!(&**value, "té\"\\/\u{8}\u{c}\n\r\t😀\u{FFFD}!");
        assert_eq!(member.key, "té\"");
        assert_eq!(value.clone(), *value);
    }

    #[test]
    fn duplicate_members_are_noted_with_both_locations() {
        let (parsed, _) = parse_document(br#"{"id": 1, "id": 2}"#, 0).unwrap();
        assert_eq!(
            parsed.notes,
            vec![ParseNote::DuplicateMember {
                key: "id".into(),
                first: Span::new(1, 5),
                second: Span::new(10, 14)
            }]
        );
        assert_eq!(parsed.root.get("id").unwrap().as_i64(), Some(2));
    }

    #[test]
    fn lone_surrogate_is_noted_not_fatal() {
        let (parsed, _) = parse_document(br#""\ud800x""#, 0).unwrap();
        assert_eq!(
            parsed.notes,
            vec![ParseNote::LoneSurrogate {
                span: Span::new(1, 7)
            }]
        );
        assert_eq!(parsed.root.as_str(), Some("\u{FFFD}x"));
    }

    #[test]
    fn errors_say_what_was_expected_and_where() {
        let e = err(r#"{"method": "foobar, "params": "bar"}"#);
        assert_eq!(e.span, Span::new(21, 22));
        assert_eq!(
            e.message,
            "expected ',' or '}' after an object member, found 'p'"
        );
        assert_eq!(
            err("[1,]").message,
            "expected a value after ',', found ']' (JSON allows no trailing comma)"
        );
        assert_eq!(
            err("{'a':1}").message,
            "expected a member name in double quotes (JSON has no single quotes), found '''"
        );
        assert_eq!(err("[01]").span, Span::new(1, 3));
        assert_eq!(err("").message, "expected a JSON value (object, array, string, number, true, false or null), found the end of the input");
        assert_eq!(
            err("tru").message,
            "expected `true`, found the end of the input in it"
        );
    }

    #[test]
    fn invalid_utf8_is_located_at_the_first_bad_byte() {
        let e = parse_document(b"[\"ab\xffc\"]", 0).unwrap_err();
        assert_eq!(e.span.start, 4);
        assert!(e.message.contains("0xFF"), "{}", e.message);
        let e = parse_document(b"[\xe9]", 0).unwrap_err();
        assert_eq!(e.span, Span::new(1, 2));
        assert!(e.message.contains("not UTF-8"), "{}", e.message);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let src = "[".repeat(100_000);
        let e = err(&src);
        assert_eq!(e.span.start, MAX_DEPTH);
        assert!(e.message.contains("at most 512 nested"));
        let src = format!("{}{}", "{\"a\":".repeat(100_000), "1");
        assert!(err(&src).message.contains("deeper nesting"));
    }

    #[test]
    fn string_runs_stop_at_the_first_quote_backslash_or_control_character() {
        // Every byte at every offset of a chunk and its tail, behind plain text of each kind.
        for filler in [b'a', 0xC3, 0x7F, b'!', b'#'] {
            for b in 0..=255u8 {
                for at in 0..20 {
                    let mut src = vec![filler; 24];
                    src[at] = b;
                    src.push(b'"');
                    let mut p = Parser {
                        src: &src,
                        text: None,
                        pos: 0,
                        notes: Vec::new(),
                        nodes: Vec::new(),
                        members: Vec::new(),
                    };
                    p.plain_run();
                    let first = src.iter().position(|&c| STRING_STOP[c as usize]).unwrap();
                    assert_eq!(p.pos, first, "byte {b:#04x} at {at} after {filler:#04x}");
                }
            }
        }
    }

    #[test]
    fn control_characters_in_strings_are_rejected_with_advice() {
        let e = err("\"a\tb\"");
        assert_eq!(e.span, Span::new(2, 3));
        assert!(e.message.contains("tab"));
    }
}
