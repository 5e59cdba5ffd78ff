//! A game record: a start position, the moves played (passes included), optional names, and the
//! replay check that keeps every stored move legal.

use super::{Color, Position};
use crate::board::{Move, Squares};
use std::fmt;

/// Whether a forced pass must be written in the move list or may be left out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PassPolicy {
    /// Every pass must be written; a square played by a side that has no move is an error.
    Explicit,
    /// When the side to move has no square but the opponent does, a pass is inserted before the
    /// next written square (written passes are accepted too).
    Infer,
}

/// Why a move cannot be played.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum IllegalReason {
    #[error("the square is already occupied")]
    Occupied,
    #[error("the move flips no disc")]
    FlipsNothing,
    #[error("pass is not allowed: the side to move has a legal move")]
    PassWithMovesAvailable,
    #[error("the game is over: neither side can move")]
    GameOver,
}

/// A move that failed during a replay.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
#[error("move {move_number} ({mv}, {to_move} to move) is illegal: {reason}")]
pub struct ReplayError {
    /// 1-based index of the move among the moves given (inferred passes not counted).
    pub move_number: usize,
    pub mv: Move,
    pub to_move: Color,
    pub reason: IllegalReason,
}

/// Optional names that travel with a game (GGF `PB`/`PW`/`PC`/`DT`, WTHOR name files).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct GameInfo {
    pub black: Option<String>,
    pub white: Option<String>,
    /// Where or in which tournament it was played.
    pub event: Option<String>,
    /// Opaque date text (formats differ: GGS, NBoard, a WTHOR year).
    pub date: Option<String>,
}

/// A legal game: every move in `moves` was checked against the position it was played in.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    start: Position,
    moves: Vec<Move>,
    current: Position,
    pub info: GameInfo,
}

/// Checks `mv` in `pos` and returns the position after it.
pub(crate) fn play_checked(pos: &Position, mv: Move) -> Result<Position, IllegalReason> {
    let board = &pos.board;
    if board.is_game_over() {
        return Err(IllegalReason::GameOver);
    }
    match mv {
        Move::Play(sq) => {
            if (board.player | board.opponent) & sq.bit() != 0 {
                return Err(IllegalReason::Occupied);
            }
            let flips = board.flips(sq);
            if flips == 0 {
                return Err(IllegalReason::FlipsNothing);
            }
            Ok(Position::new(
                board.play_flips(sq, flips),
                pos.to_move.opposite(),
            ))
        }
        Move::Pass if board.has_no_move() => Ok(pos.passed()),
        Move::Pass => Err(IllegalReason::PassWithMovesAvailable),
    }
}

/// True when the side to move must pass before `mv` can be considered: `mv` is a square, the
/// mover has none, and the game is not over.
pub(crate) fn needs_inferred_pass(pos: &Position, mv: Move) -> bool {
    matches!(mv, Move::Play(_)) && pos.board.has_no_move() && !pos.board.is_game_over()
}

impl Game {
    /// An empty game from `start`.
    pub fn new(start: Position) -> Game {
        Game {
            start,
            moves: Vec::new(),
            current: start,
            info: GameInfo::default(),
        }
    }

    /// Replays `moves` from `start`, checking each; with [`PassPolicy::Infer`] forced passes that
    /// were left out are inserted.
    pub fn from_moves(
        start: Position,
        moves: impl IntoIterator<Item = Move>,
        policy: PassPolicy,
    ) -> Result<Game, ReplayError> {
        let mut game = Game::new(start);
        for (i, mv) in moves.into_iter().enumerate() {
            let inferred = policy == PassPolicy::Infer && needs_inferred_pass(&game.current, mv);
            let to_move = if inferred {
                game.current.to_move.opposite()
            } else {
                game.current.to_move
            };
            let result = match policy {
                PassPolicy::Explicit => game.play(mv),
                PassPolicy::Infer => game.play_inferring_pass(mv).map(|_| ()),
            };
            result.map_err(|reason| ReplayError {
                move_number: i + 1,
                mv,
                to_move,
                reason,
            })?;
        }
        Ok(game)
    }

