//! The transposition table: shared by all search threads, lock-free (each entry is three atomic
//! words whose board words are XOR-ed with the data word, so a torn write never verifies), full
//! board verification (no false hits), 5-entry buckets in two adjacent cache lines,
//! replacement that keeps the costliest searches (then the deepest) of the current generation.
//! A search that failed low keeps the entry's move; its own highest move is kept only where the
//! entry has none, marked as a guess that lines show and the move ordering ignores.

use super::tt_memory::{TableMemory, ZeroedAtomics};
use crate::board::Board;
use crate::eval::MAX_EIGHTHS;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::Relaxed};

/// The best move known for a position: a square, or none. One byte (64 for none), so that
/// table entries and move lists stay compact.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveHint(u8);

impl Default for MoveHint {
    fn default() -> MoveHint {
        MoveHint::NONE
    }
}

impl MoveHint {
    pub const NONE: MoveHint = MoveHint(64);

    /// The square of index `sq` (below 64).
    #[inline(always)]
    pub const fn square(sq: u8) -> MoveHint {
        debug_assert!(sq < 64);
        MoveHint(sq)
    }

    #[inline(always)]
    pub fn is_some(self) -> bool {
        self.0 < 64
    }

    /// True when the hint is the square of index `sq`.
    #[inline(always)]
    pub fn is(self, sq: u8) -> bool {
        self.0 == sq
    }

    /// True when the hint is a square of `moves` (a bitboard).
    #[inline(always)]
    pub fn is_in(self, moves: u64) -> bool {
        self.0 < 64 && moves & (1u64 << self.0) != 0
    }

    /// The square's index; meaningful only for a square.
    #[inline(always)]
    pub fn index(self) -> u8 {
        self.0
    }

    /// This hint, or `other` when there is none.
    #[inline(always)]
    pub fn or(self, other: MoveHint) -> MoveHint {
        if self.is_some() {
            self
        } else {
            other
        }
    }

    pub fn to_square(self) -> Option<crate::board::Square> {
        crate::board::Square::new(self.0)
    }
}

/// A search result to store: `score` from a search of `depth` plies at `selectivity` in the
/// window (`alpha`, `beta`) that found `best` and visited `nodes` nodes. Scores and windows
/// in eighths of a disc.
#[derive(Clone, Copy, Debug)]
pub struct Stored {
    pub depth: u8,
    pub selectivity: u8,
    pub window: (i32, i32),
    pub score: i32,
    pub best: MoveHint,
    pub nodes: u64,
}

/// Selectivity level of a search without forward pruning.
pub const NO_SELECTIVITY: u8 = 0;

/// What a search stored for a position: the score lies in `lower..=upper` (eighths of a disc,
/// side to move; the endgame stores whole discs times 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtData {
    pub lower: i16,
    pub upper: i16,
    /// The move of the search that stored the entry: its best, or with [`TtData::guess`] the
    /// move whose value was highest in a search that failed low (a poor guess at the best).
    pub best: MoveHint,
    /// `best` came from a search that failed low.
    pub guess: bool,
    /// Remaining depth searched; at least the number of empties means solved to the end.
    pub depth: u8,
    /// Multi-ProbCut level (0 = none, higher = more pruning; see `search::probcut`).
    pub selectivity: u8,
    /// Search generation that wrote it (its low [`AGE_BITS`] bits).
    pub age: u8,
    /// What the search cost: bits in its node count (0 for none), the replacement's measure.
    pub cost: u8,
}

/// Bits of the search generation kept in an entry (enough to tell the current one from the
/// last few).
pub const AGE_BITS: u32 = 5;

impl TtData {
    /// The entry's 64-bit word, low bits first: lower and upper bound (16 bits each), best
    /// move (7: squares and none), depth (7), selectivity (3), age (5), a non-zero marker (an
    /// all-zero word is an empty slot), cost (7) and the guess flag (1).
    fn pack(self) -> u64 {
        debug_assert!(self.best.0 <= 64 && self.depth < 128 && self.selectivity < 8);
        debug_assert!(self.age < 1 << AGE_BITS && self.cost < 128);
        (self.lower as u16 as u64)
            | (self.upper as u16 as u64) << 16
            | (self.best.0 as u64) << 32
            | (self.depth as u64) << 39
            | (self.selectivity as u64) << 46
            | (self.age as u64) << 49
            | 1 << 54
            | (self.cost as u64) << 55
            | (self.guess as u64) << 62
    }

