//! What GUIs and referees read from the protocols, checked the way they read it: GoGui's
//! framing of GTP answers (board rows after `= `), a gogui-twogtp game ended by two passes,
//! NBoard hints and book lines from a small test book, and the console and GTP in book
//! positions. Sessions run in-process through the real driver and engine worker.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;
use wedge_core::board::{Board, Move, Square, Squares};
use wedge_core::book::Node;
use wedge_core::book::{BookBuilder, Verify};
use wedge_core::eval::Heuristic;
use wedge_core::search::Searcher;
use wedge_engine::protocol::console::Console;
use wedge_engine::protocol::gtp::Gtp;
use wedge_engine::protocol::nboard::Nboard;
use wedge_engine::protocol::SharedBuffer;
use wedge_engine::protocol::{Driver, Input};
use wedge_engine::protocol::{Output, Protocol};
use wedge_engine::{BookSetting, Engine, EngineOptions, Event};

/// One in-process session: each line is answered completely before `send` returns.
struct Session<P: Protocol> {
    driver: Driver<P>,
    events: mpsc::Receiver<Event>,
    out: SharedBuffer,
    seen: usize,
}

impl<P: Protocol> Session<P> {
    fn new(proto: P, book: Option<&Path>) -> Session<P> {
        let (tx, events) = mpsc::channel();
        let options = EngineOptions {
            zero_times: true,
            book: book.map(|p| BookSetting {
                path: p.to_path_buf(),
                verify: Verify::Full,
            }),
            ..Default::default()
        };
        let engine = Engine::new(
            Searcher::new(Arc::new(Heuristic), 4, 1),
            options,
            Box::new(move |e| {
                let _ = tx.send(e);
            }),
        );
        let (output, out) = Output::buffer();
        let mut s = Session {
            driver: Driver::new(proto, engine, output),
            events,
            out,
            seen: 0,
        };
        s.take();
        s
    }

    /// Sends `line` and returns everything written until the engine is idle again.
    fn send(&mut self, line: &str) -> String {
        self.driver.push(Input::Line(line.to_string()));
        loop {
            self.driver.pump();
            if !self.driver.is_busy() {
                break;
            }
            let e = self
                .events
                .recv_timeout(Duration::from_secs(120))
                .expect("the engine answers");
            self.driver.event(e);
        }
        self.take()
    }

    /// The output not read yet.
    fn take(&mut self) -> String {
        let text = self.out.text();
        let new = text[self.seen..].to_string();
        self.seen = text.len();
        new
    }
}

/// A GTP answer as GoGui's client reads it: the text after the first space of the whole
/// answer (or after the `=`/`?` when there is none), without the closing blank line.
fn gogui_response(answer: &str) -> (bool, String) {
    assert!(answer.ends_with("\n\n"), "unterminated answer {answer:?}");
    let body = &answer[..answer.len() - 2];
    let ok = body.starts_with('=');
    assert!(ok || body.starts_with('?'), "not an answer: {answer:?}");
    let text = match body.find(' ') {
        Some(i) => &body[i + 1..],
        None => &body[1..],
    };
    (ok, text.to_string())
}

/// The rows GoGui reads from `gogui-rules_board`: one string of `X`/`O`/`.` per line (other
/// characters ignored, as GoGui does).
fn gogui_rows(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.chars().filter(|c| matches!(c, 'X' | 'O' | '.')).collect())
        .collect()
}

fn sq(name: &str) -> Square {
    name.parse().expect("square")
}

fn mv_name(m: Move) -> String {
    m.to_string().to_ascii_uppercase()
}

#[test]
fn gogui_reads_eight_full_rows_from_the_rules_board() {
    let mut s = Session::new(Gtp::new(2), None);
    let (ok, id) = gogui_response(&s.send("gogui-rules_game_id"));
    assert!(ok);
    assert_eq!(id, "Othello");

    // GoGui's first line is row 8, its last row 1.
    let start = [
        "........", "........", "........", "...XO...", "...OX...", "........", "........",
        "........",
    ];
    let (ok, board) = gogui_response(&s.send("gogui-rules_board"));
    assert!(ok);
    assert_eq!(gogui_rows(&board), start, "{board:?}");

    assert_eq!(s.send("play black d3"), "=\n\n");
    let after_d3 = [
        "........", "........", "........", "...XO...", "...XX...", "...X....", "........",
        "........",
    ];
    let (ok, board) = gogui_response(&s.send("12 gogui-rules_board"));
    assert!(ok);
    assert_eq!(gogui_rows(&board), after_d3, "{board:?}");

    // The other multi-line answers start on the first line too.
    let (ok, drawing) = gogui_response(&s.send("showboard"));
    assert!(ok);
    assert_eq!(drawing.lines().next(), Some("  a b c d e f g h"));
    assert_eq!(drawing.lines().count(), 11, "{drawing}");
    let (ok, analysis) = gogui_response(&s.send("wedge-analyze depth 2"));
    assert!(ok);
    let lines: Vec<&str> = analysis.lines().collect();
    assert_eq!(lines.len(), 3, "{analysis}");
    assert!(
        lines[0].starts_with("info depth 1@99% score "),
        "{analysis}"
    );
    assert!(
        lines[1].starts_with("info depth 2@99% score "),
        "{analysis}"
    );
    assert!(lines[2].starts_with("best "), "{analysis}");
}

