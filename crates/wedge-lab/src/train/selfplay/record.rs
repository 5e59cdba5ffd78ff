//! The self-play batch file: its layout, the writer, and the validating reader (every byte
//! checked, every move replayed; failures are typed errors naming the file, never panics).
//!
//! Little-endian. One file holds one batch (see [`BatchId`]):
//!
//! | offset | size | field |
//! |---:|---:|---|
//! | 0 | 8 | magic `WEDGESPD` |
//! | 8 | 4 | format version (u32, 1) |
//! | 12 | 8 | length of the whole file in bytes (u64) |
//! | 20 | 4 | number of games (u32) |
//! | 24 | 8 | run seed (u64) |
//! | 32 | 8 | batch index within the run (u64) |
//! | 40 | 8 | checksum of the weights file the games were played with (its stored FNV-1a 64) |
//! | 48 | 8 | FNV-1a 64 of the ProbCut model's text |
//! | 56 | 8 | FNV-1a 64 of the WTHOR lines openings were drawn from (0: none) |
//! | 64 | 1 | midgame depth |
//! | 65 | 1 | Multi-ProbCut level |
//! | 66 | 1 | exact-solve empties |
//! | 67 | 1 | fewest opening plies |
//! | 68 | 1 | most opening plies |
//! | 69 | 1 | reserved, 0 |
//! | 70 | 2 | WTHOR starts per thousand games (u16) |
//! | 72 | 4 | transposition table per game, MB (u32) |
//! | 76 | .. | the games, back to back |
//! | end − 8 | 8 | FNV-1a 64 of every preceding byte |
//!
//! A game: `plies` (u8: every move from the standard start, passes included), `opening` (u8:
//! how many of them are the random or WTHOR start, not searched), `exact_from` (u8: the first
//! ply whose value is an exact solve; the plies before it were searched to the header's depth
//! and level), `flags` (u8: bit 0 = the start left a WTHOR game), `result` (i8: Black's final
//! disc difference, empties to the winner); then `plies` move bytes (square 0-63, a1 = 0, or
//! 64 for a pass); then one i8 per ply after the opening: the search's value of the position
//! before that ply for its side to move, in discs, or -128 for a pass (nothing searched).

use super::unit::{BatchId, Settings};
use std::path::{Path, PathBuf};
use wedge_core::board::{Board, IllegalMove, Move, Square};
use wedge_core::formats::Color;
use wedge_core::framing::{verify_trailer, Reader, Truncated, Writer};
use wedge_core::paths::write_atomic;
use wedge_core::search::Selectivity;

pub const MAGIC: [u8; 8] = *b"WEDGESPD";
pub const VERSION: u32 = 1;
/// Bytes before the first game.
pub const HEADER_LEN: usize = 76;
/// The checksum at the end.
pub const CHECKSUM_LEN: usize = 8;
/// Bytes of a game before its moves.
const GAME_HEADER_LEN: usize = 5;
/// A pass in the move bytes.
pub const PASS_BYTE: u8 = 64;
/// The value byte of a pass (no search).
pub const NO_VALUE: i8 = i8::MIN;
const FLAG_WTHOR: u8 = 1;

/// What a batch was made from: its id, the evaluation and openings (by checksum) and the
/// settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchHeader {
    pub id: BatchId,
    pub weights_checksum: u64,
    pub probcut_checksum: u64,
    pub wthor_checksum: u64,
    pub settings: Settings,
}

/// How a game started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// Uniformly random legal moves.
    Random,
    /// A WTHOR game's first moves, then a random legal move other than the game's.
    Wthor,
}

/// One self-played game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Every move from the standard start, passes included.
    pub moves: Vec<Move>,
    /// The first `opening` moves are the start; the engine played the rest.
    pub opening: usize,
    /// The first ply whose value is an exact solve (`moves.len()` when none is).
    pub exact_from: usize,
    pub start: Start,
    /// One per ply from `opening` on: the search's value of the position before that ply for
    /// its side to move (discs), [`NO_VALUE`] for a pass.
    pub values: Vec<i8>,
    /// Black's final disc difference (empties to the winner).
    pub result: i8,
}

/// Where a recorded value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// A midgame search of this depth and Multi-ProbCut level.
    Midgame {
        depth: u32,
        selectivity: Selectivity,
    },
    /// An exact solve.
    Exact,
}

/// A searched position of a game, for training.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchedPosition {
    /// The position, side to move first.
    pub board: Board,
    pub to_move: Color,
    /// The search's value for the side to move (discs).
    pub search: i8,
    pub kind: ValueKind,
    /// The game's final disc difference for the side to move (perfect play from the first
    /// exactly solved position on).
    pub result: i8,
}

