//! Game records for training: WTHOR databases (with their theoretical scores), GGF files and
//! move-transcript files, replayed into positions. Bad records are counted and skipped, never
//! fatal; unreadable files are errors that name the file.

use std::path::Path;
use wedge_core::formats::{
    parse_wthor, read_file, read_game_records, Color, Game, GameFileError, Position,
};

/// Games from these years are never trained on (the held-out set).
pub const HELD_OUT_YEARS: std::ops::RangeInclusive<u16> = 2017..=2020;

/// One replayed game and what its record says about its value.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Year of the game, when the record says.
    pub year: Option<u16>,
    /// The position before each move and after the last.
    pub positions: Vec<Position>,
    /// `(empties, black's disc difference)` under perfect play from the game's position with
    /// that many empties (WTHOR's theoretical score).
    pub theoretical: Option<(u32, i32)>,
    /// Black's final disc difference, when the game was played to the end.
    pub final_black: Option<i32>,
}

/// The side to move's view of a black disc difference.
pub fn for_side_to_move(black_diff: i32, to_move: Color) -> i32 {
    match to_move {
        Color::Black => black_diff,
        Color::White => -black_diff,
    }
}

fn record_from_game(game: &Game, year: Option<u16>, theoretical: Option<(u32, i32)>) -> GameRecord {
    let positions = game.positions();
    let final_black = if game.is_over() {
        let last = game.position();
        Some(for_side_to_move(last.board.final_score(), last.to_move))
    } else {
        None
    };
    GameRecord {
        year,
        positions,
        theoretical,
        final_black,
    }
}

pub use wedge_core::formats::wthor_files;

/// Reads a WTHOR file: the replayed games (at most `limit`) and the number of records that did
/// not replay.
pub fn read_wthor_file(
    path: &Path,
    year_hint: u16,
    limit: usize,
) -> Result<(Vec<GameRecord>, usize), GameFileError> {
    let bytes = read_file(path)?;
    let games = parse_wthor(path, &bytes)?;
    let year = if games.header.games_year != 0 {
        games.header.games_year
    } else {
        year_hint
    };
    let depth = u32::from(games.header.theoretical_depth());
    let mut out = Vec::new();
    let mut bad = 0;
    for (record, replay) in games.replay_all().take(limit) {
        match replay {
            Ok(game) => {
                let t = record.theoretical_black_discs;
                let theoretical = (t <= 64 && depth <= 60).then(|| (depth, 2 * i32::from(t) - 64));
                out.push(record_from_game(&game, Some(year), theoretical));
            }
            Err(_) => bad += 1,
        }
    }
    Ok((out, bad))
}

/// Reads a user-given game file ([`read_game_records`]: GGF, WTHOR or one move transcript per
/// line). Returns the games and the number that did not replay.
pub fn read_game_file(path: &Path) -> Result<(Vec<GameRecord>, usize), GameFileError> {
    let mut out = Vec::new();
    let mut bad = 0;
    for g in read_game_records(path)? {
        match g.game {
            Ok(game) => out.push(record_from_game(&game, None, None)),
            Err(_) => bad += 1,
        }
    }
    Ok((out, bad))
}
