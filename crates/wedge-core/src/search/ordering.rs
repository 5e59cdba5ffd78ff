//! Move lists on the stack (no allocation in the search loop) and their ordering scores:
//! transposition-table move, wipe-outs, fastest-first (opponent mobility, corners weighted),
//! potential mobility, discs made stable around the corners, quadrant parity and square
//! classes.

use super::stability::corner_stable;
use super::tt::MoveHint;
use crate::board::flip::flips;
use crate::board::movegen::{legal_moves, potential_moves};
use crate::board::{quadrant_parities, CORNERS};
use crate::eval::{EIGHTHS_PER_DISC, MAX_EIGHTHS, ORDER_SCALE};

/// More than the largest number of legal moves in any Othello position (33).
pub const MAX_MOVES: usize = 36;

/// One candidate move with its flips and ordering score.
///
/// Laid out without padding (`_fill` covers the 3 bytes after `sq`), so that an empty list's
/// 36 candidates are zeroed by a few wide stores: with padding, each field was zeroed alone
/// (108 stores per deep endgame node, a tenth of that tier's own time in a profile of FFO
/// #53's exact pass).
#[derive(Clone, Copy, Default, Debug)]
#[repr(C)]
pub struct Candidate {
    pub flips: u64,
    pub score: i32,
    pub sq: u8,
    _fill: [u8; 3],
}

impl Candidate {
    #[inline(always)]
    pub fn new(sq: u8, flips: u64, score: i32) -> Candidate {
        Candidate {
            flips,
            score,
            sq,
            _fill: [0; 3],
        }
    }

    #[inline(always)]
    pub fn bit(&self) -> u64 {
        1u64 << self.sq
    }

    /// The child position (opponent to move) as (player, opponent).
    #[inline(always)]
    pub fn child(&self, player: u64, opponent: u64) -> (u64, u64) {
        (opponent ^ self.flips, player ^ self.flips ^ self.bit())
    }
}

/// The legal moves of a position with their flips, in the order they will be searched.
pub struct MoveList {
    items: [Candidate; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// All legal moves in `moves` (a legal-move bitboard) with their flips, unscored.
    /// Returned by value, the list is copied whole (the compiler does not build it in the
    /// caller's place): the search's nodes use [`MoveList::empty`] and [`MoveList::fill`].
    #[inline]
    pub fn new(player: u64, opponent: u64, moves: u64) -> MoveList {
        let mut list = MoveList::empty();
        list.fill(player, opponent, moves);
        list
    }

    /// A list of no moves, to be filled in place by [`MoveList::fill`] or
    /// [`MoveList::fill_without_first`].
    #[inline(always)]
    pub fn empty() -> MoveList {
        MoveList {
            items: [Candidate::default(); MAX_MOVES],
            len: 0,
        }
    }

    /// Replaces the list by the moves of [`MoveList::new`], built in place (a list built
    /// elsewhere and moved here costs a 576-byte copy).
    #[inline]
    pub fn fill(&mut self, player: u64, opponent: u64, moves: u64) {
        self.len = 0;
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            self.items[self.len] = Candidate {
                sq: sq as u8,
                flips: flips(sq, player, opponent),
                score: 0,
                _fill: [0; 3],
            };
            self.len += 1;
        }
    }

    /// Replaces the list by the moves of [`MoveList::new`] but `first` (a legal move,
    /// searched already), in the order the whole list has after
    /// [`MoveList::move_to_front`]`(first)`, so that equal scores are picked alike either way.
    #[inline]
    pub fn fill_without_first(&mut self, player: u64, opponent: u64, moves: u64, first: u8) {
        let bit = 1u64 << first;
        self.fill(player, opponent, moves & !bit);
        // `move_to_front` swaps the first move into the place of the one it brings forward.
        let k = (moves & (bit - 1)).count_ones() as usize;
        if k > 1 {
            self.items[..k].rotate_left(1);
        }
    }

