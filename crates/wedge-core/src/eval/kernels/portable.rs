//! The portable kernels: plain loops over the lanes.

use super::window::{Lanes, Window, LANES_USED};
use crate::eval::patterns::{INDEX_LANES, INSTANCE_OFFSETS};

/// See [`super::pattern_sum`].
#[inline]
pub fn pattern_sum<T: Copy + Into<i32>>(entries: &Window<T>, indices: &Lanes) -> i32 {
    INSTANCE_OFFSETS[..LANES_USED]
        .iter()
        .zip(&indices[..LANES_USED])
        .map(|(&o, &i)| entries[o as usize + usize::from(i)].into())
        .sum()
}

/// See [`super::played`].
#[inline]
pub fn played(
    rows: &[Lanes; 65],
    stm: &Lanes,
    opp: &Lanes,
    sq: usize,
    flips: u64,
) -> (Lanes, Lanes) {
    let mut flipped = [0u16; INDEX_LANES];
    let mut f = flips;
    while f != 0 {
        let row = &rows[f.trailing_zeros() as usize];
        f &= f - 1;
        for (s, &p) in flipped.iter_mut().zip(row) {
            *s = s.wrapping_add(p);
        }
    }
    let placed = &rows[sq & 63];
    let (mut next_stm, mut next_opp) = (*opp, *stm);
    for (((x, y), &p), &s) in next_stm
        .iter_mut()
        .zip(next_opp.iter_mut())
        .zip(placed)
        .zip(&flipped)
    {
        *x = x.wrapping_add(p.wrapping_mul(2)).wrapping_add(s);
        *y = y.wrapping_add(p).wrapping_sub(s);
    }
    (next_stm, next_opp)
}
