//! Games waiting to be learned into a user's book: a journal beside the book (`NAME.pending`,
//! one game a line as a transcript from the standard start), and the right to learn it while
//! idle ([`Learner`]). The journal is changed only under the book's lock, and a game leaves it
//! only once a book holding the game is published, so a game is kept through interruptions and
//! failures and learned once, whichever engine learns it.

use super::lock::{beside, still_named, BookLock};
use super::BookError;
use crate::board::Move;
use crate::formats::{format_transcript, replay_transcript, PassPolicy, Position};
use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

/// The journal of the book at `book`.
pub fn journal_path(book: &Path) -> PathBuf {
    beside(book, "", ".pending")
}

/// What the journal holds.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Journal {
    /// The games, oldest first.
    pub games: Vec<Vec<Move>>,
    /// Lines that are not a game from the start with a move (each was logged with its line
    /// number); the next write of the journal drops them.
    pub skipped: usize,
}

/// The journal of the book at `book` (empty when there is none).
pub fn read(book: &Path) -> Result<Journal, BookError> {
    let path = journal_path(book);
    let text = match crate::paths::read_text(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Journal::default()),
        Err(source) => {
            return Err(BookError::Read {
                path: path.display().to_string(),
                source,
            })
        }
    };
    let mut journal = Journal::default();
    for (i, line) in text.lines().enumerate() {
        match replay_transcript(Position::START, line.trim(), PassPolicy::Infer) {
            Ok(game) if !game.moves().is_empty() => journal.games.push(game.moves().to_vec()),
            Ok(_) => journal.skipped += 1,
            Err(e) => {
                journal.skipped += 1;
                tracing::warn!(
                    "{} line {}: not a game from the start ({e}); dropped",
                    path.display(),
                    i + 1
                );
            }
        }
    }
    Ok(journal)
}

/// The games waiting for the book at `book`, oldest first.
pub fn waiting(book: &Path) -> Result<Vec<Vec<Move>>, BookError> {
    Ok(read(book)?.games)
}

/// Writes `games` as the journal of `book` (removes it when there are none).
fn write(book: &Path, games: &[Vec<Move>], _lock: &BookLock) -> Result<(), BookError> {
    let path = journal_path(book);
    let error = |source| BookError::Write {
        path: path.display().to_string(),
        source,
    };
    if games.is_empty() {
        return match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(error(e)),
            _ => Ok(()),
        };
    }
    let text: String = games.iter().map(|g| format_transcript(g) + "\n").collect();
    crate::paths::write_atomic(&path, text.as_bytes()).map_err(error)
}

/// Adds `game` to the journal of `book` (creating the book's folder, taking the book's lock),
/// unless it waits there already.
pub fn keep(book: &Path, game: &[Move]) -> Result<(), BookError> {
    if let Some(dir) = book.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| BookError::Write {
            path: dir.display().to_string(),
            source,
        })?;
    }
    let lock = BookLock::acquire(book)?;
    let mut games = waiting(book)?;
    if games.iter().any(|g| g == game) {
        return Ok(());
    }
    games.push(game.to_vec());
    write(book, &games, &lock)
}

/// Rewrites the journal of `book` without its skipped lines (taking the book's lock).
pub fn tidy(book: &Path) -> Result<(), BookError> {
    let lock = BookLock::acquire(book)?;
    let games = waiting(book)?;
    write(book, &games, &lock)
}

/// True when `game` is in the journal of `book` (read under the book's lock).
pub fn is_waiting(book: &Path, game: &[Move], _lock: &BookLock) -> Result<bool, BookError> {
    Ok(waiting(book)?.iter().any(|g| g == game))
}

/// Removes `game` from the journal of `book`, once a book holding it is published (under the
/// book's lock).
pub fn learned(book: &Path, game: &[Move], lock: &BookLock) -> Result<(), BookError> {
    let mut games = waiting(book)?;
    if let Some(i) = games.iter().position(|g| g == game) {
        games.remove(i);
        write(book, &games, lock)?;
    }
    Ok(())
}

/// The right to learn the journal of a book while idle, held by one engine process at a time
/// (an advisory lock on `.NAME.learner` beside the book, taken without waiting; the file exists
/// only while held), so that the engines sharing a user's book do not all search the same
/// games.
pub struct Learner {
    file: File,
    path: PathBuf,
}

impl Learner {
    /// The right to learn for the book at `book`, or none while another process holds it.
    pub fn try_take(book: &Path) -> Result<Option<Learner>, BookError> {
        let path = beside(book, ".", ".learner");
        let error = |source| BookError::Lock {
            path: path.display().to_string(),
            source,
        };
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(error)?;
        match file.try_lock() {
            // The holder before removes the file before it unlocks: ours counts only when the
            // name still leads to it.
            Ok(()) if still_named(&file, &path) => Ok(Some(Learner { file, path })),
            Ok(()) | Err(TryLockError::WouldBlock) => Ok(None),
            Err(TryLockError::Error(e)) => Err(error(e)),
        }
    }
}

impl Drop for Learner {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Err(e) = std::fs::remove_file(&self.path) {
            tracing::debug!("cannot remove {}: {e}", self.path.display());
        }
        let _ = self.file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::parse_transcript;

    #[test]
    fn games_are_kept_in_order_and_leave_once_learned() {
        let dir = std::env::temp_dir().join(format!("wedge-pending-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let book = dir.join("learned.book");
        let a = parse_transcript("f5d6c3d3c4").unwrap();
        let b = parse_transcript("f5f6e6f4e3").unwrap();
        assert!(waiting(&book).unwrap().is_empty());
        keep(&book, &a).unwrap();
        keep(&book, &b).unwrap();
        keep(&book, &a).unwrap();
        assert_eq!(
            waiting(&book).unwrap(),
            [a.clone(), b.clone()],
            "a game waits once"
        );
        // Damaged and empty lines are skipped, counted, and dropped at the next write.
        let journal = journal_path(&book);
        let text = std::fs::read_to_string(&journal).unwrap();
        std::fs::write(&journal, format!("{text}f5f5\n\n")).unwrap();
        let read_back = read(&book).unwrap();
        assert_eq!((read_back.games.len(), read_back.skipped), (2, 2));
        tidy(&book).unwrap();
        assert_eq!(read(&book).unwrap().skipped, 0);
        let lock = BookLock::acquire(&book).unwrap();
        assert!(is_waiting(&book, &b, &lock).unwrap());
        learned(&book, &b, &lock).unwrap();
        assert!(!is_waiting(&book, &b, &lock).unwrap());
        assert_eq!(waiting(&book).unwrap(), std::slice::from_ref(&a));
        assert_eq!(std::fs::read_to_string(&journal).unwrap(), "f5d6c3d3c4\n");
        learned(&book, &a, &lock).unwrap();
        drop(lock);
        assert!(!journal.exists(), "an empty journal is removed");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        // The book's folder is made for the journal; one process at a time is the learner.
        let deeper = dir.join("new/learned.book");
        keep(&deeper, &a).unwrap();
        assert_eq!(waiting(&deeper).unwrap(), std::slice::from_ref(&a));
        let first = Learner::try_take(&deeper).unwrap();
        assert!(first.is_some());
        // Another open file description, as another process would hold.
        assert!(Learner::try_take(&deeper).unwrap().is_none());
        drop(first);
        assert!(Learner::try_take(&deeper).unwrap().is_some());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
