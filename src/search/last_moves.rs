//! Exact solving of the last 1 to 4 empties: no move generation (a square is tried only when it
//! touches an opponent disc), quadrant-parity order, and the final empty scored by counting the
//! flips without making the move; four empties also try the stability cut-off. All are
//! null-window (fail-soft) searches around `alpha`.

use super::context::Context;
use super::endgame::stability_cut;
use crate::board::flip::{flips, last_flip_count};
use crate::eval::Evaluator;

/// Squares adjacent to each square.
pub static NEIGHBOURS: [u64; 64] = build_neighbours();

const fn build_neighbours() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nc, nr) = (c + dc, r + dr);
                if (dc != 0 || dr != 0) && nc >= 0 && nc < 8 && nr >= 0 && nr < 8 {
                    t[sq] |= 1u64 << (nr * 8 + nc);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    t
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

/// Final score with `empties` empty squares left, all given to the winner.
#[inline(always)]
pub fn final_score(player: u64, opponent: u64) -> i32 {
    let p = player.count_ones() as i32;
    let o = opponent.count_ones() as i32;
    let e = 64 - p - o;
    let d = p - o;
    if d > 0 {
        d + e
    } else if d < 0 {
        d - e
    } else {
        0
    }
}

/// Flips of `player` on `sq`, skipping the flip kernel when no opponent disc is adjacent.
/// (The BMI2 kernel here instead of the AVX-512 one: FFO #40-#49 alternating on one core,
/// three rounds, min 16.38 -> 17.38 s. Not kept.)
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
    /// Two empties `a`, `b`; null window around `alpha`. (The side to move's pass, here and in
    /// [`Context::solve_3`], in a cold function not inlined, to halve the inlined code: FFO
    /// #40-#49 alternating on one core, three rounds, min 16.50 -> 16.77 s. Not kept.)
    #[inline(always)]
    pub fn solve_2(&mut self, player: u64, opponent: u64, alpha: i32, a: usize, b: usize) -> i32 {
        self.nodes += 1;
        if let Some(v) = self.moves_2(player, opponent, alpha, a, b) {
            return v;
        }
        if let Some(v) = self.moves_2(opponent, player, -alpha - 1, a, b) {
            return -v;
        }
        final_score(player, opponent)
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

    /// Three empties in `sq` (already in parity order); null window around `alpha`. (Re-sorting
    /// the three by the parity left after the fourth-to-last move: FFO #40-#49 1,019.0 M ->
    /// 1,009.3 M nodes but 1.6 % slower in two alternating rounds; not kept.)
    pub fn solve_3(&mut self, player: u64, opponent: u64, alpha: i32, sq: [usize; 3]) -> i32 {
        self.nodes += 1;
        if let Some(v) = self.moves_3(player, opponent, alpha, sq) {
            return v;
        }
        if let Some(v) = self.moves_3(opponent, player, -alpha - 1, sq) {
            return -v;
        }
        final_score(player, opponent)
    }

    #[inline(always)]
    fn moves_3(&mut self, p: u64, o: u64, alpha: i32, sq: [usize; 3]) -> Option<i32> {
        let mut best = i32::MIN;
        for i in 0..3 {
            let s = sq[i];
            let f = flips_near(s, p, o);
            if f != 0 {
                let (x, y) = match i {
                    0 => (sq[1], sq[2]),
                    1 => (sq[0], sq[2]),
                    _ => (sq[0], sq[1]),
                };
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
        final_score(player, opponent)
    }

    #[inline(always)]
    fn moves_4(&mut self, p: u64, o: u64, alpha: i32, sq: [usize; 4]) -> Option<i32> {
        let mut best = i32::MIN;
        for i in 0..4 {
            let s = sq[i];
            let f = flips_near(s, p, o);
            if f != 0 {
                let rest = match i {
                    0 => [sq[1], sq[2], sq[3]],
                    1 => [sq[0], sq[2], sq[3]],
                    2 => [sq[0], sq[1], sq[3]],
                    _ => [sq[0], sq[1], sq[2]],
                };
                let v = -self.solve_3(o ^ f, p ^ f ^ (1 << s), -alpha - 1, rest);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

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
