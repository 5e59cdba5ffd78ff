//! The book file: a page-sized header, then a power-of-two open-addressing table of 32-byte
//! records keyed by the canonical board. Writing builds the whole image and publishes it by
//! rename; opening maps it read-only and validates it before any probe.

use super::mapped::BookBytes;
use super::probe::BookProbe;
use super::record::{Record, RecordError, FORMAT_V1, FORMAT_V2, RECORD_SIZE};
use crate::board::Board;
use crate::framing::lanes64;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// Bytes before the table (one page).
pub const HEADER_SIZE: usize = 4096;
const MAGIC: &[u8; 8] = b"WEDGEBOK";
/// The format version written; version 1 (games counted in 16 bits) is still read, and a
/// version-1 book is rewritten as version 2 the next time it is published.
pub const VERSION: u32 = FORMAT_V2;
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

/// Why a file is not a usable book. Every variant names the file (or says the book was in
/// memory), so a message in a log says which of several books is at fault.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error("cannot read the book {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
    #[error("{path} is not a Wedge book: {msg}")]
    Format { path: String, msg: String },
    #[error(
        "the book {path} has format version {found}; this build reads versions 1 to {VERSION}"
    )]
    Version { path: String, found: u32 },
    #[error("the book {path} is damaged: {msg}")]
    Corrupt { path: String, msg: String },
    #[error("cannot lock {path} to write the book beside it: {source}")]
    Lock {
        path: String,
        source: std::io::Error,
    },
}

/// What [`Book::from_bytes`] calls a book that has no file.
pub const IN_MEMORY: &str = "(book in memory)";

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
    let body = lanes64(table);
    header[72..80].copy_from_slice(&body.to_le_bytes());
    let desc = info.description.as_bytes();
    let cut = crate::formats::floor_char_boundary(&info.description, DESCRIPTION_MAX);
    header[DESCRIPTION_AT..DESCRIPTION_AT + 2].copy_from_slice(&(cut as u16).to_le_bytes());
    header[DESCRIPTION_AT + 2..DESCRIPTION_AT + 2 + cut].copy_from_slice(&desc[..cut]);
    let head = lanes64(&header[..HEADER_SIZE - 32]);
    header[HEADER_SIZE - 8..].copy_from_slice(&head.to_le_bytes());
    image
}

/// Writes `records` as a book file at `path`, atomically (readers that have the old file
/// mapped keep it; new readers get the new one). Returns the version written
/// ([`Book::version`]).
pub fn write_book(path: &Path, info: &BookInfo, records: &[Record]) -> Result<u64, BookError> {
    let image = encode_book(info, records);
    crate::paths::write_atomic(path, &image).map_err(|e| BookError::Write {
        path: path.display().to_string(),
        source: e,
    })?;
    Ok(version_of(&image))
}

/// The version of a book image: its header's checksum.
fn version_of(image: &[u8]) -> u64 {
    u64::from_le_bytes(image[HEADER_SIZE - 8..HEADER_SIZE].try_into().unwrap())
}

/// Whether opening a book checks the checksum of its whole table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verify {
    /// Header and table (reads every page once).
    Full,
    /// Header only: for huge books whose table was verified before (`--book-trust`).
    HeaderOnly,
}

/// An open, validated book: probes read the mapped table directly. The header is checked when
/// the book is opened, and every record when it is read (the table's checksum may have been
/// skipped), so a damaged record is ignored, never trusted.
pub struct Book {
    bytes: BookBytes,
    /// The file's path (or [`IN_MEMORY`]), for messages.
    name: String,
    info: BookInfo,
    bits: u32,
    entries: u64,
    counts: [u64; 3],
    body_checksum: u64,
    /// The header's checksum: it changes with every published version of the file.
    version: u64,
    /// The file's format version (the record layout).
    format: u32,
    /// A damaged record was met and reported (once per open book, not once per probe).
    damage_reported: AtomicBool,
}

impl Book {
    /// Maps and validates the book at `path`.
    pub fn open(path: &Path, verify: Verify) -> Result<Book, BookError> {
        let name = path.display().to_string();
        let bytes = BookBytes::map(path).map_err(|e| BookError::Io {
            path: name.clone(),
            source: e,
        })?;
        Book::validate(bytes, verify, name)
    }

    /// A book from bytes in memory (validated like a file).
    pub fn from_bytes(bytes: Vec<u8>, verify: Verify) -> Result<Book, BookError> {
        Book::validate(BookBytes::Owned(bytes), verify, IN_MEMORY.to_string())
    }

