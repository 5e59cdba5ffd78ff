//! The node search: one function ([`Context::search_node`]) generic over the node's kind
//! ([`Root`], [`Pv`]: an exact value inside a window, [`Scout`]: a null window) and its phase:
//! the midgame to a depth ([`midgame`]) or the endgame in the shared table ([`endgame`],
//! which also has the lighter endgame node below the table). Every node has the same steps:
//! its entry ([`Context::enter`]: count, stop, moves, pass), what the table knows, the phase's
//! cut-offs, the table move, the others in the move picker's order ([`super::ordering`]),
//! shared with idle threads at split points ([`super::parallel`]), the result stored; the kind
//! decides which apply. Below, the last-empties solvers ([`super::last_moves`]). Scores are
//! fail-soft disc differences for the side to move: in eighths of a disc in the midgame, in
//! whole discs in the endgame (where the midgame reaches the endgame, a window converts down
//! and a value back up); exact in the endgame except in the selective passes of a solve
//! (selectivity above 0), whose table entries carry that selectivity (never used as exact
//! bounds). The table holds eighths in both phases.

mod endgame;
pub(super) mod midgame;

use super::context::Context;
use super::ordering::{Candidate, MidgameOrdering, MovePicker, OrderingSearch, RootMove, UNSCORED};
use super::parallel::pool::SplitDepth;
use super::tt::{MoveHint, Stored, NO_SELECTIVITY};
use crate::board::movegen::legal_moves;
use crate::board::Board;
use crate::eval::{Evaluator, EIGHTHS_PER_DISC, MAX_EIGHTHS};

/// What the table knows of a node: bounds (when deep and exact enough) and a move to try
/// first.
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
    /// The table hash of the position and what the table knows of it.
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
    /// The depth to store the node's result with in the shared table.
    fn table_depth(&self) -> u32;
    /// True when the node is searched to the end of the game below [`END_PROBCUT_MIN`]
    /// empties, where no pass prunes: its result is stored as exact whatever the pass that ran
    /// it, so that the exact pass after a selective one reuses its bounds.
    fn exact_below_probcut(&self, board: &Board) -> bool;
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
        // Stores the result in the table (in eighths) with the search's selectivity and the
        // nodes it took; nothing once stopped.
        let table_depth = phase.table_depth();
        let exact = phase.exact_below_probcut(&board);
        let store = |ctx: &mut Self, score: i32, best: MoveHint| {
            if ctx.stopped {
                return;
            }
            let to_eighths = EIGHTHS_PER_DISC / P::DISC;
            let result = Stored {
                depth: table_depth as u8,
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
            // Young brothers wait for one move (the table move, or the first listed) searched
            // without a cut-off.
            if let Some(depth) = phase.split_depth() {
                let searched_one = i >= 1 || best != i32::MIN;
                if searched_one && picker.len() - i >= 2 && self.can_split() {
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
        let (margin, bias) = pair.cut(self.selectivity)?;
        let to_eighths = EIGHTHS_PER_DISC / disc;
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
}

/// The searches that order a node's moves, for the move picker.
impl<E: Evaluator> OrderingSearch<E> for Context<'_, E> {
    #[inline(always)]
    fn eval(&self) -> &E {
        self.eval
    }

    #[inline(always)]
    fn midgame_ordering(&self) -> MidgameOrdering {
        self.midgame_ordering
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
        (sq, flips): (u8, u64),
        window: (i32, i32),
        depth: u32,
        moves: u64,
        potential: u64,
    ) -> i32 {
        let eval = self.eval;
        let child_state = || eval.play(state, sq as usize, flips);
        if depth == 0 {
            self.pvs_leaf(child, child_state, window, moves, potential)
        } else {
            let (player, opponent) = child;
            self.pvs(player, opponent, &child_state(), window.0, window.1, depth)
        }
    }
}
