//! Work distribution over NATS JetStream: `wedge worker` processes on any number of machines
//! play self-play batches (`wedge selfplay --queue URL`), value book positions (`wedge book
//! expand --queue URL`) and solve positions (`wedge solve --queue URL`) for the coordinators.
//!
//! - `unit`: the self-play unit message (a batch id with everything it depends on);
//! - `result`: the self-play result message (a batch file's bytes) and its validation;
//! - `message`: the framing and the error the keyed messages below share;
//! - `valuation`: the book-valuation unit (positions with the book each search sees), its
//!   result and the pure function between them;
//! - `solve`: the solve unit (positions and a search setting), its result and its function;
//! - `match_game`: the match-game unit (one game between two engines the worker knows);
//! - `exchange`: publishing keyed units and collecting their answers (resumable, idempotent);
//! - `book_queue`, `solve_queue`, `match_queue`: the book-expansion, solve and match
//!   coordinators on `exchange`;
//! - `setup`: connecting, and the streams, consumer, object store and workers' bucket;
//! - `files`: weights and ProbCut models in the object store by checksum, and a local cache;
//! - `termination`: how often a failing unit is delivered before it is terminated, and the
//!   record of why that its coordinator and `wedge queue status` read;
//! - `worker`: `wedge worker`, which takes units, plays or values them and publishes their
//!   results;
//! - `coordinator`: `wedge selfplay --queue`, which publishes units and writes their results;
//! - `status`: `wedge queue status`;
//! - `error`: what can go wrong, as one typed error.

pub mod book_queue;
pub mod coordinator;
pub mod error;
pub mod exchange;
pub mod files;
pub mod match_game;
pub mod match_queue;
pub mod message;
pub mod result;
pub mod setup;
pub mod solve;
pub mod solve_queue;
pub mod status;
pub mod termination;
pub mod unit;
pub mod valuation;
pub mod worker;

pub use coordinator::run_selfplay_on_queue;
pub use error::{DistribError, ObjectError};
pub use unit::SelfplayUnit;

/// A single-threaded tokio runtime for one queue command (the games run on their own threads).
pub fn runtime() -> Result<tokio::runtime::Runtime, DistribError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| DistribError::Runtime(e.to_string()))
}
