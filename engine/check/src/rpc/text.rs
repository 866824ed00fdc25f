//! [`Text`]: the strings of a report (ids, methods, pointers, messages) without a heap
//! allocation each. Most are constant (a rule's fixed message) or short (`1`, `"subtract"`,
//! `/3/jsonrpc`); a 1 MB batch has tens of thousands of them, and in wasm an allocation and its
//! free cost more than building the text.

use std::fmt;
use std::ops::Deref;

/// The most bytes held in place: ids, methods and most pointers fit, and the whole value is as
/// large as a wasm `String` and a tag (16 bytes: smaller documents and violations move faster).
pub const INLINE: usize = 14;

/// A string that is a constant, short and held in place, or on the heap. Reads as `&str`
/// (`Deref`), compares and prints as its text whatever way it is held.
#[derive(Clone)]
pub struct Text(Repr);

#[derive(Clone)]
enum Repr {
    Static(&'static str),
    /// `len` bytes of `bytes`, always UTF-8 (only ever copied from a `&str`).
    Inline {
        len: u8,
        bytes: [u8; INLINE],
    },
    Heap(String),
}

impl Text {
    pub const fn new() -> Self {
        Text(Repr::Static(""))
    }

    /// `s` copied: in place when it fits, on the heap otherwise.
    pub fn copy(s: &str) -> Self {
        Text::concat(&[s])
    }

    /// The pieces one after another: in place when they fit, on the heap otherwise.
    pub fn concat(pieces: &[&str]) -> Self {
        let len: usize = pieces.iter().map(|p| p.len()).sum();
        if len > INLINE {
            // Exactly sized, one allocation (messages that name what was found are built here too).
            let mut heap = String::with_capacity(len);
            for p in pieces {
                heap.push_str(p);
            }
            return Text(Repr::Heap(heap));
        }
        let mut bytes = [0; INLINE];
        let mut at = 0;
        for p in pieces {
            // Byte by byte: a few bytes each, and a `memcpy` of a few bytes is a call (in wasm,
            // `memory.copy`, which costs more than the copy).
            for &b in p.as_bytes() {
                if let Some(slot) = bytes.get_mut(at) {
                    *slot = b;
                }
                at += 1;
            }
        }
        Text(Repr::Inline {
            len: len as u8,
            bytes,
        })
    }

    /// Not inlined: read in many places (the UI, the reports), written in one hot loop.
    #[inline(never)]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Static(s) => s,
            // SAFETY: `concat` fills `bytes[..len]` only with whole `&str`s one after another,
            // so they are UTF-8 (validating them again on every read was 2% of a check in wasm).
            Repr::Inline { len, bytes } => unsafe {
                std::str::from_utf8_unchecked(bytes.get(..*len as usize).unwrap_or_default())
            },
            Repr::Heap(s) => s,
        }
    }

    /// Whether the text is held on the heap (what the report's shape avoids; for tests).
    pub fn is_on_heap(&self) -> bool {
        matches!(self.0, Repr::Heap(_))
    }
}

impl Default for Text {
    fn default() -> Self {
        Text::new()
    }
}

impl Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl From<&'static str> for Text {
    fn from(s: &'static str) -> Self {
        Text(Repr::Static(s))
    }
}

impl From<String> for Text {
    fn from(s: String) -> Self {
        Text(Repr::Heap(s))
    }
}

impl From<Text> for String {
    fn from(t: Text) -> Self {
        match t.0 {
            Repr::Heap(s) => s,
            _ => t.as_str().to_string(),
        }
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl std::hash::Hash for Text {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_held_in_place_and_long_text_on_the_heap() {
        let fits = "a".repeat(INLINE);
        let longer = "a".repeat(INLINE + 1);
        assert!(!Text::copy(&fits).is_on_heap());
        assert_eq!(Text::copy(&fits), *fits);
        assert!(Text::copy(&longer).is_on_heap());
        assert_eq!(Text::copy(&longer), *longer);
    }

    #[test]
    fn concat_joins_the_pieces_in_order_at_every_length() {
        for n in 0..=INLINE + 3 {
            let tail = "é".repeat(n / 2) + &"x".repeat(n % 2);
            let t = Text::concat(&["/", "12", &tail]);
            assert_eq!(t.as_str(), format!("/12{tail}"));
            assert_eq!(t.is_on_heap(), 3 + tail.len() > INLINE, "{n}");
        }
    }

    #[test]
    fn texts_compare_hash_and_print_as_their_text_however_held() {
        use std::collections::hash_map::DefaultHasher;
        use std::hash::{Hash, Hasher};
        let hash = |t: &Text| {
            let mut h = DefaultHasher::new();
            t.hash(&mut h);
            h.finish()
        };
        let held = [
            Text::from("id"),
            Text::copy("id"),
            Text::from("id".to_string()),
        ];
        for a in &held {
            for b in &held {
                assert_eq!(a, b);
                assert_eq!(hash(a), hash(b));
            }
            assert_eq!(format!("{a} {a:?}"), "id \"id\"");
            assert_eq!(String::from(a.clone()), "id");
            // Both directions: `Text == str` and `str == Text` are two impls.
            assert!(*a == "id");
            assert!("id" == *a);
            assert!(a == &"id".to_string());
        }
        assert_ne!(Text::copy("id"), Text::copy("ib"));
        assert_eq!(Text::default(), "");
    }
}
