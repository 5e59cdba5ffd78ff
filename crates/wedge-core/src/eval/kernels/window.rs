//! The tables' window and the index lanes the kernels share: [`Window`] (one phase's tables
//! as the kernels read them), [`Lanes`] (one value per instance) and the SIMD updates' loop
//! over the flipped squares ([`for_each_flipped_row`]).

use crate::eval::patterns::{INDEX_LANES, INSTANCE_OFFSETS, N_INSTANCES, PATTERN_BLOCK_ENTRIES};

/// The entries a [`Window`] holds: one phase's block and more than every instance's offset
/// plus the largest index a lane holds, so that no read of the pattern sum leaves a window
/// whatever the indices hold (an index past its table reads a wrong entry, never outside the
/// window).
pub const WINDOW_ENTRIES: usize = 1 << 19;
const _: () = {
    assert!(PATTERN_BLOCK_ENTRIES <= WINDOW_ENTRIES);
    let mut i = 0;
    while i < INDEX_LANES {
        assert!((INSTANCE_OFFSETS[i] as usize) + (u16::MAX as usize) < WINDOW_ENTRIES);
        i += 1;
    }
};

/// One phase's pattern tables seen from its block's start, as the kernels read them: entries
/// of the evaluation (`i16`) or of the endgame ordering's compact copy (`i8`).
pub type Window<T = i16> = [T; WINDOW_ENTRIES];

/// One value per pattern instance (then zeros up to [`INDEX_LANES`]).
pub(crate) type Lanes = [u16; INDEX_LANES];

/// The lanes the kernels read: the instances; the lanes after them are ignored.
pub(super) const LANES_USED: usize = N_INSTANCES;

/// The flipped squares the SIMD updates add without a branch: a move with fewer adds the zero
/// row 64 of the rows for the rest (the lowest square of no square is 64), so that the loop
/// after them runs only for the moves that flip more, and its exit is rarely mispredicted
/// (`docs/tuning.md`, "Session 74").
const FIRST_FLIPS: usize = 4;

/// Calls `add_row(square)` for each square of `flips`, lowest first, and with the zero row's
/// index 64 for the first [`FIRST_FLIPS`] when fewer are flipped: the SIMD updates' loop.
#[cfg_attr(
    not(all(target_arch = "x86_64", target_feature = "avx2")),
    allow(dead_code)
)]
#[inline(always)]
pub(super) fn for_each_flipped_row(flips: u64, mut add_row: impl FnMut(usize)) {
    let mut f = flips;
    for _ in 0..FIRST_FLIPS {
        add_row(f.trailing_zeros() as usize);
        f &= f.wrapping_sub(1);
    }
    while f != 0 {
        add_row(f.trailing_zeros() as usize);
        f &= f - 1;
    }
}
