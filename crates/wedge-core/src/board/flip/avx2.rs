//! AVX2 flip kernel: the eight rays from the move square, four at a time in two 256-bit
//! vectors, as the AVX-512 kernel handles them but without a vector leading-zero count. On a
//! ray towards higher squares the first square that is not the opponent's is the lowest set
//! bit of `!opponent & ray`; towards lower squares the opponent's run from the move is grown
//! by doubling shifts along the ray (at most six squares). When the square after the run holds
//! a player disc, the run is flipped.

use std::arch::x86_64::{
    _mm256_and_si256, _mm256_andnot_si256, _mm256_cmpeq_epi64, _mm256_or_si256, _mm256_set1_epi64x,
    _mm256_set_epi64x, _mm256_setzero_si256, _mm256_srlv_epi64,
};

use super::rays::{flips_towards_higher, lanes_union, move_vectors};

/// Discs flipped when `player` plays on the empty square `sq`.
#[inline]
pub fn flips(sq: usize, player: u64, opponent: u64) -> u64 {
    let v = move_vectors(sq, player, opponent);
    let flipped_up = flips_towards_higher(&v);
    // SAFETY: this module is compiled only when the build enables AVX2, so every intrinsic
    // exists on the target CPU; they are pure register operations.
    unsafe {
        // Downwards: the opponent's run from the move along each ray, grown one square, one
        // more, then twice by two (the run is at most six squares); kept when the next square
        // along the ray is a player disc. The ray mask keeps the shifts from wrapping. The
        // rays' index steps lane by lane (1, 7, 8, 9, as the rays), and twice them:
        let step = _mm256_set_epi64x(9, 8, 7, 1);
        let step2 = _mm256_set_epi64x(18, 16, 14, 2);
        let (p, o, down) = (v.player, v.opponent, v.down);
        let od = _mm256_and_si256(o, down);
        let at = _mm256_set1_epi64x(1i64 << sq);
        let mut run = _mm256_and_si256(od, _mm256_srlv_epi64(at, step));
        run = _mm256_or_si256(run, _mm256_and_si256(od, _mm256_srlv_epi64(run, step)));
        let pairs = _mm256_and_si256(od, _mm256_srlv_epi64(od, step));
        run = _mm256_or_si256(run, _mm256_and_si256(pairs, _mm256_srlv_epi64(run, step2)));
        run = _mm256_or_si256(run, _mm256_and_si256(pairs, _mm256_srlv_epi64(run, step2)));
        let outflank = _mm256_and_si256(_mm256_and_si256(p, down), _mm256_srlv_epi64(run, step));
        let none = _mm256_cmpeq_epi64(outflank, _mm256_setzero_si256());
        let flipped_down = _mm256_andnot_si256(none, run);

        lanes_union(_mm256_or_si256(flipped_up, flipped_down))
    }
}
