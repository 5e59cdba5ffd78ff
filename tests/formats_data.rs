//! The FFO suites in `data/ffo` parse completely, their moves are
//! legal, and every line prints back byte for byte. A missing data directory fails the test.

#[path = "common/data.rs"]
mod data;

use data::data_path;
use std::fs;
use std::path::PathBuf;
use wedge_core::formats::{format_obf_line, parse_obf_file, Color};

fn ffo_dir() -> PathBuf {
    data_path("ffo")
}

#[test]
fn ffo_suites_parse_and_print_back() {
    let dir = ffo_dir();
    let mut all = Vec::new();
    for name in [
        "fforum-1-19.obf",
        "fforum-20-39.obf",
        "fforum-40-59.obf",
        "fforum-60-79.obf",
    ] {
        let path = dir.join(name);
        let text = fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let entries = parse_obf_file(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(entries.len(), lines.len(), "{name}");
        for (entry, line) in entries.iter().zip(&lines) {
            assert_eq!(format_obf_line(entry), line.trim_end(), "{name}");
        }
        all.extend(entries);
    }
    assert_eq!(all.len(), 79);

    // FFO #1: 14 empties, Black to move, G8 best at +18.
    let first = &all[0];
    assert_eq!(first.position.to_move, Color::Black);
    assert_eq!(first.position.board.empty_count(), 14);
    assert_eq!(first.moves[0].0.to_string(), "g8");
    assert_eq!(first.best_score(), Some(18));

    // FFO #40: 20 empties, A2 best at +38.
    let ffo40 = &all[39];
    assert_eq!(ffo40.position.board.empty_count(), 20);
    assert_eq!(ffo40.moves[0].0.to_string(), "a2");
    assert_eq!(ffo40.best_score(), Some(38));

    // Every position lists at least one scored move, best first.
    for (i, e) in all.iter().enumerate() {
        assert!(!e.moves.is_empty(), "FFO #{} lists no move", i + 1);
        let best = e.moves[0].1;
        assert!(
            e.moves.iter().all(|&(_, s)| s <= best),
            "FFO #{}: not best first",
            i + 1
        );
    }
}
