//! The book under construction: an in-memory map from canonical boards to nodes, with
//! Novello's operations on it. `tree` holds the tree (nodes, moves between them, adding
//! games); `valuation` what valuing a position means and the pool of threads that does it;
//! `sweep` valuing played positions from the fewest empties up (solving near the end,
//! searching the best move outside the book elsewhere) and negamax; `publish` the conversion
//! to and from the file's records and publishing.

mod publish;
mod sweep;
mod tree;
mod valuation;

pub use sweep::SweepStats;
pub use tree::{normalize, BookBuilder, Node, Origin, Successor, DEFAULT_MIN_EMPTIES};
pub use valuation::{LevelValuer, LocalThreads, Valuation, ValuationRequest, Valuer};
