//! `wedge match` (two engines over NBoard or GTP: Elo, SPRT, GGF records; here or on a queue's
//! workers) and `wedge gate` (new weights against the current ones).

use super::{CliError, Common};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;
use wedge_core::eval::Weights;
use wedge_engine::EngineBuilder;
use wedge_lab::distrib::QueueGames;
use wedge_lab::distrib::{valid_engine_name, QueuedEngine, QueuedSide, SolverChecksums};
use wedge_lab::tools::gate::{run_gate, GateArgs, GateDecision};
use wedge_lab::tools::match_runner as m;
use wedge_lab::train::selfplay::Model;

/// `wedge match`: the first `--engine` is the one the statistics are about.
#[derive(Args)]
pub struct MatchArgs {
    /// An engine command line (give exactly two), e.g. "./target/release/wedge nboard".
    #[arg(long = "engine", required = true, num_args = 1)]
    pub engines: Vec<String>,
    /// Protocol: nboard or gtp; once for both engines or twice (one per engine, in order).
    #[arg(long = "protocol", num_args = 1)]
    pub protocols: Vec<String>,
    /// Display names instead of the engines' own (once per engine, in order).
    #[arg(long = "name", num_args = 1)]
    pub names: Vec<String>,
    /// Fixed midgame depth sent to the engines (NBoard `set depth`, GTP `wedge-depth` when
    /// offered); once for both or twice (one per engine).
    #[arg(long = "depth", num_args = 1, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depths: Vec<u32>,
    /// Fixed time per move in seconds.
    #[arg(long, conflicts_with = "clocks")]
    pub time_per_move: Option<f64>,
    /// Game clock per side: seconds (`60`), or a GGF clock (`05:00`, `05:00/02` with
    /// increment); once for both engines or twice (one per engine, in order: time odds).
    #[arg(long = "clock", num_args = 1)]
    pub clocks: Vec<String>,
    /// Number of games (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Openings file: one transcript per line (XOT format; default books/openings-8ply.txt).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Games played at the same time (each with its own two engine processes).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub concurrency: u32,
    /// GGF file that receives every game.
    #[arg(long, default_value = "match.ggf")]
    pub out: PathBuf,
    /// Sequential probability ratio test: stop once H0 (Elo = ELO0) or H1 (Elo = ELO1) is
    /// accepted with error rates ALPHA and BETA.
    #[arg(long, num_args = 4, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"])]
    pub sprt: Option<Vec<f64>>,
    /// Without a clock: seconds to wait for a move before the engine is declared hung.
    #[arg(long, default_value_t = 60.0)]
    pub move_timeout: f64,
    /// With a clock or time per move: grace seconds before a late move loses on time.
    #[arg(long, default_value_t = 0.5)]
    pub time_margin: f64,
    /// Seconds an engine may take to start and answer the handshake.
    #[arg(long, default_value_t = 30.0)]
    pub start_timeout: f64,
    /// Play the games on the workers of this NATS JetStream queue (`nats://HOST:PORT`). Each
    /// `--engine` is then `wedge` (the worker's own Wedge with the shipped or `--weights`
    /// weights), `wedge:WEIGHTS` (with that weights file and the ProbCut model beside it), or
    /// the name of an engine the workers were started with (`wedge worker --engine
    /// NAME=COMMAND`). Every run plays new games (see --resume).
    #[arg(long, value_name = "URL", conflicts_with = "concurrency")]
    pub queue: Option<String>,
    /// With --queue: continue the latest run of this same match (the same engines, options
    /// and openings; --games may differ) from the last 7 days: its games already played are
    /// taken back and only the rest are played.
    #[arg(long, requires = "queue")]
    pub resume: bool,
}

/// One value for both engines, or one per engine; `default` when none is given.
fn per_engine<T: Clone>(
    values: &[T],
    what: &str,
    default: Option<T>,
) -> Result<[Option<T>; 2], CliError> {
    match values {
        [] => Ok([default.clone(), default]),
        [v] => Ok([Some(v.clone()), Some(v.clone())]),
        [a, b] => Ok([Some(a.clone()), Some(b.clone())]),
        _ => Err(CliError::Usage(format!(
            "{what} may be given once or twice, not {} times",
            values.len()
        ))),
    }
}

