//! The match-game unit: one game of a match (its number, opening, time control, the two
//! engines and the run it belongs to), and its result, the game's record and how it ended. A worker never runs a
//! command from a message: an engine is either the worker's own Wedge with weights and a
//! ProbCut model fetched by checksum, or a name the worker was started with (`wedge worker
//! --engine NAME=COMMAND`).

use super::exchange::KeyedUnit;
use super::message::{finished, invalid, open, open_result, read_board, truncated, MessageError};
use crate::tools::match_runner::{black_margin, Forfeit, GameEnd, GameOutcome};
use crate::tools::match_runner::{EngineProtocol, MatchTimeControl};
use crate::train::selfplay::PASS_BYTE;
use std::time::Duration;
use wedge_core::board::{Move, Square};
use wedge_core::formats::{
    floor_char_boundary, format_ggf, parse_ggf, Clock, Color, Game, Position,
};
use wedge_core::framing::{Reader, Writer};

/// The unit message's first bytes.
pub const MAGIC: [u8; 8] = *b"WEDGEMU1";
/// The result message's first bytes.
pub const RESULT_MAGIC: [u8; 8] = *b"WEDGEMR1";
/// The format of both messages (2: the run id).
pub const VERSION: u32 = 2;
/// Longest engine name or display name, bytes.
pub const MAX_NAME: usize = 64;
/// Largest record or forfeit message, bytes.
const MAX_TEXT: usize = 1 << 16;

/// An engine as a unit names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueuedEngine {
    /// The worker's own Wedge (over NBoard, no book) with these weights and ProbCut model,
    /// and the solver's weights and model that guide its untimed solves (none: the weights
    /// themselves), so that it plays the games a local Wedge would.
    Wedge {
        weights_checksum: u64,
        probcut_checksum: u64,
        solver: Option<SolverChecksums>,
        hash_mb: u32,
    },
    /// An engine the worker was given with `--engine NAME=COMMAND`.
    Named {
        name: String,
        protocol: EngineProtocol,
    },
}

/// The checksums of a side's solver weights and their ProbCut model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverChecksums {
    pub weights: u64,
    pub probcut: u64,
}

/// One side of the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedSide {
    pub engine: QueuedEngine,
    /// Depth sent to the engine, if any.
    pub depth: Option<u8>,
    /// The name in the records, if not the engine's own.
    pub display: Option<String>,
}

/// One game of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchUnit {
    /// The first side is the one the match's statistics are about.
    pub sides: [QueuedSide; 2],
    pub time: MatchTimeControl,
    pub move_timeout: Duration,
    pub time_margin: Duration,
    pub start_timeout: Duration,
    pub opening: Game,
    /// The game's number in its match (0-based): the first side is Black when it is even.
    pub game: u32,
    /// The run of the match the game belongs to: each run of a match has its own, so its
    /// games are units of their own (a rerun plays new games; a resumed run takes them back).
    pub run: u64,
}

fn write_text(w: &mut Writer, text: &str) {
    w.u32(text.len() as u32);
    w.bytes(text.as_bytes());
}

fn read_text(
    r: &mut Reader<'_>,
    t: &impl Fn(wedge_core::framing::Truncated) -> MessageError,
    max: usize,
    what: &str,
) -> Result<String, MessageError> {
    let len = r.u32().map_err(t)? as usize;
    if len > max {
        return Err(invalid(format!("{what} of {len} bytes (at most {max})")));
    }
    let bytes = r.take(len).map_err(t)?;
    String::from_utf8(bytes.to_vec()).map_err(|_| invalid(format!("{what} is not UTF-8")))
}

fn write_ms(w: &mut Writer, d: Duration) {
    w.u64(d.as_millis() as u64);
}

fn write_side(w: &mut Writer, side: &QueuedSide) {
    match &side.engine {
        QueuedEngine::Wedge {
            weights_checksum,
            probcut_checksum,
            solver,
            hash_mb,
        } => {
            // Kind 0 is a Wedge without solver weights, kind 3 one with them.
            w.u8(if solver.is_some() { 3 } else { 0 });
            w.u64(*weights_checksum);
            w.u64(*probcut_checksum);
            w.u32(*hash_mb);
            if let Some(s) = solver {
                w.u64(s.weights);
                w.u64(s.probcut);
            }
        }
        QueuedEngine::Named { name, protocol } => {
            w.u8(1 + u8::from(*protocol == EngineProtocol::Gtp));
            write_text(w, name);
        }
    }
    w.u8(side.depth.unwrap_or(0));
    write_text(w, side.display.as_deref().unwrap_or(""));
}

