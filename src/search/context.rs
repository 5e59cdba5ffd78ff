//! The per-thread search context: shared table, evaluation, stop flag and deadline, plus this
//! thread's node counter. Every search routine is a method on it.

use super::parallel::SplitPool;
use super::probcut::ProbCutModel;
use super::tt::TranspositionTable;
use crate::eval::Evaluator;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How many stop polls pass between two reads of the clock.
const CLOCK_POLL_INTERVAL: u32 = 256;

pub struct Context<'a, E: Evaluator> {
    pub tt: &'a TranspositionTable,
    pub eval: &'a E,
    /// Multi-ProbCut error model, and the level in use (0 = no pruning).
    pub probcut: &'a ProbCutModel,
    pub selectivity: u8,
    stop: &'a AtomicBool,
    /// Idle helper threads to share work with (none in a single-threaded search).
    pub pool: Option<&'a SplitPool>,
    deadline: Option<Instant>,
    polls: u32,
    /// Positions visited by this thread.
    pub nodes: u64,
    /// Set once the stop flag was seen or the deadline passed; results computed since are
    /// meaningless and must be discarded.
    pub stopped: bool,
}

impl<'a, E: Evaluator> Context<'a, E> {
    pub fn new(tt: &'a TranspositionTable, eval: &'a E, stop: &'a AtomicBool) -> Self {
        static NO_PROBCUT: std::sync::OnceLock<ProbCutModel> = std::sync::OnceLock::new();
        Context {
            tt,
            eval,
            probcut: NO_PROBCUT.get_or_init(ProbCutModel::empty),
            selectivity: 0,
            stop,
            pool: None,
            deadline: None,
            polls: 0,
            nodes: 0,
            stopped: false,
        }
    }

    /// Prune with `model` (levels are chosen per iteration through `selectivity`).
    pub fn with_probcut(mut self, model: &'a ProbCutModel) -> Self {
        self.probcut = model;
        self
    }

    /// Share work with the helpers of `pool`.
    pub fn with_pool(mut self, pool: &'a SplitPool) -> Self {
        self.pool = Some(pool);
        self
    }

    /// Also stop at `deadline`.
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Self {
        self.deadline = deadline;
        self
    }

    /// Polls the stop flag (and now and then the clock); true when the search must unwind.
    #[inline(always)]
    pub fn should_stop(&mut self) -> bool {
        if !self.stopped {
            if self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            } else if let Some(d) = self.deadline {
                self.polls += 1;
                if self.polls >= CLOCK_POLL_INTERVAL {
                    self.polls = 0;
                    if Instant::now() >= d {
                        self.stopped = true;
                    }
                }
            }
        }
        self.stopped
    }
}
