//! 64-bit hashes of a board: a well-mixed one (every output bit depends on every input bit,
//! so low bits and remainders are usable too), and a cheaper one whose high bits index the
//! search's tables.

/// The SplitMix64 finaliser: a bijective mix with good avalanche.
#[inline(always)]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Hash of the (player, opponent) pair; distinct for swapped colours.
#[inline(always)]
pub(crate) const fn hash(player: u64, opponent: u64) -> u64 {
    mix64(player ^ mix64(opponent ^ 0x2545_F491_4F6C_DD1D))
}

/// A cheap hash for table indices: one multiplication per side, in parallel. Only its high
/// bits are well mixed (each depends on every bit of both sides), so tables index by those.
/// The search's table and endgame cache use it because the index is on the path to every
/// probe: [`hash`]'s four chained multiplications cost more there than the rare extra
/// collision. Measured, one thread, alternating on one core: the endgame cache alone, FFO
/// #40-#49 567.5 M -> 567.6 M nodes, three rounds min 17.65 -> 17.35 s, median 17.69 ->
/// 17.38 s; then the shared table too, #50-#52 two rounds min 34.30 -> 33.73 s, median
/// 34.35 -> 33.95 s.
#[inline(always)]
pub(crate) const fn table_hash(player: u64, opponent: u64) -> u64 {
    player.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ opponent.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
}
