//! WTHOR files of the Fédération Française d'Othello: `WTH_yyyy.wtb` game databases and the
//! `WTHOR.JOU` (players) / `WTHOR.TRN` (tournaments) name files.
//!
//! All start with the same 16-byte little-endian header (see [`WthorHeader`]). A game file then
//! holds 68-byte records: u16 tournament, u16 black player, u16 white player, u8 Black's final
//! discs, u8 Black's theoretical discs, 60 move bytes `10 * row + column` (`a1 = 11`, `h8 = 88`,
//! `0` = no move; passes are not written). Name files hold fixed-size NUL-padded Latin-1 names,
//! 20 bytes (players) or 26 bytes (tournaments). The record count in the header must match the
//! file length exactly; a short or long file is an error, never a panic. Replaying a record
//! infers the passes and reports the first bad move by its ply.

use super::game::{Game, GameInfo, IllegalReason, PassPolicy, ReplayError};
use super::{Color, Position};
use crate::board::{Move, Square};

pub const WTHOR_HEADER_LEN: usize = 16;
pub const WTHOR_RECORD_LEN: usize = 68;
/// Length of a player name record in `WTHOR.JOU`.
pub const WTHOR_PLAYER_NAME_LEN: usize = 20;
/// Length of a tournament name record in `WTHOR.TRN`.
pub const WTHOR_TOURNAMENT_NAME_LEN: usize = 26;
/// Move bytes in a game record.
pub const WTHOR_MOVES: usize = 60;

/// The 16-byte header shared by all WTHOR files.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct WthorHeader {
    /// Creation date: century (e.g. 20), year within it, month, day.
    pub created_century: u8,
    pub created_year: u8,
    pub created_month: u8,
    pub created_day: u8,
    /// Number of game records (0 in name files).
    pub game_count: u32,
    /// Number of name records (0 in game files).
    pub name_count: u16,
    /// Year of the games.
    pub games_year: u16,
    /// 0 or 8 for 8x8, 10 for 10x10.
    pub board_size: u8,
    /// 1 for a solitaire file.
    pub game_type: u8,
    /// Depth of the theoretical score as stored (0 means 22; see [`Self::theoretical_depth`]).
    pub theoretical_depth_raw: u8,
    pub reserved: u8,
}

impl WthorHeader {
    /// Reads the header from the first 16 bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<WthorHeader, WthorError> {
        let h: &[u8; WTHOR_HEADER_LEN] = bytes
            .get(..WTHOR_HEADER_LEN)
            .and_then(|s| s.try_into().ok())
            .ok_or(WthorError::TooShort { len: bytes.len() })?;
        Ok(WthorHeader {
            created_century: h[0],
            created_year: h[1],
            created_month: h[2],
            created_day: h[3],
            game_count: u32::from_le_bytes([h[4], h[5], h[6], h[7]]),
            name_count: u16::from_le_bytes([h[8], h[9]]),
            games_year: u16::from_le_bytes([h[10], h[11]]),
            board_size: h[12],
            game_type: h[13],
            theoretical_depth_raw: h[14],
            reserved: h[15],
        })
    }

    pub fn to_bytes(&self) -> [u8; WTHOR_HEADER_LEN] {
        let mut h = [0u8; WTHOR_HEADER_LEN];
        h[0] = self.created_century;
        h[1] = self.created_year;
        h[2] = self.created_month;
        h[3] = self.created_day;
        h[4..8].copy_from_slice(&self.game_count.to_le_bytes());
        h[8..10].copy_from_slice(&self.name_count.to_le_bytes());
        h[10..12].copy_from_slice(&self.games_year.to_le_bytes());
        h[12] = self.board_size;
        h[13] = self.game_type;
        h[14] = self.theoretical_depth_raw;
        h[15] = self.reserved;
        h
    }

    /// Empties left when the theoretical score was computed (the stored 0 means 22).
    pub fn theoretical_depth(&self) -> u8 {
        if self.theoretical_depth_raw == 0 {
            22
        } else {
            self.theoretical_depth_raw
        }
    }

    /// The creation year, `century * 100 + year`.
    pub fn created_full_year(&self) -> u16 {
        u16::from(self.created_century) * 100 + u16::from(self.created_year)
    }
}

