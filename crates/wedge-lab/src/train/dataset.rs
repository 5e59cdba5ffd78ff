//! Labelled training positions, and what can be wrong with the trainer's cache files (the
//! label cache, `label_cache`, and the fit's checkpoint).

use std::path::Path;
use wedge_core::board::Board;
use wedge_core::framing::verify_trailer;
use wedge_core::paths::write_atomic;

/// How a label was obtained.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LabelKind {
    /// An exact solve of this position by our endgame solver.
    Exact,
    /// The record's theoretical score (perfect play from the game's position at the record's
    /// theoretical depth), exact when the position is that one.
    Theoretical,
    /// The game's final result.
    FinalResult,
    /// A self-play position: a mix of its search value and its game's final result.
    SelfPlay,
    /// A self-play position near the end, valued by an exact solve in the game.
    SelfPlayExact,
}

/// A position with its label (disc difference for the side to move).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LabelledPosition {
    pub board: Board,
    pub label: i8,
    pub kind: LabelKind,
    pub year: u16,
    /// Which game it came from (a stable number within its source), for splits by game.
    pub game: u32,
}

/// What is wrong with a training cache's bytes (a label cache or a checkpoint).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CacheProblem {
    #[error("not a {0} (bad magic or too short)")]
    NotACache(&'static str),
    #[error("label cache version {0} (this build reads version 2)")]
    LabelVersion(u32),
    #[error("checkpoint version {0}")]
    CheckpointVersion(u32),
    #[error("{len} bytes, header implies {expected}")]
    Length { len: usize, expected: u64 },
    #[error("checksum mismatch")]
    Checksum,
    #[error("solved at <= {cached} empties, asked for {asked}")]
    SolveEmpties { cached: u32, asked: u32 },
    #[error("made for other games (the game count or the solved positions differ)")]
    OtherGames,
    #[error("the games' score counts do not add up to the scores")]
    Counts,
    #[error("a score outside -64..=64")]
    Score,
}

/// A training cache that could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {problem}", path.display())]
    Bad {
        path: std::path::PathBuf,
        problem: CacheProblem,
    },
}

/// Checks that a cache file has the length its header implies and that its last 8 bytes are
/// the FNV-1a 64 checksum of everything before them.
/// Returns what the checksum covers.
pub(crate) fn check_size_and_checksum(bytes: &[u8], expected: u64) -> Result<&[u8], CacheProblem> {
    if expected != bytes.len() as u64 || bytes.len() < 8 {
        return Err(CacheProblem::Length {
            len: bytes.len(),
            expected,
        });
    }
    verify_trailer(bytes).map_err(|_| CacheProblem::Checksum)
}

/// Writes a cache file atomically.
pub(crate) fn write_cache(path: &Path, bytes: &[u8]) -> Result<(), CacheError> {
    write_atomic(path, bytes).map_err(|source| CacheError::Write {
        path: path.to_path_buf(),
        source,
    })
}
