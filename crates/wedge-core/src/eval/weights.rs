//! The weights file (`weights/*.wts`): format, atomic writer, validating loader.
//!
//! Layout, all integers little-endian:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `WEDGEWTS` |
//! | 8 | 4 | format version (u32, [`FORMAT_VERSION`]) |
//! | 12 | 4 | scale: weight units per disc (u32, 1..=4096) |
//! | 16 | 4 | number of phases (u32, 1..=61) |
//! | 20 | 4 | number of tables (u32, 1..=64) |
//! | 24 | 8 | creation time, seconds since the Unix epoch (u64) |
//! | 32 | 4 | description length in bytes (u32, at most 4096) |
//! | 36 | len | description, UTF-8 |
//! | … | 8 per table | table kind (u8: 0 pattern, 1 scalar), squares (u8; 0 for scalars), 2 zero bytes, stored entries (u32) |
//! | … | 2 per weight | i16 weights: for each phase, for each table, its entries (symmetric duplicates folded) |
//! | end − 8 | 8 | checksum: FNV-1a 64 of every preceding byte (u64) |
//!
//! The loader checks magic, version, header fields, the exact file length implied by the
//! header, and the checksum before returning anything; every failure is a [`WeightsError`]
//! naming the file and what is wrong. Whether the tables match the compiled pattern set is
//! checked by the evaluation that uses them ([`crate::eval::pattern_eval::PatternEval`]).

use super::patterns::TableKind;
use std::path::{Path, PathBuf};

/// The 8 bytes every weights file starts with.
const MAGIC: [u8; 8] = *b"WEDGEWTS";
/// The format version this build reads and writes.
const FORMAT_VERSION: u32 = 1;
/// Largest accepted file.
const MAX_FILE_BYTES: u64 = 50 * 1000 * 1000;
/// Longest accepted description.
const MAX_DESCRIPTION: usize = 4096;
/// Most tables in a file.
const MAX_TABLES: usize = 64;
/// Most entries in one table (3^10).
const MAX_TABLE_ENTRIES: u32 = 59_049;
/// Most phases (one per ply, 0..=60).
const MAX_PHASES: u32 = 61;
/// Fixed part of the header before the description.
const FIXED_HEADER: usize = 36;

/// One table as described in the file header.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TableHeader {
    pub kind: TableKind,
    pub squares: u8,
    pub entries: u32,
}

/// A weights file in memory.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Weights {
    pub description: String,
    /// Seconds since the Unix epoch.
    pub created: u64,
    /// Weight units per disc.
    pub scale: u32,
    pub n_phases: usize,
    pub tables: Vec<TableHeader>,
    /// `n_phases * sum(entries)` weights, phase-major, then table, then entry.
    pub data: Vec<i16>,
}

/// What is wrong with a weights file.
#[derive(Debug, thiserror::Error)]
pub enum WeightsErrorKind {
    #[error("cannot read or write it: {0}")]
    Io(#[from] std::io::Error),
    #[error("too short for a weights header ({len} bytes, need at least {need})")]
    TooShort { len: usize, need: usize },
    #[error("wrong magic {found:02x?} (expected \"WEDGEWTS\"): not a Wedge weights file")]
    BadMagic { found: [u8; 8] },
    #[error("unsupported format version {found} (this build reads version {expected})")]
    UnsupportedVersion { found: u32, expected: u32 },
    #[error("bad header field {field}: {value} ({why})")]
    BadField {
        field: &'static str,
        value: u64,
        why: &'static str,
    },
    #[error("description is not valid UTF-8")]
    BadDescription,
    #[error("file is {actual} bytes but its header implies {expected} (truncated or padded)")]
    WrongLength { expected: u64, actual: u64 },
    #[error("checksum mismatch: stored {stored:#018x}, computed {computed:#018x} (corrupted)")]
    ChecksumMismatch { stored: u64, computed: u64 },
    #[error("tables do not match this build's pattern set: {0}")]
    LayoutMismatch(String),
    #[error("would be {bytes} bytes, over the {MAX_FILE_BYTES}-byte limit")]
    TooLarge { bytes: u64 },
    #[error("inconsistent weights: {0}")]
    Inconsistent(String),
}

/// A weights file that could not be loaded or written: the file and what is wrong.
#[derive(Debug, thiserror::Error)]
#[error("weights file {}: {kind}", path.display())]
pub struct WeightsError {
    pub path: PathBuf,
    pub kind: WeightsErrorKind,
}

impl WeightsError {
    pub fn new(path: &Path, kind: WeightsErrorKind) -> WeightsError {
        WeightsError {
            path: path.to_path_buf(),
            kind,
        }
    }
}

use crate::framing::{verify_trailer, Reader, Truncated, Writer};
use crate::paths::write_atomic;

impl From<Truncated> for WeightsErrorKind {
    fn from(t: Truncated) -> WeightsErrorKind {
        WeightsErrorKind::TooShort {
            len: t.len,
            need: t.need,
        }
    }
}

fn check(
    field: &'static str,
    value: u64,
    ok: bool,
    why: &'static str,
) -> Result<(), WeightsErrorKind> {
    if ok {
        Ok(())
    } else {
        Err(WeightsErrorKind::BadField { field, value, why })
    }
}

impl Weights {
    /// Weights per phase (the sum of the tables' stored entries).
    pub fn per_phase(&self) -> usize {
        self.tables.iter().map(|t| t.entries as usize).sum()
    }

