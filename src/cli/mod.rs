//! The `wedge` subcommands: each one's arguments (clap) and run function in its own module,
//! all assembling their engine with one [`EngineBuilder`](wedge_engine::EngineBuilder).
//! `main.rs` parses and dispatches.

// Play: the engine crate alone.
mod common;
pub mod install;
pub mod play;

// The lab's commands (feature `lab`, on by default).
#[cfg(feature = "lab")]
pub mod bench;
#[cfg(feature = "lab")]
pub mod book;
#[cfg(feature = "lab")]
pub mod eval;
#[cfg(feature = "lab")]
pub mod matches;
#[cfg(feature = "lab")]
pub mod openings;
#[cfg(feature = "lab")]
pub mod perft;
#[cfg(feature = "lab")]
pub mod probcut;
#[cfg(feature = "lab")]
pub mod queue;
#[cfg(feature = "lab")]
pub mod review;
#[cfg(feature = "lab")]
pub mod selfplay;
#[cfg(feature = "lab")]
pub mod solve;
#[cfg(feature = "lab")]
pub mod tree;
#[cfg(feature = "lab")]
pub mod worker;

pub use common::Common;

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
    #[cfg(feature = "lab")]
    #[error(transparent)]
    Forest(#[from] wedge_lab::book::ForestError),
    #[cfg(feature = "lab")]
    #[error(transparent)]
    TextBook(#[from] wedge_lab::book::TextError),
    #[cfg(feature = "lab")]
    #[error(transparent)]
    BookTool(#[from] wedge_lab::tools::book::BookToolError),
    #[cfg(feature = "lab")]
    #[error(transparent)]
    Openings(#[from] wedge_lab::tools::match_runner::openings::OpeningsError),
    #[cfg(feature = "lab")]
    #[error(transparent)]
    ProbCutFit(#[from] wedge_lab::tools::probcut_fit::ProbCutFitError),
    #[cfg(feature = "lab")]
    #[error(transparent)]
    Train(#[from] wedge_lab::train::TrainError),
    #[cfg(feature = "lab")]
    #[error(transparent)]
    Distrib(#[from] wedge_lab::distrib::DistribError),
    #[cfg(feature = "lab")]
    #[error(transparent)]
    Selfplay(#[from] wedge_lab::train::selfplay::SelfplayError),
    #[error(transparent)]
    Frontend(#[from] wedge_engine::protocol::FrontendError),
    #[cfg(feature = "lab")]
    #[error(transparent)]
    Match(#[from] wedge_lab::tools::match_runner::MatchError),
    #[cfg(feature = "lab")]
    #[error(transparent)]
    Gate(#[from] wedge_lab::tools::gate::GateError),
    #[cfg(feature = "lab")]
    #[error(transparent)]
    Tree(#[from] wedge_lab::tools::tree::TreeTooLarge),
    #[cfg(feature = "lab")]
    #[error(transparent)]
    Protocol(#[from] wedge_lab::tools::match_runner::UnknownProtocol),
    #[cfg(feature = "lab")]
    #[error("--engine: {0}")]
    EngineEval(#[from] wedge_lab::tools::engine_eval::EngineEvalError),
    /// An I/O failure the library reports as it is.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// Arguments that parse but do not fit together.
    #[cfg(feature = "lab")]
    #[error("{0}")]
    Usage(String),
    /// A file that could not be written.
    #[cfg(feature = "lab")]
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

#[cfg(feature = "lab")]
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

#[cfg(feature = "lab")]
/// A board string, or else a transcript from the start position.
pub fn parse_board_or_transcript(text: &str) -> Result<wedge_core::board::Board, CliError> {
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

#[cfg(feature = "lab")]
/// Writes `bytes` to `path` atomically.
fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), CliError> {
    wedge_core::paths::write_atomic(path, bytes).map_err(|source| CliError::Write {
        path: path.to_path_buf(),
        source,
    })
}
