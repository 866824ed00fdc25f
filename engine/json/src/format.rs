//! Pretty-printing and minifying, in place: every document of the input (one value, a stream, a
//! `-->` / `<--` transcript) is rewritten from its span tree and everything between documents
//! (markers, comments, blank lines) is kept as it was. Member order, duplicate members and the
//! exact source text of every number, string and key are kept (`1.0` stays `1.0`, `"\u00e9"`
//! stays escaped). Input with a parse error is not rewritten: the error says which document.

use std::fmt;

use super::{split_stream, LineIndex, Node, Value};

/// How to lay a document out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One member or element per line, indented by two spaces (as `JSON.stringify(v, null, 2)`).
    Pretty,
    /// No whitespace at all inside a document.
    Minify,
}

/// Why the input was left unchanged: a document does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// 1-based number of the document that does not parse.
    pub document: usize,
    /// 1-based line and column of the error.
    pub line: usize,
    pub column: usize,
    /// The parser's message.
    pub message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "document {} is not JSON (line {}, column {}: {}); the text is unchanged",
            self.document, self.line, self.column, self.message
        )
    }
}

impl std::error::Error for FormatError {}

/// Pretty-prints every document of `src` in place.
pub fn pretty(src: &str) -> Result<String, FormatError> {
    layout(src, Layout::Pretty)
}

/// Minifies every document of `src` in place.
pub fn minify(src: &str) -> Result<String, FormatError> {
    layout(src, Layout::Minify)
}

/// Rewrites every document of `src` with `layout`, keeping the text between documents.
pub fn layout(src: &str, layout: Layout) -> Result<String, FormatError> {
    let bytes = src.as_bytes();
    let stream = split_stream(bytes);
    if let Some((i, error)) = stream
        .segments
        .iter()
        .enumerate()
        .find_map(|(i, s)| s.parsed.as_ref().err().map(|e| (i, e)))
    {
        let at = LineIndex::new(bytes).position(bytes, error.span.start);
        return Err(FormatError {
            document: i + 1,
            line: at.line,
            column: at.column,
            message: error.message.clone(),
        });
    }
    let mut out = String::with_capacity(src.len() + src.len() / 2);
    let mut pos = 0;
    for segment in &stream.segments {
        let Ok(parsed) = &segment.parsed else {
            unreachable!("checked above")
        };
        out.push_str(&src[pos..segment.span.start]);
        write_node(&mut out, src, &parsed.root, layout, 0);
        pos = segment.span.end;
    }
    out.push_str(&src[pos..]);
    Ok(out)
}

fn newline(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("  ");
    }
}

/// Writes `node` (depth is bounded by the parser's `MAX_DEPTH`, so recursion is safe).
fn write_node(out: &mut String, src: &str, node: &Node<'_>, layout: Layout, depth: usize) {
    let pretty = layout == Layout::Pretty;
    match &node.value {
        Value::Array(items) if !items.is_empty() => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if pretty {
                    newline(out, depth + 1);
                }
                write_node(out, src, item, layout, depth + 1);
            }
            if pretty {
                newline(out, depth);
            }
            out.push(']');
        }
        Value::Object(members) if !members.is_empty() => {
            out.push('{');
            for (i, member) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if pretty {
                    newline(out, depth + 1);
                }
                out.push_str(&src[member.key_span.start..member.key_span.end]);
                out.push_str(if pretty { ": " } else { ":" });
                write_node(out, src, &member.value, layout, depth + 1);
            }
            if pretty {
                newline(out, depth);
            }
            out.push('}');
        }
        Value::Array(_) => out.push_str("[]"),
        Value::Object(_) => out.push_str("{}"),
        // Scalars keep their exact source text (escapes, exponents, trailing zeros).
        _ => out.push_str(&src[node.span.start..node.span.end]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pretty_keeps_member_order_and_number_text() {
        let src = r#"{"z": 1.0, "a": [1e3, -0, 12345678901234567890], "m": {}}"#;
        assert_eq!(
            pretty(src).unwrap(),
            "{\n  \"z\": 1.0,\n  \"a\": [\n    1e3,\n    -0,\n    12345678901234567890\n  ],\n  \"m\": {}\n}"
        );
    }

    #[test]
    fn minify_removes_whitespace_inside_documents_only() {
        let src = "{ \"a\" : [ 1 , 2 ] ,\n  \"b\" : \"x y\" }\n\n[ ]\n";
        assert_eq!(minify(src).unwrap(), "{\"a\":[1,2],\"b\":\"x y\"}\n\n[]\n");
    }

    #[test]
    fn strings_and_keys_keep_their_escapes() {
        let src = r#"{"\u00e9":"a\"b\n\u00e9","é":"😀"}"#;
        assert_eq!(minify(src).unwrap(), src);
        assert_eq!(
            pretty(src).unwrap(),
            "{\n  \"\\u00e9\": \"a\\\"b\\n\\u00e9\",\n  \"é\": \"😀\"\n}"
        );
    }

    #[test]
    fn duplicate_members_are_kept() {
        assert_eq!(
            minify(r#"{"id": 1, "id": 2}"#).unwrap(),
            r#"{"id":1,"id":2}"#
        );
    }

    #[test]
    fn transcript_markers_and_comments_stay_in_place() {
        let src =
            "--> {\"jsonrpc\": \"2.0\", \"method\": \"a\"}\n<-- //Nothing is returned\n--> [1,2]\n";
        assert_eq!(
            pretty(src).unwrap(),
            "--> {\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"a\"\n}\n<-- //Nothing is returned\n--> [\n  1,\n  2\n]\n"
        );
        let pretty_src = pretty(src).unwrap();
        assert_eq!(
            minify(&pretty_src).unwrap(),
            "--> {\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n<-- //Nothing is returned\n--> [1,2]\n"
        );
    }

    #[test]
    fn pretty_then_minify_round_trips_a_stream() {
        let src = "{\"a\":[1,{\"b\":null}],\"c\":true}\n{\"d\":false}";
        assert_eq!(minify(&pretty(src).unwrap()).unwrap(), src);
        assert_eq!(pretty(&pretty(src).unwrap()).unwrap(), pretty(src).unwrap());
    }

    #[test]
    fn a_parse_error_leaves_the_text_alone_and_names_the_document() {
        let err = pretty("{\"a\": 1}\n{\"b\": }").unwrap_err();
        assert_eq!((err.document, err.line, err.column), (2, 2, 7));
        assert!(
            err.to_string()
                .contains("document 2 is not JSON (line 2, column 7"),
            "{err}"
        );
        assert!(minify("{} x").is_err());
    }

    #[test]
    fn empty_and_whitespace_input_is_unchanged() {
        assert_eq!(pretty("").unwrap(), "");
        assert_eq!(minify(" \n ").unwrap(), " \n ");
    }
}
