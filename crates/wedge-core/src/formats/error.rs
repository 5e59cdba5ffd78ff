//! Where in a text an error happened: byte offset, line and column, shared by the text parsers.

use std::fmt;

/// The largest byte offset of at most `max` in `text` that falls on a character boundary (where
/// the text may be cut).
pub fn floor_char_boundary(text: &str, max: usize) -> usize {
    let mut offset = max.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// A place in a text. `line` and `column` count from 1; `column` counts characters, not bytes.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct TextLocation {
    pub offset: usize,
    pub line: usize,
    pub column: usize,
}

impl TextLocation {
    /// The location of byte `offset` in `text` (clamped to the text's length and moved back to a
    /// character boundary, so any offset is safe).
    pub fn of_offset(text: &str, offset: usize) -> TextLocation {
        let offset = floor_char_boundary(text, offset);
        let before = text.get(..offset).unwrap_or("");
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let line = before.matches('\n').count() + 1;
        let column = before.get(line_start..).map_or(0, |s| s.chars().count()) + 1;
        TextLocation {
            offset,
            line,
            column,
        }
    }
}

impl fmt::Display for TextLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {} (byte {})",
            self.line, self.column, self.offset
        )
    }
}

/// A piece of input quoted in an error message: whole when short, else its first
/// [`Excerpt::MAX_CHARS`] characters, an ellipsis and its length (a 5 MB line is not echoed).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Excerpt {
    /// The quoted text (the beginning only when `bytes` is larger).
    pub text: String,
    /// The length of the whole text in bytes.
    pub bytes: usize,
}

impl Excerpt {
    pub const MAX_CHARS: usize = 80;

    pub fn of(text: &str) -> Excerpt {
        let cut = text
            .char_indices()
            .nth(Self::MAX_CHARS)
            .map_or(text.len(), |(i, _)| i);
        Excerpt {
            text: text[..cut].to_string(),
            bytes: text.len(),
        }
    }

    /// True when the whole text is quoted.
    pub fn is_whole(&self) -> bool {
        self.text.len() == self.bytes
    }
}

impl fmt::Display for Excerpt {
    /// Quoted like `{:?}` of a string; a cut text ends in `…` and gives its length.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_whole() {
            write!(f, "{:?}", self.text)
        } else {
            let quoted = format!("{:?}", self.text);
            let inner = &quoted[..quoted.len() - 1];
            write!(f, "{inner}…\" ({} bytes)", self.bytes)
        }
    }
}

/// The 1-based character column of byte `offset` within a single line.
pub(crate) fn char_column(line: &str, offset: usize) -> usize {
    TextLocation::of_offset(line, offset).column
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_texts_are_quoted_in_part_with_their_length() {
        assert_eq!(Excerpt::of("f9").to_string(), "\"f9\"");
        assert_eq!(Excerpt::of("a\"b").to_string(), "\"a\\\"b\"");
        let long = "é".repeat(100);
        let e = Excerpt::of(&long);
        assert!(!e.is_whole());
        assert_eq!(
            e.to_string(),
            format!("\"{}…\" (200 bytes)", "é".repeat(80))
        );
        let exact = "x".repeat(80);
        assert_eq!(Excerpt::of(&exact).to_string(), format!("{exact:?}"));
    }

    #[test]
    fn locates_lines_and_columns() {
        let t = "ab\ncdé\nf";
        assert_eq!(TextLocation::of_offset(t, 0).column, 1);
        let l = TextLocation::of_offset(t, 4);
        assert_eq!((l.line, l.column), (2, 2));
        // Past the é (two bytes) counts one column.
        let l = TextLocation::of_offset(t, 7);
        assert_eq!((l.line, l.column), (2, 4));
        // Inside a multi-byte char and past the end are clamped, never panic.
        let _ = TextLocation::of_offset(t, 6);
        let l = TextLocation::of_offset(t, 100);
        assert_eq!((l.line, l.column), (3, 2));
    }
}
