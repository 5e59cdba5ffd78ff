//! A simple stand-in evaluation (mobility, potential mobility, corners, X- and C-squares) used
//! until trained pattern weights exist, and by tests that must not depend on trained weights.

use super::{Evaluator, EIGHTHS_PER_DISC};
use crate::board::movegen::{legal_moves, potential_moves};
use crate::board::{Board, CORNERS, C_SQUARES, X_SQUARES};

/// Mobility, potential mobility and corner knowledge, scaled to discs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Heuristic;

impl Heuristic {
    /// Score in 1/16 disc units before scaling.
    fn raw(board: &Board) -> i32 {
        let (p, o) = (board.player, board.opponent);
        let mob = legal_moves(p, o).count_ones() as i32 - legal_moves(o, p).count_ones() as i32;
        let pot =
            potential_moves(p, o).count_ones() as i32 - potential_moves(o, p).count_ones() as i32;
        let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
        // X- and C-squares only hurt while their corner is empty.
        let empty_corners = CORNERS & board.empties();
        let open = near_corners(empty_corners);
        let xs =
            (p & X_SQUARES & open).count_ones() as i32 - (o & X_SQUARES & open).count_ones() as i32;
        let cs =
            (p & C_SQUARES & open).count_ones() as i32 - (o & C_SQUARES & open).count_ones() as i32;
        24 * mob + 8 * pot + 120 * corners - 48 * xs - 16 * cs
    }
}

/// Squares adjacent to the given corners.
fn near_corners(corners: u64) -> u64 {
    let mut near = 0;
    if corners & 1 != 0 {
        near |= 0x0000_0000_0000_0302;
    }
    if corners & 0x80 != 0 {
        near |= 0x0000_0000_0000_C040;
    }
    if corners & (1 << 56) != 0 {
        near |= 0x0203_0000_0000_0000;
    }
    if corners & (1 << 63) != 0 {
        near |= 0x40C0_0000_0000_0000;
    }
    near
}

impl Evaluator for Heuristic {
    type State = ();

    fn state(&self, _: &Board) {}

    fn play(&self, _: &(), _: usize, _: u64) {}

    fn pass(&self, _: &()) {}

    fn eighths_with(&self, _: &(), board: &Board) -> i32 {
        (Self::raw(board) / 2).clamp(-63 * EIGHTHS_PER_DISC, 63 * EIGHTHS_PER_DISC)
    }
}
