//! Direct-mapped tables keyed by the whole position (both sides' discs): `N` slots (a power of
//! two), one per index of the position's hash, the newest entry replacing the older. The
//! thread's endgame cache and the search's evaluation cache are such tables; an empty slot
//! never matches, since a position always has discs.

use crate::board::table_hash;

/// One position and what a table keeps of it.
#[derive(Clone, Copy, Default)]
pub struct Slot<V> {
    pub player: u64,
    pub opponent: u64,
    pub value: V,
}

impl<V> Slot<V> {
    /// True when the slot holds the position.
    #[inline(always)]
    pub fn holds(&self, player: u64, opponent: u64) -> bool {
        self.player == player && self.opponent == opponent
    }
}

/// `N` slots of values `V`, or none (detached).
pub struct PositionSlots<V, const N: usize> {
    slots: Box<[Slot<V>]>,
}

impl<V: Copy + Default, const N: usize> Default for PositionSlots<V, N> {
    fn default() -> Self {
        const { assert!(N.is_power_of_two()) };
        PositionSlots {
            slots: vec![Slot::default(); N].into_boxed_slice(),
        }
    }
}

impl<V, const N: usize> PositionSlots<V, N> {
    /// A table without slots, left in a context's place while a joined split point's context
    /// borrows the table: it knows nothing and keeps nothing.
    pub fn detached() -> Self {
        PositionSlots {
            slots: Box::new([]),
        }
    }

    #[inline(always)]
    pub(crate) fn index(player: u64, opponent: u64) -> usize {
        (table_hash(player, opponent) >> (64 - N.trailing_zeros())) as usize
    }

    /// What the table keeps of the position, if its slot holds it.
    #[inline(always)]
    pub fn get(&self, player: u64, opponent: u64) -> Option<&V> {
        let s = self.slots.get(Self::index(player, opponent))?;
        s.holds(player, opponent).then_some(&s.value)
    }

    /// The position's slot, whatever it holds (none when detached).
    #[inline(always)]
    pub fn slot_mut(&mut self, player: u64, opponent: u64) -> Option<&mut Slot<V>> {
        self.slots.get_mut(Self::index(player, opponent))
    }

    /// Keeps `value` for the position in its slot, replacing what the slot held.
    #[inline(always)]
    pub fn put(&mut self, player: u64, opponent: u64, value: V) {
        if let Some(s) = self.slot_mut(player, opponent) {
            *s = Slot {
                player,
                opponent,
                value,
            };
        }
    }
}

/// A position other than `board` whose slot in a table of `N` is `board`'s (for the tables'
/// tests of replacement).
#[cfg(test)]
pub(crate) fn same_slot<const N: usize>(board: crate::board::Board) -> crate::board::Board {
    use crate::board::Board;
    let index = PositionSlots::<(), N>::index;
    let mut other = board.pass();
    while index(other.player, other.opponent) != index(board.player, board.opponent) {
        other = Board::new(other.player.wrapping_add(1 << 20), other.opponent);
    }
    other
}
