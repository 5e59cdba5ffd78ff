//! Self-play games as training samples: every searched position of the batch files in a
//! directory, labelled by a mix of the search's value and the game's final result.

use super::dataset::{LabelKind, LabelledPosition};
use super::selfplay::{batch_files, Batch, ValueKind};
use super::TrainError;
use std::path::Path;

/// Game ids of self-play samples start here, above every game-record source's ids (those are
/// `source << 20`, with a few dozen sources), so the validation split sees distinct games.
const GAME_ID_BASE: u32 = 1 << 28;

/// How a self-play position is labelled: `search_weight` of the search's value plus the rest
/// of the game's final result (exactly solved positions keep their exact value).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SelfplayLabels {
    pub search_weight: f32,
}

impl SelfplayLabels {
    /// The label of a position whose search said `search` in a game that ended `result`.
    pub fn label(&self, search: i8, result: i8) -> i8 {
        let w = self.search_weight.clamp(0.0, 1.0);
        let v = w * f32::from(search) + (1.0 - w) * f32::from(result);
        v.round().clamp(-64.0, 64.0) as i8
    }
}

/// Every searched position of the games in `dir` (source number `source`, for distinct
/// game ids), labelled as `labels` says.
pub fn selfplay_samples(
    dir: &Path,
    source: u32,
    labels: SelfplayLabels,
) -> Result<Vec<LabelledPosition>, TrainError> {
    let files = batch_files(dir).map_err(|e| e.to_string())?;
    if files.is_empty() {
        return Err(format!("{}: no self-play batch files", dir.display()).into());
    }
    let mut out = Vec::new();
    let mut game = GAME_ID_BASE + (source << 22);
    for path in files {
        let batch = Batch::read(&path).map_err(|e| e.to_string())?;
        for record in &batch.games {
            for s in record.samples(&batch.header.settings) {
                let (label, kind) = match s.kind {
                    ValueKind::Exact => (s.search, LabelKind::SelfPlayExact),
                    ValueKind::Midgame { .. } => {
                        (labels.label(s.search, s.result), LabelKind::SelfPlay)
                    }
                };
                out.push(LabelledPosition {
                    board: s.board,
                    label,
                    kind,
                    year: 0,
                    game,
                });
            }
            game = game.wrapping_add(1);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::fit::{encode_all, fit, metrics, FitConfig, Model};
    use crate::train::selfplay::{BatchId, Model as PlayModel, SelfPlay, Settings};
    use std::path::PathBuf;
    use wedge_core::eval::test_weights;
    use wedge_core::search::ProbCutModel;

    /// A directory holding one batch of `games` tiny self-play games by test weights.
    fn tiny_run(name: &str, games: u32) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("wedge-sp-samples-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let settings = Settings::TINY;
        let model = PlayModel::new(&test_weights(4, 11), ProbCutModel::empty()).unwrap();
        let sp = SelfPlay::new(model, None, settings).unwrap();
        let id = BatchId {
            run_seed: 7,
            index: 0,
        };
        let batch = sp.play_batch(id, games, 2).unwrap();
        batch.write(&dir.join(id.file_name())).unwrap();
        dir
    }

    fn fit_config(lr: f32) -> FitConfig {
        FitConfig {
            n_phases: 4,
            epochs: 3,
            lr,
            l2: 1.0,
            batches: 4,
            threads: 2,
            seed: 1,
        }
    }

    #[test]
    fn every_searched_position_is_a_sample_of_its_own_game() {
        let dir = tiny_run("positions", 6);
        let batch = Batch::read(&batch_files(&dir).unwrap()[0]).unwrap();
        let labels = SelfplayLabels { search_weight: 0.5 };
        let samples = selfplay_samples(&dir, 1, labels).unwrap();
        let expected: usize = batch
            .games
            .iter()
            .map(|g| g.samples(&batch.header.settings).count())
            .sum();
        assert_eq!(samples.len(), expected);
        let mut games: Vec<u32> = samples.iter().map(|s| s.game).collect();
        games.dedup();
        assert_eq!(games.len(), 6, "one id per game, in order");
        let plain: Vec<_> = batch
            .games
            .iter()
            .flat_map(|g| g.samples(&batch.header.settings))
            .collect();
        for (s, p) in samples.iter().zip(&plain) {
            assert_eq!(s.board, p.board);
            match p.kind {
                ValueKind::Exact => {
                    assert_eq!((s.label, s.kind), (p.search, LabelKind::SelfPlayExact))
                }
                ValueKind::Midgame { .. } => {
                    assert_eq!(s.label, labels.label(p.search, p.result));
                    assert_eq!(s.kind, LabelKind::SelfPlay);
                }
            }
        }
        assert!(samples.iter().any(|s| s.kind == LabelKind::SelfPlayExact));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn zero_learning_rate_from_initial_weights_changes_nothing() {
        let dir = tiny_run("zero-lr", 4);
        let samples = selfplay_samples(&dir, 0, SelfplayLabels { search_weight: 0.5 }).unwrap();
        let rows = encode_all(&samples, 4, 0, 2);
        let weights = test_weights(4, 5);
        let init = Model::from_weights(&weights).unwrap();
        let (model, _) = fit(&fit_config(0.0), &rows, &rows, Some(&init), None, true).unwrap();
        assert_eq!(model.to_weights("same", 0).data, weights.data);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_tiny_selfplay_round_lowers_the_loss_of_the_weights_that_played_it() {
        let dir = tiny_run("round", 24);
        let samples = selfplay_samples(&dir, 0, SelfplayLabels { search_weight: 0.5 }).unwrap();
        let rows = encode_all(&samples, 4, 0, 2);
        let init = Model::from_weights(&test_weights(4, 11)).unwrap();
        let before = metrics(&init, &rows, 2).mse;
        let (model, _) = fit(&fit_config(0.05), &rows, &rows, Some(&init), None, true).unwrap();
        let after = metrics(&model, &rows, 2).mse;
        assert!(after < 0.8 * before, "MSE {before} -> {after}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn labels_mix_search_and_result() {
        let only_result = SelfplayLabels { search_weight: 0.0 };
        let only_search = SelfplayLabels { search_weight: 1.0 };
        let half = SelfplayLabels { search_weight: 0.5 };
        assert_eq!(only_result.label(10, -4), -4);
        assert_eq!(only_search.label(10, -4), 10);
        assert_eq!(half.label(10, -4), 3);
        assert_eq!(half.label(-64, -64), -64);
    }
}