    fn unpack(w: u64) -> TtData {
        TtData {
            lower: w as u16 as i16,
            upper: (w >> 16) as u16 as i16,
            best: MoveHint((w >> 32) as u8 & 0x7F),
            depth: (w >> 39) as u8 & 0x7F,
            selectivity: (w >> 46) as u8 & 0x7,
            age: (w >> 49) as u8 & ((1 << AGE_BITS) - 1),
            cost: (w >> 55) as u8 & 0x7F,
            guess: (w >> 62) & 1 != 0,
        }
    }

    /// The move to search first: the best move, not a fail-low's guess (`docs/tuning.md`,
    /// "Session 92").
    #[inline(always)]
    pub fn first_move(&self) -> MoveHint {
        if self.guess {
            MoveHint::NONE
        } else {
            self.best
        }
    }

    /// True when this entry was searched at least as deep and as precisely as asked.
    #[inline]
    pub fn is_usable(&self, depth: u8, selectivity: u8) -> bool {
        self.depth >= depth && self.selectivity <= selectivity
    }
}

#[derive(Default)]
#[repr(C)]
struct Slot {
    player: AtomicU64,
    opponent: AtomicU64,
    data: AtomicU64,
}

/// Five slots of 24 bytes in 128 (two adjacent cache lines, fetched together).
#[repr(C, align(128))]
#[derive(Default)]
struct Bucket([Slot; 5]);

// SAFETY: a bucket is 15 AtomicU64 in C layout followed by 8 bytes of alignment padding (128
// bytes, aligned to 128, far below a page); all-zero bytes are an empty bucket.
unsafe impl ZeroedAtomics for Bucket {}

/// The system refused the memory of a table of `megabytes` MB.
#[derive(Debug, thiserror::Error)]
#[error("cannot get {megabytes} MB for the transposition table: {source}")]
pub struct TableError {
    pub megabytes: usize,
    pub source: std::io::Error,
}

impl TableError {
    /// This error of a size a user gave with `option` (`--hash`), which the message names.
    pub fn of_option(self, option: &'static str) -> TableSizeError {
        TableSizeError {
            option,
            source: self,
        }
    }
}

/// A table size a user gave with `option` that the system refuses: the option, the size, why,
/// and what to do.
#[derive(Debug, thiserror::Error)]
#[error("{option} {megabytes}: {source}; try a smaller {option}", megabytes = source.megabytes)]
pub struct TableSizeError {
    pub option: &'static str,
    pub source: TableError,
}

/// The shared table. Sized in MB at creation; `clear` empties it, `new_search` ages it.
pub struct TranspositionTable {
    buckets: TableMemory<Bucket>,
    /// A bucket's index is the top bits of a [`Board::table_hash`]: the hash shifted right by
    /// this much.
    shift: u32,
    age: AtomicU8,
    /// Set by `clear` (and at creation), reset when a search starts on the table: clearing a
    /// table that no search has used since is skipped (a new game's 256 MB of writes).
    clean: AtomicBool,
}

impl TranspositionTable {
    /// A table of at most `megabytes` MB (rounded down to a power of two buckets, at least
    /// 1024). For sizes fixed in the code; a size a user chose goes through
    /// [`TranspositionTable::try_new`].
    pub fn new(megabytes: usize) -> TranspositionTable {
        TranspositionTable::try_new(megabytes).unwrap_or_else(|e| panic!("{e}"))
    }

