//! Midgame principal-variation search to a fixed depth: table, ordering by shallow searches,
//! null-window searches for all but the first move; hands over to the exact endgame solver
//! when the depth reaches the end of the game.

use super::context::Context;
use super::limits::Selectivity;
use super::ordering::{sort_depth_for, sort_window, MoveList};
use super::probcut;
use crate::board::flip::flips;
use crate::board::movegen::legal_moves;
use crate::board::Board;
use crate::eval::Evaluator;

/// From this depth on, moves are ordered by shallow searches of the children.
pub const SORT_SEARCH_MIN_DEPTH: u32 = 4;

impl<E: Evaluator> Context<'_, E> {
    /// Static evaluation of a position whose evaluation state is `state`, counted as a node.
    #[inline(always)]
    pub fn evaluate(&mut self, player: u64, opponent: u64, state: &E::State) -> i32 {
        self.nodes += 1;
        self.eval
            .evaluate_with(state, &Board::new(player, opponent))
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

    /// [`Context::nws`] from a position alone (the evaluation state is built from scratch).
    pub fn nws_mid(&mut self, player: u64, opponent: u64, alpha: i32, depth: u32) -> i32 {
        let state = self.eval.state(&Board::new(player, opponent));
        self.nws(player, opponent, &state, alpha, depth)
    }

    /// Depth-limited search within (`alpha`, `beta`), fail-soft. `depth` counts plies; a
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
        let start = self.nodes;
        // Reaching the end of the game: an exact search, ordered fastest-first like the
        // endgame solver's, whose null-window searches take the other moves.
        let book_move = match self.book_cut(player, opponent, depth, n) {
            Ok(v) => return v,
            Err(m) => m,
        };
        let exact = depth >= n;
        let depth = depth.min(n);
        if depth == 0 && !exact {
            return self.evaluate(player, opponent, state);
        }
        self.nodes += 1;
        if self.should_stop() {
            return alpha;
        }
        let moves = legal_moves(player, opponent);
        if moves == 0 {
            return if legal_moves(opponent, player) != 0 {
                let passed = self.eval.pass(state);
                -self.pvs(opponent, player, &passed, -beta, -alpha, depth)
            } else {
                Board::new(player, opponent).final_score()
            };
        }
        // One ply from the horizon: the best of the children's evaluations, without the table
        // or an ordering (the principal variation's last move is found again by
        // `root::principal_variation`).
        if depth == 1 && !exact {
            return self.nws_one_ply(player, opponent, state, beta - 1, moves);
        }
        let board = Board::new(player, opponent);
        let hash = board.table_hash();
        let tt_move = self.tt.probe(&board, hash).map_or(book_move, |d| {
            if d.best < 64 {
                d.best
            } else {
                book_move
            }
        });
        // Built in place (see `MoveList::new`): the copy cost a 584-byte memcpy per node.
        let mut list = MoveList::empty();
        list.fill(player, opponent, moves);
        if exact {
            list.score_endgame(player, opponent, tt_move, true);
        } else {
            self.order_mid(&board, state, &mut list, depth, (-64, 64), tt_move);
        }
        let (mut a, mut best, mut best_sq) = (alpha, i32::MIN, 64u8);
        for i in 0..list.len() {
            let c = list.pick(i);
            let (np, no) = c.child(player, opponent);
            let cs = self.eval.play(state, c.sq as usize, c.flips);
            let v = if i == 0 {
                -self.pvs(np, no, &cs, -beta, -a, depth - 1)
            } else {
                let v = -self.nws(np, no, &cs, -a - 1, depth - 1);
                if v > a && v < beta {
                    -self.pvs(np, no, &cs, -beta, -v, depth - 1)
                } else {
                    v
                }
            };
            if v > best {
                best = v;
                best_sq = c.sq;
                if v > a {
                    a = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        // Stored with the iteration's selectivity even when the depth reaches the end: a
        // selective pass prunes by ProbCut inside the endgame search below, so its "exact"
        // results are estimates (stored as exact, they once gave a wrong final score).
        self.store_result(&board, hash, depth, (alpha, beta), best, best_sq, start);
        best
    }

    /// Depth-limited null-window search around `alpha`, fail-soft.
    pub fn nws(
        &mut self,
        player: u64,
        opponent: u64,
        state: &E::State,
        alpha: i32,
        depth: u32,
    ) -> i32 {
        let n = (!(player | opponent)).count_ones();
        let book_move = match self.book_cut(player, opponent, depth, n) {
            Ok(v) => return v,
            Err(m) => m,
        };
        if depth >= n {
            return self.nws_end(player, opponent, alpha, n);
        }
        if depth == 0 {
            return self.evaluate(player, opponent, state);
        }
        let start = self.nodes;
        self.nodes += 1;
        if self.should_stop() {
            return alpha;
        }
        let moves = legal_moves(player, opponent);
        if moves == 0 {
            return if legal_moves(opponent, player) != 0 {
                let passed = self.eval.pass(state);
                -self.nws(opponent, player, &passed, -alpha - 1, depth)
            } else {
                Board::new(player, opponent).final_score()
            };
        }
        if depth < self.tt_min_depth {
            return self.nws_shallow(player, opponent, state, alpha, depth, moves);
        }
        let board = Board::new(player, opponent);
        let hash = board.table_hash();
        let mut tt_move = book_move;
        if let Some(d) = self.tt.probe(&board, hash) {
            if d.is_usable(depth as u8, self.selectivity) {
                if d.lower as i32 > alpha {
                    return d.lower as i32;
                }
                if (d.upper as i32) <= alpha {
                    return d.upper as i32;
                }
            }
            if d.best < 64 {
                tt_move = d.best;
            }
        }
        if self.selectivity > 0 && depth >= probcut::MIN_DEPTH {
            if let Some(v) = self.probcut(player, opponent, state, alpha, depth, n) {
                return v;
            }
        }
        let mut list = MoveList::empty();
        list.fill(player, opponent, moves);
        // The table move first, before the others are ordered (it cuts most of the time).
        let (mut best, mut best_sq, mut first) = (i32::MIN, 64u8, 0);
        if list.move_to_front(tt_move) {
            let c = list.get(0);
            let (np, no) = c.child(player, opponent);
            let cs = self.eval.play(state, c.sq as usize, c.flips);
            best = -self.nws(np, no, &cs, -alpha - 1, depth - 1);
            best_sq = c.sq;
            first = 1;
        }
        // The others, ordered, unless the table move cut off.
        if best <= alpha && first < list.len() {
            self.order_mid(
                &board,
                state,
                &mut list,
                depth,
                sort_window(alpha, self.ordering_window, self.ordering_window),
                tt_move,
            );
            for i in first..list.len() {
                let c = list.pick(i);
                let (np, no) = c.child(player, opponent);
                let cs = self.eval.play(state, c.sq as usize, c.flips);
                let v = -self.nws(np, no, &cs, -alpha - 1, depth - 1);
                if v > best {
                    best = v;
                    best_sq = c.sq;
                    if v > alpha {
                        break;
                    }
                }
            }
        }
        let window = (alpha, alpha + 1);
        self.store_result(&board, hash, depth, window, best, best_sq, start);
        best
    }

    /// Multi-ProbCut: a shallow null-window search clearing the window by `t` standard
    /// deviations of the fitted error predicts the deep result; returns the cut value.
    pub(super) fn probcut(
        &mut self,
        player: u64,
        opponent: u64,
        state: &E::State,
        alpha: i32,
        depth: u32,
        n: u32,
    ) -> Option<i32> {
        let pair = self.probcut.pair(depth, n)?;
        if pair.slope < 0.25 {
            return None;
        }
        let margin = Selectivity::T[self.selectivity.min(5) as usize] * pair.sigma;
        // Fail high: the deep value is very likely above alpha.
        let high = ((alpha as f64 + 1.0 + margin - pair.bias) / pair.slope).ceil() as i32;
        if high < 64
            && high > -64
            && self.nws(player, opponent, state, high - 1, pair.shallow) >= high
        {
            return Some(alpha + 1);
        }
        // Fail low: the deep value is very likely at most alpha.
        let low = ((alpha as f64 - margin - pair.bias) / pair.slope).floor() as i32;
        if low > -64 && low < 64 && self.nws(player, opponent, state, low, pair.shallow) <= low {
            return Some(alpha);
        }
        None
    }

    /// Shallow null-window search (depth 1-2): no table, mobility order.
    fn nws_shallow(
        &mut self,
        player: u64,
        opponent: u64,
        state: &E::State,
        alpha: i32,
        depth: u32,
        moves: u64,
    ) -> i32 {
        if depth == 1 {
            return self.nws_one_ply(player, opponent, state, alpha, moves);
        }
        let mut list = MoveList::empty();
        list.fill(player, opponent, moves);
        list.score_mobility(player, opponent);
        let mut best = i32::MIN;
        for i in 0..list.len() {
            let c = list.pick(i);
            let (np, no) = c.child(player, opponent);
            let cs = self.eval.play(state, c.sq as usize, c.flips);
            let v = -self.nws(np, no, &cs, -alpha - 1, depth - 1);
            if v > best {
                best = v;
                if v > alpha {
                    break;
                }
            }
        }
        best
    }

    /// Null-window search one ply deep: the children's evaluations in square order, each
    /// move's flips computed only when it is reached (no move list, so nothing is computed
    /// for the moves after a cut-off).
    fn nws_one_ply(
        &mut self,
        player: u64,
        opponent: u64,
        state: &E::State,
        alpha: i32,
        moves: u64,
    ) -> i32 {
        let mut best = i32::MIN;
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(sq, player, opponent);
            let cs = self.eval.play(state, sq, f);
            let v = -self.nws(opponent ^ f, player ^ f ^ (1u64 << sq), &cs, -alpha - 1, 0);
            if v > best {
                best = v;
                if v > alpha {
                    break;
                }
            }
        }
        best
    }

    /// Scores the moves of a midgame node: by shallow searches of the children (inside
    /// `window`) at larger depths, by mobility otherwise; the table move first.
    pub fn order_mid(
        &mut self,
        board: &Board,
        state: &E::State,
        list: &mut MoveList,
        depth: u32,
        window: (i32, i32),
        tt_move: u8,
    ) {
        if depth >= SORT_SEARCH_MIN_DEPTH {
            // The table move is put first by the searches' own skip.
            let sort_depth = sort_depth_for(depth);
            self.score_by_search(board, state, list, sort_depth, window, tt_move);
        } else {
            list.score_mobility(board.player, board.opponent);
            list.boost(tt_move);
        }
    }

    /// Orders `list` by [`MoveList::score_by_values`] with `sort_depth` searches of the
    /// children inside `window`; the move on `skip` goes first without a search.
    pub fn score_by_search(
        &mut self,
        board: &Board,
        state: &E::State,
        list: &mut MoveList,
        sort_depth: u32,
        window: (i32, i32),
        skip: u8,
    ) {
        list.score_by_values(board.player, board.opponent, skip, |c, (np, no)| {
            let cs = self.eval.play(state, c.sq as usize, c.flips);
            -self.pvs(np, no, &cs, -window.1, -window.0, sort_depth)
        });
    }
}