    /// Plays `mv` if it is legal in the current position.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalReason> {
        self.current = play_checked(&self.current, mv)?;
        self.moves.push(mv);
        Ok(())
    }

    /// Plays `mv`, first inserting a pass when the side to move has no square. Returns whether a
    /// pass was inserted. On error nothing is changed.
    pub fn play_inferring_pass(&mut self, mv: Move) -> Result<bool, IllegalReason> {
        if needs_inferred_pass(&self.current, mv) {
            let passed = self.current.passed();
            let after = play_checked(&passed, mv)?;
            self.moves.push(Move::Pass);
            self.moves.push(mv);
            self.current = after;
            Ok(true)
        } else {
            self.play(mv).map(|()| false)
        }
    }

    pub fn start(&self) -> Position {
        self.start
    }

    /// The moves played, passes included.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position after the last move.
    pub fn position(&self) -> Position {
        self.current
    }

    /// The position before each move and after the last: `moves().len() + 1` positions.
    pub fn positions(&self) -> Vec<Position> {
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        let mut pos = self.start;
        out.push(pos);
        for &mv in &self.moves {
            // Every stored move was checked when it was added.
            pos = play_checked(&pos, mv).unwrap_or(pos);
            out.push(pos);
        }
        out
    }

    /// True when neither side can move any more.
    pub fn is_over(&self) -> bool {
        self.current.board.is_game_over()
    }

    /// The legal moves in the current position (a single pass when forced, none when over).
    pub fn legal_moves(&self) -> Vec<Move> {
        self.current.board.moves()
    }

    /// Squares playable now, as a bitboard iterator.
    pub fn legal_squares(&self) -> Squares {
        Squares(self.current.board.legal_moves())
    }

    /// Disc counts `(black, white)` in the current position.
    pub fn disc_counts(&self) -> (u32, u32) {
        (
            self.current.black().count_ones(),
            self.current.white().count_ones(),
        )
    }
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Position::START)
    }
}

impl fmt::Display for Game {
    /// The start position's board string, a space, then the transcript.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.start, self.transcript())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn replays_and_rejects_with_reasons() {
        let g = Game::from_moves(
            Position::START,
            [mv("f5"), mv("d6"), mv("c3")],
            PassPolicy::Explicit,
        )
        .unwrap();
        assert_eq!(g.moves().len(), 3);
        assert_eq!(g.position().to_move, Color::White);
        assert_eq!(g.positions().len(), 4);

        let e = Game::from_moves(Position::START, [mv("f5"), mv("f5")], PassPolicy::Explicit)
            .unwrap_err();
        assert_eq!(e.move_number, 2);
        assert_eq!(e.reason, IllegalReason::Occupied);
        assert_eq!(e.to_move, Color::White);

        let e = Game::from_moves(Position::START, [mv("a1")], PassPolicy::Explicit).unwrap_err();
        assert_eq!(e.reason, IllegalReason::FlipsNothing);

        let e = Game::from_moves(Position::START, [Move::Pass], PassPolicy::Infer).unwrap_err();
        assert_eq!(e.reason, IllegalReason::PassWithMovesAvailable);
    }

    #[test]
    fn infers_forced_passes() {
        // Black x on a1, white o on b1, c1 empty; Black to move... White must pass after a move.
        // Position: White to move with no legal square, Black has c1.
        let black = 1u64; // a1
        let white = 1u64 << 1; // b1
        let start = Position::from_colors(black, white, Color::White).unwrap();
        assert!(start.board.must_pass());
        let c1 = mv("c1");
        let e = Game::from_moves(start, [c1], PassPolicy::Explicit).unwrap_err();
        assert_eq!(e.reason, IllegalReason::FlipsNothing);
        let g = Game::from_moves(start, [c1], PassPolicy::Infer).unwrap();
        assert_eq!(g.moves(), &[Move::Pass, c1]);
        assert!(g.is_over());
        assert_eq!(g.disc_counts(), (3, 0));
        let e =
            Game::from_moves(start, [Move::Pass, c1, Move::Pass], PassPolicy::Infer).unwrap_err();
        assert_eq!((e.move_number, e.reason), (3, IllegalReason::GameOver));
    }
}
