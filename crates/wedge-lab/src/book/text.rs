//! The depth-first text book (Blokus Duo's probabilistic opening book adapted to Othello): a
//! human-editable repertoire of `ply weight move [value]` lines, its reader into the builder,
//! its writer from the builder, and atomic export/import.
//!
//! ```text
//! # comment
//! 1 1 f5
//! 2 0.5 d6 +0
//! 3 0 c3 -2
//! ```
//!
//! * `ply` is the depth from the standard start (Black to move), 1-based. Lines are in
//!   depth-first order: a line of ply `p` follows its parent, the latest line of ply `p - 1`
//!   (ply 1 hangs off the start). A line may go at most one ply deeper than the one before.
//! * `move` is a square (`f5`, any case) or a pass (`pa`, `pass`). A pass may also be left
//!   out: a square played where the side to move has none is played after the forced pass.
//!   A pass line stores nothing (its position is its parent's); its weight and value are
//!   ignored.
//! * `weight` in `[0, 1]` is the chance that the engine picks this move among its siblings;
//!   0 means it never does, but answers the move when an opponent plays it. It is kept in
//!   percent (rounded) as the weight of the position the move reaches.
//! * `value`, optional, is the disc difference (-64..=64) for the side that made the move.
//! * A blank line, or a line whose first non-blank character is `#`, is a comment; a field
//!   starting with `#` ends a line.
//!
//! A line with children (a next line one ply deeper) reaches a played position; a childless
//! line with a value reaches a leaf with that value (unless the position is already stored);
//! a childless line without a value reaches a played position still to be valued. Positions
//! are stored as the builder stores them: after a forced pass, none at the game's end, and
//! none with fewer empties than the book keeps (those lines are still checked and counted).
//! The start position is stored as played when some ply-1 line stores its position.

use std::collections::HashSet;
use std::io::{self, Write};
use std::path::Path;
use wedge_core::board::{Board, Move, Squares};
use wedge_core::book::NodeKind;
use wedge_core::book::{normalize, BookBuilder, Node, Successor};

/// Why a text book was refused. Every error about a line names it (1-based).
#[derive(Debug, thiserror::Error)]
pub enum TextError {
    #[error("line {line}: bad ply {text:?} (expected a whole number from 1 up)")]
    BadPly { line: usize, text: String },
    #[error(
        "line {line}: ply {ply} is more than one deeper than the line before it \
         (the deepest it can be here is {max})"
    )]
    PlyJump { line: usize, ply: usize, max: usize },
    #[error("line {line}: missing the {what} (a line is `ply weight move [value]`)")]
    Missing { line: usize, what: &'static str },
    #[error("line {line}: bad weight {text:?} (expected a probability from 0 to 1, e.g. 0.5)")]
    BadWeight { line: usize, text: String },
    #[error("line {line}: bad move {text:?} (expected a square like f5, or pa for a pass)")]
    BadMove { line: usize, text: String },
    #[error("line {line}: bad value {text:?} (expected a disc difference from -64 to +64)")]
    BadValue { line: usize, text: String },
    #[error("line {line}: unexpected {text:?} after the value (comments start with #)")]
    Extra { line: usize, text: String },
    #[error("line {line}: illegal move {mv}: {reason}")]
    Illegal {
        line: usize,
        mv: String,
        reason: String,
    },
    #[error("cannot read the text book {path}: {source}")]
    Io { path: String, source: io::Error },
}

impl TextError {
    /// The line the error is about, if any.
    pub fn line(&self) -> Option<usize> {
        match self {
            TextError::BadPly { line, .. }
            | TextError::PlyJump { line, .. }
            | TextError::Missing { line, .. }
            | TextError::BadWeight { line, .. }
            | TextError::BadMove { line, .. }
            | TextError::BadValue { line, .. }
            | TextError::Extra { line, .. }
            | TextError::Illegal { line, .. } => Some(*line),
            TextError::Io { .. } => None,
        }
    }
}

