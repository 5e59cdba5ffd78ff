//! The trainer: game records in (WTHOR, GGF, transcripts), labelled positions (exact solves
//! near the end, theoretical scores or results before), a regularised least-squares fit of the
//! pattern weights by multi-threaded Adam with per-epoch checkpoints, and the weights file out;
//! plus the evaluation error on an OBF file (`evaluate`, for `wedge eval`), the held-out test
//! set and self-play data (`selfplay`).
//!
//! Entry points for the command line: [`TrainArgs`] / [`run_train`] and
//! [`selfplay::SelfplayArgs`] / [`selfplay::prepare`].

mod arg_values;
mod checkpoint;
mod cli;
mod dataset;
mod error;
mod evaluate;
mod fit;
mod games;
mod heldout;
mod label;
mod label_cache;
mod progress;
pub mod selfplay;
mod selfplay_samples;

pub use cli::{run_train, training_samples, TrainArgs};
pub use dataset::{CacheError, LabelledPosition};
pub use error::{StartWeightsError, TrainError};
pub use evaluate::{evaluate_entries, format_error_table, Evaluated};
pub use fit::{encode_all, fit, FitConfig};
pub use games::{read_wthor_file, GameRecord};
pub use label::{label_games, LabelConfig};
pub use label_cache::SolvedLabels;
pub use progress::Progress;
