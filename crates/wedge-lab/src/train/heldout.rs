//! The held-out test set: positions from the 2017-2020 WTHOR games (never trained on) with
//! 20-24 empties and exact scores: at the records' theoretical depth (24 empties in every WTHOR
//! file) the record's theoretical score, which is an exact solve (checked against our solver:
//! 8 of 8 agreed), and at other counts an exact solve by our endgame solver. Written as an OBF
//! file for `wedge eval`.

use super::games::{for_side_to_move, read_wthor_file, wthor_files, GameRecord, HELD_OUT_YEARS};
use super::progress::Progress;
use super::TrainError;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use wedge_core::eval::Evaluator;
use wedge_core::formats::{format_obf_line, ObfEntry, Position};
use wedge_core::rng::Rng;
use wedge_core::search::solve_root;
use wedge_core::search::TranspositionTable;

/// Picks up to `per_count` positions for each empties count in `empties` from the held-out
/// games (one per game and count, games in a seeded random order), scores them exactly and
/// returns OBF entries sorted by empties.
pub fn make_heldout<E: Evaluator>(
    wthor_dir: &Path,
    empties: std::ops::RangeInclusive<u32>,
    per_count: usize,
    threads: usize,
    eval: &E,
    quiet: bool,
) -> Result<Vec<ObfEntry>, TrainError> {
    let mut games: Vec<GameRecord> = Vec::new();
    for (path, year) in wthor_files(wthor_dir)? {
        if HELD_OUT_YEARS.contains(&year) {
            games.extend(read_wthor_file(&path, year, usize::MAX)?.0);
        }
    }
    if games.is_empty() {
        return Err(format!(
            "no games from {}-{} in {}",
            HELD_OUT_YEARS.start(),
            HELD_OUT_YEARS.end(),
            wthor_dir.display()
        )
        .into());
    }
    let mut rng = Rng::new(2017);
    for i in (1..games.len()).rev() {
        games.swap(i, rng.below(i as u64 + 1) as usize);
    }
    // (position, known exact score) to solve or take.
    let mut jobs: Vec<(Position, Option<i32>)> = Vec::new();
    for e in empties {
        let mut taken = 0;
        for g in &games {
            if taken == per_count {
                break;
            }
            let Some(pos) = g
                .positions
                .iter()
                .find(|p| p.board.empty_count() == e && p.board.legal_moves() != 0)
            else {
                continue;
            };
            let known = g
                .theoretical
                .filter(|&(d, _)| d == e)
                .map(|(_, black)| for_side_to_move(black, pos.to_move));
            jobs.push((*pos, known));
            taken += 1;
        }
    }
    let to_solve = jobs.iter().filter(|j| j.1.is_none()).count() as u64;
    let mut progress = Progress::new("solves", to_solve, quiet);
    let next = AtomicUsize::new(0);
    let solved = AtomicUsize::new(0);
    let results = Mutex::new(vec![None; jobs.len()]);
    std::thread::scope(|s| {
        let mut hs = Vec::new();
        for _ in 0..threads.max(1) {
            hs.push(s.spawn(|| {
                let tt = TranspositionTable::new(64);
                let stop = AtomicBool::new(false);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(pos, known)) = jobs.get(i) else {
                        break;
                    };
                    let score = match known {
                        Some(s) => s,
                        None => {
                            let r = solve_root(&pos.board, -64, 64, &tt, eval, &stop).score;
                            solved.fetch_add(1, Ordering::Relaxed);
                            r
                        }
                    };
                    if let Ok(mut r) = results.lock() {
                        r[i] = Some(score);
                    }
                }
            }));
        }
        while !hs.iter().all(|h| h.is_finished()) {
            progress.set(solved.load(Ordering::Relaxed) as u64);
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
    });
    progress.finish(solved.load(Ordering::Relaxed) as u64);
    let results = results.into_inner().unwrap_or_default();
    let mut out: Vec<ObfEntry> = jobs
        .iter()
        .zip(results)
        .filter_map(|(&(position, _), s)| {
            s.map(|score| ObfEntry {
                position,
                moves: Vec::new(),
                score: Some(score),
            })
        })
        .collect();
    out.sort_by_key(|e| std::cmp::Reverse(e.position.board.empty_count()));
    Ok(out)
}

/// The entries as an OBF file.
pub fn to_obf_text(entries: &[ObfEntry]) -> String {
    let mut s = String::new();
    for e in entries {
        s.push_str(&format_obf_line(e));
        s.push('\n');
    }
    s
}
