//! What one probe of the book returns, in the orientation of the position asked about: the
//! value, how it was obtained, and the best stored replies, so the root move needs no move
//! generation.

use super::record::{Deviation, NodeKind, Record, STORED_CHILDREN};
use crate::board::{Square, Symmetry};

/// A book move with its value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookReply {
    pub sq: Square,
    pub value: i32,
    /// True for the best move outside the book (a searched deviation).
    pub deviation: bool,
}

/// The book's data for one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookProbe {
    pub kind: NodeKind,
    /// Disc difference for the side to move.
    pub value: i32,
    /// Plies the value was searched to (at least the empties when solved).
    pub depth: u32,
    pub weight: u8,
    pub games: u32,
    /// True when every legal move is in the book (no deviation left to search).
    pub all_in_book: bool,
    /// False for a played position whose best move outside the book was never searched (its
    /// value is not to be trusted yet).
    pub valued: bool,
    /// The stored book moves and the deviation, best first (at most `STORED_CHILDREN + 1`).
    replies: [Option<BookReply>; STORED_CHILDREN + 1],
}

impl BookProbe {
    /// The record's data with its squares mapped back through `sym` (the symmetry that took
    /// the probed board to the record's key).
    pub fn from_record(r: &Record, sym: Symmetry) -> BookProbe {
        let back = sym.inverse();
        let map = |sq: u8| back.apply_square(Square::from_index(sq as u32));
        let mut replies = [None; STORED_CHILDREN + 1];
        let mut n = 0;
        for &(m, v) in r.children.iter().flatten() {
            replies[n] = Some(BookReply {
                sq: map(m),
                value: v as i32,
                deviation: false,
            });
            n += 1;
        }
        if let Deviation::Move { sq, value, .. } = r.deviation {
            // The book moves are stored best first: the deviation goes behind every book move
            // at least as good.
            let value = value as i32;
            let at = replies[..n]
                .iter()
                .position(|c| c.is_some_and(|c| c.value < value))
                .unwrap_or(n);
            replies.copy_within(at..n, at + 1);
            replies[at] = Some(BookReply {
                sq: map(sq),
                value,
                deviation: true,
            });
        }
        BookProbe {
            kind: r.kind,
            value: r.value as i32,
            depth: r.depth as u32,
            weight: r.weight,
            games: r.games,
            all_in_book: r.deviation == Deviation::AllInBook,
            valued: r.kind != NodeKind::UnsolvedBranch || r.deviation != Deviation::NotComputed,
            replies,
        }
    }

    /// The stored replies, best first.
    pub fn replies(&self) -> impl Iterator<Item = BookReply> + '_ {
        self.replies.iter().flatten().copied()
    }

    /// The best stored reply (the one whose value is the position's value when negamaxed).
    pub fn best(&self) -> Option<BookReply> {
        self.replies[0]
    }

    /// True when the value is exact.
    pub fn is_solved(&self) -> bool {
        self.kind == NodeKind::Solved
    }
}
