//! The endgame phase of the node search: exact null-window nodes above [`SHALLOW_MAX`]
//! empties, and their entry point, [`Context::nws_end`]. From [`END_TT_MIN`] empties the
//! generic node in the shared table (stability and enhanced transposition cut-offs,
//! Multi-ProbCut in selective solves, the move picker's endgame orders, split points from
//! [`SPLIT_MIN`] empties); below, a lighter node in the thread's cache
//! ([`Context::nws_cached`]: the stability cut-off, the cache's move, the children the cache
//! knows, then fastest-first).

use super::{child, Kind, Known, Node, Phase, Scout, Tried};
use crate::board::movegen::legal_moves;
use crate::board::Board;
use crate::eval::{Evaluator, EIGHTHS_PER_DISC};
use crate::search::context::Context;
use crate::search::last_moves::SHALLOW_MAX;
use crate::search::ordering::{Candidate, LazyState, MovePicker, MAX_MOVES, SETTLED};
use crate::search::parallel::pool::SplitDepth;
use crate::search::stability::stability_cut;
use crate::search::tt::{MoveHint, NO_SELECTIVITY};

/// At least this many empties: the generic node in the shared table; below, the lighter node
/// in the thread's own cache ([`crate::search::end_cache`]).
pub const END_TT_MIN: u32 = 12;

/// The most moves of a node below [`END_TT_MIN`] empties: one for each empty.
const CACHED_MOVES: usize = END_TT_MIN as usize - 1;

/// At least this many empties (below [`END_TT_MIN`]): the children are looked up in the
/// thread's cache before any is searched.
const CACHED_ETC_MIN: u32 = 8;

/// At least this many empties: probe the children in the table before searching (ETC).
pub const ETC_MIN: u32 = END_TT_MIN + 1;

/// At least this many empties: the moves after the first may be shared with idle threads.
pub const SPLIT_MIN: u32 = 14;

/// At least this many empties: a selective solve tries Multi-ProbCut (depth = empties).
pub const END_PROBCUT_MIN: u32 = 15;
// The endgame cache keeps every result below the shared table as exact: no node there may
// be cut by ProbCut.
const _: () = assert!(END_PROBCUT_MIN >= END_TT_MIN);

/// A parent's evaluation state and its move (square, flips) to a node, when the parent has one.
type Parent<'s, E> = Option<(&'s <E as Evaluator>::State, u8, u64)>;

/// An endgame null-window node around `alpha` with `n` empties (at least [`END_TT_MIN`]).
/// Its evaluation state, built only when ProbCut or the ordering needs one, is `parent`'s
/// after its move when given, else built from the position.
struct Endgame<'s, E: Evaluator> {
    n: u32,
    parent: Parent<'s, E>,
    state: Option<E::State>,
}

impl<'s, E: Evaluator> Endgame<'s, E> {
    #[inline(always)]
    fn new(n: u32, parent: Parent<'s, E>) -> Self {
        Endgame {
            n,
            parent,
            state: None,
        }
    }
}

/// The node's evaluation state, built on first use.
impl<E: Evaluator> LazyState<E> for Endgame<'_, E> {
    #[inline(always)]
    fn state(&mut self, eval: &E, board: &Board) -> &E::State {
        let parent = self.parent;
        self.state.get_or_insert_with(|| match parent {
            Some((s, sq, flips)) => eval.play(s, sq as usize, flips),
            None => eval.state(board),
        })
    }
}

