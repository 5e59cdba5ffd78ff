//! The per-thread search context: shared table, evaluation and stop flag, plus this thread's
//! node counter. Every search routine is a method on it.

use super::tt::TranspositionTable;
use crate::eval::Evaluator;
use std::sync::atomic::{AtomicBool, Ordering};

pub struct Context<'a, E: Evaluator> {
    pub tt: &'a TranspositionTable,
    pub eval: &'a E,
    stop: &'a AtomicBool,
    /// Positions visited by this thread.
    pub nodes: u64,
    /// Set once the stop flag was seen; the results computed since are meaningless.
    pub stopped: bool,
}

impl<'a, E: Evaluator> Context<'a, E> {
    pub fn new(tt: &'a TranspositionTable, eval: &'a E, stop: &'a AtomicBool) -> Self {
        Context {
            tt,
            eval,
            stop,
            nodes: 0,
            stopped: false,
        }
    }

    /// Polls the stop flag; true when the search must unwind.
    #[inline(always)]
    pub fn should_stop(&mut self) -> bool {
        if !self.stopped && self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }
}
