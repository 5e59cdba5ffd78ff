//! `wedge bench`: fixed, deterministic workloads printing nodes, seconds and nodes per second:
//! move generation (perft), an endgame workload (exact solves), a midgame workload
//! (fixed-depth searches) and the midgame at play's selectivity (the time to reach two depths
//! from tournament positions). Node counts repeat exactly for a given evaluation; compare times
//! only between runs on the same machine. Also the stop latency: how soon a running search
//! returns once its stop flag is set (tests only check that it stops, with a generous bound).

use crate::tools::perft::{perft, PassRule};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use wedge_core::board::Board;
use wedge_core::eval::Evaluator;
use wedge_core::formats::{parse_position, replay_inferring_passes};
use wedge_core::search::{Limits, Report, Searcher, Selectivity, SolveMode};

/// One workload's result.
#[derive(Clone, Debug)]
pub struct BenchResult {
    pub name: &'static str,
    pub nodes: u64,
    pub seconds: f64,
}

impl BenchResult {
    pub fn nodes_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.nodes as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// Times `f`, which returns the number of nodes it visited.
pub(crate) fn measure(name: &'static str, f: impl FnOnce() -> u64) -> BenchResult {
    let start = Instant::now();
    let nodes = f();
    BenchResult {
        name,
        nodes,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Ten FFO positions with 19-22 empties (#24-#33), each solved exactly from an empty table.
pub(crate) const ENDGAME_POSITIONS: [&str; 10] = [
    "--O--O-----OOOX--X-XOXOO--XXXOOOXXXXOOOOXXXOXXOOXXXXXX--XOXX-O-- O",
    "----X------XXXO--OOOXXXXXOOOOXXO-XXOOXXOOOXOXXXXOOOXX---X-XXXX-- O",
    "-OOOOO----OXXO---OOOOXXO-OOOXOXX-OOXOOXX-XOXXOXX--O-XXXX--O----O X",
    "--XO-O----OOOO--OOXOXXO-OOOOXXOOOOOXXOX-OXOXXXXX--XXXX----X-O-X- X",
    "--O-------OOO--X-XOOOOXXXXXXOXOX-XXOXOOXXXOXOOXX-OOOOO-X---OOO-- X",
    "-OXXXX----OXXO--XXOOXOOOXXXOOXOOXXOOXOOOXXXXOO-XX-XXO----------- X",
    "-XXX----X-XOO---XXOXOO--XOXOXO--XOOXOXXXXOOXXOX---OOOOO--XXXXX-- X",
    "-OOOOO----OOOO--OXXOOO---XXXOO--XXXXXXO-XXXOOO-OX-OOOO---OOOOO-- X",
    "--XX----O-XXOX--OOXOO---OXOXOOO-OOXXOOOXOOXXXOOX--XXXXOX--X--X-X X",
    "-XXXXXXX--XOOO----OXOOXX-OOXXOXX-OOOOOXX-X-XOOXX---O-X-X--OOOO-- X",
];

/// Standard openings (transcripts from the start) for the midgame workload.
pub(crate) const OPENINGS: [(&str, &str); 4] = [
    ("start", ""),
    ("tiger", "f5d6c3d3c4"),
    ("cow", "f5d6c5f4e3"),
    ("buffalo", "f5f6e6f4c3"),
];

/// Depth of the midgame workload's searches.
pub(crate) const MIDGAME_DEPTH: u32 = 11;

/// Ten midgame positions (32-44 empties) from WTHOR 2019-2020 games, each within 5 discs of
/// even at depth 10, for the workload at play's selectivity.
pub const PLAY_POSITIONS: [&str; 10] = [
    "---O------XOOO---XXOOO---OOOXO---OOXXXO---XXXXOO--XXX-----XX---- X",
    "----XX-----XXX----XXOOXX--XXOOO----XOOOO---XOOO----OOO----OO-X-- O",
    "----------X-----O-XXOO--XXXOOO--XXXOOO--XXXXOO----XOOO-----O-X-- X",
    "---XXX----OOXX----OOXXO--XXOOO-O-XXOOOOO---OXXX----------------- O",
    "----------XX-X--OOXXX-X-OXOXOOO-OXXOOO--O-OOOO--O--------------- X",
    "----------------O-XO-OX--OXXOO-X-XOOOOX-X-OOOXX---XOOO---------- O",
    "--------------------XXXX--XXXOO--OOXOOOO--OOOXXX---OXX---------- O",
    "------------OO----XXXOOO--XXXXOX--OOOOX---OOOOX----------------- X",
    "-----------------OOXX-X--OXOXX--OXXXXXX---OOOO-----O------------ X",
    "-----------O-X----XOXX----XOXXX---OOXX---OOOO--------O---------- X",
];

/// The depths the play workload reports the time to reach (the last is the deepest searched).
pub const PLAY_DEPTHS: [u32; 2] = [14, 18];

fn board_of(text: &str) -> Board {
    // The constants above are valid; a typo is a programming error caught by the tests.
    parse_position(text).expect("bench position").board
}

fn opening_board(moves: &str) -> Board {
    replay_inferring_passes(moves)
        .expect("bench opening")
        .position()
        .board
}

/// The move-generation workload: perft 10 from the start (pass = 1 ply), 24,571,284 leaves.
pub(crate) fn movegen_workload() -> BenchResult {
    measure("perft 10 (move generation)", || {
        perft(&Board::START, 10, PassRule::PassIsPly)
    })
}

/// The endgame workload: the ten positions solved exactly, one thread.
pub(crate) fn endgame_workload<E: Evaluator>(searcher: &Searcher<E>) -> BenchResult {
    let boards = ENDGAME_POSITIONS.iter().map(|p| board_of(p));
    let limits = Limits::solve(SolveMode::Exact);
    measure_searches("endgame (10 exact solves)", searcher, boards, &limits)
}

/// The midgame workload: each opening searched to `MIDGAME_DEPTH`.
pub(crate) fn midgame_workload<E: Evaluator>(searcher: &Searcher<E>) -> BenchResult {
    let boards = OPENINGS.iter().map(|(_, moves)| opening_board(moves));
    let limits = Limits::depth(MIDGAME_DEPTH);
    measure_searches("midgame (4 openings, depth 11)", searcher, boards, &limits)
}

/// The midgame at play's selectivity: each of [`PLAY_POSITIONS`] searched from an empty table
/// by iterative deepening at [`Selectivity::PLAY`] to the last of [`PLAY_DEPTHS`]; per depth,
/// the nodes and the time until that iteration finished, summed over the positions.
pub fn play_workload<E: Evaluator>(searcher: &Searcher<E>) -> [BenchResult; 2] {
    const NAMES: [&str; 2] = ["play (10 positions, 14@87%)", "play (10 positions, 18@87%)"];
    let limits = Limits {
        selectivity: Selectivity::PLAY,
        ..Limits::depth(PLAY_DEPTHS[1])
    };
    let stop = AtomicBool::new(false);
    searcher.table().fault_in(&stop);
    let mut sums = [(0u64, 0.0f64); 2];
    for p in PLAY_POSITIONS {
        let board = board_of(p);
        searcher.clear();
        let start = Instant::now();
        searcher.search(&board, &limits, &stop, &mut |r| {
            if let Some(k) = PLAY_DEPTHS.iter().position(|&d| d == r.depth) {
                sums[k].0 += r.nodes;
                sums[k].1 += start.elapsed().as_secs_f64();
            }
        });
    }
    [0, 1].map(|k| BenchResult {
        name: NAMES[k],
        nodes: sums[k].0,
        seconds: sums[k].1,
    })
}

/// Searches each of `boards` as `limits` asks, from an empty table, and times the searches
/// alone: faulting the table's pages in and emptying the table write all of it (with the
/// default 256 MB, about as long as a small solve), work that is no part of a search's nodes.
fn measure_searches<E: Evaluator>(
    name: &'static str,
    searcher: &Searcher<E>,
    boards: impl Iterator<Item = Board>,
    limits: &Limits,
) -> BenchResult {
    let stop = AtomicBool::new(false);
    searcher.table().fault_in(&stop);
    let (mut nodes, mut seconds) = (0, 0.0);
    for board in boards {
        searcher.clear();
        let start = Instant::now();
        nodes += searcher.search(&board, limits, &stop, &mut |_| {}).nodes;
        seconds += start.elapsed().as_secs_f64();
    }
    BenchResult {
        name,
        nodes,
        seconds,
    }
}

/// The fixed workloads counted in the total, in order (the play workload is apart: its
/// first depth is part of its second).
pub fn run_all<E: Evaluator>(searcher: &Searcher<E>) -> Vec<BenchResult> {
    vec![
        movegen_workload(),
        endgame_workload(searcher),
        midgame_workload(searcher),
    ]
}

/// An exact solve that runs far longer than the stop-latency trials (FFO #61, 25 empties).
pub const STOP_LATENCY_ENDGAME: &str =
    "-XXXX---X-XXOX--XXXXOXX-XOOXOOOOXOOOOOO-XXOOOO--X---O----------- O";

/// Trials per stop-latency case; the median is reported.
pub const STOP_LATENCY_TRIALS: u32 = 5;

/// Time from setting the stop flag, `after` into a search of `board`, to the search's return;
/// and the search's report.
pub fn stop_latency<E: Evaluator>(
    searcher: &Searcher<E>,
    board: &Board,
    limits: &Limits,
    after: Duration,
) -> (Duration, Report) {
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let setter = scope.spawn(|| {
            std::thread::sleep(after);
            let at = Instant::now();
            stop.store(true, Ordering::SeqCst);
            at
        });
        let report = searcher.search(board, limits, &stop, &mut |_| {});
        let returned = Instant::now();
        // The setter only sleeps and stores; it cannot panic.
        let stopped = setter.join().unwrap_or(returned);
        (returned.saturating_duration_since(stopped), report)
    })
}

/// The median stop latency of a deep midgame search (the start position to depth 40) and of
/// an exact solve, each stopped 60-140 ms after it starts.
pub fn stop_latencies<E: Evaluator>(searcher: &Searcher<E>) -> [(&'static str, Duration); 2] {
    let cases = [
        ("midgame", Board::START, Limits::depth(40)),
        (
            "endgame",
            board_of(STOP_LATENCY_ENDGAME),
            Limits::solve(SolveMode::Exact),
        ),
    ];
    cases.map(|(name, board, limits)| {
        let mut v: Vec<Duration> = (0..STOP_LATENCY_TRIALS)
            .map(|i| {
                let after = Duration::from_millis(60 + 20 * i as u64);
                stop_latency(searcher, &board, &limits, after).0
            })
            .collect();
        v.sort();
        (name, v[v.len() / 2])
    })
}

/// Depth reached (last completed iteration) from each opening within `budget`.
pub fn depth_in_time<E: Evaluator>(
    searcher: &Searcher<E>,
    budget: Duration,
) -> Vec<(&'static str, u32)> {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        time: wedge_core::search::TimeControl::PerMove(budget),
        ..Limits::depth(60)
    };
    OPENINGS
        .iter()
        .map(|(name, moves)| {
            searcher.clear();
            let mut depth = 0;
            searcher.search(&opening_board(moves), &limits, &stop, &mut |r| {
                depth = r.depth
            });
            (*name, depth)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_valid() {
        for p in ENDGAME_POSITIONS {
            let b = board_of(p);
            assert!((19..=22).contains(&b.empty_count()), "{p}");
        }
        for p in PLAY_POSITIONS {
            let b = board_of(p);
            assert!((32..=44).contains(&b.empty_count()), "{p}");
            assert!(b.legal_moves() != 0, "{p}");
        }
        for (_, moves) in OPENINGS {
            assert!(!opening_board(moves).is_game_over());
        }
        assert_eq!(board_of(STOP_LATENCY_ENDGAME).empty_count(), 25);
    }
}