/// A whole-file problem: the file cannot be read at all.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum WthorError {
    #[error("WTHOR file of {len} bytes is shorter than the 16-byte header")]
    TooShort { len: usize },
    #[error("board size {size} is not supported (only 8x8 game files)")]
    UnsupportedBoardSize { size: u8 },
    #[error("truncated: the header declares {declared} records of {record_len} bytes ({expected_len} bytes with the header) but the file has {actual_len} bytes")]
    Truncated {
        declared: u64,
        record_len: usize,
        expected_len: u64,
        actual_len: usize,
    },
    #[error("the header declares {declared} records of {record_len} bytes ({expected_len} bytes with the header) but the file has {actual_len} bytes: extra bytes at the end")]
    TrailingBytes {
        declared: u64,
        record_len: usize,
        expected_len: u64,
        actual_len: usize,
    },
}

/// Checks that `bytes` is a header plus exactly `declared` records of `record_len` bytes.
fn check_length(bytes: &[u8], declared: u64, record_len: usize) -> Result<(), WthorError> {
    let expected_len = declared
        .saturating_mul(record_len as u64)
        .saturating_add(WTHOR_HEADER_LEN as u64);
    let actual_len = bytes.len();
    match (actual_len as u64).cmp(&expected_len) {
        std::cmp::Ordering::Less => Err(WthorError::Truncated {
            declared,
            record_len,
            expected_len,
            actual_len,
        }),
        std::cmp::Ordering::Greater => Err(WthorError::TrailingBytes {
            declared,
            record_len,
            expected_len,
            actual_len,
        }),
        std::cmp::Ordering::Equal => Ok(()),
    }
}

/// One game record as stored.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct WthorGame {
    pub tournament: u16,
    pub black: u16,
    pub white: u16,
    /// Black's disc count at the end as recorded (empties usually given to the winner).
    pub black_discs: u8,
    /// Black's disc count under perfect play from the header's theoretical depth.
    pub theoretical_black_discs: u8,
    /// The raw move bytes.
    pub moves: [u8; WTHOR_MOVES],
}

/// Why a record does not replay.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum WthorReplayError {
    #[error("ply {ply}: move byte {byte} is not a square (expected 10 * row + column, 11..88)")]
    BadMoveByte { ply: usize, byte: u8 },
    #[error("ply {ply}: move byte {byte} after the end of the move list (a 0 byte)")]
    MoveAfterEnd { ply: usize, byte: u8 },
    #[error("ply {ply}: {mv} by {to_move} is illegal: {reason}")]
    Illegal {
        ply: usize,
        mv: Move,
        to_move: Color,
        reason: IllegalReason,
    },
}

/// A record that does not replay, with its 0-based index in the file.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
#[error("record {record}: {error}")]
pub struct WthorRecordError {
    pub record: usize,
    pub error: WthorReplayError,
}

/// The square of a move byte (`11` = a1 … `88` = h8).
pub fn decode_move_byte(byte: u8) -> Option<Square> {
    let (row, col) = (byte / 10, byte % 10);
    if (1..=8).contains(&row) && (1..=8).contains(&col) {
        Square::from_coords(col - 1, row - 1)
    } else {
        None
    }
}

/// The move byte of a square.
pub fn encode_square(sq: Square) -> u8 {
    10 * (sq.row() + 1) + sq.col() + 1
}

/// The move bytes of a move list (passes dropped), or `None` if it has more than 60 squares.
pub fn encode_moves(moves: &[Move]) -> Option<[u8; WTHOR_MOVES]> {
    let mut bytes = [0u8; WTHOR_MOVES];
    let squares = moves.iter().filter_map(|m| m.square());
    for (i, sq) in squares.enumerate() {
        *bytes.get_mut(i)? = encode_square(sq);
    }
    Some(bytes)
}

