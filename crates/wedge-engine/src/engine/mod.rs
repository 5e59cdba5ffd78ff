//! The engine worker: one thread that owns the search. Requests go in ([`Task`]), events come
//! out ([`Event`]: progress per iteration, candidate lists, analysed positions, the final
//! result); a shared stop flag ends the running task at once. Tasks run one at a time, in the
//! order given; which one runs is the caller's record (the protocol driver's), not the engine's.
//! While no task waits, the worker learns the games waiting for the user's book, and the next
//! task stops that at once.
//! This is the only API the protocols use; it knows nothing about who asked or how the answer
//! is printed.

mod books;
mod builder;
mod candidates;
mod handle;
mod limits;
mod searcher_size;
mod task;
mod worker;

pub use books::{offered_moves, BookSetting, LearnFailure, OfferedMove};
pub use builder::{BookOptions, BuildError, EngineBuilder};
pub use candidates::{candidate_schedule, ScoredRootMove};
pub use handle::{Engine, WorkerGone};
pub use limits::{limits_for_depth, limits_for_play, EXACT_MARGIN, WLD_MARGIN};
pub use searcher_size::SearcherSize;
pub use task::{BookMove, Event, EventSink, JobId, Outcome, Task};
pub use worker::EngineOptions;
