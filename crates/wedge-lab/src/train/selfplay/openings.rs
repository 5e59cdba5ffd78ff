//! Where self-play games start: uniformly random openings of a random length, and positions
//! that leave a WTHOR game (its first moves, then a random legal move other than the game's
//! own), drawn from a game's random stream.

use super::error::SelfplayError;
use super::record::{byte_move, move_byte, Start};
use super::unit::Settings;
use crate::train::games::{wthor_files, HELD_OUT_YEARS};
use std::path::Path;
use wedge_core::board::{Board, Move, Square};
use wedge_core::formats::read_wthor_games;
use wedge_core::framing::fnv1a64;
use wedge_core::rng::Rng;

/// Draws before a start of the asked kind gives up (a WTHOR draw then falls back to a random
/// opening; a random opening that keeps ending the game is kept as it is).
const TRIES: usize = 64;

/// The move sequences of WTHOR games (passes included), to leave them at random.
#[derive(Clone, Debug, Default)]
pub struct WthorLines {
    /// Each line as its length then its move bytes, back to back.
    bytes: Vec<u8>,
    /// Where each line starts in `bytes`.
    starts: Vec<usize>,
    /// Records that did not replay (left out).
    pub skipped: usize,
}

impl WthorLines {
    /// The games of every `WTH_yyyy.wtb` file in `dir` (in name order), except the held-out
    /// years 2017-2020.
    pub fn load(dir: &Path) -> Result<WthorLines, SelfplayError> {
        let files = wthor_files(dir).map_err(|e| SelfplayError::Wthor {
            path: dir.to_path_buf(),
            message: e.to_string(),
        })?;
        let mut lines = WthorLines::default();
        for (path, year) in files {
            if HELD_OUT_YEARS.contains(&year) {
                continue;
            }
            let bad = |message: String| SelfplayError::Wthor {
                path: path.clone(),
                message,
            };
            let bytes = wedge_core::paths::read_file(&path).map_err(|e| bad(e.to_string()))?;
            let games = read_wthor_games(&bytes).map_err(|e| bad(e.to_string()))?;
            for (_, game) in games.replay_all() {
                match game {
                    Ok(game) => lines.push(game.moves()),
                    Err(_) => lines.skipped += 1,
                }
            }
        }
        Ok(lines)
    }

    /// Lines from move sequences (each legal from the standard start).
    pub fn from_lines<'a>(lines: impl IntoIterator<Item = &'a [Move]>) -> WthorLines {
        let mut out = WthorLines::default();
        for line in lines {
            out.push(line);
        }
        out
    }

    fn push(&mut self, moves: &[Move]) {
        let moves = &moves[..moves.len().min(usize::from(u8::MAX))];
        self.starts.push(self.bytes.len());
        self.bytes.push(moves.len() as u8);
        self.bytes.extend(moves.iter().map(|&m| move_byte(m)));
    }

    pub fn len(&self) -> usize {
        self.starts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// FNV-1a 64 of the lines in order (0 when there are none): what batch headers record.
    pub fn checksum(&self) -> u64 {
        if self.is_empty() {
            0
        } else {
            fnv1a64(&self.bytes)
        }
    }

    /// The lines as bytes: each line's length, then its move bytes, back to back (what
    /// [`WthorLines::checksum`] is the checksum of; how a queue sends them to its workers).
    pub fn to_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Lines from [`WthorLines::to_bytes`]' bytes, each replayed from the standard start;
    /// `Err` names the first line that is cut short or has an illegal move.
    pub fn from_bytes(bytes: &[u8]) -> Result<WthorLines, String> {
        let mut out = WthorLines::default();
        let mut at = 0;
        while at < bytes.len() {
            let line = out.starts.len();
            let len = usize::from(bytes[at]);
            let Some(moves) = bytes.get(at + 1..at + 1 + len) else {
                return Err(format!("line {line} is cut short"));
            };
            let mut board = Board::START;
            for (ply, &b) in moves.iter().enumerate() {
                let legal = match byte_move(b) {
                    Some(Move::Pass) => board.legal_moves() == 0,
                    Some(Move::Play(sq)) => board.legal_moves() & sq.bit() != 0,
                    None => false,
                };
                if !legal {
                    return Err(format!(
                        "line {line}, ply {}: byte {b} is no legal move",
                        ply + 1
                    ));
                }
                board = play(&board, byte_move(b).expect("checked"));
            }
            out.starts.push(at);
            at += 1 + len;
        }
        out.bytes = bytes.to_vec();
        Ok(out)
    }

    /// Line `i`'s moves.
    fn line(&self, i: usize) -> impl Iterator<Item = Move> + '_ {
        let start = self.starts[i];
        let len = usize::from(self.bytes[start]);
        self.bytes[start + 1..start + 1 + len]
            .iter()
            .filter_map(|&b| byte_move(b))
    }
}

/// A game's start: its moves from the standard start and the position they reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub moves: Vec<Move>,
    pub board: Board,
    pub start: Start,
}

/// Plays a legal move (no check).
fn play(board: &Board, mv: Move) -> Board {
    match mv {
        Move::Play(sq) => board.play_flips(sq, board.flips(sq)),
        Move::Pass => board.pass(),
    }
}

/// A number of plies in the settings' range.
fn plies(rng: &mut Rng, settings: &Settings) -> usize {
    let span = u64::from(settings.max_plies - settings.min_plies) + 1;
    (u64::from(settings.min_plies) + rng.below(span)) as usize
}

