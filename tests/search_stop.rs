//! Stop latency: a running search returns its move soon after the stop flag is set, in the
//! midgame and in an exact solve, with one and two threads. Each case takes the median of
//! several trials so a single preemption of this shared machine does not decide it, and
//! another round of trials when a spell of them does.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use wedge::board::Board;
use wedge::eval::heuristic::Heuristic;
use wedge::formats::parse_position;
use wedge::search::{Limits, Searcher, SolveMode};

/// Starts `limits` on `board`, stops it after `after`, returns the time from stop to return.
fn latency(board: Board, limits: Limits, threads: usize, after: Duration) -> Duration {
    let searcher = Searcher::new(Arc::new(Heuristic), 16, threads);
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = std::sync::mpsc::channel();
    let flag = stop.clone();
    let worker = std::thread::spawn(move || {
        let r = searcher.search(&board, &limits, &flag, &mut |_| {});
        tx.send(Instant::now()).unwrap();
        r
    });
    std::thread::sleep(after);
    let stopped_at = Instant::now();
    stop.store(true, Ordering::Relaxed);
    let returned_at = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("search returned");
    let report = worker.join().unwrap();
    assert!(board.legal_moves() & report.best.square().unwrap().bit() != 0);
    returned_at.saturating_duration_since(stopped_at)
}

fn median_latency(board: Board, limits: Limits, threads: usize) -> Duration {
    let mut v: Vec<Duration> = (0..5)
        .map(|i| latency(board, limits, threads, Duration::from_millis(60 + 20 * i)))
        .collect();
    v.sort();
    println!("latencies {v:?}");
    v[2]
}

/// The median latency of up to three rounds of trials, until one is within 5 ms. On a shared
/// virtual machine the hypervisor may hold back a CPU for a few milliseconds at a time for a
/// while (a whole round of a two-thread search then waits for its helper); a search that polls
/// its stop flag too rarely fails every round.
fn assert_stops_within_5_ms(what: &str, board: Board, limits: Limits, threads: usize) {
    let limit = Duration::from_millis(5);
    let mut medians = Vec::new();
    for round in 0..3 {
        if round > 0 {
            std::thread::sleep(Duration::from_millis(500));
        }
        let m = median_latency(board, limits, threads);
        medians.push(m);
        if m <= limit {
            return;
        }
    }
    panic!("{what}, {threads} threads: median latencies of three rounds {medians:?}");
}

#[test]
fn stop_returns_within_5_ms() {
    // FFO #61 (25 empties) solved exactly and a deep midgame search both run far longer
    // than the trials.
    let endgame =
        parse_position("-XXXX---X-XXOX--XXXXOXX-XOOXOOOOXOOOOOO-XXOOOO--X---O----------- O")
            .unwrap()
            .board;
    for threads in [1, 2] {
        assert_stops_within_5_ms("midgame", Board::START, Limits::depth(40), threads);
        assert_stops_within_5_ms("endgame", endgame, Limits::solve(SolveMode::Exact), threads);
    }
}