    /// As [`TranspositionTable::new`], failing when the system refuses the memory.
    pub fn try_new(megabytes: usize) -> Result<TranspositionTable, TableError> {
        let n = Self::buckets_for(megabytes);
        let buckets = TableMemory::new(n).map_err(|source| TableError { megabytes, source })?;
        Ok(TranspositionTable {
            buckets,
            shift: 64 - n.trailing_zeros(),
            age: AtomicU8::new(0),
            clean: AtomicBool::new(true),
        })
    }

    /// Checks at once, without keeping it, that a table of `megabytes` MB could be made (a
    /// table made later on another thread would fail only then).
    pub fn check_size(megabytes: usize) -> Result<(), TableError> {
        TableMemory::<Bucket>::check(Self::buckets_for(megabytes))
            .map_err(|source| TableError { megabytes, source })
    }

    /// Buckets in a table of at most `megabytes` MB: a power of two, at least 1024. Any size
    /// is answered without overflow (the bytes saturate; the system then refuses them).
    fn buckets_for(megabytes: usize) -> usize {
        let bytes = megabytes.max(1).saturating_mul(1024 * 1024);
        let fit = bytes / std::mem::size_of::<Bucket>();
        1 << fit.max(1024).ilog2()
    }

    /// Faults the table's memory in, until done or `stop` (see [`TableMemory::fault_in`]);
    /// true once it is all resident. Until then a page is faulted in by its first store.
    pub fn fault_in(&self, stop: &AtomicBool) -> bool {
        self.buckets.fault_in(stop)
    }

    /// Size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Starts a new search generation: older entries become the first to be replaced.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Relaxed);
        self.mark_used();
    }

    /// Records that the table may hold entries (every store, and every search's start).
    #[inline(always)]
    fn mark_used(&self) {
        if self.clean.load(Relaxed) {
            self.clean.store(false, Relaxed);
        }
    }

    /// The current generation as entries keep it (its low [`AGE_BITS`] bits).
    pub fn age(&self) -> u8 {
        self.age.load(Relaxed) & ((1 << AGE_BITS) - 1)
    }

    /// Empties the table.
    pub fn clear(&self) {
        if self.clean.load(Relaxed) {
            return;
        }
        for b in self.buckets.iter() {
            for s in &b.0 {
                s.data.store(0, Relaxed);
                s.player.store(0, Relaxed);
                s.opponent.store(0, Relaxed);
            }
        }
        self.clean.store(true, Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, hash: u64) -> &Bucket {
        &self.buckets[(hash >> self.shift) as usize]
    }

    /// Starts loading the bucket of `hash`, a board's [`Board::table_hash`] (a hint for a
    /// probe soon after; no other effect).
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        super::tt_memory::prefetch(self.bucket(hash));
    }

    /// The stored data for `board`, if any. `hash` is the board's [`Board::table_hash`] (as
    /// for [`TranspositionTable::store`] and [`TranspositionTable::prefetch`]), computed once
    /// by the caller for all three.
    #[inline]
    pub fn probe(&self, board: &Board, hash: u64) -> Option<TtData> {
        for s in &self.bucket(hash).0 {
            let d = s.data.load(Relaxed);
            if d != 0
                && s.player.load(Relaxed) ^ d == board.player
                && s.opponent.load(Relaxed) ^ d == board.opponent
            {
                return Some(TtData::unpack(d));
            }
        }
        None
    }

    /// Stores `result` for `board`; `hash` is the board's [`Board::table_hash`]. Merges with
    /// an entry of the same board, depth and selectivity, replaces otherwise.
    #[inline]
    pub fn store(&self, board: &Board, hash: u64, result: Stored) {
        let Stored {
            depth,
            selectivity,
            window: (alpha, beta),
            score,
            best,
            nodes,
        } = result;
        self.mark_used();
        let failed_low = score <= alpha;
        let fresh_bounds = if failed_low {
            (-MAX_EIGHTHS, score)
        } else if score >= beta {
            (score, MAX_EIGHTHS)
        } else {
            (score, score)
        };
        let (mut lower, mut upper) = fresh_bounds;
        let (mut best, mut guess) = (best, failed_low);
        let age = self.age();
        let bucket = self.bucket(hash);
        // The slot to write: this position's own slot if present, else the least valuable one:
        // empty first, then stale generations, then the cheapest search to redo (bits of its
        // node count), the shallowest among equals.
        let mut victim = 0;
        let mut victim_rank = u32::MAX;
        for (i, s) in bucket.0.iter().enumerate() {
            let d = s.data.load(Relaxed);
            if d != 0
                && s.player.load(Relaxed) ^ d == board.player
                && s.opponent.load(Relaxed) ^ d == board.opponent
            {
                let old = TtData::unpack(d);
                if old.depth == depth && old.selectivity == selectivity {
                    // An equivalent search: tighten the bounds, unless they contradict (selective
                    // searches can disagree), in which case the new result wins.
                    lower = lower.max(old.lower as i32);
                    upper = upper.min(old.upper as i32);
                    if lower > upper {
                        (lower, upper) = fresh_bounds;
                    }
                } else if old.depth > depth || (old.depth == depth && old.selectivity < selectivity)
                {
                    // The old entry is more valuable; refresh its age only.
                    if old.age != age {
                        write(s, board, TtData { age, ..old }.pack());
                    }
                    return;
                }
                // The old move stays where the new one is none or a guess and it is not.
                if !best.is_some() || (guess && old.first_move().is_some()) {
                    (best, guess) = (old.best, old.guess);
                }
                victim = i;
                victim_rank = 0;
                break;
            }
            let rank = if d == 0 {
                0
            } else {
                let old = TtData::unpack(d);
                rank(old.age == age, old.cost, old.depth)
            };
            if rank < victim_rank {
                victim_rank = rank;
                victim = i;
            }
        }
        // A fresh entry of another position whose search cost more stays; this result goes.
        let cost = cost_of(nodes);
        if victim_rank >= rank(true, cost + 1, 0) {
            return;
        }
        let data = TtData {
            lower: lower as i16,
            upper: upper as i16,
            best,
            guess,
            depth,
            selectivity,
            age,
            cost,
        };
        write(&bucket.0[victim], board, data.pack());
    }
}

