//! The incremental pattern state: the ternary indices of all pattern instances, updated when a move
//! is made (placed disc plus flips) and restored on undo by copying (the state is a small
//! `Copy` value, so the search keeps one per ply: no allocation, no undo bookkeeping).
//!
//! Indices are kept from both sides' views: `stm` with the side to move as digit 1, `opp` with
//! the opponent as digit 1. A move makes the old `opp` view (plus the move) the new `stm` one
//! and the other way round, so the evaluation reads one table of one perspective, whichever
//! side is to move, and the tables need no copy for the other side.

use super::kernels;
use super::patterns::{indices, INDEX_LANES, N_INSTANCES, SQUARE_POWERS};
use crate::board::Board;

/// Pattern indices of a position, maintained incrementally. Aligned to a cache line, so that
/// the kernels' vectors never straddle two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Features {
    /// Raw ternary index of each instance, side to move = digit 1 (then zeros up to
    /// [`INDEX_LANES`]).
    pub stm: [u16; INDEX_LANES],
    /// The same with the opponent as digit 1.
    pub opp: [u16; INDEX_LANES],
}

impl Features {
    /// The indices of `board` computed from scratch.
    pub fn new(board: &Board) -> Features {
        let mut stm = [0u16; INDEX_LANES];
        stm[..N_INSTANCES].copy_from_slice(&indices(board));
        let mut opp = [0u16; INDEX_LANES];
        opp[..N_INSTANCES].copy_from_slice(&indices(&board.pass()));
        Features { stm, opp }
    }

    /// Updates the state for the side to move playing `sq` (0..64) and flipping `flips`.
    #[inline(always)]
    pub fn play(&mut self, sq: usize, flips: u64) {
        *self = self.played(sq, flips);
    }

    /// The state after a move, leaving `self` as it was (the search's make/undo by copy), by
    /// the update kernel ([`kernels::played`]). Inlined: called apart, the search copied the
    /// state through memory after the update and that read stalled on the update's narrower
    /// stores.
    #[inline(always)]
    pub fn played(&self, sq: usize, flips: u64) -> Features {
        let (stm, opp) = kernels::played(&SQUARE_POWERS, &self.stm, &self.opp, sq, flips);
        Features { stm, opp }
    }

    /// Updates the state for a pass.
    #[inline]
    pub fn pass(&mut self) {
        std::mem::swap(&mut self.stm, &mut self.opp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;
    use crate::rng::Rng;

    /// Plays random games, checking the incremental state against a from-scratch one at every
    /// position, and that undo by copy restores the previous state.
    #[test]
    fn incremental_matches_scratch_on_random_games() {
        let mut rng = Rng::new(2024);
        let mut positions = 0u64;
        for _ in 0..3_000 {
            let mut board = Board::START;
            let mut feat = Features::new(&board);
            loop {
                assert_eq!(feat, Features::new(&board));
                positions += 1;
                match board.random_move(&mut rng) {
                    None => break,
                    Some(Move::Pass) => {
                        board = board.pass();
                        feat.pass();
                    }
                    Some(Move::Play(sq)) => {
                        let flips = board.flips(sq);
                        let before = feat;
                        let next = feat.played(sq.index(), flips);
                        assert_eq!(feat, before, "played() must leave the original untouched");
                        feat = next;
                        board = board.play_flips(sq, flips);
                    }
                }
            }
        }
        assert!(positions > 150_000);
    }
}
