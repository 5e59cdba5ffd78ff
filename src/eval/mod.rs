//! Static evaluation: the `Evaluator` interface the search uses, and the evaluations behind it.
//! The search never knows which evaluation it was given.
//!
//! - `patterns`: the pattern set, ternary indices from scratch, folding, scalar features, phases;
//! - `features`: the incremental pattern state for make/undo in the search;
//! - `weights`: the weights file format (writer and validating loader);
//! - `pattern_eval`: the trained pattern evaluation;
//! - `ordering_tables`: its compact one-phase copy that orders the endgame's moves;
//! - `heuristic`: the hand-written stand-in.

pub mod features;
pub mod heuristic;
pub mod ordering_tables;
pub mod pattern_eval;
pub mod patterns;
pub mod weights;

pub use features::Features;
pub use pattern_eval::PatternEval;
pub use weights::{Weights, WeightsError, WeightsErrorKind};

use crate::board::Board;

/// Units per disc of [`Evaluator::order_value`].
pub const ORDER_SCALE: i32 = 16;

/// A static evaluation of a position, in discs for the side to move (within -64..=64), with
/// an optional incremental state the search carries from a position to its children.
pub trait Evaluator: Send + Sync {
    /// What the evaluation keeps per position (`()` when it computes from scratch).
    type State: Copy + Send + Sync;

    /// The state of `board`, from scratch.
    fn state(&self, board: &Board) -> Self::State;

    /// The state after the side to move plays `sq` flipping `flips`.
    fn play(&self, state: &Self::State, sq: usize, flips: u64) -> Self::State;

    /// The state after a pass.
    fn pass(&self, state: &Self::State) -> Self::State;

    /// The evaluation of `board`, whose state is `state`.
    fn evaluate_with(&self, state: &Self::State, board: &Board) -> i32;

    /// An estimate of `board` (whose state is `state`) for ordering moves only, in
    /// [`ORDER_SCALE`] units per disc for the side to move, given the side to move's legal
    /// moves and potential moves (bitboards), which the endgame ordering counts for every
    /// child already. By default the evaluation; the pattern evaluation reads a compact copy
    /// of one phase's tables instead, cheaper to reach ([`ordering_tables`]).
    fn order_value(&self, state: &Self::State, board: &Board, moves: u64, potential: u64) -> i32 {
        let _ = (moves, potential);
        self.evaluate_with(state, board) * ORDER_SCALE
    }

    /// The evaluation of `board` from scratch.
    fn evaluate(&self, board: &Board) -> i32 {
        self.evaluate_with(&self.state(board), board)
    }
}
