//! The shipped book opens, passes every check, is at least Valued, and answers the opening.

use wedge_core::board::{Board, Move, Square};
use wedge_core::book::{Book, Consistency, Verify};

#[test]
fn the_shipped_book_is_whole_and_answers_the_opening() {
    let path =
        wedge_core::paths::find_data_file("books", "default.book").expect("books/default.book");
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
    // the book's reply there is legal. Counts change with every rebuild, so only what holds
    // for any book is checked: the four are one record, and every game passes through it, so
    // the position after its best reply has no more games.
    let mut counts = Vec::new();
    for sq in ["f5", "d3", "c4", "e6"] {
        let board = Board::START
            .apply(Move::Play(sq.parse::<Square>().unwrap()))
            .unwrap();
        let p = book.probe(&board).expect("after the first move");
        assert!(p.valued);
        let best = p.best().expect("a reply");
        assert!(board.legal_moves() & best.sq.bit() != 0);
        let after = board.apply(Move::Play(best.sq)).unwrap();
        if let Some(reply) = book.probe(&after) {
            assert!(reply.games <= p.games, "{} > {}", reply.games, p.games);
        }
        counts.push(p.games);
    }
    assert!(counts[0] > 0);
    assert!(counts.iter().all(|&g| g == counts[0]), "{counts:?}");
}
