//! The options every subcommand takes, and the engine builder they make.

use clap::Args;
use std::path::PathBuf;
use wedge_engine::{BookOptions, EngineBuilder};

/// Options shared by every subcommand.
#[derive(Args, Clone)]
pub struct Common {
    /// Search threads (default: every core in play, `nboard`, `gtp` and the console; 1 in the
    /// tools; `wedge train` and `wedge selfplay` use every core unless given).
    #[arg(long, global = true, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Transposition table size in MB.
    #[arg(long, global = true, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// Evaluation weights file (default: weights/default.wts).
    #[arg(long, global = true)]
    pub weights: Option<PathBuf>,
    /// Multi-ProbCut model file (default: the one beside the weights).
    #[arg(long, global = true)]
    pub probcut: Option<PathBuf>,
    /// Weights that guide solves without a clock, their ProbCut model beside them (default:
    /// solver.wts beside the weights when present, else the weights themselves). Exact
    /// results do not depend on them, only the time to reach them.
    #[arg(long, global = true)]
    pub solver_weights: Option<PathBuf>,
    /// The ProbCut model of the solver's weights (default: the one beside them).
    #[arg(long, global = true)]
    pub solver_probcut: Option<PathBuf>,
    /// Opening book file (default: books/default.book when present).
    #[arg(long, global = true)]
    pub book: Option<PathBuf>,
    /// Play and search without the opening book.
    #[arg(long, global = true, conflicts_with = "book")]
    pub no_book: bool,
    /// Skip the checksum of the book's table when opening it (huge books verified before).
    #[arg(long, global = true)]
    pub book_trust: bool,
    /// Book moves losing at most this many discs against the best may be chosen (weighted
    /// toward the best; never a solved loss). 0 = always the best.
    #[arg(long, global = true, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub book_randomness: u32,
    /// Seed of the random book choices, to repeat them (default: a new seed in every process).
    #[arg(long, global = true)]
    pub book_seed: Option<u64>,
    /// The user's book, where games learned from a GUI (NBoard's `learn`) are stored; it adds
    /// what the shipped book lacks (default: $XDG_DATA_HOME/wedge/learned.book, else
    /// ~/.local/share/wedge/learned.book).
    #[arg(long, global = true, conflicts_with = "no_book")]
    pub learn_book: Option<PathBuf>,
    /// Log level on stderr: off, error, warn, info, debug or trace (default: RUST_LOG, else
    /// warn).
    #[arg(long, global = true)]
    pub log: Option<String>,
}

impl Common {
    /// Search threads for the tools: `--threads`, else 1.
    pub fn threads(&self) -> usize {
        self.threads.unwrap_or(1) as usize
    }

    /// Search threads for play over a protocol: `--threads`, else every core (at most 256,
    /// as `--threads` allows).
    pub fn play_threads(&self) -> usize {
        self.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get().min(256)),
            |t| t as usize,
        )
    }

    /// The engine these options describe.
    pub fn builder(&self) -> EngineBuilder {
        EngineBuilder {
            weights: self.weights.clone(),
            probcut: self.probcut.clone(),
            solver_weights: self.solver_weights.clone(),
            solver_probcut: self.solver_probcut.clone(),
            hash_mb: self.hash as usize,
            threads: self.threads(),
            book: BookOptions {
                path: self.book.clone(),
                disabled: self.no_book,
                trust: self.book_trust,
                randomness: self.book_randomness,
                seed: self.book_seed,
                learn_book: self.learn_book.clone(),
            },
            ponder: false,
        }
    }
}

#[cfg(feature = "lab")]
/// The weights a queue's workers are sent (read once: their bytes go to the object store) and
/// the model whose checksums name the units.
pub fn queue_model(
    builder: &EngineBuilder,
) -> Result<(wedge_core::eval::Weights, wedge_lab::train::selfplay::Model), wedge_engine::BuildError>
{
    use wedge_engine::BuildError;
    let path = builder.weights_path()?;
    let weights = wedge_core::eval::Weights::load(&path).map_err(BuildError::from)?;
    let model = wedge_lab::train::selfplay::Model::new(&weights, builder.probcut()?)
        .map_err(|k| BuildError::from(wedge_core::eval::WeightsError::new(&path, k)))?;
    Ok((weights, model))
}
