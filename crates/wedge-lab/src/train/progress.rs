//! Progress reporting for long training steps: an indicatif bar with rate and ETA on a
//! terminal, and a plain line every few seconds (same numbers) when stderr is redirected to a
//! log, so background runs still show where they are.

use indicatif::{ProgressBar, ProgressStyle};
use std::time::{Duration, Instant};

/// A progress bar that also logs plain lines when it cannot draw.
pub struct Progress {
    bar: ProgressBar,
    what: String,
    total: u64,
    start: Instant,
    last_line: Instant,
    every: Duration,
    quiet: bool,
}

impl Progress {
    /// A bar over `total` units of `what` (e.g. "games"). `quiet` hides everything (tests).
    pub fn new(what: &str, total: u64, quiet: bool) -> Progress {
        let bar = if quiet {
            ProgressBar::hidden()
        } else {
            ProgressBar::new(total)
        };
        let style = ProgressStyle::with_template(
            "{msg:>10} [{elapsed_precise}] {wide_bar} {pos}/{len} ({per_sec}, ETA {eta})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        bar.set_message(what.to_string());
        Progress {
            bar,
            what: what.to_string(),
            total,
            start: Instant::now(),
            last_line: Instant::now(),
            every: Duration::from_secs(30),
            quiet,
        }
    }

    /// Sets the position (units done so far).
    pub fn set(&mut self, done: u64) {
        self.bar.set_position(done);
        if !self.quiet && self.bar.is_hidden() && self.last_line.elapsed() >= self.every {
            self.last_line = Instant::now();
            eprintln!("{}", self.line(done));
        }
    }

    fn line(&self, done: u64) -> String {
        let secs = self.start.elapsed().as_secs_f64();
        let rate = done as f64 / secs.max(1e-9);
        let eta = if rate > 0.0 {
            (self.total.saturating_sub(done)) as f64 / rate
        } else {
            f64::NAN
        };
        format!(
            "{}: {done}/{} ({:.1}%), {rate:.1}/s, elapsed {:.0} s, ETA {eta:.0} s",
            self.what,
            self.total,
            100.0 * done as f64 / (self.total.max(1)) as f64,
            secs
        )
    }

    /// Prints a message above the bar (or as a line).
    pub fn println(&self, msg: &str) {
        if self.quiet {
            return;
        }
        if self.bar.is_hidden() {
            eprintln!("{msg}");
        } else {
            self.bar.println(msg);
        }
    }

    /// Finishes the bar, printing the final line.
    pub fn finish(self, done: u64) {
        self.bar.set_position(done);
        self.bar.finish_and_clear();
        if !self.quiet {
            eprintln!("{}", self.line(done));
        }
    }
}
