//! Move ordering, in one place: the [`MovePicker`] that hands the node search a node's moves in
//! the order to search them, and every choice of that order: which scores order which node
//! (shallow searches of the children, their evaluations, fastest-first, mobility), the windows
//! and depths of the ordering searches, the root's order from one iteration to the next, and
//! the orders of the shallow searches and the last empties ([`squares`]). How a move is scored
//! is in [`scores`], the list itself in [`list`].

mod list;
mod scores;
mod squares;

pub use list::{Candidate, MAX_MOVES};
pub use scores::SETTLED;
use scores::{ReplyWeights, ENDGAME_REPLY_WEIGHTS, MIDGAME_REPLY_WEIGHTS};
pub use squares::{last_two, parity_groups, parity_order, square_class_groups, SquareOrder};

use super::tt::MoveHint;
use crate::board::flip::flips;
use crate::board::{Board, Square};
use crate::eval::{Evaluator, EIGHTHS_PER_DISC, MAX_EIGHTHS};
use list::MoveList;

/// From this depth on, midgame nodes order their moves by shallow searches of the children.
pub const SORT_SEARCH_MIN_DEPTH: u32 = 4;

/// Half-width in discs around a null window of the midgame ordering searches.
pub const SORT_WINDOW: i32 = 4;

/// [`SORT_WINDOW`] in the midgame searches of a solve: a full window.
const SOLVE_SORT_WINDOW: i32 = 64;

/// Empties from which endgame nodes order their moves by shallow searches.
pub const END_SORT_SEARCH_MIN: u32 = 18;

/// At least this many empties (and below [`END_SORT_SEARCH_MIN`]): fastest-first adds each
/// child's static evaluation.
pub const END_EVAL_ORDER_MIN: u32 = 12;

/// The endgame ordering searches' window reaches this many discs below alpha (and
/// [`END_SORT_ABOVE`] above).
pub const END_SORT_BELOW: i32 = 32;
/// See [`END_SORT_BELOW`].
pub const END_SORT_ABOVE: i32 = 2;

/// How the midgame orders its moves: in play, or in the midgame searches of a solve, whose
/// table moves guide the solve (ordering searches in a full window, and deeper).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MidgameOrdering {
    Play,
    Solve,
}

impl MidgameOrdering {
    /// The ordering of a search that solves (`solving`) or only plays.
    #[inline]
    pub fn new(solving: bool) -> MidgameOrdering {
        if solving {
            MidgameOrdering::Solve
        } else {
            MidgameOrdering::Play
        }
    }

    /// The half-width in discs of the ordering searches' window at null-window nodes:
    /// [`SORT_WINDOW`] in play, a full window in a solve.
    #[inline(always)]
    pub fn window_discs(self) -> i32 {
        match self {
            MidgameOrdering::Play => SORT_WINDOW,
            MidgameOrdering::Solve => SOLVE_SORT_WINDOW,
        }
    }

    /// The depth of the ordering searches at a node of depth `depth` (from
    /// [`SORT_SEARCH_MIN_DEPTH`]): how many of the node depths in [`PLAY_SORT_DEPTHS`] or
    /// [`SOLVE_SORT_DEPTHS`] it reaches.
    #[inline(always)]
    pub fn sort_depth(self, depth: u32) -> u32 {
        let from = match self {
            MidgameOrdering::Play => &PLAY_SORT_DEPTHS,
            MidgameOrdering::Solve => &SOLVE_SORT_DEPTHS,
        };
        from.iter().filter(|&&d| depth >= d).count() as u32
    }
}

/// In play, the node depths from which the ordering searches go 1, 2 and 3 plies deep: 1 at
/// depths 10-12, 3 from 13 (none 2). Shallower than a solve's: a play node's own search is
/// cheaper (Multi-ProbCut down to depth 1) while the ordering searches, in a window, are not
/// (`docs/tuning.md`, "Session 83").
pub const PLAY_SORT_DEPTHS: [u32; 3] = [10, 13, 13];
/// The same in the midgame searches of a solve: 1 at depths 6-8, 2 at 9-12, 3 from 13.
pub const SOLVE_SORT_DEPTHS: [u32; 3] = [6, 9, 13];

/// The window (in eighths) of the ordering searches at a null-window node around `alpha`
/// (eighths), reaching `below` discs below alpha and `above` discs above alpha + 1.
#[inline(always)]
pub fn sort_window(alpha: i32, below: i32, above: i32) -> (i32, i32) {
    let low = alpha - below * EIGHTHS_PER_DISC;
    let high = alpha + 1 + above * EIGHTHS_PER_DISC;
    (low.max(-MAX_EIGHTHS), high.min(MAX_EIGHTHS))
}

