//! The `wedge selfplay` arguments (clap) and what they ask for: a resumable run into a
//! directory (played here or, by the command line, on a queue's workers), or the statistics of
//! one.

use super::error::SelfplayError;
use super::openings::WthorLines;
use super::play::{Model, SelfPlay};
use super::run::{run, RunPlan, RunSummary};
use super::stats::Stats;
use super::unit::Settings;
use crate::train::arg_values::{parse_share, parse_value, BadValue};
use std::path::PathBuf;
use wedge_core::search::Selectivity;
use wedge_engine::EngineBuilder;

/// `wedge selfplay`: games of the engine against itself, recorded for training.
#[derive(clap::Args, Clone, Debug)]
pub struct SelfplayArgs {
    /// Directory of batch files (`batch-000123.wsp`); a rerun of the same command skips the
    /// batches already there.
    #[arg(long, required_unless_present = "stats")]
    pub out: Option<PathBuf>,
    /// Games in total.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Games per batch file (the unit of work).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub batch_size: u32,
    /// Run seed: batch k's games are drawn from a seed derived from it and k.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Midgame search depth.
    #[arg(long, default_value_t = Settings::DEFAULT.depth, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Multi-ProbCut confidence of the midgame searches, percent (100 = no pruning; 99, 98,
    /// 95, 87 or 73).
    #[arg(long, default_value_t = Settings::DEFAULT.selectivity.percent(), value_parser = clap::value_parser!(u8).range(50..=100))]
    pub selectivity: u8,
    /// Positions with at most this many empties are solved exactly, and so is the rest of
    /// the game.
    #[arg(long, default_value_t = Settings::DEFAULT.exact_empties, value_parser = clap::value_parser!(u32).range(0..=60))]
    pub exact_empties: u32,
    /// Length of the random openings (uniformly random legal moves), and of the WTHOR prefix
    /// before the deviating move: FIRST-LAST plies.
    #[arg(long, default_value = "6-24", value_parser = parse_plies)]
    pub opening_plies: (u32, u32),
    /// Directory of WTHOR `WTH_yyyy.wtb` files whose games the WTHOR starts leave (2017-2020
    /// are never used); without it every start is a random opening.
    #[arg(long)]
    pub wthor: Option<PathBuf>,
    /// Share of the games that start by leaving a WTHOR game (with --wthor).
    #[arg(long, default_value_t = 0.5, value_parser = parse_share)]
    pub wthor_ratio: f64,
    /// Transposition table of each game, MB (emptied at the start of every game).
    #[arg(long, default_value_t = Settings::DEFAULT.game_hash_mb, value_parser = clap::value_parser!(u32).range(1..=65_535))]
    pub game_hash: u32,
    /// Instead of playing: print the games, positions and score distributions of the batch
    /// files in DIR.
    #[arg(long, value_name = "DIR", conflicts_with = "out")]
    pub stats: Option<PathBuf>,
    /// Play the batches on the workers of this NATS JetStream queue (nats://HOST:PORT, see
    /// `wedge worker`) instead of local threads; the files are the same.
    #[arg(long, value_name = "URL", conflicts_with = "stats")]
    pub queue: Option<String>,
    /// No progress output.
    #[arg(long)]
    pub quiet: bool,
    /// Threads, one game each (set from the global `--threads`; default: all cores).
    #[arg(skip)]
    pub threads: Option<usize>,
}

fn parse_plies(text: &str) -> Result<(u32, u32), BadValue> {
    parse_value(text, "FIRST-LAST plies with FIRST <= LAST <= 59", |t| {
        let (a, b) = t.split_once('-').unwrap_or((t, t));
        let (a, b) = (a.trim().parse::<u32>().ok()?, b.trim().parse::<u32>().ok()?);
        (a <= b && b <= 59).then_some((a, b))
    })
}

impl SelfplayArgs {
    /// The settings these arguments ask for (no WTHOR share without WTHOR games).
    pub fn settings(&self) -> Settings {
        let per_mille = if self.wthor.is_some() {
            (self.wthor_ratio * 1000.0).round() as u32
        } else {
            0
        };
        Settings {
            depth: self.depth,
            selectivity: Selectivity::from_percent(self.selectivity),
            exact_empties: self.exact_empties,
            min_plies: self.opening_plies.0,
            max_plies: self.opening_plies.1,
            wthor_per_mille: per_mille,
            game_hash_mb: self.game_hash,
        }
    }
}

/// A self-play run ready to play, here ([`SelfplayRun::play`]) or on the workers of a queue
/// (`distrib::run_selfplay_on_queue`): the same batch files either way.
pub struct SelfplayRun {
    pub out: PathBuf,
    pub selfplay: SelfPlay,
    pub plan: RunPlan,
    /// The weights file the games are played with (a queue sends its bytes to the workers).
    pub weights: PathBuf,
    /// Local threads, one game each.
    pub threads: usize,
    pub quiet: bool,
}

/// What `wedge selfplay` asks for, with the weights and ProbCut model `engine` names: `None`
/// once a directory's statistics are printed (`--stats DIR`), else the run to play.
pub fn prepare(
    args: &SelfplayArgs,
    engine: &EngineBuilder,
) -> Result<Option<SelfplayRun>, SelfplayError> {
    if let Some(dir) = &args.stats {
        print!("{}", Stats::of_dir(dir)?.to_text());
        return Ok(None);
    }
    let Some(out) = &args.out else {
        return Err(SelfplayError::Settings(
            "say where the batch files go with --out DIR".into(),
        ));
    };
    let weights = engine
        .weights_path()
        .map_err(|e| SelfplayError::Settings(e.to_string()))?;
    let model = Model::load(&weights, engine.probcut_path().as_deref())?;
    let settings = args.settings();
    let wthor = match &args.wthor {
        Some(dir) if settings.wthor_per_mille > 0 => {
            let lines = WthorLines::load(dir)?;
            if lines.is_empty() {
                return Err(SelfplayError::Wthor {
                    path: dir.clone(),
                    message: "no games".into(),
                });
            }
            if !args.quiet {
                eprintln!(
                    "{} WTHOR games from {} ({} records skipped)",
                    lines.len(),
                    dir.display(),
                    lines.skipped
                );
            }
            Some(lines)
        }
        _ => None,
    };
    let selfplay = SelfPlay::new(model, wthor, settings)?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let plan = RunPlan {
        run_seed: args.seed,
        games: args.games,
        batch_size: args.batch_size,
    };
    Ok(Some(SelfplayRun {
        out: out.clone(),
        selfplay,
        plan,
        weights,
        threads,
        quiet: args.quiet,
    }))
}

impl SelfplayRun {
    /// Plays the batches missing from the directory on local threads.
    pub fn play(&self) -> Result<RunSummary, SelfplayError> {
        run(
            &self.out,
            &self.selfplay,
            &self.plan,
            self.threads,
            self.quiet,
        )
    }

    /// The line that ends the command: batches, games and their rate over `secs` seconds.
    pub fn summary_line(&self, summary: &RunSummary, secs: f64) -> String {
        format!(
            "{}: {} batches ({} already there, {} replaced), {} games played in {:.1} s ({:.2} games/s)",
            self.out.display(),
            summary.batches,
            summary.skipped,
            summary.replaced.len(),
            summary.games_played,
            secs,
            summary.games_played as f64 / secs.max(1e-9)
        )
    }
}
