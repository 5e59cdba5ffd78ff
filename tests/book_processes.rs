//! The book across processes: several engine processes read one book file at once while a
//! writer republishes it, and an NBoard engine answers from the book.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use wedge::board::{Board, Move, Square};
use wedge::book::{BookBuilder, BookLookup, Valuation, Valuer};
use wedge::rng::Rng;

struct FakeValuer;

impl Valuer for FakeValuer {
    fn best_of(
        &mut self,
        board: &Board,
        allowed: u64,
        _exact: bool,
        _book: &dyn BookLookup,
    ) -> Option<Valuation> {
        Some(Valuation {
            sq: Square::first_of(allowed)?,
            value: (board.hash() % 9) as i32 - 4,
            depth: 8,
            exact: false,
        })
    }
}

fn games(n: usize, seed: u64) -> Vec<Vec<Move>> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let mut b = Board::START;
            let mut v = Vec::new();
            for _ in 0..12 {
                let Some(m) = rng.random_move(&b) else { break };
                b = b.apply(m).unwrap();
                v.push(m);
            }
            v
        })
        .collect()
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wedge-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn build(path: &Path, n: usize, seed: u64) -> BookBuilder {
    let mut b = BookBuilder::new(46);
    for g in games(n, seed) {
        b.add_game(&g).unwrap();
    }
    b.sweep(Some(&|| FakeValuer), 1, &|_, _| {});
    b.publish(path).unwrap();
    b
}

/// Runs `wedge nboard` on `book` with `script` as its input; its output.
fn nboard(book: &Path, script: &[u8]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(["nboard", "--hash", "1", "--book"])
        .arg(book)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(script).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn several_processes_read_one_book_while_it_is_republished() {
    let dir = temp_dir("book-procs");
    let path = dir.join("shared.book");
    let mut b = build(&path, 30, 1);
    let readers: Vec<_> = (0..4)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_wedge"))
                .args(["book", "bench", "--probes", "20000", "--book"])
                .arg(&path)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for (i, g) in games(40, 2).iter().enumerate() {
        b.add_game(g).unwrap();
        b.sweep(Some(&|| FakeValuer), 1, &|_, _| {});
        b.info.description = format!("version {i}");
        b.publish(&path).unwrap();
    }
    for r in readers {
        let out = r.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{text} {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("probe of a stored position"), "{text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_nboard_engine_plays_and_hints_from_the_book() {
    let dir = temp_dir("book-nboard");
    let path = dir.join("play.book");
    let b = build(&path, 30, 3);
    let f5 = Board::START
        .apply(Move::Play(Square::from_coords(5, 4).unwrap()))
        .unwrap();
    let node = b
        .node_of(&f5)
        .expect("every game starts with a move equivalent to f5");
    let text = nboard(
        &path,
        b"nboard 2\nset depth 2\nset game (;GM[Othello]PC[t]PB[a]PW[b]RE[?]TI[5:00]TY[8]\
BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)\n\
hint 3\ngo\nping 1\nquit\n",
    );
    let book_lines: Vec<&str> = text.lines().filter(|l| l.starts_with("book ")).collect();
    assert!(!book_lines.is_empty(), "{text}");
    // The best book line carries the position's value, from the side to move (White).
    let value = node.value as f64;
    assert!(
        book_lines[0].contains(&format!(" {value:+.2} ")),
        "{book_lines:?} vs {value}"
    );
    let go = text
        .lines()
        .find(|l| l.starts_with("=== "))
        .expect("a move");
    let best_move = book_lines[0].split_whitespace().nth(1).unwrap();
    assert!(
        go.starts_with(&format!("=== {best_move}/")),
        "{go} vs {best_move}"
    );
    assert!(text.contains("pong 1"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn nboard_learn_adds_the_game_and_republishes_the_book() {
    let dir = temp_dir("book-learn");
    let path = dir.join("learn.book");
    let before = build(&path, 5, 9).len();
    // A game none of the random book games played: f5 f4 e3 f6 d3 (then learn).
    let text = nboard(
        &path,
        b"nboard 2\nset depth 2\nset game (;GM[Othello]PC[t]PB[a]PW[b]RE[?]TI[5:00]TY[8]\
BO[8 ---------------------------O*------*O--------------------------- *]\
B[F5]W[F4]B[E3]W[F6]B[D3];)\nlearn\nping 1\nquit\n",
    );
    let learned = text.lines().position(|l| l == "learned").expect("learned");
    let pong = text.lines().position(|l| l == "pong 1").expect("pong");
    assert!(learned < pong, "{text}");
    let book = wedge::book::Book::open(&path, wedge::book::Verify::Full).unwrap();
    assert!(book.len() as usize > before, "{} -> {}", before, book.len());
    let end = ["f5", "f4", "e3", "f6", "d3"]
        .iter()
        .fold(Board::START, |b, m| {
            b.apply(Move::Play(m.parse().unwrap())).unwrap()
        });
    let p = book.probe(&end).expect("the learnt game's last position");
    assert!(p.valued && p.games >= 1);
    std::fs::remove_dir_all(&dir).unwrap();
}
