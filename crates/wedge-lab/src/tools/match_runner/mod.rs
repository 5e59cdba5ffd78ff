//! Engine-vs-engine matches (`wedge match`) and balanced openings (`wedge openings`).
//!
//! | file | what |
//! |---|---|
//! | `engine.rs` | a child process with piped stdin/stdout, a reader thread, deadlines |
//! | `player.rs` | NBoard v2 / GTP v2 dialogue: handshake, new game, "your move", quit |
//! | `game.rs` | one game with adjudication (illegal move, crash, hang, time loss, resignation) |
//! | `stats.rs` | W/D/L, Elo with a 95% interval, SPRT |
//! | `config.rs` | what a match is asked to play |
//! | `summary.rs` | what a match came to: the tally, the forfeits, the records |
//! | `report.rs` | the running line and the final table |
//! | `openings.rs` | reading XOT-style openings files, generating balanced openings |
//!
//! Callers use what this file exports (the match, its engines, games and statistics), and
//! `openings`, the `wedge openings` command's namespace.
//!
//! Game `i` (0-based) uses opening `i / 2` (cycling through the file) with the first engine
//! Black when `i` is even and White when it is odd, so each opening is played with both colour
//! assignments. Each worker thread (`--concurrency`) owns one process per engine and restarts an
//! engine's process after a game it forfeited. Every finished game is written to the GGF file
//! (rewritten atomically after each game, in game order).

mod config;
mod engine;
mod game;
// A namespace: the `wedge openings` command's own functions (reading, generating, ranking and
// writing openings files), which matches read their openings with.
pub mod openings;
mod player;
mod report;
mod stats;
mod summary;

pub use config::MatchConfig;
pub use engine::{CommandLineError, EngineError, StartError};
pub use game::{Forfeit, GameEnd, GameLimits, GameOutcome};
pub use player::{EngineProtocol, EngineSpec, MatchTimeControl, UnknownProtocol};
pub use stats::{Sprt, SprtDecision, SprtError, Tally};
pub use summary::{ForfeitNote, MatchSummary};

pub(crate) use game::{black_margin, forfeit_before_start};
pub(crate) use player::Player;

use game::play_game;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;
use wedge_core::formats::{format_ggf, Color, Game, GgfGame};

/// Seconds Black and White spent on their moves in `record` (the times noted with the moves;
/// the opening's moves have none).
fn seconds_by_colour(record: &GgfGame) -> [f64; 2] {
    let mut out = [0.0; 2];
    for (pos, note) in record.game().positions().iter().zip(record.notes()) {
        out[usize::from(pos.to_move == Color::White)] += note.time.unwrap_or(0.0);
    }
    out
}

