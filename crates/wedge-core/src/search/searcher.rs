//! The search's entry points: the [`Searcher`] (iterative deepening on its threads, from
//! [`Limits`] to a [`Report`]), [`FixedDepth`] for depth-limited values one after another, and
//! [`solve_root`].

use super::context::Context;
use super::limits::{Deadline, Limits, Selectivity, SolveMode};
use super::parallel::{self, pool::SplitPool};
use super::probcut::ProbCutModel;
use super::root::{self, MeasuredSpeeds, Report};
use super::score::Score;
use super::tt::{TableError, TranspositionTable};
use crate::board::{Board, Move};
use crate::book::BookLookup;
use crate::eval::Evaluator;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

/// A search engine: the shared table, the evaluation and the thread count. One search runs at
/// a time; `stop` (shared with whoever asked) ends it early.
pub struct Searcher<E: Evaluator> {
    tt: Arc<TranspositionTable>,
    eval: Arc<E>,
    probcut: Arc<ProbCutModel>,
    /// The evaluation and ProbCut model of untimed solves (see [`Searcher::with_solver`]).
    solver: Option<(Arc<E>, Arc<ProbCutModel>)>,
    book: Option<Arc<dyn BookLookup>>,
    threads: usize,
    /// Helpers working when the last search ended (fewer than `threads - 1` while the machine
    /// had no core free for them): where the next search starts.
    helpers_working: AtomicUsize,
    /// The speeds the searches so far measured, for the clock's budget of the next.
    speeds: Mutex<MeasuredSpeeds>,
}

impl<E: Evaluator> Searcher<E> {
    /// A searcher with a table of `hash_mb` MB fixed in the code (see [`Searcher::try_new`]).
    pub fn new(eval: Arc<E>, hash_mb: usize, threads: usize) -> Self {
        Searcher::try_new(eval, hash_mb, threads).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A searcher with a table of `hash_mb` MB as a user asked, failing when the system
    /// refuses that memory.
    pub fn try_new(eval: Arc<E>, hash_mb: usize, threads: usize) -> Result<Self, TableError> {
        Ok(Searcher {
            tt: Arc::new(TranspositionTable::try_new(hash_mb)?),
            eval,
            probcut: Arc::new(ProbCutModel::empty()),
            solver: None,
            book: None,
            threads: threads.max(1),
            helpers_working: AtomicUsize::new(threads.max(1) - 1),
            speeds: Mutex::new(MeasuredSpeeds::default()),
        })
    }

    /// Uses `model` for Multi-ProbCut (searches with a selectivity level above 0).
    pub fn with_probcut(mut self, model: Arc<ProbCutModel>) -> Self {
        self.probcut = model;
        self
    }

    /// Searches that solve their root without a clock ([`Limits::solves_untimed`]) use `eval`
    /// and its ProbCut `model` from the first iteration on, instead of the play evaluation:
    /// weights trained for the endgame guide a solve better, and a finished solve is exact
    /// whatever guided it.
    pub fn with_solver(mut self, eval: Arc<E>, model: Arc<ProbCutModel>) -> Self {
        self.solver = Some((eval, model));
        self
    }

    /// Looks positions up in `book` near the root (None: no book).
    pub fn set_book(&mut self, book: Option<Arc<dyn BookLookup>>) {
        self.book = book;
    }

    pub fn book(&self) -> Option<&Arc<dyn BookLookup>> {
        self.book.as_ref()
    }

    pub fn probcut(&self) -> &ProbCutModel {
        &self.probcut
    }

    pub fn table(&self) -> &TranspositionTable {
        &self.tt
    }

    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// The shared evaluation (to build more searchers on it).
    pub fn evaluator_arc(&self) -> Arc<E> {
        self.eval.clone()
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Forgets everything learnt (a new game, or a reproducible measurement).
    pub fn clear(&self) {
        self.tt.clear();
    }

    /// Searches `board` as `limits` asks, calling `report` after each completed iteration of
    /// the main thread; returns the final report with the nodes of all threads.
    pub fn search(
        &self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Report),
    ) -> Report {
        let book = self.book.as_deref();
        self.search_among(board, limits, u64::MAX, book, stop, report)
    }

    /// As [`Searcher::search`], choosing only among the root moves in `root_moves` (all when
    /// none of them is legal) and looking transpositions up in `book` instead of the
    /// searcher's own.
    pub fn search_among(
        &self,
        board: &Board,
        limits: &Limits,
        root_moves: u64,
        book: Option<&dyn BookLookup>,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Report),
    ) -> Report {
        let start = Instant::now();
        let deadline = Deadline::plan(limits.time, board.empty_count(), start);
        self.tt.new_search();
        let helpers = self.threads - 1;
        let working = self.helpers_working.load(Ordering::Relaxed).min(helpers);
        let pool = SplitPool::new(working);
        let (eval, probcut) = match &self.solver {
            Some((e, m)) if limits.solves_untimed(board.empty_count()) => (&**e, &**m),
            _ => (&*self.eval, &*self.probcut),
        };
        // Every thread's context: the table, evaluation, ProbCut model, deadline and book.
        let tt = &*self.tt;
        let context = move || {
            Context::new(tt, eval, stop)
                .with_probcut(probcut)
                .with_deadline(deadline.hard)
                .with_book(book, board.empty_count())
        };
        std::thread::scope(|scope| {
            for index in 1..=helpers {
                let pool = &pool;
                scope.spawn(move || parallel::help(index, pool, context().with_pool(pool)));
            }
            let governor = (helpers > 0).then(|| scope.spawn(|| pool.govern(helpers, working)));
            let mut ctx = context();
            ctx.root_moves = root_moves;
            if self.threads > 1 {
                ctx = ctx.with_pool(&pool);
            }
            let mut speeds = *self.speeds.lock().unwrap_or_else(PoisonError::into_inner);
            let r = root::iterate(
                &mut ctx,
                board,
                limits,
                deadline,
                start,
                &mut speeds,
                report,
            );
            *self.speeds.lock().unwrap_or_else(PoisonError::into_inner) = speeds;
            pool.shut_down();
            if let Some(g) = governor {
                g.thread().unpark();
                if let Ok(n) = g.join() {
                    self.helpers_working.store(n, Ordering::Relaxed);
                }
            }
            r
        })
    }
}

