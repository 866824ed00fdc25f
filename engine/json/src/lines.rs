//! Byte offsets to 1-based line and column (columns count characters, as editors do).

/// A 1-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// Bytes per block of the character-count table.
const BLOCK: usize = 64;

/// The start of every line of a text, for turning byte offsets into positions. Columns on long
/// lines (a 10 MB one-line batch) cost at most one block's scan: `chars_before[k]` counts the
/// characters before byte `k * BLOCK`.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
    chars_before: Vec<usize>,
    len: usize,
}

/// True for a byte that starts a character (every byte but a UTF-8 continuation byte).
fn starts_char(b: u8) -> bool {
    b & 0xC0 != 0x80
}

impl LineIndex {
    pub fn new(src: &[u8]) -> Self {
        let mut starts = vec![0];
        starts.extend(
            src.iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        let mut chars_before = Vec::with_capacity(src.len() / BLOCK + 1);
        let mut count = 0;
        for block in src.chunks(BLOCK) {
            chars_before.push(count);
            count += block.iter().filter(|&&b| starts_char(b)).count();
        }
        chars_before.push(count);
        LineIndex {
            starts,
            chars_before,
            len: src.len(),
        }
    }

    /// How many characters precede byte `offset`.
    fn chars_to(&self, src: &[u8], offset: usize) -> usize {
        let block = offset / BLOCK;
        self.chars_before[block]
            + src[block * BLOCK..offset]
                .iter()
                .filter(|&&b| starts_char(b))
                .count()
    }

    /// The 0-based line holding `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    }

    /// The line and column of `offset`. `src` is the text the index was built from; every byte
    /// that is not a UTF-8 continuation byte counts as one character.
    pub fn position(&self, src: &[u8], offset: usize) -> Position {
        let offset = offset.min(self.len);
        let line = self.line_of(offset);
        let start = self.starts[line];
        let column = 1 + self.chars_to(src, offset) - self.chars_to(src, start);
        Position {
            line: line + 1,
            column,
        }
    }

    /// The byte range of the 0-based line `line`, without its line break.
    pub fn line_span(&self, src: &[u8], line: usize) -> (usize, usize) {
        let start = self.starts[line.min(self.starts.len() - 1)];
        let mut end = self.starts.get(line + 1).map_or(self.len, |&s| s - 1);
        if end > start && src.get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        (start, end)
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_not_bytes() {
        let src = "ab\né€x\n";
        let idx = LineIndex::new(src.as_bytes());
        assert_eq!(
            idx.position(src.as_bytes(), 0),
            Position { line: 1, column: 1 }
        );
        assert_eq!(
            idx.position(src.as_bytes(), 3),
            Position { line: 2, column: 1 }
        );
        let x = src.find('x').unwrap();
        assert_eq!(
            idx.position(src.as_bytes(), x),
            Position { line: 2, column: 3 }
        );
        assert_eq!(
            idx.position(src.as_bytes(), src.len()),
            Position { line: 3, column: 1 }
        );
    }

    #[test]
    fn columns_on_long_lines_agree_with_counting() {
        let src: String = (0..5000)
            .map(|i| if i % 7 == 0 { 'é' } else { 'a' })
            .collect();
        let src = format!("x\n{src}");
        let b = src.as_bytes();
        let idx = LineIndex::new(b);
        for offset in [2, 3, 1024, 1025, 2047, 4000, b.len()] {
            let expected = 1 + b[2..offset].iter().filter(|&&c| c & 0xC0 != 0x80).count();
            assert_eq!(
                idx.position(b, offset),
                Position {
                    line: 2,
                    column: expected
                },
                "offset {offset}"
            );
        }
    }

    #[test]
    fn line_span_drops_the_break() {
        let src = b"one\r\ntwo";
        let idx = LineIndex::new(src);
        assert_eq!(idx.line_span(src, 0), (0, 3));
        assert_eq!(idx.line_span(src, 1), (5, 8));
    }
}
