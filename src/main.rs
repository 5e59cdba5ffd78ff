//! The `wedge` command line: parses arguments and dispatches to the subcommands' modules
//! (`crate::cli`, `wedge_lab::train`). Nothing else. The lab's subcommands come with the
//! feature `lab` (on by default); without it `wedge` plays only.

mod cli;

#[cfg(feature = "lab")]
use crate::cli::{
    bench, book, eval, matches, openings, perft, probcut, queue, review, selfplay, solve, tree,
    worker,
};
use crate::cli::{install, play, CliError, Common};
use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "wedge", version, about = "Wedge, an Othello engine", long_about = None)]
struct Cli {
    #[command(flatten)]
    common: Common,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// The human console (also what `wedge` alone starts).
    Console(play::ConsoleArgs),
    /// Speak the NBoard protocol (version 2) on stdin/stdout, for the NBoard GUI.
    Nboard(play::NboardArgs),
    /// Speak GTP version 2 on stdin/stdout, for Quarry, GoGui and scripts.
    Gtp(play::GtpArgs),
    #[cfg(feature = "lab")]
    /// Count leaves of the game tree from the start position, depth by depth.
    Perft(perft::PerftArgs),
    #[cfg(feature = "lab")]
    /// Solve or search every position of an OBF file and check the answers it carries.
    Solve(solve::SolveArgs),
    #[cfg(feature = "lab")]
    /// Write the search tree of a position as one self-contained HTML file.
    Tree(tree::TreeArgs),
    #[cfg(feature = "lab")]
    /// Fit the Multi-ProbCut error model for the evaluation in use and write it.
    TrainProbcut(probcut::TrainProbcutArgs),
    #[cfg(feature = "lab")]
    /// Review games move by move: each move's value against the best, each side's mistakes
    /// and blunders, where the result was decided (a table, `--json`, an HTML page).
    Review(review::ReviewArgs),
    #[cfg(feature = "lab")]
    /// Train the pattern evaluation weights on game records.
    Train(wedge_lab::train::TrainArgs),
    #[cfg(feature = "lab")]
    /// Evaluate the positions of an OBF file (static or to a depth) and report the errors.
    Eval(eval::EvalArgs),
    #[cfg(feature = "lab")]
    /// Play the engine against itself and record every position's value and the exact final
    /// result for training (resumable), or print what a directory holds (`--stats DIR`).
    Selfplay(wedge_lab::train::selfplay::SelfplayArgs),
    #[cfg(feature = "lab")]
    /// Run the fixed benchmark workloads and print nodes, seconds and nodes/s.
    Bench(bench::BenchArgs),
    #[cfg(feature = "lab")]
    /// Play a match between two engines speaking NBoard or GTP (Elo, SPRT, GGF records).
    Match(matches::MatchArgs),
    #[cfg(feature = "lab")]
    /// New weights against the current ones: SPRT matches at a fixed depth and on equal
    /// clocks; exits 0 only when both accept the new weights.
    Gate(wedge_lab::tools::gate::GateArgs),
    #[cfg(feature = "lab")]
    /// Generate balanced openings (random openings our search values near 0).
    Openings(openings::OpeningsArgs),
    #[cfg(feature = "lab")]
    /// Build, inspect and convert the opening book (`--book FILE` says which).
    #[command(subcommand)]
    Book(book::BookCommand),
    #[cfg(feature = "lab")]
    /// Play the units of a NATS JetStream queue (`--queue nats://HOST:PORT`) until SIGTERM.
    Worker(worker::WorkerArgs),
    #[cfg(feature = "lab")]
    /// Look at a NATS JetStream work queue.
    #[command(subcommand)]
    Queue(queue::QueueCommand),
    /// Install this executable, the weights and the book for GUIs (under ~/.local by default).
    Install(install::InstallArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let common = cli.common;
    // Every command honours --log (the tools log their progress at debug level).
    if let Err(e) = wedge_engine::protocol::init_logging(common.log.as_deref()) {
        eprintln!("wedge: {e}");
        return ExitCode::from(2);
    }
    match run(&common, cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wedge: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs one command; `None` is the console.
fn run(common: &Common, command: Option<Command>) -> Result<(), CliError> {
    match command {
        None => play::run_console(common, None),
        Some(Command::Console(args)) => play::run_console(common, Some(&args)),
        Some(Command::Nboard(args)) => play::run_nboard(common, &args),
        Some(Command::Gtp(args)) => play::run_gtp(common, &args),
        #[cfg(feature = "lab")]
        Some(Command::Perft(args)) => {
            perft::run(&args);
            Ok(())
        }
        #[cfg(feature = "lab")]
        Some(Command::Solve(args)) => solve::run(common, &args),
        #[cfg(feature = "lab")]
        Some(Command::Tree(args)) => tree::run(common, &args),
        #[cfg(feature = "lab")]
        Some(Command::Review(args)) => review::run(common, &args),
        #[cfg(feature = "lab")]
        Some(Command::TrainProbcut(args)) => probcut::run(common, &args),
        #[cfg(feature = "lab")]
        Some(Command::Train(mut args)) => {
            args.threads = common.threads.map(|t| t as usize);
            Ok(wedge_lab::train::run_train(&args)?)
        }
        #[cfg(feature = "lab")]
        Some(Command::Eval(args)) => eval::run(common, &args),
        #[cfg(feature = "lab")]
        Some(Command::Selfplay(mut args)) => {
            args.threads = common.threads.map(|t| t as usize);
            selfplay::run(common, &args)
        }
        #[cfg(feature = "lab")]
        Some(Command::Bench(args)) => bench::run(common, &args),
        #[cfg(feature = "lab")]
        Some(Command::Match(args)) => matches::run_match(common, &args),
        #[cfg(feature = "lab")]
        Some(Command::Gate(args)) => matches::run_gate_command(&args),
        #[cfg(feature = "lab")]
        Some(Command::Openings(args)) => openings::run(common, &args),
        #[cfg(feature = "lab")]
        Some(Command::Book(cmd)) => book::run_book(common, cmd),
        #[cfg(feature = "lab")]
        Some(Command::Worker(args)) => worker::run(common, &args),
        #[cfg(feature = "lab")]
        Some(Command::Queue(cmd)) => queue::run(&cmd),
        Some(Command::Install(args)) => Ok(install::run(&args)?),
    }
}
