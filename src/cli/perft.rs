//! `wedge perft`: leaves of the game tree from the start position, depth by depth.

use clap::Args;
use std::time::Instant;
use wedge_core::board::Board;
use wedge_lab::tools::perft::{perft, PassRule};

/// `wedge perft`.
#[derive(Args)]
pub struct PerftArgs {
    /// Maximum depth (plies), 1..=20.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// A pass uses one ply (Aart Bik's convention; the default).
    #[arg(long, conflicts_with = "no_pass_ply")]
    pub passes_count_as_ply: bool,
    /// A pass uses no ply (Egaroucid's "mode 2").
    #[arg(long)]
    pub no_pass_ply: bool,
    /// Print only the final depth instead of every depth from 1.
    #[arg(long)]
    pub only: bool,
}

/// Prints the leaves at each depth with the time taken.
pub fn run(args: &PerftArgs) {
    let rule = if args.no_pass_ply {
        PassRule::PassIsFree
    } else {
        PassRule::PassIsPly
    };
    println!(
        "perft from the start position, {} (kernels: moves {}, flips {})",
        match rule {
            PassRule::PassIsPly => "pass = 1 ply",
            PassRule::PassIsFree => "pass = 0 ply",
        },
        wedge_core::board::movegen::KERNEL,
        wedge_core::board::flip::KERNEL
    );
    println!(
        "{:>5} {:>20} {:>10} {:>14}",
        "depth", "leaves", "seconds", "leaves/s"
    );
    let first = if args.only { args.depth } else { 1 };
    for d in first..=args.depth {
        let start = Instant::now();
        let n = perft(&Board::START, d, rule);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{:>5} {:>20} {:>10.3} {:>14.0}",
            d,
            n,
            secs,
            n as f64 / secs.max(1e-9)
        );
    }
}
