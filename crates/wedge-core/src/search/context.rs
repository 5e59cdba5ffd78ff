//! The per-thread search context: shared table, evaluation, stop flag and deadline, plus this
//! thread's node counter and endgame cache. The searches (`node`, `last_moves`, `root`) are
//! methods on it.

use super::end_cache::EndCache;
use super::eval_cache::EvalCache;
use super::ordering::MidgameOrdering;
use super::parallel::pool::{SplitPoint, SplitPool};
use super::probcut::ProbCutModel;
use super::tt::{MoveHint, TranspositionTable};
use crate::board::Board;
use crate::book::{BookHit, BookLookup};
use crate::eval::{Evaluator, EIGHTHS_PER_DISC};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Below this depth midgame null-window nodes skip the table and order moves by mobility only
/// (in a solve, below `root::SOLVE_TT_MIN_DEPTH`).
pub const TT_MIN_DEPTH: u32 = 3;

/// How many stop polls pass between two reads of the clock.
const CLOCK_POLL_INTERVAL: u32 = 256;

/// What the book says of a node: the value the search would find (in eighths), or a move to
/// try first.
pub enum BookAnswer {
    Value(i32),
    Hint(MoveHint),
}

pub struct Context<'a, E: Evaluator> {
    pub tt: &'a TranspositionTable,
    pub eval: &'a E,
    /// Multi-ProbCut error model, and the level in use (0 = no pruning).
    pub probcut: &'a ProbCutModel,
    pub selectivity: u8,
    /// How the midgame orders its moves: in play, or in a solve.
    pub midgame_ordering: MidgameOrdering,
    /// Midgame null-window nodes of less depth skip the table (see
    /// [`TT_MIN_DEPTH`]).
    pub tt_min_depth: u32,
    /// This context's stop flag: the search's, or for a thread joining a split point, the
    /// split point's.
    stop: &'a AtomicBool,
    /// The whole search's stop flag (the same as `stop` outside split points).
    search_stop: &'a AtomicBool,
    /// Idle helper threads to share work with (none in a single-threaded search).
    pub pool: Option<&'a SplitPool>,
    /// The split point whose move this context searches, if any: split points it opens
    /// lie below it.
    pub split_parent: Option<Arc<SplitPoint>>,
    pub deadline: Option<Instant>,
    polls: u32,
    /// Positions visited by this thread.
    pub nodes: u64,
    /// Set once the stop flag was seen or the deadline passed; results computed since are
    /// meaningless and must be discarded.
    pub stopped: bool,
    /// The opening book, looked up at nodes with at least `book_min_empties` empties.
    book: Option<&'a dyn BookLookup>,
    /// 65 when there is no book (no node qualifies).
    pub book_min_empties: u32,
    /// The root moves the search may choose from (all by default).
    pub root_moves: u64,
    /// This thread's exact bounds for the deep endgame tier below the shared table.
    pub end_cache: EndCache,
    /// This search's static evaluations of the positions it evaluated last.
    pub eval_cache: EvalCache,
}

impl<'a, E: Evaluator> Context<'a, E> {
    pub fn new(tt: &'a TranspositionTable, eval: &'a E, stop: &'a AtomicBool) -> Self {
        Context::new_with_caches(tt, eval, stop, EndCache::default(), EvalCache::default())
    }

    /// As [`Context::new`], with an endgame cache kept from an earlier context of the same
    /// thread (its entries are exact facts about positions, true for any search) and an
    /// evaluation cache kept from an earlier context of the same search (its values are those
    /// of `eval`).
    pub fn new_with_caches(
        tt: &'a TranspositionTable,
        eval: &'a E,
        stop: &'a AtomicBool,
        end_cache: EndCache,
        eval_cache: EvalCache,
    ) -> Self {
        static NO_PROBCUT: std::sync::OnceLock<ProbCutModel> = std::sync::OnceLock::new();
        Context {
            tt,
            eval,
            probcut: NO_PROBCUT.get_or_init(ProbCutModel::empty),
            selectivity: 0,
            midgame_ordering: MidgameOrdering::Play,
            tt_min_depth: TT_MIN_DEPTH,
            stop,
            search_stop: stop,
            pool: None,
            split_parent: None,
            deadline: None,
            polls: 0,
            nodes: 0,
            stopped: false,
            book: None,
            book_min_empties: 65,
            root_moves: u64::MAX,
            end_cache,
            eval_cache,
        }
    }

