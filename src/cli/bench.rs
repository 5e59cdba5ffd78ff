//! `wedge bench`: the fixed benchmark workloads (nodes, seconds, nodes/s), the midgame at
//! play's selectivity, and stop latency.

use super::{CliError, Common};
use clap::Args;
use wedge_lab::tools::bench;

/// `wedge bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Also report the depth reached from a few openings in 1 s and 10 s.
    #[arg(long)]
    pub timed: bool,
}

/// Runs the workloads on one thread, then measures stop latency with one and two threads.
pub fn run(common: &Common, args: &BenchArgs) -> Result<(), CliError> {
    let builder = common.builder();
    let searcher = builder.with_threads(1).searcher()?;
    let row = |name: &str, nodes: u64, secs: f64, rate: f64| {
        println!("{name:<32} {nodes:>14} {secs:>10.3} {rate:>14.0}")
    };
    println!(
        "{:<32} {:>14} {:>10} {:>14}",
        "workload", "nodes", "seconds", "nodes/s"
    );
    let (mut total_nodes, mut total_secs) = (0, 0.0);
    for r in bench::run_all(&searcher) {
        row(r.name, r.nodes, r.seconds, r.nodes_per_second());
        total_nodes += r.nodes;
        total_secs += r.seconds;
    }
    let rate = total_nodes as f64 / total_secs.max(1e-9);
    row("total", total_nodes, total_secs, rate);
    // At play's selectivity: the time to reach each depth (the first is part of the second).
    for r in bench::play_workload(&searcher) {
        row(r.name, r.nodes, r.seconds, r.nodes_per_second());
    }
    // How soon a running search returns once stopped, with one and two threads.
    let mut latencies = Vec::new();
    for threads in [1, 2] {
        let searcher = builder.with_threads(threads).searcher()?;
        for (name, d) in bench::stop_latencies(&searcher) {
            latencies.push(format!(
                "{name} {threads} thread{} {:.2} ms",
                if threads == 1 { "" } else { "s" },
                d.as_secs_f64() * 1000.0
            ));
        }
    }
    println!(
        "stop latency (median of {}): {}",
        bench::STOP_LATENCY_TRIALS,
        latencies.join(", ")
    );
    if args.timed {
        for secs in [1, 10] {
            let depths = bench::depth_in_time(&searcher, std::time::Duration::from_secs(secs));
            let text: Vec<String> = depths.iter().map(|(n, d)| format!("{n} {d}")).collect();
            println!("depth reached in {secs} s: {}", text.join(", "));
        }
    }
    Ok(())
}
