//! `wedge eval` end to end: our own values and another engine's over NBoard (the real binary,
//! and small fake engines), against exact scores a brute-force solve here computes.

use std::path::PathBuf;
use std::process::Command;
use wedge_core::board::Board;
use wedge_core::formats::{format_obf_line, parse_obf_file, ObfEntry, Position};

#[path = "common/fake_engines.rs"]
mod fake_engines;
use fake_engines::fake_nboard;

const WEDGE: &str = env!("CARGO_BIN_EXE_wedge");

/// The exact final disc difference for the side to move, by plain negamax.
fn exact(board: &Board) -> i32 {
    let moves = board.moves();
    if moves.is_empty() {
        return board.final_score();
    }
    moves
        .into_iter()
        .map(|mv| -exact(&board.apply(mv).unwrap()))
        .max()
        .unwrap()
}

/// Positions of 8 empties, each reached from a held-out position by playing its first legal
/// move, with their exact scores.
fn solved_positions() -> Vec<ObfEntry> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/weights/heldout-2017-2020.obf"
    ))
    .unwrap();
    parse_obf_file(&text)
        .unwrap()
        .into_iter()
        .step_by(37)
        .filter_map(|e| {
            let mut pos = e.position;
            while pos.board.empty_count() > 8 {
                let mv = *pos.board.moves().first()?;
                pos = Position {
                    board: pos.board.apply(mv).unwrap(),
                    to_move: pos.to_move.opposite(),
                };
            }
            Some(ObfEntry {
                position: pos,
                moves: Vec::new(),
                score: Some(exact(&pos.board)),
            })
        })
        .take(8)
        .collect()
}

fn write_obf(name: &str, entries: &[ObfEntry]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("wedge-eval-{}-{name}.obf", std::process::id()));
    let text: String = entries.iter().map(|e| format_obf_line(e) + "\n").collect();
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs `wedge eval FILE ARGS --summary`: (success, stdout and stderr).
fn eval(file: &PathBuf, args: &[&str]) -> (bool, String) {
    let out = Command::new(WEDGE)
        .arg("eval")
        .arg(file)
        .args(args)
        .arg("--summary")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// The error table's `all` line: (positions, MAE, bias).
fn all_line(output: &str) -> (usize, f64, f64) {
    let line = output
        .lines()
        .find(|l| l.trim_start().starts_with("all "))
        .unwrap_or_else(|| panic!("no `all` line in\n{output}"));
    let f: Vec<&str> = line.split_whitespace().collect();
    (
        f[1].parse().unwrap(),
        f[2].parse().unwrap(),
        f[3].parse().unwrap(),
    )
}

/// An NBoard engine that answers every `go` with `answer`.
fn answering(answer: &str) -> String {
    fake_nboard(&format!("echo \"{answer}\""))
}

#[test]
fn values_of_solved_positions_are_exact_ours_and_over_nboard() {
    let entries = solved_positions();
    assert_eq!(entries.len(), 8);
    let file = write_obf("solved", &entries);
    // Our search reaches the end from 8 empties at depth 8.
    let (ok, ours) = eval(&file, &["--depth", "8"]);
    assert!(ok, "{ours}");
    assert_eq!(all_line(&ours), (8, 0.0, 0.0), "{ours}");
    // Wedge over NBoard solves 8 empties at any level.
    let engine = format!("{WEDGE} --hash 8 nboard");
    let (ok, theirs) = eval(&file, &["--engine", &engine, "--depth", "2"]);
    let _ = std::fs::remove_file(&file);
    assert!(ok, "{theirs}");
    assert!(theirs.contains("the engine's value at depth 2"), "{theirs}");
    assert_eq!(all_line(&theirs), (8, 0.0, 0.0), "{theirs}");
    assert!(
        theirs.contains("score = 1.000 x value +0.000: MAE 0.000 after the rescaling"),
        "{theirs}"
    );
}

#[test]
fn another_engines_values_are_read_with_fractions_and_blanks_counted() {
    let entries = solved_positions();
    let file = write_obf("fake", &entries);
    let scores: Vec<f64> = entries
        .iter()
        .map(|e| f64::from(e.score.unwrap()))
        .collect();
    let n = scores.len() as f64;
    for (answer, value, blank) in [
        ("=== D3/2.5/0.01", 2.5, false),
        ("=== D3//0.01", 0.0, true),
        ("=== D3", 0.0, true),
    ] {
        let (ok, out) = eval(&file, &["--engine", &answering(answer), "--depth", "3"]);
        assert!(ok, "{answer}: {out}");
        let mae = scores.iter().map(|s| (value - s).abs()).sum::<f64>() / n;
        let bias = scores.iter().map(|s| value - s).sum::<f64>() / n;
        let (count, got_mae, got_bias) = all_line(&out);
        assert_eq!(count, entries.len(), "{out}");
        assert!((got_mae - mae).abs() < 0.0006, "{answer}: {out}");
        assert!((got_bias - bias).abs() < 0.0006, "{answer}: {out}");
        assert_eq!(
            out.contains("8 answers had a blank or no value, taken as 0"),
            blank,
            "{answer}: {out}"
        );
        // One value for every position: no line to fit.
        assert!(!out.contains("after the rescaling"), "{out}");
    }
    let _ = std::fs::remove_file(&file);
}

#[test]
fn odd_answers_a_silent_engine_and_bad_arguments_are_refused_by_name() {
    let entries = solved_positions();
    let file = write_obf("refused", &entries);
    for (answer, said) in [
        (
            "=== D3/abc/1",
            "position 1: the engine answered `=== D3/abc/1`, not `=== MOVE/VALUE`",
        ),
        (
            "=== xx/3.5",
            "position 1: the engine answered `=== xx/3.5`, not `=== MOVE/VALUE`",
        ),
    ] {
        let (ok, out) = eval(&file, &["--engine", &answering(answer), "--depth", "3"]);
        assert!(!ok, "{answer}: {out}");
        assert!(out.contains(said), "{answer}: {out}");
    }
    // Answers `ping`, never moves.
    let silent = "sh -c 'while read -r c a; do case \"$c\" in ping) echo \"pong $a\";; esac; done'";
    let (ok, out) = eval(
        &file,
        &["--engine", silent, "--depth", "3", "--move-timeout", "0.5"],
    );
    assert!(!ok);
    assert!(out.contains("position 1: no answer within 0.5 s"), "{out}");
    let (ok, out) = eval(&file, &["--engine", &answering("=== D3/1/0")]);
    assert!(!ok);
    assert!(out.contains("--engine needs --depth N"), "{out}");
    let (ok, out) = eval(&file, &["--engine", "/nonexistent/engine", "--depth", "3"]);
    assert!(!ok);
    assert!(out.contains("/nonexistent/engine"), "{out}");
    let (ok, out) = eval(
        &file,
        &[
            "--engine",
            &answering("=== D3/1/0"),
            "--depth",
            "3",
            "--move-timeout",
            "1e19",
        ],
    );
    let _ = std::fs::remove_file(&file);
    assert!(!ok);
    assert!(
        out.contains("--move-timeout must be a positive number of seconds"),
        "{out}"
    );
    let empty = write_obf("empty", &[]);
    let (ok, out) = eval(&empty, &[]);
    let _ = std::fs::remove_file(&empty);
    assert!(!ok);
    assert!(out.contains("no position in the file"), "{out}");
}