/// A batch: its header and its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    pub header: BatchHeader,
    pub games: Vec<GameRecord>,
}

/// A batch file that cannot be read, written or trusted.
#[derive(Debug, thiserror::Error)]
#[error("{}: {kind}", file.display())]
pub struct RecordError {
    pub file: PathBuf,
    pub kind: RecordErrorKind,
}

/// What is wrong with a batch file.
#[derive(Debug, thiserror::Error)]
pub enum RecordErrorKind {
    #[error("cannot read: {0}")]
    Read(std::io::Error),
    #[error("cannot write: {0}")]
    Write(std::io::Error),
    #[error("{len} bytes: too short for a self-play batch file (at least {min})")]
    TooShort { len: usize, min: usize },
    #[error("not a self-play batch file (magic {})", String::from_utf8_lossy(found).escape_debug())]
    BadMagic { found: [u8; 8] },
    #[error("format version {found}; this build reads version {VERSION}")]
    UnsupportedVersion { found: u32 },
    #[error("{actual} bytes, but the header says {declared} (truncated or appended to)")]
    Length { actual: u64, declared: u64 },
    #[error("checksum mismatch: stored {stored:#018x}, computed {computed:#018x} (corrupted)")]
    Checksum { stored: u64, computed: u64 },
    #[error("header: reserved byte is {0}, expected 0")]
    Reserved(u8),
    #[error("header: bad settings: {0}")]
    Settings(String),
    #[error("game {game} of {count}: {problem}")]
    Game {
        game: u32,
        count: u32,
        problem: GameProblem,
    },
    #[error("{extra} bytes after the last of the {count} games")]
    TrailingBytes { extra: usize, count: u32 },
    #[error("the batch does not read back as itself (not written)")]
    NotRoundTrip,
}

/// A header shorter than its fields (the length checks come first, so only a file of under
/// [`HEADER_LEN`] bytes gets here).
impl From<Truncated> for RecordErrorKind {
    fn from(t: Truncated) -> RecordErrorKind {
        RecordErrorKind::TooShort {
            len: t.len,
            min: HEADER_LEN + CHECKSUM_LEN,
        }
    }
}

/// What is wrong with one game of a batch file (plies counted from 1).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameProblem {
    #[error("the file ends inside this game")]
    Truncated,
    #[error("{plies} plies, {opening} of opening, exact from ply {exact_from}: inconsistent")]
    Lengths {
        plies: usize,
        opening: usize,
        exact_from: usize,
    },
    #[error("unknown flags {0:#04x}")]
    Flags(u8),
    #[error("ply {ply}: byte {byte} is neither a square nor a pass")]
    MoveByte { ply: usize, byte: u8 },
    #[error("ply {ply}: the game was already over")]
    AfterEnd { ply: usize },
    #[error("ply {ply}: {reason}")]
    Illegal { ply: usize, reason: IllegalMove },
    #[error("the game is not over after its {plies} plies")]
    NotOver { plies: usize },
    #[error("final result {stored} recorded, but the moves end at {actual}")]
    Result { stored: i8, actual: i32 },
    #[error("ply {ply}: value {value} (expected -64..=64, or -128 exactly at a pass)")]
    Value { ply: usize, value: i8 },
}

impl RecordError {
    pub fn new(file: &Path, kind: RecordErrorKind) -> RecordError {
        RecordError {
            file: file.to_path_buf(),
            kind,
        }
    }
}

pub(super) fn move_byte(mv: Move) -> u8 {
    match mv {
        Move::Play(sq) => sq.index() as u8,
        Move::Pass => PASS_BYTE,
    }
}

pub(super) fn byte_move(byte: u8) -> Option<Move> {
    match byte {
        PASS_BYTE => Some(Move::Pass),
        b => Square::new(b).map(Move::Play),
    }
}

