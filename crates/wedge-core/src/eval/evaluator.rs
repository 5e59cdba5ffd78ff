//! The evaluation interface and its units: the [`Evaluator`] trait the search calls, scores in
//! eighths of a disc ([`EIGHTHS_PER_DISC`], [`MAX_EIGHTHS`], [`eighths_to_discs`]) and the
//! ordering estimate's scale ([`ORDER_SCALE`]).

use crate::board::Board;

/// Units per disc of [`Evaluator::order_value`].
pub const ORDER_SCALE: i32 = 16;

/// Evaluations, and the midgame search's scores, are in eighths of a disc: finer than whole
/// discs for choosing between moves and for reports, coarse enough for 16-bit table bounds.
pub const EIGHTHS_PER_DISC: i32 = 8;

/// The largest score in eighths: a whole board won.
pub const MAX_EIGHTHS: i32 = 64 * EIGHTHS_PER_DISC;

/// Eighths of a disc to whole discs: rounded to nearest, half away from zero.
#[inline]
pub fn eighths_to_discs(eighths: i32) -> i32 {
    let half = EIGHTHS_PER_DISC / 2;
    if eighths >= 0 {
        (eighths + half) / EIGHTHS_PER_DISC
    } else {
        -((-eighths + half) / EIGHTHS_PER_DISC)
    }
}

/// A static evaluation of a position, in eighths of a disc for the side to move (within
/// ±[`MAX_EIGHTHS`]), with an optional incremental state the search carries from a position
/// to its children.
pub trait Evaluator: Send + Sync {
    /// What the evaluation keeps per position (`()` when it computes from scratch).
    type State: Copy + Send + Sync;

    /// The state of `board`, from scratch.
    fn state(&self, board: &Board) -> Self::State;

    /// The state after the side to move plays `sq` flipping `flips`.
    fn play(&self, state: &Self::State, sq: usize, flips: u64) -> Self::State;

    /// The state after a pass.
    fn pass(&self, state: &Self::State) -> Self::State;

    /// The evaluation of `board`, whose state is `state`, in eighths of a disc.
    fn eighths_with(&self, state: &Self::State, board: &Board) -> i32;

    /// [`Evaluator::eighths_with`] given the side to move's legal moves and potential moves
    /// (bitboards), which the midgame ordering has computed for the child it evaluates.
    fn eighths_knowing(
        &self,
        state: &Self::State,
        board: &Board,
        moves: u64,
        potential: u64,
    ) -> i32 {
        let _ = (moves, potential);
        self.eighths_with(state, board)
    }

    /// An estimate of `board` (whose state is `state`) for ordering moves only, in
    /// [`ORDER_SCALE`] units per disc for the side to move, given the side to move's legal
    /// moves and potential moves (bitboards), which the endgame ordering counts for every
    /// child already. By default the evaluation; the pattern evaluation reads a compact copy
    /// of one phase's tables instead, cheaper to reach (`ordering_tables`).
    fn order_value(&self, state: &Self::State, board: &Board, moves: u64, potential: u64) -> i32 {
        let _ = (moves, potential);
        self.eighths_with(state, board) * ORDER_SCALE / EIGHTHS_PER_DISC
    }

    /// The evaluation of `board` from scratch, in eighths of a disc.
    fn eighths(&self, board: &Board) -> i32 {
        self.eighths_with(&self.state(board), board)
    }

    /// The evaluation of `board` from scratch, rounded to whole discs.
    fn discs(&self, board: &Board) -> i32 {
        eighths_to_discs(self.eighths(board))
    }
}
