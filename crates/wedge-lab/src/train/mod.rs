//! The trainer: game records in (WTHOR, GGF, transcripts), labelled positions (exact solves
//! near the end, theoretical scores or results before), a regularised least-squares fit of the
//! pattern weights by multi-threaded Adam with per-epoch checkpoints, and the weights file out;
//! plus the evaluation error on an OBF file (`evaluate`, for `wedge eval`), the held-out test
//! set and self-play data (`selfplay`).
//!
//! Entry points for the command line: [`TrainArgs`] / [`run_train`] and
//! [`selfplay::SelfplayArgs`] / [`selfplay::prepare`].

mod checkpoint;
mod cli;
mod dataset;
mod evaluate;
mod fit;
mod games;
mod heldout;
mod label;
mod progress;
pub mod selfplay;
mod selfplay_samples;

pub use cli::{run_train, TrainArgs};
pub use dataset::{CacheError, LabelledPosition};
pub use evaluate::{evaluate_entries, format_error_table, Evaluated};
pub use fit::{encode_all, fit, FitConfig, StartWeightsError};
pub use games::{read_wthor_file, GameRecord};
pub use label::{label_games, LabelConfig};
pub use progress::Progress;

/// Why training, evaluation or building a data set failed.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error(transparent)]
    Games(#[from] wedge_core::formats::GameFileError),
    #[error(transparent)]
    Cache(#[from] dataset::CacheError),
    #[error(transparent)]
    Weights(#[from] wedge_core::eval::WeightsError),
    #[error(transparent)]
    Build(#[from] wedge_engine::BuildError),
    #[error(transparent)]
    Selfplay(#[from] selfplay::SelfplayError),
    /// The system refuses the labelling tables of `--hash-mb`.
    #[error(transparent)]
    Table(#[from] wedge_core::search::TableSizeError),
    /// The weights a fit was asked to start from (`--init`) do not fit the trainer.
    #[error("{}: {source}", path.display())]
    StartWeights {
        path: std::path::PathBuf,
        source: fit::StartWeightsError,
    },
    /// Inputs or settings that do not fit, said in words.
    #[error("{0}")]
    Invalid(String),
}

impl From<String> for TrainError {
    fn from(message: String) -> TrainError {
        TrainError::Invalid(message)
    }
}

impl From<&str> for TrainError {
    fn from(message: &str) -> TrainError {
        TrainError::Invalid(message.to_string())
    }
}
