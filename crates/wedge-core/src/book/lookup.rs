//! The book as the search sees it: a lookup by position that gives a value, how far it can be
//! trusted, and the best move for ordering. Both the mapped file and the builder answer it.

use crate::board::{Board, Square};

/// A book value for a position (side to move's view).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookHit {
    pub value: i32,
    /// Plies the value was searched to.
    pub depth: u32,
    pub solved: bool,
    /// The move that gives the value, in the probed board's orientation, when known.
    pub best: Option<Square>,
}

impl BookHit {
    /// True when the value can stand for a search of `depth` plies of `empties` empties.
    #[inline]
    pub fn covers(&self, depth: u32, empties: u32) -> bool {
        self.solved || (depth < empties && self.depth >= depth)
    }
}

/// Anything that can answer "is this position in the book, and what is it worth?".
pub trait BookLookup: Send + Sync {
    /// Positions with fewer empties are never stored.
    fn min_empties(&self) -> u32;
    /// The value of `board` (whose side to move has a legal move), if stored and valued.
    fn lookup(&self, board: &Board) -> Option<BookHit>;
}

/// What the search learns from a probe: nothing from a position not yet valued.
#[inline]
pub(crate) fn hit_of(p: super::BookProbe) -> Option<BookHit> {
    if !p.valued {
        return None;
    }
    Some(BookHit {
        value: p.value,
        depth: p.depth,
        solved: p.is_solved(),
        best: p.best().filter(|r| r.value == p.value).map(|r| r.sq),
    })
}

impl BookLookup for super::Book {
    fn min_empties(&self) -> u32 {
        self.info().min_empties as u32
    }

    #[inline]
    fn lookup(&self, board: &Board) -> Option<BookHit> {
        hit_of(self.probe(board)?)
    }
}
