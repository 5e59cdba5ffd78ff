//! The exact endgame solver above the last four empties: a shallow tier without table (parity
//! order, no move generation) and a deep tier with the transposition table (or, just above
//! the shallow tier, the thread's own endgame cache), fastest-first
//! ordering (plus the children's evaluations, or shallow searches higher up) and enhanced
//! transposition cut-offs. All are null-window searches; the principal
//! variation is searched by the midgame `pvs`, which runs exactly once the depth reaches the
//! end. Scores are exact final disc differences for the side to move, except in the selective
//! passes of a solve (selectivity above 0), where the deep tier also cuts by Multi-ProbCut and
//! its table entries carry that selectivity (never used as exact bounds).

use super::context::Context;
use super::end_cache::EndCache;
use super::last_moves::SHALLOW_MAX;
use super::ordering::{
    sort_window, Candidate, MoveList, END_EVAL_ORDER_MIN, END_SORT_ABOVE, END_SORT_BELOW,
    END_SORT_SEARCH_MIN, EVAL_ORDER_WEIGHT, MAX_MOVES,
};
use super::parallel::{SplitNode, SplitPoint, SplitPool};
use super::probcut::ProbCutModel;
use super::stability::stability_cut;
use super::tt::TranspositionTable;
use super::tt::NO_SELECTIVITY;
use crate::board::flip::flips;
use crate::board::movegen::legal_moves;
use crate::board::Board;
use crate::eval::Evaluator;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// At least this many empties: the deep tier probes and stores the shared transposition
/// table; below it each thread keeps its own small cache ([`super::end_cache`]), which stays
/// in the core's caches where a table access is mostly a miss to memory. Measured, one
/// thread, 256 MB table, shallow tier to 6: FFO #40-#49 with the table from 10 731.5 M nodes,
/// from 11 751.3 M, from 12 757.7 M (#45-#49 about 1 % faster than from 11); #50-#52 from 11
/// 1,704.6 M nodes in 54.0 s, from 12 1,664.6 M in 52.6 s, from 13 1,723.1 M in 53.1 s.
/// With the table's cost-based replacement, #50-#53 nodes: from 11 4,212.3 M, from 12
/// 4,193.0 M, from 13 (ProbCut also from 13) 4,825.5 M.
/// (Before the cache, with the table alone from 10 empties: #40-#49 1,019.0 M nodes; from 9,
/// 963.9 M but 4 % slower.) The cache itself from 8 or 9 empties instead of 7: #40-#49
/// 589.7 M / 618.6 M nodes against 567.5 M, no faster (20.4 / 21.6 s against 20.4 s).
pub const END_TT_MIN: u32 = 12;

/// At least this many empties: probe children in the table before searching (ETC); one more
/// than [`END_TT_MIN`], so that the children probed can be in the table. Measured, one thread,
/// with the table from 10: FFO #40-#49 nodes from 10: 1,256.7 M, 11: 1,256.7 M, 12: 1,284.5 M,
/// 14: 1,317.5 M, 18: 1,382.4 M; #50-#52 from 11: 3,122 M in 80.6 s, from 14: 3,532 M in
/// 87.0 s.
/// (Probing the children in the thread's cache below that, from 10 empties: 628.8 M ->
/// 618.7 M nodes, no faster; from 12: 626.8 M, 4 % slower. Not kept.) From 15, as
/// Egaroucid's 16: 670.6 M -> 685.1 M nodes, no faster. Also skipping the children that the
/// table shows failing low (not only cutting on one that fails high): 647.37 M -> 647.18 M
/// nodes (before the selectivity fix); not kept. Storing an ETC cut-off in the table (as a
/// result of the node): #40-#49 661.4 M -> 660.1 M nodes, #51 + #52 + #56 unchanged; not kept.
pub const ETC_MIN: u32 = END_TT_MIN + 1;

/// At least this many empties: fastest-first also counts the opponent's potential replies.
/// Below, in the thread-cache tier, they cost more time than they save nodes. Measured, one
/// thread, FFO #40-#49: with them from 7 empties 668.4 M nodes, from 12 670.6 M and 3-10 %
/// faster in four alternating rounds (weight 4 below 12: 646.7 M against 647.4 M, 16: 653.1 M,
/// no faster; before the selectivity fix in `Context::pvs`).
pub const END_POTENTIAL_MIN: u32 = END_TT_MIN;

