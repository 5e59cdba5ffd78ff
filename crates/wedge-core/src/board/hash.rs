//! 64-bit hashes of a board: a well-mixed one (every output bit depends on every input bit,
//! so low bits and remainders are usable too), and a cheaper one whose high bits index the
//! search's tables.

use crate::rng::mix64;

/// Hash of the (player, opponent) pair; distinct for swapped colours.
#[inline(always)]
pub(crate) const fn hash(player: u64, opponent: u64) -> u64 {
    mix64(player ^ mix64(opponent ^ 0x2545_F491_4F6C_DD1D))
}

/// A cheap hash for table indices: one multiplication per side, in parallel. Only its high
/// bits are well mixed (each depends on every bit of both sides), so tables index by those.
/// The search's table and endgame cache use it because the index is on the path to every
/// probe: [`hash`]'s four chained multiplications cost more there than the rare extra
/// collision.
#[inline(always)]
pub(crate) const fn table_hash(player: u64, opponent: u64) -> u64 {
    player.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ opponent.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
}
