//! Whether the machine has a core free for each search helper: how long this process's threads
//! wait on a run queue (runnable with no core to run on) and how much of the machine's cores
//! sit idle, read from Linux's `/proc` every [`WINDOW`]. Where `/proc` says nothing, every
//! helper always works.
//!
//! A young-brothers-wait search on more threads than it has cores waits for helpers that are
//! not running, and burns more CPU than one thread for no gain; so helpers stand down while
//! the threads queue for cores, and come back once cores sit idle.

use std::time::{Duration, Instant};

/// How often the machine's load is sampled during a search.
pub const WINDOW: Duration = Duration::from_millis(100);

/// Threads of ours waiting on a run queue, on average over a window, above which one helper
/// stands down.
const QUEUED_MAX: f64 = 0.3;

/// Cores the process gains per working helper, beyond the main thread's one, below which a
/// helper stands down when the threads queue (the scheduler gives the process little more than
/// one core, so a helper's work only makes the others wait).
const GAIN_MIN: f64 = 0.1;

/// Windows after a helper stood down (with no core idle meanwhile) before one tries again:
/// the scheduler may give the process more than one core while another program runs, which only
/// working helpers can find out.
const RETRY_WINDOWS: u32 = 10;

/// Idle cores, on average over a window, from which a helper that stood down may come back.
const IDLE_MIN: f64 = 0.8;

/// Windows in a row with [`IDLE_MIN`] idle cores before a helper comes back (so that a
/// moment's pause of the other program does not bring it back).
const CALM_WINDOWS: u32 = 2;

/// The counters read at one moment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoadSample {
    pub at: Instant,
    /// Nanoseconds this process's threads have run, and waited on run queues, since they
    /// started.
    pub run_ns: u64,
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
        let (run_ns, queued_ns) = thread_times()?;
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let (idle_ticks, all_ticks, cores) = parse_stat(&stat)?;
        Some(LoadSample {
            at,
            run_ns,
            queued_ns,
            idle_ticks,
            all_ticks,
            cores,
        })
    }
}

/// The time on a core and the run-queue wait of every thread of this process (the first two
/// fields of each `/proc/self/task/*/schedstat`, in nanoseconds).
fn thread_times() -> Option<(u64, u64)> {
    let (mut run, mut queued) = (0u64, 0u64);
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let path = task.ok()?.path().join("schedstat");
        // A thread may end between the listing and the read: it no longer counts.
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let (r, q) = parse_schedstat(&text)?;
        run += r;
        queued += q;
    }
    Some((run, queued))
}

/// A thread's time on a core and its run-queue wait from the text of its `schedstat`.
fn parse_schedstat(text: &str) -> Option<(u64, u64)> {
    let mut fields = text.split_whitespace().map(str::parse::<u64>);
    Some((fields.next()?.ok()?, fields.next()?.ok()?))
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
    /// Windows left before a helper tries again (see [`RETRY_WINDOWS`]).
    retry: u32,
}

impl Governor {
    /// `working` of the `helpers` working, from `first` on.
    pub fn new(helpers: usize, working: usize, first: LoadSample) -> Governor {
        Governor {
            helpers,
            allowed: working.min(helpers),
            last: first,
            calm: 0,
            retry: RETRY_WINDOWS,
        }
    }

    /// The helpers allowed to work now.
    pub fn working(&self) -> usize {
        self.allowed
    }