fn read_side(
    r: &mut Reader<'_>,
    t: &impl Fn(wedge_core::framing::Truncated) -> MessageError,
) -> Result<QueuedSide, MessageError> {
    let kind = r.u8().map_err(t)?;
    let engine = match kind {
        0 | 3 => {
            let (weights_checksum, probcut_checksum) = (r.u64().map_err(t)?, r.u64().map_err(t)?);
            let hash_mb = r.u32().map_err(t)?;
            if !(1..=65536).contains(&hash_mb) {
                return Err(invalid(format!("a table of {hash_mb} MB")));
            }
            let solver = if kind == 3 {
                Some(SolverChecksums {
                    weights: r.u64().map_err(t)?,
                    probcut: r.u64().map_err(t)?,
                })
            } else {
                None
            };
            QueuedEngine::Wedge {
                weights_checksum,
                probcut_checksum,
                solver,
                hash_mb,
            }
        }
        1 | 2 => {
            let name = read_text(r, t, MAX_NAME, "an engine name")?;
            if !valid_name(&name) {
                return Err(invalid(format!("engine name {name:?}")));
            }
            QueuedEngine::Named {
                name,
                protocol: if kind == 1 {
                    EngineProtocol::Nboard
                } else {
                    EngineProtocol::Gtp
                },
            }
        }
        _ => return Err(invalid(format!("engine kind {kind}"))),
    };
    let depth = r.u8().map_err(t)?;
    if depth > 60 {
        return Err(invalid(format!("depth {depth}")));
    }
    let display = read_text(r, t, MAX_NAME, "a display name")?;
    Ok(QueuedSide {
        engine,
        depth: (depth > 0).then_some(depth),
        display: (!display.is_empty()).then_some(display),
    })
}

/// An engine name a worker may be configured with: letters, digits, `-`, `_`, `.`.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
}

impl MatchUnit {
    /// The message's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(&MAGIC, VERSION, 256);
        for side in &self.sides {
            write_side(&mut w, side);
        }
        match self.time {
            MatchTimeControl::Depth => w.u8(0),
            MatchTimeControl::PerMove(t) => {
                w.u8(1);
                write_ms(&mut w, t);
            }
            MatchTimeControl::Clock(c) => {
                w.u8(2 + u8::from(c.extension_ms.is_some()));
                w.u64(c.main_ms);
                w.u64(c.increment_ms);
                w.u64(c.extension_ms.unwrap_or(0));
            }
        }
        write_ms(&mut w, self.move_timeout);
        write_ms(&mut w, self.time_margin);
        write_ms(&mut w, self.start_timeout);
        let start = self.opening.start();
        w.u64(start.board.player);
        w.u64(start.board.opponent);
        w.u8(u8::from(start.to_move == Color::White));
        w.u8(self.opening.moves().len() as u8);
        for m in self.opening.moves() {
            w.u8(m.square().map_or(PASS_BYTE, |s| s.index() as u8));
        }
        w.u32(self.game);
        w.u64(self.run);
        w.finish()
    }

    /// Parses and validates a message: framing, every field's range, the opening's legality.
    pub fn from_bytes(bytes: &[u8]) -> Result<MatchUnit, MessageError> {
        let mut r = open(bytes, &MAGIC, VERSION)?;
        let t = truncated(bytes);
        let sides = [read_side(&mut r, &t)?, read_side(&mut r, &t)?];
        let kind = r.u8().map_err(&t)?;
        let ms = |r: &mut Reader<'_>| r.u64().map_err(&t).map(Duration::from_millis);
        let time = match kind {
            0 => MatchTimeControl::Depth,
            1 => MatchTimeControl::PerMove(ms(&mut r)?),
            2 | 3 => {
                let (main_ms, increment_ms, extension) = (
                    r.u64().map_err(&t)?,
                    r.u64().map_err(&t)?,
                    r.u64().map_err(&t)?,
                );
                MatchTimeControl::Clock(Clock {
                    main_ms,
                    increment_ms,
                    extension_ms: (kind == 3).then_some(extension),
                })
            }
            _ => return Err(invalid(format!("time control kind {kind}"))),
        };
        let (move_timeout, time_margin, start_timeout) = (ms(&mut r)?, ms(&mut r)?, ms(&mut r)?);
        let day = Duration::from_secs(86_400);
        if [move_timeout, time_margin, start_timeout]
            .iter()
            .any(|d| *d > day)
            || move_timeout.is_zero()
            || start_timeout.is_zero()
        {
            return Err(invalid("a timeout out of range"));
        }
        let board = read_board(&mut r).map_err(&t)?;
        let to_move = match r.u8().map_err(&t)? {
            0 => Color::Black,
            1 => Color::White,
            c => return Err(invalid(format!("side to move {c}"))),
        };
        let Some(board) = board else {
            return Err(invalid("an opening with overlapping discs"));
        };
        let n = r.u8().map_err(&t)?;
        let mut opening = Game::new(Position { board, to_move });
        for i in 0..n {
            let b = r.u8().map_err(&t)?;
            let mv = match b {
                PASS_BYTE => Move::Pass,
                0..=63 => Move::Play(Square::from_index(u32::from(b))),
                _ => return Err(invalid(format!("opening move {i}: byte {b}"))),
            };
            opening
                .play(mv)
                .map_err(|e| invalid(format!("opening move {i} illegal ({e:?})")))?;
        }
        let game = r.u32().map_err(&t)?;
        let run = r.u64().map_err(&t)?;
        finished(&r)?;
        Ok(MatchUnit {
            sides,
            time,
            move_timeout,
            time_margin,
            start_timeout,
            opening,
            game,
            run,
        })
    }

    /// Whether the first side plays Black.
    pub fn first_is_black(&self) -> bool {
        self.game.is_multiple_of(2)
    }
}

