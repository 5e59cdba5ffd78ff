//! Helpers shared by the integration tests.

use wedge_core::board::{Board, Square};
use wedge_core::book::{BookLookup, Valuation, Valuer};

/// A deterministic stand-in for the book's searches: the lowest allowed square, valued from
/// the board's hash in -4..=4 at depth 8.
pub struct FakeValuer;

impl Valuer for FakeValuer {
    fn best_of(
        &mut self,
        board: &Board,
        allowed: u64,
        _exact: bool,
        _book: &dyn BookLookup,
    ) -> Option<Valuation> {
        Some(Valuation {
            sq: Square::first_of(allowed)?,
            value: (board.hash() % 9) as i32 - 4,
            depth: 8,
            exact: false,
        })
    }
}