/// The most seconds an option may give: deadlines are `now + seconds`, which must not overflow.
const MAX_SECONDS: f64 = 1e6;

/// A positive number of seconds, at most [`MAX_SECONDS`], given as option `what`.
pub(super) fn seconds(value: f64, what: &str) -> Result<Duration, CliError> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero() && value <= MAX_SECONDS)
        .ok_or_else(|| {
            CliError::Usage(format!(
                "{what} must be a positive number of seconds up to {MAX_SECONDS}, got {value}"
            ))
        })
}

/// The time control of each engine the options ask for.
fn time_controls(args: &MatchArgs) -> Result<[m::MatchTimeControl; 2], CliError> {
    if let Some(t) = args.time_per_move {
        return Ok([m::MatchTimeControl::PerMove(seconds(t, "--time-per-move")?); 2]);
    }
    let clock = |c: &String| -> Result<m::MatchTimeControl, CliError> {
        Ok(m::MatchTimeControl::Clock(match c.trim().parse::<f64>() {
            Ok(secs) => wedge_core::formats::Clock {
                main_ms: seconds(secs, "--clock")?.as_millis() as u64,
                increment_ms: 0,
                extension_ms: None,
            },
            Err(_) => wedge_core::formats::parse_clock(c)
                .map_err(|e| CliError::Usage(format!("--clock: {e}")))?,
        }))
    };
    Ok(match per_engine(&args.clocks, "--clock", None)? {
        [Some(a), Some(b)] => [clock(&a)?, clock(&b)?],
        _ => [m::MatchTimeControl::Depth; 2],
    })
}

/// A queued match's side for `--engine text` (see [`MatchArgs::queue`]), and the weights a
/// Wedge side needs uploaded (its play weights, then its solver's weights if it has them).
fn queued_side(
    common: &Common,
    text: &str,
    spec: &m::EngineSpec,
) -> Result<(QueuedSide, Vec<(Weights, Model)>), CliError> {
    let wedge = |builder: EngineBuilder| -> Result<_, CliError> {
        let (weights, model) = super::common::queue_model(&builder)?;
        let solver = builder
            .solver_builder()?
            .map(|solver| super::common::queue_model(&solver))
            .transpose()?;
        let engine = QueuedEngine::Wedge {
            weights_checksum: model.weights_checksum,
            probcut_checksum: model.probcut_checksum,
            solver: solver.as_ref().map(|(_, m)| SolverChecksums {
                weights: m.weights_checksum,
                probcut: m.probcut_checksum,
            }),
            hash_mb: common.hash,
        };
        Ok((
            engine,
            std::iter::once((weights, model)).chain(solver).collect(),
        ))
    };
    let (engine, files) = match text.split_once(':') {
        None if text == "wedge" => wedge(common.builder())?,
        Some(("wedge", path)) => wedge(EngineBuilder {
            weights: Some(PathBuf::from(path)),
            probcut: None,
            solver_weights: None,
            solver_probcut: None,
            ..common.builder()
        })?,
        _ if valid_engine_name(text) => (
            QueuedEngine::Named {
                name: text.to_string(),
                protocol: spec.protocol,
            },
            Vec::new(),
        ),
        _ => {
            return Err(CliError::Usage(format!(
                "--engine {text:?}: with --queue an engine is `wedge`, `wedge:WEIGHTS` or the name \
                 of one the workers were started with (wedge worker --engine NAME=COMMAND)"
            )))
        }
    };
    let side = QueuedSide {
        engine,
        depth: spec.depth.map(|d| d.min(60) as u8),
        display: spec.name.clone().or_else(|| Some(text.to_string())),
    };
    Ok((side, files))
}

