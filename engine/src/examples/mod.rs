//! The examples library: every example of the JSON-RPC 2.0 specification (§7) with the reply the
//! specification shows, the MCP message flow and quiz of the seed lesson, the common mistakes of
//! the seed article, and MCP error replies. Pure data, read from `library.txt` beside this file
//! (its header says the format); `tests/examples_library.rs` checks each example's verdict is the
//! one its description promises.
//!
//! The native build (`jrpc`, the tests) compiles the whole file in ([`all`], [`find`],
//! [`by_category`]). The page's wasm has only its menu ([`menu`]: each example's id, category
//! and title, to list them at once) and fetches the file as data on the first pick
//! from the menu, reading it with [`parse`] (`src/web/page/playground/library.rs`; size rule 15 of
//! docs/size-rules.md).

#[cfg(not(target_arch = "wasm32"))]
use std::sync::OnceLock;

use crate::json::quote;
use crate::rpc::{McpVersion, Profile};

/// The most a library file may have: the page fetches the file and reads at most this much
/// (the shipped one is ~20 KB; a test keeps it well under).
pub const LIBRARY_MAX_BYTES: usize = 256 * 1024;

/// The library file as it is.
const FILE: &str = include_str!("library.txt");
/// The library without its header (the format, described for whoever edits the file), copied at
/// compile time into an array of its own, so the build does not keep the header (a slice of FILE
/// would keep all of FILE).
#[cfg(not(target_arch = "wasm32"))]
const LIBRARY: &str = match std::str::from_utf8(&BODY) {
    Ok(text) => text,
    Err(_) => FILE,
};
#[cfg(not(target_arch = "wasm32"))]
static BODY: [u8; without_header(FILE).len()] = copied(without_header(FILE));

/// The bytes of `text` as an array.
#[cfg(not(target_arch = "wasm32"))]
const fn copied<const N: usize>(text: &str) -> [u8; N] {
    let mut out = [0; N];
    let mut i = 0;
    while i < N {
        out[i] = text.as_bytes()[i];
        i += 1;
    }
    out
}

/// `text` from its first `=== ` line on.
#[cfg(not(target_arch = "wasm32"))]
const fn without_header(text: &str) -> &str {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i + 4 <= bytes.len() {
        if (i == 0 || bytes[i - 1] == b'\n')
            && bytes[i] == b'='
            && bytes[i + 1] == b'='
            && bytes[i + 2] == b'='
            && bytes[i + 3] == b' '
        {
            return match std::str::from_utf8(bytes.split_at(i).1) {
                Ok(rest) => rest,
                Err(_) => text,
            };
        }
        i += 1;
    }
    // No example at all: the whole text, for the reader to say what is wrong with it.
    text
}

/// The menu's lines of the library: each example's `=== id`, `category: ` and `title: ` lines, in library order, copied at compile time into an array of their own (the
/// page's wasm keeps these, not the file).
const MENU_TEXT: &str = match std::str::from_utf8(&MENU_BYTES) {
    Ok(text) => text,
    Err(_) => "",
};
static MENU_BYTES: [u8; menu_lines::<0>(FILE).1] = menu_lines(FILE).0;

/// The fields of an example's head that the menu keeps.
const MENU_FIELDS: [&[u8]; 2] = [b"category: ", b"title: "];

/// The menu's lines of `text` (see [`MENU_TEXT`]): the first `N` of their bytes, and how many
/// bytes they have in all (`N = 0` asks only for the count).
const fn menu_lines<const N: usize>(text: &str) -> ([u8; N], usize) {
    let bytes = text.as_bytes();
    let mut out = [0; N];
    let mut written = 0;
    let mut in_head = false;
    let mut start = 0;
    while start < bytes.len() {
        let mut end = start;
        while end < bytes.len() && bytes[end] != b'\n' {
            end += 1;
        }
        let mut keep = false;
        if starts_with(bytes, start, b"=== ") {
            in_head = true;
            keep = true;
        } else if in_head && end - start == 3 && starts_with(bytes, start, b"---") {
            in_head = false;
        } else if in_head {
            let mut f = 0;
            while f < MENU_FIELDS.len() {
                keep = keep || starts_with(bytes, start, MENU_FIELDS[f]);
                f += 1;
            }
        }
        if keep {
            let mut i = start;
            while i <= end {
                if written < N {
                    out[written] = if i < end { bytes[i] } else { b'\n' };
                }
                written += 1;
                i += 1;
            }
        }
        start = end + 1;
    }
    (out, written)
}

