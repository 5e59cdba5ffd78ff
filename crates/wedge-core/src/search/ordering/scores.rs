//! The ordering scores of moves: fastest-first (the opponent's replies, corners counted twice,
//! and potential replies, discs made stable around the corners, lone empties and quadrant
//! parity, square classes), mobility, and shallow-search values with mobility beside them;
//! their weights.

use super::list::{Candidate, MoveList};
use super::squares::{lone_empties, odd_quadrants};
use crate::board::movegen::{legal_moves, potential_moves};
use crate::board::{Board, CORNERS};
use crate::eval::{Evaluator, EIGHTHS_PER_DISC, ORDER_SCALE};
use crate::search::stability::corner_stable;
use crate::search::tt::MoveHint;

impl<const N: usize> MoveList<N> {
    /// Fastest-first scores for the endgame: few replies for the opponent (corners counted
    /// twice), few potential replies, many of our discs made stable around the corners, odd
    /// quadrants first; the table move before all.
    #[inline]
    pub fn score_endgame(&mut self, player: u64, opponent: u64, tt_move: MoveHint) {
        self.score_endgame_with(player, opponent, tt_move, |_, _, _, _| 0);
    }

    /// [`MoveList::score_endgame`] plus `extra(candidate, child, replies, potential replies)`
    /// for each move but the table move: the child position (opponent to move) and the
    /// opponent's legal and potential moves there, which an evaluation of the child can reuse.
    #[inline(always)]
    pub fn score_endgame_with(
        &mut self,
        player: u64,
        opponent: u64,
        tt_move: MoveHint,
        mut extra: impl FnMut(&Candidate, (u64, u64), u64, u64) -> i32,
    ) {
        self.score_fastest_first(player, opponent, tt_move, |c, child, replies| {
            let potential = potential_moves(child.0, child.1);
            extra(c, child, replies, potential)
                - potential.count_ones() as i32 * POTENTIAL_REPLY_WEIGHT
        });
    }

    /// [`MoveList::score_endgame_with`] plus each child's ordering value for the opponent
    /// ([`Evaluator::order_value`], lower first, [`EVAL_ORDER_WEIGHT`] per disc), from the
    /// evaluation state `state` of the position, reusing the opponent's moves and potential
    /// moves that fastest-first counts.
    #[inline(always)]
    pub fn score_endgame_with_evaluations<E: Evaluator>(
        &mut self,
        player: u64,
        opponent: u64,
        tt_move: MoveHint,
        eval: &E,
        state: &E::State,
    ) {
        self.score_endgame_with(player, opponent, tt_move, |c, child, moves, potential| {
            let after = eval.play(state, c.sq as usize, c.flips);
            let child = Board::new(child.0, child.1);
            -eval.order_value(&after, &child, moves, potential) * (EVAL_ORDER_WEIGHT / ORDER_SCALE)
        });
    }

    /// Fastest-first without potential replies, plus `extra(candidate, child, replies)` for
    /// each move but the table move.
    #[inline(always)]
    pub fn score_fastest_first(
        &mut self,
        player: u64,
        opponent: u64,
        tt_move: MoveHint,
        mut extra: impl FnMut(&Candidate, (u64, u64), u64) -> i32,
    ) {
        let empties = !(player | opponent);
        let (odd, lone) = (odd_quadrants(empties), lone_empties(empties));
        for c in self.as_mut_slice() {
            if tt_move.is(c.sq) {
                c.score = 1 << 30;
                continue;
            }
            let (np, no) = c.child(player, opponent);
            let replies = legal_moves(np, no);
            let mobility = weighted_mobility(replies);
            c.score = fastest_first(c, no, mobility, odd, lone) + extra(c, (np, no), replies);
        }
    }

