//! JSON the engine writes: an owned value to build replies and saved state with, and the compact
//! writer. The parser's [`Node`] borrows its source and keeps spans; a [`Json`] owns its parts and
//! only knows how to be written. Numbers are kept as text, so what is written is exactly what was
//! built (an id's `1.0` stays `1.0`).
//!
//! The output is byte for byte what `serde_json::to_string` writes for the same value (members in
//! insertion order, `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, other control characters as
//! `\u00xx`, everything else as is), so the web build needs no second JSON library.

use super::{Node, Value};

/// An owned JSON value to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Json {
    Null,
    Bool(bool),
    /// A number as its JSON text.
    Number(String),
    String(String),
    Array(Vec<Json>),
    /// Members in the order they are written.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// An object of these members, in this order.
    pub fn obj<K: Into<String>>(members: impl IntoIterator<Item = (K, Json)>) -> Json {
        Json::Object(members.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// An array of these values.
    pub fn arr(items: impl IntoIterator<Item = Json>) -> Json {
        Json::Array(items.into_iter().collect())
    }

    /// A finite `f64` as its shortest round-trip text; `None` for NaN and the infinities, which
    /// JSON cannot write.
    pub fn float(x: f64) -> Option<Json> {
        x.is_finite().then(|| Json::Number(shortest(x)))
    }

    /// Sets `key` (replacing its value when present, else appending). No-op on a non-object.
    pub fn set(&mut self, key: &str, value: Json) {
        if let Json::Object(members) = self {
            match members.iter_mut().find(|(k, _)| k == key) {
                Some((_, v)) => *v = value,
                None => members.push((key.to_string(), value)),
            }
        }
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// A copy of a parsed value: numbers keep their source text, strings are unescaped.
    pub fn from_node(node: &Node<'_>) -> Json {
        match &node.value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(text) => Json::Number(text.to_string()),
            Value::String(s) => Json::String(s.to_string()),
            Value::Array(items) => Json::Array(items.iter().map(Json::from_node).collect()),
            Value::Object(members) => Json::Object(
                members
                    .iter()
                    .map(|m| (m.key.to_string(), Json::from_node(&m.value)))
                    .collect(),
            ),
        }
    }

    /// Appends the compact text (no whitespace) to `out`.
    pub fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(true) => out.push_str("true"),
            Json::Bool(false) => out.push_str("false"),
            Json::Number(text) => out.push_str(text),
            Json::String(s) => write_string(out, s),
            Json::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Json::Object(members) => {
                out.push('{');
                for (i, (key, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_string(out, key);
                    out.push(':');
                    value.write(out);
                }
                out.push('}');
            }
        }
    }

    /// The compact text.
    pub fn compact(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }
}

impl From<bool> for Json {
    fn from(b: bool) -> Json {
        Json::Bool(b)
    }
}

impl From<i64> for Json {
    fn from(n: i64) -> Json {
        Json::Number(n.to_string())
    }
}

impl From<u64> for Json {
    fn from(n: u64) -> Json {
        Json::Number(n.to_string())
    }
}

impl From<&str> for Json {
    fn from(s: &str) -> Json {
        Json::String(s.to_string())
    }
}

impl From<String> for Json {
    fn from(s: String) -> Json {
        Json::String(s)
    }
}

impl<T: Into<Json>> From<Option<T>> for Json {
    fn from(v: Option<T>) -> Json {
        v.map_or(Json::Null, Into::into)
    }
}

impl<T: Into<Json>> From<Vec<T>> for Json {
    fn from(items: Vec<T>) -> Json {
        Json::Array(items.into_iter().map(Into::into).collect())
    }
}

