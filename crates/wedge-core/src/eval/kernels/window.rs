//! The tables' window and the index lanes the kernels share: [`Window`] (one phase's tables
//! as the kernels read them, masked by [`WINDOW`]) and [`Lanes`] (one value per instance).

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