/// The colour to move after `plies` plies from the standard start.
pub(super) fn color_after(plies: usize) -> Color {
    if plies.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

impl GameRecord {
    /// The kind of the value recorded at ply `ply` (0-based, at or after the opening).
    pub fn kind_at(&self, ply: usize, settings: &Settings) -> ValueKind {
        if ply >= self.exact_from {
            ValueKind::Exact
        } else {
            ValueKind::Midgame {
                depth: settings.depth,
                selectivity: settings.selectivity,
            }
        }
    }

    /// Checks the game (lengths, each move legal in turn, the game over at the end, the result
    /// and the values) and returns its final position.
    pub fn check(&self) -> Result<Board, GameProblem> {
        let plies = self.moves.len();
        if plies > usize::from(u8::MAX)
            || self.opening > plies
            || self.exact_from < self.opening
            || self.exact_from > plies
            || self.values.len() != plies - self.opening
        {
            return Err(GameProblem::Lengths {
                plies,
                opening: self.opening,
                exact_from: self.exact_from,
            });
        }
        let mut board = Board::START;
        for (i, &mv) in self.moves.iter().enumerate() {
            if board.is_game_over() {
                return Err(GameProblem::AfterEnd { ply: i + 1 });
            }
            if i >= self.opening {
                let value = self.values[i - self.opening];
                let ok = match mv {
                    Move::Pass => value == NO_VALUE,
                    Move::Play(_) => (-64..=64).contains(&value),
                };
                if !ok {
                    return Err(GameProblem::Value { ply: i + 1, value });
                }
            }
            board = board
                .apply(mv)
                .map_err(|reason| GameProblem::Illegal { ply: i + 1, reason })?;
        }
        if !board.is_game_over() {
            return Err(GameProblem::NotOver { plies });
        }
        let actual = match color_after(plies) {
            Color::Black => board.final_score(),
            Color::White => -board.final_score(),
        };
        if actual != i32::from(self.result) {
            return Err(GameProblem::Result {
                stored: self.result,
                actual,
            });
        }
        Ok(board)
    }

    /// The searched positions of the game in order, with their values and the result from
    /// their side to move's view. The game must be valid ([`GameRecord::check`]).
    pub fn samples<'a>(
        &'a self,
        settings: &'a Settings,
    ) -> impl Iterator<Item = SearchedPosition> + 'a {
        let mut board = Board::START;
        self.moves.iter().enumerate().filter_map(move |(i, &mv)| {
            let before = board;
            board = match mv {
                Move::Play(sq) => before.play_flips(sq, before.flips(sq)),
                Move::Pass => before.pass(),
            };
            if i < self.opening || mv == Move::Pass {
                return None;
            }
            let to_move = color_after(i);
            let result = match to_move {
                Color::Black => self.result,
                Color::White => self.result.saturating_neg(),
            };
            Some(SearchedPosition {
                board: before,
                to_move,
                search: self.values[i - self.opening],
                kind: self.kind_at(i, settings),
                result,
            })
        })
    }

    fn encoded_len(&self) -> usize {
        GAME_HEADER_LEN + self.moves.len() + self.values.len()
    }
}

impl Batch {
    /// The file's bytes. The games are written as given: [`Batch::write`] checks them first.
    pub fn to_bytes(&self) -> Vec<u8> {
        let games_len: usize = self.games.iter().map(GameRecord::encoded_len).sum();
        let len = HEADER_LEN + games_len + CHECKSUM_LEN;
        let h = &self.header;
        let s = &h.settings;
        let mut out = Writer::new(&MAGIC, VERSION, len);
        out.u64(len as u64);
        out.u32(self.games.len() as u32);
        out.u64(h.id.run_seed);
        out.u64(h.id.index);
        out.u64(h.weights_checksum);
        out.u64(h.probcut_checksum);
        out.u64(h.wthor_checksum);
        for b in s.byte_fields() {
            out.u8(b);
        }
        out.u8(0); // reserved
        out.u16(s.wthor_per_mille.min(u32::from(u16::MAX)) as u16);
        out.u32(s.game_hash_mb);
        debug_assert_eq!(out.len(), HEADER_LEN);
        for g in &self.games {
            let flags = match g.start {
                Start::Random => 0,
                Start::Wthor => FLAG_WTHOR,
            };
            out.bytes(&[
                g.moves.len() as u8,
                g.opening as u8,
                g.exact_from as u8,
                flags,
                g.result as u8,
            ]);
            for &m in &g.moves {
                out.u8(move_byte(m));
            }
            for &v in &g.values {
                out.u8(v as u8);
            }
        }
        out.finish()
    }

