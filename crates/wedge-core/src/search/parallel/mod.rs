//! The parallel search, young brothers wait with late joining: once the first move of a deep
//! node (in the endgame, or in the midgame to a depth) has been searched without a cut-off
//! and some thread is idle, the node's remaining moves become a split point open to joiners,
//! each searched with a null window ([`Context::split`]; at principal-variation nodes and the
//! root, a move that fails high is searched again by the owner). Idle helpers ([`help`]) join
//! any open split point with moves left; an owner waiting for its split point's last moves
//! joins only the split points below its own (its helpers' work), so that it never waits idle
//! while they could use it. The split points and the pool of threads are in [`pool`]. Solves
//! are exact whatever the timing (midgame values may differ from one thread's by what the
//! shared table held when).

pub(super) mod pool;

use super::context::Context;
use super::end_cache::EndCache;
use super::eval_cache::EvalCache;
use super::node::{Kind, Node, Phase, Pv, Tried};
use super::ordering::{Candidate, UNSCORED};
use super::tt::MoveHint;
use crate::board::Board;
use crate::eval::Evaluator;
use pool::{SplitDepth, SplitNode, SplitPoint, SplitPool, Waiting};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// The loop of helper `index` (from 1) of `pool`: joins split points and searches their moves
/// with `ctx`, set as the main thread's (table, evaluation, ProbCut model, book, stop flag
/// and deadline), which keeps its endgame cache from one split point to the next.
pub fn help<E: Evaluator>(index: usize, pool: &SplitPool, mut ctx: Context<'_, E>) {
    pool.helper_loop(index, |sp| ctx.join(sp));
}

/// A thread joins a split point (a helper, or an owner waiting below its own) with a context
/// of its own, set as the thread's but stopping on the split point's abort flag as well, and
/// lent the thread's endgame cache.
impl<E: Evaluator> Waiting for Context<'_, E> {
    fn join(&mut self, sp: &Arc<SplitPoint>) -> u64 {
        let cache = std::mem::replace(&mut self.end_cache, EndCache::detached());
        let evals = std::mem::replace(&mut self.eval_cache, EvalCache::detached());
        let mut ctx = Context::new_with_caches(self.tt, self.eval, &sp.abort, cache, evals)
            .with_search_stop(self.search_stop())
            .with_deadline(self.deadline)
            .with_probcut(self.probcut)
            .with_book_from(self);
        ctx.pool = self.pool;
        ctx.selectivity = sp.node.selectivity;
        ctx.midgame_ordering = sp.node.midgame_ordering;
        ctx.tt_min_depth = sp.node.tt_min_depth;
        ctx.split_parent = Some(sp.clone());
        if ctx.search_split(sp) {
            sp.abort.store(true, Ordering::Relaxed);
        }
        self.end_cache = ctx.end_cache;
        self.eval_cache = ctx.eval_cache;
        ctx.nodes
    }

    fn must_stop(&mut self) -> bool {
        self.should_stop()
    }
}

