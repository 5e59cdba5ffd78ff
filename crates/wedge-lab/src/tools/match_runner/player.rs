//! An engine speaking NBoard (v2) or GTP (v2), driven by the match: handshake, new game, "your
//! move", quit. Every answer is checked; anything unexpected is an [`EngineError`].

use super::engine::{EngineError, Process, StartError};
use std::time::{Duration, Instant};
use wedge_core::board::Move;
use wedge_core::formats::{
    format_clock, format_ggf, parse_move_item, parse_move_token, Clock, Color, Game, GgfGame,
};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineProtocol {
    Nboard,
    Gtp,
}

/// A protocol name other than `nboard` or `gtp`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown protocol {0:?} (expected nboard or gtp)")]
pub struct UnknownProtocol(pub String);

impl std::str::FromStr for EngineProtocol {
    type Err = UnknownProtocol;
    fn from_str(s: &str) -> Result<EngineProtocol, UnknownProtocol> {
        match s.to_ascii_lowercase().as_str() {
            "nboard" => Ok(EngineProtocol::Nboard),
            "gtp" => Ok(EngineProtocol::Gtp),
            _ => Err(UnknownProtocol(s.to_string())),
        }
    }
}

impl std::fmt::Display for EngineProtocol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            EngineProtocol::Nboard => "nboard",
            EngineProtocol::Gtp => "gtp",
        })
    }
}

/// How one engine is started and limited.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub command: String,
    pub protocol: EngineProtocol,
    /// Midgame depth sent to the engine (`set depth` / `wedge-depth`), if any.
    pub depth: Option<u32>,
    /// The engine's time control (each engine has its own: a match may give odds).
    pub time: MatchTimeControl,
    /// Display name; else the engine's own (`set myname` / GTP `name`), else the command.
    pub name: Option<String>,
}

/// The time control of every move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MatchTimeControl {
    /// No clock: the engine searches to its depth; `move_timeout` catches hangs.
    Depth,
    /// A fixed time per move.
    PerMove(Duration),
    /// A game clock (main time plus increment per move).
    Clock(Clock),
}

/// An engine's answer to "your move".
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Answer {
    /// The raw move text, for messages.
    pub text: String,
    /// The parsed move, `None` when the text is no move at all.
    pub mv: Option<Move>,
    /// GTP `resign`.
    pub resigned: bool,
    /// The engine's evaluation in discs (NBoard only).
    pub eval: Option<f64>,
}

/// A started engine.
pub(crate) struct Player {
    process: Process,
    pub spec: EngineSpec,
    pub name: String,
    counter: u32,
    /// GTP: how many moves of the current game the engine's board has.
    synced: usize,
}

fn gtp_color(c: Color) -> &'static str {
    match c {
        Color::Black => "b",
        Color::White => "w",
    }
}

fn gtp_move(mv: Move) -> String {
    match mv {
        Move::Pass => "pass".into(),
        Move::Play(sq) => sq.to_string().to_ascii_uppercase(),
    }
}

impl Player {
    /// Starts the engine and completes the handshake within `timeout`.
    pub(crate) fn start(spec: &EngineSpec, timeout: Duration) -> Result<Player, StartError> {
        let process = Process::start(&spec.command)?;
        let mut player = Player {
            process,
            spec: spec.clone(),
            name: spec.name.clone().unwrap_or_default(),
            counter: 0,
            synced: 0,
        };
        let deadline = Instant::now() + timeout;
        let result = match spec.protocol {
            EngineProtocol::Nboard => player.nboard_handshake(deadline),
            EngineProtocol::Gtp => player.gtp_handshake(deadline),
        };
        result.map_err(|source| StartError::Handshake {
            command: spec.command.clone(),
            source,
        })?;
        if player.name.is_empty() {
            player.name = spec
                .command
                .split_whitespace()
                .next()
                .unwrap_or("engine")
                .rsplit('/')
                .next()
                .unwrap_or("engine")
                .to_string();
        }
        Ok(player)
    }

