//! Valuers for the book's tests: a deterministic stand-in for searches, and the exact solver.

use super::builder::normalize;
use super::{BookLookup, Valuation, Valuer};
use crate::board::{Board, Square, Squares};
use crate::eval::heuristic::Heuristic;
use crate::search::TranspositionTable;
use std::sync::atomic::AtomicBool;

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

/// The exact value of a position (the end of the game included).
pub fn solve(board: &Board, tt: &TranspositionTable) -> i32 {
    if board.is_game_over() {
        return board.final_score();
    }
    let stop = AtomicBool::new(false);
    crate::search::solve_root(board, -64, 64, tt, &Heuristic, &stop).score
}

/// Solves every allowed move exactly. With `claim_exact` false it reports a midgame depth,
/// so the positions stay unsolved (and expandable) while their values are exact.
pub struct Solver {
    tt: TranspositionTable,
    claim_exact: bool,
}

impl Solver {
    pub fn new(claim_exact: bool) -> Solver {
        Solver {
            tt: TranspositionTable::new(8),
            claim_exact,
        }
    }
}

impl Valuer for Solver {
    fn best_of(
        &mut self,
        board: &Board,
        allowed: u64,
        _exact: bool,
        _book: &dyn BookLookup,
    ) -> Option<Valuation> {
        let mut best: Option<(Square, i32)> = None;
        for sq in Squares(allowed & board.legal_moves()) {
            let child = board.play_flips(sq, board.flips(sq));
            let v = match normalize(&child) {
                None => -child.final_score(),
                Some((b, true)) => solve(&b, &self.tt),
                Some((b, false)) => -solve(&b, &self.tt),
            };
            if best.is_none_or(|b| v > b.1) {
                best = Some((sq, v));
            }
        }
        let (sq, value) = best?;
        let n = board.empty_count() as u8;
        Some(Valuation {
            sq,
            value,
            depth: if self.claim_exact { n } else { n - 1 },
            exact: self.claim_exact,
        })
    }
}
