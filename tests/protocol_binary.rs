//! The real `wedge` binary over pipes: NBoard, GTP and the console answer, a `ping` sent during
//! a deep search is answered promptly and after the search's last line, the end of input
//! exits with code 0, and `quit` or the end of input during a search that would run for hours
//! ends the process within a generous bound in every protocol, as they do while a `--ponder`
//! engine thinks on the opponent's time. `ping_latency_report` (ignored by default) measures p50/p99 over 100 pings.
//! The book is off: these sessions are about searches.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        Session::start_with_hash(args, 16)
    }

    /// A session with a table of `hash_mb` MB.
    fn start_with_hash(args: &[&str], hash_mb: usize) -> Session {
        let hash = hash_mb.to_string();
        let mut child = Command::new(env!("CARGO_BIN_EXE_wedge"))
            .args(args)
            .args([
                "--threads",
                "1",
                "--hash",
                &hash,
                "--log",
                "off",
                "--no-book",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start wedge");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(text.as_bytes()).expect("write");
        stdin.write_all(b"\n").expect("write");
        stdin.flush().expect("flush");
    }

    /// Lines up to and including the first one for which `done` holds.
    fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.until_within(Duration::from_secs(30), done)
    }

    /// Like [`Session::until`], failing when the lines do not all come within `limit`.
    fn until_within(&mut self, limit: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + limit;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no answer within {limit:?}; got {seen:?}"));
            let stop = done(&line);
            seen.push(line);
            if stop {
                return seen;
            }
        }
    }

    /// Closes stdin and waits for the exit code.
    fn finish(mut self) -> i32 {
        self.stdin = None;
        self.exit_code_within(Duration::from_secs(20))
    }

    /// Waits for the process to exit by itself; fails when it takes longer than `limit`.
    fn exit_code_within(&mut self, limit: Duration) -> i32 {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status.code().unwrap_or(-1);
            }
            assert!(start.elapsed() < limit, "did not exit within {limit:?}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Session {
    /// A failed test leaves no engine searching behind it.
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

const START: &str = "set game (;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)";

/// Starts a deep hint search, waits until it is running, pings, and returns the ping->pong time.
fn ping_during_search(s: &mut Session, n: u32) -> Duration {
    s.send(&format!("ping {n}"));
    s.until(|l| l == format!("pong {n}"));
    s.send("hint 1");
    // The first iterations are instant; wait until the search is well under way.
    s.until(|l| l.starts_with("search") && l.ends_with(" 0 8"));
    std::thread::sleep(Duration::from_millis(20));
    let sent = Instant::now();
    s.send(&format!("ping {}", n + 1));
    let lines = s.until(|l| l.starts_with("pong"));
    let elapsed = sent.elapsed();
    assert_eq!(
        lines.last().map(String::as_str),
        Some(format!("pong {}", n + 1).as_str())
    );
    assert!(lines[..lines.len() - 1]
        .iter()
        .all(|l| !l.starts_with("pong")));
    // The interrupted search's last lines came before the pong.
    assert!(
        lines.iter().any(|l| l.starts_with("nodestats")),
        "{lines:?}"
    );
    elapsed
}

fn nboard_session() -> Session {
    let mut s = Session::start(&["nboard"]);
    s.send("nboard 2");
    s.send("set depth 40");
    s.until(|l| l == "set myname Wedge40");
    s.send(START);
    s
}

#[test]
fn nboard_over_pipes_answers_ping_during_a_deep_search() {
    let mut s = nboard_session();
    let mut worst = Duration::ZERO;
    for i in 0..5 {
        worst = worst.max(ping_during_search(&mut s, 10 * i + 1));
    }
    eprintln!("worst ping->pong of 5: {worst:?}");
    assert!(worst < Duration::from_secs(1), "{worst:?}");
    s.send("set depth 3");
    s.send("ping 100");
    s.send("go");
    let lines = s.until(|l| l.starts_with("==="));
    assert!(lines.contains(&"pong 100".to_string()), "{lines:?}");
    assert_eq!(s.finish(), 0);
}

/// The process's resident memory in MB (Linux).
#[cfg(target_os = "linux")]
fn resident_mb(child: &Child) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("VmRSS in /proc/PID/status");
    kb / 1024
}

/// A GUI's spare copies of the engine (GoGui starts four) hold none of their table: the
/// engine makes it resident once a task has run.
#[cfg(target_os = "linux")]
#[test]
fn the_table_is_resident_only_once_a_search_ran() {
    let mut s = Session::start_with_hash(&["gtp", "--depth", "2"], 256);
    s.send("name");
    s.until(|l| l.starts_with("= "));
    let idle = resident_mb(&s.child);
    assert!(idle < 128, "{idle} MB resident before any search");
    s.send("genmove black");
    s.until(|l| l.starts_with("= "));
    // The rest of the table is faulted in while the engine is idle after its first task.
    let start = Instant::now();
    while resident_mb(&s.child) < 256 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{} MB resident a minute after a search",
            resident_mb(&s.child)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(s.finish(), 0);
}

#[test]
fn gtp_and_console_over_pipes_exit_cleanly() {
    let mut s = Session::start(&["gtp", "--depth", "3"]);
    s.send("1 name");
    assert_eq!(s.until(|l| l.is_empty()), vec!["=1 Wedge", ""]);
    s.send("2 genmove black");
    let lines = s.until(|l| l.is_empty());
    assert!(lines[0].starts_with("=2 "), "{lines:?}");
    s.send("quit");
    assert_eq!(s.until(|l| l.is_empty()), vec!["=", ""]);
    assert_eq!(s.finish(), 0);

    let mut s = Session::start(&["console", "--depth", "2"]);
    s.send("f5");
    s.until(|l| l.starts_with("position:") && l.ends_with(" O"));
    s.send("play");
    let lines = s.until(|l| l.starts_with("position:"));
    assert!(
        lines.iter().any(|l| l.starts_with("White plays")),
        "{lines:?}"
    );
    assert_eq!(s.finish(), 0);

    // End of input in the middle of a deep NBoard search: stops and exits 0.
    let mut s = nboard_session();
    s.send("ping 1");
    s.send("hint 1");
    s.until(|l| l.starts_with("search"));
    assert_eq!(s.finish(), 0);
}

