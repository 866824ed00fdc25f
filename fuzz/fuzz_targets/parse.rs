//! The JSON parser (engine/json, the jsonrpc-json crate): any bytes give a tree or a located error, never a panic; spans stay
//! inside the input; what parses also formats, and the formatted text parses to the same shape;
//! every number reads as the same f64 as `str::parse` gives (json::to_f64, our own reader).
#![no_main]

use jsonrpc_playground::json::{is_integer, minify, parse_document, pretty, split_stream, to_f64, LineIndex, Node, Value};
use libfuzzer_sys::fuzz_target;

fn walk(node: &Node<'_>, len: usize, count: &mut usize) {
    assert!(node.span.start <= node.span.end && node.span.end <= len, "node span {:?} outside {len}", node.span);
    *count += 1;
    match &node.value {
        Value::Array(items) => items.iter().for_each(|n| walk(n, len, count)),
        Value::Object(members) => members.iter().for_each(|m| {
            assert!(m.key_span.end <= m.value.span.start);
            walk(&m.value, len, count)
        }),
        Value::Number(text) => {
            let std: f64 = text.parse().expect("a JSON number reads as f64");
            let ours = to_f64(text).expect("to_f64 reads a JSON number");
            assert_eq!(ours.to_bits(), std.to_bits(), "{text}");
            let integer = is_integer(text).expect("is_integer reads a JSON number");
            // An exact integer rounds to an integral double (or overflows).
            assert!(!integer || std.fract() == 0.0 || std.is_infinite(), "{text}");
        }
        _ => {}
    }
}

fuzz_target!(|data: &[u8]| {
    match parse_document(data, 0) {
        Ok((parsed, end)) => {
            assert!(end <= data.len());
            let mut count = 0;
            walk(&parsed.root, data.len(), &mut count);
            // A whole-input document is valid UTF-8 and formats; the result parses again, same size.
            if data[end..].iter().all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n')) {
                let text = std::str::from_utf8(data).expect("a parsed document is UTF-8");
                for formatted in [minify(text).expect("minify"), pretty(text).expect("pretty")] {
                    let (again, _) = parse_document(formatted.as_bytes(), 0).expect("formatted text parses");
                    let mut count2 = 0;
                    walk(&again.root, formatted.len(), &mut count2);
                    assert_eq!(count, count2, "formatting changed the tree");
                }
            }
        }
        Err(e) => {
            assert!(e.span.start <= e.span.end && e.span.end <= data.len(), "error span {:?} outside {}", e.span, data.len());
            assert!(!e.message.is_empty());
        }
    }
    let stream = split_stream(data);
    let lines = LineIndex::new(data);
    for s in &stream.segments {
        assert!(s.span.start <= s.span.end && s.span.end <= data.len());
        let _ = lines.position(data, s.span.start);
        let _ = lines.position(data, s.span.end);
    }
});
