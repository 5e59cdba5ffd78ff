//! Board strings: 64 cells `a1 … h8` row by row, then the side to move (`…---XO--- X`).
//!
//! Input accepts the union of the alphabets in use: black `X x * B b`, white `O o 0 W w`, empty
//! `- . _ e E`; whitespace between cells is skipped (so GGS's row-separated boards parse); the side
//! is `X O * B W 0` or `Black`/`White` in any case, with or without whitespace before it. Output is
//! canonical: `X`/`O`/`-` cells, a space, `X` or `O`.

use super::error::Excerpt;
use super::{Color, Position};
use crate::board::Board;

/// What is wrong with a board string.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum BoardStringErrorKind {
    #[error("{found:?} is not a board cell (expected X/x/*/B/b for black, O/o/0/W/w for white, -/./_/e for empty)")]
    BadCell { found: char },
    #[error("only {found} of the 64 cells are present")]
    TooFewCells { found: usize },
    #[error("the side to move is missing after the 64 cells")]
    MissingSide,
    #[error("{found} is not a side to move (expected X, O, B, W, Black or White)")]
    BadSide { found: Excerpt },
}

/// A board string that did not parse, with the 1-based character column where it went wrong.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("board string, column {column}: {kind}")]
pub struct BoardStringError {
    pub column: usize,
    pub kind: BoardStringErrorKind,
}

/// The colour a cell character stands for: `Some(Some(colour))`, `Some(None)` for empty, `None`
/// for a character that is not a cell.
fn cell_color(c: char) -> Option<Option<Color>> {
    match c {
        'X' | 'x' | '*' | 'B' | 'b' => Some(Some(Color::Black)),
        'O' | 'o' | '0' | 'W' | 'w' => Some(Some(Color::White)),
        '-' | '.' | '_' | 'e' | 'E' => Some(None),
        _ => None,
    }
}

/// Parses a side-to-move word: `X`, `O`, `*`, `0`, `B`, `W`, `Black`, `White` (any case).
pub fn parse_side(word: &str) -> Option<Color> {
    match word.to_ascii_lowercase().as_str() {
        "x" | "*" | "b" | "black" => Some(Color::Black),
        "o" | "0" | "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// Parses a board string (see the module documentation). Leading and trailing whitespace is
/// allowed; anything else after the side is an error.
pub fn parse_position(text: &str) -> Result<Position, BoardStringError> {
    let mut black = 0u64;
    let mut white = 0u64;
    let mut cells = 0usize;
    let mut column = 0usize;
    let mut rest_start = text.len();
    for (offset, c) in text.char_indices() {
        if cells == 64 {
            rest_start = offset;
            break;
        }
        column += 1;
        if c.is_whitespace() {
            continue;
        }
        let color = cell_color(c).ok_or(BoardStringError {
            column,
            kind: BoardStringErrorKind::BadCell { found: c },
        })?;
        match color {
            Some(Color::Black) => black |= 1u64 << cells,
            Some(Color::White) => white |= 1u64 << cells,
            None => {}
        }
        cells += 1;
    }
    if cells < 64 {
        return Err(BoardStringError {
            column: column + 1,
            kind: BoardStringErrorKind::TooFewCells { found: cells },
        });
    }
    let rest = text.get(rest_start..).unwrap_or("");
    let side_word = rest.trim();
    let side_column = column + 1 + leading_whitespace_chars(rest);
    if side_word.is_empty() {
        return Err(BoardStringError {
            column: side_column,
            kind: BoardStringErrorKind::MissingSide,
        });
    }
    let to_move = parse_side(side_word).ok_or_else(|| BoardStringError {
        column: side_column,
        kind: BoardStringErrorKind::BadSide {
            found: Excerpt::of(side_word),
        },
    })?;
    let board = match to_move {
        Color::Black => Board::new(black, white),
        Color::White => Board::new(white, black),
    };
    Ok(Position::new(board, to_move))
}

fn leading_whitespace_chars(s: &str) -> usize {
    s.chars().take_while(|c| c.is_whitespace()).count()
}

/// The 64 cells with the given letters for black, white and empty.
pub(crate) fn format_cells(pos: &Position, black: char, white: char, empty: char) -> String {
    let (b, w) = (pos.black(), pos.white());
    (0..64)
        .map(|i| {
            let bit = 1u64 << i;
            if b & bit != 0 {
                black
            } else if w & bit != 0 {
                white
            } else {
                empty
            }
        })
        .collect()
}

/// The canonical board string: `X`/`O`/`-` cells, a space, `X` or `O`.
pub fn format_position(pos: &Position) -> String {
    let mut s = format_cells(pos, 'X', 'O', '-');
    s.push(' ');
    s.push(pos.to_move.letter());
    s
}

impl std::fmt::Display for Position {
    /// The canonical board string: 64 cells `X`/`O`/`-`, a space, `X` or `O`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&format_position(self))
    }
}

impl std::str::FromStr for Position {
    type Err = BoardStringError;

    fn from_str(s: &str) -> Result<Position, BoardStringError> {
        parse_position(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn parses_the_start_and_prints_it_back() {
        let p = parse_position(START).unwrap();
        assert_eq!(p, Position::START);
        assert_eq!(format_position(&p), START);
        assert_eq!(p.to_string(), START);
    }

    #[test]
    fn accepts_other_alphabets_and_layouts() {
        let ggs = "-------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *";
        assert_eq!(parse_position(ggs).unwrap(), Position::START);
        let edax = "...........................wb......bw........................... black";
        assert_eq!(parse_position(edax).unwrap(), Position::START);
        let egaroucid = "___________________________ox______xo___________________________B";
        assert_eq!(parse_position(egaroucid).unwrap(), Position::START);
        let white = format!("{}W0BBBBBBBXO{}  White \n", "e".repeat(27), "E".repeat(26));
        let p = parse_position(&white).unwrap();
        assert_eq!(p.to_move, Color::White);
        assert_eq!(p.black().count_ones(), 8);
        assert_eq!(p.white().count_ones(), 3);
    }

    #[test]
    fn errors_say_what_and_where() {
        let e = parse_position("--?").unwrap_err();
        assert_eq!(e.column, 3);
        assert_eq!(e.kind, BoardStringErrorKind::BadCell { found: '?' });
        let e = parse_position("----").unwrap_err();
        assert_eq!(e.kind, BoardStringErrorKind::TooFewCells { found: 4 });
        let e = parse_position(&START[..64]).unwrap_err();
        assert_eq!(e.kind, BoardStringErrorKind::MissingSide);
        assert_eq!(e.column, 65);
        let e = parse_position(&format!("{} Q", &START[..64])).unwrap_err();
        assert_eq!(e.column, 66);
        assert!(matches!(e.kind, BoardStringErrorKind::BadSide { .. }));
        let e = parse_position(&format!("{} X X", &START[..64])).unwrap_err();
        assert!(matches!(e.kind, BoardStringErrorKind::BadSide { .. }));
    }
}
