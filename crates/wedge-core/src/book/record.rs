//! One book position as stored in the file: a fixed 32-byte little-endian record keyed by the
//! canonical board, and the node kinds and deviation markers of Novello's book.
//!
//! Bytes 0-22 are the same in every format version: key (16), value, kind, depth, deviation
//! (square, value, depth), weight. Version 1 then has the child count (23), games as u16
//! (24-25) and three (move, value) children (26-31); version 2 drops the count (an unused
//! child slot is marked, and the used ones come first) to keep games in 24 bits (23-25).

use crate::board::{Board, Square};

/// Bytes per record; two records share one 64-byte cache line.
pub const RECORD_SIZE: usize = 32;
/// Book moves kept in a record besides the deviation, best first.
pub const STORED_CHILDREN: usize = 3;
/// A record's `weight` when no hand-edited weight was given ("1" in the text format).
pub const DEFAULT_WEIGHT: u8 = 100;
/// The largest games count a record holds (24 bits); counts saturate there.
pub const MAX_GAMES: u32 = (1 << 24) - 1;
/// The record layout of book format version 1 (games in 16 bits), still read.
pub const FORMAT_V1: u32 = 1;
/// The record layout written now (games in 24 bits).
pub const FORMAT_V2: u32 = 2;

/// What a book position is (Novello's node kinds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// Its value is exact (solved to the end of the game).
    Solved = 0,
    /// An unsolved leaf: only a value, from a search. Leaves are deviations nobody has played.
    UnsolvedLeaf = 1,
    /// A played, unsolved position: its value is the negamax of its book children and of its
    /// best move not in the book.
    UnsolvedBranch = 2,
}

impl NodeKind {
    pub fn from_byte(b: u8) -> Option<NodeKind> {
        match b {
            0 => Some(NodeKind::Solved),
            1 => Some(NodeKind::UnsolvedLeaf),
            2 => Some(NodeKind::UnsolvedBranch),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Solved => "solved",
            NodeKind::UnsolvedLeaf => "unsolved leaf",
            NodeKind::UnsolvedBranch => "unsolved branch",
        }
    }
}

/// The best move that is not in the book (Novello's "best unplayed move").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Deviation {
    /// Not searched yet (Novello's -1).
    NotComputed,
    /// Every legal move leads into the book or ends the game (Novello's -2).
    AllInBook,
    /// Square (in the record's orientation), value for the side to move, depth of the search.
    Move { sq: u8, value: i8, depth: u8 },
}

const DEV_NOT_COMPUTED: u8 = 0xFF;
const DEV_ALL_IN_BOOK: u8 = 0xFE;
/// Marks an unused child slot.
const NO_CHILD: u8 = 0xFF;

/// A decoded record. Squares are in the orientation of the canonical `key`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    pub key: Board,
    pub kind: NodeKind,
    /// Disc difference for the side to move.
    pub value: i8,
    /// Plies the value was searched to (at least the empties when solved).
    pub depth: u8,
    pub deviation: Deviation,
    /// Hand-edited choice weight of moving into this position, in percent (0 = the engine
    /// never chooses it, but answers it); [`DEFAULT_WEIGHT`] otherwise.
    pub weight: u8,
    /// Games imported through this position (saturating at [`MAX_GAMES`]).
    pub games: u32,
    /// The best book moves with their values (side to move's view), best first.
    pub children: [Option<(u8, i8)>; STORED_CHILDREN],
}

/// Why 32 bytes are not a record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("bad node kind {0}")]
    Kind(u8),
    #[error("overlapping discs")]
    Overlap,
    #[error("value {0} out of range")]
    Value(i8),
    #[error("bad square {0}")]
    Square(u8),
    #[error("more than {STORED_CHILDREN} children, or a gap between them")]
    Children,
    #[error("its key is not a position of a game (a centre square is empty)")]
    NotAPosition,
    #[error("its key has {0} empties, fewer than the book keeps")]
    TooFewEmpties(u32),
    #[error("its key is not the canonical image of its position")]
    NotCanonical,
    #[error("the side to move has no legal move (the book stores positions after a pass)")]
    NoMove,
    #[error("{0} is not a legal move of its position")]
    IllegalMove(Square),
    #[error("move {0} is stored twice")]
    RepeatedMove(Square),
}

impl Record {
    /// True for an all-zero slot (no board has no discs, so no record is all zero).
    #[inline(always)]
    pub fn slot_is_empty(bytes: &[u8]) -> bool {
        bytes[..16].iter().all(|&b| b == 0)
    }

