//! Labelling: turns replayed games into training samples. Positions with at most
//! `solve_empties` empties are solved exactly by the endgame solver (one transposition table per
//! thread, reused along a game's line); earlier positions take the record's theoretical score
//! (WTHOR: perfect play from the game's position at the theoretical depth, 24 empties in every
//! WTHOR file) or, for records without one, the game's final result. Positions where the side
//! to move must pass, and finished positions, are skipped.

use super::dataset::{LabelKind, LabelledPosition};
use super::games::{for_side_to_move, GameRecord};
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

/// Labels one game's positions, appending samples (solves use `tt`, and `order` to order
/// their moves: the labels are exact whichever evaluation orders, only the time changes).
pub fn label_game<E: Evaluator>(
    record: &GameRecord,
    game_id: u32,
    cfg: &LabelConfig,
    tt: &TranspositionTable,
    order: &E,
    out: &mut Vec<LabelledPosition>,
) {
    let stop = AtomicBool::new(false);
    let year = record.year.unwrap_or(0);
    for pos in &record.positions {
        let board = pos.board;
        if board.legal_moves() == 0 {
            continue;
        }
        let e = board.empty_count();
        let (label, kind) = if e <= cfg.solve_empties {
            let r = solve_root(&board, -64, 64, tt, order, &stop);
            (r.score, LabelKind::Exact)
        } else if let Some((depth, black)) = record.theoretical {
            let kind = if e == depth {
                LabelKind::Exact
            } else {
                LabelKind::Theoretical
            };
            (for_side_to_move(black, pos.to_move), kind)
        } else if let Some(black) = record.final_black {
            (for_side_to_move(black, pos.to_move), LabelKind::FinalResult)
        } else {
            continue;
        };
        out.push(LabelledPosition {
            board,
            label: label.clamp(-64, 64) as i8,
            kind,
            year,
            game: game_id,
        });
    }
}

/// Labels games on `cfg.threads` threads, solves ordered by `order`; samples come back in game
/// order. `progress` counts games. Fails, before any work, when the system refuses the
/// threads' tables.
pub fn label_games<E: Evaluator + Sync>(
    games: &[GameRecord],
    first_game_id: u32,
    cfg: &LabelConfig,
    order: &E,
    progress: &mut Progress,
    progress_base: u64,
) -> Result<Vec<LabelledPosition>, TableError> {
    let next = AtomicUsize::new(0);
    let done = AtomicU64::new(0);
    let results: Mutex<Vec<(usize, Vec<LabelledPosition>)>> = Mutex::new(Vec::new());
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
                    let mut out = Vec::with_capacity(64);
                    label_game(g, first_game_id + i as u32, cfg, tt, order, &mut out);
                    local.push((i, out));
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
    Ok(parts.into_iter().flat_map(|(_, v)| v).collect())
}
