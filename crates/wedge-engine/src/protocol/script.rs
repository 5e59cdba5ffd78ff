//! Scripted sessions run in-process, deterministically: the snapshot tests and the property
//! tests drive a protocol through the real [`Driver`] and engine worker with them.
//!
//! A script is a list of input lines. Normally a line is sent once the previous one has been
//! fully answered (the engine idle). A line starting with `~` is sent *together with* the line
//! before it, so it is already waiting when that line starts a search: the search starts
//! stopped and answers at once (how a `ping` interrupting a search is tested reproducibly).
//! A last line `~<EOF>` makes the input end together with the line before it. Lines starting
//! with `;;` are comments. The transcript shows each group of input lines as
//! `> line`, followed by everything written while handling it.

use super::driver::Driver;
use super::input::{Input, Refused};
use super::lines::{split_all, MAX_LINE};
use super::{Output, Protocol};
use crate::engine::{Engine, Event, EventSink};
use std::sync::mpsc;
use std::time::Duration;

/// How long a scripted step may wait for the engine before the transcript says so.
const STEP_TIMEOUT: Duration = Duration::from_secs(120);

/// Runs `script` (raw bytes, lines as the front end would split them) and returns the
/// transcript.
pub fn run_script<P: Protocol>(
    proto: P,
    make_engine: impl FnOnce(EventSink) -> Engine,
    script: &[u8],
) -> String {
    let (tx, rx) = mpsc::channel::<Event>();
    let engine = make_engine(Box::new(move |e| {
        let _ = tx.send(e);
    }));
    let (out, buffer) = Output::buffer();
    let mut driver = Driver::new(proto, engine, out);
    let mut transcript = String::new();
    let mut seen = 0usize;
    let flush = |transcript: &mut String, seen: &mut usize| {
        let text = buffer.text();
        for line in text[*seen..].split_inclusive('\n') {
            transcript.push_str("< ");
            transcript.push_str(line);
        }
        *seen = text.len();
    };
    flush(&mut transcript, &mut seen);
    let (groups, early_eof) = groups(script);
    let last = groups.len();
    for (i, group) in groups.into_iter().enumerate() {
        if driver.is_finished() {
            transcript.push_str("(session over; the rest is not read)\n");
            break;
        }
        for input in &group {
            match input {
                Input::Line(l) | Input::Refused(Refused::Nul(l)) => {
                    transcript.push_str(&format!("> {}\n", l.escape_debug()))
                }
                Input::Refused(Refused::Overlong(n)) => {
                    transcript.push_str(&format!("> ({n} bytes)\n"))
                }
            }
            driver.push(input.clone());
        }
        if early_eof && i + 1 == last {
            transcript.push_str("> (end of input)\n");
            driver.push_eof();
        }
        settle(&mut driver, &rx);
        flush(&mut transcript, &mut seen);
    }
    if !driver.is_finished() && !early_eof {
        transcript.push_str("> (end of input)\n");
        driver.push_eof();
        settle(&mut driver, &rx);
        flush(&mut transcript, &mut seen);
    }
    if !driver.is_finished() {
        transcript.push_str("(still running at the end)\n");
    }
    transcript
}

/// Handles queued input until the engine is idle and nothing is left to do.
fn settle<P: Protocol>(driver: &mut Driver<P>, rx: &mpsc::Receiver<Event>) {
    loop {
        driver.pump();
        if !driver.is_busy() {
            return;
        }
        match rx.recv_timeout(STEP_TIMEOUT) {
            Ok(e) => driver.event(e),
            Err(_) => return,
        }
    }
}

/// Splits a script into groups: a line plus the `~` lines that follow it; and whether the
/// input ends with the last group (`~<EOF>`).
fn groups(script: &[u8]) -> (Vec<Vec<Input>>, bool) {
    let mut out: Vec<Vec<Input>> = Vec::new();
    let mut eof = false;
    for input in split_all(script, MAX_LINE) {
        match input {
            Input::Line(l) if l.starts_with(";;") => {}
            Input::Line(l) if l == "~<EOF>" => eof = true,
            Input::Line(l) if l.starts_with('~') && !out.is_empty() => {
                if let Some(g) = out.last_mut() {
                    g.push(Input::Line(l[1..].to_string()));
                }
            }
            other => out.push(vec![other]),
        }
    }
    (out, eof)
}
