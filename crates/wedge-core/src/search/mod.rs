//! The search: midgame principal-variation search with iterative deepening and aspiration, the
//! exact endgame solver, the shared transposition table, move ordering, time limits and
//! several threads. It depends on the board and the `Evaluator` interface only, never on who
//! asked. Callers use only what this file exports: [`Searcher`] (with [`Limits`] in,
//! [`Report`] out), [`FixedDepth`] for depth-limited values, [`solve_root`], the table, the
//! ProbCut model and the book [`SearchValuer`].
//!
//! The modules, in dependency order (each uses only those before it): `limits`, `tt_memory`,
//! `tt`, `position_slots`, `end_cache`, `eval_cache`, `stability`, `probcut` (the model), `load`, `ordering` (every choice of
//! move order: the move picker, whose ordering searches the node search runs for it through
//! `ordering::OrderingSearch`), `parallel::pool` (split points and the pool of threads, without
//! the search), `context` (a thread's state), `last_moves` (the solvers of the last empties),
//! `node` (the node search, its midgame and endgame phases), `parallel` (the parallel search:
//! split points opened and joined), `root` (iterative deepening, aspiration, the solve's
//! passes), `searcher` (the entry points: [`Searcher`], [`FixedDepth`], [`solve_root`]); `valuer`
//! uses the `Searcher`.

mod context;
mod end_cache;
mod eval_cache;
mod last_moves;
mod limits;
mod load;
mod node;
mod ordering;
mod parallel;
mod position_slots;
mod probcut;
mod root;
mod score;
mod searcher;
mod stability;
mod tt;
mod tt_memory;
mod valuer;

pub use limits::{Deadline, Limits, Selectivity, SolveMode, TimeControl};
pub use node::principal_variation_rule;
pub use ordering::mobility_order;
pub use probcut::{ProbCutError, ProbCutModel, Sample, MAX_FIT_DEPTH};
pub use root::Report;
pub use score::Score;
pub use searcher::{solve_root, FixedDepth, RootResult, Searcher};
pub use tt::{TableError, TableSizeError, TranspositionTable, TtData};
pub use valuer::SearchValuer;

#[cfg(test)]
mod tests;
