//! The node search: one function ([`Context::search_node`]) generic over the node's kind
//! ([`Root`], [`Pv`]: an exact value inside a window, [`Scout`]: a null window) and its phase:
//! the [`Midgame`] to a depth (static evaluation at the horizon, ordering searches,
//! Multi-ProbCut, split points for idle helpers from [`MID_SPLIT_MIN`] plies;
//! principal-variation nodes of a solve reach the end of the game here) and the [`Endgame`]
//! above [`SHALLOW_MAX`] empties (exact, the shared table or the thread's cache, stability and
//! enhanced transposition cut-offs, fastest-first ordering, split points from [`SPLIT_MIN`]
//! empties). Every node has the same steps: its entry ([`Context::enter`]: count, stop, moves,
//! pass), what the table knows, the phase's cut-offs, the table move, the others ordered, the
//! result stored; the kind decides which apply. Below, the last-empties solvers
//! ([`super::last_moves`]). Scores are fail-soft disc differences for the side to move: in
//! eighths of a disc in the midgame, in whole discs in the endgame (where the midgame reaches
//! the endgame, a window converts down and a value back up); exact in the endgame except in
//! the selective passes of a solve (selectivity above 0), whose table entries carry that
//! selectivity (never used as exact bounds). The table holds eighths in both phases.

use super::context::{BookAnswer, Context};
use super::last_moves::SHALLOW_MAX;
use super::limits::Selectivity;
use super::ordering::{
    square_class_groups, Candidate, LazyState, MovePicker, OrderingSearch, RootMove,
    END_POTENTIAL_MIN, MAX_MOVES, UNSCORED,
};
use super::parallel::pool::SplitDepth;
use super::probcut;
use super::stability::stability_cut;
use super::tt::{MoveHint, Stored, NO_SELECTIVITY};
use crate::board::flip::flips;
use crate::board::movegen::legal_moves;
use crate::board::Board;
use crate::eval::{Evaluator, EIGHTHS_PER_DISC, MAX_EIGHTHS};

/// At least this many empties: the deep tier uses the shared table; below, the thread's
/// own cache ([`super::end_cache`]).
pub const END_TT_MIN: u32 = 12;

/// At least this many empties: probe the children in the table before searching (ETC).
pub const ETC_MIN: u32 = END_TT_MIN + 1;

/// At least this many empties: the moves after the first may be shared with idle threads.
pub const SPLIT_MIN: u32 = 14;

/// At least this many plies: a midgame null-window node's moves after the first may be
/// shared with idle threads.
pub const MID_SPLIT_MIN: u32 = 5;

/// At least this many empties: a selective solve tries Multi-ProbCut (depth = empties).
pub const END_PROBCUT_MIN: u32 = 15;
// The endgame cache keeps every result below the shared table as exact: no node there may
// be cut by ProbCut.
const _: () = assert!(END_PROBCUT_MIN >= END_TT_MIN);
// Fastest-first counts the potential replies in the shared table's tier.
const _: () = assert!(END_POTENTIAL_MIN == END_TT_MIN);

/// A parent's evaluation state and its move (square, flips) to a node, when the parent has one.
type Parent<'s, E> = Option<(&'s <E as Evaluator>::State, u8, u64)>;

/// What the table or the endgame cache knows of a node: bounds (when deep and exact enough)
/// and a move to try first.
#[derive(Clone, Copy)]
pub(super) struct Known {
    bounds: Option<(i32, i32)>,
    best: MoveHint,
}

impl Known {
    const NOTHING: Known = Known {
        bounds: None,
        best: MoveHint::NONE,
    };
}

/// How a node begins ([`Context::enter`]): its legal moves, or the value to return at once.
enum Entry {
    Moves(u64),
    Value(i32),
}

/// A node: the position and its window (`beta = alpha + 1` for a null window).
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub board: Board,
    pub alpha: i32,
    pub beta: i32,
}

impl Node {
    /// A null-window node around `alpha`.
    #[inline(always)]
    fn scout(player: u64, opponent: u64, alpha: i32) -> Node {
        Node {
            board: Board::new(player, opponent),
            alpha,
            beta: alpha + 1,
        }
    }
}

/// A move tried at a node: its place in the move loop, the window as narrowed by the moves
/// before it, its square and flips.
#[derive(Clone, Copy)]
pub(super) struct Tried {
    pub index: usize,
    pub window: (i32, i32),
    pub sq: u8,
    pub flips: u64,
}