    /// Replaces the list by `candidates` (at most [`MAX_MOVES`]).
    #[inline]
    pub fn fill_from(&mut self, candidates: impl Iterator<Item = Candidate>) {
        self.len = 0;
        for c in candidates {
            self.items[self.len] = c;
            self.len += 1;
        }
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Candidate] {
        &mut self.items[..self.len]
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Candidate] {
        &self.items[..self.len]
    }

    /// Moves the candidate on `sq` (if in the list) to the front; says whether it was there.
    #[inline]
    pub fn move_to_front(&mut self, hint: MoveHint) -> bool {
        match self.as_slice().iter().position(|c| hint.is(c.sq)) {
            Some(k) => {
                self.items.swap(0, k);
                true
            }
            None => false,
        }
    }

    /// Moves the best-scored candidate among `i..` to position `i` and returns it
    /// (selection sort step: cheap when a cut-off comes early).
    #[inline(always)]
    pub fn pick(&mut self, i: usize) -> Candidate {
        let mut best = i;
        for j in i + 1..self.len {
            if self.items[j].score > self.items[best].score {
                best = j;
            }
        }
        self.items.swap(i, best);
        self.items[i]
    }

    /// The candidates from position `i` on, best first (for sharing with other threads).
    pub fn sorted_from(&mut self, i: usize) -> Vec<Candidate> {
        let rest = &mut self.items[i..self.len];
        rest.sort_by_key(|c| std::cmp::Reverse(c.score));
        rest.to_vec()
    }

    /// Fastest-first scores for the endgame: few replies for the opponent (corners counted
    /// twice), few potential replies (when `potential`), many of our discs made stable around
    /// the corners, odd quadrants first; the table move before all.
    #[inline]
    pub fn score_endgame(
        &mut self,
        player: u64,
        opponent: u64,
        tt_move: MoveHint,
        potential: bool,
    ) {
        if potential {
            self.score_endgame_with(player, opponent, tt_move, |_, _, _, _| 0);
        } else {
            self.score_fastest_first(player, opponent, tt_move, |_, _, _| 0);
        }
    }

    /// [`MoveList::score_endgame`] with potential replies, plus `extra(candidate, child,
    /// replies, potential replies)` for each move but the table move: the child position
    /// (opponent to move) and the opponent's legal and potential moves there, which an
    /// evaluation of the child can reuse.
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

    /// Fastest-first without potential replies, plus `extra(candidate, child, replies)`.
    #[inline(always)]
    fn score_fastest_first(
        &mut self,
        player: u64,
        opponent: u64,
        tt_move: MoveHint,
        mut extra: impl FnMut(&Candidate, (u64, u64), u64) -> i32,
    ) {
        let odd = odd_quadrants(!(player | opponent));
        for c in self.as_mut_slice() {
            if tt_move.is(c.sq) {
                c.score = 1 << 30;
                continue;
            }
            let (np, no) = c.child(player, opponent);
            let replies = legal_moves(np, no);
            let mobility = weighted_mobility(replies);
            let parity = (odd & c.bit() != 0) as i32;
            c.score = -mobility * REPLY_WEIGHT
                + parity * 16
                + SQUARE_BONUS[c.sq as usize]
                + corner_stable(no).count_ones() as i32 * CORNER_STABILITY_WEIGHT
                + extra(c, (np, no), replies);
        }
    }
}

impl MoveList {
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
    /// mobility and potential mobility after the move ([`ORDER_MOBILITY_WEIGHT`],
    /// [`ORDER_POTENTIAL_WEIGHT`]), which `value` is given as the opponent's legal and
    /// potential moves there; the move on `skip` (the table move, searched already or to be
    /// searched first) goes first without a search.
    #[inline(always)]
    pub fn score_by_values(
        &mut self,
        player: u64,
        opponent: u64,
        skip: MoveHint,
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
                - mobility * ORDER_MOBILITY_WEIGHT
                - potential.count_ones() as i32 * ORDER_POTENTIAL_WEIGHT;
        }
    }
}

