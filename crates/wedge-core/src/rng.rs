//! A small deterministic pseudo-random generator (SplitMix64) for tests, benchmarks and tools
//! that must repeat exactly from a seed, and its finaliser [`mix64`] (the board's hashes mix
//! with it). It stands on nothing else in the crate.

#[derive(Clone, Debug)]
pub struct Rng(u64);

/// The SplitMix64 finaliser: a bijective mix with good avalanche.
#[inline(always)]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A seed for choices that should differ from one run to the next (the book's random moves):
/// the clock, the process id and a per-process counter, mixed.
pub fn fresh_seed() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let count = CALLS.fetch_add(1, Ordering::Relaxed);
    mix64(nanos ^ (std::process::id() as u64).rotate_left(40) ^ count.rotate_left(20))
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix64(self.0)
    }

    /// Uniform in `0..n` (n > 0), by multiply-shift.
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// A uniformly chosen set bit of a non-zero bitboard.
    pub fn pick_bit(&mut self, bits: u64) -> u64 {
        let mut k = self.below(bits.count_ones() as u64);
        let mut b = bits;
        while k > 0 {
            b &= b - 1;
            k -= 1;
        }
        b & b.wrapping_neg()
    }
}
