//! The games of a file to review ([`read_games`]) and why a game could not be reviewed
//! ([`ReviewError`]).

use std::path::{Path, PathBuf};
use wedge_core::formats::{Game, GameFileError, GamePlace, GameRecordError};

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
            | ReviewError::NoGame { path } => path,
        }
    }

    /// The game the error is about, when it is about one game.
    pub fn place(&self) -> Option<GamePlace> {
        match self {
            ReviewError::Game { place, .. } => Some(*place),
            _ => None,
        }
    }
}

/// The games of a file to review, and an error for each of its games that cannot be.
#[derive(Debug, Default)]
pub struct FileGames {
    pub games: Vec<(GamePlace, Game)>,
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
        match r.game {
            Ok(g) => out.games.push((r.place, g)),
            Err(source) => out.errors.push(ReviewError::Game {
                path: path.to_path_buf(),
                place: r.place,
                source,
            }),
        }
    }
    Ok(out)
}
