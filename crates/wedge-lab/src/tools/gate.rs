//! The gate for new evaluation weights (`wedge gate`): Wedge with the candidate weights plays
//! Wedge with the current ones, first at a fixed depth, then on equal clocks, each match an
//! SPRT; the candidate may replace the current weights only when both matches accept it.

use super::match_runner::openings::{read_openings, OpeningsError};
use super::match_runner::{distinct_games, run_match, MatchConfig, MatchError};
use super::match_runner::{EngineProtocol, EngineSpec, GameLimits, MatchTimeControl};
use super::match_runner::{Sprt, SprtDecision};
use std::path::{Path, PathBuf};
use std::time::Duration;
use wedge_core::formats::Clock;

/// `wedge gate`: the candidate against the current weights.
#[derive(clap::Args, Clone, Debug)]
pub struct GateArgs {
    /// The new weights (their ProbCut model is the `.probcut` file beside them).
    pub candidate: PathBuf,
    /// The weights to beat (default: weights/default.wts).
    #[arg(long)]
    pub current: Option<PathBuf>,
    /// Depth of the fixed-depth match (`set depth`).
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
    /// Seconds per game and side of the equal-clock match.
    #[arg(long, default_value_t = 8.0)]
    pub clock: f64,
    /// Most games of each match (the SPRT usually stops sooner).
    #[arg(long, default_value_t = 400)]
    pub games: usize,
    /// The SPRT's hypotheses (Elo) and error rates.
    #[arg(long, default_value_t = 0.0)]
    pub elo0: f64,
    #[arg(long, default_value_t = 15.0)]
    pub elo1: f64,
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Openings file (default books/openings-8ply.txt).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Games played at the same time in the fixed-depth match (the clock match plays one at
    /// a time, so that neither side is starved of a core).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Directory receiving the two matches' GGF records.
    #[arg(long, default_value = "target/gate")]
    pub out: PathBuf,
}

/// Why the gate could not reach a verdict.
#[derive(Debug, thiserror::Error)]
pub enum GateError {
    #[error("no --current given and weights/default.wts not found")]
    NoCurrent,
    #[error("weights file {}: {source}", path.display())]
    Weights {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("no books/openings-8ply.txt found; pass --openings FILE")]
    NoOpenings,
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    #[error("cannot create {}: {source}", path.display())]
    CreateDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("--clock must be a positive number of seconds, not {0}")]
    Clock(f64),
    #[error(transparent)]
    Match(#[from] MatchError),
}

/// What the gate says about a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GateDecision {
    /// Stronger at a fixed depth and on equal clocks: it may replace the current weights.
    Accept,
    /// Not stronger in one of the two matches.
    Reject,
    /// A match ended (out of games) without a decision.
    Inconclusive,
}

/// The gate's verdict from the two matches' SPRT decisions (`None`: that match was not played
/// because the first already decided).
pub fn decide(depth: SprtDecision, clock: Option<SprtDecision>) -> GateDecision {
    match (depth, clock) {
        (SprtDecision::H0, _) | (_, Some(SprtDecision::H0)) => GateDecision::Reject,
        (SprtDecision::H1, Some(SprtDecision::H1)) => GateDecision::Accept,
        _ => GateDecision::Inconclusive,
    }
}

impl std::fmt::Display for GateDecision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            GateDecision::Accept => "accept: stronger at a fixed depth and on equal clocks",
            GateDecision::Reject => "reject: not stronger",
            GateDecision::Inconclusive => "inconclusive: no decision within the games allowed",
        })
    }
}

