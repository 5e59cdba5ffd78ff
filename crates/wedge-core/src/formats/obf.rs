//! OBF lines (Edax "Othello Board File", the FFO suites): `board side; MOVE:+score; …`.
//!
//! A line is `;`-terminated fields: the board string (any alphabet [`parse_position`] accepts),
//! then `MOVE:SCORE` fields (exact final disc differences for the side to move, best first), or a
//! single bare `SCORE` field. `%` starts a comment; blank lines are skipped at file level. Listed
//! moves must be legal in the position. Printing gives the suites' own layout
//! (`… X; G8:+18; H1:+12;`), so a suite line prints back byte for byte.

use super::board_string::{parse_position, BoardStringErrorKind};
use super::error::{char_column, Excerpt};
use super::game::{play_checked, IllegalReason};
use super::move_item::{format_move_upper, parse_move_token};
use super::Position;
use crate::board::Move;
use std::fmt;

/// One OBF position with its scored moves.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ObfEntry {
    pub position: Position,
    /// `(move, exact final disc difference for the side to move)`, in file order (best first).
    pub moves: Vec<(Move, i32)>,
    /// A bare `SCORE` field (the best score, for lines that list no moves).
    pub score: Option<i32>,
}

impl ObfEntry {
    /// The best score: the bare score if given, else the first move's.
    pub fn best_score(&self) -> Option<i32> {
        self.score.or_else(|| self.moves.first().map(|&(_, s)| s))
    }
}

/// What is wrong with an OBF line.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum ObfErrorKind {
    #[error("the line holds no position")]
    Empty,
    #[error("{0}")]
    Board(BoardStringErrorKind),
    #[error("{found} is not a field (expected MOVE:SCORE or SCORE)")]
    BadField { found: Excerpt },
    #[error("{found} is not a move")]
    BadMove { found: Excerpt },
    #[error("{found} is not a score (expected a whole number of discs in -64..=64)")]
    BadScore { found: Excerpt },
    #[error("a second bare score field")]
    DuplicateScore,
    #[error("{mv} is illegal in this position: {reason}")]
    IllegalMove { mv: Move, reason: IllegalReason },
}

/// An OBF error: 1-based line (1 for [`parse_obf_line`]) and character column.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("OBF line {line}, column {column}: {kind}")]
pub struct ObfError {
    pub line: usize,
    pub column: usize,
    pub kind: ObfErrorKind,
}

/// The text before a `%` comment.
fn strip_comment(line: &str) -> &str {
    line.split('%').next().unwrap_or("")
}

/// Parses one OBF line (a trailing `%` comment is allowed).
pub fn parse_obf_line(line: &str) -> Result<ObfEntry, ObfError> {
    let content = strip_comment(line);
    let error_at = |offset: usize, kind: ObfErrorKind| ObfError {
        line: 1,
        column: char_column(line, offset),
        kind,
    };
    if content.trim().is_empty() {
        return Err(error_at(0, ObfErrorKind::Empty));
    }
    let mut fields = field_spans(content);
    let (board_start, board_text) = fields.next().unwrap_or((0, content));
    let position = parse_position(board_text).map_err(|e| ObfError {
        line: 1,
        column: char_column(line, board_start) + e.column - 1,
        kind: ObfErrorKind::Board(e.kind),
    })?;
    let mut entry = ObfEntry {
        position,
        moves: Vec::new(),
        score: None,
    };
    for (start, field) in fields {
        let trimmed = field.trim();
        if trimmed.is_empty() {
            continue;
        }
        let at = start + (field.len() - field.trim_start().len());
        add_field(&mut entry, trimmed).map_err(|(delta, kind)| error_at(at + delta, kind))?;
    }
    Ok(entry)
}

/// The `;`-separated fields of a line with their byte offsets.
fn field_spans(content: &str) -> impl Iterator<Item = (usize, &str)> {
    content.split(';').scan(0usize, |offset, field| {
        let start = *offset;
        *offset += field.len() + 1;
        Some((start, field))
    })
}

/// Adds one trimmed field; on error returns the byte offset within the field and the reason.
fn add_field(entry: &mut ObfEntry, field: &str) -> Result<(), (usize, ObfErrorKind)> {
    match field.split_once(':') {
        Some((move_text, score_text)) => {
            let mv = parse_move_token(move_text.trim()).ok_or((
                0,
                ObfErrorKind::BadMove {
                    found: Excerpt::of(move_text),
                },
            ))?;
            play_checked(&entry.position, mv)
                .map_err(|reason| (0, ObfErrorKind::IllegalMove { mv, reason }))?;
            let score = parse_score(score_text).ok_or((
                move_text.len() + 1,
                ObfErrorKind::BadScore {
                    found: Excerpt::of(score_text),
                },
            ))?;
            entry.moves.push((mv, score));
            Ok(())
        }
        None => {
            let score = parse_score(field).ok_or_else(|| {
                let kind = if parse_move_token(field).is_some() {
                    ObfErrorKind::BadField {
                        found: Excerpt::of(field),
                    }
                } else {
                    ObfErrorKind::BadScore {
                        found: Excerpt::of(field),
                    }
                };
                (0, kind)
            })?;
            if entry.score.replace(score).is_some() {
                return Err((0, ObfErrorKind::DuplicateScore));
            }
            Ok(())
        }
    }
}

