//! `wedge train-probcut`: measures how well shallow searches predict deep ones with the
//! evaluation in use (positions sampled from the WTHOR games before 2017, each searched at
//! every depth up to a maximum), fits the Multi-ProbCut error model and writes it atomically.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use wedge_core::board::Board;
use wedge_core::eval::Evaluator;
use wedge_core::formats::{parse_wthor, read_file, wthor_files, GameFileError};
use wedge_core::rng::Rng;
use wedge_core::search::{FixedDepth, ProbCutModel, Sample, TranspositionTable};

/// Games from these years are never used for fitting (held out like the evaluation's test set).
pub(crate) const FIRST_HELD_OUT_YEAR: u16 = 2017;

/// Why the ProbCut model could not be fitted or written.
#[derive(Debug, thiserror::Error)]
pub enum ProbCutFitError {
    #[error(transparent)]
    Games(#[from] GameFileError),
    #[error("no WTHOR games before {FIRST_HELD_OUT_YEAR} in {}", .0.display())]
    NoGames(std::path::PathBuf),
    #[error("no model fitted from {0} positions (too few to fit any depth pair); nothing written")]
    NoModel(usize),
    #[error("writing {}: {source}", path.display())]
    Write {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

/// `count` positions with 14 to 54 empties, drawn at random (seeded) from the WTHOR files of
/// `dir` before the held-out years.
pub(crate) fn sample_positions(
    dir: &Path,
    count: usize,
    seed: u64,
) -> Result<Vec<Board>, ProbCutFitError> {
    let mut games = Vec::new();
    for (path, year) in wthor_files(dir)? {
        if year >= FIRST_HELD_OUT_YEAR {
            continue;
        }
        let bytes = read_file(&path)?;
        games.extend(parse_wthor(&path, &bytes)?.games());
    }
    if games.is_empty() {
        return Err(ProbCutFitError::NoGames(dir.to_path_buf()));
    }
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    let mut attempts = 0;
    while out.len() < count && attempts < count * 20 {
        attempts += 1;
        let g = &games[rng.below(games.len() as u64) as usize];
        let Ok(game) = g.replay() else { continue };
        let positions = game.positions();
        let pos = positions[rng.below(positions.len() as u64) as usize];
        let b = pos.board;
        if (14..=54).contains(&b.empty_count()) && b.legal_moves() != 0 {
            out.push(b);
        }
    }
    Ok(out)
}

/// Searches each board at every depth `0..=max_depth` (no pruning, full window) on `threads`
/// threads; `progress` is called with the number done.
pub(crate) fn measure<E: Evaluator>(
    eval: &E,
    boards: &[Board],
    max_depth: u32,
    threads: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Sample> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(boards.len()));
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let tt = TranspositionTable::new(32);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(b) = boards.get(i) else { break };
                    tt.clear();
                    let mut search = FixedDepth::new(&tt, eval);
                    let deepest = max_depth.min(b.empty_count().saturating_sub(1));
                    let values = (0..=deepest).map(|d| search.value(b, d).as_f64()).collect();
                    let sample = Sample {
                        empties: b.empty_count(),
                        values,
                    };
                    if let Ok(mut r) = results.lock() {
                        r.push((i, sample));
                    }
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                }
            });
        }
    });
    let mut r = results.into_inner().unwrap_or_default();
    r.sort_by_key(|(i, _)| *i);
    r.into_iter().map(|(_, s)| s).collect()
}

/// The whole tool: sample, measure, fit, write `out` atomically; returns the model.
pub fn fit_and_write<E: Evaluator>(
    eval: &E,
    evaluation_name: &str,
    wthor_dir: &Path,
    positions: usize,
    max_depth: u32,
    threads: usize,
    out: &Path,
) -> Result<ProbCutModel, ProbCutFitError> {
    let boards = sample_positions(wthor_dir, positions, 0x5EED)?;
    let total = boards.len();
    let samples = measure(eval, &boards, max_depth, threads, &|n| {
        if n % 25 == 0 || n == total {
            eprintln!("train-probcut: {n}/{total} positions measured");
        }
    });
    let model = ProbCutModel::fit(evaluation_name, &samples, 30);
    if model.pairs().is_empty() {
        // A file without pairs would be refused when loaded.
        return Err(ProbCutFitError::NoModel(total));
    }
    wedge_core::paths::write_atomic(out, model.to_text().as_bytes()).map_err(|source| {
        ProbCutFitError::Write {
            path: out.to_path_buf(),
            source,
        }
    })?;
    Ok(model)
}
