//! The ordered command queue between the input, a protocol and the engine worker. Lines are
//! handled strictly in arrival order; while a job runs the next lines wait, but a line that the
//! protocol says interrupts stops the job the moment it arrives. Its results are written before
//! the waiting line is handled, which is what NBoard's `ping`/`pong` rule needs. The driver holds
//! the one record of the running job (`Running`); the engine only runs it.

use super::handler::{Ctx, Flow, Protocol};
use super::input::Input;
use super::job::{Running, StopPolicy};
use super::output::Output;
use crate::engine::{Engine, Event};
use std::collections::VecDeque;

/// Drives one protocol session. Feed it input and engine events; it calls the protocol in order.
pub struct Driver<P: Protocol> {
    proto: P,
    engine: Engine,
    out: Output,
    queue: VecDeque<Input>,
    running: Option<Running<P::Job>>,
    eof: bool,
    quit: bool,
}

impl<P: Protocol> Driver<P> {
    /// A session of `proto` on `engine`, writing to `out` (the greeting is written now).
    pub fn new(mut proto: P, engine: Engine, mut out: Output) -> Driver<P> {
        proto.greet(&mut out);
        Driver {
            proto,
            engine,
            out,
            queue: VecDeque::new(),
            running: None,
            eof: false,
            quit: false,
        }
    }

    /// New input arrived: queue it, and stop the running job at once if it interrupts it.
    pub fn push(&mut self, input: Input) {
        if self.policy().is_some_and(|p| p.stops(&input)) {
            tracing::debug!("input arrived during a search: stopping it");
            self.engine.stop();
        }
        self.queue.push_back(input);
    }

    /// What stops the running job, if one runs.
    fn policy(&self) -> Option<StopPolicy> {
        self.running.as_ref().map(|r| r.policy)
    }

    /// The input ended.
    pub fn push_eof(&mut self) {
        self.eof = true;
        if self.policy().is_some_and(|p| p.on_eof) {
            self.engine.stop();
        }
    }

    /// An event from the engine worker.
    pub fn event(&mut self, event: Event) {
        let id = event.job();
        let Some(mut running) = self.running.take_if(|r| r.id == id) else {
            tracing::warn!("dropping an event of job {id} (not running)");
            return;
        };
        let done = matches!(event, Event::Done { .. });
        let still_running = (!done).then_some(id);
        let mut ctx = Ctx::new(
            &mut self.engine,
            &mut self.out,
            &self.queue,
            self.eof,
            still_running,
        );
        self.proto.event(event, &mut running.job, &mut ctx);
        let started = ctx.into_started();
        self.running = if done { started } else { Some(running) };
    }

    /// Handles queued lines while no job is running.
    pub fn pump(&mut self) {
        while self.running.is_none() && !self.is_finished() {
            let Some(input) = self.queue.pop_front() else {
                break;
            };
            let mut ctx = Ctx::new(&mut self.engine, &mut self.out, &self.queue, self.eof, None);
            let flow = match input {
                Input::Line(line) => {
                    tracing::debug!("< {line}");
                    self.proto.line(&line, &mut ctx)
                }
                Input::Refused(why) => {
                    tracing::debug!("< refused: {why}");
                    self.proto.refused(&why, &mut ctx);
                    Flow::Continue
                }
            };
            self.running = ctx.into_started();
            if flow == Flow::Quit {
                self.quit = true;
                if self.running.is_some() {
                    self.engine.stop();
                }
            }
        }
    }

    /// True while a job is running.
    pub fn is_busy(&self) -> bool {
        self.running.is_some()
    }

    /// True once the session is over: `quit`, a dead output, or the end of input with nothing
    /// left to do.
    pub fn is_finished(&self) -> bool {
        self.quit
            || self.out.failed()
            || (self.eof && self.queue.is_empty() && self.running.is_none())
    }

    /// True after `quit` (the running job, if any, was told to stop and need not be awaited).
    pub fn quit_requested(&self) -> bool {
        self.quit || self.out.failed()
    }

    /// The protocol state (tests look at it).
    pub fn protocol(&self) -> &P {
        &self.proto
    }
}
