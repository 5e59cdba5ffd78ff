//! What the vector flip kernels share: the eight rays from each square, four to a
//! vector-aligned row, the vectors a move starts from, the flips along the rays towards higher
//! squares, and the lanes' union at the end.

use std::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi64,
    _mm256_extracti128_si256, _mm256_load_si256, _mm256_set1_epi64x, _mm256_setzero_si256,
    _mm256_sub_epi64, _mm_cvtsi128_si64, _mm_extract_epi64, _mm_or_si128,
};

/// Four values, aligned for a 256-bit vector load.
#[repr(C, align(32))]
struct Lanes([u64; 4]);

/// Per square: the rays towards higher squares (east, north-west, north, north-east in index
/// steps +1, +7, +8, +9), the square itself excluded.
static RAYS_UP: [Lanes; 64] = build_rays([(1, 0), (-1, 1), (0, 1), (1, 1)]);
/// Per square: the rays towards lower squares (steps -1, -7, -8, -9).
static RAYS_DOWN: [Lanes; 64] = build_rays([(-1, 0), (1, -1), (0, -1), (-1, -1)]);

const fn build_rays(dirs: [(i32, i32); 4]) -> [Lanes; 64] {
    let mut t = [const { Lanes([0; 4]) }; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut k = 0;
        while k < 4 {
            let (dc, dr) = dirs[k];
            let (mut c, mut r) = ((sq % 8) as i32 + dc, (sq / 8) as i32 + dr);
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                t[sq].0[k] |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            k += 1;
        }
        sq += 1;
    }
    t
}

/// A move's vectors: its rays towards higher and lower squares, and the player's and the
/// opponent's discs in every lane.
pub(super) struct MoveVectors {
    pub up: __m256i,
    pub down: __m256i,
    pub player: __m256i,
    pub opponent: __m256i,
}

/// The vectors of a move on `sq` (below 64).
#[inline(always)]
pub(super) fn move_vectors(sq: usize, player: u64, opponent: u64) -> MoveVectors {
    // SAFETY: this module is compiled only when the build enables AVX2, so every intrinsic
    // exists on the target CPU; the loads read 32-byte aligned `Lanes` of static tables
    // indexed by `sq` (bounds-checked).
    unsafe {
        MoveVectors {
            up: _mm256_load_si256(RAYS_UP[sq].0.as_ptr() as *const __m256i),
            down: _mm256_load_si256(RAYS_DOWN[sq].0.as_ptr() as *const __m256i),
            player: _mm256_set1_epi64x(player as i64),
            opponent: _mm256_set1_epi64x(opponent as i64),
        }
    }
}

/// The flips of a move along its rays towards higher squares: on each, the first square that
/// is not the opponent's is the lowest set bit of `!opponent & ray`; when it holds a player
/// disc, the ray's squares below it are flipped.
#[inline(always)]
pub(super) fn flips_towards_higher(v: &MoveVectors) -> __m256i {
    // SAFETY: this module is compiled only when the build enables AVX2, so every intrinsic
    // exists on the target CPU; they are pure register operations.
    unsafe {
        let zero = _mm256_setzero_si256();
        let free = _mm256_andnot_si256(v.opponent, v.up);
        let first = _mm256_and_si256(free, _mm256_sub_epi64(zero, free));
        let outflank = _mm256_and_si256(first, v.player);
        let none = _mm256_cmpeq_epi64(outflank, zero);
        let below = _mm256_sub_epi64(outflank, _mm256_set1_epi64x(1));
        _mm256_and_si256(_mm256_andnot_si256(none, below), v.up)
    }
}

/// The union of the four lanes of `f`.
#[inline(always)]
pub(super) fn lanes_union(f: __m256i) -> u64 {
    // SAFETY: this module is compiled only when the build enables AVX2, so every intrinsic
    // exists on the target CPU; they are pure register operations.
    unsafe {
        let f = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256(f, 1));
        (_mm_cvtsi128_si64(f) | _mm_extract_epi64(f, 1)) as u64
    }
}
