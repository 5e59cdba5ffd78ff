//! The books play consults: the shipped one and the user's (learned games), mapped again when
//! a file is republished; what they offer for a position (the move to play, the hints); and
//! learning a game into the user's book. The engine holds one [`PlayBooks`] and asks it.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use wedge_core::board::{Board, Move, Square};
use wedge_core::book::pending;
use wedge_core::book::{book_children, choose};
use wedge_core::book::{learn_game, LearnError};
use wedge_core::book::{Book, BookInfo, BookSet, BookSource, Valuer, Verify};
use wedge_core::rng::Rng;

/// Where a book is and how to check it when it is (re)opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookSetting {
    pub path: PathBuf,
    pub verify: Verify,
}

/// A move the book offers, with what it knows of the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OfferedMove {
    pub sq: Square,
    /// For the side to move.
    pub score: i32,
    /// Plies its value was searched to.
    pub depth: u32,
    pub solved: bool,
    /// Games through the move's position (0 when it is not stored).
    pub games: u64,
}

/// The moves `book` offers at `board`, best first (at most `count`, at least one), as NBoard's
/// `hint` lists them; none when the position is not in the book, is not valued, or is a leaf
/// with no book move.
pub fn offered_moves(
    book: &(impl BookSource + ?Sized),
    board: &Board,
    count: usize,
) -> Vec<OfferedMove> {
    if board.empty_count() < book.fewest_empties() {
        return Vec::new();
    }
    let Some(probe) = BookSource::probe(book, board).filter(|p| p.valued) else {
        return Vec::new();
    };
    let mut moves: Vec<OfferedMove> = book_children(book, board)
        .into_iter()
        .map(|c| OfferedMove {
            sq: c.sq,
            score: c.value,
            depth: c.depth,
            solved: c.solved,
            games: c.games as u64,
        })
        .collect();
    for r in probe.replies() {
        if !moves.iter().any(|m| m.sq == r.sq) {
            // A reply whose successor is not in the book: the root's depth is a lower
            // bound of its search depth.
            moves.push(OfferedMove {
                sq: r.sq,
                score: r.value,
                depth: probe.depth,
                solved: probe.is_solved(),
                games: 0,
            });
        }
    }
    moves.sort_by_key(|m| -m.score);
    moves.truncate(count.max(1));
    moves
}

/// Why a game could not be learned.
#[derive(Debug, thiserror::Error)]
pub enum LearnFailure {
    #[error("no user's book to learn into (see --learn-book): nothing stored")]
    NoUserBook,
    #[error("the game has no move: nothing stored")]
    Empty,
    /// The games not stored wait to be learned later.
    #[error(
        "{source}; {waiting} game(s) kept to be learned later{}",
        if *.in_memory > 0 {
            format!(
                ", {} of them in memory only (the journal beside the book cannot be written)",
                .in_memory
            )
        } else {
            String::new()
        }
    )]
    Store {
        source: LearnError,
        waiting: usize,
        in_memory: usize,
    },
}

impl LearnFailure {
    /// True when new input stopped the learn (nothing failed).
    pub fn interrupted(&self) -> bool {
        matches!(
            self,
            LearnFailure::Store {
                source: LearnError::Interrupted,
                ..
            }
        )
    }
}

/// One book file, and what became of its last (re)opening.
struct BookSlot {
    setting: BookSetting,
    /// The user's book, which may not exist yet (nothing learned).
    user: bool,
    state: SlotState,
}

enum SlotState {
    /// Not opened yet.
    Closed,
    Open {
        book: Arc<Book>,
        stamp: Option<FileStamp>,
    },
    /// This version of the file could not be opened (the reason was logged once).
    Failed { stamp: Option<FileStamp> },
}

/// Identity of a file version: replacing the file by rename changes it.
type FileStamp = (u64, std::time::SystemTime, u64);

fn file_stamp(path: &Path) -> Option<FileStamp> {
    let m = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    let ino = std::os::unix::fs::MetadataExt::ino(&m);
    #[cfg(not(unix))]
    let ino = 0;
    Some((ino, m.modified().ok()?, m.len()))
}

/// True when two paths name one file (the same path, or the same existing file).
fn same_file(a: &Path, b: &Path) -> bool {
    a == b
        || matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(x), Ok(y)) if x == y
        )
}

/// The shipped book and the user's book.
pub struct PlayBooks {
    slots: Vec<BookSlot>,
    /// Games to learn that the journal beside the user's book could not keep, oldest first.
    unsaved: Vec<Vec<Move>>,
    /// The last learn failed (not interrupted): no idle learning until the next learn.
    failed: bool,
    /// Idle learning waits for the next task (another engine learns, or games are left).
    idle_paused: bool,
    /// The books open now, in the order they are consulted (none when none is).
    open: Option<Arc<BookSet>>,
}

