//! Reading a self-play directory for training: its batch files in index order, and every
//! searched position of every game as a [`SearchedPosition`] (board, search value and final result for
//! the side to move), one file in memory at a time.

use super::error::SelfplayError;
use super::record::{Batch, RecordError, SearchedPosition};
use super::unit::index_of_file_name;
use std::path::{Path, PathBuf};

/// The batch files of `dir` (`batch-<index>.wsp`), by index.
pub fn batch_files(dir: &Path) -> Result<Vec<PathBuf>, SelfplayError> {
    let io = |source| SelfplayError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut files = Vec::new();
    wedge_core::paths::directory(dir).map_err(io)?;
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        if let Some(index) = index_of_file_name(&entry.file_name().to_string_lossy()) {
            files.push((index, entry.path()));
        }
    }
    files.sort();
    Ok(files.into_iter().map(|(_, path)| path).collect())
}

/// The samples of a directory's batch files, file by file: an `Err` for a file that does not
/// read (the iteration goes on with the next file).
pub struct Samples {
    files: std::vec::IntoIter<PathBuf>,
    buffer: std::vec::IntoIter<SearchedPosition>,
}

impl Iterator for Samples {
    type Item = Result<SearchedPosition, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(s) = self.buffer.next() {
                return Some(Ok(s));
            }
            let path = self.files.next()?;
            match Batch::read(&path) {
                Ok(batch) => self.buffer = batch.samples().collect::<Vec<_>>().into_iter(),
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

/// Every sample of the batch files in `dir`, in file then game then ply order.
pub fn samples(dir: &Path) -> Result<Samples, SelfplayError> {
    Ok(Samples {
        files: batch_files(dir)?.into_iter(),
        buffer: Vec::new().into_iter(),
    })
}
