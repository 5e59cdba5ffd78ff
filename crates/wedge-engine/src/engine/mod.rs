//! The engine worker: one thread that owns the search. Requests go in ([`Task`]), events come
//! out ([`Event`]: progress per iteration, candidate lists, analysed positions, the final
//! result); a shared stop flag ends the running task at once. Tasks run one at a time, in the
//! order given; which one runs is the caller's record (the protocol driver's), not the engine's.
//! While no task waits, the worker learns the games waiting for the user's book, and the next
//! task stops that at once.
//! This is the only API the protocols use; it knows nothing about who asked or how the answer
//! is printed.

mod books;
mod builder;
mod candidates;

pub use books::{offered_moves, BookSetting, LearnFailure, OfferedMove};
pub use builder::{BookOptions, BuildError, EngineBuilder};
pub use candidates::{candidate_schedule, ScoredRootMove};

use books::PlayBooks;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;
use wedge_core::board::{Board, Move};
use wedge_core::eval::Evaluator;
use wedge_core::rng::Rng;
use wedge_core::search::{Limits, Report, Score, Searcher, Selectivity, TimeControl};

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

/// `submit` found no worker thread to answer (it could not be started, or it ended).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the engine thread is gone")]
pub struct WorkerGone;

struct Job {
    id: JobId,
    task: Task,
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

/// The handle on the worker thread. Dropping it stops the running task and joins the thread.
pub struct Engine {
    jobs: Option<mpsc::Sender<Job>>,
    stop: Arc<AtomicBool>,
    /// Stops the worker's learning between tasks (set by every submit).
    idle_stop: Arc<AtomicBool>,
    next_id: JobId,
    worker: Option<JoinHandle<()>>,
    /// Signalled once the worker has built its searcher (see [`Engine::wait_ready`]).
    ready: Option<mpsc::Receiver<()>>,
}

impl Engine {
    /// Starts the worker thread owning `searcher`; events are handed to `sink` in order.
    pub fn new<E: Evaluator + 'static>(
        searcher: Searcher<E>,
        options: EngineOptions,
        sink: EventSink,
    ) -> Engine {
        Engine::spawn(move || searcher, options, sink)
    }

    /// Like [`Engine::new`], but the searcher is built on the worker thread by `make` (the
    /// weights loaded, the table mapped); [`Engine::wait_ready`] waits for it.
    pub fn spawn<E: Evaluator + 'static>(
        make: impl FnOnce() -> Searcher<E> + Send + 'static,
        options: EngineOptions,
        sink: EventSink,
    ) -> Engine {
        let (tx, rx) = mpsc::channel::<Job>();
        let stop = Arc::new(AtomicBool::new(false));
        let worker_stop = stop.clone();
        let idle_stop = Arc::new(AtomicBool::new(false));
        let worker_idle_stop = idle_stop.clone();
        let (ready_tx, ready) = mpsc::sync_channel::<()>(1);
        let handle = std::thread::Builder::new()
            .name("wedge-engine".into())
            .spawn(move || {
                let seed = options
                    .book_seed
                    .unwrap_or_else(wedge_core::rng::fresh_seed);
                if options.book_randomness > 0 {
                    tracing::info!(
                        "book randomness {}: seed {seed} (--book-seed {seed} repeats the choices)",
                        options.book_randomness
                    );
                }
                let mut worker = Worker {
                    searcher: make(),
                    stop: worker_stop,
                    idle_stop: worker_idle_stop,
                    used: false,
                    table_ready: false,
                    sink,
                    books: PlayBooks::new(options.book.as_ref(), options.user_book.as_ref()),
                    options,
                    rng: Rng::new(seed),
                };
                worker.reopen_books();
                let _ = ready_tx.send(());
                while let Some(job) = worker.next_job(&rx) {
                    worker.run(job);
                }
            });
        let worker = match handle {
            Ok(h) => Some(h),
            Err(e) => {
                tracing::error!("cannot start the engine thread: {e}");
                None
            }
        };
        Engine {
            jobs: Some(tx),
            stop,
            idle_stop,
            next_id: 1,
            worker,
            ready: Some(ready),
        }
    }

    /// Blocks until the worker is ready to search (at once after the first call), so that a
    /// game clock started after the handshake never pays for loading the weights.
    pub fn wait_ready(&mut self) {
        if let Some(ready) = self.ready.take() {
            let _ = ready.recv();
        }
    }

    /// Hands `task` to the worker. The stop flag is reset first, or set when `start_stopped`
    /// (new input is already waiting: the task then answers at once with what it has). The
    /// flag is shared, so submit only once the previous task sent its [`Event::Done`]. Fails
    /// when there is no worker to answer.
    pub fn submit(&mut self, task: Task, start_stopped: bool) -> Result<JobId, WorkerGone> {
        let id = self.next_id;
        self.next_id += 1;
        self.stop.store(start_stopped, Ordering::SeqCst);
        let sent = self
            .jobs
            .as_ref()
            .is_some_and(|tx| tx.send(Job { id, task }).is_ok());
        // After the send: the worker clears this flag before it looks for a task.
        self.idle_stop.store(true, Ordering::SeqCst);
        if !sent || self.worker.is_none() {
            return Err(WorkerGone);
        }
        Ok(id)
    }

    /// Asks the running task to stop now; it still sends its [`Event::Done`].
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.idle_stop.store(true, Ordering::SeqCst);
    }

    /// The stop flag itself (for callers that must set it from another thread).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // The channel closes first, so a worker between tasks finds it closed.
        self.jobs = None;
        self.stop();
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }
}

