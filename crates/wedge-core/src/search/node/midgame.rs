//! The midgame phase of the node search: a node searched to a depth with the evaluation's
//! incremental state (static evaluation at the horizon, the move picker's midgame orders,
//! Multi-ProbCut, split points from [`MID_SPLIT_MIN`] plies; principal-variation nodes of a
//! solve reach the end of the game here), its entry points ([`Context::pvs`],
//! [`Context::nws`], the root's [`Context::search_root`]) and the shallow null-window searches
//! below the table.

use std::borrow::Borrow;

use super::endgame::END_PROBCUT_MIN;
use super::{child, principal_variation_rule, Kind, Known, Node, Phase, Pv, Root, Scout, Tried};
use crate::board::flip::flips;
use crate::board::Board;
use crate::eval::{Evaluator, EIGHTHS_PER_DISC};
use crate::search::context::{BookAnswer, Context};
use crate::search::ordering::{square_class_groups, MovePicker};
use crate::search::parallel::pool::SplitDepth;
use crate::search::probcut;
use crate::search::tt::{MoveHint, NO_SELECTIVITY};

/// At least this many plies: a midgame null-window node's moves after the first may be
/// shared with idle threads.
pub const MID_SPLIT_MIN: u32 = 5;

/// A node searched `depth` plies with its evaluation state: less than its empties, or (in a
/// principal-variation node of a solve) exactly as many; `book_move` orders it when the table
/// has no move.
struct Midgame<'s, E: Evaluator> {
    state: &'s E::State,
    depth: u32,
    book_move: MoveHint,
}

impl<E: Evaluator> Midgame<'_, E> {
    /// True when the node, with `n` empties, is searched to the end of the game.
    #[inline(always)]
    fn reaches_end(&self, n: u32) -> bool {
        self.depth >= n
    }
}

impl<E: Evaluator> Phase<E> for Midgame<'_, E> {
    const DISC: i32 = EIGHTHS_PER_DISC;

    #[inline(always)]
    fn after_pass<K: Kind>(&self, ctx: &mut Context<'_, E>, at: Node) -> i32 {
        let passed = ctx.eval.pass(self.state);
        let Board { player, opponent } = at.board;
        if K::PV {
            -ctx.pvs(opponent, player, &passed, -at.beta, -at.alpha, self.depth)
        } else {
            -ctx.nws(opponent, player, &passed, -at.alpha - 1, self.depth)
        }
    }

    /// One ply from the horizon, a principal-variation node takes the best of the children's
    /// evaluations (its last move is found again by `root::principal_variation`); null-window
    /// nodes below the table's depth search without it.
    #[inline(always)]
    fn shallow<K: Kind>(&self, ctx: &mut Context<'_, E>, at: Node, moves: u64) -> Option<i32> {
        let Board { player, opponent } = at.board;
        if K::PV {
            (self.depth == 1 && !self.reaches_end(at.board.empty_count()))
                .then(|| ctx.nws_one_ply(player, opponent, self.state, at.beta - 1, moves))
        } else {
            (self.depth < ctx.tt_min_depth)
                .then(|| ctx.nws_shallow(&at.board, self.state, at.alpha, self.depth, moves))
        }
    }

    #[inline(always)]
    fn known(&self, ctx: &mut Context<'_, E>, at: Node) -> (u64, Known) {
        let hash = at.board.table_hash();
        let known = ctx.tt.probe(&at.board, hash).map_or(
            Known {
                bounds: None,
                best: self.book_move,
            },
            |d| Known {
                bounds: d
                    .is_usable(self.depth as u8, ctx.selectivity)
                    .then_some((d.lower as i32, d.upper as i32)),
                best: d.first_move().or(self.book_move),
            },
        );
        (hash, known)
    }

    #[inline(always)]
    fn prune(&mut self, ctx: &mut Context<'_, E>, at: Node, _: &mut MovePicker) -> Option<i32> {
        if ctx.selectivity > NO_SELECTIVITY && self.depth >= probcut::MIN_DEPTH {
            let (board, depth) = (&at.board, self.depth);
            let n = board.empty_count();
            return ctx.probcut(board, self.state, at.alpha, Self::DISC, depth, n);
        }
        None
    }

    #[inline(always)]
    fn child<K: Kind>(&self, ctx: &mut Context<'_, E>, at: Node, mv: Tried) -> i32 {
        let (np, no) = child(&at.board, mv.sq, mv.flips);
        let cs = ctx.eval.play(self.state, mv.sq as usize, mv.flips);
        if K::PV {
            ctx.pvs_move((np, no), &cs, mv.index, mv.window, self.depth)
        } else {
            -ctx.nws(np, no, &cs, -at.alpha - 1, self.depth - 1)
        }
    }

    #[inline(always)]
    fn order(&mut self, ctx: &mut Context<'_, E>, at: Node, picker: &mut MovePicker) {
        picker.order_midgame(ctx, self.state, self.depth, at.alpha);
    }

    #[inline(always)]
    fn split_depth(&self) -> Option<SplitDepth> {
        (self.depth >= MID_SPLIT_MIN).then_some(SplitDepth::Plies(self.depth))
    }

    #[inline(always)]
    fn table_depth(&self) -> u32 {
        self.depth
    }

    #[inline(always)]
    fn exact_below_probcut(&self, board: &Board) -> bool {
        let n = board.empty_count();
        self.reaches_end(n) && n < END_PROBCUT_MIN
    }
}