impl PlayBooks {
    /// The books named, none opened yet; the shipped one takes precedence on equal support
    /// (see [`BookSet`]). A shipped book that is the user's book's file is consulted once, as
    /// the user's.
    pub fn new(shipped: Option<&BookSetting>, user: Option<&BookSetting>) -> PlayBooks {
        let mut slots = Vec::new();
        if let Some(shipped) = shipped {
            if !user.is_some_and(|u| same_file(&u.path, &shipped.path)) {
                slots.push(BookSlot {
                    setting: shipped.clone(),
                    user: false,
                    state: SlotState::Closed,
                });
            }
        }
        if let Some(user) = user {
            slots.push(BookSlot {
                setting: user.clone(),
                user: true,
                state: SlotState::Closed,
            });
        }
        PlayBooks {
            slots,
            unsaved: Vec::new(),
            failed: false,
            idle_paused: false,
            open: None,
        }
    }

    /// The books open now.
    pub fn open_set(&self) -> Option<Arc<BookSet>> {
        self.open.clone()
    }

    /// Maps the books (again, when a file was replaced since it was mapped); true when the
    /// open set changed. A book that cannot be opened is reported once per version of its
    /// file, and play goes on without it; a user's book that does not exist yet is no error.
    pub fn reopen(&mut self) -> bool {
        let mut changed = false;
        for slot in &mut self.slots {
            let stamp = file_stamp(&slot.setting.path);
            match &slot.state {
                SlotState::Open { stamp: seen, .. } | SlotState::Failed { stamp: seen }
                    if *seen == stamp =>
                {
                    continue
                }
                _ => {}
            }
            changed = true;
            let path = &slot.setting.path;
            slot.state = match Book::open(path, slot.setting.verify) {
                Ok(book) => {
                    tracing::info!("book {}: {} positions", path.display(), book.len());
                    SlotState::Open {
                        book: Arc::new(book),
                        stamp,
                    }
                }
                Err(_) if slot.user && stamp.is_none() => {
                    tracing::debug!("no user book at {} yet", path.display());
                    SlotState::Failed { stamp }
                }
                Err(e) => {
                    tracing::error!("{e}; playing without it");
                    SlotState::Failed { stamp }
                }
            };
        }
        if changed {
            let open: Vec<Arc<Book>> = self
                .slots
                .iter()
                .filter_map(|s| match &s.state {
                    SlotState::Open { book, .. } => Some(book.clone()),
                    _ => None,
                })
                .collect();
            self.open = (!open.is_empty()).then(|| Arc::new(BookSet::new(open)));
        }
        changed
    }

    /// The book's move to play at `board` (moves losing at most `randomness` discs may be
    /// chosen), or none.
    pub fn move_to_play(
        &self,
        board: &Board,
        randomness: u32,
        rng: &mut Rng,
    ) -> Option<OfferedMove> {
        let book = self.open.as_deref()?;
        let choice = choose(book, board, randomness, rng)?;
        // The child's record says how deep the value was searched; a deviation whose
        // successor is below the book's minimum has only the root's (smaller) depth.
        let child = BookSource::probe(book, &board.play_flips(choice.sq, board.flips(choice.sq)));
        let (depth, solved) = match child {
            Some(p) => (p.depth + 1, p.is_solved()),
            None => (choice.probe.depth, choice.probe.is_solved()),
        };
        Some(OfferedMove {
            sq: choice.sq,
            score: choice.value,
            depth,
            solved,
            games: child.map_or(0, |p| p.games as u64),
        })
    }

    /// The book's moves at `board` ([`offered_moves`] of the books open now).
    pub fn hints(&self, board: &Board, count: usize) -> Vec<OfferedMove> {
        match self.open.as_deref() {
            Some(book) => offered_moves(book, board, count),
            None => Vec::new(),
        }
    }

    /// The user's book, when there is one.
    fn user_setting(&self) -> Option<BookSetting> {
        self.slots
            .iter()
            .find(|s| s.user)
            .map(|s| s.setting.clone())
    }

    /// Keeps a game for the user's book (in its journal, see [`wedge_core::book::pending`]; in memory when
    /// the journal cannot be written), then learns every game waiting, this one last, with
    /// `threads` threads. The shipped book is never written. See [`PlayBooks::learn_waiting`].
    pub fn learn<V: Valuer>(
        &mut self,
        moves: &[Move],
        make_valuer: &(dyn Fn(u32) -> V + Sync),
        threads: usize,
        stop: &AtomicBool,
    ) -> Result<String, LearnFailure> {
        let setting = self.user_setting().ok_or(LearnFailure::NoUserBook)?;
        if moves.is_empty() {
            return Err(LearnFailure::Empty);
        }
        self.failed = false;
        if let Err(e) = pending::keep(&setting.path, moves) {
            tracing::warn!("{e}: the game is kept in memory until it is learned");
            if !self.unsaved.iter().any(|g| g == moves) {
                self.unsaved.push(moves.to_vec());
            }
        }
        self.learn_waiting(&setting.path, make_valuer, threads, stop)
    }

    /// True when games wait to be learned into the user's book and idle learning is not
    /// paused (see [`PlayBooks::learn_idle`]).
    pub fn has_waiting(&self) -> bool {
        if self.failed || self.idle_paused {
            return false;
        }
        !self.unsaved.is_empty()
            || self
                .user_setting()
                .is_some_and(|s| pending::journal_path(&s.path).is_file())
    }

