//! The worker thread's state and loop: it runs one [`Task`] at a time and learns the user's
//! book between tasks; and its [`EngineOptions`].

use super::books::{BookSetting, LearnFailure, PlayBooks};
use super::candidates::{candidate_schedule, ScoredRootMove};
use super::searcher_size::SearcherSize;
use super::task::{BookMove, Event, EventSink, JobId, Outcome, Task};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use wedge_core::board::{Board, Move};
use wedge_core::eval::Evaluator;
use wedge_core::rng::Rng;
use wedge_core::search::{Limits, Report, Score, Searcher, Selectivity};

pub(super) struct Job {
    pub(super) id: JobId,
    pub(super) task: Task,
}

/// Settings of the worker that are not the searcher's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineOptions {
    /// Report every elapsed time as 0 ms (reproducible transcripts in tests).
    pub zero_times: bool,
    /// The shipped opening book, only ever read (none: no shipped book).
    pub book: Option<BookSetting>,
    /// The user's book: learned games are written there (never into `book`); it answers
    /// where it is better supported than `book` (none: `learn` stores nothing).
    pub user_book: Option<BookSetting>,
    /// Book moves losing at most this many discs may be chosen (0: always the best).
    pub book_randomness: u32,
    /// Seed of the random book choices (none: a new seed in every process).
    pub book_seed: Option<u64>,
}

/// The state living on the worker thread.
pub(super) struct Worker<E: Evaluator> {
    pub(super) searcher: Searcher<E>,
    pub(super) stop: Arc<AtomicBool>,
    pub(super) idle_stop: Arc<AtomicBool>,
    /// A task has run: this engine is in use.
    pub(super) used: bool,
    /// The table's memory is all faulted in.
    pub(super) table_ready: bool,
    pub(super) sink: EventSink,
    pub(super) options: EngineOptions,
    /// The shipped book and the user's.
    pub(super) books: PlayBooks,
    pub(super) rng: Rng,
}

impl<E: Evaluator> Worker<E> {
    /// The next task (none once the engine is dropped). While none waits, the worker does its
    /// idle work, which a submitted task stops at once: once a task has run (so this engine
    /// is the one in use, not a GUI's spare copy), it faults the table's memory in; then it
    /// learns the games waiting for the user's book.
    pub(super) fn next_job(&mut self, jobs: &mpsc::Receiver<Job>) -> Option<Job> {
        loop {
            let table = self.used && !self.table_ready;
            if !table && !self.books.has_waiting() {
                return jobs.recv().ok();
            }
            // Cleared before looking: a task submitted from now on sets it again.
            self.idle_stop.store(false, Ordering::SeqCst);
            match jobs.try_recv() {
                Ok(job) => return Some(job),
                Err(mpsc::TryRecvError::Disconnected) => return None,
                Err(mpsc::TryRecvError::Empty) => {}
            }
            if table {
                self.table_ready = self.searcher.table().fault_in(&self.idle_stop);
                continue;
            }
            let stop = self.idle_stop.clone();
            match self.learn(None, &stop) {
                Ok(what) => tracing::info!("learning the games waiting: {what}"),
                Err(e) if e.interrupted() => tracing::debug!("learning paused: {e}"),
                Err(e) => tracing::warn!("learn: {e}"),
            }
        }
    }

    /// Maps the books again when a file was replaced, and gives the search the new set.
    pub(super) fn reopen_books(&mut self) {
        if self.books.reopen() {
            let open = self.books.open_set();
            self.searcher
                .set_book(open.map(|b| b as Arc<dyn wedge_core::book::BookLookup>));
        }
    }

    /// The book's move for the root, as a report (depth 0, no nodes), after a
    /// [`Event::Book`] listing it.
    fn book_move(&mut self, id: JobId, board: &Board) -> Option<Report> {
        let offered =
            self.books
                .move_to_play(board, self.options.book_randomness, &mut self.rng)?;
        let mv = Move::Play(offered.sq);
        (self.sink)(Event::Book {
            job: id,
            moves: vec![BookMove::from(offered)],
        });
        Some(Report {
            depth: 0,
            selectivity: Selectivity::NONE,
            solved: None,
            score: Score::from_discs(offered.score),
            best: mv,
            pv: vec![mv],
            nodes: 0,
            millis: 0,
        })
    }

    /// The book's moves for the root, best first (at most `count`), sent as an
    /// [`Event::Book`] when there are any; returns their squares (0 when the position is not
    /// in the book, or is a leaf with no book move).
    fn book_hint(&mut self, id: JobId, board: &Board, count: usize) -> u64 {
        let moves: Vec<BookMove> = self
            .books
            .hints(board, count)
            .into_iter()
            .map(BookMove::from)
            .collect();
        let squares = moves
            .iter()
            .filter_map(|m| m.mv.square())
            .fold(0, |acc, sq| acc | sq.bit());
        if !moves.is_empty() {
            (self.sink)(Event::Book { job: id, moves });
        }
        squares
    }

