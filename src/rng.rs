//! A small deterministic pseudo-random generator (SplitMix64) for tests, benchmarks and tools
//! that must repeat exactly from a seed.

#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        crate::board::hash::mix64(self.0)
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
