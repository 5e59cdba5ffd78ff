//! Whether the machine has a core free for each search helper: how long this process's threads
//! wait on a run queue (runnable with no core to run on) and how much of the machine's cores
//! sit idle, read from Linux's `/proc` every [`WINDOW`]. Where `/proc` says nothing, every
//! helper always works.
//!
//! A young-brothers-wait search on more threads than it has cores waits for helpers that are
//! not running, and burns more CPU than one thread for no gain (measured with another program
//! busy on the second of two cores: two threads 8 % slower than one and 9 % more CPU); so
//! helpers stand down while the threads queue for cores, and come back once cores sit idle.

use std::time::{Duration, Instant};

/// How often the machine's load is sampled during a search.
pub const WINDOW: Duration = Duration::from_millis(100);

/// Threads of ours waiting on a run queue, on average over a window, above which one helper
/// stands down.
const QUEUED_MAX: f64 = 0.3;

/// Idle cores, on average over a window, from which a helper that stood down may come back.
const IDLE_MIN: f64 = 0.8;

/// Windows in a row with [`IDLE_MIN`] idle cores before a helper comes back (so that a
/// moment's pause of the other program does not bring it back).
const CALM_WINDOWS: u32 = 2;

/// The counters read at one moment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoadSample {
    pub at: Instant,
    /// Nanoseconds this process's threads have waited on run queues since they started.
    pub queued_ns: u64,
    /// The machine's idle time and all its time since boot, in the kernel's ticks (summed over
    /// its cores), and its number of cores.
    pub idle_ticks: u64,
    pub all_ticks: u64,
    pub cores: u32,
}

impl LoadSample {
    /// The counters now, or `None` where `/proc` does not give them.
    pub fn now() -> Option<LoadSample> {
        let at = Instant::now();
        let queued_ns = queued_ns()?;
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let (idle_ticks, all_ticks, cores) = parse_stat(&stat)?;
        Some(LoadSample {
            at,
            queued_ns,
            idle_ticks,
            all_ticks,
            cores,
        })
    }
}

/// The run-queue wait of every thread of this process (the second field of each
/// `/proc/self/task/*/schedstat`).
fn queued_ns() -> Option<u64> {
    let mut total = 0u64;
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let path = task.ok()?.path().join("schedstat");
        // A thread may end between the listing and the read: it no longer counts.
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        total += text.split_whitespace().nth(1)?.parse::<u64>().ok()?;
    }
    Some(total)
}

/// The idle ticks (idle and waiting for input or output), all ticks and the number of cores
/// from the text of `/proc/stat`.
fn parse_stat(text: &str) -> Option<(u64, u64, u32)> {
    let mut lines = text.lines();
    let first = lines.next()?.strip_prefix("cpu ")?;
    let fields: Vec<u64> = first
        .split_whitespace()
        .map(|f| f.parse().ok())
        .collect::<Option<_>>()?;
    if fields.len() < 5 {
        return None;
    }
    let idle = fields[3] + fields[4];
    let all = fields.iter().sum();
    let cores = lines
        .filter(|l| l.starts_with("cpu") && l.as_bytes().get(3).is_some_and(u8::is_ascii_digit))
        .count() as u32;
    (cores > 0).then_some((idle, all, cores))
}

/// Decides from one window to the next how many helpers may work.
#[derive(Debug)]
pub struct Governor {
    helpers: usize,
    allowed: usize,
    last: LoadSample,
    calm: u32,
}

impl Governor {
    /// `working` of the `helpers` working, from `first` on.
    pub fn new(helpers: usize, working: usize, first: LoadSample) -> Governor {
        Governor {
            helpers,
            allowed: working.min(helpers),
            last: first,
            calm: 0,
        }
    }

    /// The helpers allowed to work now.
    pub fn working(&self) -> usize {
        self.allowed
    }

