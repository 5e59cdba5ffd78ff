//! A searcher's table size and threads, and the one way to make a searcher around an evaluation
//! already loaded (the book's valuers, queue units, self-play games and the worker's learning).

use std::sync::Arc;
use wedge_core::eval::Evaluator;
use wedge_core::search::{ProbCutModel, Searcher, TableError};

/// A table of `hash_mb` MB searched by `threads` threads ([`crate::engine::EngineBuilder::of_size`]).
#[derive(Clone, Copy, Debug)]
pub struct SearcherSize {
    pub hash_mb: usize,
    pub threads: usize,
}

impl SearcherSize {
    /// A searcher around `eval` and its ProbCut model, with this table and these threads and
    /// no solver's weights; fails when the system refuses the table's memory.
    pub fn try_searcher_with<E: Evaluator>(
        &self,
        eval: Arc<E>,
        probcut: Option<Arc<ProbCutModel>>,
    ) -> Result<Searcher<E>, TableError> {
        let searcher = Searcher::try_new(eval, self.hash_mb, self.threads)?;
        Ok(match probcut {
            Some(model) => searcher.with_probcut(model),
            None => searcher,
        })
    }

    /// [`SearcherSize::try_searcher_with`] for a table whose size is the code's or a checked
    /// unit's: a refusal of its memory is a panic, as in [`Searcher::new`].
    pub fn searcher_with<E: Evaluator>(
        &self,
        eval: Arc<E>,
        probcut: Option<Arc<ProbCutModel>>,
    ) -> Searcher<E> {
        self.try_searcher_with(eval, probcut)
            .unwrap_or_else(|e| panic!("{e}"))
    }
}
