//! The words learners read are proofread: no doubled word ("the the") and no "1 lines"-style
//! plural in the page's copy, the command line's, the engine's teaching text (lessons, quiz,
//! rule catalogue), its mock replies and messages, the examples library and the page's shell.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The string literals of a Rust source (plain and raw), roughly: what a reader may see.
fn literals(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'\'' && b.get(i + 2) == Some(&b'\'') {
            i += 3;
        } else if b[i] == b'\'' && b.get(i + 1) == Some(&b'\\') {
            i += 4;
        } else if b[i] == b'"' {
            let mut s = Vec::new();
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                if let Some(&c) = b.get(i) {
                    s.push(c);
                }
                i += 1;
            }
            out.push(String::from_utf8_lossy(&s).into_owned());
            i += 1;
        } else {
            i += 1;
        }
    }
    out
}

/// Words that take a plural after a count other than one.
const COUNTED: &[&str] = &[
    "line",
    "message",
    "rule",
    "question",
    "lesson",
    "request",
    "entry",
    "error",
    "warning",
    "byte",
    "document",
    "minute",
    "step",
    "tool",
    "reply",
    "response",
    "notification",
];

fn problems(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let words: Vec<&str> = text.split_whitespace().collect();
    for pair in words.windows(2) {
        let a = pair[0]
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        let b = pair[1]
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        // Words as written, not `{placeholders}` or quoted member names.
        let plain = pair[0].chars().all(|c| c.is_alphabetic())
            && pair[1].starts_with(|c: char| c.is_alphabetic());
        if plain && a.len() > 1 && a == b && a.chars().all(|c| c.is_alphabetic()) {
            found.push(format!("doubled word {:?} in {text:?}", pair[0]));
        }
        if pair[0] == "1" && COUNTED.iter().any(|w| b == format!("{w}s")) {
            found.push(format!("\"1 {b}\" in {text:?}"));
        }
    }
    found
}

#[test]
fn the_checker_finds_doubled_words_and_wrong_plurals() {
    assert_eq!(problems("against the the in-browser mock").len(), 1);
    assert_eq!(problems("1 lines, 2 lines").len(), 1);
    assert!(problems("1 line, 2 lines, that that is fine? no").len() == 1);
}

/// Where the words a reader sees are written: the page's code (views, notices, the link and the
/// probe), the command line's, and the engine's (lessons, quiz, rule catalogue, mock replies,
/// the client's answers, the probe's checks, the parser's errors).
const SOURCE_DIRS: &[&str] = &[
    "src/web",
    "src/cli",
    "engine/src",
    "engine/check/src",
    "engine/json/src",
];

#[test]
fn ui_copy_and_teaching_text_have_no_doubled_words_or_one_plurals() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in SOURCE_DIRS {
        sources(&root.join(dir), &mut files);
    }
    assert!(
        files
            .iter()
            .any(|f| f.ends_with("engine/check/src/rpc/catalogue.rs"))
            && files
                .iter()
                .any(|f| f.ends_with("engine/src/teach/lessons.rs"))
            && files
                .iter()
                .any(|f| f.ends_with("src/web/views/lessons/mod.rs")),
        "the lessons, the catalogue and the page's views are read"
    );
    let mut found = Vec::new();
    for file in &files {
        let src = std::fs::read_to_string(file).unwrap();
        for lit in literals(&src) {
            for p in problems(&lit) {
                found.push(format!("{}: {p}", file.display()));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_examples_library_titles_and_descriptions_have_no_doubled_words() {
    // What the Examples menu and the line beside the editor show: each example's category,
    // title and "about" line.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/src/examples/library.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let shown: Vec<&str> = text
        .lines()
        .filter_map(|l| {
            ["category:", "title:", "about:"]
                .iter()
                .find_map(|key| l.strip_prefix(key))
        })
        .collect();
    assert!(shown.len() > 50, "{} lines read", shown.len());
    let found: Vec<String> = shown.iter().flat_map(|l| problems(l)).collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_page_shell_has_no_doubled_words() {
    // index.html's own words (the title, the message shown without JavaScript), tags removed.
    let html =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("index.html")).unwrap();
    let mut words = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                words.push(' ');
            }
            c if !in_tag => words.push(c),
            _ => {}
        }
    }
    let found = problems(&words);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_one_plural_is_said_right_by_the_shared_link_notice() {
    // The notice formats "{lines} lines": it says "1 line" for one.
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web/page/share.rs"),
    )
    .unwrap();
    assert!(
        !src.contains("{lines} lines"),
        "a count of 1 reads \"1 lines\""
    );
}