    /// The serialised file.
    pub fn to_bytes(&self) -> Result<Vec<u8>, WeightsErrorKind> {
        let desc = self.description.as_bytes();
        if desc.len() > MAX_DESCRIPTION {
            return Err(WeightsErrorKind::Inconsistent(format!(
                "description is {} bytes (at most {MAX_DESCRIPTION})",
                desc.len()
            )));
        }
        if self.data.len() != self.n_phases * self.per_phase() {
            return Err(WeightsErrorKind::Inconsistent(format!(
                "{} weights for {} phases of {}",
                self.data.len(),
                self.n_phases,
                self.per_phase()
            )));
        }
        let total = FIXED_HEADER + desc.len() + 8 * self.tables.len() + 2 * self.data.len() + 8;
        if total as u64 > MAX_FILE_BYTES {
            return Err(WeightsErrorKind::TooLarge {
                bytes: total as u64,
            });
        }
        let mut out = Writer::new(&MAGIC, FORMAT_VERSION, total);
        out.u32(self.scale);
        out.u32(self.n_phases as u32);
        out.u32(self.tables.len() as u32);
        out.u64(self.created);
        out.u32(desc.len() as u32);
        out.bytes(desc);
        for t in &self.tables {
            out.u8(match t.kind {
                TableKind::Pattern => 0,
                TableKind::Scalar => 1,
            });
            out.u8(t.squares);
            out.u16(0);
            out.u32(t.entries);
        }
        for &w in &self.data {
            out.i16(w);
        }
        let out = out.finish();
        Ok(out)
    }

    /// Parses and validates a whole file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsErrorKind> {
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(WeightsErrorKind::TooLarge {
                bytes: bytes.len() as u64,
            });
        }
        let mut r = Reader::new(bytes);
        let magic = r.array::<8>().map_err(|_| WeightsErrorKind::TooShort {
            len: bytes.len(),
            need: FIXED_HEADER + 8,
        })?;
        if magic != MAGIC {
            return Err(WeightsErrorKind::BadMagic { found: magic });
        }
        let version = r.u32()?;
        if version != FORMAT_VERSION {
            return Err(WeightsErrorKind::UnsupportedVersion {
                found: version,
                expected: FORMAT_VERSION,
            });
        }
        let scale = r.u32()?;
        check(
            "scale",
            scale.into(),
            (1..=4096).contains(&scale),
            "must be 1..=4096",
        )?;
        let n_phases = r.u32()?;
        check(
            "phases",
            n_phases.into(),
            (1..=MAX_PHASES).contains(&n_phases),
            "must be 1..=61",
        )?;
        let n_tables = r.u32()?;
        check(
            "tables",
            n_tables.into(),
            (1..=MAX_TABLES as u32).contains(&n_tables),
            "must be 1..=64",
        )?;
        let created = r.u64()?;
        let desc_len = r.u32()?;
        check(
            "description length",
            desc_len.into(),
            desc_len as usize <= MAX_DESCRIPTION,
            "at most 4096",
        )?;
        let desc = r.take(desc_len as usize)?;
        let mut tables = Vec::with_capacity(n_tables as usize);
        for _ in 0..n_tables {
            let kind = match r.u8()? {
                0 => TableKind::Pattern,
                1 => TableKind::Scalar,
                k => {
                    return Err(WeightsErrorKind::BadField {
                        field: "table kind",
                        value: k.into(),
                        why: "must be 0 (pattern) or 1 (scalar)",
                    })
                }
            };
            let squares = r.u8()?;
            check("table squares", squares.into(), squares <= 10, "at most 10")?;
            let pad = r.u16()?;
            check("table padding", pad.into(), pad == 0, "must be 0")?;
            let entries = r.u32()?;
            check(
                "table entries",
                entries.into(),
                (1..=MAX_TABLE_ENTRIES).contains(&entries),
                "must be 1..=59049",
            )?;
            tables.push(TableHeader {
                kind,
                squares,
                entries,
            });
        }
        let per_phase: u64 = tables.iter().map(|t| u64::from(t.entries)).sum();
        let n_weights = per_phase * u64::from(n_phases);
        let expected = r.pos() as u64 + 2 * n_weights + 8;
        if expected != bytes.len() as u64 {
            return Err(WeightsErrorKind::WrongLength {
                expected,
                actual: bytes.len() as u64,
            });
        }
        let body = verify_trailer(bytes).map_err(|m| WeightsErrorKind::ChecksumMismatch {
            stored: m.stored,
            computed: m.computed,
        })?;
        let description = std::str::from_utf8(desc)
            .map_err(|_| WeightsErrorKind::BadDescription)?
            .to_string();
        let data = body[r.pos()..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        Ok(Weights {
            description,
            created,
            scale,
            n_phases: n_phases as usize,
            tables,
            data,
        })
    }

