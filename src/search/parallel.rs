//! Young-brothers-wait parallel search: once the first move of a deep node has been searched
//! without a cut-off, the remaining moves may be shared with idle threads through a split
//! point. Every thread takes moves from the split point's list; a cut-off, or the owner being
//! told to stop, aborts the helpers working on it. Results are exact whatever the timing.

use super::ordering::Candidate;
use super::tt::MoveHint;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::*};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The node of a split point: searched with a null window around `alpha`, and what the
/// helpers' contexts need to search its moves as the owner would.
#[derive(Clone, Copy, Debug)]
pub struct SplitNode {
    pub player: u64,
    pub opponent: u64,
    /// Empties of the node.
    pub empties: u32,
    pub alpha: i32,
    /// Multi-ProbCut level of the owner's search.
    pub selectivity: u8,
    /// The owner's ordering window (`Context::ordering_window`).
    pub ordering_window: i32,
    /// The owner's least table depth (`Context::tt_min_depth`).
    pub tt_min_depth: u32,
}

/// Shared moves of one endgame node.
pub struct SplitPoint {
    pub node: SplitNode,
    moves: Vec<Candidate>,
    next: AtomicUsize,
    /// Threads (other than the owner) still searching a move of this split point.
    workers: AtomicUsize,
    /// Set on a cut-off or when the owner stops: helpers drop their move.
    pub abort: AtomicBool,
    /// Best value and move found by anyone.
    best: Mutex<(i32, MoveHint)>,
}

impl SplitPoint {
    /// The split point of `node` with `moves` still to search, best first.
    pub fn new(node: SplitNode, moves: Vec<Candidate>) -> SplitPoint {
        SplitPoint {
            node,
            moves,
            next: AtomicUsize::new(0),
            workers: AtomicUsize::new(0),
            abort: AtomicBool::new(false),
            best: Mutex::new((i32::MIN, MoveHint::NONE)),
        }
    }

    /// Takes the next unsearched move, if any and not aborted.
    pub fn take(&self) -> Option<Candidate> {
        if self.abort.load(Relaxed) {
            return None;
        }
        let i = self.next.fetch_add(1, Relaxed);
        self.moves.get(i).copied()
    }

    /// Records a finished move's value; true when it cuts off.
    pub fn record(&self, v: i32, sq: u8) -> bool {
        if let Ok(mut b) = self.best.lock() {
            if v > b.0 {
                *b = (v, MoveHint::square(sq));
            }
        }
        if v > self.node.alpha {
            self.abort.store(true, Relaxed);
            true
        } else {
            false
        }
    }

    /// Waits for the helpers to finish, aborting them once `should_stop` says so; the
    /// processor is offered to other threads now and then (a system call each time, so not
    /// at every turn). Returns the best (value, move) found.
    pub fn finish(&self, mut should_stop: impl FnMut() -> bool) -> (i32, MoveHint) {
        let mut turns = 0u32;
        while self.workers.load(Acquire) > 0 {
            if should_stop() {
                self.abort.store(true, Relaxed);
            }
            std::hint::spin_loop();
            turns += 1;
            if turns.is_multiple_of(64) {
                std::thread::yield_now();
            }
        }
        self.best
            .lock()
            .map(|b| *b)
            .unwrap_or((i32::MIN, MoveHint::NONE))
    }
}

/// How long an idle helper watches for a split point before it sleeps (waking costs a system
/// call).
const IDLE_SPIN: Duration = Duration::from_millis(2);

/// The idle helper threads and the split point waiting for them.
#[derive(Default)]
pub struct SplitPool {
    idle: AtomicUsize,
    pending: Mutex<Option<Arc<SplitPoint>>>,
    /// A split point is in `pending` (read by spinning helpers without the lock).
    offered: AtomicBool,
    /// Helpers asleep on `wake` (changed and read under the `pending` lock).
    sleeping: AtomicUsize,
    wake: Condvar,
    shutdown: AtomicBool,
    /// Nodes searched by helpers.
    pub helper_nodes: AtomicU64,
}

impl SplitPool {
    /// True when some helper is waiting for work (cheap: checked before preparing a split).
    #[inline(always)]
    pub fn has_idle(&self) -> bool {
        self.idle.load(Relaxed) > 0
    }

    /// Offers `sp` to one idle helper; false when none took the slot.
    pub fn offer(&self, sp: &Arc<SplitPoint>) -> bool {
        let Ok(mut slot) = self.pending.lock() else {
            return false;
        };
        if slot.is_some() || self.idle.load(Relaxed) == 0 {
            return false;
        }
        sp.workers.fetch_add(1, AcqRel);
        *slot = Some(sp.clone());
        self.offered.store(true, Release);
        if self.sleeping.load(Relaxed) > 0 {
            self.wake.notify_one();
        }
        true
    }

    /// Waits, counted as idle, for a split point to help with: watches for one for up to
    /// [`IDLE_SPIN`], then sleeps until woken. `None` at shutdown.
    fn wait_for_work(&self) -> Option<Arc<SplitPoint>> {
        self.idle.fetch_add(1, AcqRel);
        let taken = self.take_offered();
        self.idle.fetch_sub(1, AcqRel);
        taken
    }

    fn take_offered(&self) -> Option<Arc<SplitPoint>> {
        loop {
            let spun = self.spin_for_work();
            let mut slot = self.pending.lock().ok()?;
            let mut asleep = false;
            loop {
                let shutdown = self.shutdown.load(Acquire);
                if shutdown || slot.is_some() {
                    if asleep {
                        self.sleeping.fetch_sub(1, Relaxed);
                    }
                    if shutdown {
                        return None;
                    }
                    self.offered.store(false, Release);
                    return slot.take();
                }
                if spun && !asleep {
                    // Another helper took it first: watch again before sleeping.
                    break;
                }
                if !asleep {
                    asleep = true;
                    self.sleeping.fetch_add(1, Relaxed);
                }
                slot = self.wake.wait(slot).ok()?;
            }
        }
    }

    /// Watches for a split point or the shutdown for up to [`IDLE_SPIN`]; true when one came.
    fn spin_for_work(&self) -> bool {
        let start = Instant::now();
        loop {
            for _ in 0..64 {
                if self.offered.load(Acquire) || self.shutdown.load(Acquire) {
                    return true;
                }
                std::hint::spin_loop();
            }
            if start.elapsed() >= IDLE_SPIN {
                return false;
            }
        }
    }

    /// Ends the helpers' loops.
    pub fn shut_down(&self) {
        self.shutdown.store(true, Release);
        if let Ok(_slot) = self.pending.lock() {
            self.wake.notify_all();
        }
    }

    /// The loop of a helper thread: waits for a split point, has `help` search its moves
    /// (returning the nodes it counted), repeats until shut down.
    pub fn helper_loop(&self, mut help: impl FnMut(&SplitPoint) -> u64) {
        while let Some(sp) = self.wait_for_work() {
            let nodes = help(&sp);
            self.helper_nodes.fetch_add(nodes, Relaxed);
            sp.workers.fetch_sub(1, AcqRel);
        }
    }
}
