//! What a match came to: [`MatchSummary`], with a [`ForfeitNote`] for each forfeited game.

use super::game::Forfeit;
use super::stats::{SprtDecision, Tally};
use wedge_core::formats::GgfGame;

/// One forfeited game.
#[derive(Clone, Debug)]
pub struct ForfeitNote {
    pub game: usize,
    /// 0 = first engine, 1 = second.
    pub engine: usize,
    pub reason: Forfeit,
}

/// The result of a match.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    pub names: [String; 2],
    /// From the first engine's point of view.
    pub tally: Tally,
    pub forfeits: Vec<ForfeitNote>,
    pub sprt: Option<(SprtDecision, f64)>,
    /// The records, in game order.
    pub records: Vec<GgfGame>,
    /// Seconds each engine spent on its moves over the counted games (from the records).
    pub seconds: [f64; 2],
}
