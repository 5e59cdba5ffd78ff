//! FFO endgame suites #1-#39 solved exactly (best move and score checked against the file),
//! win/loss/draw agreeing in sign, and two threads giving the same scores.

use std::path::PathBuf;
use std::sync::Arc;
use wedge::eval::PatternEval;
use wedge::formats::{parse_obf_file, ObfEntry};
use wedge::search::{Limits, Searcher, SolveMode};
use wedge::tools::solve::solve_entries;

fn data_dir() -> PathBuf {
    std::env::var_os("WEDGE_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data")))
}

fn suite(name: &str) -> Vec<ObfEntry> {
    let path = data_dir().join("ffo").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}); the FFO suites live in ../shared/data/ffo (set WEDGE_DATA)",
            path.display()
        )
    });
    parse_obf_file(&text).expect("the FFO file parses")
}

/// The shipped evaluation: solves are exact whatever the evaluation, which only orders moves.
fn shipped_eval() -> PatternEval {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/default.wts");
    PatternEval::load(std::path::Path::new(path)).expect("weights/default.wts loads")
}

fn solve_all(entries: &[ObfEntry], mode: SolveMode, threads: usize) -> Vec<(i32, String)> {
    let searcher = Searcher::new(Arc::new(shipped_eval()), 64, threads);
    let mut out = Vec::new();
    let (rows, summary) =
        solve_entries(&searcher, entries, &Limits::solve(mode), &mut out).unwrap();
    let table = String::from_utf8_lossy(&out);
    println!("{table}");
    assert_eq!(summary.checked, entries.len(), "{table}");
    assert!(
        summary.wrong.is_empty(),
        "wrong answers {:?}\n{table}",
        summary.wrong
    );
    rows.iter()
        .map(|r| (r.report.score, r.report.best.to_string()))
        .collect()
}

#[test]
fn ffo_1_to_19_exact_and_wld() {
    let entries = suite("fforum-1-19.obf");
    assert_eq!(entries.len(), 19);
    let exact = solve_all(&entries, SolveMode::Exact, 1);
    let wld = solve_all(&entries, SolveMode::WinLossDraw, 1);
    for (e, w) in exact.iter().zip(&wld) {
        assert_eq!(e.0.signum(), w.0.signum());
    }
}

#[test]
fn ffo_20_to_39_exact() {
    let entries = suite("fforum-20-39.obf");
    assert_eq!(entries.len(), 20);
    solve_all(&entries, SolveMode::Exact, 1);
}

#[test]
fn ffo_20_to_39_wld_agrees_in_sign() {
    let entries = suite("fforum-20-39.obf");
    solve_all(&entries, SolveMode::WinLossDraw, 1);
}

#[test]
fn two_threads_give_the_same_scores() {
    let entries = suite("fforum-1-19.obf");
    let one = solve_all(&entries, SolveMode::Exact, 1);
    let two = solve_all(&entries, SolveMode::Exact, 2);
    let scores = |v: &[(i32, String)]| v.iter().map(|x| x.0).collect::<Vec<_>>();
    assert_eq!(scores(&one), scores(&two));
    let more = suite("fforum-20-39.obf");
    let subset = &more[..12];
    let one = solve_all(subset, SolveMode::Exact, 1);
    let two = solve_all(subset, SolveMode::Exact, 2);
    assert_eq!(scores(&one), scores(&two));
}
