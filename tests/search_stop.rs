//! A running search stops when its stop flag is set: in the midgame and in an exact solve, with
//! one and two threads, it returns a legal move well within a generous bound. How soon it
//! returns is a measurement, not a test: `wedge bench` prints the stop latency.

use std::sync::Arc;
use std::time::Duration;
use wedge_core::board::Board;
use wedge_core::eval::Heuristic;
use wedge_core::formats::parse_position;
use wedge_core::search::{Limits, Searcher, SolveMode};
use wedge_lab::tools::bench::{stop_latency, STOP_LATENCY_ENDGAME};

/// Far longer than a stop takes, even on a loaded machine; the searches themselves would run
/// for hours.
const BOUND: Duration = Duration::from_secs(2);

#[test]
fn a_stopped_search_returns_a_legal_move() {
    let endgame = parse_position(STOP_LATENCY_ENDGAME).unwrap().board;
    for threads in [1, 2] {
        let searcher = Searcher::new(Arc::new(Heuristic), 16, threads);
        for (what, board, limits) in [
            ("midgame", Board::START, Limits::depth(40)),
            ("endgame", endgame, Limits::solve(SolveMode::Exact)),
        ] {
            let (latency, report) =
                stop_latency(&searcher, &board, &limits, Duration::from_millis(100));
            assert!(
                latency < BOUND,
                "{what}, {threads} threads: returned {latency:?} after the stop"
            );
            let best = report.best.square().expect("a move, not a pass");
            assert_ne!(board.legal_moves() & best.bit(), 0, "{what}: {report:?}");
        }
    }
}
