//! Parsing NBoard v2 command lines (nom) into typed commands. Command words are matched
//! case-insensitively; `set game` carries a whole GGF record, parsed and replayed here so a bad
//! one is rejected before any state changes.

use nom::bytes::complete::take_while1;
use nom::character::complete::{i64 as int64, space0, u32 as uint32};
use nom::combinator::all_consuming;
use nom::number::complete::double;
use nom::sequence::{preceded, terminated};
use nom::IResult;
use wedge_core::formats::{parse_ggf, parse_move_item, GgfGame, MoveItem};

/// One NBoard command.
#[derive(Clone, Debug, PartialEq)]
pub enum NboardCommand {
    /// `nboard {version}`.
    Nboard(u32),
    /// `set depth {n}`: the midgame depth.
    SetDepth(u32),
    /// `set game {ggf}`.
    SetGame(Box<GgfGame>),
    /// `set contempt {c}`: book draw value from Black's view (-100..100).
    SetContempt(f64),
    /// `move {mli}` or a bare v1 move `F5`.
    Move(MoveItem),
    /// `hint {n}`.
    Hint(u32),
    Go,
    /// `ping {n}`.
    Ping(i64),
    Learn,
    Analyze,
    Quit,
    /// `clear` (Novello's tournament wrapper): forget the hash table.
    Clear,
    /// A known command Wedge ignores on purpose (`new`, `remove_tree`, `draw_tree`, other
    /// `set` variables).
    Ignored(String),
    /// An empty line.
    Empty,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NboardParseError {
    #[error("unknown command {0:?}")]
    Unknown(String),
    #[error("{command}: {reason}")]
    Malformed {
        command: &'static str,
        reason: String,
    },
}

fn malformed(command: &'static str, reason: impl Into<String>) -> NboardParseError {
    NboardParseError::Malformed {
        command,
        reason: reason.into(),
    }
}

/// The command word.
fn word(input: &str) -> IResult<&str, &str> {
    preceded(space0, take_while1(|c: char| !c.is_whitespace()))(input)
}

/// A whole-line unsigned integer argument (surrounding blanks allowed).
fn only_u32(input: &str) -> Option<u32> {
    let r: IResult<&str, u32> = all_consuming(terminated(preceded(space0, uint32), space0))(input);
    r.ok().map(|(_, n)| n)
}

fn only_i64(input: &str) -> Option<i64> {
    let r: IResult<&str, i64> = all_consuming(terminated(preceded(space0, int64), space0))(input);
    r.ok().map(|(_, n)| n)
}

fn only_number(input: &str) -> Option<f64> {
    let r: IResult<&str, f64> = all_consuming(terminated(preceded(space0, double), space0))(input);
    r.ok().map(|(_, x)| x).filter(|x| x.is_finite())
}

/// Parses one NBoard line.
pub fn parse_nboard_line(line: &str) -> Result<NboardCommand, NboardParseError> {
    let Ok((rest, cmd)) = word(line) else {
        return Ok(NboardCommand::Empty);
    };
    let lower = cmd.to_ascii_lowercase();
    let no_args = |c: NboardCommand| {
        if rest.trim().is_empty() {
            Ok(c)
        } else {
            Err(malformed(static_name(&lower), "takes no argument"))
        }
    };
    match lower.as_str() {
        "nboard" => only_u32(rest)
            .map(NboardCommand::Nboard)
            .ok_or_else(|| malformed("nboard", "expected a version number")),
        "set" => parse_set(rest),
        "move" => parse_move(rest.trim()).map(NboardCommand::Move),
        "hint" => only_u32(rest)
            .filter(|&n| n >= 1)
            .map(NboardCommand::Hint)
            .ok_or_else(|| malformed("hint", "expected a number of moves >= 1")),
        "ping" => only_i64(rest)
            .map(NboardCommand::Ping)
            .ok_or_else(|| malformed("ping", "expected an integer")),
        "go" => no_args(NboardCommand::Go),
        "learn" => no_args(NboardCommand::Learn),
        "analyze" => no_args(NboardCommand::Analyze),
        "quit" => Ok(NboardCommand::Quit),
        "clear" => no_args(NboardCommand::Clear),
        "new" | "remove_tree" | "draw_tree" => Ok(NboardCommand::Ignored(lower)),
        // Protocol v1: a bare move such as `F5` (NTest takes any two-character word).
        _ if rest.trim().is_empty() && cmd.len() == 2 => parse_move(cmd)
            .map(NboardCommand::Move)
            .map_err(|_| NboardParseError::Unknown(cmd.to_string())),
        _ => Err(NboardParseError::Unknown(cmd.to_string())),
    }
}

fn static_name(lower: &str) -> &'static str {
    match lower {
        "go" => "go",
        "learn" => "learn",
        "analyze" => "analyze",
        "clear" => "clear",
        _ => "command",
    }
}

