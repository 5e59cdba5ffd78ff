//! The book file: a page-sized header, then a power-of-two open-addressing table of 32-byte
//! records keyed by the canonical board. Writing builds the whole image and publishes it by
//! rename; opening maps it read-only and validates it before any probe.

use super::mapped::BookBytes;
use super::probe::BookProbe;
use super::record::{Record, RecordError, RECORD_SIZE};
use crate::board::Board;
use std::path::Path;

/// Bytes before the table (one page).
pub const HEADER_SIZE: usize = 4096;
const MAGIC: &[u8; 8] = b"WEDGEBOK";
pub const VERSION: u32 = 1;
/// How keys are made: the minimal (player, opponent) image over the 8 symmetries.
const KEY_RULE: u8 = 1;
/// Which slot-index function the table uses.
const HASH_ID: u8 = 1;
const DESCRIPTION_AT: usize = 128;
const DESCRIPTION_MAX: usize = 1024;
/// Largest table accepted (2^36 slots = 2 TB).
const MAX_SLOT_BITS: u32 = 36;

/// How far a book has been brought (Novello's consistency levels).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Consistency {
    /// Games added; some played positions still lack their best unplayed move.
    Consistent = 0,
    /// Every played position has its best unplayed move and a value.
    Valued = 1,
    /// Values are the negamax of the leaves, and every deviation leads to a leaf.
    Negamaxed = 2,
}

impl Consistency {
    fn from_byte(b: u8) -> Option<Consistency> {
        match b {
            0 => Some(Consistency::Consistent),
            1 => Some(Consistency::Valued),
            2 => Some(Consistency::Negamaxed),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Consistency::Consistent => "consistent",
            Consistency::Valued => "valued",
            Consistency::Negamaxed => "negamaxed",
        }
    }
}

/// What the header says about the book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookInfo {
    /// Positions with fewer empties are never stored (they are solved instead).
    pub min_empties: u8,
    pub level: Consistency,
    /// Depth of the searches that valued the leaves.
    pub search_depth: u8,
    /// Played positions with at most this many empties were solved exactly.
    pub solve_empties: u8,
    /// Some positions carry hand-edited weights (the root choice must look at them).
    pub weighted: bool,
    /// Seconds since the Unix epoch when the file was written.
    pub created: u64,
    pub description: String,
}

/// Why a file is not a usable book.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error("cannot read the book {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("not a Wedge book: {0}")]
    Format(String),
    #[error("book format version {found} is not supported (this build reads version {VERSION})")]
    Version { found: u32 },
    #[error("the book is damaged: {0}")]
    Corrupt(String),
}

/// One 64-bit checksum over a byte slice whose length is a multiple of 32: four independent
/// multiply-rotate lanes over little-endian words, so it runs at memory speed.
pub fn checksum(bytes: &[u8]) -> u64 {
    const K: [u64; 4] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0x27D4_EB2F_1656_67C5,
    ];
    let mut lanes = [1u64, 2, 3, 4];
    for chunk in bytes.chunks_exact(32) {
        for (i, lane) in lanes.iter_mut().enumerate() {
            let w = u64::from_le_bytes(chunk[8 * i..8 * i + 8].try_into().unwrap());
            *lane = (lane.rotate_left(23) ^ w).wrapping_mul(K[i]);
        }
    }
    let mut h = bytes.len() as u64;
    for (i, lane) in lanes.iter().enumerate() {
        h = (h ^ lane).wrapping_mul(K[(i + 1) % 4]).rotate_left(31);
    }
    h
}

/// The first slot to look at for `key` in a table of `1 << bits` slots (the even slot of its
/// 64-byte bucket).
#[inline(always)]
pub fn home_slot(key: &Board, bits: u32) -> usize {
    let mut x = key.player.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ key
            .opponent
            .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            .rotate_left(17);
    x ^= x >> 31;
    x = x.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    x ^= x >> 32;
    if bits == 0 {
        return 0;
    }
    ((x >> (64 - bits)) as usize) & !1
}

/// The table size for `entries` records: a power of two, at most 70 % full, at least 2.
pub fn slot_bits_for(entries: usize) -> u32 {
    let mut bits = 1;
    while (1usize << bits) * 7 < entries * 10 {
        bits += 1;
    }
    bits
}

