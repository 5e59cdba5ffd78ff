//! The searches that value book positions: the book builder's [`Valuer`] answered by a
//! one-thread searcher that may only choose among the moves outside the book and sees the
//! book's values for transpositions. Each valuation starts from an empty table, so a value is a
//! function of the position, its allowed moves, the book and the settings alone: the same
//! book whichever thread (or machine) values which position, and in whatever order.

use super::{Limits, Searcher, Selectivity, SolveMode};
use crate::board::Board;
use crate::book::{BookLookup, Valuation, Valuer};
use crate::eval::Evaluator;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Values book positions with a one-thread searcher of its own.
pub struct SearchValuer<E: Evaluator> {
    searcher: Searcher<E>,
    depth: u32,
    selectivity: Selectivity,
    /// Set by whoever may cancel the valuing (an engine asked to quit); then every search
    /// ends at once and its result is meaningless.
    stop: Option<Arc<AtomicBool>>,
}

impl<E: Evaluator> SearchValuer<E> {
    pub fn new(searcher: Searcher<E>, depth: u32, selectivity: Selectivity) -> Self {
        SearchValuer {
            searcher,
            depth,
            selectivity,
            stop: None,
        }
    }

    /// Searches that end as soon as `stop` is set (the caller then discards what they gave).
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Self {
        self.stop = Some(stop);
        self
    }
}

impl<E: Evaluator> Valuer for SearchValuer<E> {
    fn best_of(
        &mut self,
        board: &Board,
        allowed: u64,
        exact: bool,
        book: &dyn BookLookup,
    ) -> Option<Valuation> {
        let n = board.empty_count();
        let limits = if exact {
            Limits::solve(SolveMode::Exact)
        } else {
            Limits {
                selectivity: self.selectivity,
                ..Limits::depth(self.depth.min(n))
            }
        };
        let own = AtomicBool::new(false);
        let stop = self.stop.as_deref().unwrap_or(&own);
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        self.searcher.clear();
        let r = self
            .searcher
            .search_among(board, &limits, allowed, Some(book), stop, &mut |_| {});
        let sq = r.best.square()?;
        if allowed & sq.bit() == 0 {
            return None;
        }
        let exact = r.solved == Some(SolveMode::Exact);
        Some(Valuation {
            sq,
            value: r.score.discs(),
            depth: if exact { n as u8 } else { r.depth as u8 },
            exact,
        })
    }
}