fn parse_set(rest: &str) -> Result<NboardCommand, NboardParseError> {
    let Ok((value, variable)) = word(rest) else {
        return Err(malformed("set", "expected a variable and a value"));
    };
    match variable.trim().to_ascii_lowercase().as_str() {
        "depth" => only_u32(value)
            .filter(|d| (1..=60).contains(d))
            .map(NboardCommand::SetDepth)
            .ok_or_else(|| malformed("set depth", "expected a depth 1..=60")),
        "game" => parse_ggf(value.trim())
            .map(|g| NboardCommand::SetGame(Box::new(g)))
            .map_err(|e| malformed("set game", e.to_string())),
        "contempt" => only_number(value)
            .map(NboardCommand::SetContempt)
            .ok_or_else(|| malformed("set contempt", "expected a number")),
        other => Ok(NboardCommand::Ignored(format!("set {other}"))),
    }
}

/// `F5`, `F5/0.5/1.2`, `F5//1.2`, or Edax's space-separated `d6 -1.00 0.0`.
fn parse_move(text: &str) -> Result<MoveItem, NboardParseError> {
    if text.is_empty() {
        return Err(malformed("move", "expected a move"));
    }
    let parts: Vec<&str> = text.split_whitespace().collect();
    let joined = if parts.len() > 1 && !text.contains('/') {
        parts.join("/")
    } else {
        text.to_string()
    };
    parse_move_item(&joined).map_err(|e| malformed("move", e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wedge_core::board::Move as BoardMove;

    #[test]
    fn parses_every_command() {
        use NboardCommand::*;
        assert_eq!(parse_nboard_line("nboard 2"), Ok(Nboard(2)));
        assert_eq!(parse_nboard_line("set depth 12"), Ok(SetDepth(12)));
        assert_eq!(parse_nboard_line("SET DEPTH 3"), Ok(SetDepth(3)));
        assert_eq!(
            parse_nboard_line("set contempt -100"),
            Ok(SetContempt(-100.0))
        );
        assert_eq!(parse_nboard_line("ping 7"), Ok(Ping(7)));
        assert_eq!(parse_nboard_line("hint 4"), Ok(Hint(4)));
        assert_eq!(parse_nboard_line("go"), Ok(Go));
        assert_eq!(parse_nboard_line("  "), Ok(Empty));
        let f5 = BoardMove::Play("f5".parse().unwrap());
        for text in [
            "move F5",
            "move f5//1.2",
            "move F5/0.50/3.1",
            "move f5 0.5 3",
            "F5",
        ] {
            match parse_nboard_line(text) {
                Ok(Move(item)) => assert_eq!(item.mv, f5, "{text}"),
                other => panic!("{text}: {other:?}"),
            }
        }
        assert!(matches!(parse_nboard_line("move PA"), Ok(Move(_))));
        let game = "set game (;GM[Othello]PC[NBoard]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6];)";
        assert!(matches!(parse_nboard_line(game), Ok(SetGame(_))));
        assert_eq!(
            parse_nboard_line("set name x"),
            Ok(Ignored("set name".into()))
        );
    }

    #[test]
    fn rejects_malformed_lines() {
        for bad in [
            "nboard",
            "ping",
            "ping x",
            "hint 0",
            "hint -1",
            "set depth 0",
            "set depth",
            "set",
            "set game (;GM[Othello]B[A1];)",
            "move",
            "move z9",
            "go now",
            "frobnicate",
            "Z9",
        ] {
            assert!(parse_nboard_line(bad).is_err(), "{bad}");
        }
    }
}
