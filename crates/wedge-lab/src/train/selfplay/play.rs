//! Playing self-play games through the public [`Searcher`] API: the evaluation they are played
//! with (identified by checksums), one game from its seed, and a batch of games on several
//! threads whose records do not depend on the thread count or the scheduling.

use super::error::SelfplayError;
use super::openings::{draw_opening, WthorLines};
use super::record::{color_after, Batch, BatchHeader, GameRecord, NO_VALUE};
use super::unit::{BatchId, Settings};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use wedge_core::board::{Board, Move};
use wedge_core::eval::{PatternEval, Weights, WeightsError, WeightsErrorKind};
use wedge_core::formats::Color;
use wedge_core::framing::fnv1a64;
use wedge_core::rng::Rng;
use wedge_core::search::ProbCutModel;
use wedge_core::search::{Limits, Searcher, SolveMode};
use wedge_engine::EngineBuilder;

/// The evaluation games are played with, and the checksums that identify it in batch headers.
#[derive(Clone, Debug)]
pub struct Model {
    pub eval: Arc<PatternEval>,
    pub probcut: Arc<ProbCutModel>,
    /// The weights file's own checksum (its last 8 bytes).
    pub weights_checksum: u64,
    /// FNV-1a 64 of the ProbCut model's text.
    pub probcut_checksum: u64,
}

impl Model {
    /// The model of `weights` and `probcut`.
    pub fn new(weights: &Weights, probcut: ProbCutModel) -> Result<Model, WeightsErrorKind> {
        let eval = PatternEval::from_weights(weights)?;
        let bytes = weights.to_bytes()?;
        let tail = bytes.len().saturating_sub(8);
        let weights_checksum = bytes[tail..].try_into().map_or(0, u64::from_le_bytes);
        let probcut_checksum = fnv1a64(probcut.to_text().as_bytes());
        Ok(Model {
            eval: Arc::new(eval),
            probcut: Arc::new(probcut),
            weights_checksum,
            probcut_checksum,
        })
    }

    /// Loads a weights file and a ProbCut model file (`None`: no Multi-ProbCut model).
    pub fn load(weights: &Path, probcut: Option<&Path>) -> Result<Model, SelfplayError> {
        let w = Weights::load(weights)?;
        let model = match probcut {
            Some(p) => ProbCutModel::load(p)?,
            None => ProbCutModel::empty(),
        };
        Model::new(&w, model).map_err(|k| WeightsError::new(weights, k).into())
    }
}

/// Everything a batch depends on besides its id: the model, the WTHOR lines and the settings.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    pub model: Model,
    pub wthor: Option<WthorLines>,
    pub settings: Settings,
}

impl SelfPlay {
    /// Checks the settings.
    pub fn new(
        model: Model,
        wthor: Option<WthorLines>,
        settings: Settings,
    ) -> Result<SelfPlay, SelfplayError> {
        if let Some(problem) = settings.problem() {
            return Err(SelfplayError::Settings(problem));
        }
        Ok(SelfPlay {
            model,
            wthor,
            settings,
        })
    }

    /// The header of batch `id`.
    pub fn header(&self, id: BatchId) -> BatchHeader {
        BatchHeader {
            id,
            weights_checksum: self.model.weights_checksum,
            probcut_checksum: self.model.probcut_checksum,
            wthor_checksum: self.wthor.as_ref().map_or(0, WthorLines::checksum),
            settings: self.settings,
        }
    }

    /// A one-thread searcher with the per-game table.
    pub fn searcher(&self) -> Result<Searcher<PatternEval>, SelfplayError> {
        let mb = self.settings.game_hash_mb as usize;
        Ok(EngineBuilder::of_size(mb, 1)
            .try_searcher_with(self.model.eval.clone(), Some(self.model.probcut.clone()))
            .map_err(|e| e.of_option("--game-hash"))?)
    }