/// Draws a start: with probability `wthor_per_mille / 1000` one leaving a WTHOR line (when
/// there are lines), else a random opening. Depends only on `rng`'s state, the settings and
/// the lines.
pub fn draw_opening(rng: &mut Rng, settings: &Settings, wthor: Option<&WthorLines>) -> Opening {
    if settings.wthor_per_mille > 0 && rng.below(1000) < u64::from(settings.wthor_per_mille) {
        if let Some(lines) = wthor.filter(|w| !w.is_empty()) {
            for _ in 0..TRIES {
                if let Some(o) = leave_line(rng, settings, lines) {
                    return o;
                }
            }
        }
    }
    random_opening(rng, settings)
}

/// Uniformly random legal moves (passes when forced) for a number of plies in the settings'
/// range; drawn again when they end the game.
fn random_opening(rng: &mut Rng, settings: &Settings) -> Opening {
    let mut last = None;
    for _ in 0..TRIES {
        let k = plies(rng, settings);
        let mut board = Board::START;
        let mut moves = Vec::with_capacity(k);
        while moves.len() < k {
            match board.random_move(rng) {
                Some(mv) => {
                    board = play(&board, mv);
                    moves.push(mv);
                }
                None => break,
            }
        }
        let opening = Opening {
            moves,
            board,
            start: Start::Random,
        };
        if !board.is_game_over() {
            return opening;
        }
        last = Some(opening);
    }
    last.unwrap_or(Opening {
        moves: Vec::new(),
        board: Board::START,
        start: Start::Random,
    })
}

/// A random line's first `p` plies (`p` in the settings' range), then a random legal move
/// other than the line's own; `None` when the line is too short, its move there is forced
/// (or a pass), or the deviation ends the game.
fn leave_line(rng: &mut Rng, settings: &Settings, lines: &WthorLines) -> Option<Opening> {
    let line = rng.below(lines.len() as u64) as usize;
    let p = plies(rng, settings);
    let mut board = Board::START;
    let mut moves = Vec::with_capacity(p + 1);
    let mut own = None;
    for mv in lines.line(line) {
        if moves.len() == p {
            own = Some(mv);
            break;
        }
        board = play(&board, mv);
        moves.push(mv);
    }
    let others = match own? {
        Move::Play(sq) => board.legal_moves() & !sq.bit(),
        Move::Pass => 0,
    };
    if others == 0 {
        return None;
    }
    let mv = Move::Play(Square::from_index(rng.pick_bit(others).trailing_zeros()));
    board = play(&board, mv);
    moves.push(mv);
    (!board.is_game_over()).then_some(Opening {
        moves,
        board,
        start: Start::Wthor,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replay(moves: &[Move]) -> Board {
        moves.iter().fold(Board::START, |b, &m| {
            b.apply(m).expect("legal opening move")
        })
    }

    #[test]
    fn selfplay_random_openings_are_legal_and_in_range() {
        let settings = Settings {
            min_plies: 3,
            max_plies: 9,
            ..Settings::DEFAULT
        };
        let mut lengths = [0usize; 10];
        for seed in 0..400 {
            let o = draw_opening(&mut Rng::new(seed), &settings, None);
            assert_eq!(o.start, Start::Random);
            assert!((3..=9).contains(&o.moves.len()), "{}", o.moves.len());
            assert_eq!(replay(&o.moves), o.board);
            assert!(!o.board.is_game_over());
            lengths[o.moves.len()] += 1;
        }
        assert!(lengths[3..=9].iter().all(|&n| n > 20), "{lengths:?}");
    }

    #[test]
    fn selfplay_wthor_starts_follow_a_line_then_leave_it() {
        // Two lines: random games from the start.
        let mut rng = Rng::new(7);
        let games: Vec<Vec<Move>> = (0..2)
            .map(|_| {
                let mut b = Board::START;
                let mut moves = Vec::new();
                while let Some(mv) = b.random_move(&mut rng) {
                    b = play(&b, mv);
                    moves.push(mv);
                }
                moves
            })
            .collect();
        let lines = WthorLines::from_lines(games.iter().map(Vec::as_slice));
        assert_eq!(lines.len(), 2);
        assert_ne!(lines.checksum(), 0);
        assert_eq!(WthorLines::default().checksum(), 0);
        let settings = Settings {
            min_plies: 4,
            max_plies: 12,
            wthor_per_mille: 1000,
            ..Settings::DEFAULT
        };
        for seed in 0..200 {
            let o = draw_opening(&mut Rng::new(seed), &settings, Some(&lines));
            assert_eq!(replay(&o.moves), o.board);
            if o.start == Start::Wthor {
                let p = o.moves.len() - 1;
                assert!((4..=12).contains(&p));
                let source = games
                    .iter()
                    .find(|g| g[..p] == o.moves[..p])
                    .expect("a line's prefix");
                assert_ne!(source[p], o.moves[p], "the last move leaves the line");
            }
        }
        // Half of the games on average when the ratio is one half.
        let half = Settings {
            wthor_per_mille: 500,
            ..settings
        };
        let n = (0..400)
            .filter(|&s| draw_opening(&mut Rng::new(s), &half, Some(&lines)).start == Start::Wthor)
            .count();
        assert!((140..=260).contains(&n), "{n}");
    }
}