/// Appends `s` as a JSON string literal.
pub fn write_string(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(s.len() + 2);
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if escape.is_empty() {
            out.push_str("\\u00");
            out.push(HEX[usize::from(b >> 4)] as char);
            out.push(HEX[usize::from(b & 0xf)] as char);
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// `s` as a JSON string literal.
pub fn quote(s: &str) -> String {
    let mut out = String::new();
    write_string(&mut out, s);
    out
}

/// The shortest text that reads back as `x` (finite `x`): `2.5`, `0.30000000000000004`, `1e-7`,
/// integral values as `3.0`. (The same algorithm serde_json writes floats with.)
pub fn shortest(x: f64) -> String {
    zmij::Buffer::new().format_finite(x).to_string()
}

/// `x` rounded to `decimals` places (at most 6) by integer arithmetic, trailing zeros kept:
/// `fixed(12.345, 1)` is `12.3`. Keeps float formatting code out of the web build.
pub fn fixed(x: f64, decimals: u32) -> String {
    let decimals = decimals.min(6);
    if !x.is_finite() {
        return "0".to_string();
    }
    let scale = 10u64.pow(decimals);
    let scaled = (x.abs() * scale as f64).round();
    // Beyond u64 the fraction is meaningless anyway.
    let scaled = if scaled >= 1.8e19 {
        u64::MAX
    } else {
        scaled as u64
    };
    let (int, frac) = (scaled / scale, scaled % scale);
    let sign = if x < 0.0 && scaled != 0 { "-" } else { "" };
    if decimals == 0 {
        return format!("{sign}{int}");
    }
    let mut digits = frac.to_string();
    while digits.len() < decimals as usize {
        digits.insert(0, '0');
    }
    format!("{sign}{int}.{digits}")
}

/// Like [`fixed`] with the trailing zeros of the fraction (and a bare `.`) removed: `12.5`, `3`.
pub fn trimmed(x: f64, decimals: u32) -> String {
    let text = fixed(x, decimals);
    if !text.contains('.') {
        return text;
    }
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_document;

    #[test]
    fn strings_escape_as_serde_json_does() {
        let cases = [
            "",
            "plain",
            "quote \" and \\ back",
            "\n\r\t\u{8}\u{c}",
            "\u{0}\u{1f}\u{7f}",
            "é ☃ 😀 </script>",
        ];
        for s in cases {
            assert_eq!(quote(s), serde_json::to_string(s).unwrap(), "{s:?}");
        }
    }

    #[test]
    fn values_write_compact_in_member_order() {
        let v = Json::obj([
            ("b", Json::from(1i64)),
            (
                "a",
                Json::arr([Json::Null, Json::from(true), Json::from("x")]),
            ),
            ("c", Json::obj::<&str>([])),
        ]);
        assert_eq!(v.compact(), r#"{"b":1,"a":[null,true,"x"],"c":{}}"#);
    }

    #[test]
    fn from_node_keeps_number_text_and_unescapes_strings() {
        let src = br#"{"id": 1.0, "s": "a\u0062", "n": [12345678901234567890, -0e5]}"#;
        let (parsed, _) = parse_document(src, 0).unwrap();
        assert_eq!(
            Json::from_node(&parsed.root).compact(),
            r#"{"id":1.0,"s":"ab","n":[12345678901234567890,-0e5]}"#
        );
    }

    #[test]
    fn set_replaces_or_appends() {
        let mut v = Json::obj([("a", Json::from(1i64))]);
        v.set("a", Json::from(2i64));
        v.set("b", Json::Null);
        assert_eq!(v.compact(), r#"{"a":2,"b":null}"#);
    }

    #[test]
    fn floats_are_shortest_and_non_finite_is_none() {
        assert_eq!(Json::float(2.5).unwrap().compact(), "2.5");
        assert_eq!(
            Json::float(0.1 + 0.2).unwrap().compact(),
            "0.30000000000000004"
        );
        assert_eq!(Json::float(f64::NAN), None);
        assert_eq!(Json::float(f64::INFINITY), None);
    }

    #[test]
    fn fixed_rounds_by_integers() {
        assert_eq!(fixed(12.345, 1), "12.3");
        assert_eq!(fixed(0.05, 1), "0.1");
        assert_eq!(fixed(-1.26, 1), "-1.3");
        assert_eq!(fixed(-0.01, 1), "0.0");
        assert_eq!(fixed(3.0, 3), "3.000");
        assert_eq!(fixed(7.6, 0), "8");
        assert_eq!(fixed(f64::NAN, 2), "0");
        assert_eq!(trimmed(12.5, 3), "12.5");
        assert_eq!(trimmed(3.0, 3), "3");
        assert_eq!(trimmed(1234.5678, 3), "1234.568");
    }
}