/// Plays the match and prints its statistics.
pub fn run_match(common: &Common, args: &MatchArgs) -> Result<(), CliError> {
    let [a, b] = match args.engines.as_slice() {
        [a, b] => [a.clone(), b.clone()],
        e => {
            return Err(CliError::Usage(format!(
                "give exactly two --engine, not {}",
                e.len()
            )))
        }
    };
    let protocols = per_engine(&args.protocols, "--protocol", Some("nboard".to_string()))?;
    let names = per_engine(&args.names, "--name", None)?;
    if args.names.len() == 1 {
        return Err(CliError::Usage(
            "--name must be given once per engine (twice)".into(),
        ));
    }
    let depths = per_engine(&args.depths, "--depth", None)?;
    let times = time_controls(args)?;
    if args.queue.is_some() && times[0] != times[1] {
        return Err(CliError::Usage(
            "--queue plays both engines on one clock: give --clock once".into(),
        ));
    }
    let mut specs = Vec::new();
    for (i, command) in [a, b].into_iter().enumerate() {
        specs.push(m::EngineSpec {
            command,
            protocol: protocols[i].as_deref().unwrap_or("nboard").parse()?,
            depth: depths[i],
            time: times[i],
            name: names[i].clone(),
        });
    }
    for spec in &mut specs {
        // NBoard's `go` is limited by depth and clock, and NTest will not move before a `set
        // depth`: on a clock, an NBoard engine with no depth given gets the deepest one, and
        // the clock decides.
        let timed = spec.time != m::MatchTimeControl::Depth;
        if timed && spec.protocol == m::EngineProtocol::Nboard && spec.depth.is_none() {
            spec.depth = Some(60);
        }
    }
    let openings_path = match &args.openings {
        Some(p) => p.clone(),
        None => wedge_core::paths::find_data_file("books", "openings-8ply.txt")
            .ok_or("no books/openings-8ply.txt found; pass --openings FILE")?,
    };
    let sprt = match args.sprt.as_deref() {
        None => None,
        Some(&[elo0, elo1, alpha, beta]) => Some(m::Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        }),
        Some(_) => {
            return Err(CliError::Usage(
                "--sprt takes four numbers: ELO0 ELO1 ALPHA BETA".into(),
            ))
        }
    };
    if args.games == 0 {
        return Err(CliError::Usage("--games must be at least 1".into()));
    }
    let cfg = m::MatchConfig {
        engines: [specs[0].clone(), specs[1].clone()],
        openings: m::openings::read_openings(&openings_path)?,
        games: args.games,
        limits: m::GameLimits {
            move_timeout: seconds(args.move_timeout, "--move-timeout")?,
            time_margin: Duration::try_from_secs_f64(args.time_margin).map_err(|_| {
                CliError::Usage(format!(
                    "--time-margin must be >= 0, got {}",
                    args.time_margin
                ))
            })?,
        },
        concurrency: args.concurrency as usize,
        start_timeout: seconds(args.start_timeout, "--start-timeout")?,
        out: args.out.clone(),
        sprt,
    };
    let Some(url) = &args.queue else {
        m::run_match(&cfg, &mut std::io::stdout().lock())?;
        return Ok(());
    };
    let (first, first_files) = queued_side(common, &args.engines[0], &specs[0])?;
    let (second, second_files) = queued_side(common, &args.engines[1], &specs[1])?;
    let source = QueueGames {
        url,
        sides: [first, second],
        models: first_files.into_iter().chain(second_files).collect(),
        start_timeout: cfg.start_timeout,
        resume: args.resume,
        counts: Default::default(),
    };
    let played = m::run_match_from(&cfg, &source, &mut std::io::stdout().lock());
    let c = *source.counts.lock().unwrap_or_else(|e| e.into_inner());
    eprintln!(
        "queue: {} match units published, {} answered by an earlier run, {} results refused",
        c.units, c.answered_before, c.refused
    );
    played?;
    Ok(())
}

/// Runs the gate with this very binary; fails unless both matches accept the new weights.
pub fn run_gate_command(args: &GateArgs) -> Result<(), CliError> {
    let exe = std::env::current_exe()
        .map_err(|e| CliError::Failed(format!("cannot find the wedge binary: {e}")))?;
    match run_gate(args, &exe, &mut std::io::stdout())? {
        GateDecision::Accept => Ok(()),
        other => Err(CliError::Failed(format!("gate: {other}"))),
    }
}
