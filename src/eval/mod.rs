//! Static evaluation: the `Evaluator` interface the search uses, and the evaluations behind it.
//! The search never knows which evaluation it was given.
//!
//! - `patterns`: the pattern set, ternary indices from scratch, folding, scalar features, phases;
//! - `features`: the incremental pattern state for make/undo in the search;
//! - `weights`: the weights file format (writer and validating loader);
//! - `pattern_eval`: the trained pattern evaluation;
//! - `heuristic`: the hand-written stand-in.

pub mod features;
pub mod heuristic;
pub mod pattern_eval;
pub mod patterns;
pub mod weights;

pub use features::Features;
pub use pattern_eval::PatternEval;
pub use weights::{Weights, WeightsError, WeightsErrorKind};

use crate::board::Board;

/// A static evaluation of a position, in discs for the side to move (within -64..=64).
pub trait Evaluator: Send + Sync {
    fn evaluate(&self, board: &Board) -> i32;
}
