//! Work distribution over NATS JetStream: self-play batches played by `wedge worker` processes
//! on any number of machines and collected by a coordinator (`wedge selfplay --queue URL`);
//! workers also value book positions (valuation units; their coordinator, `wedge book expand
//! --queue`, is still to come).
//!
//! - `unit`: the work unit message (a self-play batch id with everything it depends on);
//! - `result`: the result message (a batch file's bytes) and its validation;
//! - `valuation`: the book-valuation unit (positions with the book each search sees), its
//!   result and the pure function between them;
//! - `setup`: connecting, and the streams, consumer, object store and workers' bucket;
//! - `files`: weights and ProbCut models in the object store by checksum, and a local cache;
//! - `worker`: `wedge worker`, which takes units, plays or values them and publishes their
//!   results;
//! - `coordinator`: `wedge selfplay --queue`, which publishes units and writes their results;
//! - `status`: `wedge queue status`;
//! - `error`: what can go wrong, as one typed error.

pub mod book_queue;
pub mod coordinator;
pub mod error;
pub mod files;
pub mod result;
pub mod setup;
pub mod status;
pub mod unit;
pub mod valuation;
pub mod worker;

pub use error::{DistribError, ObjectError};
pub use unit::SelfplayUnit;

/// A single-threaded tokio runtime for one queue command (the games run on their own threads).
pub fn runtime() -> Result<tokio::runtime::Runtime, DistribError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| DistribError::Runtime(e.to_string()))
}
