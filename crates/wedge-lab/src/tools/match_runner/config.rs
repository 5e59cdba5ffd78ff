//! What a match is asked to play: [`MatchConfig`].

use super::game::GameLimits;
use super::player::EngineSpec;
use super::stats::Sprt;
use std::path::PathBuf;
use std::time::Duration;
use wedge_core::formats::Game;

/// A whole match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The first engine is the one the statistics are about.
    pub engines: [EngineSpec; 2],
    pub openings: Vec<Game>,
    pub games: usize,
    pub limits: GameLimits,
    pub concurrency: usize,
    /// Longest wait for an engine's handshake.
    pub start_timeout: Duration,
    /// The GGF file written.
    pub out: PathBuf,
    pub sprt: Option<Sprt>,
}