/// Replacement value of a stored entry (above 0, the value of an empty slot): the current
/// generation above older ones, then the search's cost, then its depth.
#[inline(always)]
fn rank(fresh: bool, cost: u8, depth: u8) -> u32 {
    1 + ((fresh as u32) << 14) + ((cost as u32) << 7) + depth as u32
}

/// Bits in a node count: 0 for none, at most 64.
#[inline(always)]
fn cost_of(nodes: u64) -> u8 {
    (u64::BITS - nodes.leading_zeros()) as u8
}

#[inline(always)]
fn write(s: &Slot, board: &Board, data: u64) {
    s.player.store(board.player ^ data, Relaxed);
    s.opponent.store(board.opponent ^ data, Relaxed);
    s.data.store(data, Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(depth: u8, sel: u8, window: (i32, i32), score: i32, best: u8, nodes: u64) -> Stored {
        let best = if best < 64 {
            MoveHint::square(best)
        } else {
            MoveHint::NONE
        };
        Stored {
            depth,
            selectivity: sel,
            window,
            score,
            best,
            nodes,
        }
    }

    #[test]
    fn store_probe_and_merge() {
        let tt = TranspositionTable::new(1);
        let b = Board::START;
        let h = b.table_hash();
        assert!(tt.probe(&b, h).is_none());
        tt.store(&b, h, stored(5, 0, (-10, 10), 3, 19, 100));
        let d = tt.probe(&b, h).unwrap();
        assert_eq!(
            (d.lower, d.upper, d.best, d.depth),
            (3, 3, MoveHint::square(19), 5)
        );
        // A fail-high at the same depth tightens the lower bound only where consistent.
        tt.store(&b, h, stored(6, 0, (0, 1), 4, 64, 100));
        let d = tt.probe(&b, h).unwrap();
        assert_eq!(
            (d.lower, d.upper, d.best, d.depth),
            (4, MAX_EIGHTHS as i16, MoveHint::square(19), 6)
        );
        tt.store(&b, h, stored(6, 0, (7, 8), 7, 64, 100));
        let d = tt.probe(&b, h).unwrap();
        assert_eq!((d.lower, d.upper), (4, 7));
        // A shallower result does not overwrite a deeper one.
        tt.store(&b, h, stored(2, 0, (-64, 64), -20, 3, 1_000_000));
        assert_eq!(tt.probe(&b, h).unwrap().depth, 6);
        // The colour-swapped board is a different position.
        assert!(tt.probe(&b.pass(), b.pass().table_hash()).is_none());
        tt.clear();
        assert!(tt.probe(&b, h).is_none());
    }

    #[test]
    fn a_fail_low_keeps_the_entry_move_and_its_own_only_as_a_guess() {
        let tt = TranspositionTable::new(1);
        let b = Board::START;
        let h = b.table_hash();
        let moves = |tt: &TranspositionTable| {
            let d = tt.probe(&b, h).unwrap();
            (d.best, d.guess, d.first_move())
        };
        // A fail-low with nothing known: its highest move is kept as a guess, not searched first.
        tt.store(&b, h, stored(5, 0, (0, 1), -3, 19, 100));
        assert_eq!(moves(&tt), (MoveHint::square(19), true, MoveHint::NONE));
        // A later fail-low's guess replaces it; a fail-high's move replaces a guess.
        tt.store(&b, h, stored(5, 0, (-8, -7), -9, 26, 100));
        assert_eq!(moves(&tt), (MoveHint::square(26), true, MoveHint::NONE));
        tt.store(&b, h, stored(6, 0, (0, 1), 4, 37, 100));
        let best = MoveHint::square(37);
        assert_eq!(moves(&tt), (best, false, best));
        // A fail-low at the same or a greater depth keeps the fail-high's move.
        tt.store(&b, h, stored(6, 0, (8, 9), 6, 19, 100));
        assert_eq!(moves(&tt), (best, false, best));
        tt.store(&b, h, stored(7, 0, (8, 9), 6, 19, 100));
        assert_eq!(moves(&tt), (best, false, best));
        assert_eq!(tt.probe(&b, h).unwrap().depth, 7);
        // An exact result's move replaces it.
        tt.store(&b, h, stored(8, 0, (-64, 64), 5, 44, 100));
        assert_eq!(
            moves(&tt),
            (MoveHint::square(44), false, MoveHint::square(44))
        );
    }

    #[test]
    fn every_field_survives_the_packed_word() {
        let hints = [MoveHint::square(0), MoveHint::square(63), MoveHint::NONE];
        for (lower, upper) in [(-MAX_EIGHTHS, MAX_EIGHTHS), (-1, 0), (37, 37), (-512, -505)] {
            for (best, guess) in hints.into_iter().flat_map(|h| [(h, false), (h, true)]) {
                for (depth, selectivity, age, cost) in
                    [(0, 0, 0, 0), (127, 7, 31, 127), (60, 5, 17, 64)]
                {
                    let d = TtData {
                        lower: lower as i16,
                        upper: upper as i16,
                        best,
                        guess,
                        depth,
                        selectivity,
                        age,
                        cost,
                    };
                    let w = d.pack();
                    assert_ne!(w, 0);
                    assert_eq!(TtData::unpack(w), d);
                }
            }
        }
        // The generation kept wraps within its bits.
        let tt = TranspositionTable::new(1);
        for _ in 0..(1 << AGE_BITS) + 3 {
            tt.new_search();
        }
        assert_eq!(tt.age(), 3);
    }

    #[test]
    fn replacement_keeps_costly_searches_of_the_current_generation() {
        let tt = TranspositionTable::new(1);
        // Distinct positions forced into one bucket (the caller gives the index hash).
        let board = |i: u64| Board::new(1 << i, 1 << (i + 20));
        let h = 12345;
        // Five slots: a deep but cheap search, a shallow but costly one, three in between.
        tt.store(&board(0), h, stored(20, 0, (0, 1), 5, 64, 10));
        tt.store(&board(1), h, stored(2, 0, (0, 1), 5, 64, 1 << 30));
        for i in 2..5 {
            tt.store(&board(i), h, stored(8, 0, (0, 1), 5, 64, 1 << 12));
        }
        assert!((0..5).all(|i| tt.probe(&board(i), h).is_some()));
        // A sixth replaces the cheapest search, not the shallowest.
        tt.store(&board(5), h, stored(8, 0, (0, 1), 5, 64, 1 << 12));
        assert!(tt.probe(&board(0), h).is_none());
        assert!(tt.probe(&board(1), h).is_some());
        assert_eq!(tt.probe(&board(5), h).unwrap().cost, 13);
        // Among equal costs the shallowest goes.
        tt.store(&board(6), h, stored(9, 0, (0, 1), 5, 64, 1 << 12));
        tt.store(&board(7), h, stored(9, 0, (0, 1), 5, 64, 1 << 12));
        let kept: Vec<u64> = (0..8)
            .filter(|&i| tt.probe(&board(i), h).is_some())
            .collect();
        assert_eq!(kept.len(), 5);
        assert!(kept.contains(&1) && kept.contains(&6) && kept.contains(&7));
        // A cheaper search than all five does not evict any of them.
        tt.store(&board(20), h, stored(30, 0, (0, 1), 5, 64, 1 << 8));
        assert!(tt.probe(&board(20), h).is_none());
        assert!(kept.iter().all(|&i| tt.probe(&board(i), h).is_some()));
        // In a new generation the old entries go first, the costly one included.
        tt.new_search();
        for i in 8..13 {
            tt.store(&board(i), h, stored(3, 0, (0, 1), 5, 64, 100));
        }
        assert!((8..13).all(|i| tt.probe(&board(i), h).is_some()));
        assert!(tt.probe(&board(1), h).is_none());
    }

    #[test]
    fn prefetch_changes_no_probe() {
        // The hint on every bucket (the last one's second line included) leaves what a probe
        // finds exactly as it was, stored or not.
        let tt = TranspositionTable::new(1);
        let boards: Vec<Board> = (0..40u64).map(|i| Board::new(1 << i, 1 << 63)).collect();
        for (i, b) in boards.iter().enumerate().step_by(2) {
            tt.store(
                b,
                b.table_hash(),
                stored(4, 0, (-1, 1), i as i32 % 9, i as u8, 1),
            );
        }
        let before: Vec<_> = boards.iter().map(|b| tt.probe(b, b.table_hash())).collect();
        for i in 0..tt.buckets.len() as u64 {
            tt.prefetch(i << tt.shift);
        }
        let after: Vec<_> = boards.iter().map(|b| tt.probe(b, b.table_hash())).collect();
        assert_eq!(before, after);
        assert_eq!(before.iter().filter(|d| d.is_some()).count(), 20);
    }

    #[test]
    fn bucket_is_two_cache_lines() {
        assert_eq!(std::mem::size_of::<Bucket>(), 128);
        assert!(TranspositionTable::new(16).size_bytes() <= 16 << 20);
        // More memory than any machine has (or can address) is refused with a message.
        let err = TranspositionTable::try_new(usize::MAX)
            .err()
            .expect("refused");
        assert_eq!(err.megabytes, usize::MAX);
        let text = err.of_option("--hash").to_string();
        assert!(
            text.starts_with(&format!("--hash {}: cannot get ", usize::MAX))
                && text.contains("transposition table")
                && text.ends_with("; try a smaller --hash"),
            "{text}"
        );
        assert!(TranspositionTable::check_size(usize::MAX).is_err());
    }

    #[test]
    fn bucket_counts_are_the_largest_power_of_two_that_fits() {
        let buckets = TranspositionTable::buckets_for;
        assert_eq!(buckets(0), 8192);
        assert_eq!(buckets(1), 8192);
        assert_eq!(buckets(3), 16384);
        assert_eq!(buckets(256), 2 << 20);
        assert_eq!(buckets(usize::MAX), 1 << (usize::BITS - 8));
        assert_eq!(buckets(usize::MAX >> 20), 1 << (usize::BITS - 8));
    }
}