/// Start-up time to the first `pong`, and ping->pong during a deep search over 100 tries.
#[test]
#[ignore]
fn ping_latency_report() {
    let started = Instant::now();
    let mut s = Session::start(&["nboard"]);
    s.send("nboard 2");
    s.send("ping 1");
    s.until(|l| l == "pong 1");
    let startup = started.elapsed();
    s.send("set depth 40");
    s.send(START);
    let mut v: Vec<Duration> = (0..100)
        .map(|i| ping_during_search(&mut s, 10 + 2 * i))
        .collect();
    v.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "startup to first pong: {:.2} ms; ping->pong during search: p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms; loadavg {}",
        ms(startup),
        ms(v[49]),
        ms(v[98]),
        ms(v[99]),
        load.trim()
    );
    assert_eq!(s.finish(), 0);
}

/// How long a stopped search may take to answer and exit: generous, since the searches below
/// would run for hours (depth 40 from the start position) and a loaded machine may be slow.
const EXIT_BOUND: Duration = Duration::from_secs(10);

/// Ends a session the way `how` says while its search runs: `quit` or closing stdin.
fn end_session(s: &mut Session, quit: Option<&str>) {
    match quit {
        Some(line) => s.send(line),
        None => s.stdin = None,
    }
}

#[test]
fn gtp_quit_and_end_of_input_stop_a_deep_genmove() {
    for quit in [Some("2 quit"), None] {
        let mut s = Session::start(&["gtp", "--depth", "40"]);
        s.send("1 genmove black");
        // Let the search get under way (either order must work; this is no timing check).
        std::thread::sleep(Duration::from_millis(200));
        end_session(&mut s, quit);
        let answer = s.until_within(EXIT_BOUND, |l| l.is_empty());
        let legal = ["=1 D3", "=1 C4", "=1 F5", "=1 E6"];
        assert!(legal.contains(&answer[0].as_str()), "{answer:?}");
        if quit.is_some() {
            assert_eq!(s.until_within(EXIT_BOUND, |l| l.is_empty()), ["=2", ""]);
        }
        assert_eq!(s.exit_code_within(EXIT_BOUND), 0, "{quit:?}");
    }
}

#[test]
fn console_quit_and_end_of_input_stop_a_deep_think() {
    for quit in [Some("quit"), None] {
        let mut s = Session::start(&["console", "--depth", "40"]);
        s.send("think");
        // `depth 2 ...`, or `depth 2@99% ...` for a selective level.
        s.until(|l| l.starts_with("depth 2 ") || l.starts_with("depth 2@"));
        end_session(&mut s, quit);
        assert_eq!(s.exit_code_within(EXIT_BOUND), 0, "{quit:?}");
    }
}

#[test]
fn nboard_quit_and_end_of_input_stop_a_deep_hint() {
    for quit in [Some("quit"), None] {
        let mut s = nboard_session();
        s.send("ping 1");
        s.send("hint 1");
        s.until(|l| l.starts_with("search") && l.ends_with(" 0 2"));
        end_session(&mut s, quit);
        assert_eq!(s.exit_code_within(EXIT_BOUND), 0, "{quit:?}");
    }
}

/// With `--ponder`, a move on a clock leaves the engine searching the position after the reply
/// it expects; the next command that needs the engine is answered, and `quit` or the end of input ends the
/// process, within the generous bound (a ponder at 58 empties would run for hours).
#[test]
fn a_pondering_engine_answers_the_next_move_and_exits_over_nboard_and_gtp() {
    const CLOCK: &str = "set game (;GM[Othello]PC[NBoard]TI[0:05]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)";
    for quit in [Some("quit"), None] {
        let mut s = Session::start(&["nboard", "--ponder"]);
        s.send("nboard 2");
        s.send(CLOCK);
        s.send("go");
        let first = s.until_within(EXIT_BOUND, |l| l.starts_with("==="));
        let played = first.last().unwrap()[4..]
            .split('/')
            .next()
            .unwrap()
            .to_string();
        // Our move, then a `go` for White, which stops the ponder (of the position after
        // White's expected reply).
        s.send(&format!("move {played}"));
        std::thread::sleep(Duration::from_millis(200));
        s.send("go");
        s.until_within(EXIT_BOUND, |l| l.starts_with("==="));
        std::thread::sleep(Duration::from_millis(200));
        end_session(&mut s, quit);
        assert_eq!(s.exit_code_within(EXIT_BOUND), 0, "nboard, {quit:?}");

        let mut s = Session::start(&["gtp", "--ponder"]);
        s.send("1 time_settings 5 0 0");
        assert_eq!(s.until_within(EXIT_BOUND, |l| l.is_empty()), ["=1", ""]);
        s.send("2 genmove black");
        s.until_within(EXIT_BOUND, |l| l.is_empty());
        std::thread::sleep(Duration::from_millis(200));
        s.send("3 genmove white");
        let answer = s.until_within(EXIT_BOUND, |l| l.is_empty());
        assert!(answer[0].starts_with("=3 "), "{answer:?}");
        std::thread::sleep(Duration::from_millis(200));
        end_session(&mut s, quit.map(|_| "4 quit"));
        assert_eq!(s.exit_code_within(EXIT_BOUND), 0, "gtp, {quit:?}");
    }
}
