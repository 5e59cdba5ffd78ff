//! The `wedge` command line: parses arguments and dispatches to the library. Nothing else.

use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::time::Instant;
use wedge::board::Board;
use wedge::tools::{bench, perft};

#[derive(Parser)]
#[command(name = "wedge", version, about = "Wedge, an Othello engine", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaves of the game tree from the start position, depth by depth.
    Perft {
        /// Maximum depth (plies), 1..=20.
        #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
        depth: u32,
        /// A pass uses one ply (Aart Bik's convention; the default).
        #[arg(long, conflicts_with = "no_pass_ply")]
        passes_count_as_ply: bool,
        /// A pass uses no ply (Egaroucid's "mode 2").
        #[arg(long)]
        no_pass_ply: bool,
        /// Print only the final depth instead of every depth from 1.
        #[arg(long)]
        only: bool,
    },
    /// Run the fixed benchmark workloads and print nodes, seconds and nodes/s.
    Bench,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft {
            depth,
            no_pass_ply,
            only,
            ..
        }) => {
            let rule = if no_pass_ply {
                perft::PassRule::PassIsFree
            } else {
                perft::PassRule::PassIsPly
            };
            run_perft(depth, rule, only);
            ExitCode::SUCCESS
        }
        Some(Command::Bench) => {
            run_bench();
            ExitCode::SUCCESS
        }
        None => {
            eprintln!("wedge: the console is not built yet; try `wedge --help`");
            ExitCode::FAILURE
        }
    }
}

fn run_perft(depth: u32, rule: perft::PassRule, only: bool) {
    println!(
        "perft from the start position, {} (kernels: moves {}, flips {})",
        match rule {
            perft::PassRule::PassIsPly => "pass = 1 ply",
            perft::PassRule::PassIsFree => "pass = 0 ply",
        },
        wedge::board::movegen::KERNEL,
        wedge::board::flip::KERNEL
    );
    println!(
        "{:>5} {:>20} {:>10} {:>14}",
        "depth", "leaves", "seconds", "leaves/s"
    );
    let first = if only { depth } else { 1 };
    for d in first..=depth {
        let start = Instant::now();
        let n = perft::perft(&Board::START, d, rule);
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

fn run_bench() {
    println!(
        "{:<32} {:>14} {:>10} {:>14}",
        "workload", "nodes", "seconds", "nodes/s"
    );
    let mut total_nodes = 0;
    let mut total_secs = 0.0;
    for r in bench::run_all() {
        println!(
            "{:<32} {:>14} {:>10.3} {:>14.0}",
            r.name,
            r.nodes,
            r.seconds,
            r.nodes_per_second()
        );
        total_nodes += r.nodes;
        total_secs += r.seconds;
    }
    println!(
        "{:<32} {:>14} {:>10.3} {:>14.0}",
        "total",
        total_nodes,
        total_secs,
        total_nodes as f64 / total_secs.max(1e-9)
    );
}
