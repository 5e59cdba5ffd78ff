//! Games waiting to be learned into a user's book: a journal beside the book (`NAME.pending`,
//! one game a line as a transcript from the standard start). It is changed only under the
//! book's lock, and a game leaves it only once a book holding the game is published, so a game
//! is kept through interruptions and failures and learned once, whichever engine learns it.

use super::store::BookLock;
use super::BookError;
use crate::board::Move;
use crate::formats::{format_transcript, replay_transcript, PassPolicy, Position};
use std::path::{Path, PathBuf};

/// The journal of the book at `book`.
pub fn journal_path(book: &Path) -> PathBuf {
    let name = book
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "book".into());
    book.with_file_name(format!("{name}.pending"))
}

/// The games waiting for the book at `book`, oldest first (none when there is no journal). A
/// line that is not a legal game from the start is skipped with a warning naming it, and is
/// dropped the next time the journal is written.
pub fn waiting(book: &Path) -> Result<Vec<Vec<Move>>, BookError> {
    let path = journal_path(book);
    let text = match crate::paths::read_text(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(BookError::Read {
                path: path.display().to_string(),
                source,
            })
        }
    };
    let mut games = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        match replay_transcript(Position::START, line.trim(), PassPolicy::Infer) {
            Ok(game) => games.push(game.moves().to_vec()),
            Err(e) => tracing::warn!(
                "{} line {}: not a game from the start ({e}); skipped",
                path.display(),
                i + 1
            ),
        }
    }
    Ok(games)
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

/// Adds `game` to the journal of `book` (taking the book's lock).
pub fn keep(book: &Path, game: &[Move]) -> Result<(), BookError> {
    let lock = BookLock::acquire(book)?;
    let mut games = waiting(book)?;
    games.push(game.to_vec());
    write(book, &games, &lock)
}

/// True when `game` is in the journal of `book` (read under the book's lock).
pub fn is_waiting(book: &Path, game: &[Move], _lock: &BookLock) -> Result<bool, BookError> {
    Ok(waiting(book)?.iter().any(|g| g == game))
}

/// Removes one copy of `game` from the journal of `book`, once a book holding it is published
/// (under the book's lock).
pub fn learned(book: &Path, game: &[Move], lock: &BookLock) -> Result<(), BookError> {
    let mut games = waiting(book)?;
    if let Some(i) = games.iter().position(|g| g == game) {
        games.remove(i);
        write(book, &games, lock)?;
    }
    Ok(())
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
        assert_eq!(waiting(&book).unwrap(), [a.clone(), b.clone(), a.clone()]);
        // A damaged line is skipped, named in the log, and dropped at the next write.
        let journal = journal_path(&book);
        let text = std::fs::read_to_string(&journal).unwrap();
        std::fs::write(&journal, format!("{text}f5f5\n")).unwrap();
        assert_eq!(waiting(&book).unwrap().len(), 3);
        let lock = BookLock::acquire(&book).unwrap();
        assert!(is_waiting(&book, &b, &lock).unwrap());
        learned(&book, &a, &lock).unwrap();
        learned(&book, &b, &lock).unwrap();
        assert!(!is_waiting(&book, &b, &lock).unwrap());
        assert_eq!(waiting(&book).unwrap(), std::slice::from_ref(&a));
        assert_eq!(std::fs::read_to_string(&journal).unwrap(), "f5d6c3d3c4\n");
        learned(&book, &a, &lock).unwrap();
        drop(lock);
        assert!(!journal.exists(), "an empty journal is removed");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