/// Union of the quadrants (a1-d4, e1-h4, a5-d8, e5-h8) holding an odd number of empties.
#[inline(always)]
pub fn odd_quadrants(empties: u64) -> u64 {
    // Each parity bit, times the pattern of a quadrant at a1, spreads over its own quadrant
    // (the four products do not overlap, so their sum is their union).
    quadrant_parities(empties).wrapping_mul(0x0F0F_0F0F)
}

/// The `N` lowest empties in parity order: those of odd quadrants first, each group in
/// square order. Branch-free: the odd group and the even group are one 128-bit set (the
/// even group in the high half) whose lowest bits are taken one by one.
#[inline(always)]
pub fn parity_order<const N: usize>(empties: u64) -> [usize; N] {
    let odd = odd_quadrants(empties);
    let mut set = u128::from(empties & odd) | u128::from(empties & !odd) << 64;
    let mut out = [0usize; N];
    for sq in out.iter_mut() {
        *sq = (set.trailing_zeros() & 63) as usize;
        set &= set.wrapping_sub(1);
    }
    out
}

/// From this depth on, moves are ordered by shallow searches of the children.
pub const SORT_SEARCH_MIN_DEPTH: u32 = 4;

/// Ordering score of one disc of a child's shallow-search value (searched in eighths).
pub const ORDER_DISC: i32 = 256;
const _: () = assert!(ORDER_DISC % EIGHTHS_PER_DISC == 0);

/// Ordering score taken off per opponent reply after a move (corners twice): two discs.
pub const ORDER_MOBILITY_WEIGHT: i32 = 2 * ORDER_DISC;
/// See [`ORDER_MOBILITY_WEIGHT`].
pub const ORDER_POTENTIAL_WEIGHT: i32 = ORDER_DISC;

/// Half-width around a null window of the ordering searches (a full window before a solve).
pub const SORT_WINDOW: i32 = 4;

/// The window (in eighths) of the ordering searches at a null-window node around `alpha`
/// (eighths), reaching `below` discs below alpha and `above` discs above alpha + 1.
#[inline(always)]
pub fn sort_window(alpha: i32, below: i32, above: i32) -> (i32, i32) {
    let low = alpha - below * EIGHTHS_PER_DISC;
    let high = alpha + 1 + above * EIGHTHS_PER_DISC;
    (low.max(-MAX_EIGHTHS), high.min(MAX_EIGHTHS))
}

/// Depth of the ordering searches at a node of depth `depth`.
#[inline(always)]
pub fn sort_depth_for(depth: u32) -> u32 {
    match depth {
        0..=5 => 0,
        6..=8 => 1,
        9..=12 => 2,
        _ => 3,
    }
}

/// Empties from which endgame nodes order their moves by shallow searches.
pub const END_SORT_SEARCH_MIN: u32 = 18;

/// At least this many empties (and below [`END_SORT_SEARCH_MIN`]): fastest-first adds each
/// child's static evaluation.
pub const END_EVAL_ORDER_MIN: u32 = 12;
/// Ordering score per disc of the child's ordering value ([`crate::eval::Evaluator::order_value`];
/// fastest-first: [`REPLY_WEIGHT`] per reply). A multiple of its units per disc.
pub const EVAL_ORDER_WEIGHT: i32 = 16;
const _: () = assert!(EVAL_ORDER_WEIGHT % ORDER_SCALE == 0);

/// The endgame ordering searches' window reaches this many discs below alpha (and
/// [`END_SORT_ABOVE`] above).
pub const END_SORT_BELOW: i32 = 16;
/// See [`END_SORT_BELOW`].
pub const END_SORT_ABOVE: i32 = 2;

/// Fastest-first's and the mobility order's score taken off per reply the opponent has after
/// a move (corners counted twice, [`weighted_mobility`]). The other fastest-first weights are
/// in these units (the midgame ordering searches have their own scale, from
/// [`ORDER_DISC`]).
pub const REPLY_WEIGHT: i32 = 64;

