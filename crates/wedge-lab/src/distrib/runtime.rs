//! The tokio runtime a queue command runs on.

use super::error::DistribError;

/// A single-threaded tokio runtime for one queue command (the games run on their own threads).
pub fn runtime() -> Result<tokio::runtime::Runtime, DistribError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| DistribError::Runtime(e.to_string()))
}
