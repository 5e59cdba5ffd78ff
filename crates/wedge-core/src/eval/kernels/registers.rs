//! The pattern sum read through general registers: each index lane loaded from memory into a
//! general register and each entry read at its instance's constant offset folded into the
//! load's address. Left to itself the compiler moved each lane out of the vector registers
//! that hold a freshly updated state and each entry back into one (`docs/tuning.md`,
//! "Session 74").

use super::window::{Lanes, Window, LANES_USED};
use crate::eval::patterns::{INDEX_LANES, INSTANCE_OFFSETS};

const _: () = assert!(INDEX_LANES == 64);

/// See [`super::pattern_sum`].
#[inline(always)]
pub fn pattern_sum<T: Copy + Into<i32>>(entries: &Window<T>, indices: &Lanes) -> i32 {
    // A copy the optimiser must assume changed (`black_box`), so that the sum loads each lane
    // from memory instead of moving it out of a vector register.
    let mut lanes = *indices;
    std::hint::black_box(&mut lanes);
    macro_rules! octets {
        ($($g:literal)*) => { 0 $(+ octet::<T, $g>(entries, &lanes))* };
    }
    octets!(0 1 2 3 4 5 6 7)
}

/// The entries of lanes `8 * G .. 8 * G + 8` (those below [`LANES_USED`]): a loop short enough
/// for the compiler to unroll, so that each offset is a constant.
#[inline(always)]
fn octet<T: Copy + Into<i32>, const G: usize>(entries: &Window<T>, lanes: &Lanes) -> i32 {
    let mut sum = 0;
    for k in 0..8 {
        let i = 8 * G + k;
        if i < LANES_USED {
            // In bounds whatever the lane holds (`window`'s assertion); the offset is a
            // constant, so the compiler drops the check.
            sum += entries[INSTANCE_OFFSETS[i] as usize + usize::from(lanes[i])].into();
        }
    }
    sum
}
