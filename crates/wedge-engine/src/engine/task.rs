//! What goes to the worker and what comes back: the [`Task`] asked, the [`Event`]s it
//! produces (ending in an [`Outcome`]), and the [`EventSink`] they go to.

use super::books::{LearnFailure, OfferedMove};
use super::candidates::ScoredRootMove;
use wedge_core::board::{Board, Move};
use wedge_core::search::{Limits, Report, Score};

/// Identifies one submitted task; every event carries the id of the task that produced it.
pub type JobId = u64;

/// What the worker is asked to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Task {
    /// Search one position: a [`Event::Progress`] after each completed iteration, then
    /// [`Outcome::Best`].
    Search { board: Board, limits: Limits },
    /// Evaluate the best `count` moves (all when `count` is large), deepening them together:
    /// a [`Event::Candidates`] list (best first) after each completed depth, then
    /// [`Outcome::Candidates`] with the last complete list.
    Candidates {
        board: Board,
        limits: Limits,
        count: usize,
    },
    /// Search several positions one after the other (a game analysis): a
    /// [`Event::Position`] per finished position, then [`Outcome::Positions`].
    Positions {
        boards: Vec<(usize, Board)>,
        limits: Limits,
    },
    /// The static evaluation of a position (no search); answered by [`Outcome::Static`].
    Evaluate { board: Board },
    /// Forget the transposition table (a new game; a republished book is picked up now);
    /// answered by [`Outcome::Cleared`].
    Clear,
    /// Keep a game (moves from the standard start) for the user's book (never the shipped
    /// one), then learn every game waiting: value the new positions and republish that file;
    /// answered by [`Outcome::Learned`]. When stopped, the games not stored stay waiting.
    Learn { moves: Vec<Move> },
}

/// A move found in the opening book with its value (disc difference for the side to move), how
/// deep that value was searched and the number of games through it. Sent before the search by
/// engines that have a book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    pub score: i32,
    /// Plies from the position before the move that the book's value was searched to.
    pub depth: u32,
    /// The value is exact (solved to the end of the game).
    pub solved: bool,
    /// Games in the book through the move; the book file counts them in 24 bits (16 in
    /// format version 1), so the ceiling means that many or more.
    pub games: u64,
}

/// How a task ended.
#[derive(Debug)]
pub enum Outcome {
    /// The final report of a [`Task::Search`] (the best move even when stopped early).
    Best(Report),
    /// The last complete candidate list, best first (empty only when stopped before any).
    Candidates(Vec<ScoredRootMove>),
    /// The reports of the positions analysed, in the order they were searched.
    Positions(Vec<(usize, Report)>),
    /// The static evaluation for the side to move.
    Static(Score),
    Cleared,
    /// What learning did, or why the game is not stored yet.
    Learned(Result<String, LearnFailure>),
}

/// What the worker tells the front end.
#[derive(Debug)]
pub enum Event {
    /// An iteration of the running search. `complete` is false when a stop was already asked
    /// for as it was reported: the iteration may have been cut short.
    Progress {
        job: JobId,
        report: Report,
        complete: bool,
    },
    /// Book moves for the position (best first), before any search.
    Book { job: JobId, moves: Vec<BookMove> },
    /// A complete candidate list at one depth, best first.
    Candidates {
        job: JobId,
        list: Vec<ScoredRootMove>,
        nodes: u64,
        millis: u64,
    },
    /// One position of a [`Task::Positions`] finished.
    Position {
        job: JobId,
        index: usize,
        report: Report,
    },
    /// The task ended (completed or stopped); always the last event of a job.
    Done {
        job: JobId,
        outcome: Outcome,
        stopped: bool,
    },
}

impl Event {
    /// The job this event belongs to.
    pub fn job(&self) -> JobId {
        match self {
            Event::Progress { job, .. }
            | Event::Book { job, .. }
            | Event::Candidates { job, .. }
            | Event::Position { job, .. }
            | Event::Done { job, .. } => *job,
        }
    }
}

/// Where events go: called on the worker thread, in order.
pub type EventSink = Box<dyn FnMut(Event) + Send>;

impl From<OfferedMove> for BookMove {
    fn from(m: OfferedMove) -> BookMove {
        BookMove {
            mv: Move::Play(m.sq),
            score: m.score,
            depth: m.depth,
            solved: m.solved,
            games: m.games,
        }
    }
}
