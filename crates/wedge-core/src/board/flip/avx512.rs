//! AVX-512 (VL + CD) flip kernel: the eight rays from the move square are handled four at a
//! time in two 256-bit vectors. On a ray leaving towards higher squares the first square that is
//! not the opponent's is the lowest set bit of `!opponent & ray`; on a ray towards lower squares
//! it is the highest, found with the vector leading-zero count. When that square holds a
//! player disc, the ray's squares between it and the move are flipped.

use std::arch::x86_64::{
    _mm256_and_si256, _mm256_andnot_si256, _mm256_lzcnt_epi64, _mm256_or_si256, _mm256_set1_epi64x,
    _mm256_setzero_si256, _mm256_slli_epi64, _mm256_srlv_epi64, _mm256_sub_epi64,
};

use super::rays::{flips_towards_higher, lanes_union, move_vectors};

/// Discs flipped when `player` plays on the empty square `sq`.
#[inline]
pub fn flips(sq: usize, player: u64, opponent: u64) -> u64 {
    let v = move_vectors(sq, player, opponent);
    let flipped_up = flips_towards_higher(&v);
    // SAFETY: this module is compiled only when the build enables AVX-512 F, VL and CD (and
    // AVX2), so every intrinsic exists on the target CPU; they are pure register operations.
    unsafe {
        let (p, o, down) = (v.player, v.opponent, v.down);
        // Downwards: the highest non-opponent square; flips are the ray above it. A ray with
        // none has 64 leading zeros, and a variable shift by 64 gives 0.
        let free = _mm256_andnot_si256(o, down);
        let first = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(free));
        let outflank = _mm256_and_si256(first, p);
        let above = _mm256_slli_epi64(_mm256_sub_epi64(_mm256_setzero_si256(), outflank), 1);
        let flipped_down = _mm256_and_si256(above, down);

        lanes_union(_mm256_or_si256(flipped_up, flipped_down))
    }
}
