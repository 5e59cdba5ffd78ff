//! The trainer's errors: why training, evaluation or building a data set failed, and why
//! a weights file cannot start a fit.

/// Why training, evaluation or building a data set failed.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error(transparent)]
    Games(#[from] wedge_core::formats::GameFileError),
    #[error(transparent)]
    Cache(#[from] super::dataset::CacheError),
    #[error(transparent)]
    Weights(#[from] wedge_core::eval::WeightsError),
    #[error(transparent)]
    Build(#[from] wedge_engine::BuildError),
    #[error(transparent)]
    Selfplay(#[from] super::selfplay::SelfplayError),
    /// The system refuses the labelling tables of `--hash-mb`.
    #[error(transparent)]
    Table(#[from] wedge_core::search::TableSizeError),
    /// The weights a fit was asked to start from (`--init`) do not fit the trainer.
    #[error("{}: {source}", path.display())]
    StartWeights {
        path: std::path::PathBuf,
        source: StartWeightsError,
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

/// Why a weights file cannot start a fit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StartWeightsError {
    #[error("the weights' pattern tables are not this trainer's")]
    Tables,
    #[error("{found} weights at scale {scale}, expected {expected} for {phases} phases")]
    Size {
        found: usize,
        scale: u32,
        expected: usize,
        phases: usize,
    },
}