/// What reading a text book did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TextStats {
    /// Move lines read (comments and blank lines are not counted).
    pub lines: usize,
    /// Lines that reached a played position (stored, new or not).
    pub played: usize,
    /// Lines that stored a new leaf.
    pub leaves: usize,
    /// Positions that were not in the book before (the start included).
    pub new_positions: usize,
    /// Lines whose position has fewer empties than the book keeps: nothing stored.
    pub too_few: usize,
    /// Lines whose move ends the game: nothing stored.
    pub game_over: usize,
    /// Pass lines.
    pub passes: usize,
}

/// One move line.
struct Line {
    no: usize,
    ply: usize,
    weight: u8,
    mv: Move,
    value: Option<i32>,
}

fn parse_weight(line: usize, text: &str) -> Result<u8, TextError> {
    match text.parse::<f64>() {
        Ok(w) if (0.0..=1.0).contains(&w) => Ok((w * 100.0).round() as u8),
        _ => Err(TextError::BadWeight {
            line,
            text: text.to_string(),
        }),
    }
}

fn parse_value(line: usize, text: &str) -> Result<i32, TextError> {
    match text.parse::<i32>() {
        Ok(v) if (-64..=64).contains(&v) => Ok(v),
        _ => Err(TextError::BadValue {
            line,
            text: text.to_string(),
        }),
    }
}

/// Parses one line; `None` for a comment or a blank line.
fn parse_line(no: usize, text: &str) -> Result<Option<Line>, TextError> {
    let mut fields = text.split_whitespace().take_while(|f| !f.starts_with('#'));
    let Some(ply_text) = fields.next() else {
        return Ok(None);
    };
    let ply = match ply_text.parse::<usize>() {
        Ok(p) if p >= 1 => p,
        _ => {
            return Err(TextError::BadPly {
                line: no,
                text: ply_text.to_string(),
            })
        }
    };
    let missing = |what| TextError::Missing { line: no, what };
    let weight = parse_weight(no, fields.next().ok_or_else(|| missing("weight"))?)?;
    let mv_text = fields.next().ok_or_else(|| missing("move"))?;
    let mv = mv_text.parse::<Move>().map_err(|_| TextError::BadMove {
        line: no,
        text: mv_text.to_string(),
    })?;
    let value = fields.next().map(|v| parse_value(no, v)).transpose()?;
    if let Some(extra) = fields.next() {
        return Err(TextError::Extra {
            line: no,
            text: extra.to_string(),
        });
    }
    Ok(Some(Line {
        no,
        ply,
        weight,
        mv,
        value,
    }))
}

/// A change to the book, applied only once the whole text has been checked.
enum Action {
    Played(Board),
    Leaf(Board, i32),
    Weight(Board, u8),
}

fn illegal(line: &Line, reason: impl Into<String>) -> TextError {
    TextError::Illegal {
        line: line.no,
        mv: line.mv.to_string(),
        reason: reason.into(),
    }
}

