//! Move lists on the stack (no allocation in the search loop) and their ordering scores:
//! transposition-table move, wipe-outs, fastest-first (opponent mobility, corners weighted),
//! potential mobility, discs made stable around the corners, quadrant parity and square
//! classes.

use super::last_moves::odd_quadrants;
use super::stability::corner_stable;
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
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Candidate] {
        &mut self.items[..self.len]
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Candidate] {
        &self.items[..self.len]
    }

    /// The candidate at position `i`.
    #[inline(always)]
    pub fn get(&self, i: usize) -> Candidate {
        self.items[i]
    }

    /// Moves the candidate on `sq` (if in the list) to the front; says whether it was there.
    #[inline]
    pub fn move_to_front(&mut self, sq: u8) -> bool {
        match self.as_slice().iter().position(|c| c.sq == sq) {
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
    pub fn score_endgame(&mut self, player: u64, opponent: u64, tt_move: u8, potential: bool) {
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
        tt_move: u8,
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
        tt_move: u8,
        mut extra: impl FnMut(&Candidate, (u64, u64), u64) -> i32,
    ) {
        let odd = odd_quadrants(!(player | opponent));
        for c in self.as_mut_slice() {
            if c.sq == tt_move {
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
    pub fn boost(&mut self, tt_move: u8) {
        for c in self.as_mut_slice() {
            if c.sq == tt_move {
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
}

/// Fastest-first's and the mobility order's score taken off per reply the opponent has after
/// a move (corners counted twice, [`weighted_mobility`]). The other fastest-first weights are
/// in these units (the midgame ordering searches have their own scale, from
/// [`super::midgame::ORDER_DISC`]).
pub const REPLY_WEIGHT: i32 = 64;

/// Fastest-first's score taken off per potential reply of the opponent (an empty square next
/// to one of our discs), against [`REPLY_WEIGHT`] per reply. Was 8; 16 measured with
/// [`super::endgame::EVAL_ORDER_WEIGHT`] 16 (see there).
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
                assert!(whole.move_to_front(sq));
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
}
