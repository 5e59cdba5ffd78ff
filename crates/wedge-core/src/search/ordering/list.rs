//! The move list of a node, on the stack (no allocation in the search loop): each legal move
//! with its flips and ordering score, filled in place and picked best first.

use crate::board::flip::flips;
use crate::search::tt::MoveHint;

/// More than the largest number of legal moves in any Othello position (33).
pub const MAX_MOVES: usize = 36;

/// One candidate move with its flips and ordering score.
///
/// Laid out without padding (`_fill` covers the 3 bytes after `sq`), so that an empty list's
/// candidates are zeroed by a few wide stores, not field by field.
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
/// Holds at most `N` moves: [`MAX_MOVES`] for any position; fewer where the empties bound the
/// moves (a position with `n` empties has at most `n` moves).
pub struct MoveList<const N: usize = MAX_MOVES> {
    items: [Candidate; N],
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
}

impl<const N: usize> MoveList<N> {
    /// A list of no moves, to be filled in place by [`MoveList::fill`] or
    /// [`MoveList::fill_without_first`].
    #[inline(always)]
    pub fn empty() -> MoveList<N> {
        MoveList {
            items: [Candidate::default(); N],
            len: 0,
        }
    }

    /// Replaces the list by the moves of [`MoveList::new`], built in place (a list built
    /// elsewhere and moved here costs a 576-byte copy).
    #[inline]
    pub fn fill(&mut self, player: u64, opponent: u64, moves: u64) {
        // Counted in a register, not in `self.len`, so that no store and reload sits on the
        // loop's chain; stored once at the end.
        let mut len = 0;
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            self.items[len] = Candidate {
                sq: sq as u8,
                flips: flips(sq, player, opponent),
                score: 0,
                _fill: [0; 3],
            };
            len += 1;
        }
        self.len = len;
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
        let mut len = 0;
        for c in candidates {
            self.items[len] = c;
            len += 1;
        }
        self.len = len;
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

    /// Returns the best-scored candidate among `i..` and puts the one at `i` in its place, so
    /// that `i + 1..` holds the others (a selection sort step: cheap when a cut-off comes
    /// early). The places up to `i` are not read again.
    #[inline(always)]
    pub fn pick(&mut self, i: usize) -> Candidate {
        let (mut best, mut best_score) = (i, self.items[i].score);
        for j in i + 1..self.len {
            let score = self.items[j].score;
            if score > best_score {
                (best, best_score) = (j, score);
            }
        }
        let picked = self.items[best];
        self.items[best] = self.items[i];
        picked
    }

    /// The candidates from position `i` on, best first (for sharing with other threads).
    pub fn sorted_from(&mut self, i: usize) -> Vec<Candidate> {
        let rest = &mut self.items[i..self.len];
        rest.sort_by_key(|c| std::cmp::Reverse(c.score));
        rest.to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;
    use crate::board::tests::random_positions;

    /// Picking every move of a list hands out each candidate once, best-scored first, and
    /// equal scores in the order a swapping selection sort gives them.
    #[test]
    fn picks_hand_out_each_candidate_once_best_first() {
        let mut rng = crate::rng::Rng::new(17);
        for _ in 0..2_000 {
            let n = 1 + rng.below(MAX_MOVES as u64) as usize;
            let mut list: MoveList = MoveList::empty();
            let candidates = (0..n).map(|k| Candidate::new(k as u8, k as u64, rng.below(5) as i32));
            list.fill_from(candidates);
            let mut swapped: Vec<Candidate> = list.as_slice().to_vec();
            let squares = |l: &[Candidate]| l.iter().map(|c| c.sq).collect::<Vec<_>>();
            for i in 0..n {
                let picked = list.pick(i);
                let best = (i..n).fold(i, |b, j| {
                    if swapped[j].score > swapped[b].score {
                        j
                    } else {
                        b
                    }
                });
                swapped.swap(i, best);
                assert_eq!((picked.sq, picked.score), (swapped[i].sq, swapped[i].score));
                assert_eq!(
                    squares(&list.as_slice()[i + 1..]),
                    squares(&swapped[i + 1..])
                );
            }
        }
    }

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
                let mut rest: MoveList = MoveList::empty();
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