    /// Plays the game of `seed` with `searcher` (whose table is emptied first, so the game
    /// depends on nothing else): the drawn start, then the engine's best move at every ply
    /// (the midgame search, or an exact solve from `exact_empties` empties and ever after
    /// the first solve), passes as forced, to the end.
    pub fn play_game(
        &self,
        searcher: &Searcher<PatternEval>,
        seed: u64,
    ) -> Result<GameRecord, SelfplayError> {
        searcher.clear();
        let s = &self.settings;
        let opening = draw_opening(&mut Rng::new(seed), s, self.wthor.as_ref());
        let midgame = Limits {
            depth: s.depth,
            selectivity: s.selectivity,
            solve: Some(SolveMode::Exact),
            solve_empties: s.exact_empties,
            ..Limits::depth(s.depth)
        };
        let solve = Limits::solve(SolveMode::Exact);
        let never = AtomicBool::new(false);
        let mut board = opening.board;
        let mut moves = opening.moves;
        let n_opening = moves.len();
        let mut values = Vec::with_capacity(64);
        let mut exact_from = None;
        loop {
            if board.has_no_move() {
                if board.pass().has_no_move() {
                    break;
                }
                board = board.pass();
                moves.push(Move::Pass);
                values.push(NO_VALUE);
                continue;
            }
            let limits = if exact_from.is_some() {
                &solve
            } else {
                &midgame
            };
            let report = searcher.search(&board, limits, &never, &mut |_| {});
            if report.solved == Some(SolveMode::Exact) && exact_from.is_none() {
                exact_from = Some(moves.len());
            }
            let next = report.best.square().and_then(|sq| board.play(sq));
            let Some(next) = next else {
                return Err(SelfplayError::EngineMove {
                    mv: report.best.to_string(),
                    position: board.to_string(),
                });
            };
            values.push(report.score.discs().clamp(-64, 64) as i8);
            moves.push(report.best);
            board = next;
        }
        let result = black_result(&board, moves.len());
        Ok(GameRecord {
            exact_from: exact_from.unwrap_or(moves.len()),
            opening: n_opening,
            start: opening.start,
            moves,
            values,
            result,
        })
    }

    /// Plays the `count` games of batch `id` on `threads` threads. The same id and count give
    /// the same batch whatever the thread count.
    pub fn play_batch(
        &self,
        id: BatchId,
        count: u32,
        threads: usize,
    ) -> Result<Batch, SelfplayError> {
        let seeds: Vec<u64> = (0..count).map(|g| id.game_seed(g)).collect();
        let mut games = vec![None; seeds.len()];
        self.play_games(&seeds, threads, &mut |i, game| {
            games[i] = Some(game);
            Ok(())
        })?;
        Ok(Batch {
            header: self.header(id),
            games: games.into_iter().flatten().collect(),
        })
    }

    /// Plays the game of each seed on `threads` threads (each with its own searcher), calling
    /// `done(i, game)` on this thread as game `i` finishes (in any order). After an error no
    /// new game starts; the games under way finish and the first error is returned.
    pub fn play_games(
        &self,
        seeds: &[u64],
        threads: usize,
        done: &mut dyn FnMut(usize, GameRecord) -> Result<(), SelfplayError>,
    ) -> Result<(), SelfplayError> {
        let threads = threads.clamp(1, seeds.len().max(1));
        let next = AtomicUsize::new(0);
        let abort = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<(usize, Result<GameRecord, SelfplayError>)>();
        std::thread::scope(|scope| {
            for _ in 0..threads {
                let tx = tx.clone();
                let (next, abort) = (&next, &abort);
                scope.spawn(move || {
                    let searcher = match self.searcher() {
                        Ok(s) => s,
                        Err(e) => {
                            let _ = tx.send((usize::MAX, Err(e)));
                            return;
                        }
                    };
                    while !abort.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&seed) = seeds.get(i) else { break };
                        if tx.send((i, self.play_game(&searcher, seed))).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            let mut first_error = None;
            for (i, game) in rx {
                if first_error.is_some() {
                    continue;
                }
                if let Err(e) = game.and_then(|g| done(i, g)) {
                    abort.store(true, Ordering::Relaxed);
                    first_error = Some(e);
                }
            }
            first_error.map_or(Ok(()), Err)
        })
    }
}

/// Black's final disc difference of a finished game after `plies` plies.
fn black_result(board: &Board, plies: usize) -> i8 {
    let score = board.final_score();
    let black = match color_after(plies) {
        Color::Black => score,
        Color::White => -score,
    };
    black as i8
}