/// Depth of the ordering searches at an endgame node of `n` empties (at least
/// [`END_SORT_SEARCH_MIN`]).
#[inline(always)]
pub fn end_sort_depth(n: u32) -> u32 {
    (n - END_SORT_SEARCH_MIN) / 3 + 1
}

/// The null-window alpha in eighths of an endgame null window around `alpha` discs: a value
/// above it is a value of at least `alpha + 1` discs.
#[inline(always)]
fn eighths_alpha(alpha: i32) -> i32 {
    alpha * EIGHTHS_PER_DISC + EIGHTHS_PER_DISC - 1
}

/// What the orderings ask of the node search (the search's context answers): its evaluation,
/// its settings, the table buckets of a node's children, and the shallow searches that order
/// moves.
pub trait OrderingSearch<E: Evaluator> {
    /// The search's evaluation.
    fn eval(&self) -> &E;
    /// How the midgame orders its moves.
    fn midgame_ordering(&self) -> MidgameOrdering;
    /// True when the children of a midgame node searched `depth` plies probe the table.
    fn children_probe_table(&self, depth: u32) -> bool;
    /// Asks for the table buckets of the children of `board` by `children`.
    fn prefetch(&self, board: &Board, children: &[Candidate]);
    /// The value of `child` (side to move first), reached by the move `(sq, flips)` from a
    /// position of evaluation state `state`, for its side to move, searched `depth` plies
    /// within `window` (eighths); at depth 0 its evaluation, which reuses its legal moves
    /// `moves` and potential moves `potential` (and builds the child's evaluation state only
    /// when the evaluation cache does not know it).
    #[allow(clippy::too_many_arguments)]
    fn search_child(
        &mut self,
        child: (u64, u64),
        state: &E::State,
        mv: (u8, u64),
        window: (i32, i32),
        depth: u32,
        moves: u64,
        potential: u64,
    ) -> i32;
}

/// A node's evaluation state, built only when something (an ordering) needs it.
pub trait LazyState<E: Evaluator> {
    /// The evaluation state of `board`, built with `eval` on first use.
    fn state(&mut self, eval: &E, board: &Board) -> &E::State;
}

/// A node's moves in the order to search them. At a null-window node the table move comes
/// first, searched before the others are even listed (it cuts most of the time, and their
/// ordering would then be wasted); the others follow as the node's ordering scored them, picked
/// best first one at a time (cheap when a cut-off comes early). Built in place on the node's
/// stack, once, with its list.
pub struct MovePicker<const N: usize = MAX_MOVES> {
    list: MoveList<N>,
    board: Board,
    moves: u64,
    tt_move: MoveHint,
    /// A principal-variation node: every move is ordered before the first is searched.
    pv: bool,
    /// Set once every move was listed before the table move was searched.
    listed: bool,
}

impl MovePicker {
    /// The picker of the moves `moves` (legal) of `board`, with the table's move `tt_move`;
    /// `pv` at principal-variation nodes. Nothing is listed yet.
    #[inline(always)]
    pub fn new(board: Board, moves: u64, tt_move: MoveHint, pv: bool) -> MovePicker {
        MovePicker::bounded(board, moves, tt_move, pv)
    }
}

impl<const N: usize> MovePicker<N> {
    /// [`MovePicker::new`] for at most `N` moves.
    #[inline(always)]
    pub fn bounded(board: Board, moves: u64, tt_move: MoveHint, pv: bool) -> MovePicker<N> {
        debug_assert!(
            moves.count_ones() as usize <= N,
            "{moves:#x}: more than {N} moves"
        );
        MovePicker {
            list: MoveList::empty(),
            board,
            moves,
            tt_move,
            pv,
            listed: false,
        }
    }

    /// Lists every move now, with its flips, before the table move is searched (for
    /// enhanced transposition cut-offs, which probe every child first).
    #[inline(always)]
    pub fn list_all(&mut self) -> &[Candidate] {
        let Board { player, opponent } = self.board;
        self.list.fill(player, opponent, self.moves);
        self.listed = true;
        self.list.as_slice()
    }

    /// True when the table move is searched before the others are listed: at null-window
    /// nodes, when it is legal.
    #[inline(always)]
    fn table_move_first(&self) -> bool {
        !self.pv && self.tt_move.is_in(self.moves)
    }

    /// The move to search before the others are listed: the table move at a null-window node.
    #[inline(always)]
    pub fn table_move(&self) -> Option<Candidate> {
        let Board { player, opponent } = self.board;
        self.table_move_first().then(|| {
            let sq = self.tt_move.index();
            Candidate::new(sq, flips(sq as usize, player, opponent), 0)
        })
    }

