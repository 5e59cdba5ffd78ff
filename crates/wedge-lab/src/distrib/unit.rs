//! The work unit message: one self-play batch (run seed, batch index, game count), the settings
//! it is played with and the checksums of the weights, the ProbCut model and the WTHOR lines its
//! games may start from, in a small versioned,
//! checksummed binary message. The batch is a pure function of these, so a unit can be played
//! by any worker, any number of times, with the same bytes as the result.

use crate::train::selfplay::{BatchId, Settings};
use wedge_core::framing::{fnv1a64, verify_trailer, Reader, Writer};

/// The message's first bytes.
pub const MAGIC: [u8; 8] = *b"WEDGEWU1";
/// The message format; a worker refuses other versions. (2: the WTHOR lines' checksum.)
pub const VERSION: u32 = 2;
/// The kind byte of a self-play unit (book, solve and match units will get others).
const KIND_SELFPLAY: u8 = 1;
/// Bytes of an encoded self-play unit: magic, version, kind, seed, index, games, three
/// checksums, the settings (5 bytes, u16, u32), trailer.
pub const LEN: usize = 8 + 4 + 1 + 8 + 8 + 4 + 8 + 8 + 8 + 5 + 2 + 4 + 8;

/// One self-play batch to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelfplayUnit {
    pub id: BatchId,
    /// Games of the batch (the last batch of a run may be smaller).
    pub games: u32,
    pub settings: Settings,
    /// The weights file's checksum (`Model::weights_checksum`).
    pub weights_checksum: u64,
    /// The ProbCut model's checksum (`Model::probcut_checksum`).
    pub probcut_checksum: u64,
    /// The checksum of the WTHOR lines games may leave (`WthorLines::checksum`); 0 for none.
    pub wthor_checksum: u64,
}

/// Why a message is not a unit we can play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UnitError {
    #[error("{len} bytes, a self-play unit has {LEN}")]
    Length { len: usize },
    #[error("not a Wedge work unit (magic {found:02x?})")]
    BadMagic { found: Vec<u8> },
    #[error("unit format version {found}, this worker reads {VERSION} (update the worker)")]
    Version { found: u32 },
    #[error("checksum mismatch: stored {stored:#018x}, computed {computed:#018x} (corrupted)")]
    Checksum { stored: u64, computed: u64 },
    #[error("unit kind {0} (this worker plays self-play units, kind {KIND_SELFPLAY})")]
    Kind(u8),
    #[error("bad settings: {0}")]
    Settings(String),
    #[error("a batch of 0 games")]
    NoGames,
}