    fn validate(bytes: BookBytes, verify: Verify, name: String) -> Result<Book, BookError> {
        let b = bytes.bytes();
        let format = |msg: String| BookError::Format {
            path: name.clone(),
            msg,
        };
        let corrupt = |msg: String| BookError::Corrupt {
            path: name.clone(),
            msg,
        };
        if b.len() < HEADER_SIZE {
            return Err(format(format!(
                "{} bytes is shorter than the {HEADER_SIZE}-byte header",
                b.len()
            )));
        }
        if &b[0..8] != MAGIC {
            return Err(format("wrong magic bytes".into()));
        }
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
        let layout = u32_at(8);
        if !(FORMAT_V1..=VERSION).contains(&layout) {
            return Err(BookError::Version {
                path: name,
                found: layout,
            });
        }
        let head = lanes64(&b[..HEADER_SIZE - 32]);
        if head != u64_at(HEADER_SIZE - 8) {
            return Err(corrupt("header checksum mismatch".into()));
        }
        if u32_at(12) as usize != RECORD_SIZE {
            return Err(format(format!("record size {}", u32_at(12))));
        }
        if b[34] != KEY_RULE || b[35] != HASH_ID {
            return Err(format(format!(
                "key rule {} / hash {} unknown",
                b[34], b[35]
            )));
        }
        let slots = u64_at(16);
        if !slots.is_power_of_two() || !(2..=1 << MAX_SLOT_BITS).contains(&slots) {
            return Err(corrupt(format!("slot count {slots}")));
        }
        let bits = slots.trailing_zeros();
        let expected = HEADER_SIZE as u64 + slots * RECORD_SIZE as u64;
        if b.len() as u64 != expected {
            return Err(corrupt(format!(
                "file is {} bytes, the header promises {expected} (truncated or padded)",
                b.len()
            )));
        }
        let entries = u64_at(24);
        let counts = [u64_at(40), u64_at(48), u64_at(56)];
        if entries >= slots || counts.iter().sum::<u64>() != entries {
            return Err(corrupt(format!(
                "{entries} entries in {slots} slots, kinds {counts:?}"
            )));
        }
        let level = Consistency::from_byte(b[33])
            .ok_or_else(|| corrupt(format!("consistency level {}", b[33])))?;
        if b[32] > 60 {
            return Err(corrupt(format!("minimum empties {}", b[32])));
        }
        let dlen = u16::from_le_bytes([b[DESCRIPTION_AT], b[DESCRIPTION_AT + 1]]) as usize;
        if dlen > DESCRIPTION_MAX {
            return Err(corrupt("description length".into()));
        }
        let description =
            String::from_utf8(b[DESCRIPTION_AT + 2..DESCRIPTION_AT + 2 + dlen].to_vec())
                .map_err(|_| corrupt("description is not UTF-8".into()))?;
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
            version: head,
            format: layout,
            bytes,
            name,
            damage_reported: AtomicBool::new(false),
        };
        if verify == Verify::Full {
            book.verify_table()?;
        }
        Ok(book)
    }

    /// Checks the table against the header's checksum (reads the whole file).
    pub fn verify_table(&self) -> Result<(), BookError> {
        if lanes64(self.table()) != self.body_checksum {
            return Err(BookError::Corrupt {
                path: self.name.clone(),
                msg: "table checksum mismatch (the file was altered or truncated)".into(),
            });
        }
        Ok(())
    }

    pub fn info(&self) -> &BookInfo {
        &self.info
    }

    /// The file's path, or [`IN_MEMORY`].
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Identifies the published version of the file (the header's checksum, which covers the
    /// table's checksum and the time the file was written).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The file's format version (1 or 2).
    pub fn format(&self) -> u32 {
        self.format
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
                return Some(Record::decode_format(slot, self.format));
            }
            if k.player == 0 && k.opponent == 0 {
                return None;
            }
            s = (s + 1) & mask;
        }
        None
    }

    /// One probe: the book's data for `board` in `board`'s own orientation. A damaged record
    /// is ignored (and reported once for this open book).
    #[inline]
    pub fn probe(&self, board: &Board) -> Option<BookProbe> {
        let (key, sym) = board.canonical();
        // The key matched the canonical board, so it is canonical itself.
        let record = self
            .find(&key)?
            .and_then(|r| r.check(self.info.min_empties).map(|()| r));
        match record {
            Ok(r) => Some(BookProbe::from_record(&r, sym)),
            Err(e) => {
                self.report_damage(&e);
                None
            }
        }
    }

    /// Logs the first damaged record met in this open book; later ones are ignored quietly,
    /// so a damaged file costs one line, not one per search.
    fn report_damage(&self, e: &RecordError) {
        if !self.damage_reported.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                "book {}: a damaged record is ignored ({e}); further damaged records of this \
                 file are ignored without a message",
                self.name
            );
        }
    }

    /// Checks a record read from the table: as it was decoded, as a position this book may
    /// hold (canonical, enough empties), and its moves as legal moves of the position.
    fn check_stored(&self, r: Record) -> Result<Record, RecordError> {
        r.check(self.info.min_empties)?;
        if r.key.canonical().0 != r.key {
            return Err(RecordError::NotCanonical);
        }
        Ok(r)
    }

    /// Every stored record, in table order; damaged records (however they are damaged) are
    /// reported as errors.
    pub fn records(&self) -> impl Iterator<Item = Result<Record, RecordError>> + '_ {
        self.table()
            .chunks_exact(RECORD_SIZE)
            .filter(|s| !Record::slot_is_empty(s))
            .map(|s| Record::decode_format(s, self.format).and_then(|r| self.check_stored(r)))
    }
}