impl<E: Evaluator> Phase<E> for Endgame<'_, E> {
    const DISC: i32 = 1;

    #[inline(always)]
    fn after_pass<K: Kind>(&self, ctx: &mut Context<'_, E>, at: Node) -> i32 {
        let Board { player, opponent } = at.board;
        let passed = Node::scout(opponent, player, -at.alpha - 1);
        -ctx.search_node(&mut Scout, Endgame::new(self.n, None), passed)
    }

    #[inline(always)]
    fn shallow<K: Kind>(&self, _: &mut Context<'_, E>, _: Node, _: u64) -> Option<i32> {
        None
    }

    #[inline(always)]
    fn known(&self, ctx: &mut Context<'_, E>, at: Node) -> (u64, Known) {
        let board = &at.board;
        let hash = board.table_hash();
        let known = ctx.tt.probe(board, hash).map_or(Known::NOTHING, |d| Known {
            bounds: d
                .is_usable(self.n as u8, ctx.selectivity)
                .then_some((lower_discs(d.lower), upper_discs(d.upper))),
            best: d.first_move(),
        });
        (hash, known)
    }

    #[inline(always)]
    fn prune(
        &mut self,
        ctx: &mut Context<'_, E>,
        at: Node,
        picker: &mut MovePicker,
    ) -> Option<i32> {
        let (board, alpha, n) = (at.board, at.alpha, self.n);
        if let Some(v) = stability_cut(board.player, board.opponent, alpha, n) {
            return Some(v);
        }
        if ctx.selectivity > NO_SELECTIVITY && n >= END_PROBCUT_MIN {
            let state = self.state(ctx.eval, &board);
            if let Some(v) = ctx.probcut(&board, state, alpha, Self::DISC, n, n) {
                return Some(v);
            }
        }
        // ETC needs every child's flips before anything is searched; below its tier the list
        // waits until the table move has failed to cut.
        if n >= ETC_MIN {
            return ctx.etc(&board, alpha, n, picker.list_all());
        }
        None
    }

    #[inline(always)]
    fn child<K: Kind>(&self, ctx: &mut Context<'_, E>, at: Node, mv: Tried) -> i32 {
        let parent = self.state.as_ref().map(|s| (s, mv.sq, mv.flips));
        let (np, no) = child(&at.board, mv.sq, mv.flips);
        -ctx.nws_end_child(np, no, -at.alpha - 1, self.n - 1, parent)
    }

    #[inline(always)]
    fn order(&mut self, ctx: &mut Context<'_, E>, at: Node, picker: &mut MovePicker) {
        let n = self.n;
        picker.order_endgame(ctx, self, n, at.alpha);
    }

    #[inline(always)]
    fn split_depth(&self) -> Option<SplitDepth> {
        (self.n >= SPLIT_MIN).then_some(SplitDepth::End(self.n))
    }

    #[inline(always)]
    fn table_depth(&self) -> u32 {
        self.n
    }

    #[inline(always)]
    fn exact_below_probcut(&self, _: &Board) -> bool {
        self.n < END_PROBCUT_MIN
    }
}

/// The least whole disc count at or above a table lower bound in eighths.
#[inline(always)]
fn lower_discs(eighths: i16) -> i32 {
    -(-i32::from(eighths)).div_euclid(EIGHTHS_PER_DISC)
}

/// The greatest whole disc count at or below a table upper bound in eighths.
#[inline(always)]
fn upper_discs(eighths: i16) -> i32 {
    i32::from(eighths).div_euclid(EIGHTHS_PER_DISC)
}

