//! AVX2 kernels: eight lanes a vector for the sum (hardware gathers of 32 bits at each
//! entry, the entry's 16 bits kept by a multiply-add), sixteen for the update.

use super::window::{Lanes, Window, LANES_USED, WINDOW};
use crate::eval::patterns::INDEX_LANES;
use std::arch::x86_64::{
    __m128i, __m256i, _mm256_add_epi16, _mm256_add_epi32, _mm256_and_si256, _mm256_castsi256_si128,
    _mm256_cvtepu16_epi32, _mm256_extracti128_si256, _mm256_i32gather_epi32, _mm256_loadu_si256,
    _mm256_madd_epi16, _mm256_mask_i32gather_epi32, _mm256_set1_epi32, _mm256_set_epi32,
    _mm256_setzero_si256, _mm256_storeu_si256, _mm256_sub_epi16, _mm_add_epi32, _mm_cvtsi128_si32,
    _mm_loadu_si128, _mm_shuffle_epi32,
};

const _: () = assert!(INDEX_LANES == 64 && LANES_USED > 56 && LANES_USED <= 64);

/// See [`super::pattern_sum`].
#[inline(always)]
pub fn pattern_sum(window: &Window, offsets: &[u32; INDEX_LANES], indices: &Lanes) -> i32 {
    // SAFETY: this module is compiled only when the build enables AVX2 (cfg in `super`), so
    // every intrinsic exists on the target CPU. The loads read 8 lanes at `8 * k` for k < 8
    // from arrays of 64. Each gathered lane reads 4 bytes at entry `p` of `window`, with
    // `p = (offset + index) & (WINDOW - 1) < WINDOW`: entries `p` and `p + 1 <= WINDOW`, inside
    // the `WINDOW + 1` entries of `window`; the last vector's lanes past the instances are
    // masked off and read nothing.
    unsafe {
        let mask = _mm256_set1_epi32((WINDOW - 1) as i32);
        // Multiplied and added pairwise with a gathered 32-bit lane (its entry in the low 16
        // bits), `1, 0` keeps the entry, sign-extended.
        let low = _mm256_set1_epi32(1);
        let base = window.as_ptr() as *const i32;
        let mut acc = _mm256_setzero_si256();
        for k in 0..INDEX_LANES / 8 {
            let idx = _mm256_cvtepu16_epi32(_mm_loadu_si128(
                indices.as_ptr().add(8 * k) as *const __m128i
            ));
            let off = _mm256_loadu_si256(offsets.as_ptr().add(8 * k) as *const __m256i);
            let at = _mm256_and_si256(_mm256_add_epi32(idx, off), mask);
            let got = if 8 * k + 8 <= LANES_USED {
                _mm256_i32gather_epi32::<2>(base, at)
            } else {
                let used = |lane: usize| -i32::from(8 * k + lane < LANES_USED);
                let lanes = _mm256_set_epi32(
                    used(7),
                    used(6),
                    used(5),
                    used(4),
                    used(3),
                    used(2),
                    used(1),
                    used(0),
                );
                _mm256_mask_i32gather_epi32::<2>(_mm256_setzero_si256(), base, at, lanes)
            };
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(got, low));
        }
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(acc),
            _mm256_extracti128_si256::<1>(acc),
        );
        let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
        let one = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter));
        _mm_cvtsi128_si32(one)
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
    // SAFETY: this module is compiled only when the build enables AVX2 (cfg in `super`), so
    // every intrinsic exists on the target CPU. Every load and store covers 16 lanes at
    // `16 * h` for h < 4 of an array of 64 lanes (a row of `rows`, indexed by a square below
    // 64, `stm`, `opp` or the arrays of `next`).
    unsafe {
        let load =
            |a: &Lanes, h: usize| _mm256_loadu_si256(a.as_ptr().add(16 * h) as *const __m256i);
        let mut flipped = [_mm256_setzero_si256(); 4];
        let mut f = flips;
        while f != 0 {
            let row = &rows[f.trailing_zeros() as usize];
            f &= f - 1;
            for (h, s) in flipped.iter_mut().enumerate() {
                *s = _mm256_add_epi16(*s, load(row, h));
            }
        }
        let placed = &rows[sq & 63];
        for (h, &s) in flipped.iter().enumerate() {
            let p = load(placed, h);
            let to_stm =
                _mm256_add_epi16(_mm256_add_epi16(load(opp, h), p), _mm256_add_epi16(p, s));
            let to_opp = _mm256_sub_epi16(_mm256_add_epi16(load(stm, h), p), s);
            _mm256_storeu_si256(next.0.as_mut_ptr().add(16 * h) as *mut __m256i, to_stm);
            _mm256_storeu_si256(next.1.as_mut_ptr().add(16 * h) as *mut __m256i, to_opp);
        }
    }
    next
}
