//! The per-thread search context: shared table, evaluation, stop flag and deadline, plus this
//! thread's node counter. Every search routine is a method on it.

use super::tt::TranspositionTable;
use crate::eval::Evaluator;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How many stop polls pass between two reads of the clock.
const CLOCK_POLL_INTERVAL: u32 = 256;

pub struct Context<'a, E: Evaluator> {
    pub tt: &'a TranspositionTable,
    pub eval: &'a E,
    stop: &'a AtomicBool,
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
        Context {
            tt,
            eval,
            stop,
            deadline: None,
            polls: 0,
            nodes: 0,
            stopped: false,
        }
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