/// The complete file image for `records` (keys must be canonical and distinct).
pub fn encode_book(info: &BookInfo, records: &[Record]) -> Vec<u8> {
    let bits = slot_bits_for(records.len());
    let slots = 1usize << bits;
    let mut image = vec![0u8; HEADER_SIZE + slots * RECORD_SIZE];
    let (header, table) = image.split_at_mut(HEADER_SIZE);
    let mut counts = [0u64; 3];
    for r in records {
        counts[r.kind as usize] += 1;
        let mut s = home_slot(&r.key, bits);
        while !Record::slot_is_empty(&table[s * RECORD_SIZE..(s + 1) * RECORD_SIZE]) {
            s = (s + 1) & (slots - 1);
        }
        table[s * RECORD_SIZE..(s + 1) * RECORD_SIZE].copy_from_slice(&r.encode());
    }
    header[0..8].copy_from_slice(MAGIC);
    header[8..12].copy_from_slice(&VERSION.to_le_bytes());
    header[12..16].copy_from_slice(&(RECORD_SIZE as u32).to_le_bytes());
    header[16..24].copy_from_slice(&(slots as u64).to_le_bytes());
    header[24..32].copy_from_slice(&(records.len() as u64).to_le_bytes());
    header[32] = info.min_empties;
    header[33] = info.level as u8;
    header[34] = KEY_RULE;
    header[35] = HASH_ID;
    header[36] = info.search_depth;
    header[37] = info.solve_empties;
    header[38] = info.weighted as u8;
    for (i, c) in counts.iter().enumerate() {
        header[40 + 8 * i..48 + 8 * i].copy_from_slice(&c.to_le_bytes());
    }
    header[64..72].copy_from_slice(&info.created.to_le_bytes());
    let body = checksum(table);
    header[72..80].copy_from_slice(&body.to_le_bytes());
    let desc = info.description.as_bytes();
    let n = desc.len().min(DESCRIPTION_MAX);
    let mut cut = n;
    while !info.description.is_char_boundary(cut) {
        cut -= 1;
    }
    header[DESCRIPTION_AT..DESCRIPTION_AT + 2].copy_from_slice(&(cut as u16).to_le_bytes());
    header[DESCRIPTION_AT + 2..DESCRIPTION_AT + 2 + cut].copy_from_slice(&desc[..cut]);
    let head = checksum(&header[..HEADER_SIZE - 32]);
    header[HEADER_SIZE - 8..].copy_from_slice(&head.to_le_bytes());
    image
}

/// Writes `records` as a book file at `path`, atomically (readers that have the old file
/// mapped keep it; new readers get the new one).
pub fn write_book(path: &Path, info: &BookInfo, records: &[Record]) -> Result<(), BookError> {
    crate::paths::write_atomic(path, &encode_book(info, records)).map_err(|e| BookError::Io {
        path: path.display().to_string(),
        source: e,
    })
}

/// Whether opening a book checks the checksum of its whole table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verify {
    /// Header and table (reads every page once).
    Full,
    /// Header only: for huge books whose table was verified before (`--book-trust`).
    HeaderOnly,
}

/// An open, validated book: probes read the mapped table directly.
pub struct Book {
    bytes: BookBytes,
    info: BookInfo,
    bits: u32,
    entries: u64,
    counts: [u64; 3],
    body_checksum: u64,
}

impl Book {
    /// Maps and validates the book at `path`.
    pub fn open(path: &Path, verify: Verify) -> Result<Book, BookError> {
        let bytes = BookBytes::map(path).map_err(|e| BookError::Io {
            path: path.display().to_string(),
            source: e,
        })?;
        Book::validate(bytes, verify)
    }

    /// A book from bytes in memory (validated like a file).
    pub fn from_bytes(bytes: Vec<u8>, verify: Verify) -> Result<Book, BookError> {
        Book::validate(BookBytes::Owned(bytes), verify)
    }

