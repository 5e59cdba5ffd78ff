//! Book building checked against the search: valuations and expansions equal the exact
//! solver's values, and the search takes book values. They live here, above both, so the
//! book never imports the search.

use crate::book::{expand_batch, expand_once, refresh, DropOut, Priorities};
use std::sync::atomic::AtomicBool;
use wedge_core::board::Move;
use wedge_core::board::{Board, Square, Squares};
use wedge_core::book::encode_book;
use wedge_core::book::test_valuers::Hashed;
use wedge_core::book::{normalize, Successor};
use wedge_core::book::{
    Book, BookBuilder, BookLookup, Consistency, NodeKind, Valuation, Valuer, Verify,
};
use wedge_core::eval::Heuristic;
use wedge_core::rng::Rng;
use wedge_core::search::TranspositionTable;

/// The exact value of a position (the end of the game included).
pub fn solve(board: &Board, tt: &TranspositionTable) -> i32 {
    if board.is_game_over() {
        return board.final_score();
    }
    let stop = AtomicBool::new(false);
    wedge_core::search::solve_root(board, -64, 64, tt, &Heuristic, &stop).score
}

/// Solves every allowed move exactly. With `claim_exact` false it reports a midgame depth,
/// so the positions stay unsolved (and expandable) while their values are exact.
pub struct Solver {
    tt: TranspositionTable,
    claim_exact: bool,
}

impl Solver {
    pub fn new(claim_exact: bool) -> Solver {
        Solver {
            tt: TranspositionTable::new(8),
            claim_exact,
        }
    }
}

impl Valuer for Solver {
    fn best_of(
        &mut self,
        board: &Board,
        allowed: u64,
        _exact: bool,
        _book: &dyn BookLookup,
    ) -> Option<Valuation> {
        let mut best: Option<(Square, i32)> = None;
        for sq in Squares(allowed & board.legal_moves()) {
            let child = board.play_flips(sq, board.flips(sq));
            let v = match normalize(&child) {
                None => -child.final_score(),
                Some((b, true)) => solve(&b, &self.tt),
                Some((b, false)) => -solve(&b, &self.tt),
            };
            if best.is_none_or(|b| v > b.1) {
                best = Some((sq, v));
            }
        }
        let (sq, value) = best?;
        let n = board.empty_count() as u8;
        Some(Valuation {
            sq,
            value,
            depth: if self.claim_exact { n } else { n - 1 },
            exact: self.claim_exact,
        })
    }
}

fn exact(board: &Board) -> i32 {
    solve(board, &TranspositionTable::new(4))
}

fn near_end_root(seed: u64, empties: u32) -> Board {
    let mut rng = Rng::new(seed);
    loop {
        let mut b = Board::START;
        while b.empty_count() > empties {
            match b.random_move(&mut rng) {
                Some(m) => b = b.apply(m).unwrap(),
                None => break,
            }
        }
        if b.empty_count() == empties && b.legal_moves() != 0 {
            return b.canonical().0;
        }
    }
}

fn small_book(root: Board) -> (BookBuilder, DropOut) {
    let mut book = BookBuilder::new(root.empty_count() as u8 - 6);
    book.info.solve_empties = 60;
    (
        book,
        DropOut {
            root,
            ..DropOut::new(1.0, 8)
        },
    )
}

#[test]
fn expansion_values_are_exact_negamax_values() {
    let root = near_end_root(4, 14);
    let (mut book, doe) = small_book(root);
    let mut prio = Priorities::new();
    let mut v = Solver::new(false);
    let mut expansions = 0;
    while expansions < 40 && expand_once(&mut book, &mut prio, &doe, &mut v).is_some() {
        expansions += 1;
    }
    assert!(expansions >= 10, "{expansions}");
    assert_eq!(book.level(), Consistency::Negamaxed);
    let tt = TranspositionTable::new(8);
    for (key, node) in book.sorted_nodes() {
        assert_eq!(node.value as i32, solve(&key, &tt), "{}", key.diagram());
    }
}

#[test]
fn batched_expansion_values_are_exact_too() {
    let root = near_end_root(8, 14);
    let (mut book, doe) = small_book(root);
    let mut prio = Priorities::new();
    let mut made = 0;
    for _ in 0..6 {
        made += expand_batch(&mut book, &mut prio, &doe, &|| Solver::new(false), 2, 5);
    }
    assert!(made >= 10, "{made}");
    assert_eq!(book.level(), Consistency::Negamaxed);
    let tt = TranspositionTable::new(8);
    for (key, node) in book.sorted_nodes() {
        assert_eq!(node.value as i32, solve(&key, &tt), "{}", key.diagram());
    }
    assert_eq!(prio, refresh(&mut book, &doe));
}