    /// The key stored in a slot.
    #[inline(always)]
    pub fn key_of(bytes: &[u8]) -> Board {
        Board::new(
            u64::from_le_bytes(bytes[0..8].try_into().unwrap()),
            u64::from_le_bytes(bytes[8..16].try_into().unwrap()),
        )
    }

    pub fn encode(&self) -> [u8; RECORD_SIZE] {
        let mut b = [0u8; RECORD_SIZE];
        b[0..8].copy_from_slice(&self.key.player.to_le_bytes());
        b[8..16].copy_from_slice(&self.key.opponent.to_le_bytes());
        b[16] = self.value as u8;
        b[17] = self.kind as u8;
        b[18] = self.depth;
        let (dm, dv, dd) = match self.deviation {
            Deviation::NotComputed => (DEV_NOT_COMPUTED, 0, 0),
            Deviation::AllInBook => (DEV_ALL_IN_BOOK, 0, 0),
            Deviation::Move { sq, value, depth } => (sq, value as u8, depth),
        };
        b[19] = dm;
        b[20] = dv;
        b[21] = dd;
        b[22] = self.weight;
        b[23..26].copy_from_slice(&self.games.min(MAX_GAMES).to_le_bytes()[..3]);
        for (i, (m, v)) in self.children.iter().flatten().enumerate() {
            b[26 + 2 * i] = *m;
            b[27 + 2 * i] = *v as u8;
        }
        for i in self.children.iter().flatten().count()..STORED_CHILDREN {
            b[26 + 2 * i] = NO_CHILD;
        }
        b
    }

    /// Decodes and checks a non-empty slot written in the current layout ([`FORMAT_V2`]).
    pub fn decode(b: &[u8]) -> Result<Record, RecordError> {
        Record::decode_format(b, FORMAT_V2)
    }

    /// Decodes and checks a non-empty slot of a book of format version `format` (1 or 2).
    pub fn decode_format(b: &[u8], format: u32) -> Result<Record, RecordError> {
        let key = Record::key_of(b);
        if key.player & key.opponent != 0 {
            return Err(RecordError::Overlap);
        }
        let kind = NodeKind::from_byte(b[17]).ok_or(RecordError::Kind(b[17]))?;
        let value = check_value(b[16] as i8)?;
        let deviation = match b[19] {
            DEV_NOT_COMPUTED => Deviation::NotComputed,
            DEV_ALL_IN_BOOK => Deviation::AllInBook,
            sq if sq < 64 => Deviation::Move {
                sq,
                value: check_value(b[20] as i8)?,
                depth: b[21],
            },
            sq => return Err(RecordError::Square(sq)),
        };
        let (count, games) = if format == FORMAT_V1 {
            (b[23] as usize, u16::from_le_bytes([b[24], b[25]]) as u32)
        } else {
            let used = (0..STORED_CHILDREN)
                .take_while(|i| b[26 + 2 * i] != NO_CHILD)
                .count();
            if (used..STORED_CHILDREN).any(|i| b[26 + 2 * i] != NO_CHILD) {
                return Err(RecordError::Children);
            }
            (used, u32::from_le_bytes([b[23], b[24], b[25], 0]))
        };
        if count > STORED_CHILDREN {
            return Err(RecordError::Children);
        }
        let mut children = [None; STORED_CHILDREN];
        for (i, c) in children.iter_mut().enumerate().take(count) {
            let m = b[26 + 2 * i];
            if m >= 64 {
                return Err(RecordError::Square(m));
            }
            *c = Some((m, check_value(b[27 + 2 * i] as i8)?));
        }
        Ok(Record {
            key,
            kind,
            value,
            depth: b[18],
            deviation,
            weight: b[22],
            games,
            children,
        })
    }
}

/// d4, e4, d5, e5: occupied in every position of a game.
const CENTRE: u64 = 0x0000_0018_1800_0000;