    fn validate(bytes: BookBytes, verify: Verify) -> Result<Book, BookError> {
        let b = bytes.bytes();
        if b.len() < HEADER_SIZE {
            return Err(BookError::Format(format!(
                "{} bytes is shorter than the {HEADER_SIZE}-byte header",
                b.len()
            )));
        }
        if &b[0..8] != MAGIC {
            return Err(BookError::Format("wrong magic bytes".into()));
        }
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
        let version = u32_at(8);
        if version != VERSION {
            return Err(BookError::Version { found: version });
        }
        let head = checksum(&b[..HEADER_SIZE - 32]);
        if head != u64_at(HEADER_SIZE - 8) {
            return Err(BookError::Corrupt("header checksum mismatch".into()));
        }
        if u32_at(12) as usize != RECORD_SIZE {
            return Err(BookError::Format(format!("record size {}", u32_at(12))));
        }
        if b[34] != KEY_RULE || b[35] != HASH_ID {
            return Err(BookError::Format(format!(
                "key rule {} / hash {} unknown",
                b[34], b[35]
            )));
        }
        let slots = u64_at(16);
        if !slots.is_power_of_two() || !(2..=1 << MAX_SLOT_BITS).contains(&slots) {
            return Err(BookError::Corrupt(format!("slot count {slots}")));
        }
        let bits = slots.trailing_zeros();
        let expected = HEADER_SIZE as u64 + slots * RECORD_SIZE as u64;
        if b.len() as u64 != expected {
            return Err(BookError::Corrupt(format!(
                "file is {} bytes, the header promises {expected} (truncated or padded)",
                b.len()
            )));
        }
        let entries = u64_at(24);
        let counts = [u64_at(40), u64_at(48), u64_at(56)];
        if entries >= slots || counts.iter().sum::<u64>() != entries {
            return Err(BookError::Corrupt(format!(
                "{entries} entries in {slots} slots, kinds {counts:?}"
            )));
        }
        let level = Consistency::from_byte(b[33])
            .ok_or_else(|| BookError::Corrupt(format!("consistency level {}", b[33])))?;
        if b[32] > 60 {
            return Err(BookError::Corrupt(format!("minimum empties {}", b[32])));
        }
        let dlen = u16::from_le_bytes([b[DESCRIPTION_AT], b[DESCRIPTION_AT + 1]]) as usize;
        if dlen > DESCRIPTION_MAX {
            return Err(BookError::Corrupt("description length".into()));
        }
        let description =
            String::from_utf8(b[DESCRIPTION_AT + 2..DESCRIPTION_AT + 2 + dlen].to_vec())
                .map_err(|_| BookError::Corrupt("description is not UTF-8".into()))?;
        let body_checksum = u64_at(72);
        let info = BookInfo {
            min_empties: b[32],
            level,
            search_depth: b[36],
            solve_empties: b[37],
            weighted: b[38] != 0,
            created: u64_at(64),
            description,
        };
        let book = Book {
            info,
            bits,
            entries,
            counts,
            body_checksum,
            bytes,
        };
        if verify == Verify::Full {
            book.verify_table()?;
        }
        Ok(book)
    }

    /// Checks the table against the header's checksum (reads the whole file).
    pub fn verify_table(&self) -> Result<(), BookError> {
        if checksum(self.table()) != self.body_checksum {
            return Err(BookError::Corrupt(
                "table checksum mismatch (the file was altered or truncated)".into(),
            ));
        }
        Ok(())
    }

    pub fn info(&self) -> &BookInfo {
        &self.info
    }

    /// Stored positions.
    pub fn len(&self) -> u64 {
        self.entries
    }

    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// Positions by kind: solved, unsolved leaves, unsolved branches.
    pub fn counts(&self) -> [u64; 3] {
        self.counts
    }

    pub fn slots(&self) -> u64 {
        1 << self.bits
    }

    /// File size in bytes.
    pub fn file_size(&self) -> usize {
        self.bytes.bytes().len()
    }

    #[inline(always)]
    fn table(&self) -> &[u8] {
        &self.bytes.bytes()[HEADER_SIZE..]
    }

    /// The record of a canonical key, if stored.
    #[inline]
    pub fn find(&self, key: &Board) -> Option<Result<Record, RecordError>> {
        let table = self.table();
        let mask = (1usize << self.bits) - 1;
        let mut s = home_slot(key, self.bits);
        for _ in 0..=mask {
            let slot = &table[s * RECORD_SIZE..(s + 1) * RECORD_SIZE];
            let k = Record::key_of(slot);
            if k == *key {
                return Some(Record::decode(slot));
            }
            if k.player == 0 && k.opponent == 0 {
                return None;
            }
            s = (s + 1) & mask;
        }
        None
    }

    /// One probe: the book's data for `board` in `board`'s own orientation.
    #[inline]
    pub fn probe(&self, board: &Board) -> Option<BookProbe> {
        let (key, sym) = board.canonical();
        match self.find(&key)? {
            Ok(r) => Some(BookProbe::from_record(&r, sym)),
            Err(e) => {
                tracing::warn!("book record for {key:?} is unreadable: {e}");
                None
            }
        }
    }

    /// Every stored record, in table order (damaged records are reported as errors).
    pub fn records(&self) -> impl Iterator<Item = Result<Record, RecordError>> + '_ {
        self.table()
            .chunks_exact(RECORD_SIZE)
            .filter(|s| !Record::slot_is_empty(s))
            .map(Record::decode)
    }
}
