//! The part of a book that one search can see: the stored values of every position within
//! [`REACH`] moves of a root (passes included), which is where a search looks the book up
//! (`search::Context::with_book`). A search from the root with the excerpt finds exactly what it
//! finds with the whole book, so a position's valuation can travel (to a thread, or to another
//! machine) with its excerpt instead of the book.

use super::lookup::{BookHit, BookLookup};
use crate::board::{Board, Squares};

/// Moves from the root within which a search consults the book.
pub const REACH: u32 = 3;

/// The book's answers for the positions within [`REACH`] moves of one root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookExcerpt {
    /// The whole book's minimum empties.
    min_empties: u32,
    /// Positions (as a search meets them, not canonical) with their values, sorted by board.
    hits: Vec<(Board, BookHit)>,
}

impl BookExcerpt {
    /// The excerpt of `book` around `root`.
    pub fn around(book: &dyn BookLookup, root: &Board) -> BookExcerpt {
        let mut hits = Vec::new();
        collect(book, *root, REACH, &mut hits);
        hits.sort_unstable_by_key(|(b, _)| *b);
        hits.dedup_by_key(|(b, _)| *b);
        BookExcerpt {
            min_empties: book.min_empties(),
            hits,
        }
    }

    /// An excerpt from its parts (as read from a message); the entries are sorted here.
    pub fn from_parts(min_empties: u32, mut hits: Vec<(Board, BookHit)>) -> BookExcerpt {
        hits.sort_unstable_by_key(|(b, _)| *b);
        hits.dedup_by_key(|(b, _)| *b);
        BookExcerpt { min_empties, hits }
    }

    /// The whole book's minimum empties and the stored positions, sorted by board.
    pub fn parts(&self) -> (u32, &[(Board, BookHit)]) {
        (self.min_empties, &self.hits)
    }
}

/// Adds the book's answers for `board` and every position within `moves` moves of it
/// (passes cost no move: a position after a pass has as many empties).
fn collect(book: &dyn BookLookup, board: Board, moves: u32, hits: &mut Vec<(Board, BookHit)>) {
    if let Some(hit) = book.lookup(&board) {
        hits.push((board, hit));
    }
    let mut mover = board;
    if board.legal_moves() == 0 {
        mover = board.pass();
        // Two passes end the game: nothing more to see.
        if mover.legal_moves() == 0 {
            return;
        }
        if let Some(hit) = book.lookup(&mover) {
            hits.push((mover, hit));
        }
    }
    if moves == 0 {
        return;
    }
    for sq in Squares(mover.legal_moves()) {
        collect(book, mover.play_flips(sq, mover.flips(sq)), moves - 1, hits);
    }
}

impl BookLookup for BookExcerpt {
    fn min_empties(&self) -> u32 {
        self.min_empties
    }

    fn lookup(&self, board: &Board) -> Option<BookHit> {
        self.hits
            .binary_search_by_key(board, |(b, _)| *b)
            .ok()
            .map(|i| self.hits[i].1)
    }
}
