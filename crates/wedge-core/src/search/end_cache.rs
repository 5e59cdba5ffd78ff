//! The endgame cache: each search thread's own small table of exact bounds for the deep tier's
//! nodes below the shared table's reach. Small enough to stay in the core's cache, never
//! shared (no atomics) and never stale (an entry is an exact fact about a full position).

use super::position_slots::{PositionSlots, Slot};
use super::tt::MoveHint;

/// Slots (a power of two): 2,048 of 24 bytes, 48 KB, within the core's own caches.
const SLOTS: usize = 2048;

/// One position's bounds and best move.
#[derive(Clone, Copy, Default)]
struct Entry {
    lower: i8,
    upper: i8,
    best: MoveHint,
}

/// What the cache knows of a position: its score lies in `lower..=upper`; `best` is the move
/// that last decided it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheHit {
    pub lower: i32,
    pub upper: i32,
    pub best: MoveHint,
}

/// Direct-mapped: one slot per index, the newest result replaces the older.
#[derive(Default)]
pub struct EndCache {
    slots: PositionSlots<Entry, SLOTS>,
}

impl EndCache {
    /// A cache without slots, left in a context's place while a joined split point's context
    /// borrows its cache: it knows nothing and keeps nothing.
    pub fn detached() -> Self {
        EndCache {
            slots: PositionSlots::detached(),
        }
    }

    /// The bounds known for the position.
    #[inline(always)]
    pub fn probe(&self, player: u64, opponent: u64) -> Option<CacheHit> {
        self.slots.get(player, opponent).map(|e| CacheHit {
            lower: e.lower as i32,
            upper: e.upper as i32,
            best: e.best,
        })
    }

    /// Records the fail-soft result `score` of an exact null-window search around `alpha`,
    /// tightening what was known of the same position.
    #[inline(always)]
    pub fn store(&mut self, player: u64, opponent: u64, alpha: i32, score: i32, best: MoveHint) {
        let Some(s) = self.slots.slot_mut(player, opponent) else {
            return;
        };
        let (mut lower, mut upper) = if score > alpha {
            (score, 64)
        } else {
            (-64, score)
        };
        if s.holds(player, opponent) {
            lower = lower.max(s.value.lower as i32);
            upper = upper.min(s.value.upper as i32);
        }
        *s = Slot {
            player,
            opponent,
            value: Entry {
                lower: lower as i8,
                upper: upper as i8,
                best,
            },
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::search::position_slots::same_slot;

    #[test]
    fn stores_merges_and_replaces() {
        let mut c = EndCache::default();
        let b = Board::START;
        assert_eq!(c.probe(b.player, b.opponent), None);
        // Fail high at 3: at least 5.
        c.store(b.player, b.opponent, 3, 5, MoveHint::square(19));
        let hit = c.probe(b.player, b.opponent).unwrap();
        assert_eq!(
            (hit.lower, hit.upper, hit.best),
            (5, 64, MoveHint::square(19))
        );
        // Fail low at 9: at most 7; both bounds kept.
        c.store(b.player, b.opponent, 9, 7, MoveHint::square(26));
        let hit = c.probe(b.player, b.opponent).unwrap();
        assert_eq!(
            (hit.lower, hit.upper, hit.best),
            (5, 7, MoveHint::square(26))
        );
        // The colour-swapped position is another position.
        assert_eq!(c.probe(b.opponent, b.player), None);
        // A position in the same slot replaces it.
        let other = same_slot::<SLOTS>(b);
        c.store(other.player, other.opponent, 0, -2, MoveHint::NONE);
        assert_eq!(c.probe(b.player, b.opponent), None);
        assert_eq!(c.probe(other.player, other.opponent).unwrap().upper, -2);
    }
}