    fn nboard_handshake(&mut self, deadline: Instant) -> Result<(), EngineError> {
        self.process.send("nboard 2")?;
        if let Some(d) = self.spec.depth {
            self.process.send(&format!("set depth {d}"))?;
        }
        self.counter += 1;
        let n = self.counter;
        self.process.send(&format!("ping {n}"))?;
        self.nboard_wait_pong(n, deadline)
    }

    /// Reads until `pong n`, taking the engine's name from `set myname`.
    fn nboard_wait_pong(&mut self, n: u32, deadline: Instant) -> Result<(), EngineError> {
        loop {
            let line = self.process.recv(deadline)?;
            let mut words = line.split_whitespace();
            match (words.next(), words.next(), words.next()) {
                (Some("pong"), Some(k), _) if k == n.to_string() => return Ok(()),
                (Some("set"), Some("myname"), Some(name))
                    if self.spec.name.is_none() && !name.is_empty() =>
                {
                    // Engines append their depth (`Wedge6`); keep it, it tells the two apart.
                    self.name = name.to_string();
                }
                _ => {}
            }
        }
    }

    fn gtp_handshake(&mut self, deadline: Instant) -> Result<(), EngineError> {
        let name = self.gtp("name", deadline)?;
        if self.spec.name.is_none() && !name.trim().is_empty() {
            self.name = name.split_whitespace().collect::<Vec<_>>().join("_");
        }
        self.gtp("boardsize 8", deadline)?;
        if let Some(d) = self.spec.depth {
            let commands = self.gtp("list_commands", deadline)?;
            if commands.lines().any(|l| l.trim() == "wedge-depth") {
                self.gtp(&format!("wedge-depth {d}"), deadline)?;
                if self.spec.name.is_none() {
                    self.name = format!("{}{d}", self.name);
                }
            } else {
                tracing::warn!(
                    "GTP engine {:?} has no wedge-depth command; set its depth on its command line",
                    self.spec.command
                );
            }
        }
        Ok(())
    }

    /// Sends one GTP command with a numeric id and returns the text of a success answer.
    fn gtp(&mut self, command: &str, deadline: Instant) -> Result<String, EngineError> {
        self.counter += 1;
        let id = self.counter;
        self.process.send(&format!("{id} {command}"))?;
        // Skip stray lines until an answer carrying our id.
        let (ok, first) = loop {
            let line = self.process.recv(deadline)?;
            let (mark, rest) = match line.chars().next() {
                Some('=') => (true, &line[1..]),
                Some('?') => (false, &line[1..]),
                _ => continue,
            };
            let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            if digits.is_empty() || digits == id.to_string() {
                break (mark, rest[digits.len()..].trim().to_string());
            }
        };
        let mut text = first;
        loop {
            let line = self.process.recv(deadline)?;
            if line.trim().is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(line.trim());
        }
        if ok {
            Ok(text)
        } else {
            Err(EngineError::Protocol(format!(
                "`{command}` failed: ? {text}"
            )))
        }
    }

    /// Prepares a new game; `opening` is the position the game starts from (moves included).
    pub(crate) fn new_game(
        &mut self,
        time: &MatchTimeControl,
        deadline: Instant,
    ) -> Result<(), EngineError> {
        match self.spec.protocol {
            EngineProtocol::Nboard => Ok(()),
            EngineProtocol::Gtp => {
                self.gtp("clear_board", deadline)?;
                self.synced = 0;
                match time {
                    MatchTimeControl::Depth => Ok(()),
                    MatchTimeControl::PerMove(t) => self
                        .gtp(&format!("time_settings 0 {} 1", gtp_seconds(*t)), deadline)
                        .map(drop),
                    MatchTimeControl::Clock(c) => self
                        .gtp(
                            &format!(
                                "time_settings {} 0 0",
                                gtp_seconds(Duration::from_millis(c.main_ms))
                            ),
                            deadline,
                        )
                        .map(drop),
                }
            }
        }
    }

    /// Asks for a move for the side to move of `record`. `remaining` is the mover's clock
    /// (clock games) before this move. Waits until `deadline`.
    pub(crate) fn think(
        &mut self,
        record: &GgfGame,
        time: &MatchTimeControl,
        remaining: Option<Duration>,
        deadline: Instant,
    ) -> Result<Answer, EngineError> {
        match self.spec.protocol {
            EngineProtocol::Nboard => self.nboard_think(record, time, deadline),
            EngineProtocol::Gtp => self.gtp_think(record.game(), time, remaining, deadline),
        }
    }

