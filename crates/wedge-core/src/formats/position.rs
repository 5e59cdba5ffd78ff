//! The colour-aware position: [`Color`], [`Position`] (the core board plus whose turn it is)
//! and [`OverlappingDiscs`], the error of building one from two overlapping colours.

use crate::board::{Board, IllegalMove, Move, Square};
use std::fmt;

/// A colour. Black moves first from the standard start.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// The other colour.
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `X` for Black, `O` for White (the board-string letters).
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}

/// A board with colours: the core [`Board`] (side to move first) plus whose turn it is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub board: Board,
    pub to_move: Color,
}

/// Two colours claim the same square (`black & white != 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("black and white discs overlap on {overlap:#018x}")]
pub struct OverlappingDiscs {
    pub overlap: u64,
}

impl Position {
    /// The standard start, Black to move.
    pub const START: Position = Position {
        board: Board::START,
        to_move: Color::Black,
    };

    pub const fn new(board: Board, to_move: Color) -> Position {
        Position { board, to_move }
    }

    /// Builds a position from the black and white bitboards.
    pub fn from_colors(
        black: u64,
        white: u64,
        to_move: Color,
    ) -> Result<Position, OverlappingDiscs> {
        if black & white != 0 {
            return Err(OverlappingDiscs {
                overlap: black & white,
            });
        }
        let board = match to_move {
            Color::Black => Board::new(black, white),
            Color::White => Board::new(white, black),
        };
        Ok(Position { board, to_move })
    }

    /// Black's discs.
    pub fn black(&self) -> u64 {
        match self.to_move {
            Color::Black => self.board.player,
            Color::White => self.board.opponent,
        }
    }

    /// White's discs.
    pub fn white(&self) -> u64 {
        match self.to_move {
            Color::Black => self.board.opponent,
            Color::White => self.board.player,
        }
    }

    /// The discs of `color`.
    pub fn discs_of(&self, color: Color) -> u64 {
        match color {
            Color::Black => self.black(),
            Color::White => self.white(),
        }
    }

    /// The colour of the disc on `sq`, if any.
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.black() & sq.bit() != 0 {
            Some(Color::Black)
        } else if self.white() & sq.bit() != 0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The position after `mv`, checked for legality (a pass only when the mover has no square).
    pub fn apply(&self, mv: Move) -> Result<Position, IllegalMove> {
        let board = self.board.apply(mv)?;
        Ok(Position {
            board,
            to_move: self.to_move.opposite(),
        })
    }

    /// The position with the turn handed to the other side (no legality check).
    pub fn passed(&self) -> Position {
        Position {
            board: self.board.pass(),
            to_move: self.to_move.opposite(),
        }
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::START
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_colours() {
        let p = Position::START;
        let d5: Square = "d5".parse().unwrap();
        let e4: Square = "e4".parse().unwrap();
        let d4: Square = "d4".parse().unwrap();
        assert_eq!(p.color_at(d5), Some(Color::Black));
        assert_eq!(p.color_at(e4), Some(Color::Black));
        assert_eq!(p.color_at(d4), Some(Color::White));
        assert_eq!(p.black().count_ones(), 2);
        let q = p.apply(Move::Play("f5".parse().unwrap())).unwrap();
        assert_eq!(q.to_move, Color::White);
        assert_eq!(q.black().count_ones(), 4);
        assert_eq!(q.white().count_ones(), 1);
    }

    #[test]
    fn from_colors_rejects_overlap_and_round_trips() {
        assert!(Position::from_colors(1, 1, Color::Black).is_err());
        let p = Position::from_colors(0b10, 0b100, Color::White).unwrap();
        assert_eq!(p.black(), 0b10);
        assert_eq!(p.white(), 0b100);
        assert_eq!(p.board.player, 0b100);
    }
}