    /// The helpers allowed to work after the window ending at `now`: one fewer while our
    /// threads queue for cores, one more after [`CALM_WINDOWS`] windows with a core idle.
    pub fn next(&mut self, now: LoadSample) -> usize {
        let last = std::mem::replace(&mut self.last, now);
        let secs = now.at.saturating_duration_since(last.at).as_secs_f64();
        let ticks = now.all_ticks.saturating_sub(last.all_ticks);
        if secs <= 0.0 || ticks == 0 {
            return self.allowed;
        }
        let queued = now.queued_ns.saturating_sub(last.queued_ns) as f64 / 1e9 / secs;
        let idle_share = now.idle_ticks.saturating_sub(last.idle_ticks) as f64 / ticks as f64;
        let idle_cores = idle_share * f64::from(now.cores);
        if queued > QUEUED_MAX {
            self.allowed = self.allowed.saturating_sub(1);
            self.calm = 0;
        } else if idle_cores >= IDLE_MIN && self.allowed < self.helpers {
            self.calm += 1;
            if self.calm >= CALM_WINDOWS {
                self.allowed += 1;
                self.calm = 0;
            }
        } else {
            self.calm = 0;
        }
        self.allowed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sample `ms` milliseconds after `t0` with these counters (2 cores, 100 ticks a second
    /// for each).
    fn at(t0: Instant, ms: u64, queued_ms: u64, idle_ticks: u64) -> LoadSample {
        LoadSample {
            at: t0 + Duration::from_millis(ms),
            queued_ns: queued_ms * 1_000_000,
            idle_ticks,
            all_ticks: ms / 5,
            cores: 2,
        }
    }

    #[test]
    fn stat_text_gives_idle_all_and_cores() {
        let text = "cpu  100 5 20 300 7 0 2 1 0 0\ncpu0 50 2 10 150 3 0 1 0 0 0\n\
                    cpu1 50 3 10 150 4 0 1 1 0 0\nintr 1 2 3\nctxt 9\n";
        assert_eq!(parse_stat(text), Some((307, 435, 2)));
        assert_eq!(parse_stat("intr 1 2\n"), None);
        assert_eq!(parse_stat("cpu  1 x 3 4 5\ncpu0 1\n"), None);
        assert_eq!(parse_stat("cpu  1 2 3\ncpu0 1\n"), None);
    }

    /// Threads queueing for cores send one helper away per window; idle cores bring them
    /// back one per two windows; a machine we fill ourselves changes nothing.
    #[test]
    fn helpers_stand_down_under_load_and_come_back_when_cores_are_idle() {
        let t0 = Instant::now();
        let mut g = Governor::new(2, 2, at(t0, 0, 0, 0));
        // Our two threads fill both cores: no queue, nothing idle.
        assert_eq!(g.next(at(t0, 100, 5, 0)), 2);
        // Another program runs: our threads queue 60 ms of each 100.
        assert_eq!(g.next(at(t0, 200, 65, 0)), 1);
        assert_eq!(g.next(at(t0, 300, 125, 0)), 0);
        assert_eq!(g.next(at(t0, 400, 185, 0)), 0);
        // Alone on one core beside the other program: no queue, nothing idle.
        assert_eq!(g.next(at(t0, 500, 186, 0)), 0);
        // The other program ends: a core idle for two windows brings a helper back.
        assert_eq!(g.next(at(t0, 600, 186, 10)), 0);
        assert_eq!(g.next(at(t0, 700, 186, 20)), 1);
        // A window without an idle core starts the count again.
        assert_eq!(g.next(at(t0, 800, 186, 20)), 1);
        assert_eq!(g.next(at(t0, 900, 186, 30)), 1);
        assert_eq!(g.next(at(t0, 1000, 186, 40)), 2);
        assert_eq!(g.next(at(t0, 1100, 186, 50)), 2);
    }

    /// On Linux the counters are readable and only grow.
    #[test]
    #[cfg(target_os = "linux")]
    fn this_machine_gives_counters() {
        let a = LoadSample::now().expect("/proc gives the load");
        std::thread::sleep(Duration::from_millis(20));
        let b = LoadSample::now().expect("/proc gives the load");
        assert!(a.cores >= 1 && a.cores == b.cores);
        assert!(b.all_ticks >= a.all_ticks && b.idle_ticks >= a.idle_ticks);
        assert!(b.queued_ns >= a.queued_ns);
    }
}
