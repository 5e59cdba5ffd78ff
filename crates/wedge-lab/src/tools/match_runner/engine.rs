//! One engine child process: start, send lines, read lines with a deadline, stop.
//!
//! The engine's stdout is read by a detached reader thread that forwards every line into a
//! channel, so waiting for an answer is a `recv_timeout` and a hung engine is detected without
//! blocking the match. The thread is never joined: if a killed engine left a grandchild holding
//! the pipe open, the thread simply ends when that pipe closes.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EngineError {
    /// Its output closed or it exited (a crash, or `quit` too early).
    #[error("crashed: {0}")]
    Crashed(String),
    /// No (expected) answer before the deadline.
    #[error("no answer within {:.1} s", .0.as_secs_f64())]
    Timeout(Duration),
    /// An answer that breaks the protocol.
    #[error("protocol error: {0}")]
    Protocol(String),
}

/// Why an engine command line cannot be split into words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandLineError {
    #[error("unclosed {quote} in {text:?}")]
    Unclosed { quote: char, text: String },
    #[error("trailing \\ in {0:?}")]
    TrailingBackslash(String),
    #[error("empty engine command line")]
    Empty,
}

/// Why an engine could not be started and greeted.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    CommandLine(#[from] CommandLineError),
    #[error("cannot start {command:?}: {source}")]
    Spawn {
        command: String,
        source: std::io::Error,
    },
    #[error("no stdout pipe for {0:?}")]
    NoStdout(String),
    #[error("cannot start a reader thread: {0}")]
    ReaderThread(std::io::Error),
    /// It started but did not answer the protocol's handshake.
    #[error("engine {command:?}: handshake failed: {source}")]
    Handshake {
        command: String,
        source: EngineError,
    },
}

/// One line of engine output, or the end of it.
enum Output {
    Line(String),
    Eof(String),
}

/// A running engine process.
pub(crate) struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Output>,
}

/// Splits a command line into words: whitespace separates, `'…'` and `"…"` quote, `\` escapes
/// the next character outside single quotes. No variables, globs or pipes.
pub(crate) fn split_command_line(text: &str) -> Result<Vec<String>, CommandLineError> {
    let unclosed = |quote| CommandLineError::Unclosed {
        quote,
        text: text.to_string(),
    };
    let trailing = || CommandLineError::TrailingBackslash(text.to_string());
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => word.push(x),
                        None => return Err(unclosed('\'')),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(x) => word.push(x),
                            None => return Err(trailing()),
                        },
                        Some(x) => word.push(x),
                        None => return Err(unclosed('"')),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(x) => word.push(x),
                    None => return Err(trailing()),
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err(CommandLineError::Empty);
    }
    Ok(words)
}

impl Process {
    /// Starts `command` (split by [`split_command_line`]) with piped stdin/stdout; its stderr is
    /// discarded.
    pub(crate) fn start(command: &str) -> Result<Process, StartError> {
        let words = split_command_line(command)?;
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| StartError::Spawn {
                command: command.to_string(),
                source,
            })?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| StartError::NoStdout(command.to_string()))?;
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("engine-reader".into())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) => {
                            let _ = tx.send(Output::Eof("end of output".into()));
                            return;
                        }
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf)
                                .trim_end_matches(['\n', '\r'])
                                .to_string();
                            if tx.send(Output::Line(line)).is_err() {
                                return;
                            }
                        }
                        Err(e) => {
                            let _ = tx.send(Output::Eof(format!("read error: {e}")));
                            return;
                        }
                    }
                }
            })
            .map_err(StartError::ReaderThread)?;
        Ok(Process {
            child,
            stdin,
            lines: rx,
        })
    }

    /// Sends one line (a newline is added) and flushes.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let exit = self.exit_text();
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(EngineError::Crashed("input closed".into()));
        };
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .map_err(|e| EngineError::Crashed(format!("cannot write to it ({e}){exit}")))
    }

    /// The next output line, waiting until `deadline` at most.
    pub(crate) fn recv(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Output::Line(l)) => Ok(l),
            Ok(Output::Eof(why)) => {
                // Give the process a moment to be reaped so the exit status can be reported.
                std::thread::sleep(Duration::from_millis(20));
                Err(EngineError::Crashed(format!("{why}{}", self.exit_text())))
            }
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(wait)),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Crashed(format!(
                "output closed{}",
                self.exit_text()
            ))),
        }
    }

    /// `" (exit status N)"` when the process has exited, else empty.
    fn exit_text(&mut self) -> String {
        match self.child.try_wait() {
            Ok(Some(status)) => format!(" ({status})"),
            _ => String::new(),
        }
    }

    /// Sends `quit_line` (if any), waits up to `grace` for the exit, then kills.
    pub(crate) fn stop(mut self, quit_line: Option<&str>, grace: Duration) {
        if let Some(q) = quit_line {
            let _ = self.send(q);
        }
        self.stdin = None;
        let end = Instant::now() + grace;
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_command_lines() {
        assert_eq!(
            split_command_line("a  b 'c d' \"e \\\" f\" g\\ h").unwrap(),
            vec!["a", "b", "c d", "e \" f", "g h"]
        );
        assert!(split_command_line("  ").is_err());
        assert!(split_command_line("a 'b").is_err());
    }
}
