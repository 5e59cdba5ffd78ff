//! Orders of squares that need no move list: quadrant parity and lone empties (the last
//! empties' order and terms of fastest-first), the groups the shallow endgame tier and a node
//! one ply from the horizon try their squares in.

use crate::board::movegen::adjacent;
use crate::board::{quadrant_parities, CORNERS, C_SQUARES, X_SQUARES};

/// Union of the quadrants (a1-d4, e1-h4, a5-d8, e5-h8) holding an odd number of empties.
#[inline(always)]
pub fn odd_quadrants(empties: u64) -> u64 {
    // Each parity bit, times the pattern of a quadrant at a1, spreads over its own quadrant
    // (the four products do not overlap, so their sum is their union).
    quadrant_parities(empties).wrapping_mul(0x0F0F_0F0F)
}

/// The empties with no empty neighbour (holes of one square): whoever plays there takes the
/// region's last move.
#[inline(always)]
pub fn lone_empties(empties: u64) -> u64 {
    empties & !adjacent(empties)
}

/// At most eight squares in the order to try them, a byte each from the lowest: one register,
/// which the last empties' solvers pass on without going through memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareOrder(u64);

impl SquareOrder {
    /// The `i`-th square.
    #[inline(always)]
    pub fn get(self, i: usize) -> usize {
        ((self.0 >> (8 * i)) & 63) as usize
    }

    /// The order without its `i`-th square (`i` < 8; those after it move up one place).
    #[inline(always)]
    pub fn without(self, i: usize) -> SquareOrder {
        let below = (1u64 << (8 * i)) - 1;
        SquareOrder((self.0 & below) | ((self.0 >> 8) & !below))
    }

    /// The first `n` squares.
    #[cfg(test)]
    pub fn to_vec(self, n: usize) -> Vec<usize> {
        (0..n).map(|i| self.get(i)).collect()
    }
}

/// The empties in the last empties' order, the first eight of them: lone empties first, then
/// those of odd quadrants, then the others, each group in square order.
#[inline(always)]
pub fn parity_order(empties: u64) -> SquareOrder {
    let lone = lone_empties(empties);
    let odd = odd_quadrants(empties) & !lone;
    let mut out = 0u64;
    let mut shift = 0;
    for group in [lone, empties & odd, empties & !(odd | lone)] {
        let mut m = group;
        while m != 0 && shift < 64 {
            out |= u64::from(m.trailing_zeros()) << shift;
            m &= m - 1;
            shift += 8;
        }
    }
    SquareOrder(out)
}

/// The empties of the shallow endgame tier in the groups it tries them: lone empties first,
/// then those of odd quadrants (corners first), then the others; each group in square order.
#[inline(always)]
pub fn parity_groups(empties: u64) -> [u64; 4] {
    let lone = lone_empties(empties);
    let odd = odd_quadrants(empties) & !lone;
    [
        lone,
        empties & odd & CORNERS,
        empties & odd & !CORNERS,
        empties & !(odd | lone),
    ]
}

/// The last two empties, in square order (parity cannot tell them apart: both are in odd
/// quadrants or both in one even quadrant).
#[inline(always)]
pub fn last_two(empties: u64) -> [usize; 2] {
    let first = empties.trailing_zeros() as usize;
    let second = (empties & (empties - 1)).trailing_zeros() as usize;
    [first, second]
}

/// The moves `moves` of a node one ply from the horizon in the groups it tries them: corners
/// first and the squares next to a corner last (C before X), each group in square order.
#[inline(always)]
pub fn square_class_groups(moves: u64) -> [u64; 4] {
    [
        moves & CORNERS,
        moves & !(CORNERS | C_SQUARES | X_SQUARES),
        moves & C_SQUARES,
        moves & X_SQUARES,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::NEIGHBOURS;
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

    /// Whether the empty `sq` of `e` has no empty neighbour, by the table of each square's
    /// neighbours (built by walking them).
    fn walked_lone(e: u64, sq: usize) -> bool {
        NEIGHBOURS[sq] & e == 0
    }

    /// The empties of `e`: lone ones first, then those of odd quadrants, then the others, each
    /// group ascending.
    fn sorted_by_parity(e: u64) -> Vec<usize> {
        let odd = odd_quadrants(e);
        let mut squares: Vec<usize> = (0..64).filter(|&s| e & (1 << s) != 0).collect();
        squares.sort_by_key(|&s| match walked_lone(e, s) {
            true => 0,
            false if odd & (1 << s) != 0 => 1,
            false => 2,
        });
        squares
    }

    /// The shallow tier's groups split the empties: lone ones, then odd quadrants' corners,
    /// then their other squares, then the rest.
    #[test]
    fn parity_groups_put_lone_empties_then_odd_corners_then_odd_quadrants_first() {
        let mut rng = Rng::new(12);
        for _ in 0..10_000 {
            let (mut e, want) = (0u64, 5 + rng.below(8) as u32);
            while e.count_ones() < want {
                e |= 1 << rng.below(64);
            }
            let odd = odd_quadrants(e);
            let mut expected = [0u64; 4];
            for s in (0..64).filter(|&s| e & (1 << s) != 0) {
                let group = match walked_lone(e, s) {
                    true => 0,
                    false if odd & (1 << s) != 0 && CORNERS & (1 << s) != 0 => 1,
                    false if odd & (1 << s) != 0 => 2,
                    false => 3,
                };
                expected[group] |= 1 << s;
            }
            assert_eq!(parity_groups(e), expected, "{e:#x}");
        }
    }

    /// Lone empties against a walk over each empty's neighbours, on sparse and dense sets.
    #[test]
    fn lone_empties_match_a_walk() {
        let mut rng = Rng::new(6);
        for k in 0..20_000 {
            let e = match k % 3 {
                0 => rng.next_u64(),
                1 => rng.next_u64() & rng.next_u64() & rng.next_u64(),
                _ => rng.next_u64() & rng.next_u64() & rng.next_u64() & rng.next_u64(),
            };
            let walked = (0..64)
                .filter(|&s| e & (1 << s) != 0 && walked_lone(e, s))
                .fold(0u64, |m, s| m | 1 << s);
            assert_eq!(lone_empties(e), walked, "{e:#x}");
        }
    }

    /// The last empties' order holds the empties once each: lone ones first, then those of
    /// odd quadrants, each group ascending; without one of them, the others in that order.
    #[test]
    fn parity_order_puts_lone_empties_then_odd_quadrants_first() {
        let mut rng = Rng::new(9);
        for _ in 0..10_000 {
            let mut e = 0u64;
            while e.count_ones() < 4 {
                e |= 1 << rng.below(64);
            }
            let order = parity_order(e);
            let sorted = sorted_by_parity(e);
            assert_eq!(order.to_vec(4), sorted, "{e:#x}");
            for i in 0..4 {
                let mut rest = sorted.clone();
                rest.remove(i);
                assert_eq!(order.without(i).to_vec(3), rest, "{e:#x} without {i}");
            }
            let three = e & (e - 1);
            assert_eq!(
                parity_order(three).to_vec(3),
                sorted_by_parity(three),
                "{three:#x}"
            );
        }
    }
}