    /// Keeps `game` for the user's book and learns every game waiting (searches of the book's
    /// depth value them); with no game, learns them as idle work (one thread). Then maps the
    /// books again. `stop` ends the searches, and the games not yet published stay waiting.
    fn learn(
        &mut self,
        game: Option<&[Move]>,
        stop: &Arc<AtomicBool>,
    ) -> Result<String, LearnFailure> {
        let eval = self.searcher.evaluator_arc();
        let make = |depth: u32| {
            wedge_core::search::SearchValuer::new(
                SearcherSize {
                    hash_mb: 16,
                    threads: 1,
                }
                .searcher_with(eval.clone(), None),
                depth,
                Selectivity::NONE,
            )
            .with_stop(stop.clone())
        };
        let result = match game {
            Some(moves) => self
                .books
                .learn(moves, &make, self.searcher.threads(), stop),
            None => self.books.learn_idle(&make, stop),
        };
        self.reopen_books();
        result
    }

    pub(super) fn run(&mut self, job: Job) {
        let id = job.id;
        self.used = true;
        self.books.resume_idle_learning();
        if matches!(job.task, Task::Search { .. } | Task::Candidates { .. }) {
            // A republished book is picked up before the next move (a stat call per book).
            self.reopen_books();
        }
        let outcome = match job.task {
            Task::Search { board, limits } => match self.book_move(id, &board) {
                Some(r) => Outcome::Best(r),
                None => Outcome::Best(self.search(id, &board, &limits)),
            },
            Task::Candidates {
                board,
                limits,
                count,
            } => {
                // The book's moves first; the search values the others when the book has fewer
                // than asked (a leaf has none).
                let from_book = self.book_hint(id, &board, count);
                let wanted = count.max(1).min(board.moves().len());
                let listed = from_book.count_ones() as usize;
                if listed >= wanted {
                    Outcome::Candidates(Vec::new())
                } else {
                    let rest = self.candidates(id, &board, &limits, count - listed, from_book);
                    Outcome::Candidates(rest)
                }
            }
            Task::Positions { boards, limits } => {
                let mut done = Vec::new();
                for (index, board) in boards {
                    if self.stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let report = self.search_quiet(&board, &limits);
                    if self.stop.load(Ordering::Relaxed) {
                        // An interrupted search is not a result for this position.
                        break;
                    }
                    (self.sink)(Event::Position {
                        job: id,
                        index,
                        report: report.clone(),
                    });
                    done.push((index, report));
                }
                Outcome::Positions(done)
            }
            Task::Evaluate { board } => Outcome::Static(Score::from_eighths(
                self.searcher.evaluator().eighths(&board),
            )),
            Task::Clear => {
                self.searcher.clear();
                self.reopen_books();
                Outcome::Cleared
            }
            Task::Learn { moves } => {
                let stop = self.stop.clone();
                Outcome::Learned(self.learn(Some(&moves), &stop))
            }
        };
        let stopped = self.stop.load(Ordering::Relaxed);
        (self.sink)(Event::Done {
            job: id,
            outcome,
            stopped,
        });
    }

    fn fix_times(&self, mut r: Report) -> Report {
        if self.options.zero_times {
            r.millis = 0;
        }
        r
    }

    fn search(&mut self, id: JobId, board: &Board, limits: &Limits) -> Report {
        let zero = self.options.zero_times;
        let sink = &mut self.sink;
        let stop = &self.stop;
        let r = self.searcher.search(board, limits, stop, &mut |r| {
            let mut report = r.clone();
            if zero {
                report.millis = 0;
            }
            let complete = !stop.load(Ordering::SeqCst);
            sink(Event::Progress {
                job: id,
                report,
                complete,
            });
        });
        self.fix_times(r)
    }

    fn search_quiet(&mut self, board: &Board, limits: &Limits) -> Report {
        let r = self.searcher.search(board, limits, &self.stop, &mut |_| {});
        self.fix_times(r)
    }

    /// The best `count` root moves other than those in `skip` (squares the book listed).
    fn candidates(
        &mut self,
        id: JobId,
        board: &Board,
        limits: &Limits,
        count: usize,
        skip: u64,
    ) -> Vec<ScoredRootMove> {
        let started = std::time::Instant::now();
        let mut best_list = Vec::new();
        let moves: Vec<Move> = board
            .moves()
            .into_iter()
            .filter(|m| m.square().is_none_or(|sq| skip & sq.bit() == 0))
            .collect();
        if skip == 0 && (moves.len() <= 1 || count <= 1) {
            // One move (or a pass) or only the best asked: a plain search says it all.
            let r = self.search(id, board, limits);
            if r.depth == 0 && r.solved.is_none() && self.stop.load(Ordering::Relaxed) {
                return best_list;
            }
            return vec![ScoredRootMove::from_root(&r)];
        }
        let mut nodes = 0u64;
        for child_limits in candidate_schedule(board, limits) {
            let mut list = Vec::with_capacity(moves.len());
            for &mv in &moves {
                let Ok(child) = board.apply(mv) else { continue };
                let r = self
                    .searcher
                    .search(&child, &child_limits, &self.stop, &mut |_| {});
                nodes += r.nodes;
                if self.stop.load(Ordering::Relaxed) {
                    return best_list;
                }
                list.push(ScoredRootMove::from_child(mv, &r));
            }
            // Best first; equal scores keep the move-generation order (stable sort).
            list.sort_by_key(|c| -c.score);
            list.truncate(count);
            let millis = if self.options.zero_times {
                0
            } else {
                started.elapsed().as_millis() as u64
            };
            (self.sink)(Event::Candidates {
                job: id,
                list: list.clone(),
                nodes,
                millis,
            });
            best_list = list;
        }
        best_list
    }
}