#[test]
fn final_score_is_the_disc_count_during_the_game_and_the_result_at_its_end() {
    let mut s = Session::new(Gtp::new(2), None);
    assert_eq!(s.send("final_score"), "= 0\n\n");
    s.send("play black f5");
    // Black 4, White 1.
    assert_eq!(s.send("final_score"), "= B+3\n\n");
    s.send("play white f6");
    assert_eq!(s.send("final_score"), "= 0\n\n");
    s.send("play black e6");
    s.send("play white f4");
    // Black 3 (d5 e5 e6), White 5 (d4 e4 f4 f5 f6).
    assert_eq!(s.send("final_score"), "= W+2\n\n");
    // A shortest game: nine moves, Black wins 13-0, +64 with the 51 empties.
    let mut g = Session::new(Gtp::new(2), None);
    for (i, m) in ["d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4"]
        .iter()
        .enumerate()
    {
        let colour = if i % 2 == 0 { "black" } else { "white" };
        assert_eq!(
            g.send(&format!("play {colour} {m}")),
            "=\n\n",
            "{colour} {m}"
        );
    }
    assert_eq!(g.send("gogui-rules_legal_moves"), "=\n\n");
    assert_eq!(g.send("final_score"), "= B+64\n\n");
}

#[test]
fn a_twogtp_game_ends_with_two_passes_both_engines_accept() {
    // gogui-twogtp asks each engine for its move and plays it on the other one, until both
    // pass in a row; every answer must be a success.
    let mut engines = [
        Session::new(Gtp::new(1), None),
        Session::new(Gtp::new(1), None),
    ];
    let colours = ["black", "white"];
    let mut turn = 0;
    let mut passes_in_a_row = 0;
    let mut moves = Vec::new();
    while passes_in_a_row < 2 {
        assert!(moves.len() < 130, "the game does not end: {moves:?}");
        let (ok, mv) = gogui_response(&engines[turn].send(&format!("genmove {}", colours[turn])));
        assert!(ok, "genmove {} after {moves:?}: {mv}", colours[turn]);
        let answer = engines[1 - turn].send(&format!("play {} {mv}", colours[turn]));
        assert_eq!(
            answer, "=\n\n",
            "play {} {mv} after {moves:?}",
            colours[turn]
        );
        passes_in_a_row = if mv == "PASS" { passes_in_a_row + 1 } else { 0 };
        moves.push(mv);
        turn = 1 - turn;
    }
    // Both engines see the same finished game and score it alike.
    let scores: Vec<String> = engines.iter_mut().map(|e| e.send("final_score")).collect();
    assert_eq!(scores[0], scores[1]);
    for e in &mut engines {
        assert_eq!(e.send("gogui-rules_legal_moves"), "=\n\n");
        let (ok, result) = gogui_response(&e.send("gogui-rules_final_result"));
        assert!(
            ok && result.contains("wins") || result.starts_with("draw"),
            "{result}"
        );
    }
    // A referee that sends one more pass is still answered.
    assert_eq!(engines[0].send("play white pass"), "=\n\n");
    assert_eq!(engines[0].send("genmove black"), "= PASS\n\n");
}

/// A temporary directory removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let d = std::env::temp_dir().join(format!("wedge-conv-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&d).expect("temporary directory");
        TempDir(d)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The position after f5 d6 (Black to move) and its legal moves.
fn f5_d6() -> (Board, Vec<Square>) {
    let b = Board::START
        .apply(Move::Play(sq("f5")))
        .and_then(|b| b.apply(Move::Play(sq("d6"))))
        .expect("legal");
    (b, Squares(b.legal_moves()).collect())
}

/// A book holding the start position as a leaf (a value, no book move) and the position after
/// f5 d6 as a leaf whose first two moves lead to book positions: the first searched to depth
/// 11 (7 games), the second solved (124,106 games, above the 16-bit ceiling of format version 1).
fn test_book(dir: &Path) -> PathBuf {
    let (b, moves) = f5_d6();
    let (first, second) = (moves[0], moves[1]);
    let child = |s: Square| b.play_flips(s, b.flips(s));
    assert_ne!(child(first).canonical(), child(second).canonical());
    let mut builder = BookBuilder::new(40);
    builder.insert(&Board::START, Node::leaf(0, 12, false));
    // Values for the side to move after the move (White): the first is +3 for Black.
    builder.insert(
        &child(first),
        Node {
            games: 7,
            ..Node::leaf(-3, 11, false)
        },
    );
    builder.insert(
        &child(second),
        Node {
            games: 124_106,
            ..Node::leaf(1, 12, true)
        },
    );
    builder.insert(&b, Node::leaf(3, 12, false));
    let path = dir.join("test.book");
    builder.publish(&path).expect("publish the test book");
    path
}

const NBOARD_START: &str = "set game (;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)";
const NBOARD_F5_D6: &str = "set game (;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6];)";