    /// Lists the moves after [`MovePicker::table_move`] and returns the place of the first to
    /// pick: every move but a table move searched already, in the order the whole list has
    /// with that move brought to its front (so that equal scores are picked alike however it
    /// was listed).
    #[inline(always)]
    pub fn list_rest(&mut self) -> usize {
        if self.listed {
            return usize::from(self.list.move_to_front(self.tt_move));
        }
        let Board { player, opponent } = self.board;
        if self.table_move_first() {
            let first = self.tt_move.index();
            self.list
                .fill_without_first(player, opponent, self.moves, first);
        } else {
            self.list.fill(player, opponent, self.moves);
        }
        0
    }

    /// Lists the root's moves in their order `moves` (the last iteration's), to be picked as
    /// given.
    #[inline(always)]
    pub fn list_root(&mut self, moves: &[RootMove]) {
        // Scored in decreasing order, so that they are picked as given.
        let moves = moves.iter().enumerate();
        let in_order = moves.map(|(i, m)| Candidate::new(m.sq, m.flips, -(i as i32)));
        self.list.fill_from(in_order);
    }

    /// Orders the listed moves of a midgame node searched `depth` plies (evaluation state
    /// `state`, null window around `alpha` unless a principal-variation node): a
    /// principal-variation node that reaches the end of the game fastest-first as the
    /// endgame; from [`SORT_SEARCH_MIN_DEPTH`] plies by shallow searches of the children
    /// ([`MidgameOrdering::sort_depth`]), in the full window at principal-variation nodes,
    /// else within [`MidgameOrdering::window_discs`] around alpha; below, by mobility. The table move
    /// first.
    #[inline(always)]
    pub fn order_midgame<E: Evaluator>(
        &mut self,
        search: &mut impl OrderingSearch<E>,
        state: &E::State,
        depth: u32,
        alpha: i32,
    ) {
        let Board { player, opponent } = self.board;
        if self.pv && depth >= self.board.empty_count() {
            self.list.score_endgame(player, opponent, self.tt_move);
        } else if depth >= SORT_SEARCH_MIN_DEPTH {
            let window = if self.pv {
                (-MAX_EIGHTHS, MAX_EIGHTHS)
            } else {
                let discs = search.midgame_ordering().window_discs();
                sort_window(alpha, discs, discs)
            };
            // The children that will probe the table have their buckets asked for now, to be
            // loaded while the ordering searches run.
            if search.children_probe_table(depth) {
                search.prefetch(&self.board, self.list.as_slice());
            }
            let sort_depth = search.midgame_ordering().sort_depth(depth);
            self.score_by_search(search, state, sort_depth, window, MIDGAME_REPLY_WEIGHTS);
        } else {
            self.list.score_mobility(player, opponent);
            self.list.boost(self.tt_move);
        }
    }

    /// Orders the listed moves of an endgame node of `n` empties searched with a null window
    /// around `alpha` (whole discs): from [`END_SORT_SEARCH_MIN`] empties by shallow searches
    /// of the children ([`end_sort_depth`]) within [`END_SORT_BELOW`] discs below alpha and
    /// [`END_SORT_ABOVE`] above; from [`END_EVAL_ORDER_MIN`] by fastest-first plus the
    /// children's evaluations (unless two moves or fewer); below, by fastest-first alone,
    /// counting the opponent's potential replies. The table move first. `lazy_state` gives
    /// the node's evaluation state when needed.
    #[inline(always)]
    pub fn order_endgame<E: Evaluator>(
        &mut self,
        search: &mut impl OrderingSearch<E>,
        lazy_state: &mut impl LazyState<E>,
        n: u32,
        alpha: i32,
    ) {
        let board = self.board;
        let by_search = n >= END_SORT_SEARCH_MIN;
        let by_evaluation = !by_search && n >= END_EVAL_ORDER_MIN && self.moves.count_ones() > 2;
        if by_search {
            let window = sort_window(eighths_alpha(alpha), END_SORT_BELOW, END_SORT_ABOVE);
            let state = lazy_state.state(search.eval(), &board);
            let depth = end_sort_depth(n);
            self.score_by_search(search, state, depth, window, ENDGAME_REPLY_WEIGHTS);
        } else if by_evaluation {
            let eval = search.eval();
            let state = lazy_state.state(eval, &board);
            let (player, opponent) = (board.player, board.opponent);
            self.list
                .score_endgame_with_evaluations(player, opponent, self.tt_move, eval, state);
        } else {
            self.list
                .score_endgame(board.player, board.opponent, self.tt_move);
        }
    }