    /// Parses and validates a batch file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Batch, RecordErrorKind> {
        let min = HEADER_LEN + CHECKSUM_LEN;
        if bytes.len() < 20 {
            return Err(RecordErrorKind::TooShort {
                len: bytes.len(),
                min,
            });
        }
        let mut r = Reader::new(bytes);
        // At least 20 bytes: magic, version and length are there.
        let (magic, version, declared) = (r.array::<8>()?, r.u32()?, r.u64()?);
        if magic != MAGIC {
            return Err(RecordErrorKind::BadMagic { found: magic });
        }
        if version != VERSION {
            return Err(RecordErrorKind::UnsupportedVersion { found: version });
        }
        if declared != bytes.len() as u64 {
            return Err(RecordErrorKind::Length {
                actual: bytes.len() as u64,
                declared,
            });
        }
        if bytes.len() < min {
            return Err(RecordErrorKind::TooShort {
                len: bytes.len(),
                min,
            });
        }
        let covered = verify_trailer(bytes).map_err(|m| RecordErrorKind::Checksum {
            stored: m.stored,
            computed: m.computed,
        })?;
        let count = r.u32()?;
        let id = BatchId {
            run_seed: r.u64()?,
            index: r.u64()?,
        };
        let (weights_checksum, probcut_checksum, wthor_checksum) = (r.u64()?, r.u64()?, r.u64()?);
        let bytes = r.array()?;
        let reserved = r.u8()?;
        if reserved != 0 {
            return Err(RecordErrorKind::Reserved(reserved));
        }
        let settings = Settings::from_fields(bytes, r.u16()?, r.u32()?);
        if let Some(problem) = settings.problem() {
            return Err(RecordErrorKind::Settings(problem));
        }
        let header = BatchHeader {
            id,
            weights_checksum,
            probcut_checksum,
            wthor_checksum,
            settings,
        };
        let body = &covered[HEADER_LEN..];

        let mut pos = 0;
        // At least a game header per game: a huge count cannot make us reserve much.
        let mut games = Vec::with_capacity((count as usize).min(body.len() / GAME_HEADER_LEN));
        for game in 0..count {
            let bad = |problem| RecordErrorKind::Game {
                game: game + 1,
                count,
                problem,
            };
            let g = parse_game(body, &mut pos).map_err(bad)?;
            g.check().map_err(bad)?;
            games.push(g);
        }
        if pos != body.len() {
            return Err(RecordErrorKind::TrailingBytes {
                extra: body.len() - pos,
                count,
            });
        }
        Ok(Batch { header, games })
    }

    /// Reads and validates a batch file.
    pub fn read(path: &Path) -> Result<Batch, RecordError> {
        let bytes = wedge_core::paths::read_file(path)
            .map_err(|e| RecordError::new(path, RecordErrorKind::Read(e)))?;
        Batch::from_bytes(&bytes).map_err(|k| RecordError::new(path, k))
    }

    /// Writes the batch atomically (temporary file, fsync, rename) after checking that the
    /// bytes read back as this batch, so a file on disk is always one the reader accepts.
    pub fn write(&self, path: &Path) -> Result<(), RecordError> {
        let bytes = self.to_bytes();
        match Batch::from_bytes(&bytes) {
            Ok(back) if back == *self => {}
            Ok(_) => return Err(RecordError::new(path, RecordErrorKind::NotRoundTrip)),
            Err(kind) => return Err(RecordError::new(path, kind)),
        }
        write_atomic(path, &bytes).map_err(|e| RecordError::new(path, RecordErrorKind::Write(e)))
    }

    /// Every searched position of every game, in order.
    pub fn samples(&self) -> impl Iterator<Item = SearchedPosition> + '_ {
        let settings = &self.header.settings;
        self.games.iter().flat_map(move |g| g.samples(settings))
    }
}

/// Reads one game at `*pos` of `body` (structure only; [`GameRecord::check`] does the rest).
fn parse_game(body: &[u8], pos: &mut usize) -> Result<GameRecord, GameProblem> {
    let head = body
        .get(*pos..*pos + GAME_HEADER_LEN)
        .ok_or(GameProblem::Truncated)?;
    let (plies, opening, exact_from, flags, result) = (
        usize::from(head[0]),
        usize::from(head[1]),
        usize::from(head[2]),
        head[3],
        head[4] as i8,
    );
    if opening > plies || exact_from < opening || exact_from > plies {
        return Err(GameProblem::Lengths {
            plies,
            opening,
            exact_from,
        });
    }
    let start = match flags {
        0 => Start::Random,
        FLAG_WTHOR => Start::Wthor,
        other => return Err(GameProblem::Flags(other)),
    };
    let moves_at = *pos + GAME_HEADER_LEN;
    let values_at = moves_at + plies;
    let end = values_at + (plies - opening);
    let (move_bytes, value_bytes) = match (body.get(moves_at..values_at), body.get(values_at..end))
    {
        (Some(m), Some(v)) => (m, v),
        _ => return Err(GameProblem::Truncated),
    };
    let moves = move_bytes
        .iter()
        .enumerate()
        .map(|(i, &byte)| byte_move(byte).ok_or(GameProblem::MoveByte { ply: i + 1, byte }))
        .collect::<Result<Vec<Move>, GameProblem>>()?;
    *pos = end;
    Ok(GameRecord {
        moves,
        opening,
        exact_from,
        start,
        values: value_bytes.iter().map(|&v| v as i8).collect(),
        result,
    })
}
