//! Move lists on the stack (no allocation in the search loop) and their ordering scores:
//! transposition-table move, wipe-outs, fastest-first (opponent mobility, corners weighted),
//! potential mobility, discs made stable around the corners, quadrant parity and square
//! classes.

use super::stability::corner_stable;
use super::tt::MoveHint;
use crate::board::flip::flips;
use crate::board::movegen::{legal_moves, potential_moves};
use crate::board::CORNERS;

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
    /// (selection sort step: cheap when a cut-off comes early). (A branch-free maximum over
    /// score-and-position keys: identical nodes, no faster on FFO #45-#49. Not kept.)
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
    /// (One loop with the potential replies behind a flag instead of this layer and the one
    /// above: identical nodes but FFO #41-#43 22,461.7 M -> 22,649.1 M instructions on an
    /// AVX2 build, the flag tested per move. Not kept.)
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
        for c in self.as_mut_slice() {
            let (np, no) = c.child(player, opponent);
            let replies = legal_moves(np, no);
            let mobility = weighted_mobility(replies);
            c.score = -mobility * REPLY_WEIGHT + SQUARE_BONUS[c.sq as usize];
        }
    }

    /// Orders by `value(candidate, child)`, a shallow search's value of the child (opponent to
    /// move) for us, less the opponent's mobility and potential mobility after the move
    /// ([`ORDER_MOBILITY_WEIGHT`], [`ORDER_POTENTIAL_WEIGHT`]); the move on `skip` (the table
    /// move, searched already or to be searched first) goes first without a search.
    #[inline(always)]
    pub fn score_by_values(
        &mut self,
        player: u64,
        opponent: u64,
        skip: MoveHint,
        mut value: impl FnMut(&Candidate, (u64, u64)) -> i32,
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
            let potential = potential_moves(np, no).count_ones() as i32;
            let value = value(c, (np, no));
            c.score = value * ORDER_DISC
                - mobility * ORDER_MOBILITY_WEIGHT
                - potential * ORDER_POTENTIAL_WEIGHT;
        }
    }
}

