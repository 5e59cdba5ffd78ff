//! Counts and distributions over a self-play directory (`wedge selfplay --stats`): games,
//! positions, bytes, how the games started, the final results and the search values.

use super::error::SelfplayError;
use super::reader::batch_files;
use super::record::{Batch, BatchHeader, RecordError, Start, ValueKind};
use std::fmt::Write as _;
use std::path::Path;

/// Buckets of 8 discs over -64..=64 (64 goes with 56..63).
const BUCKETS: usize = 16;

fn bucket(v: i8) -> usize {
    ((i32::from(v) + 64).clamp(0, 127) / 8) as usize
}

/// What a directory of batch files holds.
#[derive(Debug, Default)]
pub struct Stats {
    pub files: usize,
    /// Files that do not read, with why.
    pub bad_files: Vec<RecordError>,
    pub bytes: u64,
    /// The first file's header, and whether any other file has other checksums or settings.
    pub header: Option<BatchHeader>,
    pub mixed_headers: bool,
    pub games: u64,
    pub wthor_starts: u64,
    pub plies: u64,
    pub opening_plies: u64,
    /// Searched positions (samples), and those whose value is an exact solve.
    pub positions: u64,
    pub exact_positions: u64,
    /// Exact values other than the game's final result (should be none).
    pub exact_disagreeing: u64,
    /// Sum of |search - result| and of (search - result) over the midgame positions.
    pub midgame_abs_diff: u64,
    pub midgame_diff: i64,
    pub black_wins: u64,
    pub draws: u64,
    pub black_sum: i64,
    /// Black's final results and the search values (side to move), by 8-disc bucket.
    pub results: [u64; BUCKETS],
    pub values: [u64; BUCKETS],
}

impl Stats {
    /// Adds one batch (`bytes` long).
    pub fn add(&mut self, batch: &Batch, bytes: u64) {
        self.files += 1;
        self.bytes += bytes;
        match &self.header {
            None => self.header = Some(batch.header),
            Some(h) => {
                let same = h.weights_checksum == batch.header.weights_checksum
                    && h.probcut_checksum == batch.header.probcut_checksum
                    && h.wthor_checksum == batch.header.wthor_checksum
                    && h.settings == batch.header.settings
                    && h.id.run_seed == batch.header.id.run_seed;
                self.mixed_headers |= !same;
            }
        }
        for g in &batch.games {
            self.games += 1;
            self.wthor_starts += u64::from(g.start == Start::Wthor);
            self.plies += g.moves.len() as u64;
            self.opening_plies += g.opening as u64;
            self.black_wins += u64::from(g.result > 0);
            self.draws += u64::from(g.result == 0);
            self.black_sum += i64::from(g.result);
            self.results[bucket(g.result)] += 1;
            for s in g.samples(&batch.header.settings) {
                self.positions += 1;
                self.values[bucket(s.search)] += 1;
                let diff = i64::from(s.search) - i64::from(s.result);
                match s.kind {
                    ValueKind::Exact => {
                        self.exact_positions += 1;
                        self.exact_disagreeing += u64::from(diff != 0);
                    }
                    ValueKind::Midgame { .. } => {
                        self.midgame_abs_diff += diff.unsigned_abs();
                        self.midgame_diff += diff;
                    }
                }
            }
        }
    }

    /// Reads every batch file of `dir` (unreadable ones are listed, not fatal).
    pub fn of_dir(dir: &Path) -> Result<Stats, SelfplayError> {
        let mut stats = Stats::default();
        for path in batch_files(dir)? {
            match Batch::read(&path) {
                Ok(batch) => {
                    let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
                    stats.add(&batch, bytes);
                }
                Err(e) => stats.bad_files.push(e),
            }
        }
        Ok(stats)
    }

    /// The report `wedge selfplay --stats` prints.
    pub fn to_text(&self) -> String {
        let mut t = String::new();
        let pct = |n: u64, of: u64| 100.0 * n as f64 / of.max(1) as f64;
        let per = |n: u64, of: u64| n as f64 / of.max(1) as f64;
        let _ = writeln!(
            t,
            "{} batch files ({} unreadable), {} games, {} bytes ({:.1} bytes per game)",
            self.files + self.bad_files.len(),
            self.bad_files.len(),
            self.games,
            self.bytes,
            per(self.bytes, self.games)
        );
        for e in &self.bad_files {
            let _ = writeln!(t, "  unreadable: {e}");
        }
        if let Some(h) = &self.header {
            let s = &h.settings;
            let _ = writeln!(
                t,
                "run seed {}; depth {} at {}% selectivity, exact from {} empties, openings of \
                 {}-{} plies, WTHOR starts {:.1}%, {} MB table per game",
                h.id.run_seed,
                s.depth,
                s.selectivity.percent(),
                s.exact_empties,
                s.min_plies,
                s.max_plies,
                s.wthor_per_mille as f64 / 10.0,
                s.game_hash_mb
            );
            let _ = writeln!(
                t,
                "weights {:#018x}, ProbCut model {:#018x}, WTHOR lines {:#018x}{}",
                h.weights_checksum,
                h.probcut_checksum,
                h.wthor_checksum,
                if self.mixed_headers {
                    " (other files differ!)"
                } else {
                    ""
                }
            );
        }
        let _ = writeln!(
            t,
            "games: {} from random openings, {} leaving WTHOR games; {:.1} plies a game ({:.1} \
             of opening)",
            self.games - self.wthor_starts,
            self.wthor_starts,
            per(self.plies, self.games),
            per(self.opening_plies, self.games)
        );
        let white_wins = self.games - self.black_wins - self.draws;
        let _ = writeln!(
            t,
            "results for Black: {:.1}% wins, {:.1}% draws, {:.1}% losses, mean {:+.2} discs",
            pct(self.black_wins, self.games),
            pct(self.draws, self.games),
            pct(white_wins, self.games),
            self.black_sum as f64 / self.games.max(1) as f64
        );
        let midgame = self.positions - self.exact_positions;
        let _ = writeln!(
            t,
            "positions: {} searched ({} midgame, {} exact); exact values other than the final \
             result: {}",
            self.positions, midgame, self.exact_positions, self.exact_disagreeing
        );
        let _ = writeln!(
            t,
            "midgame values against the final result: mean absolute difference {:.2}, mean \
             difference {:+.2} discs",
            per(self.midgame_abs_diff, midgame),
            self.midgame_diff as f64 / midgame.max(1) as f64
        );
        let _ = writeln!(
            t,
            "{:>10} {:>22} {:>28}",
            "discs", "final result (Black)", "search value (side to move)"
        );
        for b in 0..BUCKETS {
            let lo = b as i32 * 8 - 64;
            let hi = if b + 1 == BUCKETS { 64 } else { lo + 7 };
            let _ = writeln!(
                t,
                "{:>10} {:>15} {:>5.1}% {:>21} {:>5.1}%",
                format!("{lo}..{hi}"),
                self.results[b],
                pct(self.results[b], self.games),
                self.values[b],
                pct(self.values[b], self.positions)
            );
        }
        t
    }
}