    /// Orders the listed moves of an endgame node below the shared table (the table move not
    /// among them) by [`MoveList::score_fastest_first_searching`]: true when a move `now`
    /// searched at once cut off.
    #[inline(always)]
    pub fn order_fastest_first(
        &mut self,
        skip: u64,
        replies: impl FnMut(u8, u64),
        now: impl FnMut(&Candidate, (u64, u64), u64) -> bool,
    ) -> bool {
        let Board { player, opponent } = self.board;
        self.list
            .score_fastest_first_searching(player, opponent, skip, replies, now)
    }

    /// Scores the listed moves by [`MoveList::score_by_values`] with `sort_depth` searches of
    /// the children inside `window` and the replies weighed by `weights`; the table move goes
    /// first without a search.
    #[inline(always)]
    fn score_by_search<E: Evaluator>(
        &mut self,
        search: &mut impl OrderingSearch<E>,
        state: &E::State,
        sort_depth: u32,
        window: (i32, i32),
        weights: ReplyWeights,
    ) {
        let child_window = (-window.1, -window.0);
        let Board { player, opponent } = self.board;
        self.list.score_by_values(
            player,
            opponent,
            self.tt_move,
            weights,
            |c, child, moves, potential| {
                let mv = (c.sq, c.flips);
                -search.search_child(child, state, mv, child_window, sort_depth, moves, potential)
            },
        );
    }

    /// Lists and orders the moves of a shallow midgame node (below the table) by mobility,
    /// handing each move's square and the opponent's moves after it to `replies` (for the
    /// child's search to reuse).
    #[inline(always)]
    pub fn list_by_mobility(&mut self, replies: impl FnMut(u8, u64)) {
        let Board { player, opponent } = self.board;
        self.list.fill(player, opponent, self.moves);
        self.list.score_mobility_with(player, opponent, replies);
    }

    /// The moves listed.
    #[inline(always)]
    pub fn listed(&self) -> &[Candidate] {
        self.list.as_slice()
    }

    /// The number of moves listed.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// The `i`-th move to search (the moves before it picked already): the best-scored of
    /// those left.
    #[inline(always)]
    pub fn pick(&mut self, i: usize) -> Candidate {
        self.list.pick(i)
    }

    /// The moves from the `i`-th on, best first (for sharing with other threads).
    pub fn rest_best_first(&mut self, i: usize) -> Vec<Candidate> {
        self.list.sorted_from(i)
    }
}

/// A root move's value when it got only a bound: below every score.
pub const UNSCORED: i32 = -MAX_EIGHTHS - 1;

/// One of the root's moves and its value in the last iteration ([`UNSCORED`] when it got only
/// a bound); the root's moves are kept in the order to search them.
#[derive(Clone, Copy, Debug)]
pub struct RootMove {
    pub sq: u8,
    pub flips: u64,
    pub score: i32,
}

/// The root moves `moves` of `board`, unscored, in the first iteration's order: those leaving
/// the opponent fewer replies first.
pub fn root_moves(board: &Board, moves: u64) -> Vec<RootMove> {
    let mut list = MoveList::new(board.player, board.opponent, moves);
    list.score_mobility(board.player, board.opponent);
    list.sorted_from(0)
        .iter()
        .map(|c| RootMove {
            sq: c.sq,
            flips: c.flips,
            score: UNSCORED,
        })
        .collect()
}

/// The root's order for the next iteration, after one whose best move was `roots[best]`: the
/// best first, then the moves searched before it by their values (those that got only a bound
/// behind, in their order), then the others in their order.
pub fn reorder_roots(roots: &mut [RootMove], best: usize) {
    roots[..=best].rotate_right(1);
    if best > 0 {
        roots[1..=best].sort_by_key(|m| -m.score);
    }
}

/// The legal moves of `board` in the order the midgame's shallow nodes search them (by the
/// opponent's mobility after the move and square classes).
pub fn mobility_order(board: &Board) -> Vec<Square> {
    let mut list = MoveList::new(board.player, board.opponent, board.legal_moves());
    list.score_mobility(board.player, board.opponent);
    (0..list.len())
        .map(|i| Square::from_index(list.pick(i).sq as u32))
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::search::ordering::{MidgameOrdering, SORT_WINDOW};

    #[test]
    fn the_ordering_searches_depth_by_node_depth() {
        let by_depth = |o: MidgameOrdering| (4..=16).map(|d| o.sort_depth(d)).collect::<Vec<_>>();
        assert_eq!(
            by_depth(MidgameOrdering::Play),
            [0, 0, 0, 0, 0, 0, 1, 1, 1, 3, 3, 3, 3]
        );
        assert_eq!(
            by_depth(MidgameOrdering::Solve),
            [0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]
        );
        assert_eq!(MidgameOrdering::new(true).window_discs(), 64);
        assert_eq!(MidgameOrdering::new(false).window_discs(), SORT_WINDOW);
    }
}
