//! Game record files on disk: listing a WTHOR directory, reading a file's bytes, and reading
//! every game of a WTHOR, GGF or transcript file, each replayed (with what its record notes
//! beside the moves) or with why it is not; one error type naming the file for every tool that
//! reads games.

use super::{
    parse_ggf_games, parse_transcript, read_wthor_games, Clock, ClockError, Game, GgfError,
    MoveNote, PassPolicy, Position, ReplayError, TranscriptError, WthorError, WthorGames,
    WthorReplayError,
};
use std::path::{Path, PathBuf};

/// A game file or directory that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum GameFileError {
    #[error("cannot list {}: {source}", path.display())]
    List {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", path.display())]
    Wthor { path: PathBuf, source: WthorError },
}

/// The WTHOR game files (`WTH_yyyy.wtb`, any case) of a directory with their years, sorted
/// by name.
pub fn wthor_files(dir: &Path) -> Result<Vec<(PathBuf, u16)>, GameFileError> {
    let list = |source| GameFileError::List {
        path: dir.to_path_buf(),
        source,
    };
    crate::paths::directory(dir).map_err(list)?;
    let entries = std::fs::read_dir(dir).map_err(list)?;
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_ascii_uppercase();
        let year = name
            .strip_prefix("WTH_")
            .and_then(|r| r.strip_suffix(".WTB"))
            .and_then(|y| y.parse::<u16>().ok());
        if let Some(year) = year {
            out.push((entry.path(), year));
        }
    }
    out.sort();
    Ok(out)
}

/// The bytes of `path`.
pub fn read_file(path: &Path) -> Result<Vec<u8>, GameFileError> {
    crate::paths::read_file(path).map_err(|source| GameFileError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// The text of `path`.
pub fn read_text(path: &Path) -> Result<String, GameFileError> {
    crate::paths::read_text(path).map_err(|source| GameFileError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// Parses the WTHOR file `path` whose bytes are `bytes`.
pub fn parse_wthor<'a>(path: &Path, bytes: &'a [u8]) -> Result<WthorGames<'a>, GameFileError> {
    read_wthor_games(bytes).map_err(|source| GameFileError::Wthor {
        path: path.to_path_buf(),
        source,
    })
}

/// Where a game is in its file: its number among the file's games, or its line (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GamePlace {
    Game(usize),
    Line(usize),
}

impl std::fmt::Display for GamePlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GamePlace::Game(n) => write!(f, "game {n}"),
            GamePlace::Line(n) => write!(f, "line {n}"),
        }
    }
}

/// Why one game of a file could not be read or replayed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GameRecordError {
    #[error(transparent)]
    Ggf(#[from] GgfError),
    #[error(transparent)]
    Transcript(#[from] TranscriptError),
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error(transparent)]
    Wthor(#[from] WthorReplayError),
}

/// What a record notes beside its moves (GGF): each move's evaluation and seconds, and the
/// clock each player started with. Empty for the formats that have none.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordNotes {
    /// One per move of the game (an inferred pass's is empty), or none at all.
    pub moves: Vec<MoveNote>,
    /// Black's and White's clocks at the start ([`super::GgfGame::start_clocks`]), or why one does
    /// not parse: an error only for the readers that use them.
    pub clocks: Result<[Option<Clock>; 2], ClockError>,
}

impl Default for RecordNotes {
    fn default() -> RecordNotes {
        RecordNotes {
            moves: Vec::new(),
            clocks: Ok([None, None]),
        }
    }
}

/// One game of a file: where it is there, and the replayed game or why there is none.
#[derive(Clone, Debug)]
pub struct FileGame {
    pub place: GamePlace,
    pub game: Result<Game, GameRecordError>,
    /// What the record notes beside the moves (empty when the game does not replay).
    pub notes: RecordNotes,
}

