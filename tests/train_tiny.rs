//! A tiny training run: a few hundred WTHOR games from `data/wthor`, labelled with exact solves
//! near the end, fitted for a few epochs. The loss must go down, the written weights must load,
//! and the loaded evaluation must agree with the fitted model up to rounding.

#[path = "common/data.rs"]
mod data;

use data::data_path;
use wedge_core::eval::Heuristic;
use wedge_core::eval::PatternEval;
use wedge_lab::train::LabelledPosition;
use wedge_lab::train::Progress;
use wedge_lab::train::{encode_all, fit, FitConfig};
use wedge_lab::train::{label_games, LabelConfig};
use wedge_lab::train::{read_wthor_file, GameRecord};
use wedge_lab::train::{run_train, training_samples, TrainArgs};

/// The first `n` games of 1990 from `data/wthor`.
fn wthor_games(n: usize) -> Vec<GameRecord> {
    let path = data_path("wthor/WTH_1990.wtb");
    read_wthor_file(&path, 1990, n)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .0
}

#[test]
fn tiny_training_run_lowers_the_loss() {
    let games = wthor_games(300);
    assert!(games.len() >= 200);
    let cfg = LabelConfig {
        solve_empties: 10,
        threads: 2,
        hash_mb: 4,
    };
    let mut progress = Progress::new("games", games.len() as u64, true);
    let labels = label_games(&games, &cfg, &Heuristic, &mut progress, 0).unwrap();
    let samples: Vec<LabelledPosition> = labels.samples(&games, cfg.solve_empties, 0).unwrap();
    assert!(samples.len() > 10_000);
    let (val, train): (Vec<LabelledPosition>, Vec<LabelledPosition>) =
        samples.into_iter().partition(|s| s.game % 10 == 0);
    let fit_cfg = FitConfig {
        n_phases: 4,
        epochs: 4,
        lr: 0.05,
        l2: 1.0,
        batches: 8,
        threads: 2,
        seed: 1,
    };
    let train_rows = encode_all(&train, fit_cfg.n_phases, 0, 2);
    let val_rows = encode_all(&val, fit_cfg.n_phases, 0, 2);
    let (model, reports) = fit(&fit_cfg, &train_rows, &val_rows, None, None, true).unwrap();
    assert_eq!(reports.len(), 4);
    let first = reports[0].train_mse;
    let last = reports[3].train_mse;
    assert!(last < 0.8 * first, "train MSE {first} -> {last}");
    assert!(reports[3].validation.mse < reports[0].validation.mse);

    // The file written from the model evaluates like the model (up to rounding).
    let dir = std::env::temp_dir().join(format!("wedge-train-tiny-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tiny.wts");
    model.to_weights("tiny", 0).save(&path).unwrap();
    let eval = PatternEval::load(&path).unwrap();
    for (s, r) in train.iter().zip(&train_rows).take(2_000) {
        let units = eval.eval_units(&s.board) as f32 / eval.scale() as f32;
        assert!(
            (units - model.predict(r)).abs() < 0.5,
            "{units} vs {}",
            model.predict(r)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The labelling solves are exact whichever evaluation orders their moves: the shipped
/// weights (`--label-weights`) and the stand-in give the same labels.
#[test]
fn labels_do_not_depend_on_the_ordering_evaluation() {
    let games = wthor_games(40);
    let cfg = LabelConfig {
        solve_empties: 14,
        threads: 2,
        hash_mb: 4,
    };
    let shipped = PatternEval::load(std::path::Path::new("weights/default.wts")).unwrap();
    let mut progress = Progress::new("games", games.len() as u64, true);
    let stand_in = label_games(&games, &cfg, &Heuristic, &mut progress, 0).unwrap();
    let trained = label_games(&games, &cfg, &shipped, &mut progress, 0).unwrap();
    assert_eq!(stand_in, trained);
    let stand_in = stand_in.samples(&games, cfg.solve_empties, 0).unwrap();
    let trained = trained.samples(&games, cfg.solve_empties, 0).unwrap();
    assert!(stand_in.len() > 40 * 10);
    assert_eq!(stand_in.len(), trained.len());
    for (a, b) in stand_in.iter().zip(&trained) {
        assert_eq!((a.board, a.label, a.game), (b.board, b.label, b.game));
    }
}

/// The file names in `dir`, sorted.
fn file_names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The label cache: `--labels-only` fills it and writes no weights; a run with an empty work
/// directory takes another run's labels from `--labels` (read-only, as `data/labels` is)
/// instead of solving again and gets the same samples; a damaged cache there is refused, and
/// the games are solved again.
#[test]
fn label_caches_are_read_from_labels_and_damaged_ones_solved_again() {
    let dir = std::env::temp_dir().join(format!("wedge-label-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut args = TrainArgs::defaults();
    args.wthor = data_path("wthor");
    args.max_games = Some(40);
    args.solve_empties = 10;
    args.threads = Some(2);
    args.hash_mb = 4;
    args.quiet = true;
    args.work = dir.join("first");
    args.labels = dir.join("none");
    args.out = dir.join("never.wts");
    args.labels_only = true;
    run_train(&args).unwrap();
    assert!(!args.out.exists());
    let first = training_samples(&args).unwrap();
    assert!(first.len() > 40 * 40, "{} samples", first.len());
    let caches = file_names(&dir.join("first/labels"));
    assert!(!caches.is_empty());

    args.work = dir.join("second");
    args.labels = dir.join("first/labels");
    assert_eq!(training_samples(&args).unwrap(), first);
    assert!(file_names(&dir.join("second/labels")).is_empty());

    let damaged = args.labels.join(&caches[0]);
    let good = std::fs::read(&damaged).unwrap();
    let mut bytes = good.clone();
    bytes[good.len() / 2] ^= 1;
    std::fs::write(&damaged, bytes).unwrap();
    args.work = dir.join("third");
    assert_eq!(training_samples(&args).unwrap(), first);
    assert_eq!(file_names(&dir.join("third/labels")), caches[..1]);
    assert_eq!(
        std::fs::read(dir.join("third/labels").join(&caches[0])).unwrap(),
        good
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
