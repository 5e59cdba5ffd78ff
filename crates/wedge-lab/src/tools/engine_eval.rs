//! `wedge eval --engine`: another engine's values for the positions of an OBF file, asked over
//! NBoard at a fixed depth, so that its error can be set beside ours on the same positions.

use super::match_runner::{EngineError, StartError};
use super::match_runner::{EngineProtocol, EngineSpec, MatchTimeControl, Player};
use std::time::{Duration, Instant};
use wedge_core::formats::{parse_move_item, Game, GgfGame, MoveItemError, Position};

/// Why another engine's values could not be had.
#[derive(Debug, thiserror::Error)]
pub enum EngineEvalError {
    #[error("{0}")]
    Start(#[from] StartError),
    #[error("position {position}: {source}")]
    Engine {
        position: usize,
        source: EngineError,
    },
    #[error(
        "position {position}: the engine answered `=== {answer}`, not `=== MOVE/VALUE`: {reason}"
    )]
    BadAnswer {
        position: usize,
        answer: String,
        reason: MoveItemError,
    },
}

/// How the engine is asked.
#[derive(Clone, Debug)]
pub struct EngineEvalSettings {
    /// The NBoard engine's command line.
    pub command: String,
    /// The depth sent with `set depth`.
    pub depth: u32,
    /// How long the engine may take to start, and then for each position.
    pub timeout: Duration,
}

/// The engine's values, one per position, in discs for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineValues {
    pub values: Vec<f64>,
    /// Answers with a blank or no value, taken as 0: NTest leaves out a value of zero
    /// (`=== H4//1.00`), but other engines leave it blank when they have none.
    pub blank: usize,
}

/// Asks the engine for each position's value (its answer's `=== MOVE/VALUE`), one at a time.
/// A finished game is scored by its discs without asking.
pub fn evaluate_with_engine(
    positions: &[Position],
    settings: &EngineEvalSettings,
) -> Result<EngineValues, EngineEvalError> {
    let spec = EngineSpec {
        command: settings.command.clone(),
        protocol: EngineProtocol::Nboard,
        depth: Some(settings.depth),
        time: MatchTimeControl::Depth,
        name: None,
    };
    let mut player = Player::start(&spec, settings.timeout)?;
    let mut out = EngineValues {
        values: Vec::with_capacity(positions.len()),
        blank: 0,
    };
    for (i, &pos) in positions.iter().enumerate() {
        let position = i + 1;
        if pos.board.is_game_over() {
            out.values.push(f64::from(pos.board.final_score()));
            continue;
        }
        let record = GgfGame::from_game(Game::new(pos));
        let deadline = Instant::now() + settings.timeout;
        let answer = player
            .think(&record, &MatchTimeControl::Depth, None, deadline)
            .map_err(|source| EngineEvalError::Engine { position, source })?;
        let item = parse_move_item(&answer.text).map_err(|reason| EngineEvalError::BadAnswer {
            position,
            answer: answer.text.clone(),
            reason,
        })?;
        out.blank += usize::from(item.note.eval.is_none());
        out.values.push(item.note.eval.unwrap_or(0.0));
    }
    player.quit();
    Ok(out)
}
