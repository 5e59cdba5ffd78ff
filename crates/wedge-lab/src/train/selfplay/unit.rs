//! The unit of self-play work and what it depends on: a batch's identity (run seed and index,
//! from which every game's seed is derived) and the settings the games are played with.

use wedge_core::board::mix64;
use wedge_core::search::Selectivity;

/// One unit of work: batch `index` of the run seeded `run_seed`. Its games depend only on this
/// id, the [`Settings`] and the evaluation (weights and ProbCut model, by checksum) and the
/// WTHOR lines (by checksum), never on the machine, the thread count or the scheduling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BatchId {
    pub run_seed: u64,
    pub index: u64,
}

impl BatchId {
    /// The seed of this batch, derived from the run seed and the index.
    pub fn seed(self) -> u64 {
        derive(self.run_seed, self.index)
    }

    /// The seed of game `game` (0-based) of this batch: a batch of n games is the first n
    /// games of any larger batch with the same id.
    pub fn game_seed(self, game: u32) -> u64 {
        derive(self.seed(), u64::from(game))
    }

    /// The batch's file name in a run's directory: `batch-000123.wsp`.
    pub fn file_name(self) -> String {
        format!("batch-{:06}.{EXTENSION}", self.index)
    }
}

/// Extension of self-play batch files.
pub const EXTENSION: &str = "wsp";

/// The index named by a batch file name (`batch-000123.wsp` -> 123), if it is one.
pub fn index_of_file_name(name: &str) -> Option<u64> {
    let digits = name
        .strip_prefix("batch-")?
        .strip_suffix(EXTENSION)?
        .strip_suffix('.')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// A seed for item `n` of the stream seeded `seed` (two rounds of SplitMix64's finaliser, so
/// nearby seeds and indices give unrelated values).
fn derive(seed: u64, n: u64) -> u64 {
    mix64(seed ^ mix64(n.wrapping_add(0x9E37_79B9_7F4A_7C15)))
}

/// How the games of a run are started and played. Recorded in every batch file's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Midgame search depth (plies).
    pub depth: u32,
    /// Multi-ProbCut level of the midgame searches.
    pub selectivity: Selectivity,
    /// Positions with at most this many empties are solved exactly (and so is the rest of the
    /// game: the final result is perfect play from there).
    pub exact_empties: u32,
    /// Random openings are `min_plies..=max_plies` uniformly random legal moves; a WTHOR
    /// start leaves its game after a prefix of that many plies.
    pub min_plies: u32,
    pub max_plies: u32,
    /// Games in a thousand that start by leaving a WTHOR line (0 without WTHOR games).
    pub wthor_per_mille: u32,
    /// Transposition table of each game, MB (emptied at the start of every game).
    pub game_hash_mb: u32,
}

impl Settings {
    /// The byte-sized fields as stored in batch files and work units: depth, selectivity,
    /// exact empties, first and last opening ply (each at most 255 once valid).
    pub(crate) fn byte_fields(&self) -> [u8; 5] {
        [
            self.depth,
            u32::from(self.selectivity.0),
            self.exact_empties,
            self.min_plies,
            self.max_plies,
        ]
        .map(|v| v.min(255) as u8)
    }

    /// The settings from their stored fields ([`Settings::byte_fields`], then the WTHOR share
    /// and the table size); checked by the caller with [`Settings::problem`].
    pub(crate) fn from_fields(bytes: [u8; 5], wthor_per_mille: u16, game_hash_mb: u32) -> Settings {
        let [depth, selectivity, exact_empties, min_plies, max_plies] = bytes;
        Settings {
            depth: u32::from(depth),
            selectivity: Selectivity(selectivity),
            exact_empties: u32::from(exact_empties),
            min_plies: u32::from(min_plies),
            max_plies: u32::from(max_plies),
            wthor_per_mille: u32::from(wthor_per_mille),
            game_hash_mb,
        }
    }

    /// Tiny games for tests: depth 2, solved from 8 empties, short random openings, 1 MB
    /// tables.
    #[cfg(test)]
    pub(crate) const TINY: Settings = Settings {
        depth: 2,
        selectivity: Selectivity(3),
        exact_empties: 8,
        min_plies: 4,
        max_plies: 14,
        wthor_per_mille: 0,
        game_hash_mb: 1,
    };
    /// The defaults of `wedge selfplay`.
    pub const DEFAULT: Settings = Settings {
        depth: 8,
        selectivity: Selectivity(3),
        exact_empties: 18,
        min_plies: 6,
        max_plies: 24,
        wthor_per_mille: 0,
        game_hash_mb: 16,
    };

    /// The first setting out of range, if any (what is wrong, in words).
    pub fn problem(&self) -> Option<String> {
        if !(1..=60).contains(&self.depth) {
            return Some(format!("depth {} (expected 1..=60)", self.depth));
        }
        if self.selectivity > Selectivity::MAX {
            return Some(format!(
                "selectivity level {} (expected 0..={})",
                self.selectivity.0,
                Selectivity::MAX.0
            ));
        }
        if self.exact_empties > 60 {
            return Some(format!(
                "exact empties {} (expected 0..=60)",
                self.exact_empties
            ));
        }
        if self.min_plies > self.max_plies || self.max_plies > 59 {
            return Some(format!(
                "opening plies {}..={} (expected min <= max <= 59)",
                self.min_plies, self.max_plies
            ));
        }
        if self.wthor_per_mille > 1000 {
            return Some(format!(
                "WTHOR share {} per mille (expected 0..=1000)",
                self.wthor_per_mille
            ));
        }
        if !(1..=65_535).contains(&self.game_hash_mb) {
            return Some(format!(
                "table of {} MB per game (expected 1..=65535)",
                self.game_hash_mb
            ));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selfplay_seeds_differ_by_batch_and_game_and_names_round_trip() {
        let a = BatchId {
            run_seed: 1,
            index: 0,
        };
        let b = BatchId { index: 1, ..a };
        let c = BatchId { run_seed: 2, ..a };
        assert_ne!(a.seed(), b.seed());
        assert_ne!(a.seed(), c.seed());
        assert_ne!(a.game_seed(0), a.game_seed(1));
        assert_ne!(a.game_seed(0), b.game_seed(0));
        assert_eq!(b.file_name(), "batch-000001.wsp");
        let big = BatchId {
            index: 12_345_678,
            ..a
        };
        assert_eq!(index_of_file_name(&big.file_name()), Some(12_345_678));
        assert_eq!(index_of_file_name("batch-.wsp"), None);
        assert_eq!(index_of_file_name("batch-12.wspx"), None);
        assert_eq!(index_of_file_name(".batch-000001.wsp.tmp.77"), None);
        assert_eq!(index_of_file_name("batch-+1.wsp"), None);
        assert!(Settings::DEFAULT.problem().is_none());
        let bad = Settings {
            min_plies: 9,
            max_plies: 8,
            ..Settings::DEFAULT
        };
        assert!(bad.problem().is_some());
    }
}
