//! Squares and moves: `a1 = 0 … h8 = 63`, row-major with `a1` top left, and `Move` (a square or a pass).

use std::fmt;
use std::str::FromStr;

/// The four corners, a1, h1, a8 and h8, as a bitboard.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;
/// The squares beside a corner on an edge (b1, g1, a2, h2, a7, h7, b8, g8).
pub const C_SQUARES: u64 = 0x4281_0000_0000_8142;
/// The squares diagonally next to a corner (b2, g2, b7, g7).
pub const X_SQUARES: u64 = 0x0042_0000_0000_4200;

/// One of the 64 squares. Index `row * 8 + col`, `a1 = 0`, `h1 = 7`, `a8 = 56`, `h8 = 63`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

/// Why a square name did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a square: {0:?} (expected a column a-h and a row 1-8, e.g. f5)")]
pub struct BadSquare(pub String);

impl Square {
    /// The square with index `index`, if `index < 64`.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with index `index`. Panics in debug builds when `index >= 64`.
    #[inline(always)]
    pub const fn from_index(index: u32) -> Square {
        debug_assert!(index < 64);
        Square(index as u8)
    }

    /// The square at column `col` (0 = a) and row `row` (0 = row 1), if both are in 0..8.
    pub const fn from_coords(col: u8, row: u8) -> Option<Square> {
        if col < 8 && row < 8 {
            Some(Square(row * 8 + col))
        } else {
            None
        }
    }

    /// The lowest square of a non-empty bitboard.
    #[inline(always)]
    pub fn first_of(bits: u64) -> Option<Square> {
        if bits == 0 {
            None
        } else {
            Some(Square(bits.trailing_zeros() as u8))
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column, 0 = a … 7 = h.
    #[inline(always)]
    pub const fn col(self) -> u8 {
        self.0 & 7
    }

    /// Row, 0 = row 1 (top) … 7 = row 8 (bottom).
    #[inline(always)]
    pub const fn row(self) -> u8 {
        self.0 >> 3
    }

    /// The single-bit bitboard of this square.
    #[inline(always)]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// All 64 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col()) as char, self.row() + 1)
    }
}

impl FromStr for Square {
    type Err = BadSquare;

    /// Parses `f5` or `F5`.
    fn from_str(s: &str) -> Result<Square, BadSquare> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return Err(BadSquare(s.to_string()));
        }
        let col = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = b[1].wrapping_sub(b'1');
        Square::from_coords(col, row).ok_or_else(|| BadSquare(s.to_string()))
    }
}

/// Iterates over the squares of a bitboard, lowest index first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(pub u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        let sq = Square::first_of(self.0)?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

/// A move: a disc placed on a square, or a pass (only legal when the mover has no square).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    Play(Square),
    Pass,
}

impl Move {
    pub fn square(self) -> Option<Square> {
        match self {
            Move::Play(sq) => Some(sq),
            Move::Pass => None,
        }
    }
}

impl fmt::Display for Move {
    /// `f5` for a square, `PA` for a pass (the Othello transcript convention).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(sq) => sq.fmt(f),
            Move::Pass => f.write_str("PA"),
        }
    }
}

impl FromStr for Move {
    type Err = BadSquare;

    /// Parses a square (`f5`, `F5`) or a pass (`PA`, `pa`, `pass`, `PASS`, `--`).
    fn from_str(s: &str) -> Result<Move, BadSquare> {
        if s.eq_ignore_ascii_case("pa") || s.eq_ignore_ascii_case("pass") || s == "--" {
            Ok(Move::Pass)
        } else {
            s.parse().map(Move::Play)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            let name = sq.to_string();
            assert_eq!(name.parse::<Square>().unwrap(), sq);
            assert_eq!(name.to_uppercase().parse::<Square>().unwrap(), sq);
        }
        assert_eq!("a1".parse::<Square>().unwrap().index(), 0);
        assert_eq!("h1".parse::<Square>().unwrap().index(), 7);
        assert_eq!("a8".parse::<Square>().unwrap().index(), 56);
        assert_eq!("h8".parse::<Square>().unwrap().index(), 63);
        for bad in ["", "a", "a0", "a9", "i1", "aa", "f55", "é1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
        assert_eq!("PA".parse::<Move>().unwrap(), Move::Pass);
        assert_eq!("pass".parse::<Move>().unwrap(), Move::Pass);
        assert_eq!(Move::Pass.to_string(), "PA");
    }

    #[test]
    fn squares_iterates_bits_in_order() {
        let v: Vec<usize> = Squares(0x8000_0000_0000_0101).map(Square::index).collect();
        assert_eq!(v, vec![0, 8, 63]);
        assert_eq!(Squares(0).count(), 0);
    }
}
