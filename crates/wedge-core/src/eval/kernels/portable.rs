//! The portable kernels: plain loops over the lanes.

use super::window::{Lanes, Window, LANES_USED, WINDOW};
use crate::eval::patterns::INDEX_LANES;

/// See [`super::pattern_sum`].
#[inline]
pub fn pattern_sum(window: &Window, offsets: &[u32; INDEX_LANES], indices: &Lanes) -> i32 {
    offsets[..LANES_USED]
        .iter()
        .zip(&indices[..LANES_USED])
        .map(|(&o, &i)| i32::from(window[(o as usize + i as usize) & (WINDOW - 1)]))
        .sum()
}

/// See [`super::played`].
#[inline]
pub fn played(
    rows: &[Lanes; 64],
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