impl<E: Evaluator> Context<'_, E> {
    /// Static evaluation (in eighths) of a position whose evaluation state is `state`,
    /// counted as a node.
    #[inline(always)]
    pub fn evaluate(&mut self, player: u64, opponent: u64, state: &E::State) -> i32 {
        self.evaluate_lazily(player, opponent, || state)
    }

    /// [`Context::evaluate`] with the state built by `state` only when the evaluation cache
    /// does not know the position.
    #[inline(always)]
    fn evaluate_lazily<S: Borrow<E::State>>(
        &mut self,
        player: u64,
        opponent: u64,
        state: impl FnOnce() -> S,
    ) -> i32 {
        self.nodes += 1;
        if let Some(v) = self.eval_cache.probe(player, opponent) {
            return v;
        }
        let v = self
            .eval
            .eighths_with(state().borrow(), &Board::new(player, opponent));
        self.eval_cache.store(player, opponent, v);
        v
    }

    /// [`Context::pvs`] to depth 0 of a position whose legal and potential moves are known
    /// (`moves`, `potential`), which its evaluation reuses; its evaluation state is built by
    /// `state` only when needed.
    #[inline(always)]
    pub(super) fn pvs_leaf<S: Borrow<E::State>>(
        &mut self,
        (player, opponent): (u64, u64),
        state: impl FnOnce() -> S,
        (alpha, beta): (i32, i32),
        moves: u64,
        potential: u64,
    ) -> i32 {
        let n = (!(player | opponent)).count_ones();
        if n == 0 {
            return self.pvs(player, opponent, state().borrow(), alpha, beta, 0);
        }
        if let BookAnswer::Value(v) = self.book_answer(player, opponent, 0, n) {
            return v;
        }
        self.nodes += 1;
        if let Some(v) = self.eval_cache.probe(player, opponent) {
            return v;
        }
        let board = Board::new(player, opponent);
        let v = self
            .eval
            .eighths_knowing(state().borrow(), &board, moves, potential);
        self.eval_cache.store(player, opponent, v);
        v
    }

    /// [`Context::pvs`] from a position alone (the evaluation state is built from scratch).
    pub fn pvs_mid(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        depth: u32,
    ) -> i32 {
        let state = self.eval.state(&Board::new(player, opponent));
        self.pvs(player, opponent, &state, alpha, beta, depth)
    }

    /// Depth-limited search within (`alpha`, `beta`), fail-soft: the book where it answers,
    /// the evaluation at depth 0, else a principal-variation node. `depth` counts plies; a
    /// depth reaching the last empty solves exactly. `state` is the evaluation's incremental
    /// state of this position.
    pub fn pvs(
        &mut self,
        player: u64,
        opponent: u64,
        state: &E::State,
        alpha: i32,
        beta: i32,
        depth: u32,
    ) -> i32 {
        let n = (!(player | opponent)).count_ones();
        let book_move = match self.book_answer(player, opponent, depth, n) {
            BookAnswer::Value(v) => return v,
            BookAnswer::Hint(m) => m,
        };
        if depth == 0 && n > 0 {
            return self.evaluate(player, opponent, state);
        }
        // Reaching the end of the game: an exact search, ordered fastest-first like the
        // endgame's, whose null-window searches take the other moves. Stored with the
        // iteration's selectivity even then (from `END_PROBCUT_MIN` empties): a selective pass
        // prunes by ProbCut inside the endgame search below, so its "exact" results there are
        // estimates.
        let phase = Midgame {
            state,
            depth: depth.min(n),
            book_move,
        };
        let node = Node {
            board: Board::new(player, opponent),
            alpha,
            beta,
        };
        self.search_node(&mut Pv, phase, node)
    }

    /// [`principal_variation_rule`] for the `index`-th move (to `child`, whose evaluation
    /// state is `cs`) of a node searched `depth` plies within `window`: the move's value for us.
    #[inline(always)]
    fn pvs_move(
        &mut self,
        (np, no): (u64, u64),
        cs: &E::State,
        index: usize,
        window: (i32, i32),
        depth: u32,
    ) -> i32 {
        let searched = principal_variation_rule(index, window, |(lo, hi), null| {
            Ok::<i32, std::convert::Infallible>(if null {
                -self.nws(np, no, cs, -hi, depth - 1)
            } else {
                -self.pvs(np, no, cs, -hi, -lo, depth - 1)
            })
        });
        match searched {
            Ok(v) => v,
        }
    }

    /// One iteration's search of the root `board` (evaluation state `state`) to `depth`
    /// within (`alpha`, `beta`) over `root`'s moves, which get their values.
    pub(in crate::search) fn search_root(
        &mut self,
        root: &mut Root<'_>,
        board: &Board,
        state: &E::State,
        (alpha, beta): (i32, i32),
        depth: u32,
    ) -> i32 {
        let phase = Midgame {
            state,
            depth,
            book_move: MoveHint::NONE,
        };
        let node = Node {
            board: *board,
            alpha,
            beta,
        };
        self.search_node(root, phase, node)
    }

    /// Depth-limited null-window search around `alpha`, fail-soft: the book where it answers,
    /// the endgame once the depth reaches the end, the evaluation at depth 0, else a
    /// null-window [`Midgame`] node.
    pub fn nws(
        &mut self,
        player: u64,
        opponent: u64,
        state: &E::State,
        alpha: i32,
        depth: u32,
    ) -> i32 {
        if depth == 0 {
            return self.nws_leaf(player, opponent, state, alpha);
        }
        let n = (!(player | opponent)).count_ones();
        let book_move = match self.book_answer(player, opponent, depth, n) {
            BookAnswer::Value(v) => return v,
            BookAnswer::Hint(m) => m,
        };
        if depth >= n {
            return self.nws_end_eighths(player, opponent, alpha, n);
        }
        let phase = Midgame {
            state,
            depth,
            book_move,
        };
        self.search_node(&mut Scout, phase, Node::scout(player, opponent, alpha))
    }

    /// [`Context::nws`] of a position whose legal moves `moves` are known: a node below the
    /// table's depth and the book's reach with a move goes straight to [`Context::nws_shallow`]
    /// (as `nws` and the node's entry would, counted and the stop flag polled), without
    /// computing them again; any other through `nws`.
    #[inline(always)]
    fn nws_knowing(
        &mut self,
        player: u64,
        opponent: u64,
        state: &E::State,
        alpha: i32,
        depth: u32,
        moves: u64,
    ) -> i32 {
        let n = (!(player | opponent)).count_ones();
        let shallow = depth > 0 && depth < n && depth < self.tt_min_depth;
        if !shallow || moves == 0 || n >= self.book_min_empties {
            return self.nws(player, opponent, state, alpha, depth);
        }
        self.nodes += 1;
        if self.should_stop() {
            return alpha;
        }
        self.nws_shallow(&Board::new(player, opponent), state, alpha, depth, moves)
    }

    /// [`Context::nws`] to depth 0, inlined where the leaves are searched (one ply from the
    /// horizon): the book where it answers, the final score of a full board, else the
    /// evaluation.
    #[inline(always)]
    fn nws_leaf(&mut self, player: u64, opponent: u64, state: &E::State, alpha: i32) -> i32 {
        self.nws_leaf_lazily(player, opponent, alpha, || state)
    }

    /// [`Context::nws_leaf`] with the state built by `state` only when the evaluation needs
    /// it.
    #[inline(always)]
    fn nws_leaf_lazily<S: Borrow<E::State>>(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        state: impl FnOnce() -> S,
    ) -> i32 {
        let n = (!(player | opponent)).count_ones();
        if let BookAnswer::Value(v) = self.book_answer(player, opponent, 0, n) {
            return v;
        }
        if n == 0 {
            return self.nws_end_eighths(player, opponent, alpha, n);
        }
        self.evaluate_lazily(player, opponent, state)
    }

    /// Shallow null-window search (depth 1-2): no table, Multi-ProbCut against the static
    /// evaluation at a selective level, mobility order.
    fn nws_shallow(
        &mut self,
        board: &Board,
        state: &E::State,
        alpha: i32,
        depth: u32,
        moves: u64,
    ) -> i32 {
        let (player, opponent) = (board.player, board.opponent);
        if self.selectivity > NO_SELECTIVITY && depth < probcut::MIN_DEPTH {
            if let Some(v) = self.static_probcut(board, state, alpha, depth) {
                return v;
            }
        }
        if depth == 1 {
            return self.nws_one_ply(player, opponent, state, alpha, moves);
        }
        let mut picker = MovePicker::new(*board, moves, MoveHint::NONE, false);
        // The opponent's moves after each move, by square, which the children reuse.
        let mut replies = [0u64; 64];
        picker.list_by_mobility(|sq, r| replies[sq as usize] = r);
        let mut best = i32::MIN;
        for i in 0..picker.len() {
            let c = picker.pick(i);
            let (np, no) = c.child(player, opponent);
            let cs = self.eval.play(state, c.sq as usize, c.flips);
            let r = replies[c.sq as usize];
            let v = -self.nws_knowing(np, no, &cs, -alpha - 1, depth - 1, r);
            if v > best {
                best = v;
                if v > alpha {
                    break;
                }
            }
        }
        best
    }

    /// Multi-ProbCut at depth 1 or 2 with the static evaluation as the shallow search.
    #[inline(always)]
    fn static_probcut(
        &mut self,
        board: &Board,
        state: &E::State,
        alpha: i32,
        depth: u32,
    ) -> Option<i32> {
        let pair = self.probcut.pair(depth, board.empty_count())?;
        let (margin, bias) = pair.cut(self.selectivity)?;
        let predicted =
            pair.slope * self.evaluate(board.player, board.opponent, state) as f64 + bias;
        if predicted - margin >= (alpha + 1) as f64 {
            Some(alpha + 1)
        } else if predicted + margin <= alpha as f64 {
            Some(alpha)
        } else {
            None
        }
    }

    /// Null-window search one ply deep: the children's evaluations in the groups of
    /// [`square_class_groups`], each move's flips computed only when it is reached (no move
    /// list, so nothing is computed for the moves after a cut-off), its evaluation state only
    /// when the evaluation cache does not know the child.
    fn nws_one_ply(
        &mut self,
        player: u64,
        opponent: u64,
        state: &E::State,
        alpha: i32,
        moves: u64,
    ) -> i32 {
        let mut best = i32::MIN;
        for group in square_class_groups(moves) {
            let mut m = group;
            while m != 0 {
                let sq = m.trailing_zeros() as usize;
                m &= m - 1;
                let f = flips(sq, player, opponent);
                let eval = self.eval;
                let (np, no) = (opponent ^ f, player ^ f ^ (1u64 << sq));
                let v = -self.nws_leaf_lazily(np, no, -alpha - 1, || eval.play(state, sq, f));
                if v > best {
                    best = v;
                    if v > alpha {
                        return best;
                    }
                }
            }
        }
        best
    }
}
