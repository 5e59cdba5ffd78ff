//! One game between two started engines, with adjudication.

use super::engine::EngineError;
use super::player::{MatchTimeControl, Player};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use wedge_core::board::Move;
use wedge_core::formats::{
    format_clock, Clock, ClockSpent, Color, Game, GgfGame, GgfResult, GgfResultKind, GgfTag,
    MoveItem, MoveNote,
};

/// Timing limits of the match (each engine's time control is in its
/// [`super::EngineSpec`]).
#[derive(Clone, Copy, Debug)]
pub struct GameLimits {
    /// Longest wait for a move without a clock (hang detection).
    pub move_timeout: Duration,
    /// Slack over the allowed time before a move counts as late.
    pub time_margin: Duration,
}

/// Why a game was decided against one engine.
#[derive(Clone, Debug, PartialEq)]
pub enum Forfeit {
    Illegal(String),
    Crash(String),
    Hang(String),
    Time(String),
    Resign,
}

impl Forfeit {
    /// A short category for the tables.
    pub fn category(&self) -> &'static str {
        match self {
            Forfeit::Illegal(_) => "illegal move",
            Forfeit::Crash(_) => "crash",
            Forfeit::Hang(_) => "hang",
            Forfeit::Time(_) => "time loss",
            Forfeit::Resign => "resigned",
        }
    }
}

impl std::fmt::Display for Forfeit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Forfeit::Illegal(s) => write!(f, "illegal move: {s}"),
            Forfeit::Crash(s) => write!(f, "crash: {s}"),
            Forfeit::Hang(s) => write!(f, "hang: {s}"),
            Forfeit::Time(s) => write!(f, "time loss: {s}"),
            Forfeit::Resign => f.write_str("resigned"),
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug)]
pub enum GameEnd {
    /// Played out: Black's final disc difference (empties to the winner).
    Finished { black_margin: i32 },
    /// Lost by `loser` for `reason` (counted as a 64-disc loss).
    Forfeited { loser: Color, reason: Forfeit },
    /// Stopped by the match (the SPRT decided); not counted.
    Aborted,
}

/// A finished game: its record and how it ended.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    pub record: GgfGame,
    pub end: GameEnd,
}

/// Black's margin with empties to the winner (the WOF/GGS rule).
pub(crate) fn black_margin(game: &Game) -> i32 {
    let (b, w) = game.disc_counts();
    let (b, w) = (b as i32, w as i32);
    let e = 64 - b - w;
    match b.cmp(&w) {
        std::cmp::Ordering::Greater => b - w + e,
        std::cmp::Ordering::Less => b - w - e,
        std::cmp::Ordering::Equal => 0,
    }
}

