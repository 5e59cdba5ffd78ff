//! Exact solving of the last empties, without the table or a move list. From 5 to
//! [`SHALLOW_MAX`] empties: lone empties then parity order over the empties, flips computed
//! directly. The last 1 to 4: no move generation (a square is tried only when it touches an
//! opponent disc), lone empties then quadrant parity, and the final empty scored by counting
//! the flips without making the move; three empties and more also try the stability cut-off.
//! All are null-window (fail-soft) searches around `alpha`.

use super::context::Context;
use super::ordering::{last_two, parity_groups, parity_order, SquareOrder};
use super::stability::stability_cut;
use crate::board::flip::{flips, last_flip_count};
use crate::board::movegen::legal_moves;
use crate::board::movegen::NEIGHBOURS;
use crate::board::Board;
use crate::eval::Evaluator;

/// At most this many empties: the shallow tier (no table, no move list, parity order).
pub const SHALLOW_MAX: u32 = 5;

/// Flips of `player` on `sq`, skipping the flip kernel when no opponent disc is adjacent.
#[inline(always)]
fn flips_near(sq: usize, player: u64, opponent: u64) -> u64 {
    if NEIGHBOURS[sq] & opponent != 0 {
        flips(sq, player, opponent)
    } else {
        0
    }
}

/// Exact score with one empty `sq` (the other 63 squares are full); flips are counted, not
/// made.
#[inline(always)]
pub fn solve_1(player: u64, alpha: i32, sq: usize) -> i32 {
    // Disc difference before the last move, minus one: 2p - 64.
    let base = 2 * player.count_ones() as i32 - 64;
    let n = last_flip_count(sq, player) as i32;
    if n > 0 {
        return base + 2 + 2 * n;
    }
    // Without our move the score is at most `base` (when base < 0): if that already fails
    // low, the opponent's flips do not matter (fail-soft upper bound).
    if base <= alpha && base < 0 {
        return base;
    }
    let opponent = !player & !(1u64 << sq);
    let m = last_flip_count(sq, opponent) as i32;
    if m > 0 {
        base - 2 * m
    } else if base + 1 > 0 {
        base + 2
    } else {
        base
    }
}

