//! Strict JSON (RFC 8259) with a byte span on every node.
//!
//! No crate gives strict parsing, spans for every key and value, duplicate-member reports and
//! located errors at once, so this is our own small parser. The tree borrows the input: strings
//! without escapes and every number stay slices of the source (numbers keep their exact text:
//! `1`, `1.0` and `12345678901234567890` are different things to a peer).

mod build;
mod decimal;
mod format;
mod lines;
pub mod order;
mod parse;
mod pointer;
mod stream;

use std::borrow::Cow;
use std::cell::OnceCell;
use std::fmt;

pub use build::{fixed, quote, shortest, trimmed, write_string, Json};
pub use decimal::{is_integer, to_f64};
pub use format::{layout, minify, pretty, FormatError, Layout};
pub use lines::{LineIndex, Position};
pub use parse::{parse_document, ParseError, MAX_DEPTH};
pub use pointer::{escape_token, pointer_to, Pointer};
pub use stream::{
    has_marker_line, is_comment_line, split_stream, split_text, Direction, Segment, Stream,
};

/// A half-open byte range `start..end` into the input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    pub const fn len(self) -> usize {
        self.end - self.start
    }
    pub const fn is_empty(self) -> bool {
        self.start == self.end
    }
    pub const fn contains(self, other: Span) -> bool {
        self.start <= other.start && other.end <= self.end
    }
}

