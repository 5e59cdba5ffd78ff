//! The compressed forest: our take on Novello's compact interchange format for a whole book
//! (gzip of depth-first trees in which a child is named by its index among the legal moves,
//! and the values of played positions are recomputed by negamax on reading), with its writer,
//! its validating reader and atomic export/import.
//!
//! Layout of the decompressed stream (all integers little-endian):
//!
//! ```text
//! magic        8 bytes  "WEDGEFOR"
//! version      u32      2 (version 1, still read, has games as u16)
//! min_empties  u8       BookInfo fields
//! search_depth u8
//! solve_empties u8
//! description  u16 byte length, then UTF-8
//! node count   u64
//! trees        until `node count` nodes have been read; nothing may follow
//!
//! tree     = player u64, opponent u64 (a canonical key), subtree
//! subtree  = node data,
//!            then per child: one byte = the move's index among the key's legal moves in
//!            ascending square order (the plain index, strictly increasing within a list),
//!            followed by the child's subtree (in the child's own canonical orientation);
//!            0xFF ends the list
//! node     = kind byte, weight u8, games u32, then
//!            played node: deviation byte (index among the legal moves, 0xFF not computed,
//!                         0xFE all in book); after an index: value i8, depth u8;
//!                         with the EXPLICIT flag: value i8, depth u8 of the node itself
//!            leaf:        value i8, depth u8
//! kind byte = NodeKind (bits 0-1: 0 solved, 1 unsolved leaf, 2 unsolved branch)
//!             | 0x40 when the node is played (Node::is_played)
//!             | 0x80 (played nodes only) when value and depth follow explicitly
//! ```
//!
//! Trees start at the nodes with the most empties (ties by key), so most of a book hangs off
//! a few roots. A played node's value, depth and kind are recomputed on reading by a sweep
//! without a valuer (negamax from the fewest empties up). The writer runs the same
//! recomputation on a copy first and flags (0x80) the few played nodes it would not
//! reproduce (a book with games added since its last sweep), so reading gives back exactly
//! the book that was written.

use flate2::write::GzEncoder;
use flate2::Compression;
use std::collections::HashSet;
use std::io::{self, Read, Write};
use std::path::Path;
use wedge_core::board::{Board, Square, Squares};
use wedge_core::book::BookLookup;
use wedge_core::book::{BookBuilder, Node, Successor, Valuation, Valuer};
use wedge_core::book::{Deviation, NodeKind, DEFAULT_WEIGHT, MAX_GAMES};
use wedge_core::framing::{Reader, Writer};

const MAGIC: &[u8; 8] = b"WEDGEFOR";
/// The forest format version this build writes; it reads version 1 (games in 16 bits) too.
pub const VERSION: u32 = 2;
/// Ends a child list.
const END: u8 = 0xFF;
const DEV_NOT_COMPUTED: u8 = 0xFF;
const DEV_ALL_IN_BOOK: u8 = 0xFE;
const KIND_MASK: u8 = 0x03;
const PLAYED: u8 = 0x40;
const EXPLICIT: u8 = 0x80;
/// d4, e4, d5, e5: occupied in every position of a game.
const CENTRE: u64 = 0x0000_0018_1800_0000;

/// Why a stream is not a forest.
#[derive(Debug, thiserror::Error)]
pub enum ForestError {
    #[error("cannot read the forest: {0}")]
    Io(#[source] io::Error),
    #[error("cannot open the forest {path}: {source}")]
    File { path: String, source: io::Error },
    #[error("the forest is not a valid gzip stream: {0}")]
    Gzip(#[source] io::Error),
    #[error("{bytes} unexpected bytes follow the end of the gzip stream")]
    TrailingGzip { bytes: usize },
    #[error("not a Wedge forest: the stream does not start with WEDGEFOR")]
    Magic,
    #[error(
        "forest format version {found} is not supported (this build reads versions 1 to {VERSION})"
    )]
    Version { found: u32 },
    #[error("the forest ends early at byte {offset} of the decompressed stream (reading {what})")]
    Truncated { offset: usize, what: &'static str },
    #[error("the forest is damaged at byte {offset} of the decompressed stream: {msg}")]
    Corrupt { offset: usize, msg: String },
}

fn corrupt(offset: usize, msg: impl Into<String>) -> ForestError {
    ForestError::Corrupt {
        offset,
        msg: msg.into(),
    }
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg)
}

