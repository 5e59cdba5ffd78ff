//! Game and position notations: OBF lines, board strings, move transcripts, GGF, WTHOR.
//!
//! This module owns everything that turns text or bytes from outside into positions and games
//! (and back): the colour-aware [`Position`] and the replay-checked [`Game`] live here, because
//! the board core deliberately stores no colour. Every parser returns a typed error that says what
//! went wrong and where (line and column, byte offset, move number or record index); none panics
//! on any input.
//!
//! | notation | file | parse | print |
//! |---|---|---|---|
//! | board string (`---…XO…- X`) | `board_string.rs` | [`parse_position`] | [`format_position`] |
//! | OBF line / file | `obf.rs` | [`parse_obf_line`], [`parse_obf_file`] | [`format_obf_line`] |
//! | transcript (`f5d6c3`) | `transcript.rs` | [`parse_transcript`], [`replay_transcript`] | [`format_transcript`] |
//! | move-list item (`f5/0.50/3.1`) | `move_item.rs` | [`parse_move_item`] | [`format_move_item`] |
//! | GGF game record | `ggf.rs` | [`parse_ggf`], [`parse_ggf_games`] | [`format_ggf`] |
//! | GGF clock (`TI[05:00//02:00]`) | `clock.rs` | [`parse_clock`] | [`format_clock`] |
//! | WTHOR `.wtb`, `.JOU`, `.TRN` | `wthor.rs` | [`read_wthor_games`], [`read_player_names`] | [`write_wthor_games`] |

mod board_string;
mod clock;
mod error;
mod files;
mod game;
mod ggf;
mod move_item;
mod obf;
mod transcript;
mod wthor;

pub use board_string::{
    format_position, parse_position, parse_side, BoardStringError, BoardStringErrorKind,
};
pub use clock::{format_clock, parse_clock, Clock, ClockError};
pub use error::{floor_char_boundary, Excerpt, TextLocation};
pub use files::{
    parse_wthor, read_file, read_game_records, read_text, wthor_files, FileGame, GameFileError,
    GamePlace, GameRecordError,
};
pub use game::{Game, GameInfo, IllegalReason, PassPolicy, ReplayError};
pub use ggf::{
    format_ggf, parse_ggf, parse_ggf_games, GameType, GgfError, GgfErrorKind, GgfGame, GgfGames,
    GgfResult, GgfResultKind, GgfTag,
};
pub use move_item::{
    format_move_item, parse_move_item, parse_move_token, MoveItem, MoveItemError, MoveNote,
};
pub use obf::{format_obf_line, parse_obf_file, parse_obf_line, ObfEntry, ObfError, ObfErrorKind};
pub use transcript::{
    format_transcript, parse_transcript, replay_inferring_passes, replay_transcript,
    TranscriptError, TranscriptErrorKind,
};
pub use wthor::{
    black_discs_empties_to_winner, decode_move_byte, encode_moves, encode_square,
    read_player_names, read_tournament_names, read_wthor_games, write_wthor_games, WthorError,
    WthorGame, WthorGames, WthorHeader, WthorNames, WthorRecordError, WthorReplayError,
    WTHOR_HEADER_LEN, WTHOR_MOVES, WTHOR_PLAYER_NAME_LEN, WTHOR_RECORD_LEN,
    WTHOR_TOURNAMENT_NAME_LEN,
};

use crate::board::{Board, IllegalMove, Move, Square};
use std::fmt;

/// A colour. Black moves first from the standard start.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// The other colour.
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `X` for Black, `O` for White (the board-string letters).
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}

/// A board with colours: the core [`Board`] (side to move first) plus whose turn it is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub board: Board,
    pub to_move: Color,
}

/// Two colours claim the same square (`black & white != 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("black and white discs overlap on {overlap:#018x}")]
pub struct OverlappingDiscs {
    pub overlap: u64,
}

impl Position {
    /// The standard start, Black to move.
    pub const START: Position = Position {
        board: Board::START,
        to_move: Color::Black,
    };

    pub const fn new(board: Board, to_move: Color) -> Position {
        Position { board, to_move }
    }

    /// Builds a position from the black and white bitboards.
    pub fn from_colors(
        black: u64,
        white: u64,
        to_move: Color,
    ) -> Result<Position, OverlappingDiscs> {
        if black & white != 0 {
            return Err(OverlappingDiscs {
                overlap: black & white,
            });
        }
        let board = match to_move {
            Color::Black => Board::new(black, white),
            Color::White => Board::new(white, black),
        };
        Ok(Position { board, to_move })
    }

    /// Black's discs.
    pub fn black(&self) -> u64 {
        match self.to_move {
            Color::Black => self.board.player,
            Color::White => self.board.opponent,
        }
    }

    /// White's discs.
    pub fn white(&self) -> u64 {
        match self.to_move {
            Color::Black => self.board.opponent,
            Color::White => self.board.player,
        }
    }

    /// The discs of `color`.
    pub fn discs_of(&self, color: Color) -> u64 {
        match color {
            Color::Black => self.black(),
            Color::White => self.white(),
        }
    }

    /// The colour of the disc on `sq`, if any.
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.black() & sq.bit() != 0 {
            Some(Color::Black)
        } else if self.white() & sq.bit() != 0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The position after `mv`, checked for legality (a pass only when the mover has no square).
    pub fn apply(&self, mv: Move) -> Result<Position, IllegalMove> {
        let board = self.board.apply(mv)?;
        Ok(Position {
            board,
            to_move: self.to_move.opposite(),
        })
    }

    /// The position with the turn handed to the other side (no legality check).
    pub fn passed(&self) -> Position {
        Position {
            board: self.board.pass(),
            to_move: self.to_move.opposite(),
        }
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::START
    }
}

impl fmt::Display for Position {
    /// The canonical board string: 64 cells `X`/`O`/`-`, a space, `X` or `O`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_position(self))
    }
}

impl std::str::FromStr for Position {
    type Err = BoardStringError;

    fn from_str(s: &str) -> Result<Position, BoardStringError> {
        parse_position(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_colours() {
        let p = Position::START;
        let d5: Square = "d5".parse().unwrap();
        let e4: Square = "e4".parse().unwrap();
        let d4: Square = "d4".parse().unwrap();
        assert_eq!(p.color_at(d5), Some(Color::Black));
        assert_eq!(p.color_at(e4), Some(Color::Black));
        assert_eq!(p.color_at(d4), Some(Color::White));
        assert_eq!(p.black().count_ones(), 2);
        let q = p.apply(Move::Play("f5".parse().unwrap())).unwrap();
        assert_eq!(q.to_move, Color::White);
        assert_eq!(q.black().count_ones(), 4);
        assert_eq!(q.white().count_ones(), 1);
    }

    #[test]
    fn from_colors_rejects_overlap_and_round_trips() {
        assert!(Position::from_colors(1, 1, Color::Black).is_err());
        let p = Position::from_colors(0b10, 0b100, Color::White).unwrap();
        assert_eq!(p.black(), 0b10);
        assert_eq!(p.white(), 0b100);
        assert_eq!(p.board.player, 0b100);
    }
}
