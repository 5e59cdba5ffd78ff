//! `wedge review` end to end: a constructed game with one blunder at 18 empties reviewed
//! against independent solves (`wedge solve` on every position), its JSON and its page (no
//! outside resource, one graph point per move, positions that replay), the book's answers
//! against the book's own records, a match's GGF file, and inputs that cannot be reviewed.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;
use wedge_core::board::{Board, Move, Squares};
use wedge_core::formats::{
    format_ggf, format_obf_line, format_position, parse_position, parse_transcript, Game, GgfGame,
    ObfEntry, PassPolicy, Position,
};
use wedge_core::search::{solve_root, TranspositionTable};

const WEDGE: &str = env!("CARGO_BIN_EXE_wedge");

/// A directory removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("wedge-review-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn file(&self, name: &str, contents: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, contents).unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn wedge(args: &[&str]) -> Output {
    Command::new(WEDGE).args(args).output().unwrap()
}

/// `wedge --hash 64 [--no-book] review ARGS` (the shipped book unless `no_book`).
fn review(no_book: bool, args: &[&str]) -> Output {
    let book: &[&str] = if no_book { &["--no-book"] } else { &[] };
    wedge(&[book, &["--hash", "64", "review"], args].concat())
}

/// What a `--json` review printed.
fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).expect("--json prints JSON")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Exact values by the library's solver (one thread, a table of its own).
struct Solver {
    tt: TranspositionTable,
    eval: wedge_core::eval::PatternEval,
}

impl Solver {
    fn new() -> Solver {
        let weights = wedge_core::eval::default_weights_path().expect("the shipped weights");
        Solver {
            tt: TranspositionTable::new(64),
            eval: wedge_core::eval::PatternEval::load(&weights).unwrap(),
        }
    }

    /// The exact value of `board` for its side to move.
    fn value(&self, board: &Board) -> i32 {
        let never = AtomicBool::new(false);
        solve_root(board, -64, 64, &self.tt, &self.eval, &never).score
    }
}

/// 38 moves of a game of the WTHOR 2000 file: 22 empties left, Black to move.
const OPENING: &str =
    "f5f6e6f4g5d6e7g4f3h5e3d3h3h4h6d7c4g6c3g2g3f2e2c5d2d1b6b5h1h2e1c1c2f7a6a5a4b4";

/// A game from the position after [`OPENING`] where both sides play a best move by exact
/// solve (the first in square order among equals), except at 18 empties, where the side to
/// move plays its worst move (the first among equals). Returns the game and the index of
/// that move.
fn game_with_a_blunder(solver: &Solver) -> (Game, usize) {
    let moves = parse_transcript(OPENING).unwrap();
    let opening = Game::from_moves(Position::START, moves, PassPolicy::Infer).unwrap();
    let start = opening.position();
    assert_eq!(start.board.empty_count(), 22);
    let mut game = Game::new(start);
    let mut blunder = None;
    while !game.is_over() {
        let pos = game.position();
        if pos.board.legal_moves() == 0 {
            game.play(Move::Pass).unwrap();
            continue;
        }
        let valued: Vec<(i32, Move)> = Squares(pos.board.legal_moves())
            .map(|sq| {
                let child = pos.board.play(sq).unwrap();
                (-solver.value(&child), Move::Play(sq))
            })
            .collect();
        let worst_now = pos.board.empty_count() == 18 && blunder.is_none();
        let pick = if worst_now {
            blunder = Some(game.moves().len());
            valued.iter().min_by_key(|(v, _)| *v)
        } else {
            valued.iter().rev().max_by_key(|(v, _)| *v)
        };
        game.play(pick.unwrap().1).unwrap();
    }
    (game, blunder.expect("a move at 18 empties"))
}

