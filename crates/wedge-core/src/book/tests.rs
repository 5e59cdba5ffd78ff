//! Book tests: file round trips, symmetric probes, refusal of damaged files, republishing under
//! a reader, and values checked against the exact solver.

use super::builder::{normalize, Successor};
use super::file::{encode_book, HEADER_SIZE};
use super::test_valuers::Hashed;
use super::*;
use crate::board::{Board, Move, Square, Symmetry};
use crate::rng::Rng;

fn random_games(n: usize, seed: u64, plies: usize) -> Vec<Vec<Move>> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let mut b = Board::START;
            let mut moves = Vec::new();
            for _ in 0..plies {
                let Some(m) = b.random_move(&mut rng) else {
                    break;
                };
                b = b.apply(m).unwrap();
                moves.push(m);
            }
            moves
        })
        .collect()
}

/// A valued book of random openings (positions with at least 44 empties).
fn sample_book() -> BookBuilder {
    let mut b = BookBuilder::new(44);
    for g in random_games(40, 11, 14) {
        b.add_game(&g).unwrap();
    }
    b.sweep(Some(&|| Hashed::new(21, false)), 2, &|_, _| {});
    b
}

#[test]
fn memory_to_file_to_map_preserves_every_record() {
    let mut b = sample_book();
    assert_eq!(b.level(), Consistency::Negamaxed);
    let dir = std::env::temp_dir().join(format!("wedge-book-rt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.book");
    b.info.description = "round trip ✓".into();
    b.publish(&path).unwrap();
    let book = Book::open(&path, Verify::Full).unwrap();
    assert_eq!(book.len() as usize, b.len());
    let mut from_file: Vec<Record> = book.records().map(Result::unwrap).collect();
    from_file.sort_by_key(|r| r.key);
    assert_eq!(from_file, b.records());
    assert_eq!(book.info().description, "round trip ✓");
    assert_eq!(book.info().level, Consistency::Negamaxed);
    let again = BookBuilder::from_book(&book).unwrap();
    assert_eq!(again.records(), b.records());
    let counts = book.counts();
    assert_eq!(counts.iter().sum::<u64>(), book.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `image` (a current book file) rewritten as format version 1 wrote it: each record's child
/// count at byte 23 and its games as u16 at 24-25, both checksums made again.
fn as_version_1(mut image: Vec<u8>) -> Vec<u8> {
    use super::record::RECORD_SIZE;
    use crate::framing::lanes64 as checksum;
    let (header, table) = image.split_at_mut(HEADER_SIZE);
    for slot in table.chunks_exact_mut(RECORD_SIZE) {
        if Record::slot_is_empty(slot) {
            continue;
        }
        let r = Record::decode(slot).unwrap();
        slot[23] = r.children.iter().flatten().count() as u8;
        slot[24..26].copy_from_slice(&(r.games.min(0xFFFF) as u16).to_le_bytes());
    }
    header[8..12].copy_from_slice(&1u32.to_le_bytes());
    header[72..80].copy_from_slice(&checksum(table).to_le_bytes());
    let head = checksum(&header[..HEADER_SIZE - 32]);
    header[HEADER_SIZE - 8..].copy_from_slice(&head.to_le_bytes());
    image
}

#[test]
fn counts_above_16_bits_round_trip_and_a_version_1_book_opens_and_is_upgraded() {
    let dir = std::env::temp_dir().join(format!("wedge-book-v1-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.book");
    let mut b = sample_book();
    let (start, _) = Board::START.canonical();
    let mut root = *b.node_of(&start).unwrap();
    root.games = 124_106;
    b.insert(&start, root);
    b.publish(&path).unwrap();
    let book = Book::open(&path, Verify::Full).unwrap();
    assert_eq!(book.format(), file::VERSION);
    assert_eq!(book.probe(&Board::START).unwrap().games, 124_106);
    // The same book written by a build of version 1 (its count stopped at 65,535).
    let old = as_version_1(encode_book(&b.info, &b.records()));
    std::fs::write(&path, &old).unwrap();
    let book = Book::open(&path, Verify::Full).unwrap();
    assert_eq!(book.format(), 1);
    assert_eq!(book.probe(&Board::START).unwrap().games, 65_535);
    let mut expected = b.records();
    for r in expected.iter_mut() {
        r.games = r.games.min(65_535);
    }
    let mut from_file: Vec<Record> = book.records().map(Result::unwrap).collect();
    from_file.sort_by_key(|r| r.key);
    assert_eq!(from_file, expected);
    // The next write publishes it as the current version, every record kept.
    let mut again = BookBuilder::load_or_new(&path, b.info.min_empties).unwrap();
    again.add_game(&["f5".parse().unwrap()]).unwrap();
    again.publish(&path).unwrap();
    let book = Book::open(&path, Verify::Full).unwrap();
    assert_eq!(book.format(), file::VERSION);
    assert_eq!(book.probe(&Board::START).unwrap().games, 65_536);
    assert_eq!(book.len() as usize, expected.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_symmetric_image_is_found_and_its_moves_map_back() {
    let b = sample_book();
    let book = Book::from_bytes(encode_book(&b.info, &b.records()), Verify::Full).unwrap();
    let mut checked = 0;
    for r in b.records() {
        for s in Symmetry::ALL {
            let board = r.key.transform(s);
            let p = book.probe(&board).expect("every image is in the book");
            assert_eq!(p.value, r.value as i32);
            for reply in p.replies() {
                assert!(board.legal_moves() & reply.sq.bit() != 0, "{reply:?} legal");
                if reply.deviation {
                    continue;
                }
                // A stored book move leads to a stored position with the matching value.
                let child = board.play_flips(reply.sq, board.flips(reply.sq));
                let v = match normalize(&child) {
                    None => -child.final_score(),
                    Some((c, passed)) => {
                        let cp = book.probe(&c).expect("book move leads into the book");
                        if passed {
                            cp.value
                        } else {
                            -cp.value
                        }
                    }
                };
                assert_eq!(v, reply.value);
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
    // Positions never stored are not found.
    for g in random_games(50, 99, 30) {
        let mut board = Board::START;
        for m in g {
            board = board.apply(m).unwrap();
        }
        if board.empty_count() < 44 && board.legal_moves() != 0 {
            assert!(book.probe(&board).is_none());
        }
    }
}

#[test]
fn damaged_truncated_and_foreign_files_are_refused_with_a_reason() {
    let b = sample_book();
    let good = encode_book(&b.info, &b.records());
    assert!(Book::from_bytes(good.clone(), Verify::Full).is_ok());
    let msg = |bytes: Vec<u8>, verify| match Book::from_bytes(bytes, verify) {
        Ok(_) => panic!("accepted a bad book"),
        Err(e) => e.to_string(),
    };
    // Truncated anywhere.
    for cut in [0, 7, 100, HEADER_SIZE - 1, HEADER_SIZE, good.len() - 1] {
        let m = msg(good[..cut].to_vec(), Verify::Full);
        assert!(
            m.contains("shorter") || m.contains("truncated"),
            "{cut}: {m}"
        );
    }
    // A flipped byte in the table.
    let mut bad = good.clone();
    bad[HEADER_SIZE + 40] ^= 0x10;
    assert!(msg(bad.clone(), Verify::Full).contains("table checksum"));
    // Without the table check the header still opens, and probes never panic.
    let lax = Book::from_bytes(bad, Verify::HeaderOnly).unwrap();
    for r in b.records() {
        let _ = lax.probe(&r.key);
    }
    // A flipped byte in the header.
    let mut bad = good.clone();
    bad[30] ^= 1;
    assert!(msg(bad, Verify::Full).contains("header checksum"));
    // Wrong version, wrong magic.
    let mut bad = good.clone();
    bad[8] = 99;
    assert!(msg(bad, Verify::Full).contains("version 99"));
    let mut bad = good.clone();
    bad[0] = b'X';
    assert!(msg(bad, Verify::Full).contains("not a Wedge book"));
    // Garbage of the right size never panics.
    let mut rng = Rng::new(5);
    for _ in 0..50 {
        let mut bad = good.clone();
        for _ in 0..20 {
            let i = rng.below(bad.len() as u64) as usize;
            bad[i] = rng.next_u64() as u8;
        }
        let _ = Book::from_bytes(bad, Verify::Full);
    }
}

#[test]
fn a_reader_keeps_its_book_while_a_writer_republishes() {
    let dir = std::env::temp_dir().join(format!("wedge-book-pub-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("live.book");
    let mut a = sample_book();
    a.publish(&path).unwrap();
    let reader = Book::open(&path, Verify::Full).unwrap();
    let a_records = a.records();
    let mut versions = Vec::new();
    std::thread::scope(|s| {
        s.spawn(|| {
            // The writer publishes bigger and bigger books over the same name.
            let mut b = a.clone();
            for (i, g) in random_games(30, 1234, 16).iter().enumerate() {
                b.add_game(g).unwrap();
                b.sweep(Some(&|| Hashed::new(21, false)), 1, &|_, _| {});
                b.info.description = format!("version {i}");
                b.publish(&path).unwrap();
            }
        });
        // Meanwhile: the old map stays whole, and every fresh open sees one whole version.
        for _ in 0..30 {
            reader.verify_table().unwrap();
            let mut now: Vec<Record> = reader.records().map(Result::unwrap).collect();
            now.sort_by_key(|r| r.key);
            assert_eq!(now, a_records);
            let fresh = Book::open(&path, Verify::Full).unwrap();
            versions.push(fresh.info().description.clone());
        }
    });
    assert!(versions
        .iter()
        .all(|v| v.is_empty() || v.starts_with("version")));
    let names: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(names.len(), 1, "no temporary file is left behind");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn adding_games_tracks_played_positions_and_stale_deviations() {
    let mut b = BookBuilder::new(50);
    let f5 = Move::Play(Square::from_coords(5, 4).unwrap());
    let d6 = Move::Play(Square::from_coords(3, 5).unwrap());
    let c3 = Move::Play(Square::from_coords(2, 2).unwrap());
    assert_eq!(b.add_game(&[f5, d6]).unwrap(), 3);
    assert_eq!(b.level(), Consistency::Consistent);
    b.sweep(Some(&|| Hashed::new(21, false)), 1, &|_, _| {});
    assert_eq!(b.level(), Consistency::Negamaxed);
    let after_f5 = Board::START.apply(f5).unwrap();
    assert_eq!(b.node_of(&after_f5).unwrap().games, 1);
    // A game through a deviation leaf makes it played; the parent must search again.
    let mut deviated = None;
    for (key, node) in b.sorted_nodes() {
        if let Deviation::Move { sq, .. } = node.deviation {
            if let Successor::Position { key: c, .. } =
                b.successor(&key, Square::from_index(sq as u32))
            {
                deviated = Some((key, c));
            }
        }
    }
    let (_, leaf) = deviated.expect("a deviation leaf");
    assert_eq!(b.node(&leaf).unwrap().kind, NodeKind::UnsolvedLeaf);
    b.add_game(&[f5, d6, c3]).unwrap();
    assert_eq!(b.node_of(&after_f5).unwrap().games, 2);
    // Illegal games are refused.
    assert!(b.add_game(&[f5, f5]).is_err());
}

#[test]
fn root_choice_respects_randomness_weights_and_solved_losses() {
    let mut b = BookBuilder::new(50);
    for g in random_games(60, 21, 3) {
        b.add_game(&g).unwrap();
    }
    b.sweep(Some(&|| Hashed::new(31, true)), 1, &|_, _| {});
    let after_f5 = Board::START
        .apply(Move::Play(Square::from_coords(5, 4).unwrap()))
        .unwrap();
    let book = Book::from_bytes(encode_book(&b.info, &b.records()), Verify::Full).unwrap();
    let children = choice::book_children(&book, &after_f5);
    assert!(children.len() >= 2, "{children:?}");
    let top = children[0].value;
    let mut rng = Rng::new(3);
    // Randomness 0: always the best, from one probe.
    for _ in 0..20 {
        let c = choice::choose(&book, &after_f5, 0, &mut rng).unwrap();
        assert_eq!(c.value, top);
    }
    // Randomness 64: anything but a solved loss (all values here are "solved").
    let mut seen = std::collections::HashSet::new();
    for _ in 0..300 {
        let c = choice::choose(&book, &after_f5, 64, &mut rng).unwrap();
        assert!(c.value == top || c.value >= 0, "{c:?}");
        seen.insert(c.sq);
    }
    let allowed = children
        .iter()
        .filter(|c| c.value == top || c.value >= 0)
        .count();
    assert_eq!(seen.len(), allowed);
    // A weight of 0 keeps the engine off a move.
    let best_child = after_f5.play(children[0].sq).unwrap();
    b.set_weight(&best_child, 0);
    b.info.weighted = true;
    let book = Book::from_bytes(encode_book(&b.info, &b.records()), Verify::Full).unwrap();
    for _ in 0..50 {
        let c = choice::choose(&book, &after_f5, 0, &mut rng).unwrap();
        assert_ne!(c.sq, children[0].sq);
    }
}

#[test]
fn errors_name_the_file_and_a_directory_is_called_one() {
    let dir = std::env::temp_dir().join(format!("wedge-book-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let name = dir.display().to_string();
    let e = Book::open(&dir, Verify::Full)
        .err()
        .expect("a directory is no book");
    assert_eq!(
        e.to_string(),
        format!("cannot read the book {name}: it is a directory, not a regular file")
    );
    let missing = dir.join("missing.book");
    let e = Book::open(&missing, Verify::Full)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains(&missing.display().to_string()), "{e}");
    // A damaged table and a foreign file: both messages name the file.
    let b = sample_book();
    let mut image = encode_book(&b.info, &b.records());
    image[HEADER_SIZE + 40] ^= 0x10;
    let damaged = dir.join("damaged.book");
    std::fs::write(&damaged, &image).unwrap();
    let e = Book::open(&damaged, Verify::Full)
        .err()
        .unwrap()
        .to_string();
    assert_eq!(
        e,
        format!(
            "the book {} is damaged: table checksum mismatch (the file was altered or truncated)",
            damaged.display()
        )
    );
    let foreign = dir.join("foreign.book");
    std::fs::write(&foreign, vec![7u8; 5000]).unwrap();
    let e = Book::open(&foreign, Verify::Full)
        .err()
        .unwrap()
        .to_string();
    assert_eq!(
        e,
        format!(
            "{} is not a Wedge book: wrong magic bytes",
            foreign.display()
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn records_whose_moves_or_keys_cannot_be_are_refused() {
    let b = sample_book();
    let start = Board::START.canonical().0;
    let node = *b.node(&start).unwrap();
    let good = b.record(&start, &node);
    assert_eq!(good.check(44), Ok(()));
    // An occupied square (d4) as a child, and the deviation repeated as a child.
    let mut r = good;
    r.children[0] = Some((27, 0));
    assert_eq!(
        r.check(44),
        Err(RecordError::IllegalMove("d4".parse().unwrap()))
    );
    if let record::Deviation::Move { sq, .. } = good.deviation {
        let mut r = good;
        r.children[1] = Some((sq, 0));
        assert!(matches!(r.check(44), Err(RecordError::RepeatedMove(_))));
    }
    // Keys that are no position of a game, or too deep for the book, or with no move.
    let mut r = good;
    r.key = Board::new(0, 1);
    assert_eq!(r.check(44), Err(RecordError::NotAPosition));
    assert_eq!(good.check(61), Err(RecordError::TooFewEmpties(60)));
    let mut r = good;
    r.key = Board::new(0x0000_0018_1800_0000, 0);
    r.children = [None; 3];
    r.deviation = record::Deviation::AllInBook;
    assert_eq!(r.check(44), Err(RecordError::NoMove));
}

#[test]
fn a_publish_keeps_what_another_writer_published_since_the_book_was_read() {
    let dir = std::env::temp_dir().join(format!("wedge-book-merge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("shared.book");
    sample_book().publish(&path).unwrap();
    let value = |b: &mut BookBuilder| {
        b.sweep(Some(&|| Hashed::new(21, false)), 1, &|_, _| {});
    };
    // Two writers read the same version and add different games.
    let mut a = BookBuilder::load_or_new(&path, 44).unwrap();
    let mut b = BookBuilder::load_or_new(&path, 44).unwrap();
    let games_a = random_games(6, 501, 14);
    let games_b = random_games(6, 502, 14);
    for g in &games_a {
        a.add_game(g).unwrap();
    }
    for g in &games_b {
        b.add_game(g).unwrap();
    }
    value(&mut a);
    value(&mut b);
    a.publish(&path).unwrap();
    b.publish(&path).unwrap();
    let book = Book::open(&path, Verify::Full).unwrap();
    let merged = BookBuilder::from_book(&book).unwrap();
    for (key, _) in a.sorted_nodes().iter().chain(b.sorted_nodes().iter()) {
        assert!(merged.node(key).is_some(), "\n{}", key.diagram());
    }
    // Every game's positions are played positions of the published book.
    for g in games_a.iter().chain(&games_b) {
        let mut board = Board::START;
        for &m in g {
            board = board.apply(m).unwrap();
            if let Some((n, _)) = normalize(&board).filter(|(n, _)| n.empty_count() >= 44) {
                assert!(merged.node_of(&n).unwrap().is_played());
            }
        }
    }
    // A book built afresh replaces the file rather than merging with it.
    let mut fresh = BookBuilder::new(44);
    fresh.add_game(&games_a[0]).unwrap();
    value(&mut fresh);
    fresh.publish(&path).unwrap();
    assert_eq!(
        Book::open(&path, Verify::Full).unwrap().len() as usize,
        fresh.len()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Calls `visit` on `board` and every position within `moves` moves of it, passes included
/// (a plain walk, the oracle for `excerpt::collect`).
fn walk_within(board: Board, moves: u32, visit: &mut dyn FnMut(Board)) {
    visit(board);
    if board.is_game_over() {
        return;
    }
    if board.legal_moves() == 0 {
        let passed = board.pass();
        visit(passed);
        if moves > 0 {
            for sq in crate::board::Squares(passed.legal_moves()) {
                walk_within(passed.play_flips(sq, passed.flips(sq)), moves - 1, visit);
            }
        }
        return;
    }
    if moves > 0 {
        for sq in crate::board::Squares(board.legal_moves()) {
            walk_within(board.play_flips(sq, board.flips(sq)), moves - 1, visit);
        }
    }
}

#[test]
fn an_excerpt_answers_like_the_whole_book_within_its_reach() {
    let b = sample_book();
    let (mut compared, mut below_root) = (0, 0);
    let played: Vec<Board> = b
        .sorted_nodes()
        .into_iter()
        .filter(|(_, n)| n.is_played())
        .map(|(k, _)| k)
        .collect();
    assert!(played.len() >= 20, "{} played positions", played.len());
    for key in played.iter().take(20) {
        // The key and one of its other orientations: the search meets both.
        for root in [*key, key.transform(Symmetry::ALL[5])] {
            let excerpt = BookExcerpt::around(&b, &root);
            assert_eq!(excerpt.min_empties(), b.min_empties());
            walk_within(root, excerpt::REACH, &mut |board| {
                let hit = b.lookup(&board);
                assert_eq!(excerpt.lookup(&board), hit, "{}", board.diagram());
                compared += 1;
                below_root += usize::from(board != root && hit.is_some());
            });
        }
    }
    assert!(compared > 10_000, "{compared}");
    assert!(
        below_root > 100,
        "{below_root} stored positions below the roots"
    );
    // Beyond its reach an excerpt knows nothing.
    let far = BookExcerpt::around(&b, &Board::START);
    let deep = played
        .iter()
        .find(|k| k.empty_count() <= 56)
        .expect("a deeper position");
    assert_eq!(far.lookup(deep), None);
}

#[test]
fn local_threads_answer_every_request_in_order_with_any_thread_count() {
    use std::sync::atomic::{AtomicUsize, Ordering};

    let mut rng = Rng::new(5);
    let requests: Vec<ValuationRequest> = (0..23)
        .map(|_| {
            let mut b = Board::START;
            for _ in 0..8 {
                b = b.apply(b.random_move(&mut rng).unwrap()).unwrap();
            }
            ValuationRequest {
                board: b,
                allowed: b.legal_moves(),
                exact: false,
                excerpt: BookExcerpt::from_parts(0, Vec::new()),
            }
        })
        .collect();
    let direct: Vec<_> = requests
        .iter()
        .map(|q| q.value(&mut Hashed::new(17, false)))
        .collect();
    for threads in [1, 3, 64] {
        let done = AtomicUsize::new(0);
        let mut pool = LocalThreads {
            make: &|| Hashed::new(17, false),
            threads,
        };
        let got = pool.value_level(&requests, &|| {
            done.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(got, direct, "{threads} threads");
        assert_eq!(done.into_inner(), requests.len());
        assert!(pool.failure().is_none());
    }
}
