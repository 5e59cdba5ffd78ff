//! Parsing console lines (nom) into typed commands: bwcore's command set plus a few
//! conveniences (`depth`, `stop`, a bare move such as `f5`).

use nom::bytes::complete::take_while1;
use nom::character::complete::{hex_digit1, space0, space1};
use nom::combinator::all_consuming;
use nom::multi::separated_list0;
use nom::sequence::{preceded, terminated};
use nom::IResult;
use wedge_core::board::{BadSquare, Move, Square};
use wedge_core::formats::{parse_position, parse_side, BoardStringError, Color, Position};

/// A board transform.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transform {
    /// `flipv`: rows 1 <-> 8.
    FlipVertical,
    /// `fliph`: columns a <-> h.
    FlipHorizontal,
    /// `rotatel`: a quarter turn anticlockwise.
    RotateLeft,
    /// `rotater`: a quarter turn clockwise.
    RotateRight,
}

/// A console command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConsoleCommand {
    Print,
    PrintHex,
    Play(Move),
    Undo,
    Eval,
    Think,
    EnginePlays,
    Tree(u32),
    Count,
    Reset,
    Board(Position),
    Transform(Transform),
    /// `cswap`: every disc changes colour; the same colour is to move.
    SwapColors,
    /// `col`: show the side to move, `col X|O` sets it (the discs stay).
    Col(Option<Color>),
    Save(String),
    Load(String),
    Depth(u32),
    /// `stop`: end the running search (only meaningful while one runs).
    Stop,
    Help,
    Quit,
    Empty,
}

/// Why a console line is not a command; the message says what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConsoleParseError {
    #[error("unreadable line")]
    Unreadable,
    #[error("unknown command {0:?}; type `help`")]
    Unknown(String),
    #[error("`{0}` takes no argument")]
    NoArgument(String),
    /// The arguments do not fit the command: the form it takes.
    #[error("usage: {0}")]
    Usage(String),
    #[error("{command} must be 1..=60, not {value:?}")]
    Depth {
        command: &'static str,
        value: String,
    },
    #[error("usage: col [X|O], not {0:?}")]
    ColSide(String),
    #[error("bad side {0:?}")]
    BoardSide(String),
    #[error("the two bitboards overlap")]
    Overlap,
    #[error("usage: board <64 squares> <X|O> | board <hex> <hex> [X|O]: {0}")]
    Board(#[from] BoardStringError),
    #[error(transparent)]
    Square(#[from] BadSquare),
    #[error("coordinates are 1..8")]
    Coordinates,
}

/// The usage of `move`.
const MOVE_USAGE: &str = "move f5 | move X Y (1..8)";

fn word(input: &str) -> IResult<&str, &str> {
    take_while1(|c: char| !c.is_whitespace())(input)
}

fn words(input: &str) -> IResult<&str, Vec<&str>> {
    all_consuming(preceded(
        space0,
        terminated(separated_list0(space1, word), space0),
    ))(input)
}

/// A 64-bit hex bitboard with an optional `0x`.
fn hex_board(text: &str) -> Option<u64> {
    let t = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    let ok: IResult<&str, &str> = all_consuming(hex_digit1)(t);
    ok.ok()
        .filter(|(_, d)| d.len() <= 16)
        .and_then(|(_, d)| u64::from_str_radix(d, 16).ok())
}

/// Parses one line; the error says what was expected.
pub fn parse_console_line(line: &str) -> Result<ConsoleCommand, ConsoleParseError> {
    let cleaned: String = line
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let Ok((_, w)) = words(&cleaned) else {
        return Err(ConsoleParseError::Unreadable);
    };
    let Some((cmd, rest)) = w.split_first() else {
        return Ok(ConsoleCommand::Empty);
    };
    let cmd = cmd.to_ascii_lowercase();
    let none = |c: ConsoleCommand| {
        if rest.is_empty() {
            Ok(c)
        } else {
            Err(ConsoleParseError::NoArgument(cmd.clone()))
        }
    };
    let depth_arg = |command: &'static str| match rest {
        [d] => d
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=60).contains(d))
            .ok_or_else(|| ConsoleParseError::Depth {
                command,
                value: d.to_string(),
            }),
        _ => Err(ConsoleParseError::Usage(format!("{command} N"))),
    };
    match cmd.as_str() {
        "print" | "p" => none(ConsoleCommand::Print),
        "printhex" => none(ConsoleCommand::PrintHex),
        "undo" | "u" => none(ConsoleCommand::Undo),
        "eval" => none(ConsoleCommand::Eval),
        "think" | "hint" => none(ConsoleCommand::Think),
        "play" | "go" => none(ConsoleCommand::EnginePlays),
        "tree" => depth_arg("tree").map(ConsoleCommand::Tree),
        "reset" | "new" => none(ConsoleCommand::Reset),
        "count" => none(ConsoleCommand::Count),
        "flipv" => none(ConsoleCommand::Transform(Transform::FlipVertical)),
        "fliph" => none(ConsoleCommand::Transform(Transform::FlipHorizontal)),
        "rotatel" => none(ConsoleCommand::Transform(Transform::RotateLeft)),
        "rotater" => none(ConsoleCommand::Transform(Transform::RotateRight)),
        "cswap" => none(ConsoleCommand::SwapColors),
        "col" => match rest {
            [] => Ok(ConsoleCommand::Col(None)),
            [s] => parse_side(s)
                .map(|c| ConsoleCommand::Col(Some(c)))
                .ok_or_else(|| ConsoleParseError::ColSide(s.to_string())),
            _ => Err(ConsoleParseError::Usage("col [X|O]".into())),
        },
        "save" | "load" => match rest {
            [f] if cmd == "save" => Ok(ConsoleCommand::Save(f.to_string())),
            [f] => Ok(ConsoleCommand::Load(f.to_string())),
            _ => Err(ConsoleParseError::Usage(format!("{cmd} <file.ggf>"))),
        },
        "depth" => depth_arg("depth").map(ConsoleCommand::Depth),
        "stop" => none(ConsoleCommand::Stop),
        "help" | "?" => none(ConsoleCommand::Help),
        "quit" | "exit" | "q" => none(ConsoleCommand::Quit),
        "move" | "m" => parse_move_args(rest).map(ConsoleCommand::Play),
        "board" => parse_board_args(rest).map(ConsoleCommand::Board),
        // A bare square or pass is a move too.
        _ if rest.is_empty() => cmd
            .parse::<Move>()
            .map(ConsoleCommand::Play)
            .map_err(|_| ConsoleParseError::Unknown(cmd)),
        _ => Err(ConsoleParseError::Unknown(cmd)),
    }
}

