//! Game record files on disk: listing a WTHOR directory and reading a file's bytes, with one
//! error type naming the file for every tool that reads games.

use super::{read_wthor_games, WthorError, WthorGames};
use std::path::{Path, PathBuf};

/// A game file or directory that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum GameFileError {
    #[error("cannot list {}: {source}", path.display())]
    List {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", path.display())]
    Wthor { path: PathBuf, source: WthorError },
}

/// The WTHOR game files (`WTH_yyyy.wtb`, any case) of a directory with their years, sorted
/// by name.
pub fn wthor_files(dir: &Path) -> Result<Vec<(PathBuf, u16)>, GameFileError> {
    let list = |source| GameFileError::List {
        path: dir.to_path_buf(),
        source,
    };
    crate::paths::directory(dir).map_err(list)?;
    let entries = std::fs::read_dir(dir).map_err(list)?;
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_ascii_uppercase();
        let year = name
            .strip_prefix("WTH_")
            .and_then(|r| r.strip_suffix(".WTB"))
            .and_then(|y| y.parse::<u16>().ok());
        if let Some(year) = year {
            out.push((entry.path(), year));
        }
    }
    out.sort();
    Ok(out)
}

/// The bytes of `path`.
pub fn read_file(path: &Path) -> Result<Vec<u8>, GameFileError> {
    crate::paths::read_file(path).map_err(|source| GameFileError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// The text of `path`.
pub fn read_text(path: &Path) -> Result<String, GameFileError> {
    crate::paths::read_text(path).map_err(|source| GameFileError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// Parses the WTHOR file `path` whose bytes are `bytes`.
pub fn parse_wthor<'a>(path: &Path, bytes: &'a [u8]) -> Result<WthorGames<'a>, GameFileError> {
    read_wthor_games(bytes).map_err(|source| GameFileError::Wthor {
        path: path.to_path_buf(),
        source,
    })
}