impl WthorGame {
    /// Decodes a 68-byte record.
    pub fn from_bytes(record: &[u8; WTHOR_RECORD_LEN]) -> WthorGame {
        let mut moves = [0u8; WTHOR_MOVES];
        moves.copy_from_slice(&record[8..]);
        WthorGame {
            tournament: u16::from_le_bytes([record[0], record[1]]),
            black: u16::from_le_bytes([record[2], record[3]]),
            white: u16::from_le_bytes([record[4], record[5]]),
            black_discs: record[6],
            theoretical_black_discs: record[7],
            moves,
        }
    }

    pub fn to_bytes(&self) -> [u8; WTHOR_RECORD_LEN] {
        let mut r = [0u8; WTHOR_RECORD_LEN];
        r[0..2].copy_from_slice(&self.tournament.to_le_bytes());
        r[2..4].copy_from_slice(&self.black.to_le_bytes());
        r[4..6].copy_from_slice(&self.white.to_le_bytes());
        r[6] = self.black_discs;
        r[7] = self.theoretical_black_discs;
        r[8..].copy_from_slice(&self.moves);
        r
    }

    /// The recorded squares, up to the first 0 byte (which must be followed only by zeros).
    pub fn squares(&self) -> Result<Vec<Square>, WthorReplayError> {
        let played = self.moves.iter().take_while(|&&b| b != 0).count();
        let (written, tail) = self.moves.split_at(played);
        if let Some(i) = tail.iter().position(|&b| b != 0) {
            return Err(WthorReplayError::MoveAfterEnd {
                ply: played + i + 1,
                byte: tail.get(i).copied().unwrap_or(0),
            });
        }
        written
            .iter()
            .enumerate()
            .map(|(i, &byte)| {
                decode_move_byte(byte).ok_or(WthorReplayError::BadMoveByte { ply: i + 1, byte })
            })
            .collect()
    }

    /// Replays the game from the standard start, inserting the passes; an error names the ply
    /// (1-based, passes not counted) and the move.
    pub fn replay(&self) -> Result<Game, WthorReplayError> {
        let moves = self.squares()?.into_iter().map(Move::Play);
        Game::from_moves(Position::START, moves, PassPolicy::Infer).map_err(|e: ReplayError| {
            WthorReplayError::Illegal {
                ply: e.move_number,
                mv: e.mv,
                to_move: e.to_move,
                reason: e.reason,
            }
        })
    }

    /// Names for this game from the name files (unknown indices stay `None`).
    pub fn info(&self, names: &WthorNames, year: u16) -> GameInfo {
        GameInfo {
            black: names.player(self.black).map(str::to_string),
            white: names.player(self.white).map(str::to_string),
            event: names.tournament(self.tournament).map(str::to_string),
            date: Some(year.to_string()),
        }
    }
}

/// Black's disc count in a final position with the empties given to the winner (half each on
/// a draw), the way WTHOR usually records a finished game.
pub fn black_discs_empties_to_winner(pos: &Position) -> u8 {
    let black = pos.black().count_ones();
    let white = pos.white().count_ones();
    let empty = 64 - black - white;
    let discs = match black.cmp(&white) {
        std::cmp::Ordering::Greater => black + empty,
        std::cmp::Ordering::Less => black,
        std::cmp::Ordering::Equal => black + empty / 2,
    };
    discs.min(64) as u8
}

/// A loaded game file: its header and its records.
#[derive(Clone, Debug)]
pub struct WthorGames<'a> {
    pub header: WthorHeader,
    records: &'a [u8],
}

/// Reads a `.wtb` game file: checks the header (8x8 only) and that the declared game count
/// matches the length exactly.
pub fn read_wthor_games(bytes: &[u8]) -> Result<WthorGames<'_>, WthorError> {
    let header = WthorHeader::from_bytes(bytes)?;
    if header.board_size != 0 && header.board_size != 8 {
        return Err(WthorError::UnsupportedBoardSize {
            size: header.board_size,
        });
    }
    check_length(bytes, u64::from(header.game_count), WTHOR_RECORD_LEN)?;
    Ok(WthorGames {
        header,
        records: bytes.get(WTHOR_HEADER_LEN..).unwrap_or(&[]),
    })
}

