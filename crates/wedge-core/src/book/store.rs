//! Learning a game into a book file that other processes may write too: writers take turns
//! through the book's lock (`lock`), and learning replays the game on whatever version is
//! published when its turn comes, so engines learning at the same time never lose a game.

use super::builder::{BookBuilder, Origin, SweepStats};
use super::file::{BookError, BookInfo, Consistency};
use super::lock::BookLock;
use super::Valuer;
use crate::board::{IllegalMove, Move};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// Why a game could not be learned.
#[derive(Debug, thiserror::Error)]
pub enum LearnError {
    #[error(transparent)]
    Book(#[from] BookError),
    #[error("the game is not legal: {0}")]
    Illegal(#[from] IllegalMove),
    #[error("interrupted before the book was written")]
    Interrupted,
    #[error("cannot create the directory {path} for the book: {source}")]
    Directory {
        path: String,
        source: std::io::Error,
    },
}

/// What learning a game did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LearnReport {
    /// The game is in the published book, but could not be taken out of the journal (why).
    pub left_in_journal: Option<String>,
    /// The game had left the journal: another engine learned it, and nothing was published.
    pub learned_elsewhere: bool,
    /// Positions of the game the book did not hold.
    pub new_positions: usize,
    pub stats: SweepStats,
    /// Positions in the book published.
    pub positions: usize,
    /// Another writer published while the game was valued: it was added to that version.
    pub merged: bool,
}

/// Adds a game (moves from the standard start) to the book at `path` (created, with
/// `template`'s settings, when missing), values what it needs with searches of the book's
/// search depth made by `make_valuer(depth)`, and publishes it. The searches run without the
/// lock; when another writer published meanwhile, the game is added to that version instead,
/// reusing the searches made, so every writer's games are kept and counted. When `stop` is
/// set meanwhile (the valuers should watch it too), nothing is published and the answer is
/// [`LearnError::Interrupted`]: the book stays as it was. A `journaled` game is one of the
/// book's journal ([`super::pending`]): it is published only while still there, and leaves it
/// once published.
pub fn learn_game<V: Valuer>(
    path: &Path,
    moves: &[Move],
    template: &BookInfo,
    make_valuer: &(dyn Fn(u32) -> V + Sync),
    threads: usize,
    stop: &AtomicBool,
    journaled: bool,
) -> Result<LearnReport, LearnError> {
    let interrupted = || stop.load(Ordering::SeqCst);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| LearnError::Directory {
            path: dir.display().to_string(),
            source,
        })?;
    }
    let value = |book: &mut BookBuilder| -> SweepStats {
        if book.info.search_depth == 0 {
            book.info.search_depth = DEFAULT_LEARN_DEPTH;
        }
        let depth = book.info.search_depth as u32;
        let make = || make_valuer(depth);
        book.sweep(Some(&make), threads, &|_, _| {})
    };
    let mut book = read_for_learning(path, template)?;
    let mut new_positions = book.add_game(moves)?;
    let mut stats = value(&mut book);
    if interrupted() {
        return Err(LearnError::Interrupted);
    }
    let lock = BookLock::acquire(path)?;
    if interrupted() {
        return Err(LearnError::Interrupted);
    }
    if journaled && !super::pending::is_waiting(path, moves, &lock)? {
        return Ok(LearnReport {
            learned_elsewhere: true,
            ..LearnReport::default()
        });
    }
    let published = read_for_learning(path, template)?;
    let merged = published.origin() != book.origin();
    if merged {
        // The game goes onto the published version (so it counts once), then takes the
        // searches already made; only what neither has valued is searched now.
        let mut theirs = published;
        new_positions = theirs.add_game(moves)?;
        theirs.adopt_valuations(&book);
        let more = value(&mut theirs);
        stats.searched += more.searched;
        stats.solved += more.solved;
        stats.leaves_added += more.leaves_added;
        book = theirs;
    }
    // Values from searches cut short must not be published.
    if interrupted() {
        return Err(LearnError::Interrupted);
    }
    book.publish_locked(path, &lock)?;
    let left_in_journal = match journaled {
        true => super::pending::learned(path, moves, &lock)
            .err()
            .map(|e| e.to_string()),
        false => None,
    };
    Ok(LearnReport {
        learned_elsewhere: false,
        left_in_journal,
        new_positions,
        stats,
        positions: book.len(),
        merged,
    })
}

/// Searches of learned positions go this deep when neither book says.
pub const DEFAULT_LEARN_DEPTH: u8 = 12;

/// The book at `path`, or an empty one with `template`'s settings.
fn read_for_learning(path: &Path, template: &BookInfo) -> Result<BookBuilder, BookError> {
    let mut book = BookBuilder::load_or_new(path, template.min_empties)?;
    if book.origin() == Origin::Read(None) {
        book.info = BookInfo {
            level: Consistency::Negamaxed,
            weighted: false,
            created: 0,
            ..template.clone()
        };
    }
    Ok(book)
}