/// `board <64 squares> <X|O>` (squares may be split by spaces) or `board <hex> <hex> [X|O]`:
/// the side to move's discs, then the opponent's (as `printhex` shows them), Black to move
/// unless a side is given.
fn parse_board_args(args: &[&str]) -> Result<Position, ConsoleParseError> {
    if let [a, b, side @ ..] = args {
        if let (Some(p), Some(o)) = (hex_board(a), hex_board(b)) {
            let to_move = match side {
                [] => Color::Black,
                [s] => parse_side(s).ok_or_else(|| ConsoleParseError::BoardSide(s.to_string()))?,
                _ => return Err(ConsoleParseError::Usage("board <hex> <hex> [X|O]".into())),
            };
            if p & o != 0 {
                return Err(ConsoleParseError::Overlap);
            }
            let board = wedge_core::board::Board::new(p, o);
            return Ok(Position { board, to_move });
        }
    }
    Ok(parse_position(&args.join(" "))?)
}

/// `f5`, `pass`, or `x y` with columns and rows counted from 1 (bwcore's form).
fn parse_move_args(args: &[&str]) -> Result<Move, ConsoleParseError> {
    let usage = || ConsoleParseError::Usage(MOVE_USAGE.into());
    match args {
        [m] => Ok(m.parse::<Move>()?),
        [x, y] => {
            let (Ok(x), Ok(y)) = (x.parse::<u8>(), y.parse::<u8>()) else {
                return Err(usage());
            };
            Square::from_coords(x.wrapping_sub(1), y.wrapping_sub(1))
                .map(Move::Play)
                .ok_or(ConsoleParseError::Coordinates)
        }
        _ => Err(usage()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands_and_rejects_junk() {
        use ConsoleCommand::*;
        let f5 = Move::Play("f5".parse().unwrap());
        assert_eq!(parse_console_line("move f5"), Ok(Play(f5)));
        assert_eq!(parse_console_line("  F5 "), Ok(Play(f5)));
        assert_eq!(parse_console_line("move 6 5"), Ok(Play(f5)));
        assert_eq!(parse_console_line("pass"), Ok(Play(Move::Pass)));
        assert_eq!(parse_console_line(""), Ok(Empty));
        assert_eq!(parse_console_line("depth 8"), Ok(Depth(8)));
        assert_eq!(parse_console_line("tree 3"), Ok(Tree(3)));
        assert_eq!(parse_console_line("col o"), Ok(Col(Some(Color::White))));
        assert_eq!(
            parse_console_line("board 0000000810000000 0000001008000000"),
            Ok(Board(Position::START))
        );
        assert!(parse_console_line("board 1 1").is_err());
        assert!(parse_console_line("depth 0").is_err());
        assert!(parse_console_line("move 9 9").is_err());
        assert!(parse_console_line("fly away").is_err());
        assert!(parse_console_line("print now").is_err());
        assert!(parse_console_line("board xyz").is_err());
        assert!(parse_console_line("save").is_err());
    }
}