impl KeyedUnit for MatchUnit {
    type Answer = GameOutcome;
    type Error = MessageError;
    const KIND: &'static str = "match";
    const UNITS_SUBJECT: &'static str = "wedge.units.match";
    const RESULTS_PREFIX: &'static str = "wedge.results.match.";

    fn to_bytes(&self) -> Vec<u8> {
        MatchUnit::to_bytes(self)
    }

    fn describe(&self) -> String {
        format!("match game {} ({})", self.game + 1, self.key())
    }

    fn answer(&self, bytes: &[u8]) -> Result<GameOutcome, MessageError> {
        result_from_bytes(bytes, self)
    }
}

/// The result message of the unit with `key`: how the game ended and its record.
pub fn result_to_bytes(key: u64, outcome: &GameOutcome) -> Vec<u8> {
    let mut w = Writer::new(&RESULT_MAGIC, VERSION, 1024);
    w.u64(key);
    match &outcome.end {
        GameEnd::Finished { black_margin } => {
            w.u8(0);
            w.u8(*black_margin as i8 as u8);
        }
        GameEnd::Forfeited { loser, reason } => {
            w.u8(1 + u8::from(*loser == Color::White));
            let (kind, text) = match reason {
                Forfeit::Illegal(s) => (0, s.as_str()),
                Forfeit::Crash(s) => (1, s.as_str()),
                Forfeit::Hang(s) => (2, s.as_str()),
                Forfeit::Time(s) => (3, s.as_str()),
                Forfeit::Resign => (4, ""),
            };
            w.u8(kind);
            write_text(&mut w, &text[..floor_char_boundary(text, 4096)]);
        }
        // A worker never stops a game it was given.
        GameEnd::Aborted => w.u8(3),
    }
    write_text(&mut w, &format_ggf(&outcome.record));
    w.finish()
}

