//! The evaluation cache: each search context's small table of static evaluations by position,
//! so that a position evaluated again (by a Multi-ProbCut probe and then the node's own
//! search, or by the next iteration) costs one lookup. Its values belong to the evaluator of
//! one search: every search starts with an empty one.

use super::position_slots::PositionSlots;

/// Slots (a power of two): 4,096 of 24 bytes, 96 KB.
const SLOTS: usize = 4096;

/// Direct-mapped: one slot per index, the newest evaluation replaces the older.
#[derive(Default)]
pub struct EvalCache {
    slots: PositionSlots<i32, SLOTS>,
}

impl EvalCache {
    /// A cache without slots, left in a context's place while a joined split point's context
    /// borrows its cache: it knows nothing and keeps nothing.
    pub fn detached() -> Self {
        EvalCache {
            slots: PositionSlots::detached(),
        }
    }

    /// The evaluation stored for the position.
    #[inline(always)]
    pub fn probe(&self, player: u64, opponent: u64) -> Option<i32> {
        self.slots.get(player, opponent).copied()
    }

    /// Keeps `value`, the evaluation of the position.
    #[inline(always)]
    pub fn store(&mut self, player: u64, opponent: u64, value: i32) {
        self.slots.put(player, opponent, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::search::position_slots::same_slot;

    #[test]
    fn keeps_the_newest_evaluation_of_each_slot() {
        let mut c = EvalCache::default();
        let b = Board::START;
        assert_eq!(c.probe(b.player, b.opponent), None);
        c.store(b.player, b.opponent, 37);
        assert_eq!(c.probe(b.player, b.opponent), Some(37));
        // The colour-swapped position is another position.
        assert_eq!(c.probe(b.opponent, b.player), None);
        // A position in the same slot replaces it.
        let other = same_slot::<SLOTS>(b);
        c.store(other.player, other.opponent, -5);
        assert_eq!(c.probe(b.player, b.opponent), None);
        assert_eq!(c.probe(other.player, other.opponent), Some(-5));
        // A detached cache keeps nothing.
        let mut d = EvalCache::detached();
        d.store(b.player, b.opponent, 1);
        assert_eq!(d.probe(b.player, b.opponent), None);
    }
}
