//! Game review (`wedge review`): every move of a game valued against the best move by the
//! search (exact near the end, searched before), the discs each move lost, each side's
//! mistakes and blunders, the move where the result was decided, and the book's answer where
//! the position is in the book, beside the seconds and clocks the record notes; as a table,
//! and as the JSON that `--json` prints and the page (`tools::review_html`) carries.
//!
//! How a position is valued: one search of the position finds the best move, then the best
//! move and the move played are each valued by a search of the position after them, with the
//! same limits (an exact solve when the first search solved, else one ply less than it
//! reached, at its selectivity). So the best value and the played value come from searches of
//! one kind and the loss (best minus played, never negative) is consistent; where the search
//! after the move played values it above the first search's choice, the move played is the
//! best one found.

mod games;
mod report;
mod reviewer;
mod settings;

pub use games::{read_games, FileGames, RecordedGame, ReviewError};
pub use reviewer::{
    BookAnswer, Decided, GameReview, Judged, MoveReview, MoveValue, Reviewer, Severity,
    SideSummary, ValueKind,
};
pub use settings::{
    ReviewSettings, BLUNDER, DEFAULT_DEPTH, DEFAULT_EXACT_EMPTIES, DEFAULT_SELECTIVITY, MISTAKE,
};

pub use report::{run_json, write_table};

pub(crate) use report::decided_text;

#[cfg(test)]
mod tests;
