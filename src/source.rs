//! Source text, byte spans and line/column lookup.
//!
//! Every span in warpscope is a half-open byte range `[start, end)` into the
//! text of one [`SourceFile`]. Offsets are `u32`: a PTX file larger than 4 GiB
//! is rejected by [`SourceFile::new`] with a diagnostic-friendly error.
//!
//! Input that is not valid UTF-8 is accepted byte for byte: each invalid byte
//! is replaced by `?` so that every offset still points at the same byte of the
//! original file, and the positions of the replaced bytes are kept so the front
//! end can report them.

use std::fmt;

/// A half-open byte range `[start, end)` in one source file.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord, serde::Serialize)]
pub struct Span {
    /// First byte of the range.
    pub start: u32,
    /// One past the last byte of the range.
    pub end: u32,
}

impl Span {
    /// A span from `start` to `end` (byte offsets).
    pub const fn new(start: u32, end: u32) -> Span {
        Span { start, end }
    }
    /// The smallest span that covers both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
    /// The byte range, for slicing the source text.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
    /// Length in bytes.
    pub fn len(self) -> u32 {
        self.end - self.start
    }
    /// True when the span covers no byte.
    pub fn is_empty(self) -> bool {
        self.end == self.start
    }
    /// True when `offset` lies inside the span (end inclusive, for cursors).
    pub fn contains(self, offset: u32) -> bool {
        self.start <= offset && offset <= self.end
    }
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// A 1-based line and column (column counted in bytes, as ptxas and nvcc do).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct LineCol {
    /// 1-based line number.
    pub line: u32,
    /// 1-based byte column.
    pub column: u32,
}

/// One PTX file: its name (as given by the user), its text and a line index.
///
/// # Example
///
/// ```
/// use warpscope::source::{LineCol, SourceFile};
///
/// // Invalid UTF-8 is read as `?`, byte for byte, so offsets stay exact.
/// let file = SourceFile::new("k.ptx", b"ret;\n\xff\n".to_vec()).unwrap();
/// assert_eq!(file.text(), "ret;\n?\n");
/// assert_eq!(file.invalid_bytes(), &[5]);
/// assert_eq!(file.line_col(5), LineCol { line: 2, column: 1 });
/// ```
#[derive(Clone)]
pub struct SourceFile {
    name: String,
    text: String,
    line_starts: Vec<u32>,
    invalid_bytes: Vec<u32>,
}

/// The file was too large to be addressed with 32-bit offsets.
#[derive(Debug, thiserror::Error)]
#[error("{name}: file of {len} bytes is larger than the 4 GiB warpscope can address")]
pub struct TooLarge {
    /// File name.
    pub name: String,
    /// Its length in bytes.
    pub len: usize,
}

