//! `wedge eval --engine`: another engine's values for the positions of an OBF file, asked over
//! NBoard at a fixed depth, so that its error can be set beside ours on the same positions.

use super::match_runner::engine::{EngineError, StartError};
use super::match_runner::player::{EngineProtocol, EngineSpec, MatchTimeControl, Player};
use crate::formats::{Game, GgfGame, ObfEntry};
use crate::train::evaluate::Evaluated;
use std::time::{Duration, Instant};

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
    #[error("position {position}: the engine answered `=== {answer}` with no value (NBoard `=== MOVE/VALUE`)")]
    NoValue { position: usize, answer: String },
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

/// The value the engine gives each entry's position (its answer's `=== MOVE/VALUE`, discs for
/// the side to move), one position at a time.
pub fn evaluate_with_engine(
    entries: &[ObfEntry],
    settings: &EngineEvalSettings,
) -> Result<Vec<Evaluated>, EngineEvalError> {
    let spec = EngineSpec {
        command: settings.command.clone(),
        protocol: EngineProtocol::Nboard,
        depth: Some(settings.depth),
        name: None,
    };
    let mut player = Player::start(&spec, settings.timeout)?;
    let mut results = Vec::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let position = i + 1;
        let record = GgfGame::from_game(Game::new(entry.position));
        let deadline = Instant::now() + settings.timeout;
        let answer = player
            .think(&record, &MatchTimeControl::Depth, None, deadline)
            .map_err(|source| EngineEvalError::Engine { position, source })?;
        // NBoard leaves out a zero value (`=== H4//1.00`); an answer with no value field at
        // all says nothing.
        let value = match answer.eval {
            Some(v) => v,
            None if answer.text.contains('/') => 0.0,
            None => {
                return Err(EngineEvalError::NoValue {
                    position,
                    answer: answer.text,
                })
            }
        };
        results.push(Evaluated {
            empties: entry.position.board.empty_count(),
            value,
            exact: entry.best_score(),
        });
    }
    player.quit();
    Ok(results)
}
