//! Split points and the pool of threads that join them: a split point hands out its node's
//! moves, best first, one at a time, and keeps the best value found; idle helpers join any
//! open split point with moves left, an owner waiting for its own only those opened below it.
//! Nobody spins long: a thread with nothing to do sleeps after a short watch, so that a search
//! sharing its machine with other programs does not burn the time its own threads need. While
//! the threads queue for cores (another program busy on the machine), helpers stand down one
//! by one ([`Governor`]) and come back when cores are idle again.

use crate::search::load::{self, Governor, LoadSample};
use crate::search::ordering::{Candidate, MidgameOrdering};
use crate::search::tt::MoveHint;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::*};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How far the moves of a split point's node are searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitDepth {
    /// To the end of the game (an endgame node of this many empties; alpha in whole discs).
    End(u32),
    /// This many plies (a midgame node; alpha in eighths of a disc).
    Plies(u32),
}

/// The node of a split point: searched with a null window around `alpha`, and what the
/// joiners' contexts need to search its moves as the owner would.
#[derive(Clone, Copy, Debug)]
pub struct SplitNode {
    pub player: u64,
    pub opponent: u64,
    pub depth: SplitDepth,
    pub alpha: i32,
    /// Multi-ProbCut level of the owner's search.
    pub selectivity: u8,
    /// The owner's midgame ordering (`Context::midgame_ordering`).
    pub midgame_ordering: MidgameOrdering,
    /// The owner's least table depth (`Context::tt_min_depth`).
    pub tt_min_depth: u32,
}

/// Shared moves of one endgame node.
pub struct SplitPoint {
    pub node: SplitNode,
    /// The split point whose move its owner was searching when it opened this one (none at
    /// the main thread's own nodes): the chain that tells a waiting owner what lies below it.
    parent: Option<Arc<SplitPoint>>,
    moves: Vec<Candidate>,
    next: AtomicUsize,
    /// Threads (other than the owner) that joined and have not left yet.
    workers: AtomicUsize,
    /// Set on a cut-off or when a searcher of it stops: the others drop their move.
    pub abort: AtomicBool,
    /// Best value and move found by anyone.
    best: Mutex<(i32, MoveHint)>,
}

