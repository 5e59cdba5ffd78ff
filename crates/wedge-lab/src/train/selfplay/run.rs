//! A self-play run in a directory: the batches it is made of, which of them are still to play
//! (valid files of this run are skipped, so a rerun resumes; temporary files a killed run left
//! are removed), and the games played on all threads with each batch file written whole as
//! soon as its last game is in, with progress on stderr.

use super::error::SelfplayError;
use super::play::SelfPlay;
use super::record::{Batch, BatchHeader, GameRecord};
use super::unit::{BatchId, EXTENSION};
use crate::train::progress::Progress;
use std::path::{Path, PathBuf};

/// The games of a run: `games` in total, in batches of `batch_size` (the last one smaller).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunPlan {
    pub run_seed: u64,
    pub games: u64,
    pub batch_size: u32,
}

impl RunPlan {
    /// Each batch of the run with its number of games.
    pub fn batches(&self) -> impl Iterator<Item = (BatchId, u32)> + '_ {
        let size = u64::from(self.batch_size.max(1));
        let n = self.games.div_ceil(size);
        (0..n).map(move |index| {
            let count = (self.games - index * size).min(size) as u32;
            let id = BatchId {
                run_seed: self.run_seed,
                index,
            };
            (id, count)
        })
    }
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunSummary {
    /// Batches of the plan.
    pub batches: u64,
    /// Batches already present and valid.
    pub skipped: u64,
    /// Batch files replaced: unreadable, or with another number of games.
    pub replaced: Vec<PathBuf>,
    /// Games played (and written) by this run.
    pub games_played: u64,
    /// Temporary files of an earlier run removed.
    pub temporaries_removed: usize,
}

/// True for the temporary files `write_atomic` leaves beside a batch file when killed:
/// `.batch-000123.wsp.tmp.<pid>`.
fn is_batch_temporary(name: &str) -> bool {
    name.strip_prefix(".batch-")
        .and_then(|rest| rest.split_once(&format!(".{EXTENSION}.tmp.")))
        .is_some()
}

/// Removes the temporary batch files in `dir`; returns how many.
fn remove_temporaries(dir: &Path) -> Result<usize, SelfplayError> {
    let io = |source| SelfplayError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut removed = 0;
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        if is_batch_temporary(&entry.file_name().to_string_lossy()) {
            std::fs::remove_file(entry.path()).map_err(|source| SelfplayError::Io {
                path: entry.path(),
                source,
            })?;
            removed += 1;
        }
    }
    Ok(removed)
}

/// The first field in which a batch's header differs from the run's (the index aside).
fn difference(found: &BatchHeader, expected: &BatchHeader) -> Option<&'static str> {
    if found.id != expected.id {
        Some("run seed or batch index")
    } else if found.weights_checksum != expected.weights_checksum {
        Some("weights")
    } else if found.probcut_checksum != expected.probcut_checksum {
        Some("ProbCut model")
    } else if found.wthor_checksum != expected.wthor_checksum {
        Some("WTHOR games")
    } else if found.settings != expected.settings {
        Some("settings")
    } else {
        None
    }
}

/// A batch still to play.
struct Pending {
    id: BatchId,
    path: PathBuf,
    games: Vec<Option<GameRecord>>,
    left: usize,
}

/// A batch still to play: its id, its number of games and its file.
pub type Todo = (BatchId, u32, PathBuf);

