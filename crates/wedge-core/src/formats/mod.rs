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
mod position;
mod transcript;
mod wthor;

pub use board_string::{
    format_position, parse_position, parse_side, BoardStringError, BoardStringErrorKind,
};
pub use clock::{format_clock, parse_clock, Clock, ClockError, ClockSpent};
pub use error::{floor_char_boundary, Excerpt, TextLocation};
pub use files::{
    parse_wthor, read_file, read_game_records, read_text, wthor_files, FileGame, GameFileError,
    GamePlace, GameRecordError, RecordNotes,
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
pub use position::{Color, OverlappingDiscs, Position};
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