impl SourceFile {
    /// Builds a source file from raw bytes. Invalid UTF-8 bytes are replaced by
    /// `?` one for one (see [`SourceFile::invalid_bytes`]).
    pub fn new(name: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Result<SourceFile, TooLarge> {
        let name = name.into();
        let mut bytes = bytes.into();
        if bytes.len() >= u32::MAX as usize {
            return Err(TooLarge {
                name,
                len: bytes.len(),
            });
        }
        let mut invalid_bytes = Vec::new();
        let mut from = 0;
        loop {
            match std::str::from_utf8(&bytes[from..]) {
                Ok(_) => break,
                Err(e) => {
                    let bad = from + e.valid_up_to();
                    let n = e.error_len().unwrap_or(bytes.len() - bad);
                    for b in &mut bytes[bad..bad + n] {
                        *b = b'?';
                    }
                    invalid_bytes.push(bad as u32);
                    from = bad + n;
                }
            }
        }
        let text = String::from_utf8(bytes).expect("invalid bytes were replaced");
        Ok(SourceFile::from_string(name, text, invalid_bytes))
    }

    /// Builds a source file from text that is already UTF-8.
    pub fn from_text(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let text = text.into();
        assert!(text.len() < u32::MAX as usize, "source text over 4 GiB");
        SourceFile::from_string(name.into(), text, Vec::new())
    }

    fn from_string(name: String, text: String, invalid_bytes: Vec<u32>) -> SourceFile {
        let mut line_starts = vec![0u32];
        line_starts.extend(memchr_newlines(text.as_bytes()));
        SourceFile {
            name,
            text,
            line_starts,
            invalid_bytes,
        }
    }

    /// The name the file was opened under.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The text (invalid UTF-8 bytes replaced by `?`).
    pub fn text(&self) -> &str {
        &self.text
    }
    /// Offsets of the first byte of each invalid UTF-8 sequence in the input.
    pub fn invalid_bytes(&self) -> &[u32] {
        &self.invalid_bytes
    }
    /// Byte offsets at which each line starts (the first is 0).
    pub fn line_starts(&self) -> &[u32] {
        &self.line_starts
    }
    /// The text under a span.
    pub fn slice(&self, span: Span) -> &str {
        &self.text[span.range()]
    }
    /// Number of lines (a text ending in a newline has an empty last line).
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }
    /// Byte offset at which 0-based line `line` starts; `None` past the
    /// last line.
    pub fn line_start(&self, line: usize) -> Option<u32> {
        self.line_starts.get(line).copied()
    }
    /// 0-based line of an offset (the last line past the end).
    pub fn line_index(&self, offset: u32) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }
    /// 1-based line and byte column of an offset.
    pub fn line_col(&self, offset: u32) -> LineCol {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        LineCol {
            line: line as u32 + 1,
            column: offset - self.line_starts[line] + 1,
        }
    }
    /// The byte offset of a 0-based line and byte column, clamped to the text.
    pub fn offset_of(&self, line0: u32, col0: u32) -> u32 {
        let Some(&start) = self.line_starts.get(line0 as usize) else {
            return self.text.len() as u32;
        };
        let end = self
            .line_starts
            .get(line0 as usize + 1)
            .copied()
            .unwrap_or(self.text.len() as u32);
        (start + col0).min(end)
    }
    /// The text of a 1-based line, without its line terminator.
    pub fn line_text(&self, line: u32) -> &str {
        let i = line.saturating_sub(1) as usize;
        let Some(&start) = self.line_starts.get(i) else {
            return "";
        };
        let end = self
            .line_starts
            .get(i + 1)
            .copied()
            .unwrap_or(self.text.len() as u32);
        self.text[start as usize..end as usize].trim_end_matches(['\n', '\r'])
    }
}

fn memchr_newlines(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    bytes
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .map(|(i, _)| i as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one() {
        let f = SourceFile::from_text("a.ptx", "ab\ncd\n");
        assert_eq!(f.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(f.line_col(3), LineCol { line: 2, column: 1 });
        assert_eq!(f.line_col(4), LineCol { line: 2, column: 2 });
        assert_eq!(f.line_text(2), "cd");
    }

    /// The line index's lookups agree with every line's start.
    #[test]
    fn line_index_agrees_with_every_line_start() {
        let mut text = String::new();
        for i in 0..200 {
            text.push_str(&"x".repeat(i % 7));
            text.push_str(if i % 5 == 0 { "\r\n" } else { "\n" });
        }
        text.push_str("tail");
        let f = SourceFile::from_text("a.ptx", text.clone());
        let starts: Vec<u32> = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i as u32 + 1))
            .collect();
        assert_eq!(f.line_count(), starts.len());
        for (l, &s) in starts.iter().enumerate() {
            assert_eq!(f.line_start(l), Some(s));
        }
        assert_eq!(f.line_start(starts.len()), None);
        for offset in 0..text.len() as u32 + 3 {
            let line = match starts.binary_search(&offset) {
                Ok(i) => i,
                Err(i) => i - 1,
            };
            let want = LineCol {
                line: line as u32 + 1,
                column: offset - starts[line] + 1,
            };
            assert_eq!(f.line_col(offset), want, "offset {offset}");
            assert_eq!(f.line_index(offset), line);
        }
        for (l, &s) in starts.iter().enumerate() {
            let end = starts.get(l + 1).copied().unwrap_or(text.len() as u32);
            assert_eq!(f.offset_of(l as u32, 3), (s + 3).min(end));
            let want = text[s as usize..end as usize].trim_end_matches(['\n', '\r']);
            assert_eq!(f.line_text(l as u32 + 1), want);
        }
        assert_eq!(f.offset_of(starts.len() as u32, 0), text.len() as u32);
        assert_eq!(f.line_text(starts.len() as u32 + 1), "");
    }

    #[test]
    fn invalid_utf8_keeps_offsets() {
        let f = SourceFile::new("a.ptx", b"ab\xffcd\xe2\x82".to_vec()).unwrap();
        assert_eq!(f.text(), "ab?cd??");
        assert_eq!(f.invalid_bytes(), &[2, 5]);
    }
}