/// Never built: names the valuer type of a sweep run without one.
enum NoValuer {}

impl Valuer for NoValuer {
    fn best_of(&mut self, _: &Board, _: u64, _: bool, _: &dyn BookLookup) -> Option<Valuation> {
        match *self {}
    }
}

/// Recomputes the values, depths and kinds of played nodes (negamax, no searches).
fn renegamax(book: &mut BookBuilder) {
    book.sweep::<NoValuer>(None, 1, &|_, _| {});
}

/// The index of `sq` among the legal moves of `key` (ascending square order).
fn move_index(key: &Board, sq: u8) -> Option<u8> {
    let legal = key.legal_moves();
    let bit = 1u64.checked_shl(sq as u32)?;
    (legal & bit != 0).then(|| (legal & (bit - 1)).count_ones() as u8)
}

/// The legal move of `key` with index `index`, if there are that many.
fn nth_move(key: &Board, index: u8) -> Option<Square> {
    Squares(key.legal_moves()).nth(index as usize)
}

/// A played node as the reader first stores it: value and depth unknown until the negamax.
fn unvalued(node: &Node) -> Node {
    Node {
        value: 0,
        depth: 0,
        ..*node
    }
}

/// The played nodes that recomputation would not give back exactly.
fn explicit_nodes(book: &BookBuilder) -> HashSet<Board> {
    let nodes = book.sorted_nodes();
    let mut sim = book.clone();
    for (k, n) in &nodes {
        if n.is_played() {
            sim.insert(k, unvalued(n));
        }
    }
    renegamax(&mut sim);
    nodes
        .into_iter()
        .filter(|(k, n)| n.is_played() && sim.node(k) != Some(n))
        .map(|(k, _)| k)
        .collect()
}

fn check_value(v: i8, what: &str, key: &Board) -> io::Result<()> {
    if (-64..=64).contains(&v) {
        Ok(())
    } else {
        Err(invalid(format!(
            "{what} {v} out of range in the book position\n{}",
            key.diagram()
        )))
    }
}

/// Serializes the decompressed stream.
struct Encoder<'a> {
    book: &'a BookBuilder,
    explicit: HashSet<Board>,
    written: HashSet<Board>,
    out: Vec<u8>,
}

impl Encoder<'_> {
    fn node(&mut self, key: &Board, node: &Node) -> io::Result<()> {
        let played = node.is_played();
        let explicit = played && self.explicit.contains(key);
        let mut kind = node.kind as u8;
        if played {
            kind |= PLAYED;
        }
        if explicit {
            kind |= EXPLICIT;
        }
        self.out.push(kind);
        self.out.push(node.weight);
        self.out.extend_from_slice(&node.games.to_le_bytes());
        if played {
            match node.deviation {
                Deviation::NotComputed => self.out.push(DEV_NOT_COMPUTED),
                Deviation::AllInBook => self.out.push(DEV_ALL_IN_BOOK),
                Deviation::Move { sq, value, depth } => {
                    let index = move_index(key, sq).ok_or_else(|| {
                        invalid(format!(
                            "deviation square {sq} is not a legal move of the book position\n{}",
                            key.diagram()
                        ))
                    })?;
                    check_value(value, "deviation value", key)?;
                    self.out.extend_from_slice(&[index, value as u8, depth]);
                }
            }
            if explicit {
                check_value(node.value, "value", key)?;
                self.out.extend_from_slice(&[node.value as u8, node.depth]);
            }
        } else {
            check_value(node.value, "value", key)?;
            self.out.extend_from_slice(&[node.value as u8, node.depth]);
        }
        Ok(())
    }

    /// Writes the subtree of `key` (already marked written).
    fn subtree(&mut self, key: &Board, node: &Node) -> io::Result<()> {
        self.node(key, node)?;
        for (index, sq) in Squares(key.legal_moves()).enumerate() {
            let Successor::Position { key: child, .. } = self.book.successor(key, sq) else {
                continue;
            };
            let Some(child_node) = self.book.node(&child).copied() else {
                continue;
            };
            if !self.written.insert(child) {
                continue;
            }
            self.out.push(index as u8);
            self.subtree(&child, &child_node)?;
        }
        self.out.push(END);
        Ok(())
    }
}

