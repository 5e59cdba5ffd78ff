//! The pattern sum read through general registers: the index lanes moved four at a time into
//! a general register, each entry read at its instance's constant offset folded into the
//! load's address. Left to itself the compiler moved each lane out of the vector registers
//! that hold a freshly updated state and each entry back into one (`docs/tuning.md`,
//! "Session 74").

use super::window::{Lanes, Window, LANES_USED};
use crate::eval::patterns::{INDEX_LANES, INSTANCE_OFFSETS};

const _: () = assert!(INDEX_LANES == 64);

/// See [`super::pattern_sum`].
#[inline(always)]
pub fn pattern_sum<T: Copy + Into<i32>>(entries: &Window<T>, indices: &Lanes) -> i32 {
    macro_rules! words {
        ($($j:literal)*) => { 0 $(+ word::<T, $j>(entries, indices))* };
    }
    words!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)
}

/// The entries of lanes `4 * J .. 4 * J + 4` (those below [`LANES_USED`]).
#[inline(always)]
fn word<T: Copy + Into<i32>, const J: usize>(entries: &Window<T>, indices: &Lanes) -> i32 {
    let mut w = (0..4).fold(0u64, |w, k| w | u64::from(indices[4 * J + k]) << (16 * k));
    // SAFETY: an empty instruction that only passes a general register through unchanged
    // (no memory, stack or flags touched): it keeps the four lanes in that register.
    unsafe {
        std::arch::asm!("/* {0} */", inout(reg) w, options(pure, nomem, nostack, preserves_flags));
    }
    let mut sum = 0;
    for k in 0..4 {
        let i = 4 * J + k;
        if i < LANES_USED {
            // In bounds whatever the lane holds (`window`'s assertion); the offset is a
            // constant, so the compiler drops the check.
            sum +=
                entries[INSTANCE_OFFSETS[i] as usize + usize::from((w >> (16 * k)) as u16)].into();
        }
    }
    sum
}
