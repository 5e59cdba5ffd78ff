//! Everything that can stop a queue command, as one typed error, and what can be wrong with
//! an object (a fetched file or a result).

use crate::train::selfplay::{RecordErrorKind, SelfplayError};
use wedge_core::eval::WeightsErrorKind;
use wedge_core::search::ProbCutError;

#[derive(Debug, thiserror::Error)]
pub enum DistribError {
    /// The server could not be reached or refused the connection.
    #[error(
        "cannot connect to the queue at {url}: {message} (is `nats-server -js` running there?)"
    )]
    Connect { url: String, message: String },
    /// A JetStream request failed: what we were doing and the server's or client's answer.
    #[error("queue: {what}: {message}")]
    Nats { what: String, message: String },
    /// A file from the object store, or a result, that is not what its name says.
    #[error("object {name}: {source}")]
    Object { name: String, source: ObjectError },
    /// A file a unit names that the object store does not hold.
    #[error(
        "object {name} is not in the object store (coordinators upload what their units name \
         before queuing them: was the store emptied since?)"
    )]
    MissingObject { name: String },
    /// A unit this worker cannot run (an engine it was not given, a table larger than its
    /// memory); another worker may.
    #[error("{0}")]
    Unable(String),
    /// Units a coordinator waited for were terminated by the workers: which, and why.
    #[error("{0}")]
    Terminated(String),
    #[error("{0}")]
    Selfplay(#[from] SelfplayError),
    #[error("{}: {source}", path.display())]
    Io {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("cannot start the async runtime: {0}")]
    Runtime(String),
    /// Arguments that parse but cannot be served by the queue.
    #[error("{0}")]
    Usage(String),
}

/// What is wrong with an object: a weights file, a ProbCut model or a result's batch.
#[derive(Debug, thiserror::Error)]
pub enum ObjectError {
    #[error(transparent)]
    Weights(#[from] WeightsErrorKind),
    #[error("not UTF-8 text")]
    NotText,
    #[error(transparent)]
    ProbCut(#[from] ProbCutError),
    /// The checksum of the contents is not the one the object's name gives.
    #[error("checksum {found:016x}, expected {expected:016x}")]
    Checksum { found: u64, expected: u64 },
    #[error("the loaded model's checksums differ from its name")]
    ModelChecksums,
    #[error(transparent)]
    Batch(#[from] RecordErrorKind),
    #[error("the batch header is not the unit's (batch {index} of run {run_seed})")]
    ForeignBatch { index: u64, run_seed: u64 },
    #[error("{found} games, the unit asked for {expected}")]
    GameCount { found: usize, expected: u32 },
    /// WTHOR lines that do not replay.
    #[error("WTHOR lines: {0}")]
    Lines(String),
}

/// Maps a client error to [`DistribError::Nats`] with what we were doing.
pub(crate) fn nats<E: std::fmt::Display>(
    what: impl Into<String>,
) -> impl FnOnce(E) -> DistribError {
    let what = what.into();
    move |e| DistribError::Nats {
        what,
        message: e.to_string(),
    }
}
