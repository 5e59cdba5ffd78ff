//! The `wedge train` entry point: its arguments (clap) and the pipeline that runs it (read
//! games, label with a cache, fit with checkpoints, write weights).

use super::arg_values::{parse_fraction, parse_share};
use super::dataset::{LabelKind, LabelledPosition};
use super::fit::{encode_all, fit, metrics, FitConfig, Model};
use super::games::{read_game_file, read_wthor_file, wthor_files, GameRecord, HELD_OUT_YEARS};
use super::heldout::{make_heldout, to_obf_text};
use super::label::{label_games, LabelConfig};
use super::label_cache::SolvedLabels;
use super::progress::Progress;
use super::selfplay_samples::{selfplay_samples, SelfplayLabels};
use super::TrainError;
use std::path::PathBuf;
use wedge_core::eval::Heuristic;
use wedge_core::eval::PatternEval;
use wedge_core::paths::write_atomic;

/// `wedge train`: fit the evaluation weights on game records.
#[derive(clap::Args, Clone, Debug)]
pub struct TrainArgs {
    /// Directory of WTHOR `WTH_yyyy.wtb` files (2017-2020 are never trained on).
    #[arg(long, default_value = "data/wthor")]
    pub wthor: PathBuf,
    /// More game files: GGF, or one move transcript (f5d6...) per line.
    #[arg(long = "games")]
    pub games: Vec<PathBuf>,
    /// Directories of self-play batch files (`wedge selfplay --out DIR`) to train on as well.
    #[arg(long = "selfplay")]
    pub selfplay: Vec<PathBuf>,
    /// Self-play positions are labelled this share of their search value and the rest of
    /// their game's final result (0 = the result only, 1 = the search only).
    #[arg(long, default_value_t = 0.5, value_parser = parse_share)]
    pub search_weight: f64,
    /// Start the fit from these weights, with the L2 penalty pulling toward them instead of
    /// toward zero (a new round that builds on the last).
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Work directory for the label cache and the checkpoint.
    #[arg(long, default_value = "target/train")]
    pub work: PathBuf,
    /// Label caches read where the work directory has none, never written (the repository's
    /// exact labels of the WTHOR years, `data/labels`).
    #[arg(long, default_value = "data/labels")]
    pub labels: PathBuf,
    /// Where to write the weights.
    #[arg(long, short, default_value = "weights/default.wts")]
    pub out: PathBuf,
    /// Label the games into the work directory's label cache and stop: no fit, no weights.
    #[arg(long)]
    pub labels_only: bool,
    /// Positions with at most this many empties are labelled by exact solves.
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(0..=22))]
    pub solve_empties: u32,
    /// Number of phases (game stages by number of empties; 61 = one per ply).
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u32).range(1..=61))]
    pub phases: u32,
    /// Each phase also trains on the positions up to this many plies outside its own range
    /// (0 = only its own positions).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=20))]
    pub phase_window: u32,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 40)]
    pub epochs: u32,
    /// Adam step size in discs (decays linearly to a tenth).
    #[arg(long, default_value_t = 0.02)]
    pub lr: f32,
    /// L2 regularisation (pseudo-observations of zero per weight).
    #[arg(long, default_value_t = 4.0)]
    pub l2: f32,
    /// Mini-batches per epoch.
    #[arg(long, default_value_t = 64)]
    pub batches: usize,
    /// Worker threads (set from the global `--threads`; default: all cores).
    #[arg(skip)]
    pub threads: Option<usize>,
    /// Transposition table per labelling thread, MB.
    #[arg(long, default_value_t = 16)]
    pub hash_mb: usize,
    /// Use at most this many games (tiny runs).
    #[arg(long)]
    pub max_games: Option<usize>,
    /// Train on this fraction of the training games (chosen by a hash of the game id; the
    /// validation games are unchanged), for learning curves.
    #[arg(long, default_value_t = 1.0, value_parser = parse_fraction)]
    pub game_fraction: f64,
    /// Ignore any checkpoint and start the fit afresh.
    #[arg(long)]
    pub fresh: bool,
    /// Random seed (shuffling).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Instead of training: write the held-out test set (2017-2020 positions with 20-24
    /// empties, exact scores) to this OBF file.
    #[arg(long)]
    pub heldout_obf: Option<PathBuf>,
    /// Held-out positions per empties count.
    #[arg(long, default_value_t = 100)]
    pub heldout_per_count: usize,
    /// Weights used for move ordering while solving held-out positions (default: stand-in).
    #[arg(long)]
    pub heldout_weights: Option<PathBuf>,
    /// Weights that order the moves of the labelling solves (default: the built-in stand-in
    /// evaluation). The labels are exact either way; trained weights only make the solves
    /// faster (about 1.3x at 20 empties).
    #[arg(long)]
    pub label_weights: Option<PathBuf>,
    /// No progress output (tests).
    #[arg(long)]
    pub quiet: bool,
}