impl<E: Evaluator> Context<'_, E> {
    /// Null-window exact search around `alpha` of a position with `n` empties, at most
    /// [`SHALLOW_MAX`]: fail-soft, as the endgame's deeper tiers.
    #[inline(always)]
    pub fn solve_last(&mut self, player: u64, opponent: u64, alpha: i32, n: u32) -> i32 {
        if n > 4 {
            self.solve_shallow(player, opponent, alpha, n)
        } else {
            self.solve_small(player, opponent, alpha, n)
        }
    }

    #[inline(always)]
    fn solve_small(&mut self, player: u64, opponent: u64, alpha: i32, n: u32) -> i32 {
        let e = !(player | opponent);
        match n {
            4 => self.solve_4(player, opponent, alpha),
            3 => self.solve_3(player, opponent, alpha, parity_order(e)),
            2 => {
                let [a, b] = last_two(e);
                self.solve_2(player, opponent, alpha, a, b)
            }
            1 => {
                self.nodes += 1;
                solve_1(player, alpha, e.trailing_zeros() as usize)
            }
            _ => {
                self.nodes += 1;
                Board::new(player, opponent).final_score()
            }
        }
    }

    /// 5 to [`SHALLOW_MAX`] empties: the groups of [`parity_groups`] (lone empties, then odd
    /// quadrants' corners and other squares, then the rest), flips computed directly.
    fn solve_shallow(&mut self, player: u64, opponent: u64, alpha: i32, n: u32) -> i32 {
        self.nodes += 1;
        if let Some(v) = stability_cut(player, opponent, alpha, n) {
            return v;
        }
        let mut best = i32::MIN;
        for part in parity_groups(!(player | opponent)) {
            let mut m = part;
            while m != 0 {
                let sq = m.trailing_zeros() as usize;
                m &= m - 1;
                let f = flips_near(sq, player, opponent);
                if f == 0 {
                    continue;
                }
                let v = -self.solve_last(opponent ^ f, player ^ f ^ (1 << sq), -alpha - 1, n - 1);
                if v > best {
                    best = v;
                    if v > alpha {
                        return v;
                    }
                }
            }
        }
        if best != i32::MIN {
            return best;
        }
        if legal_moves(opponent, player) != 0 {
            -self.solve_shallow(opponent, player, -alpha - 1, n)
        } else {
            Board::new(player, opponent).final_score()
        }
    }

    /// Two empties `a`, `b`; null window around `alpha`.
    #[inline(always)]
    pub fn solve_2(&mut self, player: u64, opponent: u64, alpha: i32, a: usize, b: usize) -> i32 {
        self.nodes += 1;
        if let Some(v) = self.moves_2(player, opponent, alpha, a, b) {
            return v;
        }
        if let Some(v) = self.moves_2(opponent, player, -alpha - 1, a, b) {
            return -v;
        }
        Board::new(player, opponent).final_score()
    }

    #[inline(always)]
    fn moves_2(&mut self, p: u64, o: u64, alpha: i32, a: usize, b: usize) -> Option<i32> {
        let mut best = i32::MIN;
        let f = flips_near(a, p, o);
        if f != 0 {
            self.nodes += 1;
            best = -solve_1(o ^ f, -alpha - 1, b);
            if best > alpha {
                return Some(best);
            }
        }
        let f = flips_near(b, p, o);
        if f != 0 {
            self.nodes += 1;
            best = best.max(-solve_1(o ^ f, -alpha - 1, a));
        }
        (best != i32::MIN).then_some(best)
    }

    /// Three empties in `sq` (already in parity order); null window around `alpha`.
    pub fn solve_3(&mut self, player: u64, opponent: u64, alpha: i32, sq: SquareOrder) -> i32 {
        self.nodes += 1;
        if let Some(v) = stability_cut(player, opponent, alpha, 3) {
            return v;
        }
        if let Some(v) = self.moves_3(player, opponent, alpha, sq) {
            return v;
        }
        if let Some(v) = self.moves_3(opponent, player, -alpha - 1, sq) {
            return -v;
        }
        Board::new(player, opponent).final_score()
    }

    #[inline(always)]
    fn moves_3(&mut self, p: u64, o: u64, alpha: i32, sq: SquareOrder) -> Option<i32> {
        let mut best = i32::MIN;
        for i in 0..3 {
            let s = sq.get(i);
            let f = flips_near(s, p, o);
            if f != 0 {
                let rest = sq.without(i);
                let (x, y) = (rest.get(0), rest.get(1));
                let v = -self.solve_2(o ^ f, p ^ f ^ (1 << s), -alpha - 1, x, y);
                if v > best {
                    best = v;
                    if v > alpha {
                        return Some(v);
                    }
                }
            }
        }
        (best != i32::MIN).then_some(best)
    }

    /// Four empties; null window around `alpha`.
    pub fn solve_4(&mut self, player: u64, opponent: u64, alpha: i32) -> i32 {
        self.nodes += 1;
        if let Some(v) = stability_cut(player, opponent, alpha, 4) {
            return v;
        }
        let sq = parity_order(!(player | opponent));
        if let Some(v) = self.moves_4(player, opponent, alpha, sq) {
            return v;
        }
        if let Some(v) = self.moves_4(opponent, player, -alpha - 1, sq) {
            return -v;
        }
        Board::new(player, opponent).final_score()
    }

    #[inline(always)]
    fn moves_4(&mut self, p: u64, o: u64, alpha: i32, sq: SquareOrder) -> Option<i32> {
        let mut best = i32::MIN;
        for i in 0..4 {
            let s = sq.get(i);
            let f = flips_near(s, p, o);
            if f != 0 {
                let v = -self.solve_3(o ^ f, p ^ f ^ (1 << s), -alpha - 1, sq.without(i));
                if v > best {
                    best = v;
                    if v > alpha {
                        return Some(v);
                    }
                }
            }
        }
        (best != i32::MIN).then_some(best)
    }
}
