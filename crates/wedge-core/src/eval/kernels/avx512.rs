//! AVX-512 (F + BW) kernels: sixteen lanes a vector for the sum (hardware gathers of 32 bits
//! at each entry, the entry's 16 bits kept by a multiply-add), thirty-two for the update.

use super::window::{Lanes, Window, LANES_USED, WINDOW};
use crate::eval::patterns::INDEX_LANES;
use std::arch::x86_64::{
    __m256i, __m512i, __mmask16, _mm256_loadu_si256, _mm512_add_epi16, _mm512_add_epi32,
    _mm512_and_si512, _mm512_cvtepu16_epi32, _mm512_loadu_si512, _mm512_madd_epi16,
    _mm512_mask_i32gather_epi32, _mm512_reduce_add_epi32, _mm512_set1_epi32, _mm512_setzero_si512,
    _mm512_storeu_si512, _mm512_sub_epi16,
};

const _: () = assert!(INDEX_LANES == 64 && LANES_USED > 48 && LANES_USED <= 64);

/// See [`super::pattern_sum`].
#[inline(always)]
pub fn pattern_sum(window: &Window, offsets: &[u32; INDEX_LANES], indices: &Lanes) -> i32 {
    // SAFETY: this module is compiled only when the build enables AVX-512 F and BW (cfg in
    // `super`), so every intrinsic exists on the target CPU. The loads read 16 lanes at
    // `16 * k` for k < 4 from arrays of 64. Each gathered lane reads 4 bytes at entry `p` of
    // `window`, with `p = (offset + index) & (WINDOW - 1) < WINDOW`: entries `p` and
    // `p + 1 <= WINDOW`, inside the `WINDOW + 1` entries of `window`; the lanes past the
    // instances are masked off and read nothing.
    unsafe {
        let mask = _mm512_set1_epi32((WINDOW - 1) as i32);
        // Multiplied and added pairwise with a gathered 32-bit lane (its entry in the low 16
        // bits), `1, 0` keeps the entry, sign-extended.
        let low = _mm512_set1_epi32(1);
        let base = window.as_ptr() as *const i32;
        let mut acc = _mm512_setzero_si512();
        for k in 0..INDEX_LANES / 16 {
            let idx = _mm512_cvtepu16_epi32(_mm256_loadu_si256(
                indices.as_ptr().add(16 * k) as *const __m256i
            ));
            let off = _mm512_loadu_si512(offsets.as_ptr().add(16 * k) as *const __m512i);
            let at = _mm512_and_si512(_mm512_add_epi32(idx, off), mask);
            let used = LANES_USED.saturating_sub(16 * k).min(16);
            let lanes = ((1u32 << used) - 1) as __mmask16;
            let got = _mm512_mask_i32gather_epi32::<2>(_mm512_setzero_si512(), lanes, at, base);
            acc = _mm512_add_epi32(acc, _mm512_madd_epi16(got, low));
        }
        _mm512_reduce_add_epi32(acc)
    }
}

/// See [`super::played`].
#[inline(always)]
pub fn played(
    rows: &[Lanes; 64],
    stm: &Lanes,
    opp: &Lanes,
    sq: usize,
    flips: u64,
) -> (Lanes, Lanes) {
    let mut next = ([0u16; INDEX_LANES], [0u16; INDEX_LANES]);
    // SAFETY: this module is compiled only when the build enables AVX-512 F and BW (cfg in
    // `super`), so every intrinsic exists on the target CPU. Every load and store covers 32
    // lanes at `32 * h` for h < 2 of an array of 64 lanes (a row of `rows`, indexed by a
    // square below 64, `stm`, `opp` or the arrays of `next`).
    unsafe {
        let load =
            |a: &Lanes, h: usize| _mm512_loadu_si512(a.as_ptr().add(32 * h) as *const __m512i);
        let mut flipped = [_mm512_setzero_si512(); 2];
        let mut f = flips;
        while f != 0 {
            let row = &rows[f.trailing_zeros() as usize];
            f &= f - 1;
            for (h, s) in flipped.iter_mut().enumerate() {
                *s = _mm512_add_epi16(*s, load(row, h));
            }
        }
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