    fn nboard_think(
        &mut self,
        record: &GgfGame,
        time: &MatchTimeControl,
        deadline: Instant,
    ) -> Result<Answer, EngineError> {
        let text = match time {
            MatchTimeControl::Clock(_) | MatchTimeControl::Depth => format_ggf(record),
            MatchTimeControl::PerMove(t) => {
                // NBoard has no per-move time: give the mover a clock worth `t` per move left.
                let mut copy = GgfGame::from_game(record.game().clone());
                let left = record
                    .game()
                    .position()
                    .board
                    .empty_count()
                    .div_ceil(2)
                    .max(1);
                copy.clock_both = Some(format_clock(&Clock {
                    main_ms: t.as_millis() as u64 * left as u64,
                    increment_ms: 0,
                    extension_ms: Some(0),
                }));
                format_ggf(&copy)
            }
        };
        self.process.send(&format!("set game {text}"))?;
        self.counter += 1;
        let n = self.counter;
        self.process.send(&format!("ping {n}"))?;
        self.process.send("go")?;
        self.nboard_wait_pong(n, deadline)?;
        loop {
            let line = self.process.recv(deadline)?;
            let Some(rest) = line.trim_start().strip_prefix("===") else {
                continue;
            };
            let item_text = rest.split_whitespace().collect::<Vec<_>>().join("/");
            return Ok(match parse_move_item(&item_text) {
                Ok(item) => Answer {
                    text: item_text,
                    mv: Some(item.mv),
                    resigned: false,
                    eval: item.note.eval,
                },
                Err(_) => Answer {
                    text: item_text.clone(),
                    mv: parse_move_token(item_text.split('/').next().unwrap_or("")),
                    resigned: false,
                    eval: None,
                },
            });
        }
    }

    fn gtp_think(
        &mut self,
        game: &Game,
        time: &MatchTimeControl,
        remaining: Option<Duration>,
        deadline: Instant,
    ) -> Result<Answer, EngineError> {
        let positions = game.positions();
        let moves = game.moves();
        if self.synced > moves.len() {
            return Err(EngineError::Protocol(
                "internal: engine ahead of game".into(),
            ));
        }
        for i in self.synced..moves.len() {
            let c = positions[i].to_move;
            self.gtp(
                &format!("play {} {}", gtp_color(c), gtp_move(moves[i])),
                deadline,
            )?;
            self.synced = i + 1;
        }
        let mover = game.position().to_move;
        match (time, remaining) {
            (MatchTimeControl::PerMove(t), _) => {
                self.gtp(
                    &format!("time_left {} {} 1", gtp_color(mover), gtp_seconds(*t)),
                    deadline,
                )?;
            }
            (MatchTimeControl::Clock(_), Some(r)) => {
                self.gtp(
                    &format!("time_left {} {} 0", gtp_color(mover), gtp_seconds(r)),
                    deadline,
                )?;
            }
            _ => {}
        }
        let text = self.gtp(&format!("genmove {}", gtp_color(mover)), deadline)?;
        let word = text.split_whitespace().next().unwrap_or("").to_string();
        // genmove plays the move on the engine's board.
        self.synced = moves.len() + 1;
        Ok(Answer {
            resigned: word.eq_ignore_ascii_case("resign"),
            mv: parse_move_token(&word),
            text: word,
            eval: None,
        })
    }

    /// Ends the engine: `quit`, then a kill if it does not exit within a second.
    pub(crate) fn quit(self) {
        let line = match self.spec.protocol {
            EngineProtocol::Nboard => "quit",
            EngineProtocol::Gtp => "quit",
        };
        self.process.stop(Some(line), Duration::from_secs(1));
    }

    /// Kills the engine at once (after a crash, hang or illegal move).
    pub(crate) fn kill(self) {
        self.process.stop(None, Duration::ZERO);
    }
}

/// GTP times are whole seconds; never send 0 for a real limit.
fn gtp_seconds(d: Duration) -> u64 {
    d.as_secs().max(1)
}
