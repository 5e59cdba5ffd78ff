//! The books an engine consults together: the shipped one and the user's book of learned games.
//! A position is answered by the book whose valued entry is best supported (solved over searched,
//! then the deeper search, then more games); on a tie the earlier book answers. So a learned
//! game adds what the shipped book lacks and never replaces its deeper values.

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

/// Books in order of precedence (the earlier answers when support is equal).
pub struct BookSet {
    books: Vec<Arc<Book>>,
}

/// How well a valued entry is supported: solved over searched, then the search depth, then
/// the games played through it.
fn support(p: &BookProbe) -> (bool, u32, u32) {
    (p.is_solved(), p.depth, p.games)
}

impl BookSet {
    /// `books` in order of precedence (an empty set answers nothing).
    pub fn new(books: Vec<Arc<Book>>) -> BookSet {
        BookSet { books }
    }

    pub fn books(&self) -> &[Arc<Book>] {
        &self.books
    }
}

impl BookSource for BookSet {
    /// The best-supported valued entry (the earlier book's on a tie); else the first unvalued
    /// one (which no move comes from).
    fn probe(&self, board: &Board) -> Option<BookProbe> {
        let mut valued: Option<BookProbe> = None;
        let mut unvalued = None;
        for p in self.books.iter().filter_map(|book| book.probe(board)) {
            if !p.valued {
                unvalued.get_or_insert(p);
            } else if valued.is_none_or(|v| support(&p) > support(&v)) {
                valued = Some(p);
            }
        }
        valued.or(unvalued)
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
    fn the_best_supported_valued_entry_answers() {
        let f5 = Board::START.play("f5".parse().unwrap()).unwrap();
        let f5d6 = f5.play("d6".parse().unwrap()).unwrap();
        let f5f6 = f5.play("f6".parse().unwrap()).unwrap();
        let shipped = book_of(
            &[
                (f5, Node::leaf(-2, 13, false)),
                (f5d6, Node::leaf(1, 11, false)),
                (f5f6, Node::leaf(0, 11, false)),
            ],
            40,
        );
        // One learned game: shallower at f5, as deep at f5d6, deeper at f5f6, and a position
        // the shipped book lacks.
        let f5f6e6 = f5f6.play("e6".parse().unwrap()).unwrap();
        let user = book_of(
            &[
                (f5, Node::leaf(5, 11, false)),
                (f5d6, Node::leaf(4, 11, false)),
                (f5f6, Node::leaf(3, 12, false)),
                (f5f6e6, Node::leaf(-1, 12, false)),
            ],
            50,
        );
        let set = BookSet::new(vec![shipped.clone(), user.clone()]);
        let at = |b: &Board| set.probe(b).map(|p| (p.value, p.depth));
        assert_eq!(
            at(&f5),
            Some((-2, 13)),
            "the shipped book's deeper value stays"
        );
        assert_eq!(
            at(&f5d6),
            Some((1, 11)),
            "on a tie the shipped book answers"
        );
        assert_eq!(at(&f5f6), Some((3, 12)), "a deeper learned value is used");
        assert_eq!(
            at(&f5f6e6),
            Some((-1, 12)),
            "what the shipped book lacks is added"
        );
        assert!(set.probe(&Board::START).is_none());
        assert_eq!(set.fewest_empties(), 40);
        assert_eq!(set.lookup(&f5).map(|h| h.value), Some(-2));
        // A solved value beats any searched one, wherever it comes from.
        let solved = book_of(&[(f5, Node::leaf(4, 9, true))], 50);
        let set = BookSet::new(vec![shipped, solved]);
        assert_eq!(
            set.probe(&f5).map(|p| (p.value, p.is_solved())),
            Some((4, true))
        );
        // An unvalued played position does not hide a valued one.
        let user = book_of(&[(f5, Node::played())], 50);
        let shipped = book_of(&[(f5, Node::leaf(-2, 11, false))], 40);
        let set = BookSet::new(vec![user, shipped]);
        assert_eq!(set.probe(&f5).map(|p| p.value), Some(-2));
        assert!(BookSet::new(Vec::new()).probe(&f5).is_none());
    }
}
