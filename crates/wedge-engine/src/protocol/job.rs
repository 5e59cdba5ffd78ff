//! The running job: the one record of it the driver keeps ([`Running`]) and the input that
//! stops it ([`StopPolicy`]).

use super::input::Input;
use crate::engine::JobId;

/// Which input stops a job while it runs (chosen by the protocol for each job it starts).
#[derive(Clone, Copy, Debug)]
pub struct StopPolicy {
    /// Whether this line, arriving during the job, stops it.
    pub on_line: fn(&str) -> bool,
    /// Whether the end of input (and a refused line) stops it; otherwise it finishes.
    pub on_eof: bool,
}

impl StopPolicy {
    /// Any non-blank line stops the job (NBoard, streaming analysis).
    pub const ANY_LINE: StopPolicy = StopPolicy {
        on_line: |l| !l.trim().is_empty(),
        on_eof: true,
    };

    /// Whether `input` stops a job with this policy.
    pub fn stops(&self, input: &Input) -> bool {
        match input {
            Input::Line(l) => (self.on_line)(l),
            Input::Refused(_) => self.on_eof,
        }
    }
}

/// The running job: its id, the input that stops it, and what the protocol keeps about it
/// (handed back with each of its events, dropped after `Event::Done`).
pub(crate) struct Running<J> {
    pub(crate) id: JobId,
    pub(crate) policy: StopPolicy,
    pub(crate) job: J,
}