    /// Looks positions up in `book` within 3 plies of a root of `root_empties` empties (and
    /// never below the book's minimum empties).
    pub fn with_book(mut self, book: Option<&'a dyn BookLookup>, root_empties: u32) -> Self {
        self.book = book;
        self.book_min_empties = match book {
            Some(b) => b.min_empties().max(root_empties.saturating_sub(3)).max(1),
            None => 65,
        };
        self
    }

    /// The book at a node of `n` empties searched `depth` plies: its value when it answers
    /// for the search, else its move (if any) to order the node with.
    #[inline(always)]
    pub fn book_answer(&mut self, player: u64, opponent: u64, depth: u32, n: u32) -> BookAnswer {
        match self.book_hit(player, opponent, n) {
            Some(hit) if hit.covers(depth, n) => {
                self.nodes += 1;
                BookAnswer::Value(hit.value * EIGHTHS_PER_DISC)
            }
            Some(hit) => BookAnswer::Hint(
                hit.best
                    .map_or(MoveHint::NONE, |s| MoveHint::square(s.index() as u8)),
            ),
            None => BookAnswer::Hint(MoveHint::NONE),
        }
    }

    /// What a search of depth 0 finds for `board`, in eighths: the final score at the end of
    /// the game, the book's value where the book answers, else the static evaluation.
    pub fn leaf_value(&self, board: &Board) -> i32 {
        if board.is_game_over() {
            return board.final_score() * EIGHTHS_PER_DISC;
        }
        let n = board.empty_count();
        match self.book_hit(board.player, board.opponent, n) {
            Some(hit) if hit.covers(0, n) => hit.value * EIGHTHS_PER_DISC,
            _ => self.eval.eighths(board),
        }
    }

    /// The same book as `other`'s, looked up from the same empties (for a thread joining
    /// `other`'s split point).
    pub fn with_book_from(mut self, other: &Context<'a, E>) -> Self {
        self.book = other.book;
        self.book_min_empties = other.book_min_empties;
        self
    }

    /// The book's entry for a node of `n` empties, looked up only where the book may answer.
    #[inline(always)]
    fn book_hit(&self, player: u64, opponent: u64, n: u32) -> Option<BookHit> {
        if n < self.book_min_empties {
            None
        } else {
            self.book_probe(player, opponent)
        }
    }

    /// The book's value for a node (only called for nodes with enough empties).
    #[inline(never)]
    fn book_probe(&self, player: u64, opponent: u64) -> Option<BookHit> {
        self.book?.lookup(&Board::new(player, opponent))
    }

    /// Prune with `model` (levels are chosen per iteration through `selectivity`).
    pub fn with_probcut(mut self, model: &'a ProbCutModel) -> Self {
        self.probcut = model;
        self
    }

    /// Share work with the helpers of `pool`.
    pub fn with_pool(mut self, pool: &'a SplitPool) -> Self {
        self.pool = Some(pool);
        self
    }

    /// Also stop with the whole search's flag `stop` (for a context searching a split point).
    pub fn with_search_stop(mut self, stop: &'a AtomicBool) -> Self {
        self.search_stop = stop;
        self
    }

    /// The whole search's stop flag.
    pub fn search_stop(&self) -> &'a AtomicBool {
        self.search_stop
    }

    /// Also stop at `deadline`.
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Self {
        self.deadline = deadline;
        self
    }

    /// Polls the stop flag (and now and then the clock); true when the search must unwind.
    #[inline(always)]
    pub fn should_stop(&mut self) -> bool {
        if !self.stopped {
            if self.stop.load(Ordering::Relaxed) || self.search_stop.load(Ordering::Relaxed) {
                self.stopped = true;
            } else if let Some(d) = self.deadline {
                self.polls += 1;
                if self.polls >= CLOCK_POLL_INTERVAL {
                    self.polls = 0;
                    if Instant::now() >= d {
                        self.stopped = true;
                    }
                }
            }
        }
        self.stopped
    }
}