/// The state living on the worker thread.
struct Worker<E: Evaluator> {
    searcher: Searcher<E>,
    stop: Arc<AtomicBool>,
    idle_stop: Arc<AtomicBool>,
    /// A task has run: this engine is in use.
    used: bool,
    /// The table's memory is all faulted in.
    table_ready: bool,
    sink: EventSink,
    options: EngineOptions,
    /// The shipped book and the user's.
    books: PlayBooks,
    rng: Rng,
}

impl<E: Evaluator> Worker<E> {
    /// The next task (none once the engine is dropped). While none waits, the worker does its
    /// idle work, which a submitted task stops at once: once a task has run (so this engine
    /// is the one in use, not a GUI's spare copy), it faults the table's memory in; then it
    /// learns the games waiting for the user's book.
    fn next_job(&mut self, jobs: &mpsc::Receiver<Job>) -> Option<Job> {
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
    fn reopen_books(&mut self) {
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
                EngineBuilder::of_size(16, 1).searcher_with(eval.clone(), None),
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

    fn run(&mut self, job: Job) {
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

/// A level's exact solves start at this many empties more than its midgame depth, and its
/// win/loss/draw solves at [`WLD_MARGIN`] more (the endgame depth is the engine's choice, as
/// NBoard leaves it; NTest's depth 8 solves exactly from 13 and win/loss/draw from 17).
pub const EXACT_MARGIN: u32 = 6;
pub const WLD_MARGIN: u32 = 9;

/// What every protocol searches with for a move: a level set by the user (`set depth N`,
/// `wedge-depth N`) fixes the midgame depth and the solve points and a clock can only shorten
/// the move; without a level, or at the top level (60, which match runners send on a clock),
/// the clock decides how deep to go and where to solve.
pub fn limits_for_play(level: Option<u32>, time: TimeControl) -> Limits {
    match level {
        Some(depth) if depth < 60 || time == TimeControl::Infinite => Limits {
            time,
            ..limits_for_depth(depth)
        },
        _ => Limits::timed(time, 60),
    }
}

/// The level every protocol uses for "search to midgame depth `depth`", with no clock: a
/// selective midgame search to that depth, a win/loss/draw solve from `depth + WLD_MARGIN`
/// empties and an exact one from `depth + EXACT_MARGIN`.
pub fn limits_for_depth(depth: u32) -> Limits {
    let depth = depth.clamp(1, 60);
    Limits {
        selectivity: Selectivity::LEVEL,
        solve: Some(wedge_core::search::SolveMode::Exact),
        solve_empties: (depth + EXACT_MARGIN).min(60),
        wld_empties: (depth + WLD_MARGIN).min(60),
        ..Limits::depth(depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use wedge_core::search::SolveMode;

    #[test]
    fn a_level_keeps_its_depth_and_solve_points_on_a_clock() {
        let clock = TimeControl::Clock {
            remaining: Duration::from_secs(300),
            increment: Duration::ZERO,
        };
        let level = limits_for_play(Some(4), clock);
        assert_eq!(
            level,
            Limits {
                time: clock,
                ..limits_for_depth(4)
            }
        );
        assert_eq!(
            (level.depth, level.solve_empties, level.wld_empties),
            (4, 10, 13)
        );
        assert_eq!(level.solve, Some(SolveMode::Exact));
        // Without a level, or at the top one, the clock decides.
        assert_eq!(limits_for_play(None, clock), Limits::timed(clock, 60));
        assert_eq!(limits_for_play(Some(60), clock), Limits::timed(clock, 60));
        // Without a clock a level is the level, the top one included.
        let untimed = TimeControl::Infinite;
        assert_eq!(limits_for_play(Some(60), untimed), limits_for_depth(60));
    }
}
