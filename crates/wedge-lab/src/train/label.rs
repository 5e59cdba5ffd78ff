//! Labelling: turns replayed games into training samples. Positions with at most
//! `solve_empties` empties are solved exactly by the endgame solver (one transposition table per
//! thread, reused along a game's line); earlier positions take the record's theoretical score
//! (WTHOR: perfect play from the game's position at the theoretical depth, 24 empties in every
//! WTHOR file) or, for records without one, the game's final result. Positions where the side
//! to move must pass, and finished positions, are skipped.

use super::dataset::{LabelKind, LabelledPosition};
use super::games::{for_side_to_move, GameRecord};
use super::label_cache::SolvedLabels;
use super::progress::Progress;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;
use wedge_core::board::Board;
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

/// The positions of a game that labelling solves exactly, in order: those with at most
/// `solve_empties` empties where the side to move has a move.
pub(crate) fn solved_positions(
    record: &GameRecord,
    solve_empties: u32,
) -> impl Iterator<Item = Board> + '_ {
    record
        .positions
        .iter()
        .map(|p| p.board)
        .filter(move |b| b.legal_moves() != 0 && b.empty_count() <= solve_empties)
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

/// Appends one game's samples, given the exact scores of its solved positions in order (one
/// each, as [`solved_positions`] lists them).
pub(crate) fn game_samples(
    record: &GameRecord,
    game_id: u32,
    solve_empties: u32,
    scores: &[i8],
    out: &mut Vec<LabelledPosition>,
) {
    let year = record.year.unwrap_or(0);
    let mut scores = scores.iter();
    for pos in &record.positions {
        let board = pos.board;
        if board.legal_moves() == 0 {
            continue;
        }
        let e = board.empty_count();
        let (label, kind) = if e <= solve_empties {
            let Some(&score) = scores.next() else { return };
            (i32::from(score), LabelKind::Exact)
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
