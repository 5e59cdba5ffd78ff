//! Legal-move generation by directional shift fills: a portable kernel that is always compiled,
//! and an AVX2 kernel (four directions per register) selected at compile time; both sides'
//! moves at once (for the evaluation's mobility) by an AVX-512 kernel (both sides' four
//! directions in one register) where the build enables it, else by two calls.

/// Opponent discs that may be jumped over in a direction with a horizontal component
/// (columns b-g: a run can never wrap from column h to column a).
const INNER_COLS: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// Squares from which `player` can play against `opponent` (both disjoint), portable kernel.
#[inline]
pub fn legal_moves_portable(player: u64, opponent: u64) -> u64 {
    let empty = !(player | opponent);
    let inner = opponent & INNER_COLS;
    let mut moves = fill_pair(player, inner, 1);
    moves |= fill_pair(player, opponent, 8);
    moves |= fill_pair(player, inner, 7);
    moves |= fill_pair(player, inner, 9);
    moves & empty
}

/// Both directions of one line orientation: runs of `jump` discs starting next to `player`,
/// shifted once more onto the square beyond them.
#[inline(always)]
fn fill_pair(player: u64, jump: u64, shift: u32) -> u64 {
    // Two single steps, then doubling steps over a pre-shifted mask (runs are at most 6 long).
    let mut up = jump & (player << shift);
    let mut down = jump & (player >> shift);
    up |= jump & (up << shift);
    down |= jump & (down >> shift);
    let jump_up = jump & (jump << shift);
    let jump_down = jump & (jump >> shift);
    up |= jump_up & (up << (2 * shift));
    down |= jump_down & (down >> (2 * shift));
    up |= jump_up & (up << (2 * shift));
    down |= jump_down & (down >> (2 * shift));
    (up << shift) | (down >> shift)
}

/// Empty squares next to at least one opponent disc ("potential mobility"), portable.
#[inline]
pub(crate) fn potential_moves(player: u64, opponent: u64) -> u64 {
    adjacent(opponent) & !(player | opponent)
}

/// Squares adjacent to each square.
pub static NEIGHBOURS: [u64; 64] = build_neighbours();

const fn build_neighbours() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nc, nr) = (c + dc, r + dr);
                if (dc != 0 || dr != 0) && nc >= 0 && nc < 8 && nr >= 0 && nr < 8 {
                    t[sq] |= 1u64 << (nr * 8 + nc);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    t
}

