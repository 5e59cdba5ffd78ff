//! Move tokens and move-list items: `F5`, `pass`, and NBoard/GGF items `F5/0.50/3.1`
//! (move, optional eval in discs from the mover's view, optional time in seconds).

use crate::board::{Move, Square};
use std::fmt;

/// An item's optional annotations.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct MoveNote {
    /// Evaluation in discs, from the point of view of the player who moved.
    pub eval: Option<f64>,
    /// Seconds spent on the move.
    pub time: Option<f64>,
}

impl MoveNote {
    pub fn is_empty(&self) -> bool {
        self.eval.is_none() && self.time.is_none()
    }
}

/// A move with its annotations, as in NBoard's `move` command and GGF `B[...]`/`W[...]`.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct MoveItem {
    pub mv: Move,
    pub note: MoveNote,
}

/// Why a move-list item did not parse; `column` is the 1-based character column in the item.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum MoveItemError {
    #[error("column {column}: {found:?} is not a move (expected a square a1-h8 or a pass)")]
    BadMove { column: usize, found: String },
    #[error("column {column}: {found:?} is not an evaluation (expected a finite number)")]
    BadEval { column: usize, found: String },
    #[error("column {column}: {found:?} is not a time (expected a finite number of seconds)")]
    BadTime { column: usize, found: String },
    #[error("column {column}: too many '/' parts (expected move[/eval[/time]])")]
    TooManyParts { column: usize },
}

/// Parses one move token: a square in any case, or a pass written `PA`, `PASS` (or any prefix of
/// it starting with `P`), `PS` (Edax), `--` or `@@`, in any case.
pub fn parse_move_token(token: &str) -> Option<Move> {
    if is_pass_token(token) {
        return Some(Move::Pass);
    }
    token.parse::<Square>().ok().map(Move::Play)
}

fn is_pass_token(token: &str) -> bool {
    let lower = token.to_ascii_lowercase();
    let spelled_pass = !lower.is_empty() && "pass".starts_with(lower.as_str());
    spelled_pass || lower == "ps" || lower == "--" || lower == "@@"
}

/// Parses a finite number (rejecting `inf` and `NaN`, which `f64::from_str` would accept).
pub(crate) fn parse_finite(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|x| x.is_finite())
}

/// Parses `move[/eval[/time]]`; blank parts mean "unknown".
pub fn parse_move_item(text: &str) -> Result<MoveItem, MoveItemError> {
    let mut parts = text.split('/');
    let move_text = parts.next().unwrap_or("");
    let eval_text = parts.next();
    let time_text = parts.next();
    let column_of = |part_index: usize| -> usize {
        // Character column of the start of the part: the parts before it plus their slashes.
        text.split('/')
            .take(part_index)
            .map(|p| p.chars().count() + 1)
            .sum::<usize>()
            + 1
    };
    if parts.next().is_some() {
        return Err(MoveItemError::TooManyParts {
            column: column_of(3),
        });
    }
    let mv = parse_move_token(move_text.trim()).ok_or_else(|| MoveItemError::BadMove {
        column: 1,
        found: move_text.to_string(),
    })?;
    let eval = parse_optional_number(eval_text).map_err(|found| MoveItemError::BadEval {
        column: column_of(1),
        found,
    })?;
    let time = parse_optional_number(time_text).map_err(|found| MoveItemError::BadTime {
        column: column_of(2),
        found,
    })?;
    Ok(MoveItem {
        mv,
        note: MoveNote { eval, time },
    })
}

/// `None` or blank gives `Ok(None)`; a finite number `Ok(Some)`; anything else `Err(text)`.
fn parse_optional_number(part: Option<&str>) -> Result<Option<f64>, String> {
    match part {
        None => Ok(None),
        Some(p) if p.trim().is_empty() => Ok(None),
        Some(p) => parse_finite(p).map(Some).ok_or_else(|| p.to_string()),
    }
}

/// A move in upper case (`F5`, `PA`), the NBoard/GGF convention.
pub(crate) fn format_move_upper(mv: Move) -> String {
    mv.to_string().to_ascii_uppercase()
}

/// Prints `F5`, `F5/0.5`, `F5//3.1` or `F5/0.5/3.1` (numbers in shortest round-trip form).
pub fn format_move_item(item: &MoveItem) -> String {
    let mut s = format_move_upper(item.mv);
    let MoveNote { eval, time } = item.note;
    if eval.is_some() || time.is_some() {
        s.push('/');
        if let Some(e) = eval {
            s.push_str(&e.to_string());
        }
    }
    if let Some(t) = time {
        s.push('/');
        s.push_str(&t.to_string());
    }
    s
}

impl fmt::Display for MoveItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_move_item(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(text: &str) -> MoveItem {
        parse_move_item(text).unwrap()
    }

    #[test]
    fn parses_all_item_shapes() {
        let f5 = Move::Play("f5".parse().unwrap());
        assert_eq!(item("F5").mv, f5);
        assert_eq!(item("f5/0.50").note.eval, Some(0.5));
        assert_eq!(
            item("F5//3.1").note,
            MoveNote {
                eval: None,
                time: Some(3.1)
            }
        );
        assert_eq!(
            item("d6/2.39/0.01").note,
            MoveNote {
                eval: Some(2.39),
                time: Some(0.01)
            }
        );
        assert_eq!(item("PA//3.107").mv, Move::Pass);
        assert_eq!(item("pass").mv, Move::Pass);
        assert_eq!(
            item("F5/-1.5/2.7680000000000002").note.time,
            Some(2.768_000_000_000_000_2)
        );
    }

    #[test]
    fn rejects_bad_items_with_columns() {
        assert!(matches!(
            parse_move_item("z9"),
            Err(MoveItemError::BadMove { column: 1, .. })
        ));
        assert!(matches!(
            parse_move_item("f5/x"),
            Err(MoveItemError::BadEval { column: 4, .. })
        ));
        assert!(matches!(
            parse_move_item("f5/1/inf"),
            Err(MoveItemError::BadTime { column: 6, .. })
        ));
        assert!(matches!(
            parse_move_item("f5/NaN"),
            Err(MoveItemError::BadEval { .. })
        ));
        assert!(matches!(
            parse_move_item("f5/1/2/3"),
            Err(MoveItemError::TooManyParts { column: 8 })
        ));
    }

    #[test]
    fn prints_and_round_trips() {
        for text in ["F5", "F5/0.5", "F5//3.1", "F5/-0.25/3", "PA//3.107"] {
            assert_eq!(format_move_item(&item(text)), text);
        }
        assert_eq!(parse_move_token("@@"), Some(Move::Pass));
        assert_eq!(parse_move_token("Ps"), Some(Move::Pass));
        assert_eq!(parse_move_token("p"), Some(Move::Pass));
        assert_eq!(parse_move_token(""), None);
        assert_eq!(parse_move_token("passs"), None);
    }
}