/// Every position's exact value by `wedge solve` on an OBF file of them, in order.
fn solved_by_wedge_solve(dir: &Scratch, boards: &[Position]) -> Vec<i32> {
    let lines: String = boards
        .iter()
        .map(|p| {
            let entry = ObfEntry {
                position: *p,
                moves: Vec::new(),
                score: None,
            };
            format_obf_line(&entry) + "\n"
        })
        .collect();
    let obf = dir.file("positions.obf", &lines);
    let out = wedge(&["--no-book", "--hash", "64", "solve", obf.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let values: Vec<i32> = stdout
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with("total"))
        .map(|l| l.split_whitespace().nth(4).unwrap().parse().unwrap())
        .collect();
    assert_eq!(values.len(), boards.len(), "{stdout}");
    values
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn moves_of(v: &Value) -> Vec<Move> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().parse().unwrap())
        .collect()
}

/// Plays `line` from `board`, every move legal in turn (a pass only where forced).
#[track_caller]
fn assert_legal_line(board: &Board, line: &[Move]) {
    let mut b = *board;
    for (i, &mv) in line.iter().enumerate() {
        assert!(!b.is_game_over(), "move {i} of {line:?} after the end");
        b = b
            .apply(mv)
            .unwrap_or_else(|_| panic!("move {i} of {line:?} is illegal"));
    }
}

/// The page is self-contained (nothing fetched: no `src`, `href`, `url(`, `@import` or
/// address), carries `json` as its data, has one graph point per move of each game, and
/// the boards its data shows replay legally from each game's start with its moves.
fn check_page(html: &str, json: &Value) {
    let lower = html.to_ascii_lowercase();
    for outside in [
        "http:", "https:", "src=", "href=", "url(", "@import", "<link", "<iframe", "<img",
    ] {
        assert!(!lower.contains(outside), "the page holds {outside:?}");
    }
    // Two scripts, both inline: the data block and the page's code.
    assert_eq!(html.matches("<script").count(), 2);
    assert_eq!(html.matches("<script>").count(), 1);
    let open = "<script type=\"application/json\" id=\"review-data\">";
    let start = html.find(open).expect("the data block") + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    let data: Value = serde_json::from_str(&html[start..end]).expect("the data block is JSON");
    assert_eq!(&data, json, "the page carries what --json prints");
    for (g, game) in data["games"].as_array().unwrap().iter().enumerate() {
        let moves = game["moves"].as_array().unwrap();
        // The graph of game g: one point per move, numbered in order.
        let graph_open = format!("<svg class=\"graph\" data-game=\"{g}\"");
        let graph_start = html.find(&graph_open).expect("a graph per game");
        let graph = &html[graph_start..graph_start + html[graph_start..].find("</svg>").unwrap()];
        let points: Vec<usize> = graph
            .match_indices("<circle class=\"pt ")
            .map(|(i, _)| {
                let rest = &graph[i..];
                let at = rest.find("data-ply=\"").unwrap() + "data-ply=\"".len();
                rest[at..at + rest[at..].find('"').unwrap()]
                    .parse()
                    .unwrap()
            })
            .collect();
        assert_eq!(points, (0..moves.len()).collect::<Vec<_>>(), "game {g}");
        // The positions shown replay from the start with the moves played.
        let mut pos = parse_position(game["start"].as_str().unwrap()).unwrap();
        let played = parse_transcript(game["transcript"].as_str().unwrap()).unwrap();
        assert_eq!(played.len(), moves.len());
        for (m, &mv) in moves.iter().zip(&played) {
            assert_eq!(m["board"].as_str().unwrap(), format_position(&pos));
            assert_eq!(m["played"].as_str().unwrap().parse::<Move>().unwrap(), mv);
            if !m["best"].is_null() {
                assert_legal_line(&pos.board, &moves_of(&m["best"]["pv"]));
                assert_legal_line(&pos.board, &moves_of(&m["played_value"]["pv"]));
            }
            pos = pos.apply(mv).expect("a legal move");
        }
    }
}