/// The batches of `plan` still to play into `dir`, each with its number of games and file,
/// and what is there already. A batch file already there is kept when it is valid and of this
/// run with the planned number of games; replaced when unreadable or of another length; and
/// a valid file of another run (other seed, weights, openings or settings) is an error.
/// Creates `dir` and removes the temporary files a killed run left.
pub fn pending_batches(
    dir: &Path,
    selfplay: &SelfPlay,
    plan: &RunPlan,
    quiet: bool,
) -> Result<(RunSummary, Vec<Todo>), SelfplayError> {
    let made = match wedge_core::paths::directory(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => std::fs::create_dir_all(dir),
        checked => checked.map(drop),
    };
    made.map_err(|source| SelfplayError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut summary = RunSummary {
        temporaries_removed: remove_temporaries(dir)?,
        ..RunSummary::default()
    };
    let mut pending = Vec::new();
    for (id, count) in plan.batches() {
        summary.batches += 1;
        let path = dir.join(id.file_name());
        if path.exists() {
            match Batch::read(&path) {
                Ok(batch) => {
                    let expected = selfplay.header(id);
                    if let Some(what) = difference(&batch.header, &expected) {
                        return Err(SelfplayError::ForeignBatch {
                            path,
                            index: id.index,
                            what,
                        });
                    }
                    if batch.games.len() == count as usize {
                        summary.skipped += 1;
                        continue;
                    }
                    if !quiet {
                        eprintln!(
                            "{}: {} games, the plan has {count}: playing it again",
                            path.display(),
                            batch.games.len()
                        );
                    }
                }
                Err(e) => {
                    if !quiet {
                        eprintln!("{e}: playing it again");
                    }
                }
            }
            summary.replaced.push(path.clone());
        }
        pending.push((id, count, path));
    }
    Ok((summary, pending))
}

/// Plays the batches of `plan` missing from `dir` on `threads` threads and writes them there
/// (`batch-000123.wsp`); see [`pending_batches`] for the files already there.
pub fn run(
    dir: &Path,
    selfplay: &SelfPlay,
    plan: &RunPlan,
    threads: usize,
    quiet: bool,
) -> Result<RunSummary, SelfplayError> {
    let (mut summary, todo) = pending_batches(dir, selfplay, plan, quiet)?;
    let mut pending: Vec<Pending> = todo
        .into_iter()
        .map(|(id, count, path)| Pending {
            id,
            path,
            games: vec![None; count as usize],
            left: count as usize,
        })
        .collect();
    // Every game of every pending batch, in order, as (batch, game) jobs.
    let mut jobs = Vec::new();
    let mut seeds = Vec::new();
    for (b, p) in pending.iter().enumerate() {
        for g in 0..p.games.len() {
            jobs.push((b, g));
            seeds.push(p.id.game_seed(g as u32));
        }
    }
    if !quiet {
        eprintln!(
            "self-play into {}: {} batches, {} already there, {} games to play on {threads} threads",
            dir.display(),
            summary.batches,
            summary.skipped,
            seeds.len()
        );
    }
    let mut progress = Progress::new("games", seeds.len() as u64, quiet);
    let (mut done, mut played) = (0u64, 0u64);
    selfplay.play_games(&seeds, threads, &mut |i, game| {
        let (b, g) = jobs[i];
        let p = &mut pending[b];
        p.games[g] = Some(game);
        p.left -= 1;
        if p.left == 0 {
            let batch = Batch {
                header: selfplay.header(p.id),
                games: std::mem::take(&mut p.games).into_iter().flatten().collect(),
            };
            batch.write(&p.path)?;
            played += batch.games.len() as u64;
        }
        done += 1;
        progress.set(done);
        Ok(())
    })?;
    progress.finish(done);
    summary.games_played = played;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selfplay_plan_splits_games_into_batches() {
        let plan = RunPlan {
            run_seed: 3,
            games: 250,
            batch_size: 100,
        };
        let b: Vec<(u64, u32)> = plan.batches().map(|(id, n)| (id.index, n)).collect();
        assert_eq!(b, vec![(0, 100), (1, 100), (2, 50)]);
        assert_eq!(RunPlan { games: 0, ..plan }.batches().count(), 0);
        assert!(is_batch_temporary(".batch-000001.wsp.tmp.1234"));
        assert!(!is_batch_temporary("batch-000001.wsp"));
        assert!(!is_batch_temporary(".other.wsp.tmp.1"));
    }
}