impl<E: Evaluator> Context<'_, E> {
    /// [`Context::nws_end`] of a midgame null window around `alpha` eighths: above it means
    /// at least the next whole disc. In eighths.
    pub(super) fn nws_end_eighths(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        n: u32,
    ) -> i32 {
        let discs = self.nws_end(player, opponent, alpha.div_euclid(EIGHTHS_PER_DISC), n);
        discs * EIGHTHS_PER_DISC
    }

    /// Null-window exact search around `alpha` with `n` empties: returns a fail-soft value `v`
    /// (`v > alpha`: the exact score is at least `v`; otherwise at most `v`).
    #[inline]
    pub fn nws_end(&mut self, player: u64, opponent: u64, alpha: i32, n: u32) -> i32 {
        self.nws_end_child(player, opponent, alpha, n, None)
    }

    /// [`Context::nws_end`] of `child` (side to move, opponent); `parent` is the parent's
    /// evaluation state and its move (square, flips) when it has one, from which a deep
    /// child's state is one incremental update.
    #[inline(always)]
    fn nws_end_child(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        n: u32,
        parent: Parent<E>,
    ) -> i32 {
        if n >= END_TT_MIN {
            let node = Node::scout(player, opponent, alpha);
            self.search_node(&mut Scout, Endgame::new(n, parent), node)
        } else if n > SHALLOW_MAX {
            self.nws_cached(player, opponent, legal_moves(player, opponent), alpha, n)
        } else {
            self.solve_last(player, opponent, alpha, n)
        }
    }

    /// The null-window node of `n` empties below the shared table ([`SHALLOW_MAX`] < `n` <
    /// [`END_TT_MIN`]), whose side to move has the legal moves `moves`: the steps of
    /// [`Context::search_node`] that apply there (the thread's cache, the stability cut-off,
    /// the cache's move, from [`CACHED_ETC_MIN`] empties the children the cache knows, then
    /// the others fastest-first, a move leaving one reply or none searched as soon as the
    /// ordering meets it), on a move list as long as the empties.
    fn nws_cached(&mut self, player: u64, opponent: u64, moves: u64, alpha: i32, n: u32) -> i32 {
        self.nodes += 1;
        if self.should_stop() {
            return alpha;
        }
        if moves == 0 {
            let replies = legal_moves(opponent, player);
            return if replies != 0 {
                -self.nws_cached(opponent, player, replies, -alpha - 1, n)
            } else {
                Board::new(player, opponent).final_score()
            };
        }
        let mut hint = MoveHint::NONE;
        if let Some(hit) = self.end_cache.probe(player, opponent) {
            if hit.lower > alpha {
                return hit.lower;
            }
            if hit.upper <= alpha {
                return hit.upper;
            }
            hint = hit.best;
        }
        if let Some(v) = stability_cut(player, opponent, alpha, n) {
            return v;
        }
        let board = Board::new(player, opponent);
        let mut picker = MovePicker::<CACHED_MOVES>::bounded(board, moves, hint, false);
        let mut best = i32::MIN;
        let mut best_sq = MoveHint::NONE;
        if let Some(c) = picker.table_move() {
            let (np, no) = c.child(player, opponent);
            best = -self.cached_child(np, no, || legal_moves(np, no), -alpha - 1, n - 1);
            best_sq = hint;
            if best > alpha || moves == c.bit() {
                self.store_cached(player, opponent, alpha, best, best_sq);
                return best;
            }
        }
        let first = picker.list_rest();
        // The moves whose children the cache knows: one worth more than alpha ends the search,
        // those worth at most alpha are not searched.
        let mut known_low = 0u64;
        if n >= CACHED_ETC_MIN {
            for c in picker.listed() {
                let (np, no) = c.child(player, opponent);
                let Some(hit) = self.end_cache.probe(np, no) else {
                    continue;
                };
                let (at_least, at_most) = (-hit.upper, -hit.lower);
                if at_least > alpha {
                    let sq = MoveHint::square(c.sq);
                    self.store_cached(player, opponent, alpha, at_least, sq);
                    return at_least;
                }
                if at_most <= alpha {
                    known_low |= c.bit();
                    if at_most > best {
                        best = at_most;
                        best_sq = MoveHint::square(c.sq);
                    }
                }
            }
        }
        // The opponent's moves after each move, which fastest-first counts and the child's
        // node reuses, kept by the move's rank among the empties.
        let empties = !(player | opponent);
        let rank = |sq: u8| (empties & ((1u64 << sq) - 1)).count_ones() as usize;
        let mut replies = [0u64; CACHED_MOVES];
        // A move leaving the opponent one reply or none is searched as soon as it is met.
        let cut = picker.order_fastest_first(
            known_low,
            |sq, r| replies[rank(sq)] = r,
            |c, (np, no), r| {
                let v = -self.cached_child(np, no, || r, -alpha - 1, n - 1);
                if v > best {
                    best = v;
                    best_sq = MoveHint::square(c.sq);
                }
                v > alpha
            },
        );
        if cut {
            self.store_cached(player, opponent, alpha, best, best_sq);
            return best;
        }
        for i in first..picker.len() {
            let c = picker.pick(i);
            // The known-low moves and those searched at once come last: none is left to search.
            if c.score == SETTLED {
                break;
            }
            let (np, no) = c.child(player, opponent);
            let v = -self.cached_child(np, no, || replies[rank(c.sq)], -alpha - 1, n - 1);
            if v > best {
                best = v;
                best_sq = MoveHint::square(c.sq);
                if v > alpha {
                    break;
                }
            }
        }
        self.store_cached(player, opponent, alpha, best, best_sq);
        best
    }

    /// [`Context::nws_cached`] of a child of `n` empties, or below [`SHALLOW_MAX`] its
    /// last-empties solve; `moves()` gives the child's legal moves.
    #[inline(always)]
    fn cached_child(
        &mut self,
        player: u64,
        opponent: u64,
        moves: impl FnOnce() -> u64,
        alpha: i32,
        n: u32,
    ) -> i32 {
        if n > SHALLOW_MAX {
            self.nws_cached(player, opponent, moves(), alpha, n)
        } else {
            self.solve_last(player, opponent, alpha, n)
        }
    }

    #[inline(always)]
    fn store_cached(&mut self, player: u64, opponent: u64, alpha: i32, v: i32, best: MoveHint) {
        if !self.stopped {
            self.end_cache.store(player, opponent, alpha, v, best);
        }
    }

    /// Enhanced transposition cut-off: a child already known (from the table) to be worth more
    /// than `alpha` to us ends the search at once.
    fn etc(&mut self, board: &Board, alpha: i32, n: u32, children: &[Candidate]) -> Option<i32> {
        // Every child's bucket is asked for first, so that their misses to memory overlap.
        let (player, opponent) = (board.player, board.opponent);
        let mut hashes = [0u64; MAX_MOVES];
        self.prefetch_children(board, children, |i, h| hashes[i] = h);
        for (c, &h) in children.iter().zip(hashes.iter()) {
            let (np, no) = c.child(player, opponent);
            let child = Board::new(np, no);
            if let Some(d) = self.tt.probe(&child, h) {
                let at_least = -upper_discs(d.upper);
                if d.is_usable(n as u8 - 1, self.selectivity) && at_least > alpha {
                    return Some(at_least);
                }
            }
        }
        None
    }
}
