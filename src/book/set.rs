//! The books an engine consults together: the user's book of learned games first, then the
//! shipped one. A position is answered by the first book that holds it valued.

use super::lookup::{hit_of, BookHit, BookLookup};
use super::{Book, BookProbe};
use crate::board::Board;
use std::sync::Arc;

/// What the root's book move is chosen from: one book, or several consulted in turn.
pub trait BookSource {
    /// The data for `board` in its own orientation, if stored (see [`Book::probe`]).
    fn probe(&self, board: &Board) -> Option<BookProbe>;
    /// Positions with fewer empties are in no book.
    fn fewest_empties(&self) -> u32;
    /// Some positions carry hand-edited weights (the choice must look at them).
    fn has_weights(&self) -> bool;
}

impl BookSource for Book {
    fn probe(&self, board: &Board) -> Option<BookProbe> {
        Book::probe(self, board)
    }

    fn fewest_empties(&self) -> u32 {
        self.info().min_empties as u32
    }

    fn has_weights(&self) -> bool {
        self.info().weighted
    }
}

/// Books in the order they are consulted.
pub struct BookSet {
    books: Vec<Arc<Book>>,
}

impl BookSet {
    /// `books` first to last (an empty set answers nothing).
    pub fn new(books: Vec<Arc<Book>>) -> BookSet {
        BookSet { books }
    }

    pub fn books(&self) -> &[Arc<Book>] {
        &self.books
    }
}

impl BookSource for BookSet {
    /// The first book's valued entry; else the first unvalued one (which no move comes from).
    fn probe(&self, board: &Board) -> Option<BookProbe> {
        let mut unvalued = None;
        for book in &self.books {
            match book.probe(board) {
                Some(p) if p.valued => return Some(p),
                Some(p) => {
                    unvalued.get_or_insert(p);
                }
                None => {}
            }
        }
        unvalued
    }

    fn fewest_empties(&self) -> u32 {
        self.books
            .iter()
            .map(|b| b.info().min_empties as u32)
            .min()
            .unwrap_or(61)
    }

    fn has_weights(&self) -> bool {
        self.books.iter().any(|b| b.info().weighted)
    }
}

impl BookLookup for BookSet {
    fn min_empties(&self) -> u32 {
        self.fewest_empties()
    }

    #[inline]
    fn lookup(&self, board: &Board) -> Option<BookHit> {
        hit_of(BookSource::probe(self, board)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::builder::{BookBuilder, Node};
    use crate::book::file::encode_book;
    use crate::book::Verify;

    fn book_of(nodes: &[(Board, Node)], min_empties: u8) -> Arc<Book> {
        let mut b = BookBuilder::new(min_empties);
        for (k, n) in nodes {
            b.insert(k, *n);
        }
        let image = encode_book(&b.info, &b.records());
        Arc::new(Book::from_bytes(image, Verify::Full).unwrap())
    }

    #[test]
    fn the_first_book_holding_a_valued_position_answers() {
        let f5 = Board::START.play("f5".parse().unwrap()).unwrap();
        let f5d6 = f5.play("d6".parse().unwrap()).unwrap();
        let user = book_of(&[(f5, Node::leaf(5, 9, false))], 50);
        let shipped = book_of(
            &[
                (f5, Node::leaf(-2, 11, false)),
                (f5d6, Node::leaf(1, 11, false)),
            ],
            40,
        );
        let set = BookSet::new(vec![user, shipped]);
        assert_eq!(set.probe(&f5).map(|p| (p.value, p.depth)), Some((5, 9)));
        assert_eq!(set.probe(&f5d6).map(|p| (p.value, p.depth)), Some((1, 11)));
        assert!(set.probe(&Board::START).is_none());
        assert_eq!(set.fewest_empties(), 40);
        assert_eq!(set.lookup(&f5).map(|h| h.value), Some(5));
        // An unvalued played position in the first book does not hide a valued one.
        let user = book_of(&[(f5, Node::played())], 50);
        let shipped = book_of(&[(f5, Node::leaf(-2, 11, false))], 40);
        let set = BookSet::new(vec![user, shipped]);
        assert_eq!(set.probe(&f5).map(|p| p.value), Some(-2));
        assert!(BookSet::new(Vec::new()).probe(&f5).is_none());
    }
}