impl<'a> WthorGames<'a> {
    pub fn len(&self) -> usize {
        self.records.len() / WTHOR_RECORD_LEN
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The records in file order.
    pub fn games(&self) -> impl Iterator<Item = WthorGame> + 'a {
        self.records
            .chunks_exact(WTHOR_RECORD_LEN)
            .filter_map(|chunk| chunk.try_into().ok().map(WthorGame::from_bytes))
    }

    /// Each record with its replay: one bad record does not stop the others.
    pub fn replay_all(
        &self,
    ) -> impl Iterator<Item = (WthorGame, Result<Game, WthorRecordError>)> + 'a {
        self.games().enumerate().map(|(record, game)| {
            let replayed = game
                .replay()
                .map_err(|error| WthorRecordError { record, error });
            (game, replayed)
        })
    }
}

/// Writes a game file: `header` with its game count set to `games.len()`, then the records.
/// Returns `None` when there are more games than a u32 count can hold.
pub fn write_wthor_games(header: &WthorHeader, games: &[WthorGame]) -> Option<Vec<u8>> {
    let header = WthorHeader {
        game_count: u32::try_from(games.len()).ok()?,
        ..*header
    };
    let mut out = Vec::with_capacity(WTHOR_HEADER_LEN + WTHOR_RECORD_LEN * games.len());
    out.extend_from_slice(&header.to_bytes());
    for g in games {
        out.extend_from_slice(&g.to_bytes());
    }
    Some(out)
}

/// Decodes a NUL-padded Latin-1 name (every byte is the Unicode code point of the same value).
fn decode_latin1(bytes: &[u8]) -> String {
    bytes
        .iter()
        .take_while(|&&b| b != 0)
        .map(|&b| char::from(b))
        .collect::<String>()
        .trim_end()
        .to_string()
}

/// Reads a name file whose records are `record_len` bytes.
fn read_names(bytes: &[u8], record_len: usize) -> Result<Vec<String>, WthorError> {
    let header = WthorHeader::from_bytes(bytes)?;
    check_length(bytes, u64::from(header.name_count), record_len)?;
    let body = bytes.get(WTHOR_HEADER_LEN..).unwrap_or(&[]);
    Ok(body.chunks_exact(record_len).map(decode_latin1).collect())
}

/// Reads `WTHOR.JOU`: player names, indexed by the player numbers of game records.
pub fn read_player_names(bytes: &[u8]) -> Result<Vec<String>, WthorError> {
    read_names(bytes, WTHOR_PLAYER_NAME_LEN)
}

/// Reads `WTHOR.TRN`: tournament names, indexed by the tournament numbers of game records.
pub fn read_tournament_names(bytes: &[u8]) -> Result<Vec<String>, WthorError> {
    read_names(bytes, WTHOR_TOURNAMENT_NAME_LEN)
}

/// The two name tables.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct WthorNames {
    pub players: Vec<String>,
    pub tournaments: Vec<String>,
}

impl WthorNames {
    /// Reads both name files.
    pub fn from_bytes(jou: &[u8], trn: &[u8]) -> Result<WthorNames, WthorError> {
        Ok(WthorNames {
            players: read_player_names(jou)?,
            tournaments: read_tournament_names(trn)?,
        })
    }

    pub fn player(&self, index: u16) -> Option<&str> {
        self.players.get(usize::from(index)).map(String::as_str)
    }

