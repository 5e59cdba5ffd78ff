//! The pattern evaluation's two inner loops, each with a portable kernel that is always
//! compiled and faster kernels where the build enables them, the fastest selected at compile
//! time (as the board's kernels are); every kernel built is tested against the portable one:
//!
//! - [`pattern_sum`]: the sum of one table entry per pattern instance (62 reads), through
//!   general registers on x86-64;
//! - [`played`]: a move's update of the incremental pattern indices, both views at once, with
//!   AVX2 or AVX-512.

mod portable;
#[cfg(target_arch = "x86_64")]
mod registers;
#[cfg(test)]
mod tests;
mod window;

pub use portable::{pattern_sum as pattern_sum_portable, played as played_portable};
#[cfg(target_arch = "x86_64")]
pub use registers::pattern_sum as pattern_sum_registers;
pub(crate) use window::Lanes;
pub use window::{Window, WINDOW_ENTRIES};

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod avx2;
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
pub use avx2::played as played_avx2;

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
pub use avx512::played as played_avx512;

/// The sum over the instances `i` of `entries[INSTANCE_OFFSETS[i] + indices[i]]`: the
/// pattern part of an evaluation (each instance's table offset in its phase's block plus its
/// index), from the evaluation's tables (`i16`) or the endgame ordering's (`i8`).
#[inline(always)]
pub fn pattern_sum<T: Copy + Into<i32>>(entries: &Window<T>, indices: &Lanes) -> i32 {
    #[cfg(target_arch = "x86_64")]
    {
        registers::pattern_sum(entries, indices)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        portable::pattern_sum(entries, indices)
    }
}

/// The two views of the pattern indices after the side to move plays `sq` flipping `flips`,
/// from the views before (`stm`: side to move = digit 1, `opp`: opponent = digit 1) and the
/// per-square digit weights `rows` (row 64 zeros): the new `stm` is the old `opp` plus twice
/// the placed square's weights plus the flipped squares' (2 -> 1 for the new mover), the new
/// `opp` the old `stm` plus the placed square's weights less the flipped squares'. Wrapping
/// arithmetic.
#[inline(always)]
pub fn played(
    rows: &[Lanes; 65],
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