    /// [`MoveList::score_fastest_first`] with no extra term, for a list without the table move,
    /// except that the moves in `skip` are scored [`SETTLED`] without their replies, and a move
    /// that leaves the opponent at most [`AT_ONCE_REPLIES`] replies (corners twice), which
    /// would come first or nearly, goes to `now` with its child and those replies as soon as
    /// it is met, before the moves after it are scored; it is scored [`SETTLED`] too. True
    /// when `now` returned true (a cut-off), which ends the scoring. `replies` gets every other
    /// scored move's square and replies.
    #[inline(always)]
    pub fn score_fastest_first_searching(
        &mut self,
        player: u64,
        opponent: u64,
        skip: u64,
        mut replies: impl FnMut(u8, u64),
        mut now: impl FnMut(&Candidate, (u64, u64), u64) -> bool,
    ) -> bool {
        let empties = !(player | opponent);
        let (odd, lone) = (odd_quadrants(empties), lone_empties(empties));
        for c in self.as_mut_slice() {
            c.score = SETTLED;
            if skip & c.bit() != 0 {
                continue;
            }
            let (np, no) = c.child(player, opponent);
            let r = legal_moves(np, no);
            let mobility = weighted_mobility(r);
            if mobility <= AT_ONCE_REPLIES {
                if now(c, (np, no), r) {
                    return true;
                }
                continue;
            }
            replies(c.sq, r);
            c.score = fastest_first(c, no, mobility, odd, lone);
        }
        false
    }

    /// Puts the table move (if any) first.
    #[inline]
    pub fn boost(&mut self, tt_move: MoveHint) {
        for c in self.as_mut_slice() {
            if tt_move.is(c.sq) {
                c.score = 1 << 30;
            }
        }
    }

    /// Opponent mobility after the move (corners twice) and square classes.
    #[inline]
    pub fn score_mobility(&mut self, player: u64, opponent: u64) {
        self.score_mobility_with(player, opponent, |_, _| {});
    }

    /// [`MoveList::score_mobility`], handing each move's square and the opponent's legal
    /// moves after it to `replies` (for the child's search to reuse).
    #[inline(always)]
    pub fn score_mobility_with(
        &mut self,
        player: u64,
        opponent: u64,
        mut replies: impl FnMut(u8, u64),
    ) {
        for c in self.as_mut_slice() {
            let (np, no) = c.child(player, opponent);
            let moves = legal_moves(np, no);
            replies(c.sq, moves);
            let mobility = weighted_mobility(moves);
            c.score = -mobility * REPLY_WEIGHT + SQUARE_BONUS[c.sq as usize];
        }
    }

    /// Orders by `value(candidate, child, replies, potential replies)`, a shallow search's
    /// value of the child (opponent to move) for us in eighths of a disc, less the opponent's
    /// mobility and potential mobility after the move as `weights` weigh them, which `value`
    /// is given as the opponent's legal and potential moves there; the move on `skip` (the
    /// table move, searched already or to be searched first) goes first without a search.
    #[inline(always)]
    pub fn score_by_values(
        &mut self,
        player: u64,
        opponent: u64,
        skip: MoveHint,
        weights: ReplyWeights,
        mut value: impl FnMut(&Candidate, (u64, u64), u64, u64) -> i32,
    ) {
        for c in self.as_mut_slice() {
            if skip.is(c.sq) {
                c.score = 1 << 30;
                continue;
            }
            let (np, no) = c.child(player, opponent);
            if np == 0 {
                c.score = 1 << 29; // wipe-out
                continue;
            }
            let replies = legal_moves(np, no);
            let mobility = weighted_mobility(replies);
            let potential = potential_moves(np, no);
            let value = value(c, (np, no), replies, potential);
            c.score = value * (ORDER_DISC / EIGHTHS_PER_DISC)
                - mobility * weights.reply
                - potential.count_ones() as i32 * weights.potential_reply;
        }
    }
}

/// Ordering score of one disc of a child's shallow-search value (searched in eighths).
pub const ORDER_DISC: i32 = 256;
const _: () = assert!(ORDER_DISC % EIGHTHS_PER_DISC == 0);

/// What the orderings by shallow searches take off a move's score per opponent reply after it
/// (corners twice) and per potential reply, in the units of [`ORDER_DISC`].
#[derive(Clone, Copy, Debug)]
pub struct ReplyWeights {
    pub reply: i32,
    pub potential_reply: i32,
}

