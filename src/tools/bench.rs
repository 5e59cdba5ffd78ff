//! `wedge bench`: fixed, deterministic workloads printing nodes, seconds and nodes per second.
//! Each workload is a pure function of its inputs so node counts repeat exactly across runs.

use crate::board::Board;
use crate::tools::perft::{perft, PassRule};
use std::time::Instant;

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
pub fn measure(name: &'static str, f: impl FnOnce() -> u64) -> BenchResult {
    let start = Instant::now();
    let nodes = f();
    BenchResult {
        name,
        nodes,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// The move-generation workload: perft 10 from the start (pass = 1 ply), 24,571,284 leaves.
pub fn movegen_workload() -> BenchResult {
    measure("perft 10 (move generation)", || {
        perft(&Board::START, 10, PassRule::PassIsPly)
    })
}

/// All workloads, in order.
pub fn run_all() -> Vec<BenchResult> {
    vec![movegen_workload()]
}