fn index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// Plays `opening` to the end: `players[0]` is Black, `players[1]` White.
pub(crate) fn play_game(
    players: [&mut Player; 2],
    opening: &Game,
    limits: &GameLimits,
    stop: &AtomicBool,
) -> GameOutcome {
    let mut record = GgfGame::from_game(Game::new(opening.start()));
    for &mv in opening.moves() {
        // The opening was replayed when it was read, so every move is legal.
        let _ = record.play(MoveItem {
            mv,
            note: MoveNote::default(),
        });
    }
    record.info_mut().black = Some(players[0].name.clone());
    record.info_mut().white = Some(players[1].name.clone());
    record.info_mut().event = Some("wedge match".into());
    // Black's and White's time controls, and clocks (no extension: a flag falls at zero).
    let times = [players[0].spec.time, players[1].spec.time];
    let clocks = times.map(|t| match t {
        MatchTimeControl::Clock(c) => Some(Clock {
            extension_ms: Some(0),
            ..c
        }),
        _ => None,
    });
    match clocks {
        [Some(b), Some(w)] if b == w => record.clock_both = Some(format_clock(&b)),
        [b, w] => {
            record.clock_black = b.as_ref().map(format_clock);
            record.clock_white = w.as_ref().map(format_clock);
        }
    }
    let [black, white] = players;
    let mut players = [black, white];
    // Each seat's clock as the engines read it from the record ([`ClockSpent`]).
    let mut remaining = clocks.map(|c| c.map(ClockSpent::new));
    let setup_deadline = Instant::now() + limits.move_timeout;
    for (i, p) in players.iter_mut().enumerate() {
        if let Err(e) = p.new_game(&times[i], setup_deadline) {
            let loser = if i == 0 { Color::Black } else { Color::White };
            return finish(record, loser, classify(e, false));
        }
    }
    loop {
        let game = record.game();
        if game.is_over() {
            let m = black_margin(game);
            record.result = Some(GgfResult {
                black_margin: Some(m as f64),
                kind: GgfResultKind::Normal,
            });
            return GameOutcome {
                record,
                end: GameEnd::Finished { black_margin: m },
            };
        }
        if stop.load(Ordering::Relaxed) {
            return GameOutcome {
                record,
                end: GameEnd::Aborted,
            };
        }
        let mover = game.position().to_move;
        if game.legal_squares().0 == 0 {
            // A forced pass is played for the engine (NBoard and GTP engines both accept it).
            let _ = record.play(MoveItem {
                mv: Move::Pass,
                note: MoveNote::default(),
            });
            continue;
        }
        let i = index(mover);
        let (allowed, timed) = match times[i] {
            MatchTimeControl::Depth => (limits.move_timeout, false),
            MatchTimeControl::PerMove(t) => (t, true),
            MatchTimeControl::Clock(_) => (
                Duration::from_millis(remaining[i].map_or(0, |c| c.left_ms())),
                true,
            ),
        };
        let wait = if timed {
            allowed + limits.time_margin
        } else {
            allowed
        };
        let started = Instant::now();
        let answer = players[i].think(
            &record,
            &times[i],
            remaining[i].map(|c| Duration::from_millis(c.left_ms())),
            started + wait,
        );
        let elapsed = started.elapsed();
        let answer = match answer {
            Ok(a) => a,
            Err(e) => return finish(record, mover, classify(e, timed)),
        };
        if timed && elapsed > allowed + limits.time_margin {
            return finish(
                record,
                mover,
                Forfeit::Time(format!(
                    "{:.2} s used, {:.2} s allowed",
                    elapsed.as_secs_f64(),
                    allowed.as_secs_f64()
                )),
            );
        }
        if answer.resigned {
            return finish(record, mover, Forfeit::Resign);
        }
        let Some(mv) = answer.mv else {
            return finish(
                record,
                mover,
                Forfeit::Illegal(format!("{:?} is not a move", answer.text)),
            );
        };
        let item = MoveItem {
            mv,
            note: MoveNote {
                eval: answer.eval,
                time: Some((elapsed.as_secs_f64() * 1000.0).round() / 1000.0),
            },
        };
        if let Err(e) = record.play(item) {
            return finish(
                record,
                mover,
                Forfeit::Illegal(format!("{} ({e:?})", answer.text)),
            );
        }
        if let Some(c) = remaining[i].as_mut() {
            c.spend(Some(elapsed.as_millis() as f64 / 1000.0));
        }
    }
}

fn classify(e: EngineError, timed: bool) -> Forfeit {
    match e {
        EngineError::Crashed(s) => Forfeit::Crash(s),
        EngineError::Timeout(d) if timed => {
            Forfeit::Time(format!("no move within {:.2} s", d.as_secs_f64()))
        }
        EngineError::Timeout(d) => {
            Forfeit::Hang(format!("no answer within {:.1} s", d.as_secs_f64()))
        }
        EngineError::Protocol(s) => Forfeit::Illegal(s),
    }
}

/// The record of a game lost before it started (the engine could not be started).
pub(crate) fn forfeit_before_start(
    opening: &Game,
    names: [&str; 2],
    loser: Color,
    reason: Forfeit,
) -> GameOutcome {
    let mut record = GgfGame::from_game(opening.clone());
    record.info_mut().black = Some(names[0].to_string());
    record.info_mut().white = Some(names[1].to_string());
    record.info_mut().event = Some("wedge match".into());
    finish(record, loser, reason)
}

fn finish(mut record: GgfGame, loser: Color, reason: Forfeit) -> GameOutcome {
    let margin = if loser == Color::Black { -64.0 } else { 64.0 };
    record.result = Some(GgfResult {
        black_margin: Some(margin),
        kind: match reason {
            Forfeit::Time(_) | Forfeit::Hang(_) => GgfResultKind::Timeout,
            _ => GgfResultKind::Resigned,
        },
    });
    record.other_tags.push(GgfTag {
        name: "C".into(),
        value: format!(
            "adjudicated: {} {}",
            match loser {
                Color::Black => "Black",
                Color::White => "White",
            },
            reason
        ),
    });
    GameOutcome {
        record,
        end: GameEnd::Forfeited { loser, reason },
    }
}
