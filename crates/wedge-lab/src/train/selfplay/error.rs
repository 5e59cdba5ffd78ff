//! Everything that can stop a self-play run, as one typed error.

use super::record::RecordError;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum SelfplayError {
    #[error("{0}")]
    Record(#[from] RecordError),
    #[error("{0}")]
    Weights(#[from] wedge_core::eval::WeightsError),
    #[error("{0}")]
    ProbCut(#[from] wedge_core::search::ProbCutError),
    #[error("WTHOR games {}: {message}", path.display())]
    Wthor { path: PathBuf, message: String },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("bad settings: {0}")]
    Settings(String),
    #[error("{0}")]
    Table(#[from] wedge_core::search::TableSizeError),
    #[error(
        "{}: batch {index} of another run ({what} differs); use another --out directory",
        path.display()
    )]
    ForeignBatch {
        path: PathBuf,
        index: u64,
        what: &'static str,
    },
    #[error("the search chose {mv}, which is not legal in {position} (a search bug)")]
    EngineMove { mv: String, position: String },
}