    /// Lets idle learning try again (after a task ran: another engine may have stopped
    /// learning, or a new game may wait).
    pub fn resume_idle_learning(&mut self) {
        self.idle_paused = false;
    }

    /// Learns the games waiting while the engine is idle, on one thread, when no other
    /// process learns them (see [`pending::Learner`]). Idle learning then pauses until
    /// [`PlayBooks::resume_idle_learning`] when another process learns, or when games still
    /// wait after a pass; after a failure it stops until the next [`PlayBooks::learn`].
    pub fn learn_idle<V: Valuer>(
        &mut self,
        make_valuer: &(dyn Fn(u32) -> V + Sync),
        stop: &AtomicBool,
    ) -> Result<String, LearnFailure> {
        let setting = self.user_setting().ok_or(LearnFailure::NoUserBook)?;
        let learner = match pending::Learner::try_take(&setting.path) {
            Ok(Some(learner)) => learner,
            Ok(None) => {
                self.idle_paused = true;
                return Ok("another engine learns the games waiting".into());
            }
            Err(e) => {
                self.idle_paused = true;
                return Err(self.failure(e.into(), 0));
            }
        };
        let result = self.learn_waiting(&setting.path, make_valuer, 1, stop);
        drop(learner);
        if result.is_ok() && self.has_waiting() {
            // What is left could not be learned in this pass (another engine added it, or
            // took it): try again after the next task.
            self.idle_paused = true;
        }
        result
    }

    /// Learns the games waiting for the user's book at `path`, oldest first (the journal's,
    /// then those kept in memory), each valued by searches `make_valuer(depth)` and published
    /// on its own; says what was done. A new user's book takes the shipped book's settings.
    /// When `stop` is set meanwhile, or a game cannot be stored, the games not published
    /// stay waiting; a failure stops idle learning until the next [`PlayBooks::learn`].
    fn learn_waiting<V: Valuer>(
        &mut self,
        path: &Path,
        make_valuer: &(dyn Fn(u32) -> V + Sync),
        threads: usize,
        stop: &AtomicBool,
    ) -> Result<String, LearnFailure> {
        let result = self.learn_each(path, make_valuer, threads, stop);
        if let Err(e) = &result {
            self.failed = !e.interrupted();
        }
        result
    }

    fn learn_each<V: Valuer>(
        &mut self,
        path: &Path,
        make_valuer: &(dyn Fn(u32) -> V + Sync),
        threads: usize,
        stop: &AtomicBool,
    ) -> Result<String, LearnFailure> {
        let shipped = self.slots.iter().find_map(|s| match &s.state {
            SlotState::Open { book, .. } if !s.user => Some(book.info().clone()),
            _ => None,
        });
        let template = BookInfo {
            description: "Games learned by Wedge".into(),
            ..shipped.unwrap_or_else(|| {
                wedge_core::book::BookBuilder::new(wedge_core::book::DEFAULT_MIN_EMPTIES).info
            })
        };
        // A journal that cannot be read is left as it is (named in the log); the games kept
        // in memory are still learned.
        let journal = pending::read(path).unwrap_or_else(|e| {
            tracing::warn!("{e}: the games waiting there are left for later");
            pending::Journal::default()
        });
        if journal.skipped > 0 {
            if let Err(e) = pending::tidy(path) {
                tracing::warn!("{e}");
            }
        }
        let unsaved = self.unsaved.clone();
        let games: Vec<(&Vec<Move>, bool)> = journal
            .games
            .iter()
            .map(|g| (g, true))
            .chain(unsaved.iter().map(|g| (g, false)))
            .collect();
        let (mut learned, mut new_positions, mut searched, mut solved, mut positions) =
            (0, 0, 0, 0, 0);
        for (i, (game, journaled)) in games.iter().enumerate() {
            let r = learn_game(
                path,
                game,
                &template,
                make_valuer,
                threads,
                stop,
                *journaled,
            )
            .map_err(|e| self.failure(e, games.len() - i))?;
            if !journaled {
                self.unsaved.remove(0);
            }
            if let Some(e) = &r.left_in_journal {
                // Learning it again would count it twice: no more idle learning until the
                // next `learn`.
                tracing::warn!("{e}: the game is in the book, but stays in its journal");
                self.failed = true;
            }
            if r.merged {
                tracing::info!(
                    "{}: added to the version another engine published meanwhile",
                    path.display()
                );
            }
            if !r.learned_elsewhere {
                learned += 1;
                new_positions += r.new_positions;
                searched += r.stats.searched;
                solved += r.stats.solved;
                positions = r.positions;
            }
        }
        Ok(format!(
            "{}: {learned} game(s), {new_positions} new positions, {searched} searched, \
             {solved} solved; {positions} positions",
            path.display()
        ))
    }

    /// The failure `source` with `waiting` games of this pass not stored.
    fn failure(&self, source: LearnError, waiting: usize) -> LearnFailure {
        LearnFailure::Store {
            source,
            waiting: waiting.max(self.unsaved.len()),
            in_memory: self.unsaved.len(),
        }
    }
}