/// Whether `bytes` has `prefix` at `at`.
const fn starts_with(bytes: &[u8], at: usize, prefix: &[u8]) -> bool {
    if at + prefix.len() > bytes.len() {
        return false;
    }
    let mut i = 0;
    while i < prefix.len() {
        if bytes[at + i] != prefix[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// One example as the menu lists it, before its text is loaded (what it shows, `about`, comes
/// with the text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MenuEntry {
    pub id: &'static str,
    pub category: &'static str,
    pub title: &'static str,
}

/// Every example's menu entry, in library order, grouped by category in library order (the
/// library file's own lines: an entry missing a field is left out, which the tests rule out).
pub fn menu() -> Vec<(&'static str, Vec<MenuEntry>)> {
    let mut groups: Vec<(&'static str, Vec<MenuEntry>)> = Vec::new();
    let mut lines = MENU_TEXT.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(id) = line.strip_prefix("=== ") else {
            continue;
        };
        let (mut category, mut title) = (None, None);
        while let Some(field) = lines.next_if(|l| !l.starts_with("=== ")) {
            if let Some(v) = field.strip_prefix("category: ") {
                category = Some(v);
            } else if let Some(v) = field.strip_prefix("title: ") {
                title = Some(v);
            }
        }
        let (Some(category), Some(title)) = (category, title) else {
            continue;
        };
        let entry = MenuEntry {
            id,
            category,
            title,
        };
        match groups.iter_mut().find(|(c, _)| *c == category) {
            Some((_, list)) => list.push(entry),
            None => groups.push((category, vec![entry])),
        }
    }
    groups
}

/// What the engine says about an example under its profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// No violation at all.
    Clean,
    /// Exactly these rules are broken (each at least once, no other rule).
    Rules(Vec<&'static str>),
}

/// One example of the library.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// Stable id (`spec-positional`, `mcp-flow`, …).
    pub id: &'static str,
    /// The group it is listed under.
    pub category: &'static str,
    pub title: &'static str,
    /// What it shows, in one or two sentences.
    pub about: &'static str,
    /// The profile to check it under.
    pub profile: Profile,
    pub expect: Expect,
    /// What goes into the editor: a message, a stream, or a `-->` / `<--` transcript.
    pub text: &'static str,
}

/// A line of `library.txt` that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibraryError {
    pub line: usize,
    pub message: String,
}

/// Every example, in library order.
#[cfg(not(target_arch = "wasm32"))]
pub fn all() -> &'static [Example] {
    static ALL: OnceLock<Vec<Example>> = OnceLock::new();
    // The library is part of the build and tested: a broken one yields no examples, never a panic.
    ALL.get_or_init(|| parse(LIBRARY).unwrap_or_default())
}

/// The example with this id.
#[cfg(not(target_arch = "wasm32"))]
pub fn find(id: &str) -> Option<&'static Example> {
    all().iter().find(|e| e.id == id)
}

/// The categories in library order, each with its examples.
#[cfg(not(target_arch = "wasm32"))]
pub fn by_category() -> Vec<(&'static str, Vec<&'static Example>)> {
    let mut groups: Vec<(&'static str, Vec<&'static Example>)> = Vec::new();
    for example in all() {
        match groups.iter_mut().find(|(c, _)| *c == example.category) {
            Some((_, list)) => list.push(example),
            None => groups.push((example.category, vec![example])),
        }
    }
    groups
}

/// `jsonrpc` or `mcp <version>`.
pub fn parse_profile(s: &str) -> Option<Profile> {
    match s.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["jsonrpc"] => Some(Profile::JsonRpc),
        ["mcp"] => Some(Profile::Mcp(McpVersion::default())),
        ["mcp", v] => v.parse().ok().map(Profile::Mcp),
        _ => None,
    }
}

