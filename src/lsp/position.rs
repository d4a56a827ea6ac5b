//! Byte offsets ⇄ LSP positions.
//!
//! warpscope speaks in byte offsets ([`Span`]); an LSP client speaks in
//! `(line, character)` pairs whose `character` counts UTF-16 code units unless
//! client and server agreed on UTF-8 during `initialize` (LSP 3.17
//! `general.positionEncodings`). [`LineIndex`] does the conversion both ways
//! for one document version.
//!
//! Lines end at `\n`, `\r\n` or a lone `\r`, as the LSP specification says —
//! so this index is built here rather than borrowed from
//! [`SourceFile`](warpscope::source::SourceFile), which counts `\n` only (as
//! ptxas does for its own messages).
//!
//! Every conversion clamps: a position past the end of a line maps to the end
//! of that line, a line past the end of the text maps to the end of the text,
//! a UTF-16 position inside a surrogate pair maps to the start of that
//! character. No client input can make a conversion panic.

use lsp_types::{Position, Range};
use warpscope::source::Span;

/// The unit of `Position::character` negotiated with the client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// Bytes of UTF-8 (negotiated when the client offers `utf-8`).
    Utf8,
    /// UTF-16 code units (the protocol's default).
    Utf16,
}

/// Where each line of one text starts.
#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Byte offset of the first byte of each line; the first is 0.
    starts: Vec<u32>,
    /// Length of the text in bytes.
    len: u32,
}

impl LineIndex {
    /// Indexes `text`.
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = vec![0u32];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => starts.push(i as u32 + 1),
                b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                    starts.push(i as u32 + 2);
                    i += 1;
                }
                b'\r' => starts.push(i as u32 + 1),
                _ => {}
            }
            i += 1;
        }
        LineIndex {
            starts,
            len: bytes.len() as u32,
        }
    }

    /// Byte range of 0-based `line` without its terminator.
    pub fn line_range(&self, text: &str, line: u32) -> (u32, u32) {
        let Some(&start) = self.starts.get(line as usize) else {
            return (self.len, self.len);
        };
        let mut end = self
            .starts
            .get(line as usize + 1)
            .copied()
            .unwrap_or(self.len);
        let b = text.as_bytes();
        while end > start && matches!(b.get(end as usize - 1), Some(b'\n' | b'\r')) {
            end -= 1;
        }
        (start, end)
    }

    /// The 0-based line holding byte `offset` (clamped to the text).
    pub fn line_of(&self, offset: u32) -> u32 {
        let offset = offset.min(self.len);
        (self.starts.partition_point(|&s| s <= offset) - 1) as u32
    }

    /// The LSP position of byte `offset`.
    pub fn position(&self, text: &str, offset: u32, enc: Encoding) -> Position {
        let mut offset = offset.min(self.len);
        while !text.is_char_boundary(offset as usize) {
            offset -= 1;
        }
        let line = self.line_of(offset);
        let start = self.starts[line as usize];
        let character = match enc {
            Encoding::Utf8 => offset - start,
            Encoding::Utf16 => text[start as usize..offset as usize]
                .chars()
                .map(|c| c.len_utf16() as u32)
                .sum(),
        };
        Position { line, character }
    }

    /// The byte offset of an LSP position (clamped to its line and the text).
    pub fn offset(&self, text: &str, pos: Position, enc: Encoding) -> u32 {
        if pos.line as usize >= self.starts.len() {
            return self.len;
        }
        let (start, end) = self.line_range(text, pos.line);
        let line = &text[start as usize..end as usize];
        let col = match enc {
            Encoding::Utf8 => {
                let mut c = (pos.character as usize).min(line.len());
                while !line.is_char_boundary(c) {
                    c -= 1;
                }
                c
            }
            Encoding::Utf16 => {
                let mut units = 0u32;
                let mut col = line.len();
                for (i, ch) in line.char_indices() {
                    let next = units + ch.len_utf16() as u32;
                    if next > pos.character {
                        col = i;
                        break;
                    }
                    units = next;
                }
                col
            }
        };
        start + col as u32
    }

    /// The LSP range of a span.
    pub fn range(&self, text: &str, span: Span, enc: Encoding) -> Range {
        Range {
            start: self.position(text, span.start, enc),
            end: self.position(text, span.end, enc),
        }
    }

    /// The byte span of an LSP range (start and end ordered).
    pub fn span(&self, text: &str, range: Range, enc: Encoding) -> Span {
        let a = self.offset(text, range.start, enc);
        let b = self.offset(text, range.end, enc);
        Span::new(a.min(b), a.max(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn all_three_line_endings_end_a_line() {
        let text = "a\nb\r\nc\rd";
        let ix = LineIndex::new(text);
        assert_eq!(ix.starts.len(), 4);
        assert_eq!(ix.offset(text, p(3, 0), Encoding::Utf16), 7);
        assert_eq!(ix.position(text, 7, Encoding::Utf16), p(3, 0));
        assert_eq!(ix.line_range(text, 1), (2, 3));
    }

    #[test]
    fn utf16_counts_code_units_and_utf8_counts_bytes() {
        // `é` is 2 bytes / 1 unit, `𝄞` is 4 bytes / 2 units (a surrogate pair).
        let text = "// é𝄞x\nld";
        let ix = LineIndex::new(text);
        let x = text.find('x').unwrap() as u32;
        assert_eq!(ix.position(text, x, Encoding::Utf16), p(0, 6));
        assert_eq!(ix.position(text, x, Encoding::Utf8), p(0, 9));
        assert_eq!(ix.offset(text, p(0, 6), Encoding::Utf16), x);
        assert_eq!(ix.offset(text, p(0, 9), Encoding::Utf8), x);
        // Inside the surrogate pair: the start of `𝄞`.
        assert_eq!(ix.offset(text, p(0, 5), Encoding::Utf16), x - 4);
        // Inside a UTF-8 sequence: the start of the character.
        assert_eq!(ix.offset(text, p(0, 8), Encoding::Utf8), x - 4);
    }

    #[test]
    fn out_of_range_positions_clamp() {
        let text = "ab\ncd";
        let ix = LineIndex::new(text);
        assert_eq!(ix.offset(text, p(0, 99), Encoding::Utf16), 2);
        assert_eq!(ix.offset(text, p(9, 0), Encoding::Utf16), 5);
        assert_eq!(ix.position(text, 999, Encoding::Utf8), p(1, 2));
        let empty = LineIndex::new("");
        assert_eq!(empty.position("", 0, Encoding::Utf16), p(0, 0));
        assert_eq!(empty.offset("", p(3, 3), Encoding::Utf16), 0);
    }

    #[test]
    fn span_and_range_round_trip() {
        let text = "x é\r\n  ld.global.f32 %f1, [%rd1];\n";
        let ix = LineIndex::new(text);
        let s = text.find("ld").unwrap() as u32;
        let span = Span::new(s, s + 13);
        for enc in [Encoding::Utf8, Encoding::Utf16] {
            let r = ix.range(text, span, enc);
            assert_eq!(r.start, p(1, 2));
            assert_eq!(ix.span(text, r, enc), span);
        }
    }
}
