//! The tables' window and the index lanes the kernels share: [`Window`] (one phase's tables
//! as the kernels read them, masked by [`WINDOW`]), [`Lanes`] (one value per instance) and
//! the SIMD kernels' reads of a window's entries ([`sum_at`]).

use crate::eval::patterns::{INDEX_LANES, N_INSTANCES, PATTERN_BLOCK_ENTRIES};

/// A power of two at least one phase block's entries: each read is masked into a window of
/// this many entries, so no read leaves the tables whatever the indices hold (an index past
/// its table would read a wrong entry, never outside the tables).
pub(crate) const WINDOW: usize = 1 << 19;
const _: () = assert!(PATTERN_BLOCK_ENTRIES <= WINDOW);

/// The entries a [`Window`] holds: as many as the masked reads reach.
pub const WINDOW_ENTRIES: usize = WINDOW;

/// One phase's pattern tables seen from its block's start, as the kernels read them.
pub type Window = [i16; WINDOW_ENTRIES];

/// One value per pattern instance (then zeros up to [`INDEX_LANES`]).
pub(crate) type Lanes = [u16; INDEX_LANES];

/// The lanes the kernels read: the instances; the lanes after them are ignored.
pub(super) const LANES_USED: usize = N_INSTANCES;

/// The sum of the window's entries at the instances' positions `at` (masked into [`WINDOW`]),
/// read one by one: the SIMD kernels compute the positions and leave the reads to scalar
/// loads, which beat the hardware gathers (`docs/tuning.md`, "Session 69").
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
pub(super) fn sum_at(entries: &Window, at: &[u32; INDEX_LANES]) -> i32 {
    at[..LANES_USED]
        .iter()
        .map(|&p| i32::from(entries[p as usize & (WINDOW - 1)]))
        .sum()
}