/// Parses a result and checks it answers `unit`: its key, a record that starts with the
/// unit's opening, and for a finished game the record's own final margin.
pub fn result_from_bytes(bytes: &[u8], unit: &MatchUnit) -> Result<GameOutcome, MessageError> {
    let mut r = open_result(bytes, &RESULT_MAGIC, VERSION, unit.key_value())?;
    let t = truncated(bytes);
    let kind = r.u8().map_err(&t)?;
    let end = match kind {
        0 => GameEnd::Finished {
            black_margin: i32::from(r.u8().map_err(&t)? as i8),
        },
        1 | 2 => {
            let which = r.u8().map_err(&t)?;
            let text = read_text(&mut r, &t, MAX_TEXT, "a forfeit message")?;
            let reason = match which {
                0 => Forfeit::Illegal(text),
                1 => Forfeit::Crash(text),
                2 => Forfeit::Hang(text),
                3 => Forfeit::Time(text),
                4 => Forfeit::Resign,
                _ => return Err(invalid(format!("forfeit kind {which}"))),
            };
            let loser = if kind == 1 {
                Color::Black
            } else {
                Color::White
            };
            GameEnd::Forfeited { loser, reason }
        }
        _ => return Err(invalid(format!("game end {kind}"))),
    };
    let text = read_text(&mut r, &t, MAX_TEXT, "the record")?;
    finished(&r)?;
    let record = parse_ggf(&text).map_err(|e| invalid(format!("the record: {e}")))?;
    let game = record.game();
    let opening = unit.opening.moves();
    if game.start() != unit.opening.start()
        || game.moves().len() < opening.len()
        || game.moves()[..opening.len()] != *opening
    {
        return Err(invalid("the record does not start with the unit's opening"));
    }
    if let GameEnd::Finished { black_margin: m } = end {
        if !game.is_over() || black_margin(game) != m {
            return Err(invalid(format!(
                "a finished game of margin {m} whose record says otherwise"
            )));
        }
    }
    Ok(GameOutcome { record, end })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::match_runner::forfeit_before_start;
    use wedge_core::formats::GgfGame;

    fn opening() -> Game {
        let mut g = Game::new(Position {
            board: wedge_core::board::Board::START,
            to_move: Color::Black,
        });
        for s in ["f5", "d6", "c3"] {
            g.play(Move::Play(s.parse().unwrap())).unwrap();
        }
        g
    }

    fn unit() -> MatchUnit {
        MatchUnit {
            sides: [
                QueuedSide {
                    engine: QueuedEngine::Wedge {
                        weights_checksum: 1,
                        probcut_checksum: 2,
                        solver: None,
                        hash_mb: 16,
                    },
                    depth: Some(4),
                    display: Some("new".into()),
                },
                QueuedSide {
                    engine: QueuedEngine::Named {
                        name: "ntest".into(),
                        protocol: EngineProtocol::Nboard,
                    },
                    depth: None,
                    display: None,
                },
            ],
            time: MatchTimeControl::Clock(Clock {
                main_ms: 15_000,
                increment_ms: 0,
                extension_ms: None,
            }),
            move_timeout: Duration::from_secs(60),
            time_margin: Duration::from_millis(500),
            start_timeout: Duration::from_secs(30),
            opening: opening(),
            game: 7,
            run: 0x1234_5678_9abc_def0,
        }
    }

    #[test]
    fn a_match_unit_round_trips_and_refuses_damage() {
        let unit = unit();
        assert!(!unit.first_is_black());
        let bytes = unit.to_bytes();
        assert_eq!(MatchUnit::from_bytes(&bytes), Ok(unit.clone()));
        // Another run of the same game is another unit.
        let rerun = MatchUnit {
            run: 1,
            ..unit.clone()
        };
        assert_ne!(rerun.key(), unit.key());
        for i in (0..bytes.len()).step_by(3) {
            let mut bad = bytes.clone();
            bad[i] ^= 0x40;
            assert!(MatchUnit::from_bytes(&bad).is_err(), "byte {i}");
        }
        // A side with solver weights round-trips too.
        let mut solving = unit.clone();
        solving.sides[1].engine = QueuedEngine::Wedge {
            weights_checksum: 3,
            probcut_checksum: 4,
            solver: Some(SolverChecksums {
                weights: 5,
                probcut: 6,
            }),
            hash_mb: 64,
        };
        let bytes = solving.to_bytes();
        assert_eq!(MatchUnit::from_bytes(&bytes), Ok(solving.clone()));
        for cut in [bytes.len() - 9, bytes.len() / 2] {
            assert!(
                MatchUnit::from_bytes(&bytes[..cut]).is_err(),
                "cut at {cut}"
            );
        }
        let mut odd = unit.clone();
        odd.sides[1].engine = QueuedEngine::Named {
            name: "rm -rf /".into(),
            protocol: EngineProtocol::Gtp,
        };
        assert_eq!(
            MatchUnit::from_bytes(&odd.to_bytes()),
            Err(invalid("engine name \"rm -rf /\""))
        );
    }

    #[test]
    fn a_match_result_round_trips_and_must_fit_its_unit() {
        let unit = unit();
        // A forfeit before the first move: the record is the opening.
        let lost = forfeit_before_start(
            &unit.opening,
            ["a", "b"],
            Color::White,
            Forfeit::Time("no move within 1.00 s".into()),
        );
        let bytes = result_to_bytes(unit.key_value(), &lost);
        let back = result_from_bytes(&bytes, &unit).unwrap();
        assert_eq!(format_ggf(&back.record), format_ggf(&lost.record));
        assert!(matches!(
            back.end,
            GameEnd::Forfeited { loser: Color::White, reason: Forfeit::Time(ref s) } if s == "no move within 1.00 s"
        ));
        // A game said to be finished whose record is not over is refused.
        let claimed = GameOutcome {
            record: GgfGame::from_game(unit.opening.clone()),
            end: GameEnd::Finished { black_margin: 10 },
        };
        let bytes = result_to_bytes(unit.key_value(), &claimed);
        assert!(result_from_bytes(&bytes, &unit)
            .unwrap_err()
            .to_string()
            .contains("whose record says otherwise"));
        // Another opening's record is refused.
        let mut other = unit.clone();
        other.opening = Game::new(unit.opening.start());
        let bytes = result_to_bytes(other.key_value(), &lost);
        assert!(result_from_bytes(&bytes, &other).is_ok());
        let mut shorter = other.clone();
        shorter
            .opening
            .play(Move::Play("e6".parse().unwrap()))
            .unwrap();
        let bytes = result_to_bytes(shorter.key_value(), &lost);
        assert!(result_from_bytes(&bytes, &shorter)
            .unwrap_err()
            .to_string()
            .contains("does not start with the unit's opening"));
    }
}