/// The kind of a node, which decides the steps of [`Context::search_node`] that apply.
pub(super) trait Kind {
    /// The root: its moves come from the last iteration in their order, nothing is pruned,
    /// and a stop ends the move loop at once.
    const ROOT: bool;
    /// An exact value inside the window: the first move with the whole window, the others by
    /// [`Context::pvs_move`]; the table gives a move but no bounds, nothing is pruned, and
    /// every move is ordered before the first is searched.
    const PV: bool;

    /// Lists the root's moves, in the order to search them.
    #[inline(always)]
    fn fill(&self, _picker: &mut MovePicker) {}

    /// The `index`-th move got the value `v` (`exact`: inside the window, or the first).
    #[inline(always)]
    fn record(&mut self, _index: usize, _v: i32, _exact: bool) {}
}

/// A null-window node.
pub(super) struct Scout;

impl Kind for Scout {
    const ROOT: bool = false;
    const PV: bool = false;
}

/// A principal-variation node below the root.
pub(super) struct Pv;

impl Kind for Pv {
    const ROOT: bool = false;
    const PV: bool = true;
}

/// The root: its moves, best of the last iteration first; how many this iteration has
/// searched (a move whose search was stopped does not count) and which of them is the best
/// (the first of the highest values).
pub(super) struct Root<'r> {
    pub moves: &'r mut [RootMove],
    pub searched: usize,
    pub best: Option<(usize, i32)>,
}

impl<'r> Root<'r> {
    pub fn new(moves: &'r mut [RootMove]) -> Self {
        Root {
            moves,
            searched: 0,
            best: None,
        }
    }
}

impl Kind for Root<'_> {
    const ROOT: bool = true;
    const PV: bool = true;

    #[inline(always)]
    fn fill(&self, picker: &mut MovePicker) {
        picker.list_root(self.moves);
    }

    #[inline(always)]
    fn record(&mut self, index: usize, v: i32, exact: bool) {
        self.moves[index].score = if exact { v } else { UNSCORED };
        self.searched = index + 1;
        if self.best.is_none_or(|(_, b)| v > b) {
            self.best = Some((index, v));
        }
    }
}