/// At least this many empties: the moves after the first may be shared with idle threads.
pub const SPLIT_MIN: u32 = 14;

/// At least this many empties: a selective solve (selectivity above 0) tries Multi-ProbCut,
/// predicting the exact score from a shallow search with the model's pair for depth = empties.
/// The selective pass's cost and the guidance it leaves for the exact pass pull apart; each
/// measured one thread against the shipped setting (FFO #53 1,824.2 M nodes, 95 % pass 20.5 s
/// of 57.1 s; #55 10,202.1 M): a margin of 0.85 times the fitted error: #53's pass 11.7 s,
/// #54 3,199.4 M against 3,459.9 M nodes, but #55 17,304.4 M; 1.25 times: #55's pass alone
/// 135.7 s. Shallower probes, 2 (n / 8) + n % 2 (+ 2) plies with the error measured against
/// exact scores ([`super::probcut::shallow_depth`]): #53's pass 14.0 s, but the exact pass
/// 46.7-48.6 s against 35.7 s.
/// Probing only when the static evaluation is within 3 or 6 discs of the shallow bound (as
/// Egaroucid does): #53 52.4 / 51.7 s, but the whole of FFO #40-#59 side by side 655.8 s
/// against 654.1 s (#54 102.9 against 97.9 s, #55 324.3 against 319.4 s). None kept.
/// From 14 empties instead of 12 (the selective pass prunes less near its leaves, and its
/// probes there cost more than they save), the whole of FFO #40-#59 side by side, one core
/// each, then the cores swapped: 576.7 -> 556.9 s and 585.1 -> 567.4 s (21,658.2 M ->
/// 21,853.8 M nodes; #53 48.8 -> 42.6 s, #54 85.4 -> 81.5 s, #55 280.0 -> 273.6 s). From
/// 13 or 16, #50-#54 side by side: 172.1 s and 167.1 s, against 158.5 s from 14.
/// (Ordering by fastest-first alone, without evaluations or shallow searches, at nodes whose
/// selective-pass entry says they fail low: #50-#54 6,259.9 M -> 6,288.1 M nodes, 159.6 ->
/// 162.6 s side by side. Not kept.)
pub const END_PROBCUT_MIN: u32 = 14;
// The endgame cache keeps every result below the shared table as exact: no node there may
// be cut by ProbCut.
const _: () = assert!(END_PROBCUT_MIN >= END_TT_MIN);

/// A parent's evaluation state and its move (square, flips) to a node, when the parent has one.
type Parent<'s, E> = Option<(&'s <E as Evaluator>::State, u8, u64)>;

