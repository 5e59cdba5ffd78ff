//! The pattern evaluation's two inner loops, each with a portable kernel that is always
//! compiled and AVX2 and AVX-512 kernels where the build enables them, the fastest selected at
//! compile time (as the board's kernels are); every kernel built is tested against the
//! portable one:
//!
//! - [`pattern_sum`]: the sum of one table entry per pattern instance (62 reads);
//! - [`played`]: a move's update of the incremental pattern indices, both views at once.

mod portable;
pub use portable::{pattern_sum as pattern_sum_portable, played as played_portable};

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod avx2;
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
pub use avx2::{pattern_sum as pattern_sum_avx2, played as played_avx2};

#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx512bw"
))]
mod avx512;
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx512bw"
))]
pub use avx512::{pattern_sum as pattern_sum_avx512, played as played_avx512};

use super::patterns::{INDEX_LANES, N_INSTANCES, PATTERN_BLOCK_ENTRIES};

/// A power of two at least one phase block's entries: each read is masked into a window of
/// this many entries, so no read leaves the tables whatever the indices hold (an index past
/// its table would read a wrong entry, never outside the tables).
pub(crate) const WINDOW: usize = 1 << 19;
const _: () = assert!(PATTERN_BLOCK_ENTRIES <= WINDOW);

/// The entries a [`Window`] holds: one more than the masked reads reach, for the vector
/// kernels' 32-bit reads of the last entry.
pub const WINDOW_ENTRIES: usize = WINDOW + 1;

/// One phase's pattern tables seen from its block's start, as the kernels read them.
pub type Window = [i16; WINDOW_ENTRIES];

/// One value per pattern instance (then zeros up to [`INDEX_LANES`]).
pub(crate) type Lanes = [u16; INDEX_LANES];

/// The lanes the kernels read: the instances; the lanes after them are ignored.
const LANES_USED: usize = N_INSTANCES;

/// The sum over the instances `i` of `window[(offsets[i] + indices[i]) & (WINDOW - 1)]`: the
/// pattern part of an evaluation (each instance's table offset plus its index).
#[inline(always)]
pub fn pattern_sum(window: &Window, offsets: &[u32; INDEX_LANES], indices: &Lanes) -> i32 {
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx512f",
        target_feature = "avx512bw"
    ))]
    {
        avx512::pattern_sum(window, offsets, indices)
    }
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx2",
        not(all(target_feature = "avx512f", target_feature = "avx512bw"))
    ))]
    {
        avx2::pattern_sum(window, offsets, indices)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        portable::pattern_sum(window, offsets, indices)
    }
}

/// The two views of the pattern indices after the side to move plays `sq` flipping `flips`,
/// from the views before (`stm`: side to move = digit 1, `opp`: opponent = digit 1) and the
/// per-square digit weights `rows`: the new `stm` is the old `opp` plus twice the placed
/// square's weights plus the flipped squares' (2 -> 1 for the new mover), the new `opp` the
/// old `stm` plus the placed square's weights less the flipped squares'. Wrapping arithmetic.
#[inline(always)]
pub fn played(
    rows: &[Lanes; 64],
    stm: &Lanes,
    opp: &Lanes,
    sq: usize,
    flips: u64,
) -> (Lanes, Lanes) {
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx512f",
        target_feature = "avx512bw"
    ))]
    {
        avx512::played(rows, stm, opp, sq, flips)
    }
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx2",
        not(all(target_feature = "avx512f", target_feature = "avx512bw"))
    ))]
    {
        avx2::played(rows, stm, opp, sq, flips)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        portable::played(rows, stm, opp, sq, flips)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::tests::random_positions;
    use crate::board::Squares;
    use crate::eval::patterns::{RAW_INSTANCE_OFFSETS, SQUARE_POWERS};
    use crate::eval::Features;
    use crate::rng::Rng;

    /// Every kernel this build compiles gives the portable kernels' results: the updates for
    /// every legal move of the positions of random games, and the sums of their indices over
    /// random tables (extreme entries included) at the real instance offsets and at random
    /// ones, whatever the unused lanes hold.
    #[test]
    fn kernels_match_portable_on_random_games() {
        let mut rng = Rng::new(67);
        let mut window: Box<Window> = vec![0i16; WINDOW_ENTRIES]
            .into_boxed_slice()
            .try_into()
            .expect("a window's entries");
        for (k, w) in window.iter_mut().enumerate() {
            *w = match k % 97 {
                0 => i16::MIN,
                1 => i16::MAX,
                _ => rng.next_u64() as i16,
            };
        }
        let (mut positions, mut moves) = (0, 0);
        random_positions(67, 400, |b| {
            positions += 1;
            let f = Features::new(b);
            let mut offsets = RAW_INSTANCE_OFFSETS;
            if positions % 2 == 0 {
                offsets.iter_mut().for_each(|o| *o = rng.next_u64() as u32);
            }
            let mut indices = f.stm;
            indices[LANES_USED..].fill(rng.next_u64() as u16);
            let sum = pattern_sum_portable(&window, &offsets, &indices);
            assert_eq!(pattern_sum(&window, &offsets, &indices), sum);
            each_compiled_sum(&window, &offsets, &indices, sum);
            for sq in Squares(b.legal_moves()) {
                moves += 1;
                let (i, flips) = (sq.index(), b.flips(sq));
                let expected = played_portable(&SQUARE_POWERS, &f.stm, &f.opp, i, flips);
                assert_eq!(played(&SQUARE_POWERS, &f.stm, &f.opp, i, flips), expected);
                each_compiled_update(&f, i, flips, expected);
            }
        });
        assert!(moves > 100_000, "{positions} positions, {moves} moves");
    }

    /// Every SIMD sum kernel this build compiles (not only the selected one) gives `expected`.
    fn each_compiled_sum(w: &Window, offsets: &[u32; INDEX_LANES], idx: &Lanes, expected: i32) {
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        assert_eq!(pattern_sum_avx2(w, offsets, idx), expected, "avx2");
        #[cfg(all(
            target_arch = "x86_64",
            target_feature = "avx512f",
            target_feature = "avx512bw"
        ))]
        assert_eq!(pattern_sum_avx512(w, offsets, idx), expected, "avx512");
        let _ = (w, offsets, idx, expected);
    }

    /// Every SIMD update kernel this build compiles gives `expected`.
    fn each_compiled_update(f: &Features, sq: usize, flips: u64, expected: (Lanes, Lanes)) {
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        assert_eq!(
            played_avx2(&SQUARE_POWERS, &f.stm, &f.opp, sq, flips),
            expected,
            "avx2"
        );
        #[cfg(all(
            target_arch = "x86_64",
            target_feature = "avx512f",
            target_feature = "avx512bw"
        ))]
        assert_eq!(
            played_avx512(&SQUARE_POWERS, &f.stm, &f.opp, sq, flips),
            expected,
            "avx512"
        );
        let _ = (f, sq, flips, expected);
    }
}
