//! Taking turns at writing a book file: an advisory lock on a file beside the book, held by
//! one writer at a time (publishing, learning, the journal of games waiting), and the version
//! published there.

use super::file::{Book, BookError, Verify};
use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

/// The exclusive right to write one book file, held until dropped: an advisory lock on
/// `.NAME.lock` beside the book, a file that exists only while a writer holds it.
pub struct BookLock {
    file: File,
    path: PathBuf,
}

/// `PREFIX` + the book's file name + `SUFFIX`, beside the book at `book`.
pub(super) fn beside(book: &Path, prefix: &str, suffix: &str) -> PathBuf {
    let name = book
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "book".into());
    book.with_file_name(format!("{prefix}{name}{suffix}"))
}

/// The lock file of the book at `book`.
pub fn lock_path(book: &Path) -> PathBuf {
    beside(book, ".", ".lock")
}

impl BookLock {
    /// Waits until no other writer holds the lock of the book at `book`, then takes it.
    pub fn acquire(book: &Path) -> Result<BookLock, BookError> {
        let path = lock_path(book);
        let error = |source| BookError::Lock {
            path: path.display().to_string(),
            source,
        };
        let mut told = false;
        loop {
            // Something else than a file under that name (a FIFO would block the opening).
            match crate::paths::regular_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(error(e)),
                _ => {}
            }
            let file = OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
                .map_err(error)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    if !std::mem::replace(&mut told, true) {
                        tracing::info!(
                            "{}: another process is writing the book; waiting for its lock",
                            book.display()
                        );
                    }
                    file.lock().map_err(error)?;
                }
                Err(TryLockError::Error(e)) => return Err(error(e)),
            }
            // The holder before us removes the file before it unlocks: the lock counts only
            // when the name still leads to the file we locked.
            if still_named(&file, &path) {
                return Ok(BookLock { file, path });
            }
        }
    }
}

/// True when `path` names the open `file`.
pub(super) fn still_named(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

impl Drop for BookLock {
    fn drop(&mut self) {
        // Removed while still locked, so no writer can take a lock on a name about to go.
        #[cfg(unix)]
        if let Err(e) = std::fs::remove_file(&self.path) {
            tracing::debug!("cannot remove {}: {e}", self.path.display());
        }
        let _ = self.file.unlock();
    }
}

/// The version of the book published at `path` ([`Book::version`]), `None` when there is no
/// file.
pub fn published_version(path: &Path) -> Result<Option<u64>, BookError> {
    if !path.exists() {
        return Ok(None);
    }
    Ok(Some(Book::open(path, Verify::HeaderOnly)?.version()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writers_take_turns_and_leave_no_lock_file() {
        let dir = std::env::temp_dir().join(format!("wedge-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let book = dir.join("b.book");
        let first = BookLock::acquire(&book).unwrap();
        // Another writer (another open file, as in another process) cannot lock it now.
        let other = File::open(lock_path(&book)).unwrap();
        assert!(matches!(other.try_lock(), Err(TryLockError::WouldBlock)));
        drop(first);
        assert!(
            !lock_path(&book).exists(),
            "the lock file goes with the lock"
        );
        // A writer that waited on the removed file finds that its lock no longer counts.
        assert!(other.try_lock().is_ok());
        assert!(!still_named(&other, &lock_path(&book)));
        let second = BookLock::acquire(&book).unwrap();
        assert!(still_named(&second.file, &lock_path(&book)));
        drop(second);
        drop(other);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
