//! The result message: the finished batch file's bytes (which carry their own checksum and
//! header), published on the unit's own result subject, and the checks the coordinator makes
//! before writing them: a valid batch whose header and game count are the unit's.

use super::error::ObjectError;
use super::unit::SelfplayUnit;
use crate::train::selfplay::{Batch, BatchHeader};

/// Subjects of the results; one per unit (`wedge.results.selfplay.<key>`).
pub const SUBJECTS: &str = "wedge.results.>";
/// Prefix of the self-play result subjects.
pub const SELFPLAY_PREFIX: &str = "wedge.results.selfplay.";
/// Header naming the worker that played the unit.
pub const WORKER_HEADER: &str = "Wedge-Worker";

/// The result subject of `unit`.
pub fn subject(unit: &SelfplayUnit) -> String {
    format!("{SELFPLAY_PREFIX}{}", unit.key())
}

/// The unit key a result subject names, if it is one.
pub fn key_of_subject(subject: &str) -> Option<&str> {
    subject
        .strip_prefix(SELFPLAY_PREFIX)
        .filter(|k| k.len() == 16 && k.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Parses a result and checks it is the batch `expected` with `games` games.
pub fn check(bytes: &[u8], expected: &BatchHeader, games: u32) -> Result<Batch, ObjectError> {
    let batch = Batch::from_bytes(bytes)?;
    if batch.header != *expected {
        return Err(ObjectError::ForeignBatch {
            index: batch.header.id.index,
            run_seed: batch.header.id.run_seed,
        });
    }
    if batch.games.len() != games as usize {
        return Err(ObjectError::GameCount {
            found: batch.games.len(),
            expected: games,
        });
    }
    Ok(batch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::selfplay::{BatchId, Settings};

    #[test]
    fn distrib_result_subjects_round_trip() {
        let unit = SelfplayUnit {
            id: BatchId {
                run_seed: 1,
                index: 0,
            },
            games: 1,
            settings: Settings::DEFAULT,
            weights_checksum: 1,
            probcut_checksum: 2,
            wthor_checksum: 0,
        };
        let s = subject(&unit);
        assert_eq!(key_of_subject(&s), Some(unit.key().as_str()));
        assert_eq!(key_of_subject("wedge.results.selfplay.xyz"), None);
        assert_eq!(key_of_subject("wedge.units.selfplay"), None);
        let header = BatchHeader {
            id: unit.id,
            weights_checksum: 1,
            probcut_checksum: 2,
            wthor_checksum: 0,
            settings: Settings::DEFAULT,
        };
        assert!(check(b"not a batch", &header, 1).is_err());
        let empty = Batch {
            header,
            games: vec![],
        };
        assert_eq!(
            check(&empty.to_bytes(), &header, 0)
                .map(|b| b.games.len())
                .ok(),
            Some(0)
        );
        assert!(check(&empty.to_bytes(), &header, 1)
            .unwrap_err()
            .to_string()
            .contains("0 games"));
        let other = BatchHeader {
            weights_checksum: 9,
            ..header
        };
        assert!(check(&empty.to_bytes(), &other, 0).is_err());
    }
}
