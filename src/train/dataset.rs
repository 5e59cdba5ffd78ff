//! Labelled training positions and their on-disk cache: a little-endian binary file (magic,
//! version, count, fixed-size records, FNV-1a checksum), written atomically, so re-runs reuse
//! the labels instead of solving again.

use crate::board::Board;
use crate::eval::weights::{fnv1a64, write_atomic};
use std::path::Path;

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
}

impl LabelKind {
    pub fn from_u8(v: u8) -> Option<LabelKind> {
        match v {
            0 => Some(LabelKind::Exact),
            1 => Some(LabelKind::Theoretical),
            2 => Some(LabelKind::FinalResult),
            3 => Some(LabelKind::SelfPlay),
            _ => None,
        }
    }
}

/// A position with its label (disc difference for the side to move).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Sample {
    pub board: Board,
    pub label: i8,
    pub kind: LabelKind,
    pub year: u16,
    /// Which game it came from (a stable number within its source), for splits by game.
    pub game: u32,
}

const MAGIC: [u8; 8] = *b"WEDGELBL";
const VERSION: u32 = 1;
const RECORD: usize = 24;

/// Serialises samples.
pub fn samples_to_bytes(samples: &[Sample]) -> Vec<u8> {
    let mut out = Vec::with_capacity(20 + RECORD * samples.len() + 8);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(samples.len() as u64).to_le_bytes());
    for s in samples {
        out.extend_from_slice(&s.board.player.to_le_bytes());
        out.extend_from_slice(&s.board.opponent.to_le_bytes());
        out.push(s.label as u8);
        out.push(s.kind as u8);
        out.extend_from_slice(&s.year.to_le_bytes());
        out.extend_from_slice(&s.game.to_le_bytes());
    }
    let sum = fnv1a64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Parses and validates serialised samples.
pub fn samples_from_bytes(bytes: &[u8]) -> Result<Vec<Sample>, String> {
    if bytes.len() < 28 || bytes[..8] != MAGIC {
        return Err("not a label cache file (bad magic or too short)".into());
    }
    let u32_at =
        |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let u64_at = |i: usize| {
        let mut a = [0u8; 8];
        a.copy_from_slice(&bytes[i..i + 8]);
        u64::from_le_bytes(a)
    };
    if u32_at(8) != VERSION {
        return Err(format!(
            "label cache version {} (expected {VERSION})",
            u32_at(8)
        ));
    }
    let n = u64_at(12);
    let expected = 20u64
        .saturating_add(n.saturating_mul(RECORD as u64))
        .saturating_add(8);
    check_size_and_checksum(bytes, expected)?;
    let end = bytes.len() - 8;
    let mut out = Vec::with_capacity(n as usize);
    for r in bytes[20..end].chunks_exact(RECORD) {
        let mut a = [0u8; 8];
        a.copy_from_slice(&r[0..8]);
        let player = u64::from_le_bytes(a);
        a.copy_from_slice(&r[8..16]);
        let opponent = u64::from_le_bytes(a);
        let kind = LabelKind::from_u8(r[17]).ok_or("bad label kind")?;
        if player & opponent != 0 {
            return Err("overlapping discs in a record".into());
        }
        out.push(Sample {
            board: Board::new(player, opponent),
            label: r[16] as i8,
            kind,
            year: u16::from_le_bytes([r[18], r[19]]),
            game: u32::from_le_bytes([r[20], r[21], r[22], r[23]]),
        });
    }
    Ok(out)
}

/// Writes a cache file atomically.
pub fn save_samples(path: &Path, samples: &[Sample]) -> Result<(), String> {
    write_atomic(path, &samples_to_bytes(samples))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Reads a cache file.
pub fn load_samples(path: &Path) -> Result<Vec<Sample>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    samples_from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Checks that a cache file has the length its header implies and that its last 8 bytes are
/// the FNV-1a 64 checksum of everything before them.
pub(crate) fn check_size_and_checksum(bytes: &[u8], expected: u64) -> Result<(), String> {
    if expected != bytes.len() as u64 || bytes.len() < 8 {
        return Err(format!("{} bytes, header implies {expected}", bytes.len()));
    }
    let end = bytes.len() - 8;
    let stored = bytes[end..].try_into().map(u64::from_le_bytes).unwrap_or(0);
    if stored != fnv1a64(&bytes[..end]) {
        return Err("checksum mismatch".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_round_trip_and_corruption_is_refused() {
        let s = vec![
            Sample {
                board: Board::START,
                label: -12,
                kind: LabelKind::Exact,
                year: 1999,
                game: 7,
            },
            Sample {
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
