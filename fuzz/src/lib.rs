//! Fuzz targets for everything Wedge reads from outside: protocol lines, game and position
//! notations, the book, weights, self-play batch files and label caches.
//!
//! Each target takes arbitrary bytes. The only acceptable outcomes are `Ok` or a typed error:
//! a panic (including a failed assertion here) is a bug. Where a format has a writer, a parse
//! that succeeds is written back and checked to round-trip. Error values are printed too, since
//! their messages quote the input (excerpts, columns) and slicing text is a classic panic.
//!
//! Binary formats guarded by a checksum are tried twice: as given, and with the checksum (and
//! the declared length) patched to match, so that mutations reach the validation behind them.

use wedge_core::board::Board;
use wedge_core::book::RECORD_SIZE;
use wedge_core::book::{Book, Verify, HEADER_SIZE, VERSION};
use wedge_core::eval::Weights;
use wedge_core::formats::{
    format_ggf, format_obf_line, format_transcript, parse_ggf, parse_ggf_games, parse_obf_file,
    parse_obf_line, parse_transcript, read_player_names, read_tournament_names, read_wthor_games,
    replay_inferring_passes, write_wthor_games, WthorHeader,
};
use wedge_core::framing::{fnv1a64, lanes64};
use wedge_engine::protocol::console::parse_console_line;
use wedge_engine::protocol::gtp::{parse_gtp_line, preprocess};
use wedge_engine::protocol::nboard::parse_nboard_line;
use wedge_lab::train::selfplay::Batch;
use wedge_lab::train::SolvedLabels;

/// A fuzz target: bytes in, a panic on a bug.
pub type Target = fn(&[u8]);

/// Every target by name, for the smoke tests and tools.
pub const TARGETS: &[(&str, Target)] = &[
    ("nboard", nboard),
    ("gtp", gtp),
    ("console", console),
    ("ggf", ggf),
    ("obf", obf),
    ("transcript", transcript),
    ("wthor", wthor),
    ("book", book),
    ("weights", weights),
    ("batch", batch),
    ("labels", labels),
];

/// Text targets see the bytes as the line readers do: invalid UTF-8 replaced.
fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Touches a value's `Debug` form (cheaply: the length only).
fn touch<T: std::fmt::Debug>(v: &T) {
    std::hint::black_box(format!("{v:?}").len());
}

/// NBoard protocol lines.
pub fn nboard(data: &[u8]) {
    for line in text(data).lines() {
        match parse_nboard_line(line) {
            Ok(cmd) => touch(&cmd),
            Err(e) => touch(&e.to_string()),
        }
    }
}

/// GTP lines, pre-processed as the front end does.
pub fn gtp(data: &[u8]) {
    for line in text(data).lines() {
        if let Some(clean) = preprocess(line) {
            if let Some(parsed) = parse_gtp_line(&clean) {
                if let Err(e) = &parsed.command {
                    touch(&e.to_string());
                }
                touch(&parsed);
            }
        }
        touch(&parse_gtp_line(line));
    }
}

/// Human console lines.
pub fn console(data: &[u8]) {
    for line in text(data).lines() {
        touch(&parse_console_line(line));
    }
}

/// GGF: a stream of games and a single game; each parsed game round-trips through the writer.
pub fn ggf(data: &[u8]) {
    let s = text(data);
    for game in parse_ggf_games(&s).take(1000) {
        match game {
            Ok(g) => {
                let written = format_ggf(&g);
                let again = parse_ggf(&written)
                    .unwrap_or_else(|e| panic!("written game does not parse: {e}\n{written}"));
                // Ratings are floats: compare the printed forms (NaN never equals itself).
                assert_eq!(format_ggf(&again), written, "GGF round trip");
                assert_eq!(again.game(), g.game(), "GGF round trip: game");
                assert_eq!(again.notes(), g.notes(), "GGF round trip: notes");
            }
            Err(e) => touch(&e.to_string()),
        }
    }
    if let Err(e) = parse_ggf(&s) {
        touch(&e.to_string());
    }
}

/// OBF lines and files; each parsed entry round-trips through the writer.
pub fn obf(data: &[u8]) {
    let s = text(data);
    match parse_obf_file(&s) {
        Ok(entries) => {
            for e in entries {
                let line = format_obf_line(&e);
                let again = parse_obf_line(&line)
                    .unwrap_or_else(|err| panic!("written line does not parse: {err}\n{line}"));
                assert_eq!(again, e, "OBF round trip of {line}");
            }
        }
        Err(e) => touch(&e.to_string()),
    }
    if let Some(first) = s.lines().next() {
        if let Err(e) = parse_obf_line(first) {
            touch(&e.to_string());
        }
    }
}