impl Record {
    /// Checks what decoding cannot: that the key is a position this book may hold (a game
    /// position with a legal move and at least `min_empties` empties) and that every stored
    /// move is a distinct legal move of it. A damaged record that passes may hold a wrong
    /// value, but never leads to an illegal move.
    pub fn check(&self, min_empties: u8) -> Result<(), RecordError> {
        let key = &self.key;
        if key.empties() & CENTRE != 0 {
            return Err(RecordError::NotAPosition);
        }
        if key.empty_count() < min_empties as u32 {
            return Err(RecordError::TooFewEmpties(key.empty_count()));
        }
        let legal = key.legal_moves();
        if legal == 0 {
            return Err(RecordError::NoMove);
        }
        let deviation = match self.deviation {
            Deviation::Move { sq, .. } => Some(sq),
            _ => None,
        };
        let mut seen = 0u64;
        for sq in self.children.iter().flatten().map(|c| c.0).chain(deviation) {
            if sq >= 64 {
                return Err(RecordError::Square(sq));
            }
            let square = Square::from_index(sq as u32);
            if legal & square.bit() == 0 {
                return Err(RecordError::IllegalMove(square));
            }
            if seen & square.bit() != 0 {
                return Err(RecordError::RepeatedMove(square));
            }
            seen |= square.bit();
        }
        Ok(())
    }
}

fn check_value(v: i8) -> Result<i8, RecordError> {
    if (-64..=64).contains(&v) {
        Ok(v)
    } else {
        Err(RecordError::Value(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_bad_bytes_are_refused() {
        let r = Record {
            key: Board::START.canonical().0,
            kind: NodeKind::UnsolvedBranch,
            value: -3,
            depth: 14,
            deviation: Deviation::Move {
                sq: 19,
                value: -5,
                depth: 12,
            },
            weight: 40,
            // Above version 1's 16-bit ceiling (the WTHOR start position has 124,106 games).
            games: 124_106,
            children: [Some((37, -3)), Some((44, -4)), None],
        };
        let bytes = r.encode();
        assert!(!Record::slot_is_empty(&bytes));
        assert_eq!(Record::decode(&bytes), Ok(r));
        assert_eq!(&bytes[23..26], &124_106u32.to_le_bytes()[..3]);
        // Counts saturate at the 24-bit ceiling.
        let many = Record {
            games: u32::MAX,
            ..r
        };
        assert_eq!(Record::decode(&many.encode()).unwrap().games, MAX_GAMES);
        for dev in [Deviation::NotComputed, Deviation::AllInBook] {
            let r2 = Record {
                deviation: dev,
                ..r
            };
            assert_eq!(Record::decode(&r2.encode()), Ok(r2));
        }
        let mut bad = bytes;
        bad[17] = 7;
        assert_eq!(Record::decode(&bad), Err(RecordError::Kind(7)));
        let mut bad = bytes;
        bad[16] = 100;
        assert_eq!(Record::decode(&bad), Err(RecordError::Value(100)));
        // A used child slot after an unused one.
        let mut bad = bytes;
        bad[28] = NO_CHILD;
        bad[30] = 12;
        assert_eq!(Record::decode(&bad), Err(RecordError::Children));
        let mut bad = bytes;
        bad[19] = 70;
        assert_eq!(Record::decode(&bad), Err(RecordError::Square(70)));
        let mut bad = bytes;
        let player: [u8; 8] = bad[0..8].try_into().unwrap();
        bad[8..16].copy_from_slice(&player);
        assert_eq!(Record::decode(&bad), Err(RecordError::Overlap));
        assert!(Record::slot_is_empty(&[0u8; RECORD_SIZE]));
    }

    #[test]
    fn version_1_records_are_still_read() {
        // A version-1 slot written by hand: child count at 23, games as u16 at 24-25.
        let key = Board::START.canonical().0;
        let mut b = [0u8; RECORD_SIZE];
        b[0..8].copy_from_slice(&key.player.to_le_bytes());
        b[8..16].copy_from_slice(&key.opponent.to_le_bytes());
        b[16] = 2; // value
        b[17] = NodeKind::UnsolvedBranch as u8;
        b[18] = 12;
        b[19..22].copy_from_slice(&[DEV_ALL_IN_BOOK, 0, 0]);
        b[22] = DEFAULT_WEIGHT;
        b[23] = 1;
        b[24..26].copy_from_slice(&65_535u16.to_le_bytes());
        b[26..32].copy_from_slice(&[37, 2, NO_CHILD, 0, NO_CHILD, 0]);
        let r = Record::decode_format(&b, FORMAT_V1).unwrap();
        assert_eq!(
            r,
            Record {
                key,
                kind: NodeKind::UnsolvedBranch,
                value: 2,
                depth: 12,
                deviation: Deviation::AllInBook,
                weight: DEFAULT_WEIGHT,
                games: 65_535,
                children: [Some((37, 2)), None, None],
            }
        );
        // Written again, it takes the current layout.
        assert_eq!(Record::decode(&r.encode()), Ok(r));
        b[23] = 4;
        assert_eq!(
            Record::decode_format(&b, FORMAT_V1),
            Err(RecordError::Children)
        );
    }
}