    /// Loads and validates a weights file.
    pub fn load(path: &Path) -> Result<Weights, WeightsError> {
        let wrap = |kind| WeightsError::new(path, kind);
        let meta = crate::paths::regular_file(path).map_err(|e| wrap(e.into()))?;
        if meta.len() > MAX_FILE_BYTES {
            return Err(wrap(WeightsErrorKind::TooLarge { bytes: meta.len() }));
        }
        let bytes = std::fs::read(path).map_err(|e| wrap(e.into()))?;
        Weights::from_bytes(&bytes).map_err(wrap)
    }

    /// Writes the file atomically: a temporary file in the same directory, written and synced,
    /// then renamed over `path`.
    pub fn save(&self, path: &Path) -> Result<(), WeightsError> {
        let wrap = |kind| WeightsError::new(path, kind);
        let bytes = self.to_bytes().map_err(wrap)?;
        write_atomic(path, &bytes).map_err(|e| wrap(e.into()))
    }
}

/// The default weights file, `weights/default.wts`, where shipped data lives (see
/// [`crate::paths::find_data_file`]).
pub fn default_weights_path() -> Option<PathBuf> {
    crate::paths::find_data_file("weights", "default.wts")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn sample() -> Weights {
        let tables = vec![
            TableHeader {
                kind: TableKind::Pattern,
                squares: 4,
                entries: 45,
            },
            TableHeader {
                kind: TableKind::Scalar,
                squares: 0,
                entries: 7,
            },
        ];
        let mut rng = Rng::new(5);
        let data = (0..3 * 52).map(|_| rng.next_u64() as i16).collect();
        Weights {
            description: "test weights: é".into(),
            created: 1_700_000_000,
            scale: 64,
            n_phases: 3,
            tables,
            data,
        }
    }

    #[test]
    fn round_trip_is_bit_exact() {
        let w = sample();
        let bytes = w.to_bytes().unwrap();
        let back = Weights::from_bytes(&bytes).unwrap();
        assert_eq!(back, w);
        assert_eq!(back.to_bytes().unwrap(), bytes);
    }

    #[test]
    fn save_and_load_through_a_file() {
        let dir = std::env::temp_dir().join(format!("wedge-wts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.wts");
        let w = sample();
        w.save(&path).unwrap();
        assert_eq!(Weights::load(&path).unwrap(), w);
        // No temporary file is left behind.
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1);
        let missing = Weights::load(&dir.join("nope.wts")).unwrap_err();
        assert!(missing.to_string().contains("nope.wts"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn every_truncation_is_refused() {
        let bytes = sample().to_bytes().unwrap();
        for len in 0..bytes.len() {
            assert!(Weights::from_bytes(&bytes[..len]).is_err(), "length {len}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(
            Weights::from_bytes(&longer),
            Err(WeightsErrorKind::WrongLength { .. })
        ));
    }

    #[test]
    fn every_flipped_byte_is_refused() {
        let bytes = sample().to_bytes().unwrap();
        for i in 0..bytes.len() {
            for flip in [0x01u8, 0x80, 0xFF] {
                let mut b = bytes.clone();
                b[i] ^= flip;
                assert!(Weights::from_bytes(&b).is_err(), "byte {i} ^ {flip:#x}");
            }
        }
    }

    #[test]
    fn wrong_magic_and_version_are_named() {
        let bytes = sample().to_bytes().unwrap();
        let mut b = bytes.clone();
        b[0] = b'X';
        let e = Weights::from_bytes(&b).unwrap_err();
        assert!(matches!(e, WeightsErrorKind::BadMagic { .. }));
        assert!(e.to_string().contains("magic"));
        let mut b = bytes.clone();
        b[8..12].copy_from_slice(&2u32.to_le_bytes());
        let e = Weights::from_bytes(&b).unwrap_err();
        assert!(matches!(
            e,
            WeightsErrorKind::UnsupportedVersion { found: 2, .. }
        ));
        assert!(e.to_string().contains("version 2"));
        let mut b = bytes;
        let n = b.len();
        b[n - 20] ^= 4;
        assert!(matches!(
            Weights::from_bytes(&b),
            Err(WeightsErrorKind::ChecksumMismatch { .. })
        ));
    }
}