/// The blunder at 18 empties is the only move losing anything, by exactly the discs that
/// `wedge solve` gives, and every value (all exact: the game starts at 22 empties, within
/// the default exact solves) is `wedge solve`'s; where the result was decided comes from the
/// same solves; the page shows the game as it is.
#[test]
fn a_blunder_at_18_empties_is_found_with_the_loss_an_independent_solve_gives() {
    let dir = Scratch::new("blunder");
    let solver = Solver::new();
    let (game, blunder) = game_with_a_blunder(&solver);
    let mut record = GgfGame::from_game(game.clone());
    record.info_mut().black = Some("Perfect".into());
    record.info_mut().white = Some("Almost".into());
    let ggf = dir.file("game.ggf", &(format_ggf(&record) + "\n"));
    let page = dir.0.join("review.html");
    let out = review(
        true,
        &[
            "--json",
            "--html",
            page.to_str().unwrap(),
            ggf.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json = json_of(&out);
    assert_eq!(json["errors"].as_array().unwrap().len(), 0);
    assert_eq!(json["settings"]["exact_empties"], 24);
    let reviewed = &json["games"][0];
    let moves = reviewed["moves"].as_array().unwrap();
    assert_eq!(moves.len(), game.moves().len());

    // The independent values: each position before a move, and after it.
    let positions = game.positions();
    let judged: Vec<usize> = (0..moves.len())
        .filter(|&i| game.moves()[i] != Move::Pass)
        .collect();
    let mut boards = Vec::new();
    for &i in &judged {
        boards.push(positions[i]);
        boards.push(positions[i + 1]);
    }
    let solved = solved_by_wedge_solve(&dir, &boards);
    let mut last_change = None;
    for (k, &i) in judged.iter().enumerate() {
        let m = &moves[i];
        let best = solved[2 * k];
        let played = -solved[2 * k + 1];
        assert_eq!(m["best"]["kind"], "exact", "move {}", i + 1);
        assert_eq!(m["played_value"]["kind"], "exact", "move {}", i + 1);
        assert_eq!(num(&m["best"]["value"]), f64::from(best), "move {}", i + 1);
        assert_eq!(
            num(&m["played_value"]["value"]),
            f64::from(played),
            "move {}",
            i + 1
        );
        assert_eq!(num(&m["loss"]), f64::from(best - played), "move {}", i + 1);
        if i == blunder {
            assert_eq!(positions[i].board.empty_count(), 18);
            assert!(
                best - played >= 6,
                "the constructed blunder loses {}",
                best - played
            );
            assert_eq!(m["severity"], "blunder");
        } else {
            assert_eq!(best, played, "only the blunder loses (move {})", i + 1);
            assert!(m["severity"].is_null());
        }
        if best.signum() != played.signum() {
            last_change = Some(i);
        }
    }
    // Each side's summary names exactly that move.
    let side = if game.positions()[blunder].to_move == wedge_core::formats::Color::Black {
        ("black_summary", "white_summary")
    } else {
        ("white_summary", "black_summary")
    };
    assert_eq!(
        reviewed[side.0]["blunders"],
        serde_json::json!([blunder + 1])
    );
    assert_eq!(reviewed[side.0]["mistakes"], serde_json::json!([]));
    assert_eq!(reviewed[side.1]["blunders"], serde_json::json!([]));
    assert_eq!(reviewed[side.1]["mistakes"], serde_json::json!([]));
    assert_eq!(num(&reviewed[side.1]["total_loss"]), 0.0);
    // Where the result was decided: the last move whose solved outcome changed, else before
    // the first move (all solved).
    match last_change {
        Some(i) => assert_eq!(reviewed["decided"]["at"], i + 1),
        None => assert_eq!(reviewed["decided"]["before"], 1),
    }
    let html = std::fs::read_to_string(&page).unwrap();
    check_page(&html, &json);
    // The table says the same: the blunder's row is marked, and the summary lists it.
    let out = review(true, &[ggf.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    let row = table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(&(blunder + 1).to_string()))
        .unwrap();
    assert!(row.contains("??") && row.contains("exact"), "{row}");
    assert!(
        table.contains(&format!(
            "1 blunders ({} {})",
            blunder + 1,
            game.moves()[blunder]
        )),
        "{table}"
    );
}

/// Every move inside the shipped book gets the book's answer: its best move with the best
/// value among the moves whose positions the book holds, and the value of the move played
/// read from the book's record of the position after it.
#[test]
fn book_answers_agree_with_the_books_records() {
    let dir = Scratch::new("book");
    let line = "f5d6c3d3c4f4f6f3e6e7";
    let games = dir.file("opening.txt", &format!("{line}\n"));
    let depth4 = ["--depth", "4", "--json", games.to_str().unwrap()];
    let out = review(false, &depth4);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json = json_of(&out);
    let book_path = wedge_core::paths::find_data_file("books", "default.book").unwrap();
    assert_eq!(json["book"], book_path.display().to_string());
    let book = wedge_core::book::Book::open(&book_path, wedge_core::book::Verify::Full).unwrap();
    let game = Game::from_moves(
        Position::START,
        parse_transcript(line).unwrap(),
        PassPolicy::Infer,
    )
    .unwrap();
    let moves = json["games"][0]["moves"].as_array().unwrap();
    let mut answered = 0;
    for (m, (&mv, pos)) in moves.iter().zip(game.moves().iter().zip(game.positions())) {
        // The book's value of each move whose position it holds (valued), for the mover.
        let child_value = |sq| {
            let child = pos.board.play(sq).unwrap();
            book.probe(&child).filter(|p| p.valued).map(|p| -p.value)
        };
        let values: Vec<(wedge_core::board::Square, i32)> = Squares(pos.board.legal_moves())
            .filter_map(|sq| child_value(sq).map(|v| (sq, v)))
            .collect();
        let answer = &m["book"];
        if answer.is_null() {
            continue;
        }
        answered += 1;
        let best = num(&answer["best"]["value"]) as i32;
        assert!(
            values.iter().all(|&(_, v)| v <= best),
            "{answer} {values:?}"
        );
        if let Some(&(_, v)) = values.iter().find(|(sq, _)| Move::Play(*sq) == mv) {
            assert_eq!(num(&answer["played"]["value"]) as i32, v, "{answer}");
        }
    }
    assert!(answered >= 5, "the book answers the first moves of {line}");
    // --no-book: no answer anywhere.
    let json = json_of(&review(true, &depth4));
    assert!(json["book"].is_null());
    let moves = json["games"][0]["moves"].as_array().unwrap();
    assert!(moves.iter().all(|m| m["book"].is_null()));
}

/// A game that does not replay is named with its file and its place there, and the other
/// games are still reviewed; the command then fails, saying so. A file that cannot be read
/// (a FIFO, which is never opened) is named with what it is, and the other files are still
/// reviewed.
#[test]
fn a_bad_game_or_file_is_named_and_the_others_are_still_reviewed() {
    let dir = Scratch::new("bad");
    let ggf = dir.file(
        "three.ggf",
        "(;GM[Othello]PB[a]PW[b]B[f5]W[d6]B[c3];)\n(;GM[Othello]B[f5]W[a1];)\n\
         (;GM[Othello]B[f5]W[f6]B[e6];)\n",
    );
    let lines = dir.file("lines.txt", "f5d6\nf5f5\n");
    let empty = dir.file("empty.txt", "# nothing\n");
    let g = ggf.to_str().unwrap();
    let l = lines.to_str().unwrap();
    let e = empty.to_str().unwrap();
    let page = dir.0.join("page.html");
    let out = review(
        true,
        &["--depth", "3", "--html", page.to_str().unwrap(), g, l, e],
    );
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains(&format!("wedge: {g} game 2: GGF ")) && stderr.contains("illegal"),
        "{stderr}"
    );
    assert!(stderr.contains(&format!("wedge: {l} line 2: ")), "{stderr}");
    assert!(
        stderr.contains(&format!("wedge: {e}: no game in the file")),
        "{stderr}"
    );
    assert!(
        stderr
            .contains("wedge: not everything was reviewed: 3 errors named above; 3 games reviewed"),
        "{stderr}"
    );
    for reviewed in [
        format!("{g} game 1:"),
        format!("{g} game 3:"),
        format!("{l} line 1:"),
    ] {
        assert!(stdout.contains(&reviewed), "{reviewed} in {stdout}");
    }
    assert!(!stdout.contains(&format!("{g} game 2:")));
    // The page holds the games reviewed and names the others.
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<svg class=\"graph\"").count(), 3);
    assert!(html.contains(&format!("{g} game 2: GGF ")));
    // The JSON names them too.
    let out = review(true, &["--depth", "3", "--json", g]);
    assert_eq!(out.status.code(), Some(1));
    let json = json_of(&out);
    assert_eq!(json["games"].as_array().unwrap().len(), 2);
    let errors = json["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0]["file"], g);
    assert_eq!(errors[0]["place"], "game 2");

    #[cfg(unix)]
    {
        let fifo = dir.0.join("games.ggf");
        let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let f = fifo.to_str().unwrap();
        let out = review(true, &["--depth", "3", f, l]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "wedge: cannot read {f}: it is a FIFO (named pipe), not a regular file"
            )),
            "{stderr}"
        );
        assert!(text(&out.stdout).contains(&format!("{l} line 1:")));
    }
}

