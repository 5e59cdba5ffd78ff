//! Replays every game of the WTHOR database in `data/wthor` and
//! checks the counts: all games read, all but a known handful legal to the end, recorded final
//! disc counts consistent with the replayed boards, and every name index resolvable.
//!
//! Run with `--nocapture` to see the list of bad records and the statistics.

#[path = "common/data.rs"]
mod data;

use data::data_path;
use std::fs;
use std::path::{Path, PathBuf};
use wedge_core::board::Move;
use wedge_core::formats::{
    black_discs_empties_to_winner, read_wthor_games, Game, WthorGame, WthorNames,
};

/// Games in the 44 yearly files 1977-2020.
const EXPECTED_GAMES: usize = 124_106;
/// Records whose moves do not replay legally (listed by the test).
const EXPECTED_BAD_RECORDS: usize = 0;
/// Legal games that stop before the end (neither side out of moves yet; time-outs, resignations,
/// adjudications).
const EXPECTED_UNFINISHED: usize = 433;
/// Finished games whose recorded final black discs differ from the replayed board (empties to
/// the winner).
const EXPECTED_FINAL_DISC_MISMATCHES: usize = 0;

fn wthor_dir() -> PathBuf {
    data_path("wthor")
}

/// The `WTH_yyyy.wtb` files, sorted by name.
fn game_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wtb")))
        .collect();
    files.sort();
    files
}

fn read(path: &Path) -> Vec<u8> {
    fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

#[derive(Default)]
struct Tally {
    games: usize,
    legal: usize,
    finished: usize,
    finished_with_empties: usize,
    with_passes: usize,
    unfinished: usize,
    disc_mismatches: Vec<String>,
    bad: Vec<String>,
    unknown_names: usize,
}

impl Tally {
    fn check_final_discs(&mut self, file: &str, index: usize, record: &WthorGame, game: &Game) {
        if !game.is_over() {
            self.unfinished += 1;
            return;
        }
        self.finished += 1;
        if game.position().board.empty_count() > 0 {
            self.finished_with_empties += 1;
        }
        let replayed = black_discs_empties_to_winner(&game.position());
        if replayed != record.black_discs {
            self.disc_mismatches.push(format!(
                "{file} record {index}: recorded {} black discs, replay gives {replayed}",
                record.black_discs
            ));
        }
    }

    fn check_names(&mut self, record: &WthorGame, names: &WthorNames) {
        let known = names.player(record.black).is_some()
            && names.player(record.white).is_some()
            && names.tournament(record.tournament).is_some();
        if !known {
            self.unknown_names += 1;
        }
    }
}

#[test]
fn replays_the_whole_wthor_database() {
    let dir = wthor_dir();
    let names =
        WthorNames::from_bytes(&read(&dir.join("WTHOR.JOU")), &read(&dir.join("WTHOR.TRN")))
            .expect("name files");
    let files = game_files(&dir);
    assert_eq!(
        files.len(),
        44,
        "expected the 44 yearly files in {}",
        dir.display()
    );

    let mut tally = Tally::default();
    for path in &files {
        let file = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let bytes = read(path);
        let games = read_wthor_games(&bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
        for (index, (record, replayed)) in games.replay_all().enumerate() {
            tally.games += 1;
            tally.check_names(&record, &names);
            match replayed {
                Ok(game) => {
                    tally.legal += 1;
                    if game.moves().contains(&Move::Pass) {
                        tally.with_passes += 1;
                    }
                    tally.check_final_discs(&file, index, &record, &game);
                }
                Err(e) => tally.bad.push(format!("{file} {e}")),
            }
        }
    }

    println!(
        "WTHOR: {} games, {} legal to the end ({} finished, {} stopped early), {} bad records",
        tally.games,
        tally.legal,
        tally.finished,
        tally.unfinished,
        tally.bad.len()
    );
    for bad in &tally.bad {
        println!("  bad record: {bad}");
    }
    println!(
        "{} legal games needed an inferred pass; {} finished games ended with empty squares",
        tally.with_passes, tally.finished_with_empties
    );
    println!(
        "final discs: {} of {} finished games differ from the replay (empties to the winner)",
        tally.disc_mismatches.len(),
        tally.finished
    );
    for m in tally.disc_mismatches.iter().take(20) {
        println!("  {m}");
    }
    println!(
        "records with an unknown player or tournament index: {}",
        tally.unknown_names
    );

    assert_eq!(tally.games, EXPECTED_GAMES, "total number of games");
    assert_eq!(
        tally.bad.len(),
        EXPECTED_BAD_RECORDS,
        "bad records:\n{}",
        tally.bad.join("\n")
    );
    assert_eq!(
        tally.unfinished, EXPECTED_UNFINISHED,
        "legal games that stop early"
    );
    assert_eq!(
        tally.disc_mismatches.len(),
        EXPECTED_FINAL_DISC_MISMATCHES,
        "final disc mismatches (first 20):\n{}",
        tally
            .disc_mismatches
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert_eq!(tally.unknown_names, 0, "records with unknown name indices");
}