/// Every game of a game file, in file order: WTHOR when the name ends in `.wtb` (any case;
/// games [`GamePlace::Game`]), GGF when it ends in `.ggf` or the text holds `(;` (games
/// [`GamePlace::Game`]), else one move transcript from the standard start per line (blank
/// lines and `#` comments skipped; games [`GamePlace::Line`]). A game that does not parse or
/// replay is listed with its error, and the others are still read; the file itself must be a
/// readable regular file.
pub fn read_game_records(path: &Path) -> Result<Vec<FileGame>, GameFileError> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let mut out = Vec::new();
    if ext == "wtb" {
        let bytes = read_file(path)?;
        let games = parse_wthor(path, &bytes)?;
        let year = games.header.games_year;
        for (i, g) in games.games().enumerate() {
            let game = g.replay().map(|mut game| {
                game.info.date = (year != 0).then(|| year.to_string());
                game
            });
            out.push(FileGame {
                place: GamePlace::Game(i + 1),
                game: game.map_err(GameRecordError::from),
                notes: RecordNotes::default(),
            });
        }
        return Ok(out);
    }
    let text = read_text(path)?;
    if ext == "ggf" || text.contains("(;") {
        for (i, g) in parse_ggf_games(&text).enumerate() {
            let (game, notes) = match g {
                Ok(g) => {
                    let notes = RecordNotes {
                        moves: g.notes().to_vec(),
                        clocks: g.start_clocks(),
                    };
                    (Ok(g.into_game()), notes)
                }
                Err(e) => (Err(e.into()), RecordNotes::default()),
            };
            out.push(FileGame {
                place: GamePlace::Game(i + 1),
                game,
                notes,
            });
        }
        return Ok(out);
    }
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let game = parse_transcript(line)
            .map_err(GameRecordError::from)
            .and_then(|moves| {
                Game::from_moves(Position::START, moves, PassPolicy::Infer)
                    .map_err(GameRecordError::from)
            });
        out.push(FileGame {
            place: GamePlace::Line(i + 1),
            game,
            notes: RecordNotes::default(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch file removed when dropped.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str, contents: &[u8]) -> Scratch {
            let dir = std::env::temp_dir().join(format!("wedge-files-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join(name);
            std::fs::write(&path, contents).unwrap();
            Scratch(path)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    #[test]
    fn every_game_of_a_file_is_read_and_a_bad_one_is_named_by_its_place() {
        let ggf = Scratch::new(
            "three.txt",
            b"(;GM[Othello]PB[a]B[f5]W[d6];)\n(;GM[Othello]B[a1];)\n(;GM[Othello]B[f5];)\n",
        );
        let games = read_game_records(&ggf.0).unwrap();
        let places: Vec<_> = games.iter().map(|g| g.place).collect();
        assert_eq!(places, [1, 2, 3].map(GamePlace::Game));
        assert_eq!(games[0].game.as_ref().unwrap().moves().len(), 2);
        assert_eq!(
            games[0].game.as_ref().unwrap().info.black.as_deref(),
            Some("a")
        );
        assert!(matches!(games[1].game, Err(GameRecordError::Ggf(_))));
        assert!(games[2].game.is_ok());

        let lines = Scratch::new("lines", b"# comment\nf5d6\n\nf5f5\nf5z9\n");
        let games = read_game_records(&lines.0).unwrap();
        let places: Vec<_> = games.iter().map(|g| g.place).collect();
        assert_eq!(places, [2, 4, 5].map(GamePlace::Line));
        assert!(matches!(games[1].game, Err(GameRecordError::Replay(_))));
        assert!(matches!(games[2].game, Err(GameRecordError::Transcript(_))));
        assert_eq!(games[1].place.to_string(), "line 4");
        assert!(games.iter().all(|g| g.notes == RecordNotes::default()));
    }

    #[test]
    fn a_ggf_game_keeps_its_moves_notes_and_each_players_clock() {
        let ggf = Scratch::new(
            "clocks.ggf",
            b"(;GM[Othello]TI[00:15//00:00]B[f5/1.5/0.25]W[d6//2];)\n\
              (;GM[Othello]TI[5:00]TW[1:00]B[f5]W[d6/-1];)\n(;GM[Othello]B[a1/0/1];)\n",
        );
        let games = read_game_records(&ggf.0).unwrap();
        let first = &games[0].notes;
        let clock = |text| Some(crate::formats::parse_clock(text).unwrap());
        assert_eq!(
            first.clocks,
            Ok([clock("00:15//00:00"), clock("00:15//00:00")])
        );
        let seconds: Vec<_> = first.moves.iter().map(|n| n.time).collect();
        assert_eq!(seconds, [Some(0.25), Some(2.0)]);
        assert_eq!(first.moves[0].eval, Some(1.5));
        let second = &games[1].notes;
        assert_eq!(second.clocks, Ok([clock("5:00"), clock("1:00")]));
        assert_eq!(
            second.moves.iter().map(|n| n.eval).collect::<Vec<_>>(),
            [None, Some(-1.0)]
        );
        // A game that does not replay has no notes.
        assert!(games[2].game.is_err());
        assert_eq!(games[2].notes, RecordNotes::default());
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_by_name_before_it_is_opened() {
        let dir = std::env::temp_dir().join(format!("wedge-files-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("games.ggf");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        let e = read_game_records(&fifo).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "cannot read {}: it is a FIFO (named pipe), not a regular file",
                fifo.display()
            )
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