/// Fastest-first's score taken off per potential reply of the opponent (an empty square next
/// to one of our discs), against [`REPLY_WEIGHT`] per reply. Was 8; 16 measured with
/// [`EVAL_ORDER_WEIGHT`] 16 (see there).
pub const POTENTIAL_REPLY_WEIGHT: i32 = 16;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::tests::random_positions;
    use crate::rng::Rng;

    /// Along random games, the list without a searched first move holds the same candidates
    /// in the same order as the whole list after that move was brought to the front.
    #[test]
    fn list_without_first_keeps_the_order_of_move_to_front() {
        let mut checked = 0;
        random_positions(7, 300, |b| {
            let (p, o) = (b.player, b.opponent);
            let moves = legal_moves(p, o);
            let mut m = moves;
            while m != 0 {
                let sq = m.trailing_zeros() as u8;
                m &= m - 1;
                let mut whole = MoveList::new(p, o, moves);
                assert!(whole.move_to_front(MoveHint::square(sq)));
                let mut rest = MoveList::empty();
                rest.fill_without_first(p, o, moves, sq);
                let key = |c: &Candidate| (c.sq, c.flips);
                let expected: Vec<_> = whole.as_slice()[1..].iter().map(key).collect();
                let got: Vec<_> = rest.as_slice().iter().map(key).collect();
                assert_eq!(got, expected);
                checked += 1;
            }
        });
        assert!(checked > 50_000, "{checked}");
    }

    /// The four quadrants' squares: a1-d4, e1-h4, a5-d8, e5-h8.
    const QUADRANT_MASKS: [u64; 4] = [
        0x0000_0000_0F0F_0F0F,
        0x0000_0000_F0F0_F0F0,
        0x0F0F_0F0F_0000_0000,
        0xF0F0_F0F0_0000_0000,
    ];

    /// Quadrant (index into [`QUADRANT_MASKS`]) of a square.
    fn quadrant(sq: usize) -> usize {
        ((sq >> 2) & 1) | ((sq >> 4) & 2)
    }

    /// The folded parities agree with counting each quadrant's empties, on sparse and dense
    /// random sets and on every single square.
    #[test]
    fn odd_quadrants_match_counting() {
        let counted = |e: u64| {
            QUADRANT_MASKS
                .iter()
                .filter(|&&q| (e & q).count_ones() % 2 == 1)
                .fold(0, |m, q| m | q)
        };
        let mut rng = Rng::new(5);
        for k in 0..30_000 {
            let e = match k % 3 {
                0 => rng.next_u64(),
                1 => rng.next_u64() & rng.next_u64() & rng.next_u64(),
                _ => rng.next_u64() | rng.next_u64(),
            };
            assert_eq!(odd_quadrants(e), counted(e), "{e:#x}");
        }
        for sq in 0..64 {
            assert_eq!(odd_quadrants(1 << sq), QUADRANT_MASKS[quadrant(sq)]);
        }
    }

    /// The empties of `e`, those of odd quadrants first, each group ascending.
    fn sorted_by_parity(e: u64) -> Vec<usize> {
        let odd = odd_quadrants(e);
        let mut squares: Vec<usize> = (0..64).filter(|&s| e & (1 << s) != 0).collect();
        squares.sort_by_key(|&s| odd & (1 << s) == 0);
        squares
    }

    /// Parity order holds the empties once each, odd quadrants' first, each group ascending.
    #[test]
    fn parity_order_puts_odd_quadrants_first() {
        let mut rng = Rng::new(9);
        for _ in 0..10_000 {
            let mut e = 0u64;
            while e.count_ones() < 4 {
                e |= 1 << rng.below(64);
            }
            assert_eq!(parity_order::<4>(e).to_vec(), sorted_by_parity(e), "{e:#x}");
            let three = e & (e - 1);
            assert_eq!(
                parity_order::<3>(three).to_vec(),
                sorted_by_parity(three),
                "{three:#x}"
            );
        }
    }
}
