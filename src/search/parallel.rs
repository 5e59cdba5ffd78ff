//! Young-brothers-wait parallel search: once the first move of a deep node has been searched
//! without a cut-off, the remaining moves may be shared with idle threads through a split
//! point. Every thread takes moves from the split point's list; a cut-off, or the owner being
//! told to stop, aborts the helpers working on it. Results are exact whatever the timing.

use super::context::Context;
use super::end_cache::EndCache;
use super::ordering::Candidate;
use crate::eval::Evaluator;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::*};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Shared moves of one node searched with a null window around `alpha`.
pub struct SplitPoint {
    pub player: u64,
    pub opponent: u64,
    /// Empties of the node.
    pub empties: u32,
    /// Midgame depth of the node, or `None` in the endgame solver.
    pub depth: Option<u32>,
    pub alpha: i32,
    /// Multi-ProbCut level of the owner's search.
    pub selectivity: u8,
    /// The owner's ordering window ([`Context::ordering_window`]).
    pub ordering_window: i32,
    /// The owner's least table depth ([`Context::tt_min_depth`]).
    pub tt_min_depth: u32,
    moves: Vec<Candidate>,
    next: AtomicUsize,
    /// Threads (other than the owner) still searching a move of this split point.
    workers: AtomicUsize,
    /// Set on a cut-off or when the owner stops: helpers drop their move.
    pub abort: AtomicBool,
    /// Best value and move found by anyone.
    best: Mutex<(i32, u8)>,
}

impl SplitPoint {
    /// Takes the next unsearched move, if any and not aborted.
    fn take(&self) -> Option<Candidate> {
        if self.abort.load(Relaxed) {
            return None;
        }
        let i = self.next.fetch_add(1, Relaxed);
        self.moves.get(i).copied()
    }

    /// Records a finished move's value; true when it cuts off.
    fn record(&self, v: i32, sq: u8) -> bool {
        if let Ok(mut b) = self.best.lock() {
            if v > b.0 {
                *b = (v, sq);
            }
        }
        if v > self.alpha {
            self.abort.store(true, Relaxed);
            true
        } else {
            false
        }
    }
}

/// How long an idle helper watches for a split point before it sleeps on the condition
/// variable. Waking a sleeping thread costs a system call and, on a virtual machine, an
/// interrupt to a halted virtual CPU. With helpers that slept at once, a fresh endgame cache
/// per split point and an owner yielding at every turn while it waited, two threads on a
/// 2-vCPU KVM guest in a slow spell searched FFO #49 no faster than one (12.9 s against
/// 13.9 s, 148 % CPU, 2.45 s of it in the kernel). Side by side later, alternating, two
/// threads: #49 8.17 / 7.85 s before, 7.28 / 6.90 s with this, kernel time 0.66 / 0.56 s ->
/// 0.16 / 0.21 s; #40-#49 27.9 / 30.4 s before, 29.8 / 28.4 s with this (within the noise).
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
    fn offer(&self, sp: &Arc<SplitPoint>) -> bool {
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

    /// The loop of a helper thread: wait for a split point, search its moves, repeat.
    pub fn helper_loop<E: Evaluator>(
        &self,
        tt: &super::tt::TranspositionTable,
        eval: &E,
        probcut: &super::probcut::ProbCutModel,
    ) {
        // The helper's endgame cache lives as long as the helper, from split point to split
        // point.
        let mut end_cache = EndCache::default();
        while let Some(sp) = self.wait_for_work() {
            let mut ctx = Context::new_with_end_cache(tt, eval, &sp.abort, end_cache)
                .with_probcut(probcut)
                .with_pool(self);
            ctx.selectivity = sp.selectivity;
            ctx.ordering_window = sp.ordering_window;
            ctx.tt_min_depth = sp.tt_min_depth;
            work_on(&mut ctx, &sp);
            self.helper_nodes.fetch_add(ctx.nodes, Relaxed);
            end_cache = ctx.end_cache;
            sp.workers.fetch_sub(1, AcqRel);
        }
    }
}

/// Searches moves of `sp` until none is left or it is aborted.
fn work_on<E: Evaluator>(ctx: &mut Context<'_, E>, sp: &SplitPoint) {
    while let Some(c) = sp.take() {
        let (np, no) = c.child(sp.player, sp.opponent);
        let v = match sp.depth {
            None => -ctx.nws_end(np, no, -sp.alpha - 1, sp.empties - 1),
            Some(d) => -ctx.nws_mid(np, no, -sp.alpha - 1, d - 1),
        };
        if ctx.stopped {
            return;
        }
        if sp.record(v, c.sq) {
            return;
        }
    }
}

impl<E: Evaluator> Context<'_, E> {
    /// True when an idle helper could take a split point now.
    #[inline(always)]
    pub fn can_split(&self) -> bool {
        self.pool.is_some_and(|p| p.has_idle())
    }

    /// Shares `rest` (moves still to search, best first) of a null-window node with idle
    /// helpers and searches them too. Returns the best (value, move) over them, or `None` when
    /// no helper was free (the caller then searches them alone).
    pub fn split(
        &mut self,
        player: u64,
        opponent: u64,
        empties: u32,
        depth: Option<u32>,
        alpha: i32,
        rest: Vec<Candidate>,
    ) -> Option<(i32, u8)> {
        let pool = self.pool?;
        let sp = Arc::new(SplitPoint {
            player,
            opponent,
            empties,
            depth,
            alpha,
            selectivity: self.selectivity,
            ordering_window: self.ordering_window,
            tt_min_depth: self.tt_min_depth,
            moves: rest,
            next: AtomicUsize::new(0),
            workers: AtomicUsize::new(0),
            abort: AtomicBool::new(false),
            best: Mutex::new((i32::MIN, 64)),
        });
        if !pool.offer(&sp) {
            return None;
        }
        // The owner works on its own split point with its own stop flag.
        while let Some(c) = sp.take() {
            let (np, no) = c.child(player, opponent);
            let v = match depth {
                None => -self.nws_end(np, no, -alpha - 1, empties - 1),
                Some(d) => -self.nws_mid(np, no, -alpha - 1, d - 1),
            };
            if self.stopped {
                sp.abort.store(true, Relaxed);
                break;
            }
            if sp.record(v, c.sq) {
                break;
            }
        }
        // Wait for the helpers, passing on a stop request; the processor is offered to other
        // threads now and then (a system call each time, so not at every turn).
        let mut turns = 0u32;
        while sp.workers.load(Acquire) > 0 {
            if self.should_stop() {
                sp.abort.store(true, Relaxed);
            }
            std::hint::spin_loop();
            turns += 1;
            if turns.is_multiple_of(64) {
                std::thread::yield_now();
            }
        }
        let best = sp.best.lock().map(|b| *b).unwrap_or((i32::MIN, 64));
        Some(best)
    }
}
