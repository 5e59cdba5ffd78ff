//! Static evaluation: the `Evaluator` interface the search uses, and the evaluations behind it.
//! The search never knows which evaluation it was given.

pub mod heuristic;

use crate::board::Board;

/// A static evaluation of a position, in discs for the side to move (within -64..=64).
pub trait Evaluator: Send + Sync {
    fn evaluate(&self, board: &Board) -> i32;
}