/// Union of the quadrants (a1-d4, e1-h4, a5-d8, e5-h8) holding an odd number of empties.
#[inline(always)]
pub fn odd_quadrants(empties: u64) -> u64 {
    // Fold each quadrant's parity onto its lowest square (a1, e1, a5, e5): across the four
    // columns of each half-row, then across the four rows of each half-board.
    let mut x = empties ^ (empties >> 1);
    x ^= x >> 2;
    x ^= x >> 8;
    x ^= x >> 16;
    // Each parity bit, times the pattern of a quadrant at a1, spreads over its own quadrant
    // (the four products do not overlap, so their sum is their union).
    (x & 0x0000_0011_0000_0011).wrapping_mul(0x0F0F_0F0F)
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

/// Ordering score of one disc of a child's shallow-search value.
pub const ORDER_DISC: i32 = 256;
/// Ordering score taken off per reply the opponent has after a move (corners counted twice),
/// beside the shallow search's value: two discs. Also [`ORDER_POTENTIAL_WEIGHT`] per
/// potential reply (an empty square next to one of our discs): one disc. A weak evaluation
/// orders better with mobility beside it. Measured, one thread, nodes (before: a tie-break of
/// 1/16 disc per reply, no potential mobility): FFO #51, #52, #56 solves 2,240.6 M; with
/// 4 discs per reply 2,170.8 M, 2 discs 2,179.1 M, 1 disc 2,182.5 M; 2 discs and 1 per
/// potential reply 2,090.4 M (4 and 2: 2,158.0 M; 3 and 1.5: 2,141.5 M; 2 and 1 in the
/// endgame but the old tie-break in the midgame: 2,105.4 M). FFO #53 + #58 8,261.3 M in
/// 191.4 s -> 7,818.3 M in 176.0 s; #40-#49 670.6 M -> 661.4 M. Midgame depth-14 searches of
/// FFO #60-#79: 317.8 M -> 306.8 M (4 and 2: 301.9 M). The whole of FFO #40-#59, run side by
/// side with the code before: 37.72 G nodes in 948.3 s -> 32.69 G in 816.4 s (#55 17.99 G in
/// 465.1 s -> 14.52 G in 374.7 s).
pub const ORDER_MOBILITY_WEIGHT: i32 = 2 * ORDER_DISC;
/// See [`ORDER_MOBILITY_WEIGHT`].
pub const ORDER_POTENTIAL_WEIGHT: i32 = ORDER_DISC;

/// Half-width around a null window of the ordering searches: children are told apart only
/// near alpha, where it matters. Measured, one thread: FFO #45-#49 solves (deep endgame tier)
/// 1,274.6 M nodes with a full window, 1,220.2 M with 12, 1,206.9 M with 8, 1,204.8 M with 4;
/// depth-12 searches of 30 held-out positions (midgame null-window nodes) 41.5 M with a full
/// window, 37.2 M with 8, 36.4 M with 4, 35.9 M with 2 (1.14x faster with 4). The midgame
/// searches before an exact solve keep the full window (their table moves guide the solve:
/// FFO #40-#49 1,216 M nodes with it, 1,284 M with 4).
pub const SORT_WINDOW: i32 = 4;

/// The window of the ordering searches at a null-window node around `alpha`, reaching `below`
/// discs below alpha and `above` discs above alpha + 1.
#[inline(always)]
pub fn sort_window(alpha: i32, below: i32, above: i32) -> (i32, i32) {
    ((alpha - below).max(-64), (alpha + 1 + above).min(64))
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

/// Empties from which endgame nodes order their moves by shallow searches (below, by
/// fastest-first plus the children's evaluations). FFO #40-#49 nodes: from 16 1,082.0 M, 18
/// 1,019.3 M, 20 1,022.0 M. Later (before the selectivity fix in [`Context::pvs`]), on
/// #50-#52 (26-27 empties; one thread, nodes): from 18
/// 1,539 M, from 22 1,512 M, never (evaluations up to the root) 1,506 M but on #53 (28
/// empties) 3,247 M against 2,946 M; ordering searches weighted like Egaroucid's (one ply,
/// value x 32 - mobility x 34) 1,505 M from 18, 1,697 M from 16. The ordering searches
/// themselves are cheap (#50: 0.25 M of 769 M nodes); at the expected cut nodes the first
/// move cuts 98-99 % of the time at every depth. With mobility beside the searches' values
/// ([`ORDER_MOBILITY_WEIGHT`], then in the endgame only), #51 + #52 + #56: from 16 2,176.8 M,
/// 18 2,105.4 M, 20 2,095.0 M; from 16 and 17 with one ply less 2,121.4 M and 2,106.7 M.
pub const END_SORT_SEARCH_MIN: u32 = 18;

/// At least this many empties (and below [`END_SORT_SEARCH_MIN`], where shallow searches
/// order): the deep tier adds each child's static evaluation to its fastest-first score.
/// Measured, one thread, FFO #40-#49 nodes: fastest-first alone 1,223.4 M; evaluation added
/// from 14 empties 1,108.4 M (weight 16), from 13 1,075.3 M, from 12 1,046.5 M, from 11
/// 1,018.9 M, from 9 983.1 M (weight 8; from 9 the evaluations cost more time than the nodes
/// save); the evaluation alone without fastest-first: from 14 1,264.0 M, from 12 1,330.7 M.
/// Time on #45-#49, three alternating rounds: without 35.6 / 30.3 / 28.5 s, from 11 30.2 /
/// 30.3 / 26.4 s. With the endgame cache at 7-11 empties: #40-#49 from 10 744.5 M nodes, 11
/// 757.7 M, 12 774.7 M; #45-#49 (two rounds) from 11 20.82 s, 12 20.19 s, 13 20.42 s; #50-#52
/// from 11 1,664.6 M nodes in 53.3 s, from 12 1,706.5 M in 51.9 s. Leaving the evaluations
/// out at nodes expected to fail low (children of cut nodes) below 18 empties: 670.6 M ->
/// 702.2 M nodes, below 14: 681.1 M, no faster. Counting only the part of an evaluation within
/// 4, 8 or 16 discs of alpha (as the ordering searches' window does): FFO #51 + #52 + #56
/// 2,441.8 M, 2,350.9 M, 2,205.7 M nodes against 2,090.4 M: margins far from alpha matter here.
pub const END_EVAL_ORDER_MIN: u32 = 12;
/// Ordering score per disc of the child's evaluation, against fastest-first's 64 per opponent
/// reply ([`super::ordering::REPLY_WEIGHT`]). Measured (FFO #40-#49 nodes, from 11 empties):
/// 8: 1,018.9 M, 16: 1,034.5 M; from 12: 4: 1,082.4 M, 8: 1,046.5 M; from 9: 8: 983.1 M,
/// 16: 1,015.2 M, 32: 1,125.4 M. Again
/// on the deeper #50-#52: 4: 1,639.3 M, 8: 1,576.1 M, 16: 1,610.8 M. With mobility beside the
/// ordering searches' values above this tier, #51 + #52 + #56: 8 (potential replies 8):
/// 2,090.4 M; 16 (and 16) 2,075.6 M, but #53 + #58 7,805.9 M against 7,818.3 M; 32 (and 32)
/// 2,150.5 M. With 8 here, potential replies weighted 4, 12 or 16 instead of 8: 2,151-2,163 M
/// against 2,153 M (measured while the midgame ordering still had its old tie-break).
/// With the ordering searches' window of [`END_SORT_BELOW`], 16 (and potential replies 16,
/// [`super::ordering::POTENTIAL_REPLY_WEIGHT`]): #51 + #52 + #56 2,047.6 M against 2,062.2 M
/// with 8 (and 8); 16 and 8: 2,053.0 M; 24 and 16: 2,091.0 M. See [`END_SORT_BELOW`] for the
/// whole suite.
pub const EVAL_ORDER_WEIGHT: i32 = 16;

/// The window of the endgame ordering searches at a null-window node around alpha reaches
/// this many discs below alpha and [`END_SORT_ABOVE`] above it (as Egaroucid's ordering
/// searches look further below the window than above). Moves clearly above alpha tie there,
/// and the opponent's mobility picks among them; below alpha, how far below still tells moves
/// apart. Measured, one thread, nodes, FFO #51 + #52 + #56 (with
/// [`EVAL_ORDER_WEIGHT`] 8): ±4 (below, above) 2,090.4 M; 4, 1: 2,079.5 M; 8, 2: 2,074.6 M;
/// 10, 3: 2,072.9 M; 12, 2: 2,069.1 M; 16, 1: 2,064.8 M; 16, 2: 2,062.2 M; 64, 2: 2,093.0 M.
/// With weight 16 (and 16 per potential reply): 12, 2: 2,052.2 M; 16, 2: 2,047.6 M; 16, 3:
/// 2,050.3 M; 24, 2: 2,057.7 M. The whole of FFO #40-#59 with 16, 2 and weight 16 against ±4
/// and 8: 32,147.2 M nodes against 32,687.6 M (-1.7 %): #40-#49 655.6 M against 661.4 M,
/// #50 754.1 M against 740.1 M, #53 2,157.1 M against 2,243.4 M, #54 4,033.1 M against
/// 4,190.8 M, #55 14,298.2 M against 14,521.1 M, #57 2,518.7 M against 2,643.9 M, #58 5,660.4 M
/// against 5,574.9 M.
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

/// Fastest-first's score added per disc of ours on or beside a corner we hold after a move
/// ([`corner_stable`]), against [`REPLY_WEIGHT`] per opponent reply. Measured, one
/// thread, nodes: FFO #40-#49 without 655.6 M; 8: 626.7 M, 16: 619.2 M, 24: 625.5 M, 32:
/// 635.5 M, 64: 696.7 M. With 16: #51 + #52 + #56 2,047.6 M -> 1,980.0 M, #53 2,157.1 M ->
/// 2,108.8 M, #58 5,660.4 M -> 5,625.7 M. (Exact edge stability from the stability table
/// instead, 8 or 12 per disc: #40-#49 611.3 M / 610.4 M but #51 + #52 + #56 2,006.8 M with 12;
/// both together 1,990.6-1,996.3 M. The opponent's edge-stable discs taken off as well, fewer
/// flips or fewer flipped discs next to an empty square preferred, a parity weight of 8 or 32
/// instead of 16: each within 0.4 % or worse on #40-#49. The same term beside the ordering
/// searches' values, 128 or 256 per disc: #51 + #52 + #56 1,973.8 M / 1,978.2 M, #53 + #58
/// -0.3 %; in the midgame mobility order, 16 per disc: FFO #60-#79 depth 14 306.8 M ->
/// 305.5 M nodes; 32 per disc where the children's evaluations are added (12-17 empties):
/// #40-#49 614.4 M, #51 + #52 + #56 1,972.3 M, with 128 beside the ordering searches as well
/// #53 + #58 7,722.7 M against 7,734.5 M; too small to keep. Leaving the term out at 7-11
/// empties: #40-#49 647.3 M, at 12-17: 627.6 M, so both tiers gain. Other fastest-first
/// weights again with the term: corners counted once or three times in the opponent's
/// mobility 647.7 M / 620.3 M; square bonuses left out or tripled 629.8 M / 683.9 M; our own
/// mobility after the move, 8 or 16 per move, 612.4 M / 612.2 M but one more move generation
/// per child, not kept.)
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
