//! Where in a text an error happened: byte offset, line and column, shared by the text parsers.

use std::fmt;

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
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
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

/// The 1-based character column of byte `offset` within a single line.
pub(crate) fn char_column(line: &str, offset: usize) -> usize {
    TextLocation::of_offset(line, offset).column
}

#[cfg(test)]
mod tests {
    use super::*;

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