/// Reads a text book into `book`. Nothing is changed unless the whole text is valid.
pub fn read_text(input: &str, book: &mut BookBuilder) -> Result<TextStats, TextError> {
    let mut lines = Vec::new();
    let mut previous_ply = 0;
    for (i, text) in input.lines().enumerate() {
        let Some(line) = parse_line(i + 1, text)? else {
            continue;
        };
        if line.ply > previous_ply + 1 {
            return Err(TextError::PlyJump {
                line: line.no,
                ply: line.ply,
                max: previous_ply + 1,
            });
        }
        previous_ply = line.ply;
        lines.push(line);
    }

    let mut stats = TextStats {
        lines: lines.len(),
        ..TextStats::default()
    };
    let mut actions = Vec::new();
    // The board after each line of the current branch (before any pass that follows it).
    let mut stack: Vec<Board> = Vec::new();
    let mut start_played = false;
    for (i, line) in lines.iter().enumerate() {
        stack.truncate(line.ply - 1);
        let parent = stack.last().copied().unwrap_or(Board::START);
        let has_children = lines.get(i + 1).is_some_and(|n| n.ply == line.ply + 1);
        if parent.is_game_over() {
            return Err(illegal(line, "the game is over"));
        }
        let after = match line.mv {
            Move::Pass => {
                if !parent.must_pass() {
                    return Err(illegal(
                        line,
                        "a pass is not allowed: the side to move has a legal move",
                    ));
                }
                stats.passes += 1;
                parent.pass()
            }
            Move::Play(sq) => {
                let mover = if parent.must_pass() {
                    parent.pass()
                } else {
                    parent
                };
                let child = mover
                    .play(sq)
                    .ok_or_else(|| illegal(line, format!("{sq} is not a legal move here")))?;
                match normalize(&child) {
                    None => stats.game_over += 1,
                    Some((pos, _)) if !book.keeps(&pos) => stats.too_few += 1,
                    Some((pos, passed)) => {
                        if line.ply == 1 {
                            start_played = true;
                        }
                        match line.value {
                            Some(v) if !has_children => {
                                // From the mover's view to the view of the side to move.
                                actions.push(Action::Leaf(pos, if passed { v } else { -v }));
                            }
                            _ => actions.push(Action::Played(pos)),
                        }
                        actions.push(Action::Weight(pos, line.weight));
                    }
                }
                child
            }
        };
        stack.push(after);
    }

    if start_played && book.keeps(&Board::START) {
        actions.insert(0, Action::Played(Board::START));
    }
    for action in actions {
        match action {
            Action::Played(pos) => {
                stats.played += (pos != Board::START) as usize;
                match book.node_of(&pos).copied() {
                    Some(mut n) => {
                        if !n.is_played() {
                            // A leaf that is now played: it needs its own best unplayed move.
                            // Its old value means nothing until the next sweep; dropping it
                            // makes the result independent of the order of the lines.
                            n.kind = NodeKind::UnsolvedBranch;
                            n.value = 0;
                            n.depth = 0;
                            book.insert(&pos, n);
                        }
                    }
                    None => {
                        book.insert(&pos, Node::played());
                        stats.new_positions += 1;
                    }
                }
            }
            Action::Leaf(pos, value) => {
                if book.node_of(&pos).is_none() {
                    book.insert(&pos, Node::leaf(value, 0, false));
                    stats.leaves += 1;
                    stats.new_positions += 1;
                }
            }
            Action::Weight(pos, weight) => book.set_weight(&pos, weight),
        }
    }
    Ok(stats)
}

/// A weight in percent as the shortest decimal probability: 1, 0.5, 0.25, 0.
fn weight_text(percent: u8) -> String {
    match percent.min(100) {
        100 => "1".to_string(),
        0 => "0".to_string(),
        w => format!("0.{w:02}").trim_end_matches('0').to_string(),
    }
}

/// True when some legal move of `board` leads to a stored position.
fn has_stored_successor(book: &BookBuilder, board: &Board) -> bool {
    Squares(board.legal_moves()).any(|sq| {
        matches!(book.successor(board, sq),
            Successor::Position { key, .. } if book.node(&key).is_some())
    })
}

/// Writes the lines below `board` (a stored position's real orientation, side to move has a
/// legal move) at `ply`.
fn walk(
    book: &BookBuilder,
    board: &Board,
    ply: usize,
    expanded: &mut HashSet<Board>,
    out: &mut impl Write,
) -> io::Result<()> {
    for sq in Squares(board.legal_moves()) {
        let Successor::Position { key, same_mover } = book.successor(board, sq) else {
            continue;
        };
        let Some(node) = book.node(&key) else {
            continue;
        };
        let child = board.play_flips(sq, board.flips(sq));
        let next = if same_mover { child.pass() } else { child };
        let expand = node.is_played() && expanded.insert(key);
        let children = expand && has_stored_successor(book, &next);
        write!(out, "{ply} {} {sq}", weight_text(node.weight))?;
        // A childless line with a value reads back as a leaf: a played position printed for
        // the first time without children lines goes without its value.
        if node.is_valued() && (children || !expand) {
            let v = if same_mover {
                node.value as i32
            } else {
                -(node.value as i32)
            };
            write!(out, " {v:+}")?;
        }
        writeln!(out)?;
        if children {
            if same_mover {
                writeln!(out, "{} 1 pa", ply + 1)?;
                walk(book, &next, ply + 2, expanded, out)?;
            } else {
                walk(book, &next, ply + 1, expanded, out)?;
            }
        }
    }
    Ok(())
}