/// One JSON value with the span of its source text.
#[derive(Clone, Debug, PartialEq)]
pub struct Node<'a> {
    pub span: Span,
    pub value: Value<'a>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value<'a> {
    Null,
    Bool(bool),
    /// The number's exact source text, already checked against the RFC 8259 grammar.
    Number(&'a str),
    /// The string: borrowed as written, decoded when first read if it has escapes.
    String(JsonStr<'a>),
    Array(Vec<Node<'a>>),
    /// Members in source order, duplicates included.
    Object(Vec<Member<'a>>),
}

/// A string value of the source. Its text is a slice of the input; one with escapes is decoded
/// the first time it is read (through `Deref` to `str`) and kept. Most string values of a message
/// are never read, and decoding each long escaped text at parse time cost an allocation and a
/// copy (a third of the check's time on the benchmark's string-heavy mix). As large as a `Cow`:
/// what an escaped string needs besides its text lives behind one box.
#[derive(Clone)]
pub struct JsonStr<'a>(StrRepr<'a>);

#[derive(Clone)]
enum StrRepr<'a> {
    /// No escapes: the text as written.
    Plain(&'a str),
    /// The text between the quotes as written (escapes checked), and its decoding once read.
    Escaped(Box<(&'a str, OnceCell<Box<str>>)>),
}

impl<'a> JsonStr<'a> {
    /// A string without escapes: its text is `raw`.
    pub const fn plain(raw: &'a str) -> Self {
        JsonStr(StrRepr::Plain(raw))
    }
    /// A string whose text between the quotes, `raw`, holds escapes already checked.
    pub(crate) fn escaped(raw: &'a str) -> Self {
        JsonStr(StrRepr::Escaped(Box::new((raw, OnceCell::new()))))
    }
    /// The text between the quotes as written (`a\\"b` for the string `a"b`).
    pub fn raw(&self) -> &'a str {
        match &self.0 {
            StrRepr::Plain(raw) => raw,
            StrRepr::Escaped(escaped) => escaped.0,
        }
    }
    /// The decoded text (borrowed from the input when it has no escapes).
    pub fn as_str(&self) -> &str {
        match &self.0 {
            StrRepr::Plain(raw) => raw,
            StrRepr::Escaped(escaped) => escaped
                .1
                .get_or_init(|| parse::decode_escaped(escaped.0).into_boxed_str()),
        }
    }
}

impl std::ops::Deref for JsonStr<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for JsonStr<'_> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for JsonStr<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<str> for JsonStr<'_> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for JsonStr<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Debug for JsonStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for JsonStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One `"key": value` pair of an object.
#[derive(Clone, Debug, PartialEq)]
pub struct Member<'a> {
    pub key: Cow<'a, str>,
    /// The span of the key, quotes included.
    pub key_span: Span,
    pub value: Node<'a>,
}

/// Something legal but worth saying, found while parsing.
#[derive(Clone, Debug, PartialEq)]
pub enum ParseNote {
    /// An object names the same member twice. `first` and `second` are the spans of the two keys.
    DuplicateMember {
        key: String,
        first: Span,
        second: Span,
    },
    /// A `\uD800`-style escape that is not half of a surrogate pair (replaced by U+FFFD).
    LoneSurrogate { span: Span },
}

/// A parsed document: its tree and the notes collected on the way.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed<'a> {
    pub root: Node<'a>,
    pub notes: Vec<ParseNote>,
}

/// The JSON type of a value, as people name it in messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonType {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

impl JsonType {
    pub const fn name(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Bool => "a boolean",
            JsonType::Number => "a number",
            JsonType::String => "a string",
            JsonType::Array => "an array",
            JsonType::Object => "an object",
        }
    }
}

impl<'a> Value<'a> {
    pub const fn json_type(&self) -> JsonType {
        match self {
            Value::Null => JsonType::Null,
            Value::Bool(_) => JsonType::Bool,
            Value::Number(_) => JsonType::Number,
            Value::String(_) => JsonType::String,
            Value::Array(_) => JsonType::Array,
            Value::Object(_) => JsonType::Object,
        }
    }
}

impl<'a> Node<'a> {
    /// The last member named `key` (what `JSON.parse` and most peers keep when a name repeats).
    pub fn get(&self, key: &str) -> Option<&Node<'a>> {
        match &self.value {
            Value::Object(members) => members
                .iter()
                .rev()
                .find(|m| m.key == key)
                .map(|m| &m.value),
            _ => None,
        }
    }
    /// The member named `key`, with its key span.
    pub fn member(&self, key: &str) -> Option<&Member<'a>> {
        match &self.value {
            Value::Object(members) => members.iter().rev().find(|m| m.key == key),
            _ => None,
        }
    }
    pub fn members(&self) -> &[Member<'a>] {
        match &self.value {
            Value::Object(members) => members,
            _ => &[],
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(s) => Some(s.as_str()),
            _ => None,
        }
    }
    pub fn as_array(&self) -> Option<&[Node<'a>]> {
        match &self.value {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }
    pub const fn is_object(&self) -> bool {
        matches!(self.value, Value::Object(_))
    }
    pub const fn json_type(&self) -> JsonType {
        self.value.json_type()
    }
    /// The number's source text when it is an integer (no fraction, no exponent).
    pub fn as_integer_text(&self) -> Option<&'a str> {
        match self.value {
            Value::Number(text) if !text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) => {
                Some(text)
            }
            _ => None,
        }
    }
    /// The number as `i64` when it is written as an integer that fits.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_integer_text()?.parse().ok()
    }
    /// The number as `f64` (may be infinite for huge exponents).
    pub fn as_f64(&self) -> Option<f64> {
        match self.value {
            Value::Number(text) => to_f64(text),
            _ => None,
        }
    }

    /// This value as `serde_json::Value` (numbers beyond `f64` become `null`). Native only: the
    /// web build writes JSON with [`Json`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn to_serde(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match &self.value {
            Value::Null => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Number(text) => serde_json::from_str::<serde_json::Number>(text)
                .map(J::Number)
                .unwrap_or(J::Null),
            Value::String(s) => J::String(s.to_string()),
            Value::Array(items) => J::Array(items.iter().map(Node::to_serde).collect()),
            Value::Object(members) => J::Object(
                members
                    .iter()
                    .map(|m| (m.key.to_string(), m.value.to_serde()))
                    .collect(),
            ),
        }
    }
}
