//! A valuer for the book's tests: a deterministic stand-in for searches (the exact solver,
//! which needs the search, is in `tools::book_valuation_tests`).

use super::builder::{Valuation, Valuer};
use super::BookLookup;
use crate::board::{Board, Square};

/// The lowest allowed square, valued from the board's hash in `[-modulus/2, modulus/2]`;
/// `exact` claims a solve (depth = empties), else a depth-8 search.
pub struct Hashed {
    pub modulus: u64,
    pub exact: bool,
}

impl Hashed {
    pub fn new(modulus: u64, exact: bool) -> Hashed {
        Hashed { modulus, exact }
    }
}

impl Valuer for Hashed {
    fn best_of(
        &mut self,
        board: &Board,
        allowed: u64,
        _exact: bool,
        _book: &dyn BookLookup,
    ) -> Option<Valuation> {
        Some(Valuation {
            sq: Square::first_of(allowed)?,
            value: (board.hash() % self.modulus) as i32 - (self.modulus / 2) as i32,
            depth: if self.exact {
                board.empty_count() as u8
            } else {
                8
            },
            exact: self.exact,
        })
    }
}