impl SelfplayUnit {
    /// The message's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let s = &self.settings;
        let mut w = Writer::new(&MAGIC, VERSION, LEN);
        w.u8(KIND_SELFPLAY);
        w.u64(self.id.run_seed);
        w.u64(self.id.index);
        w.u32(self.games);
        w.u64(self.weights_checksum);
        w.u64(self.probcut_checksum);
        w.u64(self.wthor_checksum);
        for b in s.byte_fields() {
            w.u8(b);
        }
        w.u16(s.wthor_per_mille.min(u32::from(u16::MAX)) as u16);
        w.u32(s.game_hash_mb);
        w.finish()
    }

    /// Parses and validates a message (length, magic, version, checksum, kind, settings).
    pub fn from_bytes(bytes: &[u8]) -> Result<SelfplayUnit, UnitError> {
        if bytes.len() >= 8 && bytes[..8] != MAGIC {
            return Err(UnitError::BadMagic {
                found: bytes[..8].to_vec(),
            });
        }
        if bytes.len() != LEN {
            return Err(UnitError::Length { len: bytes.len() });
        }
        let body = verify_trailer(bytes).map_err(|m| UnitError::Checksum {
            stored: m.stored,
            computed: m.computed,
        })?;
        // The length is exact, so no read below runs past the end.
        let truncated = |_| UnitError::Length { len: bytes.len() };
        let mut r = Reader::new(body);
        r.take(8).map_err(truncated)?;
        let version = r.u32().map_err(truncated)?;
        if version != VERSION {
            return Err(UnitError::Version { found: version });
        }
        let kind = r.u8().map_err(truncated)?;
        if kind != KIND_SELFPLAY {
            return Err(UnitError::Kind(kind));
        }
        let id = BatchId {
            run_seed: r.u64().map_err(truncated)?,
            index: r.u64().map_err(truncated)?,
        };
        let games = r.u32().map_err(truncated)?;
        let weights_checksum = r.u64().map_err(truncated)?;
        let probcut_checksum = r.u64().map_err(truncated)?;
        let wthor_checksum = r.u64().map_err(truncated)?;
        let bytes = r.array().map_err(truncated)?;
        let settings = Settings::from_fields(
            bytes,
            r.u16().map_err(truncated)?,
            r.u32().map_err(truncated)?,
        );
        if let Some(problem) = settings.problem() {
            return Err(UnitError::Settings(problem));
        }
        if games == 0 {
            return Err(UnitError::NoGames);
        }
        Ok(SelfplayUnit {
            id,
            games,
            settings,
            weights_checksum,
            probcut_checksum,
            wthor_checksum,
        })
    }

    /// The unit's identity: a checksum of its bytes, so the same batch of the same run with
    /// the same evaluation and settings always has the same key, and any difference another.
    pub fn key(&self) -> String {
        format!("{:016x}", fnv1a64(&self.to_bytes()))
    }

    /// The unit in log lines and errors.
    pub fn describe(&self) -> String {
        format!("batch {} of run {}", self.id.index, self.id.run_seed)
    }

    /// The JetStream de-duplication id (`Nats-Msg-Id`) of the unit's message.
    pub fn message_id(&self) -> String {
        format!("selfplay-{}", self.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit() -> SelfplayUnit {
        SelfplayUnit {
            id: BatchId {
                run_seed: 7,
                index: 3,
            },
            games: 2,
            settings: Settings::DEFAULT,
            weights_checksum: 0x1234_5678_9abc_def0,
            probcut_checksum: 42,
            wthor_checksum: 9,
        }
    }

    #[test]
    fn distrib_unit_round_trips_and_refuses_damage() {
        let u = unit();
        let bytes = u.to_bytes();
        assert_eq!(bytes.len(), LEN);
        assert_eq!(SelfplayUnit::from_bytes(&bytes), Ok(u));
        assert_eq!(u.key().len(), 16);
        let other = SelfplayUnit { games: 3, ..u };
        assert_ne!(u.key(), other.key());
        // Every flipped byte is refused (the checksum or the magic catches it).
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x10;
            assert!(SelfplayUnit::from_bytes(&bad).is_err(), "byte {i}");
        }
        assert_eq!(
            SelfplayUnit::from_bytes(b"hello"),
            Err(UnitError::Length { len: 5 })
        );
        assert!(matches!(
            SelfplayUnit::from_bytes(b"garbage that is not a unit at all"),
            Err(UnitError::BadMagic { .. })
        ));
        assert_eq!(
            SelfplayUnit::from_bytes(&bytes[..LEN - 1]).unwrap_err(),
            UnitError::Length { len: LEN - 1 }
        );
        // A valid message of a later version: refused by version, not as corrupt.
        let mut w = Writer::new(&MAGIC, VERSION + 1, LEN);
        w.bytes(&bytes[12..LEN - 8]);
        assert_eq!(
            SelfplayUnit::from_bytes(&w.finish()),
            Err(UnitError::Version { found: VERSION + 1 })
        );
        let zero = SelfplayUnit { games: 0, ..u };
        assert_eq!(
            SelfplayUnit::from_bytes(&zero.to_bytes()),
            Err(UnitError::NoGames)
        );
    }
}