impl Report {
    /// The depth as the peers print it: `24`, `12@95%` (selective), `24wld`; a solve's depth
    /// is its empties.
    pub fn depth_label(&self) -> String {
        match self.solved {
            Some(SolveMode::Exact) => format!("{}", self.depth),
            Some(SolveMode::WinLossDraw) => format!("{}wld", self.depth),
            None if self.selectivity.0 > 0 => {
                format!("{}@{}%", self.depth, self.selectivity.percent())
            }
            None => format!("{}", self.depth),
        }
    }
}

/// Depth-limited searches of positions one after another on one thread, the caller's table
/// and no book: the values the trainer's evaluation and the ProbCut fitter measure.
pub struct FixedDepth<'a, E: Evaluator> {
    ctx: Context<'a, E>,
}

impl<'a, E: Evaluator> FixedDepth<'a, E> {
    /// Searches without pruning (selectivity 0).
    pub fn new(tt: &'a TranspositionTable, eval: &'a E) -> Self {
        static NEVER: AtomicBool = AtomicBool::new(false);
        FixedDepth {
            ctx: Context::new(tt, eval, &NEVER),
        }
    }

    /// Prunes by Multi-ProbCut with `model` at `level`.
    pub fn with_probcut(mut self, model: &'a ProbCutModel, level: Selectivity) -> Self {
        self.ctx = self.ctx.with_probcut(model);
        self.ctx.selectivity = level.0;
        self
    }

    /// The value of `board` for the side to move searched `depth` plies in a full window
    /// (static evaluation at 0, exact once the depth reaches the end of the game).
    pub fn value(&mut self, board: &Board, depth: u32) -> Score {
        let full = crate::eval::MAX_EIGHTHS;
        let v = self
            .ctx
            .pvs_mid(board.player, board.opponent, -full, full, depth);
        Score::from_eighths(v)
    }
}

/// Result of a root solve (see [`solve_root`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootResult {
    pub best: Move,
    /// Disc difference for the side to move (exact in solves).
    pub score: i32,
    pub nodes: u64,
}

/// Solves `board` exactly within (`alpha`, `beta`): `(-64, 64)` for the exact score,
/// `(-1, 1)` for win/loss/draw. One thread, the caller's table.
pub fn solve_root<E: Evaluator>(
    board: &Board,
    alpha: i32,
    beta: i32,
    tt: &TranspositionTable,
    eval: &E,
    stop: &AtomicBool,
) -> RootResult {
    let mut ctx = Context::new(tt, eval, stop);
    let mode = if alpha >= -1 && beta <= 1 {
        SolveMode::WinLossDraw
    } else {
        SolveMode::Exact
    };
    let r = root::iterate(
        &mut ctx,
        board,
        &Limits::solve(mode),
        Deadline::NONE,
        Instant::now(),
        &mut MeasuredSpeeds::default(),
        &mut |_| {},
    );
    RootResult {
        best: r.best,
        score: r.score.discs(),
        nodes: r.nodes,
    }
}