/// Move transcripts, read and replayed; parsed moves round-trip through the writer.
pub fn transcript(data: &[u8]) {
    let s = text(data);
    match parse_transcript(&s) {
        Ok(moves) => {
            let written = format_transcript(&moves);
            assert_eq!(parse_transcript(&written).ok(), Some(moves), "{written}");
        }
        Err(e) => touch(&e.to_string()),
    }
    match replay_inferring_passes(&s) {
        Ok(game) => {
            let written = format_transcript(game.moves());
            let again = replay_inferring_passes(&written)
                .unwrap_or_else(|e| panic!("replayed game does not replay: {e}\n{written}"));
            assert_eq!(again, game, "transcript replay round trip");
        }
        Err(e) => touch(&e.to_string()),
    }
}

/// WTHOR game files (read, replay each record, write back byte for byte) and name files.
pub fn wthor(data: &[u8]) {
    match read_wthor_games(data) {
        Ok(file) => {
            let games: Vec<_> = file.games().collect();
            for (_, replay) in file.replay_all() {
                match replay {
                    Ok(game) => touch(&game.moves().len()),
                    Err(e) => touch(&e.to_string()),
                }
            }
            let written = write_wthor_games(&file.header, &games).expect("game count fits");
            assert_eq!(written, data, "WTHOR round trip");
        }
        Err(e) => touch(&e.to_string()),
    }
    if let Ok(h) = WthorHeader::from_bytes(data) {
        assert_eq!(h.to_bytes()[..], data[..16], "WTHOR header round trip");
        touch(&(h.theoretical_depth(), h.created_full_year()));
    }
    for names in [read_player_names(data), read_tournament_names(data)] {
        match names {
            Ok(n) => touch(&n.len()),
            Err(e) => touch(&e.to_string()),
        }
    }
}

/// Opening book files, with full verification; every record is read and every stored key
/// probed. Tried as given, then rebuilt around the input so that it passes the header checks.
pub fn book(data: &[u8]) {
    exercise_book(data.to_vec());
    exercise_book(patched_book(data));
}

fn exercise_book(bytes: Vec<u8>) {
    let book = match Book::from_bytes(bytes, Verify::Full) {
        Ok(b) => b,
        Err(e) => return touch(&e.to_string()),
    };
    touch(book.info());
    touch(&(book.len(), book.counts(), book.slots(), book.file_size()));
    book.probe(&Board::START);
    for r in book.records().take(4096) {
        match r {
            Ok(rec) => {
                // A damaged table may hide a record from its probe chain (misplaced, or a
                // duplicate key first), but whatever `find` returns carries the key asked for.
                if let Some(Ok(found)) = book.find(&rec.key) {
                    assert_eq!(found.key, rec.key, "find returns a record of another key");
                }
                touch(&book.probe(&rec.key));
            }
            Err(e) => touch(&e.to_string()),
        }
    }
}

/// Header fields the patched book keeps from the input (the rest of the 4 KiB header is zero).
const BOOK_HEAD: usize = 192;

/// A book file built from `data`: its first bytes as the header's start, the rest as the table
/// (cut to a power-of-two number of slots), with magic, version, layout, counts and both
/// checksums made consistent.
fn patched_book(data: &[u8]) -> Vec<u8> {
    let head = data.len().min(BOOK_HEAD);
    let mut table = data[head..].to_vec();
    let mut slots = (table.len() / RECORD_SIZE).max(2);
    if !slots.is_power_of_two() {
        slots = slots.next_power_of_two() / 2;
    }
    table.resize(slots * RECORD_SIZE, 0);
    let used = table
        .chunks_exact(RECORD_SIZE)
        .filter(|s| s[..16].iter().any(|&b| b != 0))
        .count()
        .min(slots - 1) as u64;
    let mut b = vec![0u8; HEADER_SIZE];
    b[..head].copy_from_slice(&data[..head]);
    b[0..8].copy_from_slice(b"WEDGEBOK");
    // Both record layouts: version 1 when the input says 1, else the current one.
    let version = if b[8] == 1 { 1u32 } else { VERSION };
    b[8..12].copy_from_slice(&version.to_le_bytes());
    b[12..16].copy_from_slice(&(RECORD_SIZE as u32).to_le_bytes());
    b[16..24].copy_from_slice(&(slots as u64).to_le_bytes());
    b[24..32].copy_from_slice(&used.to_le_bytes());
    b[32] %= 61;
    b[33] %= 3;
    b[34] = 1;
    b[35] = 1;
    // The input decides how the entries split between the three kinds.
    let solved = u64::from(b[40]).min(used);
    let leaves = u64::from(b[48]).min(used - solved);
    for (i, n) in [solved, leaves, used - solved - leaves]
        .into_iter()
        .enumerate()
    {
        b[40 + 8 * i..48 + 8 * i].copy_from_slice(&n.to_le_bytes());
    }
    let dlen = u16::from_le_bytes([b[128], b[129]]) % (BOOK_HEAD as u16 - 130 + 1);
    b[128..130].copy_from_slice(&dlen.to_le_bytes());
    b[72..80].copy_from_slice(&lanes64(&table).to_le_bytes());
    let head_sum = lanes64(&b[..HEADER_SIZE - 32]);
    b[HEADER_SIZE - 8..].copy_from_slice(&head_sum.to_le_bytes());
    b.extend_from_slice(&table);
    b
}

