//! How deep a review searches ([`ReviewSettings`]) and how much a move must lose to be a
//! mistake or a blunder.

use crate::tools::json::Json;
use std::time::Duration;
use wedge_core::search::{Limits, Score, Selectivity, SolveMode, TimeControl};

/// A move losing at least this much is a mistake.
pub const MISTAKE: Score = Score::from_discs(2);
/// A move losing at least this much is a blunder (and not counted as a mistake).
pub const BLUNDER: Score = Score::from_discs(6);

/// How deep each position is searched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReviewSettings {
    /// Midgame depth of the search that finds the best move (the moves are valued one ply
    /// less deep, from the position after them).
    pub depth: u32,
    pub selectivity: Selectivity,
    /// Instead of `depth`: about this long for the search that finds the best move, which
    /// sets the depth of the searches after the moves.
    pub time: Option<Duration>,
    /// Positions with at most this many empties are solved exactly.
    pub exact_empties: u32,
}

impl Default for ReviewSettings {
    fn default() -> ReviewSettings {
        ReviewSettings {
            depth: DEFAULT_DEPTH,
            selectivity: DEFAULT_SELECTIVITY,
            time: None,
            exact_empties: DEFAULT_EXACT_EMPTIES,
        }
    }
}

/// The default midgame depth (a 60-move game in well under 30 s on one core; see README).
pub const DEFAULT_DEPTH: u32 = 18;
/// The default selectivity: play's on a clock (87 %).
pub const DEFAULT_SELECTIVITY: Selectivity = Selectivity::PLAY;
/// The default number of empties from which positions are solved exactly.
pub const DEFAULT_EXACT_EMPTIES: u32 = 24;

impl ReviewSettings {
    /// The limits of the search that finds a position's best move: no win/loss/draw solves,
    /// an exact one at `exact_empties` or fewer.
    pub fn limits(&self) -> Limits {
        let base = Limits {
            depth: self.depth.clamp(2, 60),
            selectivity: self.selectivity,
            solve: Some(SolveMode::Exact),
            solve_empties: self.exact_empties.min(60),
            wld_empties: 0,
            time: TimeControl::Infinite,
        };
        match self.time {
            Some(t) => Limits {
                depth: 60,
                time: TimeControl::PerMove(t),
                ..base
            },
            None => base,
        }
    }

    /// The settings as JSON.
    pub(super) fn to_json(self) -> Json {
        Json::object([
            (
                "depth",
                Json::or_null(self.time.is_none().then_some(self.depth)),
            ),
            (
                "selectivity",
                Json::from(u32::from(self.selectivity.percent())),
            ),
            ("seconds", Json::or_null(self.time.map(|t| t.as_secs_f64()))),
            ("exact_empties", Json::from(self.exact_empties)),
        ])
    }
}
