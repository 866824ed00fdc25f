//! Byte offsets to 1-based line and column (columns count characters, as editors do).

/// A 1-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// The start of every line of a text, for turning byte offsets into positions.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub fn new(src: &[u8]) -> Self {
        let mut starts = vec![0];
        starts.extend(src.iter().enumerate().filter(|(_, &b)| b == b'\n').map(|(i, _)| i + 1));
        LineIndex { starts, len: src.len() }
    }

    /// The 0-based line holding `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset).saturating_sub(1)
    }

    /// The line and column of `offset`. `src` is the text the index was built from; every byte
    /// that is not a UTF-8 continuation byte counts as one character.
    pub fn position(&self, src: &[u8], offset: usize) -> Position {
        let offset = offset.min(self.len);
        let line = self.line_of(offset);
        let start = self.starts[line];
        let column = 1 + src[start..offset].iter().filter(|&&b| b & 0xC0 != 0x80).count();
        Position { line: line + 1, column }
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
        assert_eq!(idx.position(src.as_bytes(), 0), Position { line: 1, column: 1 });
        assert_eq!(idx.position(src.as_bytes(), 3), Position { line: 2, column: 1 });
        let x = src.find('x').unwrap();
        assert_eq!(idx.position(src.as_bytes(), x), Position { line: 2, column: 3 });
        assert_eq!(idx.position(src.as_bytes(), src.len()), Position { line: 3, column: 1 });
    }

    #[test]
    fn line_span_drops_the_break() {
        let src = b"one\r\ntwo";
        let idx = LineIndex::new(src);
        assert_eq!(idx.line_span(src, 0), (0, 3));
        assert_eq!(idx.line_span(src, 1), (5, 8));
    }
}