#[test]
fn values_near_the_end_equal_the_exact_solver() {
    // Lines from a 16-empty position; every stored position is solved, so every value must
    // be the exact negamax value of the position.
    let mut rng = Rng::new(77);
    let mut start = Board::START;
    while start.empty_count() > 16 {
        match start.random_move(&mut rng) {
            Some(m) => start = start.apply(m).unwrap(),
            None => start = Board::START,
        }
        if start.is_game_over() {
            start = Board::START;
        }
    }
    let mut b = BookBuilder::new(10);
    b.info.solve_empties = 60;
    for _ in 0..12 {
        let mut line = Vec::new();
        let mut x = start;
        while x.empty_count() > 10 && !x.is_game_over() {
            let m = x.random_move(&mut rng).unwrap();
            x = x.apply(m).unwrap();
            line.push(m);
        }
        b.add_line(start, &line).unwrap();
    }
    let solver = || Solver::new(true);
    b.sweep(Some(&solver), 2, &|_, _| {});
    assert_eq!(b.level(), Consistency::Negamaxed);
    let mut checked = 0;
    for (key, node) in b.sorted_nodes() {
        assert_eq!(node.value as i32, exact(&key), "{}", key.diagram());
        assert_eq!(node.kind, NodeKind::Solved);
        checked += 1;
    }
    assert!(checked > 20, "{checked}");
    // Transpositions share one node: the successor of every book move is one key.
    for (key, _) in b.sorted_nodes() {
        for sq in Squares(key.legal_moves()) {
            if let Successor::Position { key: c, .. } = b.successor(&key, sq) {
                assert_eq!(c, c.canonical().0);
            }
        }
    }
}

#[test]
fn the_search_takes_book_values_within_three_plies_of_the_root() {
    let root = Board::START;
    let mut b = BookBuilder::new(50);
    for sq in Squares(root.legal_moves()) {
        b.add_game(&[Move::Play(sq)]).unwrap();
    }
    b.sweep(Some(&|| Hashed::new(31, true)), 1, &|_, _| {});
    let expected = Squares(root.legal_moves())
        .map(|sq| -(b.node_of(&root.play(sq).unwrap()).unwrap().value as i32))
        .max()
        .unwrap();
    let book = std::sync::Arc::new(
        Book::from_bytes(encode_book(&b.info, &b.records()), Verify::Full).unwrap(),
    );
    let mut searcher = wedge_core::search::Searcher::new(std::sync::Arc::new(Heuristic), 1, 1);
    let stop = AtomicBool::new(false);
    let plain = searcher.search(
        &root,
        &wedge_core::search::Limits::depth(4),
        &stop,
        &mut |_| {},
    );
    searcher.set_book(Some(book));
    let r = searcher.search(
        &root,
        &wedge_core::search::Limits::depth(4),
        &stop,
        &mut |_| {},
    );
    assert_eq!(r.score, wedge_core::search::Score::from_discs(expected));
    assert!(r.nodes < plain.nodes, "{} vs {}", r.nodes, plain.nodes);
}

#[test]
fn a_batch_size_makes_the_same_book_on_one_thread_and_on_two() {
    // Real searches (the heuristic evaluation, depth 4) value the leaves; each valuation starts
    // from an empty table, so the threads' share of the work cannot change a value or a move.
    use std::sync::Arc;
    use wedge_core::search::{SearchValuer, Searcher, Selectivity};
    let root = near_end_root(3, 40);
    let grow = |threads: usize| {
        let mut book = BookBuilder::new(30);
        let doe = DropOut {
            root,
            ..DropOut::new(1.0, 8)
        };
        let make = || {
            SearchValuer::new(
                Searcher::new(Arc::new(Heuristic), 1, 1),
                4,
                Selectivity::NONE,
            )
        };
        let mut prio = Priorities::new();
        let mut made = 0;
        for _ in 0..12 {
            made += expand_batch(&mut book, &mut prio, &doe, &make, threads, 8);
        }
        (made, book.sorted_nodes())
    };
    let (made, one) = grow(1);
    assert!(made >= 30, "{made} expansions");
    assert!(one.len() > made, "{} positions", one.len());
    assert_eq!(grow(2), (made, one));
}

#[test]
fn a_valuation_with_the_excerpt_equals_one_with_the_whole_book() {
    // Book values from a stand-in valuer on short random games, then real searches (the
    // heuristic evaluation, depth 4) of every move of the played positions: their first plies
    // land in the book, deeper ones in it by transposition.
    use std::sync::Arc;
    use wedge_core::book::BookExcerpt;
    use wedge_core::search::{SearchValuer, Searcher, Selectivity};
    let mut rng = Rng::new(5);
    let mut book = BookBuilder::new(46);
    for _ in 0..30 {
        let mut b = Board::START;
        let mut moves = Vec::new();
        while moves.len() < 12 {
            let Some(m) = b.random_move(&mut rng) else {
                break;
            };
            b = b.apply(m).unwrap();
            moves.push(m);
        }
        book.add_game(&moves).unwrap();
    }
    book.sweep(Some(&|| Hashed::new(9, false)), 1, &|_, _| {});
    let mut valuer = SearchValuer::new(
        Searcher::new(Arc::new(Heuristic), 1, 1),
        4,
        Selectivity::NONE,
    );
    let no_book = BookExcerpt::from_parts(book.min_empties(), Vec::new());
    let (mut compared, mut book_mattered) = (0, 0);
    for (key, node) in book.sorted_nodes() {
        if !node.is_played() {
            continue;
        }
        let excerpt = BookExcerpt::around(&book, &key);
        let legal = key.legal_moves();
        let whole = valuer.best_of(&key, legal, false, &book);
        assert_eq!(valuer.best_of(&key, legal, false, &excerpt), whole);
        compared += 1;
        book_mattered += usize::from(valuer.best_of(&key, legal, false, &no_book) != whole);
    }
    assert!(compared >= 30, "{compared}");
    // The test means something only if the book changes valuations.
    assert!(book_mattered >= 10, "{book_mattered} of {compared}");
}