/// The decompressed stream of `book`.
fn encode_payload(book: &BookBuilder) -> io::Result<Vec<u8>> {
    let info = &book.info;
    let description = info.description.as_bytes();
    let len = u16::try_from(description.len()).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "the book description is {} bytes long; a forest holds at most 65535",
                description.len()
            ),
        )
    })?;
    let mut head = Writer::new(MAGIC, VERSION, 64 + description.len() + book.len() * 8);
    head.bytes(&[info.min_empties, info.search_depth, info.solve_empties]);
    head.u16(len);
    head.bytes(description);
    head.u64(book.len() as u64);
    let out = head.into_bytes();
    let mut nodes = book.sorted_nodes();
    // Most empties first; the sort is stable, so ties stay in key order.
    nodes.sort_by_key(|(k, _)| std::cmp::Reverse(k.empty_count()));
    let mut enc = Encoder {
        book,
        explicit: explicit_nodes(book),
        written: HashSet::with_capacity(nodes.len()),
        out,
    };
    for (key, node) in &nodes {
        if !enc.written.insert(*key) {
            continue;
        }
        enc.out.extend_from_slice(&key.player.to_le_bytes());
        enc.out.extend_from_slice(&key.opponent.to_le_bytes());
        enc.subtree(key, node)?;
    }
    Ok(enc.out)
}

/// Writes `book` as a gzip-compressed forest.
pub fn write_forest(book: &BookBuilder, out: &mut impl Write) -> io::Result<()> {
    let payload = encode_payload(book)?;
    let mut gz = GzEncoder::new(out, Compression::default());
    gz.write_all(&payload)?;
    gz.finish()?;
    Ok(())
}

/// Reads a forest written by [`write_forest`]: everything is checked, and played positions
/// get their values back by negamax.
pub fn read_forest(input: &mut impl Read) -> Result<BookBuilder, ForestError> {
    let mut compressed = Vec::new();
    input
        .read_to_end(&mut compressed)
        .map_err(ForestError::Io)?;
    let mut gz = flate2::bufread::GzDecoder::new(&compressed[..]);
    let mut payload = Vec::new();
    gz.read_to_end(&mut payload).map_err(ForestError::Gzip)?;
    let rest = gz.into_inner().len();
    if rest != 0 {
        return Err(ForestError::TrailingGzip { bytes: rest });
    }
    decode_payload(&payload)
}

/// Writes `book` to `path` atomically (the whole file is built in memory first).
pub fn export_forest(book: &BookBuilder, path: &Path) -> io::Result<()> {
    let mut bytes = Vec::new();
    write_forest(book, &mut bytes)?;
    wedge_core::paths::write_atomic(path, &bytes)
}

/// Reads the forest at `path`.
pub fn import_forest(path: &Path) -> Result<BookBuilder, ForestError> {
    let file_error = |source| ForestError::File {
        path: path.display().to_string(),
        source,
    };
    let mut file = wedge_core::paths::open_file(path).map_err(file_error)?;
    read_forest(&mut file)
}

/// Reads the decompressed stream.
struct Decoder<'a> {
    r: Reader<'a>,
    book: BookBuilder,
    /// Nodes the header promises, and nodes read so far.
    count: u64,
    read: u64,
    /// Played nodes stored with their own value and depth, restored after the negamax.
    explicit: Vec<(Board, Node)>,
    /// The stream's format version (1 stores games as u16).
    version: u32,
}