/// How one phase of the game searches a node: the steps of [`Context::search_node`] that
/// differ between the midgame and the endgame, for a node of kind `K`.
pub(super) trait Phase<E: Evaluator> {
    /// One disc in the phase's scores: eighths in the midgame, whole discs in the endgame.
    const DISC: i32;
    /// The value after the side to move passes (the opponent searched in the same phase).
    fn after_pass<K: Kind>(&self, ctx: &mut Context<'_, E>, at: Node) -> i32;
    /// A value found without the table or a move list, for nodes too shallow for them.
    fn shallow<K: Kind>(&self, ctx: &mut Context<'_, E>, at: Node, moves: u64) -> Option<i32>;
    /// The table hash of the position (0 where no table is used) and what is known of it.
    fn known(&self, ctx: &mut Context<'_, E>, at: Node) -> (u64, Known);
    /// The cut-offs tried before any move (stability, Multi-ProbCut, enhanced transposition
    /// cut-offs, which have `picker` list every move first): the value when one ends the search.
    fn prune(&mut self, ctx: &mut Context<'_, E>, at: Node, picker: &mut MovePicker)
        -> Option<i32>;
    /// The value for us of the child after `mv`.
    fn child<K: Kind>(&self, ctx: &mut Context<'_, E>, at: Node, mv: Tried) -> i32;
    /// Has `picker` order the moves it listed, as the phase orders them.
    fn order(&mut self, ctx: &mut Context<'_, E>, at: Node, picker: &mut MovePicker);
    /// How far the moves after the first are searched, when they may be shared with idle
    /// helpers.
    fn split_depth(&self) -> Option<SplitDepth>;
    /// The depth to store the node's result with in the shared table, or `None` to keep it
    /// in the thread's endgame cache.
    fn table_depth(&self) -> Option<u32>;
    /// True when the node is searched to the end of the game below [`END_PROBCUT_MIN`]
    /// empties, where no pass prunes: its result is stored as exact whatever the pass that ran
    /// it, so that the exact pass after a selective one reuses its bounds.
    fn exact_below_probcut(&self, board: &Board) -> bool;
}

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
                best: d.best.or(self.book_move),
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
    fn table_depth(&self) -> Option<u32> {
        Some(self.depth)
    }

    #[inline(always)]
    fn exact_below_probcut(&self, board: &Board) -> bool {
        let n = board.empty_count();
        self.reaches_end(n) && n < END_PROBCUT_MIN
    }
}

/// An endgame null-window node around `alpha` with `n` empties (more than [`SHALLOW_MAX`]).
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
        // From the shared table, or below its reach from this thread's cache.
        let board = &at.board;
        if self.n >= END_TT_MIN {
            let hash = board.table_hash();
            let known = ctx.tt.probe(board, hash).map_or(Known::NOTHING, |d| Known {
                bounds: d
                    .is_usable(self.n as u8, ctx.selectivity)
                    .then_some((lower_discs(d.lower), upper_discs(d.upper))),
                best: d.best,
            });
            (hash, known)
        } else {
            let hit = ctx.end_cache.probe(board.player, board.opponent);
            let known = hit.map_or(Known::NOTHING, |hit| Known {
                bounds: Some((hit.lower, hit.upper)),
                best: hit.best,
            });
            (0, known)
        }
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

    /// In the shared table from [`END_TT_MIN`] empties, below in the thread's cache.
    #[inline(always)]
    fn table_depth(&self) -> Option<u32> {
        (self.n >= END_TT_MIN).then_some(self.n)
    }

    #[inline(always)]
    fn exact_below_probcut(&self, _: &Board) -> bool {
        self.n < END_PROBCUT_MIN
    }
}

/// The principal-variation rule for the `index`-th move of a node searched within (`alpha`,
/// `beta`): the first move with the whole window; each later one with a null window above
/// `alpha` first, and again from its value to `beta` when it lands inside the window.
/// `search(window, null)` searches the move within `window` (the node's side of it; `null`: a
/// null window, `(alpha, alpha + 1)`) and gives its value for us. The move's value.
#[inline(always)]
pub fn principal_variation_rule<X>(
    index: usize,
    (alpha, beta): (i32, i32),
    mut search: impl FnMut((i32, i32), bool) -> Result<i32, X>,
) -> Result<i32, X> {
    if index == 0 {
        return search((alpha, beta), false);
    }
    let v = search((alpha, alpha + 1), true)?;
    if v > alpha && v < beta {
        search((v, beta), false)
    } else {
        Ok(v)
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

/// The child position (opponent to move) after the move on `sq` with `flips`.
#[inline(always)]
fn child(board: &Board, sq: u8, flips: u64) -> (u64, u64) {
    (board.opponent ^ flips, board.player ^ flips ^ (1u64 << sq))
}

impl<E: Evaluator> Context<'_, E> {
    /// Enters a node: counts it and polls the stop flag. The legal moves, or the value to
    /// return: `alpha` once stopped, `after_pass` without a move, the final score at the end
    /// of the game (in units of which `disc` make a disc).
    #[inline(always)]
    fn enter(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        disc: i32,
        after_pass: impl FnOnce(&mut Self) -> i32,
    ) -> Entry {
        self.nodes += 1;
        if self.should_stop() {
            return Entry::Value(alpha);
        }
        let moves = legal_moves(player, opponent);
        if moves != 0 {
            Entry::Moves(moves)
        } else if legal_moves(opponent, player) != 0 {
            Entry::Value(after_pass(self))
        } else {
            Entry::Value(Board::new(player, opponent).final_score() * disc)
        }
    }

    /// Static evaluation (in eighths) of a position whose evaluation state is `state`,
    /// counted as a node.
    #[inline(always)]
    pub fn evaluate(&mut self, player: u64, opponent: u64, state: &E::State) -> i32 {
        self.nodes += 1;
        self.eval.eighths_with(state, &Board::new(player, opponent))
    }

    /// [`Context::pvs`] to depth 0 of a position whose legal and potential moves are known
    /// (`moves`, `potential`), which its evaluation reuses.
    #[inline(always)]
    fn pvs_leaf(
        &mut self,
        (player, opponent): (u64, u64),
        state: &E::State,
        (alpha, beta): (i32, i32),
        moves: u64,
        potential: u64,
    ) -> i32 {
        let n = (!(player | opponent)).count_ones();
        if n == 0 {
            return self.pvs(player, opponent, state, alpha, beta, 0);
        }
        if let BookAnswer::Value(v) = self.book_answer(player, opponent, 0, n) {
            return v;
        }
        self.nodes += 1;
        let board = Board::new(player, opponent);
        self.eval.eighths_knowing(state, &board, moves, potential)
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
        // iteration's selectivity even then: a selective pass prunes by ProbCut inside the
        // endgame search below, so its "exact" results are estimates (stored as exact, they
        // once gave a wrong final score).
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
    pub(super) fn search_root(
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
        let n = (!(player | opponent)).count_ones();
        if let BookAnswer::Value(v) = self.book_answer(player, opponent, 0, n) {
            return v;
        }
        if n == 0 {
            return self.nws_end_eighths(player, opponent, alpha, n);
        }
        self.evaluate(player, opponent, state)
    }

    /// [`Context::nws_end`] of a midgame null window around `alpha` eighths: above it means
    /// at least the next whole disc. In eighths.
    fn nws_end_eighths(&mut self, player: u64, opponent: u64, alpha: i32, n: u32) -> i32 {
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
        if n > SHALLOW_MAX {
            let node = Node::scout(player, opponent, alpha);
            self.search_node(&mut Scout, Endgame::new(n, parent), node)
        } else {
            self.solve_last(player, opponent, alpha, n)
        }
    }

    /// The search of a node of kind `K` in `phase`, fail-soft: the node's entry (not at the
    /// root), a shallow answer, what the table knows (its bounds at null-window nodes), the
    /// phase's cut-offs (null window), the table move first (null window: before the others
    /// are ordered, since it cuts most of the time), then the others ordered (at the root, in
    /// the last iteration's order), each until one reaches `beta`; the result is stored.
    #[inline(always)]
    fn search_node<K: Kind, P: Phase<E>>(&mut self, kind: &mut K, mut phase: P, at: Node) -> i32 {
        let start = self.nodes;
        let Node { board, alpha, beta } = at;
        let (player, opponent) = (board.player, board.opponent);
        let moves = if K::ROOT {
            0
        } else {
            let after_pass = |ctx: &mut Self| phase.after_pass::<K>(ctx, at);
            match self.enter(player, opponent, alpha, P::DISC, after_pass) {
                Entry::Moves(moves) => moves,
                Entry::Value(v) => return v,
            }
        };
        if !K::ROOT {
            if let Some(v) = phase.shallow::<K>(self, at, moves) {
                return v;
            }
        }
        let (hash, known) = if K::ROOT {
            (board.table_hash(), Known::NOTHING)
        } else {
            phase.known(self, at)
        };
        // Stores the result with the search's selectivity and the nodes it took, in the table
        // (in eighths) or the thread's cache; nothing once stopped.
        let table_depth = phase.table_depth();
        let exact = phase.exact_below_probcut(&board);
        let store = |ctx: &mut Self, score: i32, best: MoveHint| {
            if ctx.stopped {
                return;
            }
            match table_depth {
                Some(depth) => {
                    let to_eighths = EIGHTHS_PER_DISC / P::DISC;
                    let result = Stored {
                        depth: depth as u8,
                        selectivity: if exact {
                            NO_SELECTIVITY
                        } else {
                            ctx.selectivity
                        },
                        window: (alpha * to_eighths, beta * to_eighths),
                        score: score * to_eighths,
                        best,
                        nodes: ctx.nodes - start,
                    };
                    ctx.tt.store(&board, hash, result);
                }
                None => ctx.end_cache.store(player, opponent, alpha, score, best),
            }
        };
        if let Some((lower, upper)) = known.bounds.filter(|_| !K::PV) {
            if lower > alpha {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
        }
        // The picker (and its move list) is built in place, once.
        let mut picker = MovePicker::new(board, moves, known.best, K::PV);
        if !K::PV {
            if let Some(v) = phase.prune(self, at, &mut picker) {
                return v;
            }
        }
        let mut best = i32::MIN;
        let mut best_sq = MoveHint::NONE;
        if let Some(c) = picker.table_move() {
            let mv = Tried {
                index: 0,
                window: (alpha, beta),
                sq: c.sq,
                flips: c.flips,
            };
            best = phase.child::<K>(self, at, mv);
            best_sq = MoveHint::square(c.sq);
            if best > alpha || moves == c.bit() {
                store(self, best, best_sq);
                return best;
            }
        }
        // The other moves, from `first` on.
        let first = if K::ROOT {
            kind.fill(&mut picker);
            0
        } else {
            picker.list_rest()
        };
        if !K::ROOT {
            phase.order(self, at, &mut picker);
        }
        let mut a = alpha;
        for i in first..picker.len() {
            if let Some(depth) = phase.split_depth() {
                if i >= 1 && picker.len() - i >= 2 && self.can_split() {
                    let rest = picker.rest_best_first(i);
                    let shared = if K::ROOT {
                        self.split_root(kind, &phase, at, depth, rest, i, a)
                    } else if K::PV {
                        self.split_pv(&phase, at, depth, rest, a, |_, _| {})
                    } else {
                        self.split(player, opponent, depth, alpha, rest)
                    };
                    if let Some((v, sq)) = shared {
                        if v > best {
                            best = v;
                            best_sq = sq;
                        }
                        break;
                    }
                }
            }
            let c = picker.pick(i);
            let mv = Tried {
                index: i,
                window: (a, beta),
                sq: c.sq,
                flips: c.flips,
            };
            let v = phase.child::<K>(self, at, mv);
            if K::ROOT {
                if self.stopped {
                    break;
                }
                kind.record(i, v, v > a || i == 0);
            }
            if v > best {
                best = v;
                best_sq = MoveHint::square(c.sq);
                if v > a {
                    a = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        store(self, best, best_sq);
        best
    }

    /// Multi-ProbCut at a node of `n` empties searched `depth` plies, whose scores make
    /// `disc` units a disc: a shallow null-window search (in eighths) clearing the window by
    /// `t` standard deviations of the fitted error (in discs) predicts the deep result;
    /// returns the cut value.
    fn probcut(
        &mut self,
        board: &Board,
        state: &E::State,
        alpha: i32,
        disc: i32,
        depth: u32,
        n: u32,
    ) -> Option<i32> {
        let (player, opponent) = (board.player, board.opponent);
        let pair = self.probcut.pair(depth, n)?;
        if pair.slope < 0.25 {
            return None;
        }
        let eighths = EIGHTHS_PER_DISC as f64;
        let to_eighths = EIGHTHS_PER_DISC / disc;
        let margin = Selectivity::T[self.selectivity.min(5) as usize] * pair.sigma * eighths;
        let bias = pair.bias * eighths;
        let inside = |v: i32| v > -MAX_EIGHTHS && v < MAX_EIGHTHS;
        // Fail high: the deep value is very likely above alpha (at least alpha + 1 unit).
        let above = ((alpha + 1) * to_eighths) as f64;
        let high = ((above + margin - bias) / pair.slope).ceil() as i32;
        if inside(high) && self.nws(player, opponent, state, high - 1, pair.shallow) >= high {
            return Some(alpha + 1);
        }
        // Fail low: the deep value is very likely at most alpha.
        let at_most = (alpha * to_eighths) as f64;
        let low = ((at_most - margin - bias) / pair.slope).floor() as i32;
        if inside(low) && self.nws(player, opponent, state, low, pair.shallow) <= low {
            return Some(alpha);
        }
        None
    }

    /// Shallow null-window search (depth 1-2): no table, mobility order.
    fn nws_shallow(
        &mut self,
        board: &Board,
        state: &E::State,
        alpha: i32,
        depth: u32,
        moves: u64,
    ) -> i32 {
        let (player, opponent) = (board.player, board.opponent);
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

    /// Null-window search one ply deep: the children's evaluations in the groups of
    /// [`square_class_groups`], each move's flips computed only when it is reached (no move
    /// list, so nothing is computed for the moves after a cut-off).
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
                let cs = self.eval.play(state, sq, f);
                let v = -self.nws_leaf(opponent ^ f, player ^ f ^ (1u64 << sq), &cs, -alpha - 1);
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

    /// Asks for the table bucket of every child in `children`, handing each child's place in
    /// the list and hash to `hashed` (ETC keeps them for its probes; the ordering needs none).
    #[inline(always)]
    fn prefetch_children(
        &self,
        board: &Board,
        children: &[Candidate],
        mut hashed: impl FnMut(usize, u64),
    ) {
        for (i, c) in children.iter().enumerate() {
            let (np, no) = c.child(board.player, board.opponent);
            let h = Board::new(np, no).table_hash();
            self.tt.prefetch(h);
            hashed(i, h);
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

/// The searches that order a node's moves, for the move picker.
impl<E: Evaluator> OrderingSearch<E> for Context<'_, E> {
    #[inline(always)]
    fn eval(&self) -> &E {
        self.eval
    }

    #[inline(always)]
    fn sort_window_discs(&self) -> i32 {
        self.ordering_window
    }

    /// Midgame null-window nodes below the table's depth skip it.
    #[inline(always)]
    fn children_probe_table(&self, depth: u32) -> bool {
        depth > self.tt_min_depth
    }

    #[inline(always)]
    fn prefetch(&self, board: &Board, children: &[Candidate]) {
        self.prefetch_children(board, children, |_, _| {});
    }

    #[inline(always)]
    fn search_child(
        &mut self,
        child: (u64, u64),
        state: &E::State,
        window: (i32, i32),
        depth: u32,
        moves: u64,
        potential: u64,
    ) -> i32 {
        if depth == 0 {
            self.pvs_leaf(child, state, window, moves, potential)
        } else {
            self.pvs(child.0, child.1, state, window.0, window.1, depth)
        }
    }
}