    pub fn tournament(&self, index: u16) -> Option<&str> {
        self.tournaments.get(usize::from(index)).map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(count: u32) -> WthorHeader {
        WthorHeader {
            created_century: 20,
            created_year: 7,
            created_month: 5,
            created_day: 22,
            game_count: count,
            games_year: 1977,
            board_size: 8,
            ..WthorHeader::default()
        }
    }

    fn record(transcript: &str) -> WthorGame {
        let moves = crate::formats::parse_transcript(transcript).unwrap();
        WthorGame {
            tournament: 1,
            black: 2,
            white: 3,
            black_discs: 33,
            theoretical_black_discs: 32,
            moves: encode_moves(&moves).unwrap(),
        }
    }

    #[test]
    fn move_bytes_map_to_squares() {
        assert_eq!(decode_move_byte(11), Some("a1".parse().unwrap()));
        assert_eq!(decode_move_byte(18), Some("h1".parse().unwrap()));
        assert_eq!(decode_move_byte(81), Some("a8".parse().unwrap()));
        assert_eq!(decode_move_byte(88), Some("h8".parse().unwrap()));
        assert_eq!(decode_move_byte(56), Some("f5".parse().unwrap()));
        for bad in [0, 9, 10, 19, 20, 89, 90, 99, 255] {
            assert_eq!(decode_move_byte(bad), None, "{bad}");
        }
        for sq in Square::all() {
            assert_eq!(decode_move_byte(encode_square(sq)), Some(sq));
        }
    }

    #[test]
    fn header_fields() {
        let h = header(2);
        let back = WthorHeader::from_bytes(&h.to_bytes()).unwrap();
        assert_eq!(back, h);
        assert_eq!(back.theoretical_depth(), 22);
        assert_eq!(back.created_full_year(), 2007);
        assert_eq!(
            WthorHeader::from_bytes(&[0; 15]),
            Err(WthorError::TooShort { len: 15 })
        );
    }

    #[test]
    fn writes_reads_and_replays() {
        let games = [record("f5d6c3d3c4"), record("f5f6e6f4")];
        let bytes = write_wthor_games(&header(0), &games).unwrap();
        assert_eq!(bytes.len(), 16 + 2 * 68);
        let file = read_wthor_games(&bytes).unwrap();
        assert_eq!(file.header.game_count, 2);
        assert_eq!(file.games().collect::<Vec<_>>(), games);
        let replays: Vec<_> = file.replay_all().map(|(_, r)| r.unwrap()).collect();
        assert_eq!(replays[0].transcript(), "f5d6c3d3c4");
        assert_eq!(replays[1].moves().len(), 4);
    }

    #[test]
    fn bad_files_and_records_are_errors() {
        let bytes = write_wthor_games(&header(0), &[record("f5")]).unwrap();
        let truncated = &bytes[..bytes.len() - 1];
        assert!(matches!(
            read_wthor_games(truncated),
            Err(WthorError::Truncated { declared: 1, .. })
        ));
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(
            read_wthor_games(&long),
            Err(WthorError::TrailingBytes { .. })
        ));
        let mut ten = bytes.clone();
        ten[12] = 10;
        assert_eq!(
            read_wthor_games(&ten).unwrap_err(),
            WthorError::UnsupportedBoardSize { size: 10 }
        );

        let mut g = record("f5d6");
        g.moves[1] = 99;
        assert_eq!(
            g.replay(),
            Err(WthorReplayError::BadMoveByte { ply: 2, byte: 99 })
        );
        let mut g = record("f5");
        g.moves[3] = 44;
        assert_eq!(
            g.replay(),
            Err(WthorReplayError::MoveAfterEnd { ply: 4, byte: 44 })
        );
        let g = record("f5f5");
        match g.replay() {
            Err(WthorReplayError::Illegal { ply, to_move, .. }) => {
                assert_eq!((ply, to_move), (2, Color::White));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn names_decode_latin1() {
        let mut bytes = header(0).to_bytes().to_vec();
        bytes[8..10].copy_from_slice(&2u16.to_le_bytes());
        let mut first = [0u8; 20];
        first[..6].copy_from_slice(b"L\xe9vy X");
        bytes.extend_from_slice(&first);
        bytes.extend_from_slice(&[b'?'; 20]);
        let names = read_player_names(&bytes).unwrap();
        assert_eq!(names, vec!["Lévy X".to_string(), "?".repeat(20)]);
        assert!(read_tournament_names(&bytes).is_err());
        assert!(read_player_names(&bytes[..30]).is_err());
    }

    #[test]
    fn final_discs_rule() {
        let pos = Position::from_colors(0b111, 0b1000, Color::Black).unwrap();
        assert_eq!(black_discs_empties_to_winner(&pos), 3 + 60);
        let pos = Position::from_colors(0b1, 0b1000, Color::Black).unwrap();
        assert_eq!(black_discs_empties_to_winner(&pos), 32);
        let pos = Position::from_colors(0b1, 0b1110, Color::Black).unwrap();
        assert_eq!(black_discs_empties_to_winner(&pos), 1);
    }
}