/// Evaluation weights files; a file that loads is written back byte for byte.
pub fn weights(data: &[u8]) {
    for bytes in [data.to_vec(), with_trailing_fnv(data)] {
        match Weights::from_bytes(&bytes) {
            Ok(w) => {
                let written = w.to_bytes().expect("loaded weights can be written");
                assert_eq!(written, bytes, "weights round trip");
            }
            Err(e) => touch(&e.to_string()),
        }
    }
}

/// `data` with its last 8 bytes replaced by the FNV-1a checksum of the rest.
fn with_trailing_fnv(data: &[u8]) -> Vec<u8> {
    let mut b = data.to_vec();
    if b.len() >= 8 {
        let end = b.len() - 8;
        let sum = fnv1a64(&b[..end]);
        b[end..].copy_from_slice(&sum.to_le_bytes());
    }
    b
}

/// Self-play batch files; a batch that loads is written back byte for byte.
pub fn batch(data: &[u8]) {
    let mut patched = data.to_vec();
    if patched.len() >= 20 {
        let len = patched.len() as u64;
        patched[12..20].copy_from_slice(&len.to_le_bytes());
    }
    for bytes in [data.to_vec(), with_trailing_fnv(&patched)] {
        match Batch::from_bytes(&bytes) {
            Ok(b) => {
                assert_eq!(b.to_bytes(), bytes, "batch round trip");
                assert_eq!(Batch::from_bytes(&b.to_bytes()).ok(), Some(b));
            }
            Err(e) => touch(&e.to_string()),
        }
    }
}

/// Two made-up games for the label cache: the start, and the start with the colours swapped.
pub fn label_games() -> Vec<wedge_lab::train::GameRecord> {
    let positions = [Board::START, Board::START.pass()]
        .into_iter()
        .map(|board| wedge_core::formats::Position {
            board,
            to_move: wedge_core::formats::Color::Black,
        })
        .collect::<Vec<_>>();
    (0..2)
        .map(|i| wedge_lab::train::GameRecord {
            year: Some(1990),
            positions: positions[i..].to_vec(),
            theoretical: None,
            final_black: Some(2),
        })
        .collect()
}

/// Label caches (`data/labels`), and the samples of the seed games from those that parse.
pub fn labels(data: &[u8]) {
    let games = label_games();
    for bytes in [data.to_vec(), with_trailing_fnv(data)] {
        match SolvedLabels::from_bytes(&bytes) {
            Ok(l) => {
                assert_eq!(l.to_bytes(), bytes, "labels round trip");
                for solve_empties in [20, 60] {
                    match l.samples(&games, solve_empties, 0) {
                        Ok(s) => touch(&s.len()),
                        Err(e) => touch(&e.to_string()),
                    }
                }
            }
            Err(e) => touch(&e.to_string()),
        }
    }
}

/// Small valid binary files made by Wedge's own writers, the seeds of the binary targets
/// (written to `corpus/` by the ignored test `write_binary_seeds`).
pub mod seeds {
    use wedge_core::board::{Board, Move};
    use wedge_core::book::{encode_book, BookInfo, Consistency};
    use wedge_core::book::{Deviation, NodeKind, Record, DEFAULT_WEIGHT};
    use wedge_core::eval::patterns::TableKind;
    use wedge_core::eval::{TableHeader, Weights};
    use wedge_lab::train::selfplay::{Batch, BatchHeader, GameRecord, Start};
    use wedge_lab::train::selfplay::{BatchId, Settings};
    use wedge_lab::train::SolvedLabels;

    type Files = Vec<(String, Vec<u8>)>;

