//! The games of a file to review, with the seconds and clocks their records note
//! ([`read_games`]), and why a game could not be reviewed ([`ReviewError`]).

use std::path::{Path, PathBuf};
use wedge_core::formats::{
    Clock, ClockError, Game, GameFileError, GamePlace, GameRecordError, RecordNotes,
};

/// Why a game could not be reviewed.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The file itself could not be read (its games are not reviewed).
    #[error(transparent)]
    File(#[from] GameFileError),
    /// One game of the file does not parse or replay (the others are reviewed).
    #[error("{} {place}: {source}", path.display())]
    Game {
        path: PathBuf,
        place: GamePlace,
        source: GameRecordError,
    },
    /// One game's record notes a clock that does not parse (the others are reviewed).
    #[error("{} {place}: {source}", path.display())]
    Clock {
        path: PathBuf,
        place: GamePlace,
        source: ClockError,
    },
    /// The file holds no game.
    #[error("{}: no game in the file", path.display())]
    NoGame { path: PathBuf },
}

impl ReviewError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            ReviewError::File(
                GameFileError::List { path, .. }
                | GameFileError::Read { path, .. }
                | GameFileError::Wthor { path, .. },
            )
            | ReviewError::Game { path, .. }
            | ReviewError::Clock { path, .. }
            | ReviewError::NoGame { path } => path,
        }
    }

    /// The game the error is about, when it is about one game.
    pub fn place(&self) -> Option<GamePlace> {
        match self {
            ReviewError::Game { place, .. } | ReviewError::Clock { place, .. } => Some(*place),
            _ => None,
        }
    }
}

/// A game to review: where it is in its file, the game, and the time its record notes.
#[derive(Clone, Debug)]
pub struct RecordedGame {
    pub place: GamePlace,
    pub game: Game,
    /// The seconds each move took by the record, one per move (none where it says nothing).
    pub seconds: Vec<Option<f64>>,
    /// Black's and White's clocks at the start, by the record.
    pub clocks: [Option<Clock>; 2],
}

impl RecordedGame {
    /// `game` at `place`, with no times recorded.
    pub fn untimed(place: GamePlace, game: Game) -> RecordedGame {
        let seconds = vec![None; game.moves().len()];
        RecordedGame {
            place,
            game,
            seconds,
            clocks: [None, None],
        }
    }

    /// `game` at `place` with what its record notes; a clock that does not parse is an error.
    fn from_record(
        place: GamePlace,
        game: Game,
        notes: RecordNotes,
    ) -> Result<RecordedGame, ClockError> {
        let mut seconds: Vec<Option<f64>> = notes.moves.iter().map(|n| n.time).collect();
        seconds.resize(game.moves().len(), None);
        Ok(RecordedGame {
            place,
            game,
            seconds,
            clocks: notes.clocks?,
        })
    }
}

/// The games of a file to review, and an error for each of its games that cannot be.
#[derive(Debug, Default)]
pub struct FileGames {
    pub games: Vec<RecordedGame>,
    pub errors: Vec<ReviewError>,
}

/// The games of `path` ([`wedge_core::formats::read_game_records`]); a file that cannot be read,
/// or holds no game, is an error of its own.
pub fn read_games(path: &Path) -> Result<FileGames, ReviewError> {
    let records = wedge_core::formats::read_game_records(path)?;
    if records.is_empty() {
        return Err(ReviewError::NoGame {
            path: path.to_path_buf(),
        });
    }
    let mut out = FileGames::default();
    for r in records {
        let place = r.place;
        let path = path.to_path_buf();
        match r.game {
            Ok(g) => match RecordedGame::from_record(place, g, r.notes) {
                Ok(g) => out.games.push(g),
                Err(source) => out.errors.push(ReviewError::Clock {
                    path,
                    place,
                    source,
                }),
            },
            Err(source) => out.errors.push(ReviewError::Game {
                path,
                place,
                source,
            }),
        }
    }
    Ok(out)
}
