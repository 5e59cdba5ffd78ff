//! What a protocol is to the driver: the [`Protocol`] trait, the [`Ctx`] its handlers use
//! to write and start jobs, and the [`Flow`] a command returns.

use super::input::{Input, Refused};
use super::job::{Running, StopPolicy};
use super::output::Output;
use crate::engine::{Engine, Event, JobId, Task};
use std::collections::VecDeque;

/// What to do after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// Stop reading input and exit (after the output written so far).
    Quit,
}

/// What a protocol handler may use while it handles a line or an event. `J` is what the
/// protocol keeps about a job it starts ([`Protocol::Job`]).
pub struct Ctx<'a, J> {
    engine: &'a mut Engine,
    out: &'a mut Output,
    /// Input already waiting behind the current line.
    queue: &'a VecDeque<Input>,
    eof: bool,
    /// The job whose event is being handled, while it still runs (no other may start).
    running: Option<JobId>,
    started: Option<Running<J>>,
}

impl<'a, J> Ctx<'a, J> {
    pub(crate) fn new(
        engine: &'a mut Engine,
        out: &'a mut Output,
        queue: &'a VecDeque<Input>,
        eof: bool,
        running: Option<JobId>,
    ) -> Self {
        Ctx {
            engine,
            out,
            queue,
            eof,
            running,
            started: None,
        }
    }

    /// The writer.
    pub fn out(&mut self) -> &mut Output {
        self.out
    }

    /// Starts `task` on the worker; its events come back through [`Protocol::event`] with
    /// `job`, and input matching `policy` stops it. When such input is already waiting, the
    /// task starts stopped and answers at once. Returns false (and logs) when a job is still
    /// running or the engine cannot take it.
    pub fn start(&mut self, task: Task, policy: StopPolicy, job: J) -> bool {
        if let Some(id) = self.running.or(self.started.as_ref().map(|r| r.id)) {
            tracing::error!("cannot start a search: job {id} is still running");
            return false;
        }
        let pending = (self.eof && policy.on_eof) || self.queue.iter().any(|i| policy.stops(i));
        match self.engine.submit(task, pending) {
            Ok(id) => {
                self.started = Some(Running { id, policy, job });
                true
            }
            Err(e) => {
                tracing::error!("cannot start a search: {e}");
                false
            }
        }
    }

    /// The job started during this call, if any.
    pub(crate) fn into_started(self) -> Option<Running<J>> {
        self.started
    }
}

/// One protocol: its parser and its session state. The driver calls it strictly in input
/// order; while a job it started runs, no further line is handed to it.
pub trait Protocol {
    /// What the protocol keeps about a job it starts (what to answer when its events come).
    /// The driver holds it while the job runs and drops it after `Event::Done`.
    type Job;

    /// Written once before any input is read (the console's banner).
    fn greet(&mut self, _out: &mut Output) {}

    /// Handles one input line (without its line ending).
    fn line(&mut self, line: &str, ctx: &mut Ctx<'_, Self::Job>) -> Flow;

    /// An event of the job this protocol started, with what it keeps about that job;
    /// `Event::Done` is the last one.
    fn event(&mut self, event: Event, job: &mut Self::Job, ctx: &mut Ctx<'_, Self::Job>);

    /// An input line was refused as it was framed (too long, or holding a NUL byte): nothing of
    /// it is run; the protocol answers with its error form, saying `why`.
    fn refused(&mut self, why: &Refused, ctx: &mut Ctx<'_, Self::Job>);
}
