//! Static evaluation: the `Evaluator` interface the search uses, and the evaluations behind it.
//! The search never knows which evaluation it was given.
//!
//! - `evaluator`: the `Evaluator` trait and the score units (eighths of a disc, the ordering scale);
//! - `patterns`: the pattern set, ternary indices from scratch, folding, scalar features, phases;
//! - `features`: the incremental pattern state for make/undo in the search;
//! - `kernels`: the evaluation's inner loops (the pattern sum, the state's update), SIMD and
//!   portable;
//! - `weights`: the weights file format (writer and validating loader);
//! - `pattern_eval`: the trained pattern evaluation;
//! - `ordering_tables`: its compact one-phase copy that orders the endgame's moves;
//! - `heuristic`: the hand-written stand-in.
//!
//! Callers use what this file exports, and two namespaces: `patterns` (the pattern set, which
//! the trainer encodes positions with) and `kernels` (each inner loop's builds, which the
//! benches compare).

mod evaluator;
mod features;
mod heuristic;
// A namespace: each inner loop in its builds (the fastest the build enables, the portable
// twin, the per-ISA twins), for the benches to compare.
pub mod kernels;
mod ordering_tables;
mod pattern_eval;
// A namespace: the pattern set's constants, tables and index functions (`patterns::indices`,
// `patterns::folded`, `patterns::N_TABLES`...), which the trainer encodes positions with.
pub mod patterns;
mod weights;

pub use evaluator::{eighths_to_discs, Evaluator, EIGHTHS_PER_DISC, MAX_EIGHTHS, ORDER_SCALE};
pub use features::Features;
pub use heuristic::Heuristic;
pub use pattern_eval::{expected_tables, test_weights, PatternEval};
pub use weights::{default_weights_path, TableHeader, Weights, WeightsError, WeightsErrorKind};