#[test]
fn a_revalued_book_holds_the_new_valuers_values_everywhere() {
    // A book grown with made-up values (played positions, widened deviations, leaves), then
    // searched again with the exact solver: every value must become the exact one, and the
    // positions stay what they were.
    let root = near_end_root(5, 16);
    let (mut book, doe) = small_book(root);
    let mut prio = Priorities::new();
    let mut made_up = Hashed::new(21, false);
    let mut expansions = 0;
    while expansions < 40 && expand_once(&mut book, &mut prio, &doe, &mut made_up).is_some() {
        expansions += 1;
    }
    assert!(expansions >= 10, "{expansions}");
    let tt = TranspositionTable::new(8);
    let is_exact =
        |key: &Board, node: &wedge_core::book::Node| node.value as i32 == solve(key, &tt);
    let before = book.sorted_nodes();
    let leaves = before
        .iter()
        .filter(|(_, n)| n.kind == NodeKind::UnsolvedLeaf)
        .count();
    let wrong = before.iter().filter(|(k, n)| !is_exact(k, n)).count();
    assert!(
        leaves >= 10 && wrong >= 10,
        "{leaves} leaves, {wrong} wrong"
    );

    let stale = book.mark_searched_values_stale(0);
    assert!(stale > leaves, "{stale}");
    // Stale values stay until they are searched again.
    assert_eq!(book.sorted_nodes(), before);
    assert_eq!(book.level(), Consistency::Valued);
    let mut whole = book.clone();
    whole.sweep(Some(&|| Solver::new(false)), 2, &|_, _| {});
    assert_eq!(whole.level(), Consistency::Negamaxed);
    for (key, node) in whole.sorted_nodes() {
        assert!(is_exact(&key, &node), "{}", key.diagram());
    }
    // Every position is still there (new deviations may add leaves).
    let after = whole.sorted_nodes();
    for (key, node) in &before {
        let now = after.iter().find(|(k, _)| k == key).expect("kept");
        assert_eq!(now.1.is_played(), node.is_played());
    }
    // Values made again by the same valuer change nothing, and a deviation that is still
    // the best outside the book stays the one deviation (the book does not widen).
    let mut again = whole.clone();
    assert!(again.mark_searched_values_stale(0) > 0);
    let stats = again.sweep(Some(&|| Solver::new(false)), 2, &|_, _| {});
    assert_eq!(stats.leaves_added, 0);
    assert_eq!(again.sorted_nodes(), after);

    // Stopped after the first empties count, written and read back (which forgets what was
    // stale), then resumed from the next count: the same values.
    let mut first = None;
    let mut local = wedge_core::book::LocalThreads {
        make: &|| Solver::new(false),
        threads: 1,
    };
    book.sweep_levels(Some(&mut local), &|_, _| {}, &mut |_, e| {
        first = Some(e);
        false
    });
    let stop = first.expect("one level searched");
    for (key, node) in book.sorted_nodes() {
        let old = before.iter().find(|(k, _)| *k == key).map(|(_, n)| n);
        if key.empty_count() > stop {
            assert_eq!(Some(&node), old, "untouched above the stop");
        } else if old.is_some() {
            assert!(is_exact(&key, &node), "{}", key.diagram());
        }
    }
    let mut resumed = BookBuilder::from_records(book.info.clone(), book.records());
    assert!(resumed.mark_searched_values_stale(stop + 1) > 0);
    resumed.sweep(Some(&|| Solver::new(false)), 2, &|_, _| {});
    for (key, node) in resumed.sorted_nodes() {
        assert!(is_exact(&key, &node), "{}", key.diagram());
    }

    // Nothing searched is left to forget once every value is solved.
    let mut solved = BookBuilder::new(10);
    solved.info.solve_empties = 60;
    let mut rng = Rng::new(9);
    for _ in 0..8 {
        let (mut x, mut line) = (root, Vec::new());
        while x.empty_count() > 10 && !x.is_game_over() {
            let m = x.random_move(&mut rng).unwrap();
            x = x.apply(m).unwrap();
            line.push(m);
        }
        solved.add_line(root, &line).unwrap();
    }
    solved.sweep(Some(&|| Solver::new(true)), 2, &|_, _| {});
    assert!(solved.len() > 20, "{}", solved.len());
    assert_eq!(solved.mark_searched_values_stale(0), 0);
}
