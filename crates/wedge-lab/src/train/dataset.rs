//! Labelled training positions and their on-disk cache: a little-endian binary file (magic,
//! version, count, fixed-size records, FNV-1a checksum), written atomically, so re-runs reuse
//! the labels instead of solving again.

use std::path::Path;
use wedge_core::board::Board;
use wedge_core::framing::{verify_trailer, Reader, Truncated, Writer};
use wedge_core::paths::write_atomic;

/// How a label was obtained.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum LabelKind {
    /// An exact solve of this position by our endgame solver.
    Exact = 0,
    /// The record's theoretical score (perfect play from the game's position at the record's
    /// theoretical depth), exact when the position is that one.
    Theoretical = 1,
    /// The game's final result.
    FinalResult = 2,
    /// A self-play position: a mix of its search value and its game's final result.
    SelfPlay = 3,
    /// A self-play position near the end, valued by an exact solve in the game.
    SelfPlayExact = 4,
}

impl LabelKind {
    pub fn from_u8(v: u8) -> Option<LabelKind> {
        match v {
            0 => Some(LabelKind::Exact),
            1 => Some(LabelKind::Theoretical),
            2 => Some(LabelKind::FinalResult),
            3 => Some(LabelKind::SelfPlay),
            4 => Some(LabelKind::SelfPlayExact),
            _ => None,
        }
    }
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
    #[error("label cache version {0} (expected {VERSION})")]
    LabelVersion(u32),
    #[error("checkpoint version {0}")]
    CheckpointVersion(u32),
    #[error("{len} bytes, header implies {expected}")]
    Length { len: usize, expected: u64 },
    #[error("checksum mismatch")]
    Checksum,
    #[error("bad label kind")]
    LabelKind,
    #[error("overlapping discs in a record")]
    Overlap,
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

const MAGIC: [u8; 8] = *b"WEDGELBL";
const VERSION: u32 = 1;
const RECORD: usize = 24;

/// Serialises samples.
pub fn samples_to_bytes(samples: &[LabelledPosition]) -> Vec<u8> {
    let mut out = Writer::new(&MAGIC, VERSION, 20 + RECORD * samples.len() + 8);
    out.u64(samples.len() as u64);
    for s in samples {
        out.u64(s.board.player);
        out.u64(s.board.opponent);
        out.u8(s.label as u8);
        out.u8(s.kind as u8);
        out.u16(s.year);
        out.u32(s.game);
    }
    out.finish()
}

/// Parses and validates serialised samples.
pub fn samples_from_bytes(bytes: &[u8]) -> Result<Vec<LabelledPosition>, CacheProblem> {
    let mut r = Reader::new(bytes);
    let header = (r.array::<8>(), r.u32(), r.u64());
    let not_a_cache = CacheProblem::NotACache("label cache file");
    let (Ok(magic), Ok(version), Ok(n)) = header else {
        return Err(not_a_cache);
    };
    if bytes.len() < 28 || magic != MAGIC {
        return Err(not_a_cache);
    }
    if version != VERSION {
        return Err(CacheProblem::LabelVersion(version));
    }
    let expected = 20u64
        .saturating_add(n.saturating_mul(RECORD as u64))
        .saturating_add(8);
    let body = check_size_and_checksum(bytes, expected)?;
    let mut out = Vec::with_capacity(n as usize);
    for rec in body[20..].chunks_exact(RECORD) {
        // Records are whole: the length was checked against the count.
        let (player, opponent, label, kind, year, game) =
            read_record(rec).map_err(|_| CacheProblem::Length {
                len: bytes.len(),
                expected,
            })?;
        let kind = LabelKind::from_u8(kind).ok_or(CacheProblem::LabelKind)?;
        if player & opponent != 0 {
            return Err(CacheProblem::Overlap);
        }
        out.push(LabelledPosition {
            board: Board::new(player, opponent),
            label: label as i8,
            kind,
            year,
            game,
        });
    }
    Ok(out)
}

/// The fields of one record: discs, label, label kind, year, game.
fn read_record(rec: &[u8]) -> Result<(u64, u64, u8, u8, u16, u32), Truncated> {
    let mut r = Reader::new(rec);
    Ok((r.u64()?, r.u64()?, r.u8()?, r.u8()?, r.u16()?, r.u32()?))
}

/// Writes a cache file atomically.
pub fn save_samples(path: &Path, samples: &[LabelledPosition]) -> Result<(), CacheError> {
    write_atomic(path, &samples_to_bytes(samples)).map_err(|source| CacheError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// Reads a cache file.
pub fn load_samples(path: &Path) -> Result<Vec<LabelledPosition>, CacheError> {
    let bytes = wedge_core::paths::read_file(path).map_err(|source| CacheError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    samples_from_bytes(&bytes).map_err(|problem| CacheError::Bad {
        path: path.to_path_buf(),
        problem,
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_round_trip_and_corruption_is_refused() {
        let s = vec![
            LabelledPosition {
                board: Board::START,
                label: -12,
                kind: LabelKind::Exact,
                year: 1999,
                game: 7,
            },
            LabelledPosition {
                board: Board::START.pass(),
                label: 64,
                kind: LabelKind::FinalResult,
                year: 0,
                game: u32::MAX,
            },
        ];
        let bytes = samples_to_bytes(&s);
        assert_eq!(samples_from_bytes(&bytes).unwrap(), s);
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x10;
            assert!(samples_from_bytes(&b).is_err());
            assert!(samples_from_bytes(&bytes[..i]).is_err());
        }
    }
}
