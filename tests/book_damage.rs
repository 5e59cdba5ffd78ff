//! A book whose records were damaged, opened with `--book-trust` (the table's checksum is not
//! checked): `book stats` and `book probe` never panic, and the engine never answers an
//! illegal move from it. Damaged records are ignored and reported.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{mpsc, Arc};
use std::time::Duration;
use wedge_core::board::{Board, Move, Square};
use wedge_core::book::HEADER_SIZE;
use wedge_core::book::RECORD_SIZE;
use wedge_core::book::{Book, BookBuilder, Verify};
use wedge_core::eval::Heuristic;
use wedge_core::rng::Rng;
use wedge_core::search::{Limits, Searcher};
use wedge_engine::{BookSetting, Engine, EngineOptions, Event, Outcome, Task};

mod common;
use common::FakeValuer;

/// Random openings of `plies` plies.
fn games(n: usize, seed: u64, plies: usize) -> Vec<Vec<Move>> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let mut b = Board::START;
            let mut v = Vec::new();
            for _ in 0..plies {
                let Some(m) = b.random_move(&mut rng) else {
                    break;
                };
                b = b.apply(m).unwrap();
                v.push(m);
            }
            v
        })
        .collect()
}

/// Every position along the games, the start first.
fn positions(games: &[Vec<Move>]) -> Vec<Board> {
    let mut out = vec![Board::START];
    for g in games {
        let mut b = Board::START;
        for &m in g {
            if matches!(m, Move::Play(_)) && b.legal_moves() == 0 {
                b = b.pass();
            }
            b = b.apply(m).unwrap();
            if b.legal_moves() != 0 {
                out.push(b);
            }
        }
    }
    out
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let d = std::env::temp_dir().join(format!("wedge-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        TempDir(d)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The byte offsets of the stored records of a book image.
fn record_offsets(image: &[u8]) -> Vec<usize> {
    (HEADER_SIZE..image.len())
        .step_by(RECORD_SIZE)
        .filter(|&at| image[at..at + 16].iter().any(|&b| b != 0))
        .collect()
}

/// The image with its records damaged: the start position's best reply made an occupied
/// square, one key made a position with 63 empties, and random bytes over a quarter of the
/// others (whole records, single bytes, and move bytes set to any square).
fn damaged(good: &[u8], seed: u64) -> Vec<u8> {
    let mut bad = good.to_vec();
    let offsets = record_offsets(good);
    let start = Board::START.canonical().0;
    let mut rng = Rng::new(seed);
    for (i, &at) in offsets.iter().enumerate() {
        let slot = &mut bad[at..at + RECORD_SIZE];
        let key = Board::new(
            u64::from_le_bytes(slot[0..8].try_into().unwrap()),
            u64::from_le_bytes(slot[8..16].try_into().unwrap()),
        );
        if key == start {
            // First child: d4 (square 27), occupied in every position.
            slot[23] = slot[23].max(1);
            slot[26] = 27;
            continue;
        }
        if i == 1 {
            slot[0..8].copy_from_slice(&0u64.to_le_bytes());
            slot[8..16].copy_from_slice(&1u64.to_le_bytes());
            continue;
        }
        match rng.below(8) {
            0 => slot.iter_mut().for_each(|b| *b = rng.next_u64() as u8),
            1 => slot[rng.below(RECORD_SIZE as u64) as usize] = rng.next_u64() as u8,
            2 => slot[19] = rng.below(64) as u8,
            3 => slot[26 + 2 * rng.below(3) as usize] = rng.below(64) as u8,
            4 => slot[23] = rng.below(4) as u8,
            5 => slot[16 + rng.below(16) as usize] ^= 1 << rng.below(8),
            _ => {}
        }
    }
    bad
}

/// Runs a `wedge` command; its exit code, stdout and stderr.
fn wedge(args: &[&str], book: &Path) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(args)
        .arg("--book-trust")
        .arg("--book")
        .arg(book)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The engine's move for each board, searched with the damaged book (table not checked).
fn engine_moves(book: &Path, boards: &[Board]) -> Vec<Move> {
    let (tx, rx) = mpsc::channel();
    let mut engine = Engine::new(
        Searcher::new(Arc::new(Heuristic), 1, 1),
        EngineOptions {
            zero_times: true,
            book: Some(BookSetting {
                path: book.to_path_buf(),
                verify: Verify::HeaderOnly,
            }),
            ..Default::default()
        },
        Box::new(move |e| {
            let _ = tx.send(e);
        }),
    );
    let mut moves = Vec::new();
    for board in boards {
        let limits = Limits::depth(2);
        engine
            .submit(
                Task::Search {
                    board: *board,
                    limits,
                },
                false,
            )
            .unwrap();
        loop {
            match rx
                .recv_timeout(Duration::from_secs(120))
                .expect("an answer")
            {
                Event::Done {
                    outcome: Outcome::Best(r),
                    ..
                } => {
                    moves.push(r.best);
                    break;
                }
                Event::Done { outcome, .. } => panic!("{outcome:?}"),
                _ => {}
            }
        }
    }
    moves
}

#[test]
fn a_damaged_book_read_without_its_checksum_never_panics_nor_gives_an_illegal_move() {
    let dir = TempDir::new("book-damage");
    let lines = games(40, 17, 12);
    let mut builder = BookBuilder::new(48);
    for g in &lines {
        builder.add_game(g).unwrap();
    }
    builder.sweep(Some(&|| FakeValuer), 1, &|_, _| {});
    let good_path = dir.0.join("good.book");
    builder.publish(&good_path).unwrap();
    let good = std::fs::read(&good_path).unwrap();
    let boards = positions(&lines);
    for seed in 0..6 {
        let path = dir.0.join(format!("damaged-{seed}.book"));
        std::fs::write(&path, damaged(&good, seed)).unwrap();
        let book = Book::open(&path, Verify::HeaderOnly).expect("the header is whole");
        // Every probe that answers gives legal moves only.
        for b in &boards {
            if let Some(p) = book.probe(b) {
                for r in p.replies() {
                    assert!(
                        b.legal_moves() & r.sq.bit() != 0,
                        "{} in\n{}",
                        r.sq,
                        b.diagram()
                    );
                }
            }
        }
        // Damaged records are counted, never trusted.
        let damaged_records = book.records().filter(Result::is_err).count();
        assert!(damaged_records >= 2, "{damaged_records}");
        assert!(book.probe(&Board::START).is_none());
        // The engine's moves are legal.
        for (b, mv) in boards.iter().zip(engine_moves(&path, &boards)) {
            let legal = match mv {
                Move::Play(sq) => b.legal_moves() & sq.bit() != 0,
                Move::Pass => b.legal_moves() == 0,
            };
            assert!(legal, "{mv:?} in\n{}", b.diagram());
        }
        if seed < 2 {
            let (code, out, err) = wedge(&["book", "stats"], &path);
            assert_eq!(code, Some(0), "{out}{err}");
            assert!(out.contains("damaged records: "), "{out}");
            assert!(!err.contains("panicked"), "{err}");
            for position in ["f5", "f5d6", "f5f6e6"] {
                let (code, out, err) = wedge(&["book", "probe", position], &path);
                assert_eq!(code, Some(0), "{out}{err}");
                assert!(!err.contains("panicked"), "{err}");
            }
            let (_, out, _) = wedge(&["book", "probe", "f5"], &path);
            for line in out.lines().filter(|l| l.starts_with("  ")) {
                let sq: Square = line.split_whitespace().next().unwrap().parse().unwrap();
                let f5 = Board::START
                    .apply(Move::Play("f5".parse().unwrap()))
                    .unwrap();
                assert!(f5.legal_moves() & sq.bit() != 0, "{out}");
            }
        }
    }
}

/// Runs `wedge nboard` with `args` on a script of several searches from the start; its stderr.
fn nboard_searches(dir: &Path, args: &[&std::ffi::OsStr]) -> String {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(["nboard", "--hash", "1"])
        .args(args)
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("HOME", dir.join("home"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let game = "set game (;GM[Othello]PC[t]PB[a]PW[b]RE[?]TI[5:00]TY[8]\
BO[8 ---------------------------O*------*O--------------------------- *];)\n";
    let script = format!("nboard 2\nset depth 1\n{game}go\ngo\nhint 2\ngo\nping 1\nquit\n");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.matches("=== ").count(), 3, "{stdout}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_bad_book_is_reported_once_naming_the_file() {
    let dir = TempDir::new("book-once");
    let mut builder = BookBuilder::new(48);
    for g in &games(20, 3, 10) {
        builder.add_game(g).unwrap();
    }
    builder.sweep(Some(&|| FakeValuer), 1, &|_, _| {});
    let good_path = dir.0.join("good.book");
    builder.publish(&good_path).unwrap();
    let good = std::fs::read(&good_path).unwrap();
    let bad = dir.0.join("bad.book");
    std::fs::write(&bad, damaged(&good, 9)).unwrap();
    let name = bad.display().to_string();
    // Checked: the table's checksum fails, once for the file's version, not once a search.
    let err = nboard_searches(&dir.0, &["--book".as_ref(), bad.as_os_str()]);
    let lines: Vec<&str> = err.lines().filter(|l| l.contains(&name)).collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].contains("table checksum mismatch"), "{err}");
    // Trusted: the damaged records met are reported once for the open book.
    let err = nboard_searches(
        &dir.0,
        &["--book".as_ref(), bad.as_os_str(), "--book-trust".as_ref()],
    );
    let lines: Vec<&str> = err.lines().filter(|l| l.contains(&name)).collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].contains("damaged record is ignored"), "{err}");
    // A directory given as the book says so.
    let err = nboard_searches(&dir.0, &["--book".as_ref(), dir.0.as_os_str()]);
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("book")).collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0].contains(&format!(
            "cannot read the book {}: it is a directory, not a regular file",
            dir.0.display()
        )),
        "{err}"
    );
}