/// Runs the gate with the Wedge binary `exe`, printing both matches to `out`.
pub fn run_gate(
    args: &GateArgs,
    exe: &Path,
    out: &mut dyn std::io::Write,
) -> Result<GateDecision, GateError> {
    let current = match &args.current {
        Some(p) => p.clone(),
        None => wedge_core::eval::default_weights_path().ok_or(GateError::NoCurrent)?,
    };
    for w in [&args.candidate, &current] {
        wedge_core::paths::regular_file(w).map_err(|source| GateError::Weights {
            path: w.clone(),
            source,
        })?;
        if !w.with_extension("probcut").is_file() {
            tracing::warn!(
                "{}: no ProbCut model beside it (fit one with wedge train-probcut): its levels search full width",
                w.display()
            );
        }
    }
    let openings_path = match &args.openings {
        Some(p) => p.clone(),
        None => wedge_core::paths::find_data_file("books", "openings-8ply.txt")
            .ok_or(GateError::NoOpenings)?,
    };
    let openings = read_openings(&openings_path)?;
    std::fs::create_dir_all(&args.out).map_err(|source| GateError::CreateDir {
        path: args.out.clone(),
        source,
    })?;
    let engine = |weights: &Path, name: &str, depth: u32, time| EngineSpec {
        command: format!(
            "{} --weights {} --hash 64 --threads 1 --no-book nboard",
            exe.display(),
            weights.display()
        ),
        protocol: EngineProtocol::Nboard,
        depth: Some(depth),
        time,
        name: Some(name.to_string()),
    };
    let sprt = Sprt {
        elo0: args.elo0,
        elo1: args.elo1,
        alpha: args.alpha,
        beta: args.beta,
    };
    let clock = Duration::try_from_secs_f64(args.clock)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or(GateError::Clock(args.clock))?;
    let matches = [
        (
            args.depth,
            MatchTimeControl::Depth,
            "depth",
            args.concurrency,
        ),
        (
            60,
            MatchTimeControl::Clock(Clock {
                main_ms: clock.as_millis() as u64,
                increment_ms: 0,
                extension_ms: None,
            }),
            "clock",
            1,
        ),
    ];
    // At a fixed depth both engines are deterministic: a game past the openings' last replays
    // an earlier one exactly and would only inflate the SPRT.
    let distinct = distinct_games(openings.len());
    let mut decisions = Vec::new();
    for (depth, time, what, concurrency) in matches {
        let games = if time == MatchTimeControl::Depth && args.games > distinct {
            let _ = writeln!(
                out,
                "gate: the depth match plays {distinct} games, not {}: {} openings, each with \
                 both colours, and more would repeat games exactly",
                args.games,
                openings.len()
            );
            distinct
        } else {
            args.games
        };
        let cfg = MatchConfig {
            engines: [
                engine(&args.candidate, "candidate", depth, time),
                engine(&current, "current", depth, time),
            ],
            openings: openings.clone(),
            games,
            limits: GameLimits {
                move_timeout: Duration::from_secs(600),
                time_margin: Duration::from_millis(500),
            },
            concurrency: concurrency.max(1),
            start_timeout: Duration::from_secs(30),
            out: args.out.join(format!("{what}.ggf")),
            sprt: Some(sprt),
        };
        let _ = writeln!(out, "== gate, {what} match");
        let summary = run_match(&cfg, out)?;
        let decision = summary.sprt.map_or(SprtDecision::Continue, |(d, _)| d);
        decisions.push(decision);
        if decision != SprtDecision::H1 {
            break;
        }
    }
    let verdict = decide(decisions[0], decisions.get(1).copied());
    let _ = writeln!(out, "gate: {verdict}");
    Ok(verdict)
}

#[cfg(test)]
mod tests {
    use super::*;
    use SprtDecision::{Continue, H0, H1};

    #[test]
    fn the_gate_accepts_only_what_both_matches_accept() {
        assert_eq!(decide(H1, Some(H1)), GateDecision::Accept);
        assert_eq!(decide(H1, Some(H0)), GateDecision::Reject);
        assert_eq!(decide(H0, None), GateDecision::Reject);
        assert_eq!(decide(H1, Some(Continue)), GateDecision::Inconclusive);
        assert_eq!(decide(Continue, None), GateDecision::Inconclusive);
        assert_eq!(decide(H1, None), GateDecision::Inconclusive);
    }
}