    /// The helpers allowed to work after the window ending at `now`: one fewer while our
    /// threads queue for cores and the helpers add little CPU (less than [`GAIN_MIN`] of a
    /// core each); one more after [`CALM_WINDOWS`] windows with a core idle, or to try again
    /// after [`RETRY_WINDOWS`].
    pub fn next(&mut self, now: LoadSample) -> usize {
        let last = std::mem::replace(&mut self.last, now);
        let secs = now.at.saturating_duration_since(last.at).as_secs_f64();
        let ticks = now.all_ticks.saturating_sub(last.all_ticks);
        if secs <= 0.0 || ticks == 0 {
            return self.allowed;
        }
        let rate = |a: u64, b: u64| a.saturating_sub(b) as f64 / 1e9 / secs;
        let queued = rate(now.queued_ns, last.queued_ns);
        let gained = rate(now.run_ns, last.run_ns) - 1.0;
        let idle_share = now.idle_ticks.saturating_sub(last.idle_ticks) as f64 / ticks as f64;
        let idle_cores = idle_share * f64::from(now.cores);
        let k = self.allowed;
        if k > 0 && queued > QUEUED_MAX && gained < GAIN_MIN * k as f64 {
            self.allowed -= 1;
            self.calm = 0;
            self.retry = RETRY_WINDOWS;
        } else if k < self.helpers {
            self.calm = if idle_cores >= IDLE_MIN {
                self.calm + 1
            } else {
                0
            };
            self.retry = self.retry.saturating_sub(1);
            if self.calm >= CALM_WINDOWS || self.retry == 0 {
                self.allowed += 1;
                self.calm = 0;
                self.retry = RETRY_WINDOWS;
            }
        }
        self.allowed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sample `ms` milliseconds after `t0` with these counters (2 cores, 100 ticks a second
    /// for each).
    fn at(t0: Instant, ms: u64, run_ms: u64, queued_ms: u64, idle_ticks: u64) -> LoadSample {
        LoadSample {
            at: t0 + Duration::from_millis(ms),
            run_ns: run_ms * 1_000_000,
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

    /// Threads queueing for cores while the helpers add little CPU send one helper away per
    /// window; idle cores bring them back one per two windows, and without idle cores one tries
    /// again every ten windows; a machine we fill ourselves changes nothing.
    #[test]
    fn helpers_stand_down_under_load_and_come_back_when_cores_are_idle() {
        let t0 = Instant::now();
        let mut g = Governor::new(2, 2, at(t0, 0, 0, 0, 0));
        // Our three threads fill both cores and more: queued, but 1.9 cores of CPU.
        assert_eq!(g.next(at(t0, 100, 190, 40, 0)), 2);
        // Another program runs: our threads queue and get 1.05 cores between them.
        assert_eq!(g.next(at(t0, 200, 295, 100, 0)), 1);
        assert_eq!(g.next(at(t0, 300, 400, 160, 0)), 0);
        let mut ms = 300;
        let (mut run, queued, mut idle) = (400, 160, 0);
        // Alone on one core beside the other program: no queue, nothing idle, one core of CPU.
        for _ in 0..9 {
            (ms, run) = (ms + 100, run + 100);
            assert_eq!(g.next(at(t0, ms, run, queued, idle)), 0);
        }
        // The tenth window: a helper tries again, and gets 1.15 cores between the two: it stays.
        (ms, run) = (ms + 100, run + 100);
        assert_eq!(g.next(at(t0, ms, run, queued, idle)), 1);
        (ms, run) = (ms + 100, run + 115);
        assert_eq!(g.next(at(t0, ms, run, queued + 60, idle)), 1);
        // The other program ends: a core idle for two windows brings the last helper back.
        (ms, run, idle) = (ms + 100, run + 200, idle + 10);
        assert_eq!(g.next(at(t0, ms, run, queued + 60, idle)), 1);
        (ms, run, idle) = (ms + 100, run + 200, idle + 10);
        assert_eq!(g.next(at(t0, ms, run, queued + 60, idle)), 2);
        (ms, run) = (ms + 100, run + 200);
        assert_eq!(g.next(at(t0, ms, run, queued + 60, idle)), 2);
    }

    /// On Linux the counters are readable, the machine's only grow, and a thread's time on a
    /// core grows while it works. (The process's sum over its threads may drop between two
    /// samples when other threads end, as the test harness's do.)
    #[test]
    #[cfg(target_os = "linux")]
    fn this_machine_gives_counters() {
        let a = LoadSample::now().expect("/proc gives the load");
        let own = || {
            let text = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap();
            parse_schedstat(&text).expect("schedstat parses")
        };
        let before = own();
        let start = Instant::now();
        let mut x = 1u64;
        while start.elapsed() < Duration::from_millis(30) {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        let after = own();
        let b = LoadSample::now().expect("/proc gives the load");
        assert!(a.cores >= 1 && a.cores == b.cores);
        assert!(b.all_ticks >= a.all_ticks && b.idle_ticks >= a.idle_ticks);
        assert!(a.run_ns > 0 && b.run_ns > 0);
        assert!(
            after.0 > before.0 && after.1 >= before.1,
            "{before:?} -> {after:?}"
        );
    }

    #[test]
    fn schedstat_text_gives_run_and_queued_time() {
        assert_eq!(parse_schedstat("1234 567 89\n"), Some((1234, 567)));
        assert_eq!(parse_schedstat("1234\n"), None);
        assert_eq!(parse_schedstat("x 1 2\n"), None);
    }
}