    /// A whole game from the start, passes included: at each ply the `pick`-th legal move.
    fn full_game(seed: u64) -> Vec<Move> {
        let mut board = Board::START;
        let mut moves = Vec::new();
        let mut x = seed;
        while !board.is_game_over() {
            let legal = board.moves();
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = legal[(x >> 33) as usize % legal.len()];
            board = board.apply(mv).unwrap();
            moves.push(mv);
        }
        moves
    }

    fn final_result(moves: &[Move]) -> i8 {
        let mut board = Board::START;
        for &m in moves {
            board = board.apply(m).unwrap();
        }
        let score = board.final_score();
        (if moves.len().is_multiple_of(2) {
            score
        } else {
            -score
        }) as i8
    }

    fn book() -> Files {
        let mut records = Vec::new();
        let mut board = Board::START;
        for mv in full_game(7).into_iter().take(6) {
            let key = board.canonical().0;
            let legal: Vec<u8> = key
                .moves()
                .iter()
                .filter_map(|m| m.square())
                .map(|s| s.index() as u8)
                .collect();
            let mut children = [None; 3];
            for (c, &sq) in children.iter_mut().zip(&legal) {
                *c = Some((sq, 2));
            }
            records.push(Record {
                key,
                kind: if records.is_empty() {
                    NodeKind::UnsolvedBranch
                } else {
                    NodeKind::UnsolvedLeaf
                },
                value: 2,
                depth: 10,
                deviation: Deviation::Move {
                    sq: legal[0],
                    value: -2,
                    depth: 8,
                },
                weight: DEFAULT_WEIGHT,
                games: 3,
                children,
            });
            board = board.apply(mv).unwrap();
        }
        let info = BookInfo {
            min_empties: 20,
            level: Consistency::Valued,
            search_depth: 10,
            solve_empties: 20,
            weighted: false,
            created: 1_700_000_000,
            description: "fuzz seed".into(),
        };
        let file = encode_book(&info, &records);
        // The same book in the patched layout: the header's first bytes, then the table.
        let mut patched = file[..super::BOOK_HEAD].to_vec();
        patched.extend_from_slice(&file[wedge_core::book::HEADER_SIZE..]);
        vec![("small.book".into(), file), ("patched.bin".into(), patched)]
    }

    fn weights() -> Files {
        let w = Weights {
            description: "seed".into(),
            created: 1_700_000_000,
            scale: 64,
            n_phases: 2,
            tables: vec![
                TableHeader {
                    kind: TableKind::Pattern,
                    squares: 2,
                    entries: 9,
                },
                TableHeader {
                    kind: TableKind::Scalar,
                    squares: 0,
                    entries: 3,
                },
            ],
            data: (0..24).map(|i| (i * 37 - 300) as i16).collect(),
        };
        vec![("tiny.wts".into(), w.to_bytes().unwrap())]
    }

    fn batch() -> Files {
        let games: Vec<GameRecord> = (1..3)
            .map(|seed| {
                let moves = full_game(seed);
                let opening = 6;
                let values = moves[opening..]
                    .iter()
                    .map(|m| {
                        if *m == Move::Pass {
                            i8::MIN
                        } else {
                            (m.square().unwrap().index() % 9) as i8 - 4
                        }
                    })
                    .collect();
                GameRecord {
                    result: final_result(&moves),
                    exact_from: moves.len() - 4,
                    opening,
                    start: if seed == 1 {
                        Start::Random
                    } else {
                        Start::Wthor
                    },
                    values,
                    moves,
                }
            })
            .collect();
        let header = BatchHeader {
            id: BatchId {
                run_seed: 99,
                index: 1,
            },
            weights_checksum: 1,
            probcut_checksum: 2,
            wthor_checksum: 3,
            settings: Settings::DEFAULT,
        };
        let one = Batch { header, games };
        let empty = Batch {
            header,
            games: Vec::new(),
        };
        vec![
            ("two.spd".into(), one.to_bytes()),
            ("empty.spd".into(), empty.to_bytes()),
        ]
    }

    fn labels() -> Files {
        let games = super::label_games();
        let solved = SolvedLabels::new(&games, 60, vec![vec![0, -3], vec![64]]);
        let none = SolvedLabels::new(&[], 20, Vec::new());
        vec![
            ("two.lbl".into(), solved.to_bytes()),
            ("empty.lbl".into(), none.to_bytes()),
        ]
    }

    /// Every binary target's seed files.
    pub fn binary_seeds() -> Vec<(&'static str, Files)> {
        vec![
            ("book", book()),
            ("weights", weights()),
            ("batch", batch()),
            ("labels", labels()),
        ]
    }
}
