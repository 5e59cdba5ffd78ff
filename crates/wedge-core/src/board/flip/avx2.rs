//! AVX2 flip kernel: the eight rays from the move square, four at a time in two 256-bit
//! vectors, as the AVX-512 kernel handles them but without a vector leading-zero count. On a
//! ray towards higher squares the first square that is not the opponent's is the lowest set
//! bit of `!opponent & ray`; towards lower squares the opponent's run from the move is grown
//! by doubling shifts along the ray (at most six squares). When the square after the run holds
//! a player disc, the run is flipped.

use std::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_cmpeq_epi64, _mm256_load_si256,
    _mm256_or_si256, _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_srlv_epi64, _mm256_sub_epi64,
};

use super::rays::{lanes_union, move_vectors, Lanes, MoveVectors};

/// The index steps of the rays towards lower squares, lane by lane.
static STEPS_DOWN: Lanes = Lanes([1, 7, 8, 9]);
/// Twice those steps.
static DOUBLE_STEPS_DOWN: Lanes = Lanes([2, 14, 16, 18]);

/// Discs flipped when `player` plays on the empty square `sq`.
#[inline]
pub fn flips(sq: usize, player: u64, opponent: u64) -> u64 {
    let MoveVectors {
        up,
        down,
        player: p,
        opponent: o,
    } = move_vectors(sq, player, opponent);
    // SAFETY: this module is compiled only when the build enables AVX2, so every intrinsic
    // exists on the target CPU; the loads read 32-byte aligned `Lanes` of static tables.
    unsafe {
        let zero = _mm256_setzero_si256();

        // Upwards: the lowest non-opponent square of each ray; flips are the ray below it.
        let free = _mm256_andnot_si256(o, up);
        let first = _mm256_and_si256(free, _mm256_sub_epi64(zero, free));
        let outflank = _mm256_and_si256(first, p);
        let none = _mm256_cmpeq_epi64(outflank, zero);
        let below = _mm256_sub_epi64(outflank, _mm256_set1_epi64x(1));
        let flipped_up = _mm256_and_si256(_mm256_andnot_si256(none, below), up);

        // Downwards: the opponent's run from the move along each ray, grown one square, one
        // more, then twice by two (the run is at most six squares); kept when the next square
        // along the ray is a player disc. The ray mask keeps the shifts from wrapping.
        let step = _mm256_load_si256(STEPS_DOWN.0.as_ptr() as *const __m256i);
        let step2 = _mm256_load_si256(DOUBLE_STEPS_DOWN.0.as_ptr() as *const __m256i);
        let od = _mm256_and_si256(o, down);
        let at = _mm256_set1_epi64x(1i64 << sq);
        let mut run = _mm256_and_si256(od, _mm256_srlv_epi64(at, step));
        run = _mm256_or_si256(run, _mm256_and_si256(od, _mm256_srlv_epi64(run, step)));
        let pairs = _mm256_and_si256(od, _mm256_srlv_epi64(od, step));
        run = _mm256_or_si256(run, _mm256_and_si256(pairs, _mm256_srlv_epi64(run, step2)));
        run = _mm256_or_si256(run, _mm256_and_si256(pairs, _mm256_srlv_epi64(run, step2)));
        let outflank = _mm256_and_si256(_mm256_and_si256(p, down), _mm256_srlv_epi64(run, step));
        let none = _mm256_cmpeq_epi64(outflank, zero);
        let flipped_down = _mm256_andnot_si256(none, run);

        lanes_union(_mm256_or_si256(flipped_up, flipped_down))
    }
}
