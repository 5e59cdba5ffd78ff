//! Self-play data for training the evaluation (`wedge selfplay`): games of the engine against
//! itself from varied starts (random openings, positions leaving WTHOR games), every searched
//! position's value and the game's exact final result, in compact, checksummed batch files.
//!
//! - `unit`: the unit of work (a batch id, the seeds derived from it) and the settings;
//! - `openings`: random openings and WTHOR deviations;
//! - `play`: one game and one batch through the public `Searcher` API, on several threads;
//! - `record`: the batch file format, writer and validating reader;
//! - `run`: a resumable run into a directory, with progress;
//! - `reader`: a directory's batch files and training samples;
//! - `stats`: counts and distributions (`--stats`);
//! - `cli`: the subcommand's arguments and the run they ask for.

mod cli;
mod error;
mod openings;
mod play;
mod reader;
mod record;
mod run;
mod stats;
mod unit;

pub use cli::{prepare, SelfplayArgs, SelfplayRun};
pub use error::SelfplayError;
pub use openings::WthorLines;
pub use play::{Model, SelfPlay};
pub use reader::{batch_files, samples, Samples};
pub use record::{
    Batch, BatchHeader, GameRecord, RecordError, RecordErrorKind, SearchedPosition, Start,
    ValueKind, CHECKSUM_LEN, HEADER_LEN, PASS_BYTE,
};
pub use run::{pending_batches, run, RunPlan, RunSummary};
pub use stats::Stats;
pub use unit::{BatchId, Settings};

#[cfg(test)]
mod tests;
