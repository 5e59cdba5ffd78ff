//! The AVX-512 (F + BW) update kernel: thirty-two lanes a vector.

use super::window::{for_each_flipped_row, Lanes};
use crate::eval::patterns::INDEX_LANES;
use std::arch::x86_64::{
    __m512i, _mm512_add_epi16, _mm512_loadu_si512, _mm512_setzero_si512, _mm512_storeu_si512,
    _mm512_sub_epi16,
};

const _: () = assert!(INDEX_LANES == 64);

/// See [`super::played`].
#[inline(always)]
pub fn played(
    rows: &[Lanes; 65],
    stm: &Lanes,
    opp: &Lanes,
    sq: usize,
    flips: u64,
) -> (Lanes, Lanes) {
    let mut next = ([0u16; INDEX_LANES], [0u16; INDEX_LANES]);
    // SAFETY: this module is compiled only when the build enables AVX-512 F and BW (cfg in
    // `super`), so every intrinsic exists on the target CPU. Every load and store covers 32
    // lanes at `32 * h` for h < 2 of an array of 64 lanes (a row of `rows`, indexed by a
    // square up to 64, `stm`, `opp` or the arrays of `next`).
    unsafe {
        let load =
            |a: &Lanes, h: usize| _mm512_loadu_si512(a.as_ptr().add(32 * h) as *const __m512i);
        let mut flipped = [_mm512_setzero_si512(); 2];
        for_each_flipped_row(flips, |square| {
            let row = &rows[square];
            for (h, s) in flipped.iter_mut().enumerate() {
                *s = _mm512_add_epi16(*s, load(row, h));
            }
        });
        let placed = &rows[sq & 63];
        for (h, &s) in flipped.iter().enumerate() {
            let p = load(placed, h);
            let to_stm =
                _mm512_add_epi16(_mm512_add_epi16(load(opp, h), p), _mm512_add_epi16(p, s));
            let to_opp = _mm512_sub_epi16(_mm512_add_epi16(load(stm, h), p), s);
            _mm512_storeu_si512(next.0.as_mut_ptr().add(32 * h) as *mut __m512i, to_stm);
            _mm512_storeu_si512(next.1.as_mut_ptr().add(32 * h) as *mut __m512i, to_opp);
        }
    }
    next
}