impl SplitPoint {
    /// The split point of `node` with `moves` still to search, best first, opened while its
    /// owner searched a move of `parent`.
    pub fn new(node: SplitNode, parent: Option<Arc<SplitPoint>>, moves: Vec<Candidate>) -> Self {
        SplitPoint {
            node,
            parent,
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

    /// True while a joiner could still take a move.
    fn has_moves(&self) -> bool {
        !self.abort.load(Relaxed) && self.next.load(Relaxed) < self.moves.len()
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

    /// True when this split point was opened below `ancestor` (by a thread searching one of
    /// its moves, or deeper).
    fn is_below(&self, ancestor: &SplitPoint) -> bool {
        let mut p = self.parent.as_deref();
        while let Some(sp) = p {
            if std::ptr::eq(sp, ancestor) {
                return true;
            }
            p = sp.parent.as_deref();
        }
        false
    }

    fn best(&self) -> (i32, MoveHint) {
        self.best
            .lock()
            .map(|b| *b)
            .unwrap_or((i32::MIN, MoveHint::NONE))
    }
}

/// How long an idle helper watches for a split point before it sleeps (waking costs a system
/// call, and on a virtual machine an interrupt).
const IDLE_SPIN: Duration = Duration::from_micros(50);

/// How long a waiting owner watches for its helpers to finish before it sleeps.
const OWNER_SPIN: Duration = Duration::from_micros(20);

/// How long a waiting owner sleeps at most before it polls its stop flag again.
const OWNER_POLL: Duration = Duration::from_millis(1);

/// What an owner does while it waits for the joiners of its split point.
pub trait Waiting {
    /// Searches moves of the joined split point `sp` (opened below the owner's); returns the
    /// nodes counted.
    fn join(&mut self, sp: &Arc<SplitPoint>) -> u64;
    /// True once the owner must stop.
    fn must_stop(&mut self) -> bool;
}

/// The open split points and the threads waiting for work.
#[derive(Default)]
pub struct SplitPool {
    open: Mutex<Vec<Arc<SplitPoint>>>,
    /// Counts the split points ever opened and the changes of `allowed` (changed under the
    /// `open` lock): a thread that found nothing to join waits for it to change.
    opened: AtomicU64,
    /// Helpers allowed to work: those numbered above it stand down (asleep, not counted idle).
    allowed: AtomicUsize,
    /// Threads waiting for work: idle helpers and owners waiting for their helpers.
    idle: AtomicUsize,
    /// Threads asleep on `wake` (changed under the `open` lock).
    sleeping: AtomicUsize,
    wake: Condvar,
    shutdown: AtomicBool,
    /// Nodes searched by joiners.
    pub helper_nodes: AtomicU64,
}

impl SplitPool {
    /// A pool for `helpers` helper threads, all allowed to work.
    pub fn new(helpers: usize) -> SplitPool {
        SplitPool {
            allowed: AtomicUsize::new(helpers),
            ..SplitPool::default()
        }
    }

    /// Lets helpers `1..=n` work; the others stand down once their current split point is done.
    pub fn allow(&self, n: usize) {
        if let Ok(_open) = self.open.lock() {
            if self.allowed.swap(n, AcqRel) != n {
                self.opened.fetch_add(1, Release);
                self.wake_sleepers();
            }
        }
    }

    /// True when helper `index` (from 1) may work.
    fn is_allowed(&self, index: usize) -> bool {
        index <= self.allowed.load(Acquire)
    }

    /// True once [`SplitPool::shut_down`] was called.
    pub fn is_shut_down(&self) -> bool {
        self.shutdown.load(Acquire)
    }

    /// True when some thread is waiting for work (cheap: checked before opening a split).
    #[inline(always)]
    pub fn has_idle(&self) -> bool {
        self.idle.load(Relaxed) > 0
    }

    /// Opens `sp` to joiners.
    pub fn open(&self, sp: &Arc<SplitPoint>) {
        if let Ok(mut open) = self.open.lock() {
            open.push(sp.clone());
            self.opened.fetch_add(1, Release);
            self.wake_sleepers();
        }
    }

    /// Wakes the sleeping threads (called under the `open` lock, so none misses it).
    fn wake_sleepers(&self) {
        if self.sleeping.load(Relaxed) > 0 {
            self.wake.notify_all();
        }
    }

    /// Joins the oldest open split point with moves left that `accept`s (under the lock, so
    /// that its owner, which closes it under the same lock, waits for this joiner).
    fn join(
        open: &MutexGuard<'_, Vec<Arc<SplitPoint>>>,
        accept: impl Fn(&SplitPoint) -> bool,
    ) -> Option<Arc<SplitPoint>> {
        let sp = open.iter().find(|sp| sp.has_moves() && accept(sp))?;
        sp.workers.fetch_add(1, AcqRel);
        Some(sp.clone())
    }

    /// Leaves a split point joined by [`SplitPool::join`], waking its owner when it was the
    /// last joiner.
    fn leave(&self, sp: &SplitPoint, nodes: u64) {
        self.helper_nodes.fetch_add(nodes, Relaxed);
        if sp.workers.fetch_sub(1, AcqRel) == 1 {
            if let Ok(_open) = self.open.lock() {
                self.wake_sleepers();
            }
        }
    }

    /// Watches `done` for up to `limit`; true when it came true.
    fn watch(limit: Duration, done: impl Fn() -> bool) -> bool {
        let start = Instant::now();
        loop {
            for _ in 0..64 {
                if done() {
                    return true;
                }
                std::hint::spin_loop();
            }
            if start.elapsed() >= limit {
                return false;
            }
        }
    }

    /// Helper `index` waits for a split point to join: any with moves left, counted as idle
    /// while it is allowed to work, asleep while it stands down (a change of `allowed` bumps
    /// `opened`, which wakes it). `None` at shutdown.
    fn wait_for_work(&self, index: usize) -> Option<Arc<SplitPoint>> {
        let mut open = self.open.lock().ok()?;
        let mut counted = false;
        let taken = 'wait: loop {
            if self.is_shut_down() {
                break None;
            }
            let allowed = self.is_allowed(index);
            if allowed != counted {
                if allowed {
                    self.idle.fetch_add(1, AcqRel);
                } else {
                    self.idle.fetch_sub(1, AcqRel);
                }
                counted = allowed;
            }
            if allowed {
                if let Some(sp) = Self::join(&open, |_| true) {
                    break Some(sp);
                }
            }
            // Nothing to join (or standing down): wait for a split point to open, `allowed`
            // to change or the pool to shut down; watching first when allowed.
            let seen = self.opened.load(Acquire);
            let fresh = || self.opened.load(Acquire) != seen || self.is_shut_down();
            if allowed {
                drop(open);
                let came = Self::watch(IDLE_SPIN, fresh);
                let Ok(relocked) = self.open.lock() else {
                    break None;
                };
                open = relocked;
                if came {
                    continue;
                }
            }
            self.sleeping.fetch_add(1, Relaxed);
            while !fresh() {
                match self.wake.wait(open) {
                    Ok(o) => open = o,
                    Err(_) => break 'wait None,
                }
            }
            self.sleeping.fetch_sub(1, Relaxed);
        };
        if counted {
            self.idle.fetch_sub(1, AcqRel);
        }
        taken
    }

    /// Samples the machine's load every [`load::WINDOW`] until shut down (then unpark this
    /// thread), letting as many of the `helpers` work as the [`Governor`] says, `working` of
    /// them at first. Returns the number working at the end: all of them at once where the
    /// load cannot be read.
    pub fn govern(&self, helpers: usize, working: usize) -> usize {
        let Some(first) = LoadSample::now() else {
            self.allow(helpers);
            return helpers;
        };
        let mut governor = Governor::new(helpers, working, first);
        let mut next = Instant::now() + load::WINDOW;
        while !self.is_shut_down() {
            let now = Instant::now();
            if now < next {
                std::thread::park_timeout(next - now);
                continue;
            }
            next = now + load::WINDOW;
            let Some(sample) = LoadSample::now() else {
                break;
            };
            let before = governor.working();
            let working = governor.next(sample);
            if working != before {
                tracing::debug!("helpers working: {before} -> {working} (of {helpers})");
            }
            tracing::trace!("load: {sample:?}");
            self.allow(working);
        }
        governor.working()
    }

    /// Ends the helpers' loops.
    pub fn shut_down(&self) {
        self.shutdown.store(true, Release);
        if let Ok(_open) = self.open.lock() {
            self.wake.notify_all();
        }
    }

    /// The loop of helper `index` (from 1): waits for a split point, has `search` search its
    /// moves (returning the nodes it counted), repeats until shut down.
    pub fn helper_loop(&self, index: usize, mut search: impl FnMut(&Arc<SplitPoint>) -> u64) {
        while let Some(sp) = self.wait_for_work(index) {
            let nodes = search(&sp);
            self.leave(&sp, nodes);
        }
    }

    /// The owner's end of `sp` once it took no more moves: closes it to joiners, then waits
    /// for those who joined, meanwhile joining the split points opened below it and aborting
    /// `sp` once it must stop. Returns the best (value, move) found.
    pub fn finish(&self, sp: &Arc<SplitPoint>, owner: &mut impl Waiting) -> (i32, MoveHint) {
        if let Ok(mut open) = self.open.lock() {
            open.retain(|o| !Arc::ptr_eq(o, sp));
        }
        let done = || sp.workers.load(Acquire) == 0;
        let mut seen = None;
        while !done() {
            if owner.must_stop() {
                sp.abort.store(true, Relaxed);
            }
            let opened = self.opened.load(Acquire);
            if seen != Some(opened) {
                seen = Some(opened);
                let below = self
                    .open
                    .lock()
                    .ok()
                    .and_then(|open| Self::join(&open, |o| o.is_below(sp)));
                if let Some(child) = below {
                    let nodes = owner.join(&child);
                    self.leave(&child, nodes);
                    seen = None;
                    continue;
                }
            }
            self.idle.fetch_add(1, AcqRel);
            let fresh = || done() || self.opened.load(Acquire) != opened;
            if !Self::watch(OWNER_SPIN, fresh) {
                if let Ok(open) = self.open.lock() {
                    if !fresh() {
                        self.sleeping.fetch_add(1, Relaxed);
                        let _ = self.wake.wait_timeout(open, OWNER_POLL);
                        self.sleeping.fetch_sub(1, Relaxed);
                    }
                }
            }
            self.idle.fetch_sub(1, AcqRel);
        }
        sp.best()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split_point(parent: Option<Arc<SplitPoint>>, moves: usize) -> Arc<SplitPoint> {
        let node = SplitNode {
            player: 0,
            opponent: 0,
            depth: SplitDepth::End(20),
            alpha: 0,
            selectivity: 0,
            midgame_ordering: MidgameOrdering::Solve,
            tt_min_depth: 3,
        };
        Arc::new(SplitPoint::new(
            node,
            parent,
            vec![Candidate::default(); moves],
        ))
    }

    /// A helper that stood down joins no split point and is not counted idle (so no owner
    /// splits for it) until it is allowed again; then it joins the open one.
    #[test]
    fn a_helper_that_stood_down_joins_nothing_until_allowed_again() {
        let pool = SplitPool::new(1);
        pool.allow(0);
        let joined = AtomicUsize::new(0);
        std::thread::scope(|s| {
            s.spawn(|| {
                pool.helper_loop(1, |sp| {
                    while sp.take().is_some() {}
                    joined.fetch_add(1, SeqCst);
                    0
                })
            });
            let sp = split_point(None, 3);
            pool.open(&sp);
            std::thread::sleep(Duration::from_millis(50));
            assert_eq!(joined.load(SeqCst), 0);
            assert!(!pool.has_idle());
            pool.allow(1);
            let start = Instant::now();
            while joined.load(SeqCst) == 0 && start.elapsed() < Duration::from_secs(20) {
                std::thread::sleep(Duration::from_millis(1));
            }
            assert_eq!(joined.load(SeqCst), 1);
            pool.shut_down();
        });
    }

    /// An owner that takes every move of the split points it joins, and lets the helper of
    /// its own split point leave once it joined one.
    struct Owner<'a> {
        pool: &'a SplitPool,
        own: Arc<SplitPoint>,
        joined: Vec<Arc<SplitPoint>>,
    }

    impl Waiting for Owner<'_> {
        fn join(&mut self, sp: &Arc<SplitPoint>) -> u64 {
            while sp.take().is_some() {}
            self.joined.push(sp.clone());
            self.pool.leave(&self.own, 7);
            3
        }

        fn must_stop(&mut self) -> bool {
            false
        }
    }

    /// A waiting owner joins the split point its helper opened below its own, never an
    /// unrelated one, and returns once its helper left.
    #[test]
    fn a_waiting_owner_joins_only_split_points_below_its_own() {
        let pool = SplitPool::default();
        let own = split_point(None, 3);
        let unrelated = split_point(None, 3);
        let below = split_point(Some(own.clone()), 3);
        let deeper = split_point(Some(below.clone()), 0);
        assert!(deeper.is_below(&own) && below.is_below(&own) && !unrelated.is_below(&own));
        pool.open(&own);
        // A helper joins the owner's split point and takes a move.
        let helper = pool
            .open
            .lock()
            .ok()
            .and_then(|o| SplitPool::join(&o, |_| true));
        assert!(Arc::ptr_eq(&helper.unwrap(), &own));
        assert!(own.take().is_some());
        pool.open(&unrelated);
        pool.open(&below);
        let mut owner = Owner {
            pool: &pool,
            own: own.clone(),
            joined: Vec::new(),
        };
        while own.take().is_some() {}
        pool.finish(&own, &mut owner);
        assert_eq!(owner.joined.len(), 1);
        assert!(Arc::ptr_eq(&owner.joined[0], &below));
        assert_eq!(pool.helper_nodes.load(Relaxed), 10);
        // Closed: nobody joins the owner's split point any more.
        let open = pool.open.lock().unwrap();
        assert!(open.iter().all(|o| !Arc::ptr_eq(o, &own)));
    }
}