/// The midgame's: two discs a reply, one a potential reply.
pub const MIDGAME_REPLY_WEIGHTS: ReplyWeights = ReplyWeights {
    reply: 2 * ORDER_DISC,
    potential_reply: ORDER_DISC,
};

/// The endgame's: the midgame's, but half a disc a potential reply (`docs/tuning.md`,
/// "Session 90").
pub const ENDGAME_REPLY_WEIGHTS: ReplyWeights = ReplyWeights {
    potential_reply: ORDER_DISC / 2,
    ..MIDGAME_REPLY_WEIGHTS
};

/// Ordering score per disc of the child's ordering value ([`crate::eval::Evaluator::order_value`];
/// fastest-first: [`REPLY_WEIGHT`] per reply). A multiple of its units per disc.
pub const EVAL_ORDER_WEIGHT: i32 = 16;
const _: () = assert!(EVAL_ORDER_WEIGHT % ORDER_SCALE == 0);

/// Fastest-first's and the mobility order's score taken off per reply the opponent has after
/// a move (corners counted twice, [`weighted_mobility`]). The other fastest-first weights are
/// in these units (the midgame ordering searches have their own scale, from
/// [`ORDER_DISC`]).
pub const REPLY_WEIGHT: i32 = 64;

/// Fastest-first's score taken off per potential reply of the opponent (an empty square next
/// to one of our discs), against [`REPLY_WEIGHT`] per reply.
pub const POTENTIAL_REPLY_WEIGHT: i32 = 16;

/// Fastest-first's score for a move in a quadrant with an odd number of empties.
pub const PARITY_WEIGHT: i32 = 8;

/// Fastest-first's score for a move on a lone empty ([`super::squares::lone_empties`]).
pub const LONE_EMPTY_WEIGHT: i32 = 32;

/// The score of a move that [`MoveList::score_fastest_first_searching`] leaves out (skipped,
/// or searched already): below every other score, so such moves are picked after all others.
pub const SETTLED: i32 = i32::MIN;

/// At most this many replies (corners twice) after a move below the shared table: the move is
/// searched as soon as fastest-first meets it ([`MoveList::score_fastest_first_searching`]).
pub const AT_ONCE_REPLIES: i32 = 1;

/// Fastest-first's score of move `c`: the opponent's replies after it (`mobility`, corners
/// twice), lone empties and odd quadrants (`lone`, `odd`), the square, and our discs after it
/// (`ours_after`) that are stable around the corners.
#[inline(always)]
fn fastest_first(c: &Candidate, ours_after: u64, mobility: i32, odd: u64, lone: u64) -> i32 {
    let parity = (odd & c.bit() != 0) as i32 * PARITY_WEIGHT
        + (lone & c.bit() != 0) as i32 * LONE_EMPTY_WEIGHT;
    -mobility * REPLY_WEIGHT
        + parity
        + SQUARE_BONUS[c.sq as usize]
        + corner_stable(ours_after).count_ones() as i32 * CORNER_STABILITY_WEIGHT
}

/// Fastest-first's score per disc of ours on or beside a corner we hold after the move.
pub const CORNER_STABILITY_WEIGHT: i32 = 16;

/// Number of `moves`, corners counted twice: the opponent's mobility as the orderings weigh
/// it.
#[inline(always)]
pub fn weighted_mobility(moves: u64) -> i32 {
    (moves.count_ones() + (moves & CORNERS).count_ones()) as i32
}

/// Small static preference per square: corners good, X- and C-squares bad.
pub static SQUARE_BONUS: [i32; 64] = {
    const ROW: [[i32; 8]; 4] = [
        [18, -4, 4, 2, 2, 4, -4, 18],
        [-4, -12, 0, 0, 0, 0, -12, -4],
        [4, 0, 2, 1, 1, 2, 0, 4],
        [2, 0, 1, 0, 0, 1, 0, 2],
    ];
    let mut t = [0i32; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = (sq % 8, sq / 8);
        let r = if r < 4 { r } else { 7 - r };
        t[sq] = ROW[r][c];
        sq += 1;
    }
    t
};