impl<E: Evaluator> Context<'_, E> {
    /// Null-window exact search around `alpha` with `n` empties: returns a fail-soft value `v`
    /// (`v > alpha`: the exact score is at least `v`; otherwise at most `v`).
    #[inline]
    pub fn nws_end(&mut self, player: u64, opponent: u64, alpha: i32, n: u32) -> i32 {
        self.nws_end_child((player, opponent), alpha, n, None)
    }

    /// [`Context::nws_end`] of `child` (side to move, opponent); `parent` is the parent's
    /// evaluation state and its move (square, flips) when it has one, from which a deep-tier
    /// child's state is one incremental update.
    #[inline(always)]
    fn nws_end_child(&mut self, child: (u64, u64), alpha: i32, n: u32, parent: Parent<E>) -> i32 {
        let (player, opponent) = child;
        if n > SHALLOW_MAX {
            self.nws_end_deep(player, opponent, alpha, n, parent)
        } else {
            self.solve_last(player, opponent, alpha, n)
        }
    }

    /// More than `SHALLOW_MAX` empties: table, move list, fastest-first, ETC. The node's
    /// evaluation state, should it need one, is `parent`'s after its move when given, else
    /// built from the position.
    fn nws_end_deep(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        n: u32,
        parent: Parent<E>,
    ) -> i32 {
        let start = self.nodes;
        self.nodes += 1;
        if self.should_stop() {
            return alpha;
        }
        let moves = legal_moves(player, opponent);
        if moves == 0 {
            return if legal_moves(opponent, player) != 0 {
                -self.nws_end_deep(opponent, player, -alpha - 1, n, None)
            } else {
                Board::new(player, opponent).final_score()
            };
        }
        let board = Board::new(player, opponent);
        let use_tt = n >= END_TT_MIN;
        let hash = if use_tt { board.table_hash() } else { 0 };
        // What is known of the position: bounds (when deep and exact enough) and a best move,
        // from the shared table, or below its reach from this thread's cache. (Probed before
        // the legal moves, so that a cut-off skips them: identical nodes, FFO #40-#49
        // alternating on one core, four rounds, min 17.70 -> 18.22 s, median 18.25 -> 18.46 s.
        // Not kept.)
        let known = if use_tt {
            self.tt.probe(&board, hash).map(|d| {
                let usable = d.is_usable(n as u8, self.selectivity);
                (usable.then_some((d.lower as i32, d.upper as i32)), d.best)
            })
        } else {
            self.end_cache
                .probe(player, opponent)
                .map(|hit| (Some((hit.lower, hit.upper)), hit.best))
        };
        let mut tt_move = 64u8;
        if let Some((bounds, best)) = known {
            if let Some((lower, upper)) = bounds {
                if lower > alpha {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
            }
            tt_move = best;
        }
        if let Some(v) = stability_cut(player, opponent, alpha, n) {
            return v;
        }
        // The evaluation state, built once for ProbCut and the ordering, and only when one of
        // them will use it (not before an ETC cut-off, not for two moves or fewer).
        let probcut = self.selectivity > NO_SELECTIVITY && n >= END_PROBCUT_MIN;
        let eval = self.eval;
        let state_of = |board: &Board| match parent {
            Some((s, sq, flips)) => eval.play(s, sq as usize, flips),
            None => eval.state(board),
        };
        let mut state = probcut.then(|| state_of(&board));
        if let Some(state) = &state {
            if let Some(v) = self.probcut(player, opponent, state, alpha, n, n) {
                return v;
            }
        }
        // ETC needs every child's flips before anything is searched; below its tier the list
        // waits until the table move has failed to cut. The list is built in place, once:
        // moved out of an option or a match it cost a 576-byte copy per node (cachegrind, FFO
        // #41-#43 on an AVX2 build: 408 M of 23,668 M instructions in memcpy).
        let etc = n >= ETC_MIN;
        let mut list = MoveList::empty();
        if etc {
            list.fill(player, opponent, moves);
            if let Some(v) = self.etc(player, opponent, alpha, n, &list) {
                return v;
            }
        }
        // The table move first, before the others are ordered: it cuts most of the time, and
        // then their ordering would be wasted. (Making the list only after it below the ETC
        // tier: identical nodes, FFO #40 0.8 % fewer instructions, counted by cachegrind on
        // an AVX2 build: 4,266.1 M -> 4,231.0 M; too small to time on a noisy machine. Again
        // with the list built in place in each tier's own branch: FFO #41-#43 22,464.1 M ->
        // 22,461.7 M instructions; at 7-12 empties the thread cache seldom has a move, so
        // the list is nearly always needed. Not kept.)
        let mut best = i32::MIN;
        let mut best_sq = 64u8;
        let tt_legal = tt_move < 64 && moves & (1u64 << tt_move) != 0;
        if tt_legal {
            let f = flips(tt_move as usize, player, opponent);
            let (np, no) = (opponent ^ f, player ^ f ^ (1u64 << tt_move));
            let parent = state.as_ref().map(|s| (s, tt_move, f));
            best = -self.nws_end_child((np, no), -alpha - 1, n - 1, parent);
            best_sq = tt_move;
            if best > alpha || moves == 1u64 << tt_move {
                self.store_end(&board, hash, n, alpha, best, best_sq, start);
                return best;
            }
        }
        // The other moves, from `first` on in the list.
        let first = if etc {
            usize::from(list.move_to_front(tt_move))
        } else {
            if tt_legal {
                list.fill_without_first(player, opponent, moves, tt_move);
            } else {
                list.fill(player, opponent, moves);
            }
            0
        };
        // How the moves are ordered: by shallow searches high up, by fastest-first plus the
        // children's evaluations in the middle, by fastest-first alone below (or for two moves).
        // (Skipping the ordering at nodes expected to fail low, every child of a cut node,
        // before the selectivity fix: FFO #40-#49 647 M -> 2,136 M nodes; by parity and square
        // alone there 1,477 M. The expectation is wrong often enough that unordered moves cost
        // far more than ordering.)
        let by_search = n >= END_SORT_SEARCH_MIN;
        let by_evaluation = !by_search && n >= END_EVAL_ORDER_MIN && moves.count_ones() > 2;
        if state.is_none() && (by_search || by_evaluation) {
            state = Some(state_of(&board));
        }
        match state.as_ref() {
            Some(state) if by_search => {
                // Measured on FFO #40-#47 with the trained weights: one ply more than
                // (n - 18) / 3 saves about 12% of the nodes. One ply per two empties instead
                // ((n - 17) / 2 + 1), one thread: #40-#49 26.9 s either way, #50-#54 336.9 s
                // -> 309.3 s, #55-#59 1,043.5 s -> 1,070.2 s (#54 175.5 -> 153.7 s, #55 651.5
                // -> 567.8 s, but #56 70.6 -> 199.7 s): no gain overall, not kept. Again with
                // the table's cost-based replacement (nodes): #50-#54 8,958.4 M -> 8,595.7 M,
                // #55 19,482.6 M -> 19,077.0 M, #56-#57 4,938.1 M -> 4,984.9 M; 2 %, not kept.
                // With mobility beside the searches' values (`ORDER_MOBILITY_WEIGHT`), one ply
                // less: #51 + #52 + #56 2,090.4 M -> 2,057.2 M nodes but #53 + #58 7,818.3 M
                // -> 8,109.4 M; at most 3 plies: 7,837.2 M, at most 2: 7,866.9 M. Not kept.
                let sort_depth = (n - END_SORT_SEARCH_MIN) / 3 + 1;
                self.score_by_search(
                    &board,
                    state,
                    &mut list,
                    sort_depth,
                    sort_window(alpha, END_SORT_BELOW, END_SORT_ABOVE),
                    tt_move,
                );
            }
            Some(state) if by_evaluation => {
                // Fastest-first plus the children's evaluations (lower for the opponent
                // first), which reuse the opponent's moves and potential moves that
                // fastest-first counts.
                let eval = self.eval;
                list.score_endgame_with(player, opponent, tt_move, |c, (np, no), replies, pot| {
                    let child = eval.play(state, c.sq as usize, c.flips);
                    let board = Board::new(np, no);
                    -eval.evaluate_knowing(&child, &board, replies, pot) * EVAL_ORDER_WEIGHT
                });
            }
            _ => list.score_endgame(player, opponent, tt_move, n >= END_POTENTIAL_MIN),
        }
        for i in first..list.len() {
            if i == 1 && n >= SPLIT_MIN && list.len() > 2 && self.can_split() {
                let rest = list.sorted_from(1);
                if let Some((v, sq)) = self.split(player, opponent, n, alpha, rest) {
                    if v > best {
                        best = v;
                        best_sq = sq;
                    }
                    break;
                }
            }
            let c = list.pick(i);
            let (np, no) = c.child(player, opponent);
            let parent = state.as_ref().map(|s| (s, c.sq, c.flips));
            let v = -self.nws_end_child((np, no), -alpha - 1, n - 1, parent);
            if v > best {
                best = v;
                best_sq = c.sq;
                if v > alpha {
                    break;
                }
            }
        }
        self.store_end(&board, hash, n, alpha, best, best_sq, start);
        best
    }

    /// Stores a null-window result of the deep tier: in the shared table from
    /// [`END_TT_MIN`] empties (with the nodes counted since `start`), below in the thread's
    /// cache; nothing once stopped.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn store_end(
        &mut self,
        board: &Board,
        hash: u64,
        n: u32,
        alpha: i32,
        best: i32,
        sq: u8,
        start: u64,
    ) {
        if n >= END_TT_MIN {
            self.store_result(board, hash, n, (alpha, alpha + 1), best, sq, start);
        } else if !self.stopped {
            self.end_cache
                .store(board.player, board.opponent, alpha, best, sq);
        }
    }

    /// Enhanced transposition cut-off: a child already known (from the table) to be worth more
    /// than `alpha` to us ends the search at once.
    fn etc(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        n: u32,
        list: &MoveList,
    ) -> Option<i32> {
        // Every child's bucket is asked for first, so that their misses to memory overlap.
        // Measured side by side (one core each, two rounds), identical nodes: FFO #53 + #58
        // 171.4 / 170.9 s -> 167.0 / 165.7 s; #40-#49 (alternating) 18.53 / 18.52 s -> 18.22 /
        // 18.01 s. Making the list and asking for the children before this node's own probe
        // as well: 167.9 s against 166.9 s, not kept. In a profile of #53's exact pass the
        // second line's hint waits (8 % of this tier's own time); asking for the first line
        // only: #51-#52 alternating on one core, min 15.27 -> 15.82 s, median 16.46 -> 15.99 s,
        // undecided on this noisy machine; again with the cheap table hash, #50-#52, two
        // rounds: min 33.23 -> 34.01 s, median 33.46 -> 34.45 s. Not kept. ETC only after the
        // table move failed to cut (over the other moves): #50-#52 1,034.9 M -> 1,137.7 M
        // nodes, 33.3 -> 36.1 s side by side. Not kept.
        let mut hashes = [0u64; MAX_MOVES];
        for (c, h) in list.as_slice().iter().zip(hashes.iter_mut()) {
            let (np, no) = c.child(player, opponent);
            *h = Board::new(np, no).table_hash();
            self.tt.prefetch(*h);
        }
        for (c, &h) in list.as_slice().iter().zip(hashes.iter()) {
            let (np, no) = c.child(player, opponent);
            let child = Board::new(np, no);
            if let Some(d) = self.tt.probe(&child, h) {
                if d.is_usable(n as u8 - 1, self.selectivity) && -(d.upper as i32) > alpha {
                    return Some(-(d.upper as i32));
                }
            }
        }
        None
    }
}