/// The GGF file `wedge match --out` writes is reviewed as it is.
#[test]
fn a_match_record_is_reviewed_directly() {
    let dir = Scratch::new("match");
    let out_ggf = dir.0.join("match.ggf");
    let engine = format!("{WEDGE} --hash 8 --no-book nboard");
    let played = wedge(&[
        "match",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--depth",
        "1",
        "--games",
        "2",
        "--out",
        out_ggf.to_str().unwrap(),
    ]);
    assert!(played.status.success(), "{}", text(&played.stderr));
    let out = review(
        true,
        &[
            "--depth",
            "3",
            "--exact-empties",
            "12",
            "--json",
            out_ggf.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json = json_of(&out);
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    let records = std::fs::read_to_string(&out_ggf).unwrap();
    for (game, record) in games
        .iter()
        .zip(wedge_core::formats::parse_ggf_games(&records))
    {
        let record = record.unwrap();
        assert_eq!(
            game["moves"].as_array().unwrap().len(),
            record.game().moves().len()
        );
        assert!(
            game["final_for_black"].is_i64(),
            "a match game is played out"
        );
        // The last moves are solved.
        let last = game["moves"].as_array().unwrap().last().unwrap();
        assert_eq!(last["best"]["kind"], "exact");
    }
}

/// The seconds each move took and the clocks a GGF record notes come out in the JSON beside
/// the review; a clock that does not parse is named with its game, and the others are still
/// reviewed.
#[test]
fn the_seconds_and_clocks_a_record_notes_come_out_with_its_review() {
    let dir = Scratch::new("times");
    let ggf = dir.file(
        "timed.ggf",
        "(;GM[Othello]PB[a]PW[b]TI[00:15//00:00]TW[1:30/2]B[f5/0.5/1.25]W[d6//0.5]B[c3]W[d3//1]B[c4];)\n\
         (;GM[Othello]TI[soon]B[f5/0/1];)\n(;GM[Othello]B[f5]W[f6];)\n",
    );
    let g = ggf.to_str().unwrap();
    let out = review(true, &["--depth", "3", "--json", g]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let json = json_of(&out);
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    let seconds: Vec<&Value> = games[0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["seconds"])
        .collect();
    assert_eq!(
        seconds,
        [
            &serde_json::json!(1.25),
            &serde_json::json!(0.5),
            &Value::Null,
            &serde_json::json!(1),
            &Value::Null
        ]
    );
    // The mover's clock before each move: Black 15 s, less 1.25 s, less nothing; White
    // 90 s, then 90 + 2 - 0.5 s.
    let clock_left: Vec<f64> = games[0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["clock_left"].as_f64().unwrap())
        .collect();
    assert_eq!(clock_left, [15.0, 90.0, 13.75, 91.5, 13.75]);
    assert_eq!(
        games[0]["black_clock"],
        serde_json::json!({"main": 15, "increment": 0})
    );
    assert_eq!(
        games[0]["white_clock"],
        serde_json::json!({"main": 90, "increment": 2})
    );
    // An untimed record: no seconds, no clocks.
    assert!(games[1]["black_clock"].is_null() && games[1]["white_clock"].is_null());
    assert!(games[1]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["seconds"].is_null() && m["clock_left"].is_null()));
    let errors = json["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0]["place"], "game 2");
    let error = errors[0]["error"].as_str().unwrap();
    assert!(error.contains("clock \"soon\""), "{error}");
}