impl<E: Evaluator> Context<'_, E> {
    /// Searches moves of `sp` until none is left, it is aborted or this context stops; true
    /// when this context stopped.
    fn search_split(&mut self, sp: &SplitPoint) -> bool {
        let node = sp.node;
        let alpha = node.alpha;
        match node.depth {
            SplitDepth::End(n) => self.search_split_moves(sp, |ctx, _, (np, no)| {
                -ctx.nws_end(np, no, -alpha - 1, n - 1)
            }),
            SplitDepth::Plies(depth) => {
                // Each thread builds the node's evaluation state once for the moves it takes.
                let state = self.eval.state(&Board::new(node.player, node.opponent));
                self.search_split_moves(sp, |ctx, c, (np, no)| {
                    let cs = ctx.eval.play(&state, c.sq as usize, c.flips);
                    -ctx.nws(np, no, &cs, -alpha - 1, depth - 1)
                })
            }
        }
    }

    /// Takes moves of `sp` and gives `value(move, child)` of each until none is left, it is
    /// aborted or this context stops; true when this context stopped.
    #[inline(always)]
    fn search_split_moves(
        &mut self,
        sp: &SplitPoint,
        mut value: impl FnMut(&mut Self, &Candidate, (u64, u64)) -> i32,
    ) -> bool {
        let node = sp.node;
        while let Some(c) = sp.take() {
            let v = value(self, &c, c.child(node.player, node.opponent));
            if self.stopped {
                return true;
            }
            if sp.record(v, c.sq) {
                break;
            }
        }
        false
    }

    /// The moves `rest` of a principal-variation node `at` after its first, `alpha` the best
    /// value so far: null-window searches around alpha shared with idle threads
    /// ([`Context::split`]); a move that fails high is searched again by this thread above
    /// its value ([`principal_variation_rule`]) and given to `researched` (square, value; a
    /// move that reaches beta at once, with its bound), and the moves left again around the
    /// new alpha (those searched before find their bounds in the table). The best (value,
    /// move) over `rest`.
    pub(super) fn split_pv<P: Phase<E>>(
        &mut self,
        phase: &P,
        at: Node,
        depth: SplitDepth,
        mut rest: Vec<Candidate>,
        mut alpha: i32,
        mut researched: impl FnMut(u8, i32),
    ) -> Option<(i32, MoveHint)> {
        let Board { player, opponent } = at.board;
        let mut best = (i32::MIN, MoveHint::NONE);
        loop {
            let (v, sq) = self.split(player, opponent, depth, alpha, rest.clone())?;
            if v <= alpha || self.stopped {
                return Some(if v > best.0 { (v, sq) } else { best });
            }
            if v >= at.beta {
                // A cut-off: the null window's bound is the move's value.
                researched(sq.index(), v);
                return Some((v, sq));
            }
            let Some(k) = rest.iter().position(|c| sq.is(c.sq)) else {
                return Some((v, sq));
            };
            let c = rest.remove(k);
            let research = Tried {
                index: 0,
                window: (v, at.beta),
                sq: c.sq,
                flips: c.flips,
            };
            let exact = phase.child::<Pv>(self, at, research);
            if self.stopped {
                return Some(best);
            }
            researched(c.sq, exact);
            if exact > best.0 {
                best = (exact, sq);
            }
            alpha = alpha.max(exact);
            if alpha >= at.beta || rest.is_empty() {
                return Some(best);
            }
        }
    }

    /// [`Context::split_pv`] at the root, whose moves `rest` are its moves `first` and on in
    /// order: unless stopped, each is recorded as one thread would record it, with its value
    /// when searched again, the best bound's move with its bound, the others unscored.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn split_root<P: Phase<E>>(
        &mut self,
        root: &mut impl Kind,
        phase: &P,
        at: Node,
        depth: SplitDepth,
        rest: Vec<Candidate>,
        first: usize,
        alpha: i32,
    ) -> Option<(i32, MoveHint)> {
        let mut researched = [UNSCORED; 64]; // by square
        let best = self.split_pv(phase, at, depth, rest.clone(), alpha, |sq, v| {
            researched[sq as usize] = v;
        });
        if !self.stopped {
            for (k, c) in rest.iter().enumerate() {
                let exact = researched[c.sq as usize];
                let v = match best {
                    Some((v, sq)) if exact == UNSCORED && sq.is(c.sq) => v,
                    _ => exact,
                };
                root.record(first + k, v, exact != UNSCORED);
            }
        }
        best
    }

    /// True when an idle thread could join a split point now.
    #[inline(always)]
    pub(super) fn can_split(&self) -> bool {
        self.pool.is_some_and(|p| p.has_idle())
    }

    /// Opens `rest` (moves still to search, best first) of a null-window node around
    /// `alpha` to idle threads and searches them too. Returns the best (value, move) over
    /// them.
    pub(super) fn split(
        &mut self,
        player: u64,
        opponent: u64,
        depth: SplitDepth,
        alpha: i32,
        rest: Vec<Candidate>,
    ) -> Option<(i32, MoveHint)> {
        let pool = self.pool?;
        let node = SplitNode {
            player,
            opponent,
            depth,
            alpha,
            selectivity: self.selectivity,
            midgame_ordering: self.midgame_ordering,
            tt_min_depth: self.tt_min_depth,
        };
        let sp = Arc::new(SplitPoint::new(node, self.split_parent.clone(), rest));
        pool.open(&sp);
        // The owner works on its own split point; what it opens meanwhile lies below it.
        let outer = self.split_parent.replace(sp.clone());
        if self.search_split(&sp) {
            sp.abort.store(true, Ordering::Relaxed);
        }
        self.split_parent = outer;
        Some(pool.finish(&sp, self))
    }
}
