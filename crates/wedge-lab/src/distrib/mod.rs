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

mod book_queue;
mod coordinator;
mod error;
mod exchange;
mod files;
mod match_game;
mod match_queue;
mod message;
mod result;
mod runtime;
mod setup;
mod solve;
mod solve_queue;
mod status;
mod termination;
mod unit;
mod valuation;
mod worker;

pub use book_queue::QueueValuer;
pub use coordinator::run_selfplay_on_queue;
pub use error::{DistribError, ObjectError};
pub use exchange::{result_subject, KeyedUnit};
pub use files::{default_cache_dir, upload as upload_model, weights_name};
pub use match_game::{valid_name as valid_engine_name, QueuedEngine, QueuedSide, SolverChecksums};
pub use match_queue::QueueGames;
pub use runtime::runtime;
pub use setup::{connect, Queue};
pub use solve::{result_to_bytes as solve_result_to_bytes, SolveUnit};
pub use solve_queue::{solve as solve_on_queue, QueueSolve};
pub use status::status as queue_status;
pub use termination::MAX_DELIVERIES;
pub use unit::{SelfplayUnit, MAGIC as SELFPLAY_UNIT_MAGIC};
pub use valuation::{result_from_bytes as valuation_result_from_bytes, ValuationUnit};
pub use worker::{default_name as default_worker_name, run as run_worker, WorkerOptions};