/// A disc difference `+38`, `-4`, `0`, within -64..=64.
fn parse_score(text: &str) -> Option<i32> {
    text.trim()
        .parse::<i32>()
        .ok()
        .filter(|s| (-64..=64).contains(s))
}

/// Parses a whole OBF file: one position a line, `%` comments and blank lines skipped. Stops at
/// the first bad line, whose 1-based number is in the error.
pub fn parse_obf_file(text: &str) -> Result<Vec<ObfEntry>, ObfError> {
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if strip_comment(line).trim().is_empty() {
            continue;
        }
        let entry = parse_obf_line(line).map_err(|e| ObfError {
            line: index + 1,
            ..e
        })?;
        entries.push(entry);
    }
    Ok(entries)
}

/// Prints an entry in the suites' layout: `board X; G8:+18; H1:+12;` (a bare score as ` +12;`).
pub fn format_obf_line(entry: &ObfEntry) -> String {
    let mut s = entry.position.to_string();
    s.push(';');
    for &(mv, score) in &entry.moves {
        s.push_str(&format!(" {}:{:+};", format_move_upper(mv), score));
    }
    if let Some(score) = entry.score {
        s.push_str(&format!(" {score:+};"));
    }
    s
}

impl fmt::Display for ObfEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_obf_line(self))
    }
}

impl std::str::FromStr for ObfEntry {
    type Err = ObfError;

    fn from_str(s: &str) -> Result<ObfEntry, ObfError> {
        parse_obf_line(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::Color;

    /// FFO #1, the first line of `fforum-1-19.obf`.
    const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn parses_ffo_1() {
        let e = parse_obf_line(FFO_1).unwrap();
        assert_eq!(e.position.to_move, Color::Black);
        assert_eq!(e.position.board.empty_count(), 14);
        assert_eq!(e.moves.len(), 8);
        assert_eq!(e.moves[0], (mv("g8"), 18));
        assert_eq!(e.moves[7], (mv("g2"), -24));
        assert_eq!(e.best_score(), Some(18));
        assert_eq!(format_obf_line(&e), FFO_1);
    }

    #[test]
    fn files_skip_comments_and_blank_lines() {
        let text = format!("% FFO suite\n\n{FFO_1}  % number 1\r\n   \n{FFO_1}\n");
        let entries = parse_obf_file(&text).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0], entries[1]);
    }

    #[test]
    fn bare_score_and_empty_move_list() {
        let line = "---------------------------OX------XO--------------------------- X; +0;";
        let e = parse_obf_line(line).unwrap();
        assert_eq!((e.moves.len(), e.score), (0, Some(0)));
        assert_eq!(format_obf_line(&e), line);
        let e = parse_obf_line(&line[..66]).unwrap();
        assert_eq!(e.score, None);
    }

    #[test]
    fn errors_give_line_and_column() {
        let bad_score = FFO_1.replace("H1:+12", "H1:+x2");
        let e = parse_obf_file(&format!("\n{bad_score}")).unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(e.column, FFO_1.find("H1").unwrap() + 4);
        assert!(matches!(e.kind, ObfErrorKind::BadScore { .. }));

        let illegal = FFO_1.replace("G8:", "A1:");
        let e = parse_obf_line(&illegal).unwrap_err();
        assert_eq!(e.column, 69);
        assert!(matches!(e.kind, ObfErrorKind::IllegalMove { .. }));

        let bad_cell = FFO_1.replacen('X', "?", 1);
        let e = parse_obf_line(&bad_cell).unwrap_err();
        assert_eq!(e.column, 3);

        let e = parse_obf_line("% only a comment").unwrap_err();
        assert_eq!(e.kind, ObfErrorKind::Empty);
        let e = parse_obf_line(&FFO_1.replace("A4:-22", "A4:-99")).unwrap_err();
        assert!(matches!(e.kind, ObfErrorKind::BadScore { .. }));
        let e = parse_obf_line(&FFO_1.replace("A4:-22", "-2; +3")).unwrap_err();
        assert_eq!(e.kind, ObfErrorKind::DuplicateScore);
    }
}