impl Decoder<'_> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&[u8], ForestError> {
        self.r.take(n).map_err(|t| ForestError::Truncated {
            offset: t.len,
            what,
        })
    }

    fn u8(&mut self, what: &'static str) -> Result<u8, ForestError> {
        Ok(self.take(1, what)?[0])
    }

    fn u16(&mut self, what: &'static str) -> Result<u16, ForestError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u64(&mut self, what: &'static str) -> Result<u64, ForestError> {
        let mut a = [0u8; 8];
        a.copy_from_slice(self.take(8, what)?);
        Ok(u64::from_le_bytes(a))
    }

    fn value(&mut self, what: &'static str) -> Result<i8, ForestError> {
        let at = self.r.pos();
        let v = self.u8(what)? as i8;
        if (-64..=64).contains(&v) {
            Ok(v)
        } else {
            Err(corrupt(at, format!("{what} {v} is outside -64..=64")))
        }
    }

    /// Reads one node's data and stores it under `key`.
    fn node(&mut self, key: &Board) -> Result<(), ForestError> {
        let at = self.r.pos();
        self.read += 1;
        if self.read > self.count {
            return Err(corrupt(
                at,
                format!("more nodes than the {} the header announces", self.count),
            ));
        }
        let kind_byte = self.u8("a node's kind")?;
        if kind_byte & !(KIND_MASK | PLAYED | EXPLICIT) != 0 {
            return Err(corrupt(at, format!("bad node kind byte {kind_byte:#04x}")));
        }
        let kind = NodeKind::from_byte(kind_byte & KIND_MASK)
            .ok_or_else(|| corrupt(at, format!("bad node kind {}", kind_byte & KIND_MASK)))?;
        let played = kind_byte & PLAYED != 0;
        let explicit = kind_byte & EXPLICIT != 0;
        if explicit && !played {
            return Err(corrupt(
                at,
                "a leaf is flagged as carrying a played node's value",
            ));
        }
        let weight = self.u8("a node's weight")?;
        let games = if self.version == 1 {
            self.u16("a node's game count")? as u32
        } else {
            let b = self.take(4, "a node's game count")?;
            u32::from_le_bytes([b[0], b[1], b[2], b[3]]).min(MAX_GAMES)
        };
        let node = if played {
            let dev_at = self.r.pos();
            let deviation = match self.u8("a deviation")? {
                DEV_NOT_COMPUTED => Deviation::NotComputed,
                DEV_ALL_IN_BOOK => Deviation::AllInBook,
                index => {
                    let sq = nth_move(key, index).ok_or_else(|| {
                        corrupt(
                            dev_at,
                            format!(
                                "deviation index {index}, but the position has only {} legal moves",
                                key.legal_moves().count_ones()
                            ),
                        )
                    })?;
                    let value = self.value("a deviation value")?;
                    let depth = self.u8("a deviation depth")?;
                    Deviation::Move {
                        sq: sq.index() as u8,
                        value,
                        depth,
                    }
                }
            };
            if deviation == Deviation::NotComputed && kind != NodeKind::UnsolvedBranch {
                return Err(corrupt(
                    at,
                    format!(
                        "a played node without a deviation must be an unsolved branch, not {}",
                        kind.name()
                    ),
                ));
            }
            let mut node = Node {
                kind,
                value: 0,
                depth: 0,
                deviation,
                weight,
                games,
            };
            if explicit {
                node.value = self.value("a played node's value")?;
                node.depth = self.u8("a played node's depth")?;
                self.explicit.push((*key, node));
            }
            unvalued(&node)
        } else {
            if kind == NodeKind::UnsolvedBranch {
                return Err(corrupt(at, "a leaf cannot be an unsolved branch"));
            }
            let value = self.value("a leaf's value")?;
            let depth = self.u8("a leaf's depth")?;
            Node {
                kind,
                value,
                depth,
                deviation: Deviation::NotComputed,
                weight,
                games,
            }
        };
        self.book.insert(key, node);
        Ok(())
    }

    /// Reads the subtree of `key` (known to be a new, valid position). The depth of the
    /// recursion is bounded: every child has one empty square fewer.
    fn subtree(&mut self, key: &Board) -> Result<(), ForestError> {
        self.node(key)?;
        let mut previous: Option<u8> = None;
        loop {
            let at = self.r.pos();
            let index = self.u8("a child index or the end of a child list")?;
            if index == END {
                return Ok(());
            }
            let sq = nth_move(key, index).ok_or_else(|| {
                corrupt(
                    at,
                    format!(
                        "child index {index}, but the position has only {} legal moves",
                        key.legal_moves().count_ones()
                    ),
                )
            })?;
            if previous.is_some_and(|p| p >= index) {
                return Err(corrupt(at, "child indices must increase within a list"));
            }
            previous = Some(index);
            let child = match self.book.successor(key, sq) {
                Successor::Position { key: child, .. } => child,
                Successor::Terminal(_) => {
                    return Err(corrupt(at, format!("child move {sq} ends the game")))
                }
                Successor::TooFew => {
                    return Err(corrupt(
                        at,
                        format!(
                            "child move {sq} leads to fewer than {} empties",
                            self.book.info.min_empties
                        ),
                    ))
                }
            };
            if self.book.node(&child).is_some() {
                return Err(corrupt(
                    at,
                    format!("the position after {sq} is stored twice"),
                ));
            }
            self.subtree(&child)?;
        }
    }

    /// Checks a tree's root key.
    fn root(&self, key: &Board, at: usize) -> Result<(), ForestError> {
        let msg = if !key.is_valid() {
            "a tree's key has overlapping discs"
        } else if key.empties() & CENTRE != 0 || key.empty_count() > 60 {
            "a tree's key is not a position of a game (a centre square is empty)"
        } else if key.canonical().0 != *key {
            "a tree's key is not canonical"
        } else if !self.book.keeps(key) {
            "a tree's key has fewer empties than the book keeps"
        } else if key.legal_moves() == 0 {
            "a tree's key has no legal move (the book stores positions after a pass)"
        } else if self.book.node(key).is_some() {
            "a tree's key is already stored"
        } else {
            return Ok(());
        };
        Err(corrupt(at, msg))
    }
}

