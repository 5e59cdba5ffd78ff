//! Labelling: the exact solves of the games' positions with at most `solve_empties` empties,
//! on several threads (one transposition table per thread, reused along a game's line);
//! [`SolvedLabels`] turns them into training samples.

use super::games::GameRecord;
use super::label_cache::{solved_positions, SolvedLabels};
use super::progress::Progress;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;
use wedge_core::eval::Evaluator;
use wedge_core::search::solve_root;
use wedge_core::search::{TableError, TranspositionTable};

/// How to label.
#[derive(Clone, Copy, Debug)]
pub struct LabelConfig {
    /// Positions with at most this many empties are solved exactly.
    pub solve_empties: u32,
    pub threads: usize,
    /// Transposition table per thread, MB.
    pub hash_mb: usize,
}

/// The exact scores of one game's solved positions (solves use `tt`, and `order` to order
/// their moves: the scores are exact whichever evaluation orders, only the time changes).
fn solve_game<E: Evaluator>(
    record: &GameRecord,
    solve_empties: u32,
    tt: &TranspositionTable,
    order: &E,
) -> Vec<i8> {
    let stop = AtomicBool::new(false);
    solved_positions(record, solve_empties)
        .map(|board| {
            solve_root(&board, -64, 64, tt, order, &stop)
                .score
                .clamp(-64, 64) as i8
        })
        .collect()
}

/// Labels games on `cfg.threads` threads, solves ordered by `order` ([`SolvedLabels::samples`]
/// gives the samples). `progress` counts games. Fails, before any work, when the system
/// refuses the threads' tables.
pub fn label_games<E: Evaluator + Sync>(
    games: &[GameRecord],
    cfg: &LabelConfig,
    order: &E,
    progress: &mut Progress,
    progress_base: u64,
) -> Result<SolvedLabels, TableError> {
    let next = AtomicUsize::new(0);
    let done = AtomicU64::new(0);
    let results: Mutex<Vec<(usize, Vec<i8>)>> = Mutex::new(Vec::new());
    let tables = (0..cfg.threads.max(1))
        .map(|_| TranspositionTable::try_new(cfg.hash_mb))
        .collect::<Result<Vec<_>, _>>()?;
    std::thread::scope(|s| {
        let mut handles = Vec::with_capacity(tables.len());
        for tt in &tables {
            handles.push(s.spawn(|| {
                let mut local = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(g) = games.get(i) else { break };
                    local.push((i, solve_game(g, cfg.solve_empties, tt, order)));
                    done.fetch_add(1, Ordering::Relaxed);
                }
                if let Ok(mut r) = results.lock() {
                    r.extend(local);
                }
            }));
        }
        loop {
            let d = done.load(Ordering::Relaxed);
            progress.set(progress_base + d);
            if handles.iter().all(|h| h.is_finished()) {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    let mut parts = results.into_inner().unwrap_or_default();
    parts.sort_by_key(|(i, _)| *i);
    let per_game = parts.into_iter().map(|(_, v)| v).collect();
    Ok(SolvedLabels::new(games, cfg.solve_empties, per_game))
}
