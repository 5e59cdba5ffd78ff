//! The shipped book opens, passes every check, is at least Valued, and answers the opening.

use wedge::board::{Board, Move, Square};
use wedge::book::{Book, Consistency, Verify};

#[test]
fn the_shipped_book_is_whole_and_answers_the_opening() {
    let path = wedge::paths::find_data_file("books", "default.book").expect("books/default.book");
    let book = Book::open(&path, Verify::Full).unwrap();
    assert!(
        book.info().level >= Consistency::Valued,
        "{:?}",
        book.info().level
    );
    assert!(book.len() > 10_000, "{}", book.len());
    let mut damaged = 0;
    for r in book.records() {
        damaged += r.is_err() as usize;
    }
    assert_eq!(damaged, 0);
    // Every first move of Black leads to the same position up to symmetry: all in book, and
    // the book's reply there is legal.
    for sq in ["f5", "d3", "c4", "e6"] {
        let board = Board::START
            .apply(Move::Play(sq.parse::<Square>().unwrap()))
            .unwrap();
        let p = book.probe(&board).expect("after the first move");
        assert!(p.valued);
        let best = p.best().expect("a reply");
        assert!(board.legal_moves() & best.sq.bit() != 0);
        // 124,106 games; the shipped book is format version 1, whose count stops at 65,535.
        assert_eq!(p.games, 65_535);
    }
}