/// The squares next to at least one square of `set` in any of the eight directions: the
/// horizontal neighbours, then the rows above and below of the set with them.
#[inline(always)]
pub(crate) fn adjacent(set: u64) -> u64 {
    const NOT_COL_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const NOT_COL_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
    let beside = ((set << 1) & NOT_COL_A) | ((set >> 1) & NOT_COL_H);
    let row = set | beside;
    beside | row << 8 | row >> 8
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod avx2 {
    use crate::board::movegen::INNER_COLS;
    use std::arch::x86_64::*;

    /// AVX2 kernel: lanes hold the shifts 1, 8, 9 and 7; both directions of each run in parallel.
    #[inline]
    pub fn legal_moves(player: u64, opponent: u64) -> u64 {
        // SAFETY: this module is compiled only when the build enables AVX2 (cfg above), so every
        // intrinsic below is available on the CPU the binary is built for; no memory is touched.
        unsafe {
            let p = _mm256_set1_epi64x(player as i64);
            let masks =
                _mm256_set_epi64x(INNER_COLS as i64, INNER_COLS as i64, -1, INNER_COLS as i64);
            let o = _mm256_and_si256(_mm256_set1_epi64x(opponent as i64), masks);
            let s1 = _mm256_set_epi64x(7, 9, 8, 1);
            let s2 = _mm256_add_epi64(s1, s1);

            let mut up = _mm256_and_si256(o, _mm256_sllv_epi64(p, s1));
            let mut down = _mm256_and_si256(o, _mm256_srlv_epi64(p, s1));
            up = _mm256_or_si256(up, _mm256_and_si256(o, _mm256_sllv_epi64(up, s1)));
            down = _mm256_or_si256(down, _mm256_and_si256(o, _mm256_srlv_epi64(down, s1)));
            let o_up = _mm256_and_si256(o, _mm256_sllv_epi64(o, s1));
            let o_down = _mm256_and_si256(o, _mm256_srlv_epi64(o, s1));
            up = _mm256_or_si256(up, _mm256_and_si256(o_up, _mm256_sllv_epi64(up, s2)));
            down = _mm256_or_si256(down, _mm256_and_si256(o_down, _mm256_srlv_epi64(down, s2)));
            up = _mm256_or_si256(up, _mm256_and_si256(o_up, _mm256_sllv_epi64(up, s2)));
            down = _mm256_or_si256(down, _mm256_and_si256(o_down, _mm256_srlv_epi64(down, s2)));
            let all = _mm256_or_si256(_mm256_sllv_epi64(up, s1), _mm256_srlv_epi64(down, s1));

            let half = _mm_or_si128(
                _mm256_castsi256_si128(all),
                _mm256_extracti128_si256(all, 1),
            );
            let both = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
            (_mm_cvtsi128_si64(both) as u64) & !(player | opponent)
        }
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
mod avx512 {
    use crate::board::movegen::INNER_COLS;
    use std::arch::x86_64::*;

    /// AVX-512 kernel: lanes 0-3 hold the player's shifts 1, 8, 9 and 7, lanes 4-7 the
    /// opponent's; both directions of each run in parallel. (The player's moves, the
    /// opponent's.)
    #[inline]
    pub fn legal_moves_both(player: u64, opponent: u64) -> (u64, u64) {
        // SAFETY: this module is compiled only when the build enables AVX-512 F (cfg above),
        // so every intrinsic below is available on the CPU the binary is built for; no memory
        // is touched.
        unsafe {
            let (p, o) = (player as i64, opponent as i64);
            let inner = INNER_COLS as i64;
            let movers = _mm512_set_epi64(o, o, o, o, p, p, p, p);
            let masks = _mm512_set_epi64(inner, inner, -1, inner, inner, inner, -1, inner);
            let jump = _mm512_and_si512(_mm512_set_epi64(p, p, p, p, o, o, o, o), masks);
            let s1 = _mm512_set_epi64(7, 9, 8, 1, 7, 9, 8, 1);
            let s2 = _mm512_add_epi64(s1, s1);

            let mut up = _mm512_and_si512(jump, _mm512_sllv_epi64(movers, s1));
            let mut down = _mm512_and_si512(jump, _mm512_srlv_epi64(movers, s1));
            up = _mm512_or_si512(up, _mm512_and_si512(jump, _mm512_sllv_epi64(up, s1)));
            down = _mm512_or_si512(down, _mm512_and_si512(jump, _mm512_srlv_epi64(down, s1)));
            let j_up = _mm512_and_si512(jump, _mm512_sllv_epi64(jump, s1));
            let j_down = _mm512_and_si512(jump, _mm512_srlv_epi64(jump, s1));
            up = _mm512_or_si512(up, _mm512_and_si512(j_up, _mm512_sllv_epi64(up, s2)));
            down = _mm512_or_si512(down, _mm512_and_si512(j_down, _mm512_srlv_epi64(down, s2)));
            up = _mm512_or_si512(up, _mm512_and_si512(j_up, _mm512_sllv_epi64(up, s2)));
            down = _mm512_or_si512(down, _mm512_and_si512(j_down, _mm512_srlv_epi64(down, s2)));
            let all = _mm512_or_si512(_mm512_sllv_epi64(up, s1), _mm512_srlv_epi64(down, s1));

            // Each side's four lanes ORed: 256 bits of each side's two pairs, then the pairs.
            let side = _mm512_castsi512_si256(all);
            let other = _mm512_extracti64x4_epi64::<1>(all);
            let pairs = _mm256_or_si256(
                _mm256_unpacklo_epi64(side, other),
                _mm256_unpackhi_epi64(side, other),
            );
            let both = _mm_or_si128(
                _mm256_castsi256_si128(pairs),
                _mm256_extracti128_si256::<1>(pairs),
            );
            let empty = !(player | opponent);
            let mine = _mm_cvtsi128_si64(both) as u64;
            let theirs = _mm_extract_epi64::<1>(both) as u64;
            (mine & empty, theirs & empty)
        }
    }
}

/// The legal moves of both sides: `player`'s against `opponent`, then `opponent`'s against
/// `player` (for the evaluation's mobility terms), using the fastest kernel built.
#[inline(always)]
pub(crate) fn legal_moves_both(player: u64, opponent: u64) -> (u64, u64) {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
    {
        avx512::legal_moves_both(player, opponent)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx512f")))]
    {
        (legal_moves(player, opponent), legal_moves(opponent, player))
    }
}

/// Squares from which `player` can play against `opponent`, using the fastest kernel built.
#[inline(always)]
pub fn legal_moves(player: u64, opponent: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        avx2::legal_moves(player, opponent)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        legal_moves_portable(player, opponent)
    }
}

/// Name of the move-generation kernel selected at compile time.
pub const KERNEL: &str = if cfg!(all(target_arch = "x86_64", target_feature = "avx2")) {
    "avx2"
} else {
    "portable"
};
