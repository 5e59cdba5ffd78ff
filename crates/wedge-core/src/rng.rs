//! A small deterministic pseudo-random generator (SplitMix64) for tests, benchmarks and tools
//! that must repeat exactly from a seed.

#[derive(Clone, Debug)]
pub struct Rng(u64);

/// A seed for choices that should differ from one run to the next (the book's random moves):
/// the clock, the process id and a per-process counter, mixed.
pub fn fresh_seed() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let count = CALLS.fetch_add(1, Ordering::Relaxed);
    crate::board::mix64(nanos ^ (std::process::id() as u64).rotate_left(40) ^ count.rotate_left(20))
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        crate::board::mix64(self.0)
    }

    /// Uniform in `0..n` (n > 0), by multiply-shift.
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// A uniformly chosen legal move of `board`: a square, a pass when the side to move must
    /// pass, or `None` when the game is over. For random games in tests and tools.
    pub fn random_move(&mut self, board: &crate::board::Board) -> Option<crate::board::Move> {
        use crate::board::{Move, Square};
        let moves = board.legal_moves();
        if moves != 0 {
            Some(Move::Play(Square::from_index(
                self.pick_bit(moves).trailing_zeros(),
            )))
        } else if board.pass().legal_moves() != 0 {
            Some(Move::Pass)
        } else {
            None
        }
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
