//! RFC 6901 JSON pointers: built while walking a tree, or found for a span.

use std::fmt::Write;

use super::{Node, Span, Value};

/// A JSON pointer under construction (`""` is the document root).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pointer(String);

impl Pointer {
    pub fn root() -> Self {
        Pointer(String::new())
    }
    /// This pointer extended by a member name.
    pub fn key(&self, key: &str) -> Self {
        let mut s = String::with_capacity(self.0.len() + 1 + key.len());
        s.push_str(&self.0);
        s.push('/');
        if key.contains(['~', '/']) {
            s.push_str(&escape_token(key));
        } else {
            s.push_str(key);
        }
        Pointer(s)
    }
    /// This pointer extended by an array index.
    pub fn index(&self, i: usize) -> Self {
        let mut s = self.0.clone();
        let _ = write!(s, "/{i}");
        Pointer(s)
    }
    /// Makes this pointer `base` extended by an array index, reusing its buffer.
    pub fn set_index(&mut self, base: &Pointer, i: usize) {
        self.0.clear();
        self.0.push_str(&base.0);
        self.0.push('/');
        // The digits without `fmt` (this runs for every element of a batch).
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        let mut n = i;
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        self.0
            .push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
    pub fn into_string(self) -> String {
        self.0
    }
}

/// Escapes one reference token: `~` as `~0`, `/` as `~1`.
pub fn escape_token(key: &str) -> String {
    if key.contains(['~', '/']) {
        key.replace('~', "~0").replace('/', "~1")
    } else {
        key.to_string()
    }
}

/// The pointer of the innermost value whose span contains `span` (a key span points at its member).
pub fn pointer_to(root: &Node<'_>, span: Span) -> String {
    let mut out = Pointer::root();
    let mut node = root;
    loop {
        let next = match &node.value {
            // Children are in source order: a binary search, then the few around it (a
            // 160,000-member object is searched once per violation in it).
            Value::Array(items) => {
                let at = items.partition_point(|n| n.span.end < span.start);
                (at.saturating_sub(1)..(at + 2).min(items.len()))
                    .find(|&i| items[i].span.contains(span))
                    .map(|i| (out.index(i), &items[i]))
            }
            Value::Object(members) => {
                let at = members.partition_point(|m| m.value.span.end < span.start);
                members[at.saturating_sub(1)..(at + 2).min(members.len())]
                    .iter()
                    .find(|m| m.value.span.contains(span) || m.key_span.contains(span))
                    .map(|m| (out.key(&m.key), &m.value))
            }
            _ => None,
        };
        match next {
            Some((p, n)) => {
                out = p;
                node = n;
            }
            None => return out.into_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_document;

    #[test]
    fn escapes_tilde_and_slash() {
        assert_eq!(
            Pointer::root().key("a/b").key("m~n").index(3).as_str(),
            "/a~1b/m~0n/3"
        );
    }

    #[test]
    fn set_index_writes_the_index_after_the_base() {
        let base = Pointer::root().key("a");
        let mut p = Pointer::root().key("left over from before");
        for (i, want) in [
            (0, "/a/0"),
            (7, "/a/7"),
            (10, "/a/10"),
            (1234, "/a/1234"),
            (usize::MAX, &*format!("/a/{}", usize::MAX)),
        ] {
            p.set_index(&base, i);
            assert_eq!(p.as_str(), want);
            assert_eq!(p, base.index(i));
        }
    }

    #[test]
    fn finds_the_pointer_of_a_span() {
        let src = br#"[{"params": {"a/b": [5]}}]"#;
        let (parsed, _) = parse_document(src, 0).unwrap();
        let five = src.iter().position(|&b| b == b'5').unwrap();
        assert_eq!(
            pointer_to(&parsed.root, Span::new(five, five + 1)),
            "/0/params/a~1b/0"
        );
        assert_eq!(pointer_to(&parsed.root, Span::new(0, 1)), "");
    }
}
