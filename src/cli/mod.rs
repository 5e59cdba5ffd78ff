//! The `wedge` subcommands: each one's arguments (clap) and run function in its own module,
//! all assembling their engine with one [`EngineBuilder`](wedge_engine::EngineBuilder).
//! `main.rs` parses and dispatches.

pub mod bench;
pub mod book;
mod common;
pub mod eval;
pub mod install;
pub mod matches;
pub mod openings;
pub mod perft;
pub mod play;
pub mod probcut;
pub mod queue;
pub mod review;
pub mod selfplay;
pub mod solve;
pub mod tree;
pub mod worker;

pub use common::Common;

use wedge_core::board::Board;
use wedge_engine::BuildError;

/// Why a command failed; printed as `wedge: {error}` with exit status 1.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Build(#[from] BuildError),
    #[error(transparent)]
    Install(#[from] install::InstallError),
    #[error(transparent)]
    Book(#[from] wedge_core::book::BookError),
    #[error(transparent)]
    Forest(#[from] wedge_lab::book::ForestError),
    #[error(transparent)]
    TextBook(#[from] wedge_lab::book::TextError),
    #[error(transparent)]
    BookTool(#[from] wedge_lab::tools::book::BookToolError),
    #[error(transparent)]
    Openings(#[from] wedge_lab::tools::match_runner::openings::OpeningsError),
    #[error(transparent)]
    ProbCutFit(#[from] wedge_lab::tools::probcut_fit::ProbCutFitError),
    #[error(transparent)]
    Train(#[from] wedge_lab::train::TrainError),
    #[error(transparent)]
    Distrib(#[from] wedge_lab::distrib::DistribError),
    #[error(transparent)]
    Selfplay(#[from] wedge_lab::train::selfplay::SelfplayError),
    #[error(transparent)]
    Frontend(#[from] wedge_engine::protocol::FrontendError),
    #[error(transparent)]
    Match(#[from] wedge_lab::tools::match_runner::MatchError),
    #[error(transparent)]
    Gate(#[from] wedge_lab::tools::gate::GateError),
    #[error(transparent)]
    Tree(#[from] wedge_lab::tools::tree::TreeTooLarge),
    #[error(transparent)]
    Protocol(#[from] wedge_lab::tools::match_runner::player::UnknownProtocol),
    #[error("--engine: {0}")]
    EngineEval(#[from] wedge_lab::tools::engine_eval::EngineEvalError),
    /// An I/O failure the library reports as it is.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// Arguments that parse but do not fit together.
    #[error("{0}")]
    Usage(String),
    /// A file that could not be written.
    #[error("writing {}: {source}", path.display())]
    Write {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    /// A library layer that reports its failures as text.
    #[error("{0}")]
    Failed(String),
}

impl From<String> for CliError {
    fn from(message: String) -> CliError {
        CliError::Failed(message)
    }
}

impl From<&str> for CliError {
    fn from(message: &str) -> CliError {
        CliError::Failed(message.to_string())
    }
}

/// The positions of an OBF file, refusing an unreadable file and a file with none.
pub fn read_obf_entries(
    file: &std::path::Path,
) -> Result<Vec<wedge_core::formats::ObfEntry>, CliError> {
    let text = wedge_core::paths::read_text(file)
        .map_err(|e| CliError::Usage(format!("cannot read {}: {e}", file.display())))?;
    let entries = wedge_core::formats::parse_obf_file(&text)
        .map_err(|e| CliError::Usage(format!("{}: {e}", file.display())))?;
    if entries.is_empty() {
        return Err(CliError::Usage(format!(
            "{}: no position in the file",
            file.display()
        )));
    }
    Ok(entries)
}

/// A board string, or else a transcript from the start position.
pub fn parse_board_or_transcript(text: &str) -> Result<Board, CliError> {
    if let Ok(p) = wedge_core::formats::parse_position(text) {
        return Ok(p.board);
    }
    wedge_core::formats::replay_inferring_passes(text)
        .map(|g| g.position().board)
        .map_err(|e| {
            CliError::Usage(format!(
                "{text:?} is neither a board string nor a legal transcript: {e}"
            ))
        })
}

/// Writes `bytes` to `path` atomically.
fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), CliError> {
    wedge_core::paths::write_atomic(path, bytes).map_err(|source| CliError::Write {
        path: path.to_path_buf(),
        source,
    })
}