/// Reads a library in the `library.txt` format.
pub fn parse(src: &'static str) -> Result<Vec<Example>, LibraryError> {
    let mut examples = Vec::new();
    let lines: Vec<&'static str> = src.split('\n').collect();
    let mut i = 0;
    let err = |line: usize, message: String| LibraryError {
        line: line + 1,
        message,
    };
    while i < lines.len() {
        let line = lines[i];
        let Some(id) = line.strip_prefix("=== ") else {
            if !(line.trim().is_empty() || line.starts_with('#')) {
                return Err(err(i, format!("expected `=== id`, found {}", quote(line))));
            }
            i += 1;
            continue;
        };
        let start = i;
        let (mut category, mut title, mut about, mut profile, mut expect) =
            (None, None, None, None, None);
        i += 1;
        while i < lines.len() && lines[i] != "---" {
            let (name, value) = lines[i]
                .split_once(':')
                .and_then(|(n, v)| Some((n, v.strip_prefix(' ')?)))
                .ok_or_else(|| {
                    err(
                        i,
                        format!("expected `name: value`, found {}", quote(lines[i])),
                    )
                })?;
            match name {
                "category" => category = Some(value),
                "title" => title = Some(value),
                "about" => about = Some(value),
                "profile" => {
                    profile = Some(
                        parse_profile(value)
                            .ok_or_else(|| err(i, format!("unknown profile {}", quote(value))))?,
                    )
                }
                "expect" => {
                    expect = Some(
                        match value.split_whitespace().collect::<Vec<_>>().as_slice() {
                            ["clean"] => Expect::Clean,
                            ["rules", rules @ ..] if !rules.is_empty() => {
                                Expect::Rules(rules.to_vec())
                            }
                            _ => {
                                return Err(err(
                                    i,
                                    format!(
                                        "expect is `clean` or `rules id ...`, found {}",
                                        quote(value)
                                    ),
                                ))
                            }
                        },
                    )
                }
                _ => return Err(err(i, format!("unknown field {}", quote(name)))),
            }
            i += 1;
        }
        if i >= lines.len() {
            return Err(err(start, format!("example {id} has no `---` line")));
        }
        i += 1;
        let body_start = i;
        while i < lines.len() && !lines[i].starts_with("=== ") {
            i += 1;
        }
        // The text: the body's lines, without trailing blank lines (a slice of the library).
        let mut body_end = i;
        while body_end > body_start && lines[body_end - 1].trim().is_empty() {
            body_end -= 1;
        }
        if body_end == body_start {
            return Err(err(start, format!("example {id} has no text")));
        }
        let from = offset(src, lines[body_start]);
        let to = offset(src, lines[body_end - 1]) + lines[body_end - 1].len();
        let missing = |what: &str| err(start, format!("example {id} has no {what}"));
        examples.push(Example {
            id,
            category: category.ok_or_else(|| missing("category"))?,
            title: title.ok_or_else(|| missing("title"))?,
            about: about.ok_or_else(|| missing("about"))?,
            profile: profile.ok_or_else(|| missing("profile"))?,
            expect: expect.ok_or_else(|| missing("expect"))?,
            text: &src[from..to],
        });
    }
    Ok(examples)
}

/// Where the slice `part` of `src` starts.
fn offset(src: &str, part: &str) -> usize {
    part.as_ptr() as usize - src.as_ptr() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_library_starts_at_its_first_example() {
        assert!(LIBRARY.starts_with("=== "), "{}", &LIBRARY[..40]);
        assert!(FILE.starts_with('#') && FILE.ends_with(LIBRARY));
        assert!(LIBRARY.len() < FILE.len() && !LIBRARY.lines().any(|l| l.starts_with("# ")));
    }

    #[test]
    fn the_menu_lists_every_example_with_its_category_and_title_in_order() {
        let from_menu: Vec<_> = menu()
            .into_iter()
            .flat_map(|(category, list)| list.into_iter().map(move |e| (category, e)))
            .map(|(category, e)| (category, e.id, e.title))
            .collect();
        let from_library: Vec<_> = by_category()
            .into_iter()
            .flat_map(|(category, list)| list.into_iter().map(move |e| (category, e)))
            .map(|(category, e)| (category, e.id, e.title))
            .collect();
        assert!(from_library.len() >= 25);
        assert_eq!(from_menu, from_library);
    }

    #[test]
    fn the_library_file_is_well_under_its_bound() {
        assert!(FILE.len() < LIBRARY_MAX_BYTES / 4, "{}", FILE.len());
    }

    #[test]
    fn the_menu_keeps_only_the_heads_fields_it_lists() {
        let (text, len) = menu_lines::<64>(
            "# h\n=== a\ncategory: C\nprofile: jsonrpc\ntitle: T\nabout: A\n---\ntitle: not this\n",
        );
        assert_eq!(len, "=== a\ncategory: C\ntitle: T\n".len());
        assert_eq!(&text[..len], b"=== a\ncategory: C\ntitle: T\n");
        assert!(!MENU_TEXT.contains("-->") && MENU_TEXT.len() < FILE.len() / 2);
    }

    #[test]
    fn without_header_keeps_a_text_with_no_header_and_cuts_only_before_a_line_start() {
        assert_eq!(without_header("=== a\nx"), "=== a\nx");
        assert_eq!(without_header("# h\n# === not this\n=== b\n"), "=== b\n");
        assert_eq!(without_header("no example"), "no example");
    }
}