/// Parses a decompressed stream into a book.
fn decode_payload(bytes: &[u8]) -> Result<BookBuilder, ForestError> {
    if bytes.len() < MAGIC.len() {
        return Err(if MAGIC.starts_with(bytes) {
            ForestError::Truncated {
                offset: bytes.len(),
                what: "the magic",
            }
        } else {
            ForestError::Magic
        });
    }
    if &bytes[..MAGIC.len()] != MAGIC {
        return Err(ForestError::Magic);
    }
    let mut r = Reader::new(bytes);
    r.take(MAGIC.len()).map_err(|_| ForestError::Magic)?;
    let mut d = Decoder {
        r,
        book: BookBuilder::new(0),
        count: 0,
        read: 0,
        explicit: Vec::new(),
        version: 0,
    };
    let mut v = [0u8; 4];
    v.copy_from_slice(d.take(4, "the version")?);
    let found = u32::from_le_bytes(v);
    if !(1..=VERSION).contains(&found) {
        return Err(ForestError::Version { found });
    }
    d.version = found;
    let at = d.r.pos();
    let min_empties = d.u8("the minimum empties")?;
    if min_empties > 60 {
        return Err(corrupt(at, format!("minimum empties {min_empties} > 60")));
    }
    let search_depth = d.u8("the search depth")?;
    let solve_empties = d.u8("the solve empties")?;
    let len = d.u16("the description's length")? as usize;
    let at = d.r.pos();
    let description = std::str::from_utf8(d.take(len, "the description")?)
        .map_err(|e| corrupt(at, format!("the description is not UTF-8: {e}")))?
        .to_string();
    d.count = d.u64("the node count")?;
    d.book = BookBuilder::new(min_empties);
    d.book.info.search_depth = search_depth;
    d.book.info.solve_empties = solve_empties;
    d.book.info.description = description;
    while d.read < d.count {
        let at = d.r.pos();
        if at == bytes.len() {
            return Err(corrupt(
                at,
                format!(
                    "the header announces {} nodes but the stream ends after {}",
                    d.count, d.read
                ),
            ));
        }
        let player = d.u64("a tree's key")?;
        let opponent = d.u64("a tree's key")?;
        let key = Board::new(player, opponent);
        d.root(&key, at)?;
        d.subtree(&key)?;
    }
    if d.r.pos() != bytes.len() {
        return Err(corrupt(
            d.r.pos(),
            format!(
                "{} unexpected bytes after the last of the {} nodes",
                bytes.len() - d.r.pos(),
                d.count
            ),
        ));
    }
    let Decoder {
        mut book, explicit, ..
    } = d;
    renegamax(&mut book);
    for (key, node) in explicit {
        book.insert(&key, node);
    }
    book.info.level = book.level();
    book.info.weighted = book
        .sorted_nodes()
        .iter()
        .any(|(_, n)| n.weight != DEFAULT_WEIGHT);
    Ok(book)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wedge_core::book::Record;
    use wedge_core::rng::Rng;

    /// Deterministic stand-in for a search: the lowest allowed square, a value from the hash.
    struct FakeValuer;

    impl Valuer for FakeValuer {
        fn best_of(
            &mut self,
            board: &Board,
            allowed: u64,
            exact: bool,
            _: &dyn BookLookup,
        ) -> Option<Valuation> {
            let sq = Square::first_of(allowed)?;
            Some(Valuation {
                sq,
                value: (board.hash() % 21) as i32 - 10,
                depth: if exact { board.empty_count() as u8 } else { 4 },
                exact,
            })
        }
    }

    fn random_game(rng: &mut Rng) -> Vec<wedge_core::board::Move> {
        let mut board = Board::START;
        let mut moves = Vec::new();
        while let Some(mv) = board.random_move(rng) {
            moves.push(mv);
            board = board.apply(mv).unwrap();
        }
        moves
    }

    fn swept_book(seed: u64, games: usize, min_empties: u8) -> BookBuilder {
        let mut rng = Rng::new(seed);
        let mut book = BookBuilder::new(min_empties);
        book.info.search_depth = 4;
        book.info.solve_empties = min_empties + 1;
        book.info.description = "test forest ✓".to_string();
        for _ in 0..games {
            book.add_game(&random_game(&mut rng)).unwrap();
        }
        // A few hand weights.
        for (i, (k, _)) in book.sorted_nodes().into_iter().enumerate() {
            if i % 7 == 0 {
                book.set_weight(&k, (i % 101) as u8);
            }
        }
        book.sweep(Some(&|| FakeValuer), 1, &|_, _| {});
        book
    }

    fn to_bytes(book: &BookBuilder) -> Vec<u8> {
        let mut bytes = Vec::new();
        write_forest(book, &mut bytes).unwrap();
        bytes
    }

    fn gzip(payload: &[u8]) -> Vec<u8> {
        let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
        gz.write_all(payload).unwrap();
        gz.finish().unwrap()
    }

    fn assert_same(a: &BookBuilder, b: &BookBuilder) {
        let (ra, rb): (Vec<Record>, Vec<Record>) = (a.records(), b.records());
        assert_eq!(ra.len(), rb.len());
        for (x, y) in ra.iter().zip(&rb) {
            assert_eq!(x, y, "\n{}", x.key.diagram());
        }
        assert_eq!(a.info.min_empties, b.info.min_empties);
        assert_eq!(a.info.search_depth, b.info.search_depth);
        assert_eq!(a.info.solve_empties, b.info.solve_empties);
        assert_eq!(a.info.description, b.info.description);
        assert_eq!(a.level(), b.info.level);
    }

    #[test]
    fn a_swept_book_round_trips_exactly_without_explicit_values() {
        let book = swept_book(11, 40, 50);
        assert!(book.len() > 200, "{}", book.len());
        let kinds: HashSet<NodeKind> = book.sorted_nodes().iter().map(|(_, n)| n.kind).collect();
        assert_eq!(kinds.len(), 3, "every node kind is exercised");
        assert!(explicit_nodes(&book).is_empty());
        let bytes = to_bytes(&book);
        let back = read_forest(&mut &bytes[..]).unwrap();
        assert_same(&book, &back);
        // Writing is deterministic, and a second round trip changes nothing.
        assert_eq!(to_bytes(&back), bytes);
    }

    #[test]
    fn a_book_changed_since_its_sweep_round_trips_exactly() {
        let mut book = swept_book(12, 25, 52);
        let mut rng = Rng::new(99);
        for _ in 0..25 {
            book.add_game(&random_game(&mut rng)).unwrap();
        }
        // Leaves played since, and played positions not yet searched.
        assert!(!explicit_nodes(&book).is_empty());
        let back = read_forest(&mut &to_bytes(&book)[..]).unwrap();
        assert_same(&book, &back);
    }

    #[test]
    fn an_empty_book_and_files_round_trip() {
        let book = BookBuilder::new(20);
        let back = read_forest(&mut &to_bytes(&book)[..]).unwrap();
        assert!(back.is_empty());
        assert_same(&book, &back);

        let book = swept_book(13, 10, 54);
        let dir = std::env::temp_dir().join(format!("wedge-forest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.forest.gz");
        export_forest(&book, &path).unwrap();
        assert_same(&book, &import_forest(&path).unwrap());
        let missing = import_forest(&dir.join("missing")).unwrap_err();
        assert!(matches!(missing, ForestError::File { .. }), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_headers_are_refused() {
        let book = swept_book(14, 5, 54);
        let payload = encode_payload(&book).unwrap();
        let mut p = payload.clone();
        p[0] = b'X';
        assert!(matches!(decode_payload(&p), Err(ForestError::Magic)));
        let mut p = payload.clone();
        p[8] = 3;
        assert!(matches!(
            decode_payload(&p),
            Err(ForestError::Version { found: 3 })
        ));
        let mut p = payload.clone();
        p[12] = 61;
        assert!(matches!(
            decode_payload(&p),
            Err(ForestError::Corrupt { offset: 12, .. })
        ));
        // Node count one too many, one too few.
        let count_at = 12 + 3 + 2 + book.info.description.len();
        let mut p = payload.clone();
        p[count_at] += 1;
        let e = decode_payload(&p).unwrap_err();
        assert!(e.to_string().contains("announces"), "{e}");
        let mut p = payload.clone();
        p[count_at] -= 1;
        let e = decode_payload(&p).unwrap_err();
        assert!(e.to_string().contains("announces"), "{e}");
        // Trailing garbage inside and after the gzip stream.
        let mut p = payload.clone();
        p.push(0);
        assert!(matches!(
            decode_payload(&p),
            Err(ForestError::Corrupt { .. })
        ));
        let mut bytes = gzip(&payload);
        assert!(read_forest(&mut &bytes[..]).is_ok());
        bytes.push(0);
        assert!(matches!(
            read_forest(&mut &bytes[..]),
            Err(ForestError::TrailingGzip { bytes: 1 })
        ));
        // Not gzip at all.
        let e = read_forest(&mut &payload[..]).unwrap_err();
        assert!(matches!(e, ForestError::Gzip(_)), "{e}");
        assert!(read_forest(&mut &b""[..]).is_err());
    }

    #[test]
    fn truncated_and_damaged_streams_never_panic() {
        let book = swept_book(15, 12, 53);
        let payload = encode_payload(&book).unwrap();
        for len in 0..payload.len() {
            let e = decode_payload(&payload[..len]).unwrap_err();
            assert!(
                matches!(
                    e,
                    ForestError::Truncated { .. } | ForestError::Corrupt { .. }
                ),
                "{len}: {e}"
            );
        }
        let bytes = gzip(&payload);
        for len in 0..bytes.len() {
            assert!(read_forest(&mut &bytes[..len]).is_err(), "{len}");
        }
        // Flipped bytes: refused or read, never a panic. A key or child index changed to
        // another valid one may still read.
        let mut rng = Rng::new(3);
        let mut refused = 0;
        for i in 0..payload.len() {
            for flip in [0xFF, 1 << rng.below(8)] {
                let mut p = payload.clone();
                p[i] ^= flip as u8;
                if decode_payload(&p).is_err() {
                    refused += 1;
                }
            }
        }
        assert!(refused > payload.len() / 4, "{refused}");
        // And through gzip.
        let mut p = payload.clone();
        p[30] ^= 0x55;
        let _ = read_forest(&mut &gzip(&p)[..]);
    }

    #[test]
    fn counts_above_16_bits_round_trip_and_version_1_streams_are_read() {
        // The start position, played, and its one (canonical) child after f5.
        let mut book = BookBuilder::new(58);
        book.add_game(&["f5".parse().unwrap()]).unwrap();
        let mut root = *book.node_of(&Board::START).unwrap();
        root.games = 124_106;
        book.insert(&Board::START, root);
        let payload = encode_payload(&book).unwrap();
        let back = decode_payload(&payload).unwrap();
        assert_same(&book, &back);
        assert_eq!(back.node_of(&Board::START).unwrap().games, 124_106);
        // The same book as version 1 wrote it: games in two bytes at each node.
        let trees = 8 + 4 + 3 + 2 + 8;
        let root_games = trees + 16 + 2;
        let child_games = trees + 16 + 7 + 1 + 2;
        let mut v1 = payload.clone();
        v1[8..12].copy_from_slice(&1u32.to_le_bytes());
        v1.drain(child_games + 2..child_games + 4);
        v1.drain(root_games + 2..root_games + 4);
        let old = decode_payload(&v1).unwrap();
        // The u16 keeps the count's low 16 bits; everything else is the same book.
        assert_eq!(old.node_of(&Board::START).unwrap().games, 124_106 & 0xFFFF);
        root.games = 124_106 & 0xFFFF;
        book.insert(&Board::START, root);
        assert_same(&book, &old);
        v1[8..12].copy_from_slice(&3u32.to_le_bytes());
        assert!(matches!(
            decode_payload(&v1),
            Err(ForestError::Version { found: 3 })
        ));
    }

    #[test]
    fn bad_indices_and_repeated_children_are_refused() {
        // One played start position, its four (symmetric) children collapse to one key.
        let mut book = BookBuilder::new(58);
        let f5 = "f5".parse().unwrap();
        book.add_game(&[f5]).unwrap();
        assert_eq!(book.len(), 2);
        let payload = encode_payload(&book).unwrap();
        let trees = 8 + 4 + 3 + 2 + 8;
        // root key, root node (kind, weight, games, deviation), child index 0, child node...
        let child_index_at = trees + 16 + 7;
        assert_eq!(payload[child_index_at], 0);
        let mut p = payload.clone();
        p[child_index_at] = 4;
        let e = decode_payload(&p).unwrap_err();
        assert!(e.to_string().contains("only 4 legal moves"), "{e}");
        assert!(
            matches!(e, ForestError::Corrupt { offset, .. } if offset == child_index_at),
            "{e}"
        );
        let mut p = payload.clone();
        p[trees + 16 + 6] = 9;
        let e = decode_payload(&p).unwrap_err();
        assert!(e.to_string().contains("deviation index 9"), "{e}");
        // A child written twice under the same parent (index 1 reaches the same key).
        let mut p = payload[..payload.len() - 1].to_vec();
        let child = p[child_index_at + 1..].to_vec();
        p.push(1);
        p.extend_from_slice(&child);
        p.push(END);
        let e = decode_payload(&p).unwrap_err();
        assert!(e.to_string().contains("stored twice"), "{e}");
    }
}
