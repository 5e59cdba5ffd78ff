//! Orders of squares that need no move list: quadrant parity (the last empties' order and a
//! term of fastest-first), the groups the shallow endgame tier and a node one ply from the
//! horizon try their squares in.

use crate::board::{quadrant_parities, CORNERS, C_SQUARES, X_SQUARES};

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

/// The empties of the shallow endgame tier in the groups it tries them: odd quadrants first,
/// corners first within each parity, each group in square order.
#[inline(always)]
pub fn parity_groups(empties: u64) -> [u64; 4] {
    let odd = odd_quadrants(empties);
    [
        empties & odd & CORNERS,
        empties & odd & !CORNERS,
        empties & !odd & CORNERS,
        empties & !odd & !CORNERS,
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