/// Why a match stopped before its end.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error("no openings")]
    NoOpenings,
    #[error(transparent)]
    Sprt(#[from] SprtError),
    /// An engine that never started (one that ran before forfeits its game instead).
    #[error(transparent)]
    Start(#[from] StartError),
    #[error("internal: engine missing")]
    EngineMissing,
    /// The queue the games were played on failed (the message names what).
    #[error("queue: {0}")]
    Queue(String),
    #[error("writing {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// A game source's message to the match: a game played, or why the match cannot go on.
pub enum Event {
    Done {
        index: usize,
        first_is_black: bool,
        outcome: Box<GameOutcome>,
    },
    Fatal(MatchError),
}

/// Where the games of a match come from: `play(tx, stop)` plays games (in any order, game
/// `i` from opening `i / 2` with the first engine Black when `i` is even) and sends each as an
/// [`Event`] until all are played, `stop` is set, or sending fails.
pub trait GameSource: Sync {
    fn play(&self, cfg: &MatchConfig, tx: mpsc::Sender<Event>, stop: &AtomicBool);
    /// Where the games are played, for the match's first line.
    fn describe(&self, cfg: &MatchConfig) -> String {
        format!("{} in parallel", cfg.concurrency.clamp(1, cfg.games.max(1)))
    }
}

/// The games played here, `cfg.concurrency` at a time, each pair of engine processes kept
/// for the next game.
pub(crate) struct LocalGames;

impl GameSource for LocalGames {
    fn play(&self, cfg: &MatchConfig, tx: mpsc::Sender<Event>, stop: &AtomicBool) {
        let next = AtomicUsize::new(0);
        let ever_started = [AtomicBool::new(false), AtomicBool::new(false)];
        let workers = cfg.concurrency.clamp(1, cfg.games.max(1));
        std::thread::scope(|scope| {
            for _ in 0..workers {
                let tx = tx.clone();
                let (next, ever_started) = (&next, &ever_started);
                scope.spawn(move || worker(cfg, next, stop, ever_started, tx));
            }
        });
    }
}

/// Plays the match, printing progress and the final table to `out`.
pub fn run_match(cfg: &MatchConfig, out: &mut dyn Write) -> Result<MatchSummary, MatchError> {
    run_match_from(cfg, &LocalGames, out)
}

/// Games a match over `openings` openings plays before it plays one again: each opening once
/// with each colour.
pub(crate) fn distinct_games(openings: usize) -> usize {
    2 * openings
}

/// Plays the match with the games of `source`, printing progress and the final table to `out`.
pub fn run_match_from(
    cfg: &MatchConfig,
    source: &dyn GameSource,
    out: &mut dyn Write,
) -> Result<MatchSummary, MatchError> {
    if cfg.openings.is_empty() {
        return Err(MatchError::NoOpenings);
    }
    if let Some(s) = &cfg.sprt {
        s.validate()?;
    }
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Event>();
    let mut summary = MatchSummary {
        names: [display_name(&cfg.engines[0]), display_name(&cfg.engines[1])],
        tally: Tally::default(),
        forfeits: Vec::new(),
        sprt: None,
        records: Vec::new(),
        seconds: [0.0; 2],
    };
    let mut fatal = None;
    let _ = writeln!(
        out,
        "match: {} games, {} openings, {}; GGF to {}",
        cfg.games,
        cfg.openings.len(),
        source.describe(cfg),
        cfg.out.display()
    );
    let distinct = distinct_games(cfg.openings.len());
    if cfg.games > distinct {
        let _ = writeln!(
            out,
            "note: games after the first {distinct} play the openings again (at a fixed depth, \
             the same games again)"
        );
    }
    std::thread::scope(|scope| {
        let stop = &stop;
        scope.spawn(move || source.play(cfg, tx, stop));
        let mut records = BTreeMap::new();
        for event in rx {
            match event {
                Event::Fatal(e) => {
                    stop.store(true, Ordering::Relaxed);
                    fatal.get_or_insert(e);
                }
                Event::Done {
                    index,
                    first_is_black,
                    outcome,
                } => {
                    if matches!(outcome.end, GameEnd::Aborted) {
                        continue;
                    }
                    let info = &outcome.record.game().info;
                    let (first, second) = if first_is_black {
                        (&info.black, &info.white)
                    } else {
                        (&info.white, &info.black)
                    };
                    for (slot, name) in [first, second].into_iter().enumerate() {
                        if let Some(n) = name {
                            summary.names[slot] = n.clone();
                        }
                    }
                    let black_margin = match &outcome.end {
                        GameEnd::Finished { black_margin } => *black_margin,
                        GameEnd::Forfeited { loser, reason } => {
                            let engine = usize::from((*loser == Color::Black) != first_is_black);
                            summary.forfeits.push(ForfeitNote {
                                game: index + 1,
                                engine,
                                reason: reason.clone(),
                            });
                            if *loser == Color::Black {
                                -64
                            } else {
                                64
                            }
                        }
                        GameEnd::Aborted => 0,
                    };
                    let first_margin = if first_is_black {
                        black_margin
                    } else {
                        -black_margin
                    };
                    summary.tally.add(first_margin);
                    let [black, white] = seconds_by_colour(&outcome.record);
                    let (first, second) = if first_is_black {
                        (black, white)
                    } else {
                        (white, black)
                    };
                    summary.seconds[0] += first;
                    summary.seconds[1] += second;
                    records.insert(index, outcome.record);
                    let text: String = records.values().map(|r| format_ggf(r) + "\n").collect();
                    if let Err(source) = wedge_core::paths::write_atomic(&cfg.out, text.as_bytes())
                    {
                        fatal.get_or_insert(MatchError::Write {
                            path: cfg.out.clone(),
                            source,
                        });
                        stop.store(true, Ordering::Relaxed);
                    }
                    let mut line = report::running_line(
                        &summary,
                        index,
                        cfg.games,
                        first_is_black,
                        first_margin,
                        summary.forfeits.last().filter(|f| f.game == index + 1),
                    );
                    if let Some(sprt) = &cfg.sprt {
                        let llr = sprt.llr(&summary.tally);
                        let (lo, hi) = sprt.bounds();
                        line.push_str(&format!("  LLR {llr:+.2} [{lo:.2}, {hi:.2}]"));
                        let d = sprt.decide(&summary.tally);
                        if d != SprtDecision::Continue && summary.sprt.is_none() {
                            summary.sprt = Some((d, llr));
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    let _ = writeln!(out, "{line}");
                    let _ = out.flush();
                }
            }
        }
        summary.records = records.into_values().collect();
    });
    if let Some(e) = fatal {
        return Err(e);
    }
    if let (Some(sprt), None) = (&cfg.sprt, summary.sprt) {
        summary.sprt = Some((SprtDecision::Continue, sprt.llr(&summary.tally)));
    }
    let _ = write!(out, "{}", report::final_table(&summary, cfg));
    Ok(summary)
}

/// One game between freshly started engines, both quit afterwards (a queue worker's game):
/// `engines[0]` is Black when `first_is_black`. An engine that does not start is an error, not
/// a forfeit: the game is not played.
pub(crate) fn play_one(
    engines: &[EngineSpec; 2],
    opening: &Game,
    first_is_black: bool,
    limits: &GameLimits,
    start_timeout: Duration,
) -> Result<GameOutcome, StartError> {
    let mut first = Player::start(&engines[0], start_timeout)?;
    let mut second = match Player::start(&engines[1], start_timeout) {
        Ok(p) => p,
        Err(e) => {
            first.quit();
            return Err(e);
        }
    };
    let stop = AtomicBool::new(false);
    let seats = if first_is_black {
        [&mut first, &mut second]
    } else {
        [&mut second, &mut first]
    };
    let outcome = play_game(seats, opening, limits, &stop);
    first.quit();
    second.quit();
    Ok(outcome)
}

fn display_name(spec: &EngineSpec) -> String {
    spec.name.clone().unwrap_or_else(|| spec.command.clone())
}

/// One worker: takes game numbers until none are left (or the match stops).
fn worker(
    cfg: &MatchConfig,
    next: &AtomicUsize,
    stop: &AtomicBool,
    ever_started: &[AtomicBool; 2],
    tx: mpsc::Sender<Event>,
) {
    let mut players: [Option<Player>; 2] = [None, None];
    loop {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= cfg.games {
            break;
        }
        let opening = &cfg.openings[(index / 2) % cfg.openings.len()];
        let first_is_black = index.is_multiple_of(2);
        let mut failed = None;
        for (e, slot) in players.iter_mut().enumerate() {
            if slot.is_none() {
                match Player::start(&cfg.engines[e], cfg.start_timeout) {
                    Ok(p) => {
                        ever_started[e].store(true, Ordering::Relaxed);
                        *slot = Some(p);
                    }
                    Err(err) if !ever_started[e].load(Ordering::Relaxed) => {
                        let _ = tx.send(Event::Fatal(err.into()));
                        return;
                    }
                    Err(err) => {
                        failed = Some((e, err));
                        break;
                    }
                }
            }
        }
        let outcome = match (failed, &mut players) {
            (Some((e, err)), _) => {
                let names = [display_name(&cfg.engines[0]), display_name(&cfg.engines[1])];
                let seat_names = if first_is_black {
                    [names[0].as_str(), names[1].as_str()]
                } else {
                    [names[1].as_str(), names[0].as_str()]
                };
                let loser = if (e == 0) == first_is_black {
                    Color::Black
                } else {
                    Color::White
                };
                let reason = Forfeit::Crash(err.to_string());
                forfeit_before_start(opening, seat_names, loser, reason)
            }
            (None, [Some(a), Some(b)]) => {
                let seats = if first_is_black { [a, b] } else { [b, a] };
                play_game(seats, opening, &cfg.limits, stop)
            }
            (None, _) => {
                let _ = tx.send(Event::Fatal(MatchError::EngineMissing));
                return;
            }
        };
        if let GameEnd::Forfeited { loser, reason } = &outcome.end {
            // Restart the offender's process for the next game (not after a resignation).
            if !matches!(reason, Forfeit::Resign) {
                let e = usize::from((*loser == Color::Black) != first_is_black);
                if let Some(p) = players[e].take() {
                    p.kill();
                }
            }
        }
        if tx
            .send(Event::Done {
                index,
                first_is_black,
                outcome: Box::new(outcome),
            })
            .is_err()
        {
            break;
        }
    }
    for p in players.into_iter().flatten() {
        p.quit();
    }
}