/// The `search` lines of the last complete list (the lines before the last `nodestats`).
fn last_search_list(out: &str) -> Vec<String> {
    let lines: Vec<&str> = out.lines().collect();
    let end = lines
        .iter()
        .rposition(|l| l.starts_with("nodestats"))
        .expect("a nodestats line");
    let start = lines[..end]
        .iter()
        .rposition(|l| !l.starts_with("search "))
        .map_or(0, |i| i + 1);
    lines[start..end].iter().map(|l| l.to_string()).collect()
}

/// The move (first PV move) of a `search` or `book` line.
fn line_move(l: &str) -> String {
    let pv = l.split_whitespace().nth(1).expect("a pv");
    pv[..2].to_string()
}

#[test]
fn nboard_hint_4_in_a_book_leaf_searches_the_four_moves() {
    let dir = TempDir::new("leaf");
    let book = test_book(&dir.0);
    let mut s = Session::new(Nboard::new(), Some(&book));
    s.send("nboard 2");
    s.send("set depth 3");
    s.send(NBOARD_START);
    assert_eq!(s.send("ping 1"), "pong 1\n");
    let out = s.send("hint 4");
    assert!(out.starts_with("status Analyzing\n"), "{out}");
    assert!(out.ends_with("\nstatus\n"), "{out}");
    let list = last_search_list(&out);
    let mut moves: Vec<String> = list.iter().map(|l| line_move(l)).collect();
    moves.sort();
    assert_eq!(moves, ["C4", "D3", "E6", "F5"], "{out}");
    assert!(list.iter().all(|l| l.ends_with(" 0 3")), "{out}");
}

#[test]
fn nboard_book_lines_carry_the_book_depth_and_the_search_completes_the_hint() {
    let dir = TempDir::new("depth");
    let book = test_book(&dir.0);
    let (_, moves) = f5_d6();
    let (first, second) = (mv_name(Move::Play(moves[0])), mv_name(Move::Play(moves[1])));
    let mut s = Session::new(Nboard::new(), Some(&book));
    s.send("nboard 2");
    s.send("set depth 3");
    s.send(NBOARD_F5_D6);
    s.send("ping 1");
    // Two moves asked, two in the book: the book answers alone, best first. The first was
    // searched to 11 plies after the move (12 from here), the second is solved.
    assert_eq!(
        s.send("hint 2"),
        format!(
            "status Analyzing\nbook {first} +3.00 7 12\nbook {second} -1.00 124106 100%\nstatus\n"
        )
    );
    // Four asked: the book's two, then the search values two of the others.
    let out = s.send("hint 4");
    let book_lines: Vec<&str> = out.lines().filter(|l| l.starts_with("book ")).collect();
    assert_eq!(
        book_lines,
        [
            format!("book {first} +3.00 7 12"),
            format!("book {second} -1.00 124106 100%")
        ],
        "{out}"
    );
    let list = last_search_list(&out);
    assert_eq!(list.len(), 2, "{out}");
    for l in &list {
        let m = line_move(l);
        assert!(m != first && m != second, "{out}");
    }
    // go plays the book's best move with its value.
    let out = s.send("go");
    assert!(out.contains(&format!("=== {first}/3.00/")), "{out}");
}

#[test]
fn gtp_analysis_and_console_say_when_the_book_answers() {
    let dir = TempDir::new("console");
    let book = test_book(&dir.0);
    let (b, moves) = f5_d6();
    let (first, second) = (Move::Play(moves[0]), Move::Play(moves[1]));

    let mut g = Session::new(Gtp::new(3), Some(&book));
    g.send("play black f5");
    g.send("play white d6");
    assert_eq!(
        g.send("wedge-analyze depth 4"),
        format!(
            "= info depth 12 score +3 move {m} pv {m} nodes 0 time 0 book\nbest {m} score +3 depth 12 book\n\n",
            m = mv_name(first)
        )
    );

    let mut c = Session::new(Console::new(3), Some(&book));
    c.send("f5");
    c.send("d6");
    assert_eq!(
        c.send("think"),
        format!("book {first} +3 (depth 12, 7 games)\ndone: book {first} +3 (depth 12, 7 games)\n")
    );
    // tree: every legal move once, the book's two marked as such, best first.
    let out = c.send("tree 2");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), moves.len(), "{out}");
    assert_eq!(
        lines[0],
        format!("book {first} +3 (depth 12, 7 games)"),
        "{out}"
    );
    assert!(
        lines.contains(&format!("book {second} -1 (solved, 124106 games)").as_str()),
        "{out}"
    );
    let mut listed: Vec<String> = lines
        .iter()
        .map(|l| {
            let l = l.strip_prefix("book ").unwrap_or(l);
            l.split_whitespace().next().unwrap_or("").to_string()
        })
        .collect();
    listed.sort();
    let mut legal: Vec<String> = Squares(b.legal_moves()).map(|s| s.to_string()).collect();
    legal.sort();
    assert_eq!(listed, legal, "{out}");
    assert!(!out.contains("(stopped)"), "{out}");
}
