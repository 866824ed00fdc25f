//! Walks every file of JSONTestSuite's `test_parsing`: `y_` accepted, `n_` rejected with a located
//! error, `i_` either, never a panic.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;

use jsonrpc_playground::json::{parse_document, LineIndex};

fn suite() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/JSONTestSuite/test_parsing")
}

/// One whole file as a single document: a value, then nothing but whitespace.
fn parse_whole(src: &[u8]) -> Result<(), (usize, String)> {
    let (_, end) = parse_document(src, 0).map_err(|e| (e.span.start, e.message))?;
    match src[end..].iter().position(|b| !b" \t\r\n".contains(b)) {
        None => Ok(()),
        Some(i) => Err((end + i, "expected the end of the document".into())),
    }
}

#[test]
fn every_file_of_the_suite_gets_the_right_verdict() {
    let mut files: Vec<_> = std::fs::read_dir(suite())
        .expect("tests/data/JSONTestSuite/test_parsing is in the repository")
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let (mut y, mut n, mut i) = (0, 0, 0);
    let mut wrong = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let src = std::fs::read(path).unwrap();
        let verdict = parse_whole(&src);
        match (name.as_bytes()[0], &verdict) {
            (b'y', Ok(())) => y += 1,
            (b'n', Err((offset, message))) => {
                n += 1;
                assert!(
                    *offset <= src.len(),
                    "{name}: error offset {offset} past the end"
                );
                assert!(
                    message.starts_with("expected"),
                    "{name}: message {message:?} does not say what was expected"
                );
                let pos = LineIndex::new(&src).position(&src, *offset);
                assert!(pos.line >= 1 && pos.column >= 1);
            }
            (b'i', _) => i += 1,
            _ => wrong.push(format!("{name}: {verdict:?}")),
        }
    }
    assert!(wrong.is_empty(), "wrong verdicts:\n{}", wrong.join("\n"));
    assert!(
        y > 90 && n > 180 && i > 30,
        "suite looks incomplete: {y} y, {n} n, {i} i"
    );
    println!("JSONTestSuite: {y} accepted, {n} rejected, {i} implementation-defined handled");
}