/// The loop of a helper thread of `pool`: searches the moves of the split points it is offered
/// with its own context, keeping its endgame cache from one split point to the next.
pub fn help<E: Evaluator>(
    pool: &SplitPool,
    tt: &TranspositionTable,
    eval: &E,
    probcut: &ProbCutModel,
) {
    let mut end_cache = Some(EndCache::default());
    pool.helper_loop(|sp| {
        let cache = end_cache.take().unwrap_or_default();
        let mut ctx = Context::new_with_end_cache(tt, eval, &sp.abort, cache)
            .with_probcut(probcut)
            .with_pool(pool);
        ctx.selectivity = sp.node.selectivity;
        ctx.ordering_window = sp.node.ordering_window;
        ctx.tt_min_depth = sp.node.tt_min_depth;
        ctx.search_split(sp);
        end_cache = Some(ctx.end_cache);
        ctx.nodes
    });
}

impl<E: Evaluator> Context<'_, E> {
    /// Searches moves of `sp` until none is left, it is aborted or this context stops; true
    /// when this context stopped.
    fn search_split(&mut self, sp: &SplitPoint) -> bool {
        let node = sp.node;
        while let Some(c) = sp.take() {
            let (np, no) = c.child(node.player, node.opponent);
            let v = -self.nws_end(np, no, -node.alpha - 1, node.empties - 1);
            if self.stopped {
                return true;
            }
            if sp.record(v, c.sq) {
                break;
            }
        }
        false
    }

    /// True when an idle helper could take a split point now.
    #[inline(always)]
    fn can_split(&self) -> bool {
        self.pool.is_some_and(|p| p.has_idle())
    }

    /// Shares `rest` (moves still to search, best first) of a null-window node around
    /// `alpha` with idle helpers and searches them too. Returns the best (value, move) over
    /// them, or `None` when no helper was free (the caller then searches them alone).
    fn split(
        &mut self,
        player: u64,
        opponent: u64,
        empties: u32,
        alpha: i32,
        rest: Vec<Candidate>,
    ) -> Option<(i32, u8)> {
        let pool = self.pool?;
        let node = SplitNode {
            player,
            opponent,
            empties,
            alpha,
            selectivity: self.selectivity,
            ordering_window: self.ordering_window,
            tt_min_depth: self.tt_min_depth,
        };
        let sp = Arc::new(SplitPoint::new(node, rest));
        if !pool.offer(&sp) {
            return None;
        }
        // The owner works on its own split point with its own stop flag.
        if self.search_split(&sp) {
            sp.abort.store(true, Ordering::Relaxed);
        }
        Some(sp.finish(|| self.should_stop()))
    }
}
