//! A 64-bit hash of a board, for transposition tables and book slots.

/// The SplitMix64 finaliser: a bijective mix with good avalanche.
#[inline(always)]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Hash of the (player, opponent) pair; distinct for swapped colours.
#[inline(always)]
pub const fn hash(player: u64, opponent: u64) -> u64 {
    mix64(player ^ mix64(opponent ^ 0x2545_F491_4F6C_DD1D))
}
