//! The incremental pattern state: the ternary indices of all pattern instances, updated when a move
//! is made (placed disc plus flips) and restored on undo by copying (the state is a small
//! `Copy` value, so the search keeps one per ply: no allocation, no undo bookkeeping).
//!
//! Indices are kept in a fixed colour frame: digit 1 is the side that was to move when the state
//! was built, digit 2 the other; `swapped` says whether the side to move now is the other one.
//! The evaluation reads the table of the right perspective instead of rewriting the indices
//! after every move.

use super::patterns::{indices, layout, INDEX_LANES, N_INSTANCES};
use crate::board::Board;

/// Pattern indices of a position, maintained incrementally.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Raw ternary index of each instance, in the fixed colour frame (then zeros up to
    /// [`INDEX_LANES`]).
    pub idx: [u16; INDEX_LANES],
    /// True when the side to move is digit 2 of the frame.
    pub swapped: bool,
}

impl Features {
    /// The indices of `board` computed from scratch (the side to move is digit 1).
    pub fn new(board: &Board) -> Features {
        let mut idx = [0u16; INDEX_LANES];
        idx[..N_INSTANCES].copy_from_slice(&indices(board));
        Features {
            idx,
            swapped: false,
        }
    }

    /// Updates the state for the side to move playing `sq` (0..64) and flipping `flips`.
    /// Inlined: called apart, the search copied the state through memory after the update and
    /// that read stalled on the update's narrower stores.
    #[inline(always)]
    pub fn play(&mut self, sq: usize, flips: u64) {
        let powers = &layout().square_powers;
        // The flipped squares' digit weights, summed over all instances at once.
        let mut flipped = [0u16; INDEX_LANES];
        let mut f = flips;
        while f != 0 {
            let row = &powers[f.trailing_zeros() as usize];
            f &= f - 1;
            for (s, &p) in flipped.iter_mut().zip(row) {
                *s = s.wrapping_add(p);
            }
        }
        let placed = &powers[sq & 63];
        // In the fixed frame the mover is digit 1 (flips 2 -> 1 subtract 3^k) or digit 2
        // (flips 1 -> 2 add 3^k).
        if self.swapped {
            for ((x, &p), &s) in self.idx.iter_mut().zip(placed).zip(&flipped) {
                *x = x.wrapping_add(p.wrapping_mul(2)).wrapping_add(s);
            }
        } else {
            for ((x, &p), &s) in self.idx.iter_mut().zip(placed).zip(&flipped) {
                *x = x.wrapping_add(p).wrapping_sub(s);
            }
        }
        self.swapped = !self.swapped;
    }

    /// The state after a move, leaving `self` as it was (the search's make/undo by copy).
    #[inline(always)]
    pub fn played(&self, sq: usize, flips: u64) -> Features {
        let mut f = *self;
        f.play(sq, flips);
        f
    }

    /// Updates the state for a pass.
    #[inline]
    pub fn pass(&mut self) {
        self.swapped = !self.swapped;
    }

    /// The indices seen from the side to move (digit 1 = side to move): equal to
    /// [`Features::new`] of the current board. For tests and tools; the evaluation reads the
    /// frame indices directly.
    pub fn side_to_move_indices(&self) -> [u16; N_INSTANCES] {
        let mut out = [0u16; N_INSTANCES];
        out.copy_from_slice(&self.idx[..N_INSTANCES]);
        if !self.swapped {
            return out;
        }
        let l = layout();
        for (o, inst) in out.iter_mut().zip(l.instances.iter()) {
            *o = l.swap[inst.pattern as usize][*o as usize];
        }
        out
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
                assert_eq!(feat.side_to_move_indices(), indices(&board));
                positions += 1;
                match rng.random_move(&board) {
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