impl TrainArgs {
    /// The defaults, as if given no options.
    pub fn defaults() -> TrainArgs {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Wrap {
            #[command(flatten)]
            args: TrainArgs,
        }
        Wrap::parse_from(["train"]).args
    }
}

fn threads_of(args: &TrainArgs) -> usize {
    args.threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// One source of games and where its labels are cached.
struct Source {
    name: String,
    /// The label cache's file name (in `--work`'s `labels`, or in `--labels`).
    cache: String,
    year: Option<u16>,
    path: PathBuf,
    wthor: bool,
}

/// The samples of `games` from the first label cache that has them: the work directory's,
/// then the read-only `--labels`. A cache that is there but refused is named.
fn cached_samples(
    caches: [PathBuf; 2],
    games: &[GameRecord],
    solve_empties: u32,
    quiet: bool,
) -> Option<Vec<LabelledPosition>> {
    for path in caches.iter().filter(|p| p.exists()) {
        let samples = SolvedLabels::load(path).and_then(|labels| {
            labels.samples(games, solve_empties, 0).map_err(|problem| {
                super::dataset::CacheError::Bad {
                    path: path.clone(),
                    problem,
                }
            })
        });
        match samples {
            Ok(samples) => return Some(samples),
            Err(e) if !quiet => eprintln!("{e}: not used"),
            Err(_) => {}
        }
    }
    None
}

/// Reads, labels (with the cache) and returns the training samples; games from 2017-2020 are
/// never read.
pub fn training_samples(args: &TrainArgs) -> Result<Vec<LabelledPosition>, TrainError> {
    let threads = threads_of(args);
    let label_dir = args.work.join("labels");
    std::fs::create_dir_all(&label_dir)
        .map_err(|e| format!("cannot create {}: {e}", label_dir.display()))?;
    let limit_tag = args.max_games.map_or(String::new(), |n| format!("-max{n}"));
    let mut sources = Vec::new();
    // A --wthor that is there but no directory is refused (by wthor_files), not passed over.
    if args.wthor.as_os_str() != "" && args.wthor.exists() {
        for (path, year) in wthor_files(&args.wthor)? {
            if HELD_OUT_YEARS.contains(&year) {
                continue;
            }
            let stem = path
                .file_stem()
                .map_or("wthor".into(), |s| s.to_string_lossy().into_owned());
            sources.push(Source {
                cache: format!("{stem}-s{}{limit_tag}.lbl", args.solve_empties),
                name: stem,
                year: Some(year),
                path,
                wthor: true,
            });
        }
    } else if args.games.is_empty() && args.selfplay.is_empty() {
        return Err(format!(
            "WTHOR directory {} not found and no --games or --selfplay given",
            args.wthor.display()
        )
        .into());
    }
    for (i, path) in args.games.iter().enumerate() {
        let stem = path
            .file_stem()
            .map_or("games".into(), |s| s.to_string_lossy().into_owned());
        sources.push(Source {
            cache: format!(
                "user{i}-{stem}-{:016x}-s{}{limit_tag}.lbl",
                wedge_core::framing::fnv1a64(path.to_string_lossy().as_bytes()),
                args.solve_empties
            ),
            name: stem,
            year: None,
            path: path.clone(),
            wthor: false,
        });
    }
    // Every source's games are read; those a cache has labels for take them, the others are
    // labelled below.
    let mut remaining = args.max_games.unwrap_or(usize::MAX);
    let mut parts: Vec<(usize, Vec<LabelledPosition>)> = Vec::new();
    let mut todo: Vec<(usize, Vec<GameRecord>)> = Vec::new();
    for (si, src) in sources.iter().enumerate() {
        if remaining == 0 {
            break;
        }
        let (mut games, bad) = if src.wthor {
            read_wthor_file(&src.path, src.year.unwrap_or(0), remaining)?
        } else {
            read_game_file(&src.path)?
        };
        games.truncate(remaining);
        remaining -= games.len();
        if bad > 0 && !args.quiet {
            eprintln!("{}: {bad} records did not replay (skipped)", src.name);
        }
        let caches = [label_dir.join(&src.cache), args.labels.join(&src.cache)];
        match cached_samples(caches, &games, args.solve_empties, args.quiet) {
            Some(samples) => parts.push((si, samples)),
            None => todo.push((si, games)),
        }
    }
    let total: u64 = todo.iter().map(|(_, g)| g.len() as u64).sum();
    if total > 0 {
        if !args.quiet {
            eprintln!(
                "labelling {total} games from {} files (exact solves at <= {} empties, {threads} threads)",
                todo.len(),
                args.solve_empties
            );
        }
        let cfg = LabelConfig {
            solve_empties: args.solve_empties,
            threads,
            hash_mb: args.hash_mb,
        };
        let order = match &args.label_weights {
            Some(w) => Some(PatternEval::load(w).map_err(|e| e.to_string())?),
            None => None,
        };
        let mut progress = Progress::new("games", total, args.quiet);
        let mut base = 0u64;
        for (si, games) in todo {
            let labels = match &order {
                Some(e) => label_games(&games, &cfg, e, &mut progress, base),
                None => label_games(&games, &cfg, &Heuristic, &mut progress, base),
            }
            .map_err(|e| e.of_option("--hash-mb"))?;
            base += games.len() as u64;
            labels.save(&label_dir.join(&sources[si].cache))?;
            let samples = labels
                .samples(&games, args.solve_empties, 0)
                .map_err(|e| format!("labels of {}: {e}", sources[si].name))?;
            parts.push((si, samples));
        }
        progress.finish(base);
    }
    parts.sort_by_key(|(si, _)| *si);
    // Game ids are per source: make them unique across sources.
    let mut out = Vec::new();
    for (si, samples) in parts {
        out.extend(samples.into_iter().map(|mut s| {
            s.game = s.game.wrapping_add((si as u32) << 20);
            s
        }));
    }
    let labels = SelfplayLabels {
        search_weight: args.search_weight as f32,
    };
    for (i, dir) in args.selfplay.iter().enumerate() {
        let samples = selfplay_samples(dir, i as u32, labels)?;
        if !args.quiet {
            eprintln!("{}: {} self-play positions", dir.display(), samples.len());
        }
        out.extend(samples);
    }
    Ok(out)
}

/// True for the games kept aside to watch the fit (one in 20, by a hash of the game id).
pub fn is_validation(s: &LabelledPosition) -> bool {
    wedge_core::rng::mix64(u64::from(s.game) ^ 0x5EED).is_multiple_of(20)
}

/// True for the training games kept by `--game-fraction` (by a hash of the game id that is
/// independent of the validation split).
fn in_fraction(s: &LabelledPosition, fraction: f64) -> bool {
    let bucket = wedge_core::rng::mix64(u64::from(s.game) ^ 0xF4AC_710E) % 1_000_000;
    (bucket as f64) < fraction * 1_000_000.0
}

/// What a fit was trained on, for the weights file's description.
struct DataSources {
    /// WTHOR positions, of which `exact` were solved at `solve_empties` or fewer.
    wthor: usize,
    exact: usize,
    solve_empties: u32,
    /// Self-play positions, `self_play_exact` of them solved in the game, the others labelled
    /// `search_weight` search value and the rest final result.
    self_play: usize,
    self_play_exact: usize,
    search_weight: f64,
}

impl DataSources {
    /// Counts the training positions by where their labels came from.
    fn count(train: &[LabelledPosition], solve_empties: u32, search_weight: f64) -> DataSources {
        let mut sources = DataSources {
            wthor: 0,
            exact: 0,
            solve_empties,
            self_play: 0,
            self_play_exact: 0,
            search_weight,
        };
        for s in train {
            match s.kind {
                LabelKind::SelfPlay => sources.self_play += 1,
                LabelKind::SelfPlayExact => {
                    sources.self_play += 1;
                    sources.self_play_exact += 1;
                }
                kind => {
                    sources.wthor += 1;
                    sources.exact += usize::from(kind == LabelKind::Exact);
                }
            }
        }
        sources
    }

    /// Names only the sources present: a fit from self-play alone mentions no WTHOR labels.
    fn describe(&self) -> String {
        let wthor = format!(
            "{} positions of WTHOR games before 2017 ({} exact solves at <= {} empties, the rest \
             theoretical scores or game results)",
            self.wthor, self.exact, self.solve_empties
        );
        let self_play = format!(
            "{} self-play positions ({} exact solves, the others labelled {} search, {} result)",
            self.self_play,
            self.self_play_exact,
            self.search_weight,
            1.0 - self.search_weight
        );
        match (self.wthor > 0, self.self_play > 0) {
            (true, true) => format!("{wthor} and {self_play}"),
            (false, true) => self_play,
            _ => wthor,
        }
    }
}

/// Runs `wedge train`.
pub fn run_train(args: &TrainArgs) -> Result<(), TrainError> {
    let threads = threads_of(args);
    if let Some(out) = &args.heldout_obf {
        let entries = match &args.heldout_weights {
            Some(w) => {
                let e = PatternEval::load(w).map_err(|e| e.to_string())?;
                make_heldout(
                    &args.wthor,
                    20..=24,
                    args.heldout_per_count,
                    threads,
                    &e,
                    args.quiet,
                )?
            }
            None => make_heldout(
                &args.wthor,
                20..=24,
                args.heldout_per_count,
                threads,
                &Heuristic,
                args.quiet,
            )?,
        };
        write_atomic(out, to_obf_text(&entries).as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        eprintln!(
            "wrote {} held-out positions to {}",
            entries.len(),
            out.display()
        );
        return Ok(());
    }
    let started = std::time::Instant::now();
    let samples = training_samples(args)?;
    if args.labels_only {
        eprintln!(
            "{} positions labelled; the label cache is in {}",
            samples.len(),
            args.work.join("labels").display()
        );
        return Ok(());
    }
    let (val, mut train): (Vec<LabelledPosition>, Vec<LabelledPosition>) =
        samples.into_iter().partition(is_validation);
    if args.game_fraction < 1.0 {
        train.retain(|s| in_fraction(s, args.game_fraction));
    }
    let n_phases = args.phases as usize;
    if !args.quiet {
        eprintln!(
            "{} training positions, {} validation positions; encoding",
            train.len(),
            val.len()
        );
    }
    if train.is_empty() {
        return Err("no training positions".into());
    }
    let train_rows = encode_all(&train, n_phases, args.phase_window, threads);
    let val_rows = encode_all(&val, n_phases, 0, threads);
    let sources = DataSources::count(&train, args.solve_empties, args.search_weight);
    drop(train);
    drop(val);
    let cfg = FitConfig {
        n_phases,
        epochs: args.epochs,
        lr: args.lr,
        l2: args.l2,
        batches: args.batches,
        threads,
        seed: args.seed,
    };
    std::fs::create_dir_all(&args.work)
        .map_err(|e| format!("cannot create {}: {e}", args.work.display()))?;
    let ckpt = args.work.join(format!("checkpoint-p{n_phases}.ckpt"));
    if args.fresh {
        let _ = std::fs::remove_file(&ckpt);
    }
    let init = match &args.init {
        Some(path) => {
            let w = wedge_core::eval::Weights::load(path)?;
            let model = Model::from_weights(&w).map_err(|source| TrainError::StartWeights {
                path: path.clone(),
                source,
            })?;
            Some(model)
        }
        None => None,
    };
    let (model, reports) = fit(
        &cfg,
        &train_rows,
        &val_rows,
        init.as_ref(),
        Some(&ckpt),
        args.quiet,
    )?;
    let val = metrics(&model, &val_rows, threads);
    let created = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let fraction = if args.game_fraction < 1.0 {
        format!(" ({} of the training games)", args.game_fraction)
    } else {
        String::new()
    };
    let init = args
        .init
        .as_ref()
        .map_or(String::new(), |p| format!("; started from {}", p.display()));
    let description = format!(
        "Wedge pattern weights: {} phases (window {} plies); trained on {} rows{fraction} from {}{init}; \
         Adam lr {} l2 {} {} epochs x {} batches; validation MAE {:.3} (20-24 empties {:.3})",
        n_phases,
        args.phase_window,
        train_rows.len(),
        sources.describe(),
        args.lr,
        args.l2,
        args.epochs,
        args.batches,
        val.mae,
        val.mae_2024
    );
    let weights = model.to_weights(&description, created);
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    weights.save(&args.out).map_err(|e| e.to_string())?;
    if !args.quiet {
        eprintln!(
            "wrote {} ({} epochs this run, {:.0} s); {description}",
            args.out.display(),
            reports.len(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(game: u32) -> LabelledPosition {
        LabelledPosition {
            board: wedge_core::board::Board::default(),
            label: 0,
            kind: LabelKind::Theoretical,
            year: 2000,
            game,
        }
    }

    #[test]
    fn game_fraction_keeps_about_that_share_of_games() {
        let games: Vec<LabelledPosition> = (0..20_000).map(sample).collect();
        let kept = games.iter().filter(|s| in_fraction(s, 0.25)).count();
        assert!((4_600..5_400).contains(&kept), "kept {kept} of 20000");
        // A smaller fraction keeps a subset of a larger one.
        assert!(games
            .iter()
            .filter(|s| in_fraction(s, 0.1))
            .all(|s| in_fraction(s, 0.25)));
        assert!(games.iter().all(|s| in_fraction(s, 1.0)));
    }

    #[test]
    fn sources_are_counted_by_label_kind() {
        let kinds = [
            LabelKind::Exact,
            LabelKind::Exact,
            LabelKind::Theoretical,
            LabelKind::FinalResult,
            LabelKind::SelfPlay,
            LabelKind::SelfPlayExact,
        ];
        let train: Vec<LabelledPosition> = kinds
            .iter()
            .map(|&kind| LabelledPosition { kind, ..sample(0) })
            .collect();
        let sources = DataSources::count(&train, 18, 0.5);
        assert_eq!(
            (
                sources.wthor,
                sources.exact,
                sources.self_play,
                sources.self_play_exact
            ),
            (4, 2, 2, 1)
        );
    }

    #[test]
    fn description_names_only_the_sources_trained_on() {
        let mut sources = DataSources {
            wthor: 0,
            exact: 0,
            solve_empties: 14,
            self_play: 1_000,
            self_play_exact: 100,
            search_weight: 0.5,
        };
        assert_eq!(
            sources.describe(),
            "1000 self-play positions (100 exact solves, the others labelled 0.5 search, 0.5 \
             result)"
        );
        sources.wthor = 300;
        sources.exact = 200;
        assert_eq!(
            sources.describe(),
            "300 positions of WTHOR games before 2017 (200 exact solves at <= 14 empties, the rest \
             theoretical scores or game results) and 1000 self-play positions (100 exact solves, \
             the others labelled 0.5 search, 0.5 result)"
        );
        sources.self_play = 0;
        assert!(!sources.describe().contains("self-play"));
    }

    #[test]
    fn game_fraction_is_validated() {
        assert_eq!(parse_fraction("0.5"), Ok(0.5));
        assert_eq!(parse_fraction("1"), Ok(1.0));
        for bad in ["0", "-0.1", "1.5", "half", "NaN"] {
            assert!(parse_fraction(bad).is_err(), "{bad}");
        }
    }
}
