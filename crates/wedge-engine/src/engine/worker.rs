//! The worker thread's state and loop: it runs one [`Task`] at a time, and between tasks
//! ponders and learns the user's book; and its [`EngineOptions`].

use super::books::{BookSetting, LearnFailure, PlayBooks};
use super::candidates::{candidate_schedule, ScoredRootMove};
use super::limits::limits_for_ponder;
use super::searcher_size::SearcherSize;
use super::task::{BookMove, Event, EventSink, JobId, Outcome, Task};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use wedge_core::board::{Board, Move};
use wedge_core::eval::Evaluator;
use wedge_core::rng::Rng;
use wedge_core::search::{Limits, Report, Score, Searcher, Selectivity, TimeControl};

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
    /// Think on the opponent's time: after a move searched on a clock, search the position
    /// after the reply the search expects until the next task comes; the table keeps it.
    pub ponder: bool,
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
    /// What to ponder after the last move played on a clock, and the limits to ponder it with
    /// (only with [`EngineOptions::ponder`]; any task clears it).
    pub(super) ponder: Option<(Board, Limits)>,
    /// The position pondered last, until the next search (whose log says whether it was it).
    pub(super) pondered: Option<Board>,
}

impl<E: Evaluator> Worker<E> {
    /// The next task (none once the engine is dropped). While none waits, the worker does its
    /// idle work, which a submitted task stops at once: once a task has run (so this engine
    /// is the one in use, not a GUI's spare copy), it faults the table's memory in; then it
    /// ponders after its last move on a clock; then it learns the games waiting for the
    /// user's book.
    pub(super) fn next_job(&mut self, jobs: &mpsc::Receiver<Job>) -> Option<Job> {
        loop {
            let table = self.used && !self.table_ready;
            if !table && self.ponder.is_none() && !self.books.has_waiting() {
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
            if let Some((board, limits)) = self.ponder.take() {
                self.ponder_on(&board, &limits);
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

    /// Searches `board` until the search ends or a task comes: the table keeps what it found.
    pub(super) fn ponder_on(&mut self, board: &Board, limits: &Limits) {
        self.pondered = Some(*board);
        let r = self
            .searcher
            .search(board, limits, &self.idle_stop, &mut |_| {});
        tracing::debug!(
            "pondered {} empties: {} {} in {} ms, {} nodes",
            board.empty_count(),
            r.depth_label(),
            r.best,
            r.millis,
            r.nodes
        );
    }

    /// After `report`, the move searched on `board` with `limits`: what to ponder, if this
    /// engine ponders and the move was played on a clock (analysis and levels never ponder),
    /// and the game goes on. That is the position after the reply the search expects (when
    /// the opponent plays it, the next search goes on from the ponder's depth), else the
    /// position the move leaves.
    fn ponder_after(
        &self,
        board: &Board,
        limits: &Limits,
        report: &Report,
    ) -> Option<(Board, Limits)> {
        if !self.options.ponder || limits.time == TimeControl::Infinite {
            return None;
        }
        let next = board.apply(report.best).ok()?;
        if next.is_game_over() {
            return None;
        }
        let expected = report
            .pv
            .get(1)
            .and_then(|&reply| next.apply(reply).ok())
            .filter(|b| !b.is_game_over());
        Some((expected.unwrap_or(next), limits_for_ponder(limits)))
    }

    pub(super) fn run(&mut self, job: Job) {
        let id = job.id;
        self.used = true;
        self.ponder = None;
        if let (Task::Search { board, .. }, Some(pondered)) = (&job.task, self.pondered.take()) {
            let hit = if pondered == *board { "" } else { "not " };
            tracing::debug!("the search is {hit}of the position pondered");
        }
        self.books.resume_idle_learning();
        if matches!(job.task, Task::Search { .. } | Task::Candidates { .. }) {
            // A republished book is picked up before the next move (a stat call per book).
            self.reopen_books();
        }
        let outcome = match job.task {
            Task::Search { board, limits } => {
                let r = match self.book_move(id, &board) {
                    Some(r) => r,
                    None => self.search(id, &board, &limits),
                };
                self.ponder = self.ponder_after(&board, &limits, &r);
                Outcome::Best(r)
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use wedge_core::eval::Heuristic;
    use wedge_core::search::SolveMode;

    fn worker(ponder: bool) -> Worker<Heuristic> {
        Worker {
            searcher: Searcher::new(Arc::new(Heuristic), 16, 1),
            stop: Arc::new(AtomicBool::new(false)),
            idle_stop: Arc::new(AtomicBool::new(false)),
            used: false,
            table_ready: false,
            sink: Box::new(|_| {}),
            options: EngineOptions {
                ponder,
                ..Default::default()
            },
            books: PlayBooks::new(None, None),
            rng: Rng::new(1),
            ponder: None,
            pondered: None,
        }
    }

    /// The position with `empties` empty squares on the line of first-listed moves from the
    /// start.
    fn line(empties: u32) -> Board {
        let mut board = Board::START;
        while board.empty_count() > empties {
            board = board.apply(board.moves()[0]).unwrap();
        }
        board
    }

    fn clock() -> Limits {
        Limits::timed(
            TimeControl::Clock {
                remaining: Duration::from_secs(2),
                increment: Duration::ZERO,
            },
            60,
        )
    }

    fn search(worker: &mut Worker<Heuristic>, id: JobId, board: Board, limits: Limits) -> Report {
        let job = Job {
            id,
            task: Task::Search { board, limits },
        };
        let (tx, rx) = mpsc::channel();
        worker.sink = Box::new(move |e| {
            if let Event::Done {
                outcome: Outcome::Best(r),
                ..
            } = e
            {
                let _ = tx.send(r);
            }
        });
        worker.run(job);
        rx.try_recv().expect("a search ends with its report")
    }

    #[test]
    fn a_move_on_a_clock_is_pondered_and_the_table_then_knows_the_expected_reply() {
        let board = line(16);
        let mut pondering = worker(true);
        let played = search(&mut pondering, 1, board, clock());
        assert_eq!(played.pv[0], played.best);
        let next = board.apply(played.best).unwrap();
        let expected = next.apply(played.pv[1]).unwrap();
        let (pondered, limits) = pondering.ponder.expect("a position to ponder");
        assert_eq!(pondered, expected, "{played:?}");
        assert!(
            matches!(limits.time, TimeControl::Clock { remaining, .. } if remaining.as_secs() >= 3600),
            "{limits:?}"
        );
        assert_eq!((limits.solve_empties, limits.wld_empties), (34, 34));
        // Nothing stops it here: it runs to its end, the exact solve of the position.
        pondering.ponder_on(&pondered, &limits);
        // When the opponent plays the expected reply, the pondering engine answers with the
        // same exact score as one that did not ponder, from fewer nodes.
        let exact = Limits::solve(SolveMode::Exact);
        let warm = search(&mut pondering, 2, expected, exact);
        let cold = search(&mut worker(false), 1, expected, exact);
        assert_eq!(warm.score, cold.score);
        assert!(warm.nodes < cold.nodes, "{warm:?} {cold:?}");
        // An untimed search leaves nothing to ponder.
        assert_eq!(pondering.ponder, None);
    }

    /// Without a reply in the principal variation (a book move), the position the move leaves.
    #[test]
    fn a_move_without_an_expected_reply_leaves_its_own_position_to_ponder() {
        let board = line(30);
        let played = search(&mut worker(false), 1, board, clock());
        let alone = Report {
            pv: vec![played.best],
            ..played
        };
        let (pondered, _) = worker(true).ponder_after(&board, &clock(), &alone).unwrap();
        assert_eq!(pondered, board.apply(played.best).unwrap());
    }

    #[test]
    fn only_a_pondering_engine_ponders_and_only_moves_on_a_clock_with_a_game_left() {
        let board = line(40);
        let mut plain = worker(false);
        search(&mut plain, 1, board, clock());
        assert_eq!(plain.ponder, None, "pondering is off");
        let mut pondering = worker(true);
        search(&mut pondering, 1, board, Limits::depth(3));
        assert_eq!(pondering.ponder, None, "no clock: a level or an analysis");
        search(&mut pondering, 2, board, clock());
        assert!(pondering.ponder.is_some());
        // Any task clears it.
        pondering.run(Job {
            id: 3,
            task: Task::Evaluate { board },
        });
        assert_eq!(pondering.ponder, None);
        // A move that ends the game (Black's a1, the last empty) leaves nothing to ponder.
        let text = format!("-O{} X", "X".repeat(62));
        let last = wedge_core::formats::parse_position(&text).unwrap().board;
        let r = search(&mut pondering, 4, last, clock());
        assert_eq!(r.best.to_string(), "a1");
        assert_eq!(pondering.ponder, None);
    }
}