/// Writes the book as depth-first lines from the start position: every move to a stored
/// position, in ascending square order; played positions are expanded once (a transposition
/// met again is printed as a line without its children).
pub fn write_text(book: &BookBuilder, out: &mut impl Write) -> io::Result<()> {
    let nodes = book.sorted_nodes();
    let played = nodes.iter().filter(|(_, n)| n.is_played()).count();
    writeln!(
        out,
        "# Wedge text book: min empties {}, {} positions ({} played, {} leaves)",
        book.info.min_empties,
        nodes.len(),
        played,
        nodes.len() - played
    )?;
    writeln!(
        out,
        "# ply weight move [value]: weight = chance the engine picks the move (0: never, \
         only answered); value = disc difference for the side that moved"
    )?;
    let mut expanded = HashSet::new();
    expanded.insert(Board::START.canonical().0);
    walk(book, &Board::START, 1, &mut expanded, out)
}

/// Writes the text book of `book` to `path` atomically.
pub fn export_text(book: &BookBuilder, path: &Path) -> io::Result<()> {
    let mut bytes = Vec::new();
    write_text(book, &mut bytes)?;
    wedge_core::paths::write_atomic(path, &bytes)
}

/// Reads the text book at `path` into `book`.
pub fn import_text(path: &Path, book: &mut BookBuilder) -> Result<TextStats, TextError> {
    let text = wedge_core::paths::read_text(path).map_err(|source| TextError::Io {
        path: path.display().to_string(),
        source,
    })?;
    read_text(&text, book)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wedge_core::rng::Rng;

    const REPERTOIRE: &str = "\
# a small repertoire
1 1 f5
2 0.5 d6 +0
3 1 c3 -2
4 1 d3
  5 1 c4 +1   # the tiger
3 0 c5 +3

2 0.5 F6
3 1 e6
4 0.25 f4 -1
4 0.75 d6
";

    fn board_after(moves: &str) -> Board {
        let mut b = Board::START;
        for m in moves.split_whitespace() {
            b = b.apply(m.parse().unwrap()).unwrap();
        }
        b
    }

    fn text_of(book: &BookBuilder) -> String {
        let mut out = Vec::new();
        write_text(book, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_repertoire_round_trips() {
        let text = REPERTOIRE;
        let mut b1 = BookBuilder::new(50);
        let stats = read_text(text, &mut b1).unwrap();
        assert_eq!(stats.lines, 10);
        assert_eq!(stats.too_few + stats.game_over + stats.passes, 0);
        // The start, 7 played positions (f5, f5d6, f5d6c3, f5d6c3d3, f5f6, f5f6e6 with
        // children; f5f6e6d6 without children or value) and 2 valued leaves (f5d6c3d3c4 and
        // f5d6c5). f5f6e6f4 is the mirror image of f5f6e6d6: stored as a leaf first, it
        // becomes played (and loses its value) when the d6 line marks it played.
        assert_eq!(b1.len(), 10, "{text}");
        assert_eq!(stats.new_positions, 10);
        assert_eq!(stats.played, 7);
        assert_eq!(stats.leaves, 3);

        // Weights and values, converted to the view of the side to move.
        let c5 = b1.node_of(&board_after("f5 d6 c5")).unwrap();
        assert_eq!(
            (c5.kind, c5.value, c5.weight),
            (NodeKind::UnsolvedLeaf, -3, 0)
        );
        let c4 = b1.node_of(&board_after("f5 d6 c3 d3 c4")).unwrap();
        assert_eq!(
            (c4.kind, c4.value, c4.weight),
            (NodeKind::UnsolvedLeaf, -1, 100)
        );
        let f4 = b1.node_of(&board_after("f5 f6 e6 f4")).unwrap();
        let d6 = b1.node_of(&board_after("f5 f6 e6 d6")).unwrap();
        assert_eq!(f4, d6);
        assert!(f4.is_played() && (f4.value, f4.weight) == (0, 75));
        let d6 = b1.node_of(&board_after("f5 d6")).unwrap();
        assert!(d6.is_played() && d6.weight == 50);
        assert!(b1.node_of(&board_after("f5 d6 c3 d3")).unwrap().is_played());
        assert!(b1.node_of(&Board::START).unwrap().is_played());

        let t1 = text_of(&b1);
        // The start's four moves are symmetric: the writer follows the lowest square, d3,
        // so f5 d6 c5 prints as d3 c3 d6, f5 f6 as d3 c5, and so on.
        for line in [
            "1 1 d3",
            "2 0.5 c3",
            "3 0 d6 +3",
            "2 0.5 c5",
            "5 1 e6 +1",
            "1 1 f5",
        ] {
            assert!(t1.lines().any(|l| l == line), "{line}:\n{t1}");
        }
        assert!(t1.contains("\n4 0.75 e3\n4 0.75 c5\n"), "{t1}");
        let mut b2 = BookBuilder::new(50);
        read_text(&t1, &mut b2).unwrap();
        assert_eq!(text_of(&b2), t1);
        assert_eq!(b1.records(), b2.records());

        // With more empties required, the deep lines are only counted.
        let mut b3 = BookBuilder::new(57);
        let stats = read_text(text, &mut b3).unwrap();
        assert_eq!(stats.too_few, 4);
        assert_eq!(b3.len(), 7);
    }

    #[test]
    fn games_and_a_swept_book_round_trip_through_text() {
        struct FakeValuer;
        impl wedge_core::book::Valuer for FakeValuer {
            fn best_of(
                &mut self,
                board: &Board,
                allowed: u64,
                exact: bool,
                _: &dyn wedge_core::book::BookLookup,
            ) -> Option<wedge_core::book::Valuation> {
                Some(wedge_core::book::Valuation {
                    sq: wedge_core::board::Square::first_of(allowed)?,
                    value: (board.hash() % 21) as i32 - 10,
                    depth: 4,
                    exact,
                })
            }
        }
        let mut rng = Rng::new(5);
        let mut book = BookBuilder::new(52);
        for _ in 0..20 {
            let mut b = Board::START;
            let mut moves = Vec::new();
            while let Some(mv) = b.random_move(&mut rng) {
                moves.push(mv);
                b = b.apply(mv).unwrap();
            }
            book.add_game(&moves).unwrap();
        }
        let start = Board::START.canonical().0;
        for (k, _) in book.sorted_nodes().into_iter().step_by(3) {
            // The start is reached by no line: its weight is not in the text.
            if k != start {
                book.set_weight(&k, 33);
            }
        }
        // Positions, played or not, weights, and the values of leaves come back.
        let summary = |b: &BookBuilder| -> Vec<(Board, bool, u8, Option<i8>)> {
            b.sorted_nodes()
                .into_iter()
                .map(|(k, n)| {
                    (
                        k,
                        n.is_played(),
                        n.weight,
                        (!n.is_played()).then_some(n.value),
                    )
                })
                .collect()
        };
        let t1 = text_of(&book);
        let mut b2 = BookBuilder::new(52);
        read_text(&t1, &mut b2).unwrap();
        assert_eq!(text_of(&b2), t1);
        assert_eq!(summary(&book), summary(&b2));

        book.sweep(Some(&|| FakeValuer), 1, &|_, _| {});
        let t1 = text_of(&book);
        let mut b2 = BookBuilder::new(52);
        read_text(&t1, &mut b2).unwrap();
        assert_eq!(summary(&book), summary(&b2));
        let t2 = text_of(&b2);
        let mut b3 = BookBuilder::new(52);
        read_text(&t2, &mut b3).unwrap();
        assert_eq!(text_of(&b3), t2);
        assert_eq!(b2.records(), b3.records());
    }

    /// A random game with a pass while at least `min` empties remain, if the seed gives one.
    fn game_with_pass(seed: u64) -> Option<Vec<Move>> {
        let mut rng = Rng::new(seed);
        let mut b = Board::START;
        let mut moves = Vec::new();
        let mut passed = false;
        while let Some(mv) = b.random_move(&mut rng) {
            passed |= mv == Move::Pass && b.empty_count() > 4;
            moves.push(mv);
            b = b.apply(mv).unwrap();
        }
        passed.then_some(moves)
    }

    #[test]
    fn passes_explicit_or_implicit_store_what_games_store() {
        let moves = (0..5000)
            .find_map(game_with_pass)
            .expect("a game with a pass");
        let explicit: String = moves
            .iter()
            .enumerate()
            .map(|(i, m)| format!("{} 1 {m}\n", i + 1))
            .collect();
        let implicit: String = moves
            .iter()
            .filter(|m| **m != Move::Pass)
            .enumerate()
            .map(|(i, m)| format!("{} 1 {m}\n", i + 1))
            .collect();
        let mut games = BookBuilder::new(0);
        games.add_game(&moves).unwrap();
        let keys = |b: &BookBuilder| -> Vec<(Board, bool)> {
            b.sorted_nodes()
                .into_iter()
                .map(|(k, n)| (k, n.is_played()))
                .collect()
        };
        for text in [&explicit, &implicit] {
            let mut b = BookBuilder::new(0);
            let stats = read_text(text, &mut b).unwrap();
            assert_eq!(stats.game_over, 1);
            assert_eq!(keys(&b), keys(&games));
            // The writer prints the pass and reads back the same.
            let t = text_of(&b);
            assert!(t.contains(" 1 pa\n"), "{t}");
            let mut b2 = BookBuilder::new(0);
            read_text(&t, &mut b2).unwrap();
            assert_eq!(b.records(), b2.records());
            assert_eq!(text_of(&b2), t);
        }

        // A valued leaf reached by a move after which the opponent passes: the value is the
        // mover's, who moves again.
        let i = (0..moves.len())
            .find(|&i| moves.get(i + 1) == Some(&Move::Pass))
            .unwrap();
        let mut text: String = moves[..i]
            .iter()
            .enumerate()
            .map(|(j, m)| format!("{} 1 {m}\n", j + 1))
            .collect();
        text.push_str(&format!("{} 1 {} +7\n", i + 1, moves[i]));
        let mut b = BookBuilder::new(0);
        read_text(&text, &mut b).unwrap();
        let mut board = Board::START;
        for m in &moves[..=i] {
            board = board.apply(*m).unwrap();
        }
        let (pos, passed) = normalize(&board).unwrap();
        assert!(passed);
        let n = b.node_of(&pos).unwrap();
        assert_eq!((n.kind, n.value), (NodeKind::UnsolvedLeaf, 7));
        // The writer may print the game in a symmetric orientation (it follows the first
        // of the symmetric moves from the start).
        let t = text_of(&b);
        let ply = format!("{} 1 ", i + 1);
        assert!(
            t.lines().any(|l| l.starts_with(&ply) && l.ends_with(" +7")),
            "{t}"
        );
    }

    #[test]
    fn bad_lines_are_refused_with_their_line_number() {
        let cases: &[(&str, usize)] = &[
            ("1 1 f5\n3 1 d6\n", 2),
            ("# start\n2 1 f5\n", 2),
            ("1 1 f5\n2 1 f4\n3 1 a1\n", 3),
            ("1 1 a1\n", 1),
            ("1 1 pa\n", 1),
            ("1 1.5 f5\n", 1),
            ("1 1 f5\n\n2 -1 d6\n", 3),
            ("1 abc f5\n", 1),
            ("1 nan f5\n", 1),
            ("1 1 f5 65\n", 1),
            ("1 1 f5 x\n", 1),
            ("1 1 f5 -65\n", 1),
            ("1 1 f9\n", 1),
            ("1 1 f5 +1 extra\n", 1),
            ("1 1\n", 1),
            ("1\n", 1),
            ("0 1 f5\n", 1),
            ("-1 1 f5\n", 1),
            ("x 1 f5\n", 1),
        ];
        for (text, line) in cases {
            let mut book = BookBuilder::new(50);
            let e = read_text(text, &mut book).unwrap_err();
            assert_eq!(e.line(), Some(*line), "{text:?}: {e}");
            assert!(e.to_string().starts_with(&format!("line {line}: ")), "{e}");
            assert!(book.is_empty(), "{text:?} changed the book");
        }
        let mut book = BookBuilder::new(50);
        let e = read_text("1 1 f5\n3 1 d6\n", &mut book).unwrap_err();
        assert!(
            matches!(
                e,
                TextError::PlyJump {
                    line: 2,
                    ply: 3,
                    max: 2
                }
            ),
            "{e}"
        );
        let e = read_text("1 1.5 f5\n", &mut book).unwrap_err();
        assert!(matches!(e, TextError::BadWeight { line: 1, .. }), "{e}");
        let e = read_text("1 1 f5\n2 1 f5\n", &mut book).unwrap_err();
        assert!(matches!(e, TextError::Illegal { line: 2, .. }), "{e}");
        let e = read_text("1 1 f5 65\n", &mut book).unwrap_err();
        assert!(matches!(e, TextError::BadValue { line: 1, .. }), "{e}");
        // Comments, blank lines and trailing comments are fine.
        let stats = read_text("# x\n\n   \n1 1 f5 # best\n  # y\n", &mut book).unwrap();
        assert_eq!(stats.lines, 1);
    }

    #[test]
    fn garbage_never_panics() {
        const TOKENS: &[&str] = &[
            "1",
            "2",
            "3",
            "0",
            "60",
            "99999999999999999999",
            "-1",
            "0.5",
            "1",
            "0",
            "1.0",
            "1e0",
            "inf",
            "NaN",
            "f5",
            "d6",
            "c3",
            "F4",
            "e6",
            "pa",
            "PASS",
            "--",
            "+0",
            "-64",
            "+65",
            "#",
            "#x",
            "é",
            "a",
            "\t",
            "  ",
            "f55",
            "ü1",
            "\u{0}",
            "\r",
        ];
        let mut rng = Rng::new(21);
        for _ in 0..3000 {
            let mut text = String::new();
            for _ in 0..rng.below(8) {
                for _ in 0..rng.below(6) {
                    text.push_str(TOKENS[rng.below(TOKENS.len() as u64) as usize]);
                    text.push(if rng.below(4) == 0 { '\t' } else { ' ' });
                }
                text.push('\n');
            }
            let mut book = BookBuilder::new(rng.below(61) as u8);
            let _ = read_text(&text, &mut book);
            let _ = text_of(&book);
        }
        for _ in 0..2000 {
            let bytes: Vec<u8> = (0..rng.below(64)).map(|_| rng.below(256) as u8).collect();
            let text = String::from_utf8_lossy(&bytes);
            let _ = read_text(&text, &mut BookBuilder::new(40));
        }
        // A game-ending line cannot have children.
        let mut book = BookBuilder::new(0);
        let mut b = Board::START;
        let mut text = String::new();
        let mut rng = Rng::new(2);
        let mut ply = 0;
        while let Some(mv) = b.random_move(&mut rng) {
            ply += 1;
            text.push_str(&format!("{ply} 1 {mv}\n"));
            b = b.apply(mv).unwrap();
        }
        let stats = read_text(&text, &mut book).unwrap();
        assert_eq!(stats.game_over, 1);
        text.push_str(&format!("{} 1 a1\n", ply + 1));
        let e = read_text(&text, &mut book).unwrap_err();
        assert!(e.to_string().contains("the game is over"), "{e}");
    }

    #[test]
    fn files_round_trip() {
        let mut book = BookBuilder::new(50);
        read_text(REPERTOIRE, &mut book).unwrap();
        let dir = std::env::temp_dir().join(format!("wedge-text-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.txt");
        export_text(&book, &path).unwrap();
        let mut back = BookBuilder::new(50);
        import_text(&path, &mut back).unwrap();
        assert_eq!(book.records(), back.records());
        let e = import_text(&dir.join("missing.txt"), &mut back).unwrap_err();
        assert!(
            matches!(e, TextError::Io { .. }) && e.line().is_none(),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
