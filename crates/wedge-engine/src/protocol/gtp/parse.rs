//! Parsing GTP v2 lines (nom): the pre-processing of the spec (control characters dropped,
//! tabs to spaces, `#` comments cut), the optional numeric id, then one typed command. Colours
//! and vertices are case-insensitive; `pass`, `PASS` and `PA` are passes; row 1 is the top row.

use nom::bytes::complete::take_while1;
use nom::character::complete::{digit1, space0, space1};
use nom::combinator::{all_consuming, map_res, opt};
use nom::multi::separated_list0;
use nom::number::complete::double;
use nom::sequence::{preceded, terminated};
use nom::IResult;
use wedge_core::board::Move;
use wedge_core::formats::{parse_move_token, Color};

/// A GTP command.
#[derive(Clone, Debug, PartialEq)]
pub enum GtpCommand {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Quit,
    BoardSize(u32),
    ClearBoard,
    Komi(f64),
    Play(Color, Move),
    Genmove(Color),
    /// Like `genmove` but the move is not played.
    RegGenmove(Color),
    Undo,
    ShowBoard,
    FinalScore,
    /// `time_settings`, or `kgs-time_settings` in those terms.
    TimeSettings {
        main: u32,
        byo_time: u32,
        byo_stones: u32,
        /// Japanese byo-yomi (KGS's `byoyomi`): `byo_stones` periods of `byo_time` each, one
        /// move per period, instead of Canadian byo-yomi's `byo_stones` moves in `byo_time`.
        periods: bool,
    },
    TimeLeft {
        color: Color,
        seconds: u32,
        stones: u32,
    },
    ListGames,
    SetGame(String),
    RulesGameId,
    RulesBoardSize,
    RulesBoard,
    RulesLegalMoves,
    RulesSideToMove,
    RulesFinalResult,
    AnalyzeCommands,
    /// `wedge-analyze [depth N]`: streaming analysis until the depth or the next command.
    Analyze {
        depth: Option<u32>,
    },
    /// `wedge-depth N`: the midgame depth of `genmove` when no clock limits it.
    Depth(u32),
    /// `gogui-interrupt`: nothing to interrupt once it is handled.
    Interrupt,
}

/// Every command name, in `list_commands` order.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "kgs-time_settings",
    "time_left",
    "list_games",
    "set_game",
    "gogui-rules_game_id",
    "gogui-rules_board_size",
    "gogui-rules_board",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
    "gogui-rules_final_result",
    "gogui-analyze_commands",
    "gogui-interrupt",
    "wedge-analyze",
    "wedge-depth",
];

/// A pre-processed line: the id (if any) and the command or the error for it.
#[derive(Clone, Debug, PartialEq)]
pub struct GtpLine {
    pub id: Option<u32>,
    pub command: Result<GtpCommand, GtpParseError>,
}

/// Why a command did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GtpParseError {
    #[error("unknown command")]
    Unknown,
    #[error("syntax error: {0}")]
    Syntax(String),
    #[error("syntax error: bad id")]
    BadId,
}

/// The spec's pre-processing: tabs become spaces, other control characters go, `#` starts a
/// comment. Returns `None` for a line that is then empty.
pub fn preprocess(line: &str) -> Option<String> {
    let cut = line.split('#').next().unwrap_or("");
    let cleaned: String = cut
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let trimmed = cleaned.trim();
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

fn token(input: &str) -> IResult<&str, &str> {
    take_while1(|c: char| c != ' ')(input)
}

fn id(input: &str) -> IResult<&str, u32> {
    terminated(map_res(digit1, |d: &str| d.parse::<u32>()), space1)(input)
}

/// The arguments after the command name, split on spaces.
fn args(input: &str) -> IResult<&str, Vec<&str>> {
    all_consuming(preceded(
        space0,
        terminated(separated_list0(space1, token), space0),
    ))(input)
}

/// Parses one raw line; `None` when it is empty after pre-processing.
pub fn parse_gtp_line(line: &str) -> Option<GtpLine> {
    let text = preprocess(line)?;
    let (rest, id) = match opt(id)(text.as_str()) {
        Ok((rest, id)) => (rest, id),
        Err(_) => (text.as_str(), None),
    };
    // A line that is only a number, or a number too big for an id.
    if id.is_none() && text.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
        return Some(GtpLine {
            id: None,
            command: Err(GtpParseError::BadId),
        });
    }
    let (rest, name) = match token(rest) {
        Ok(x) => x,
        Err(_) => {
            return Some(GtpLine {
                id,
                command: Err(GtpParseError::Unknown),
            })
        }
    };
    let command = match args(rest) {
        Ok((_, a)) => command(&name.to_ascii_lowercase(), &a),
        Err(_) => Err(GtpParseError::Syntax("bad arguments".into())),
    };
    Some(GtpLine { id, command })
}

fn syntax(text: &str) -> GtpParseError {
    GtpParseError::Syntax(text.to_string())
}

fn color(word: &str) -> Result<Color, GtpParseError> {
    match word.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(syntax("invalid color")),
    }
}

fn vertex(word: &str) -> Result<Move, GtpParseError> {
    parse_move_token(word)
        .filter(|m| matches!(m, Move::Play(_)) || word.len() >= 2)
        .ok_or_else(|| syntax("invalid coordinate"))
}

const KGS_USAGE: &str = "expected none, absolute MAIN, byoyomi MAIN PERIOD_TIME PERIODS or \
     canadian MAIN BYO_TIME BYO_STONES";

/// `kgs-time_settings KIND ...` as the `time_settings` it means (`none` is GTP's "no time
/// limit": byo-yomi time without stones).
fn kgs_time_settings(kind: &str, args: &[&str]) -> Result<GtpCommand, GtpParseError> {
    let settings = |main, byo_time, byo_stones, periods| GtpCommand::TimeSettings {
        main,
        byo_time,
        byo_stones,
        periods,
    };
    match (kind.to_ascii_lowercase().as_str(), args) {
        ("none", []) => Ok(settings(0, 1, 0, false)),
        ("absolute", [m]) => Ok(settings(number(m)?, 0, 0, false)),
        ("byoyomi", [m, t, p]) => Ok(settings(number(m)?, number(t)?, number(p)?, true)),
        ("canadian", [m, t, s]) => Ok(settings(number(m)?, number(t)?, number(s)?, false)),
        _ => Err(syntax(KGS_USAGE)),
    }
}

fn number(word: &str) -> Result<u32, GtpParseError> {
    word.parse::<u32>()
        .map_err(|_| syntax("expected a non-negative integer"))
}

fn float(word: &str) -> Result<f64, GtpParseError> {
    all_consuming(double::<&str, ()>)(word)
        .ok()
        .map(|(_, x)| x)
        .filter(|x| x.is_finite())
        .ok_or_else(|| syntax("expected a number"))
}

fn command(name: &str, a: &[&str]) -> Result<GtpCommand, GtpParseError> {
    use GtpCommand::*;
    let none = |c: GtpCommand| {
        if a.is_empty() {
            Ok(c)
        } else {
            Err(syntax("no arguments expected"))
        }
    };
    match (name, a) {
        ("protocol_version", _) => none(ProtocolVersion),
        ("name", _) => none(Name),
        ("version", _) => none(Version),
        ("known_command", [c]) => Ok(KnownCommand(c.to_string())),
        ("known_command", _) => Err(syntax("expected one command name")),
        ("list_commands", _) => none(ListCommands),
        ("quit", _) => Ok(Quit),
        ("boardsize", [n]) => number(n).map(BoardSize),
        ("boardsize", _) => Err(syntax("expected a board size")),
        ("clear_board", _) => none(ClearBoard),
        ("komi", [k]) => float(k).map(Komi),
        ("komi", _) => Err(syntax("expected a komi")),
        ("play", [c, v]) => Ok(Play(color(c)?, vertex(v)?)),
        ("play", _) => Err(syntax("expected a color and a vertex")),
        ("genmove", [c]) => color(c).map(Genmove),
        ("reg_genmove", [c]) => color(c).map(RegGenmove),
        ("genmove" | "reg_genmove", _) => Err(syntax("expected a color")),
        ("undo", _) => none(Undo),
        ("showboard", _) => none(ShowBoard),
        ("final_score", _) => none(FinalScore),
        ("time_settings", [m, t, s]) => Ok(TimeSettings {
            main: number(m)?,
            byo_time: number(t)?,
            byo_stones: number(s)?,
            periods: false,
        }),
        ("time_settings", _) => Err(syntax("expected main_time byo_yomi_time byo_yomi_stones")),
        ("kgs-time_settings", [kind, rest @ ..]) => kgs_time_settings(kind, rest),
        ("kgs-time_settings", _) => Err(syntax(KGS_USAGE)),
        ("time_left", [c, t, s]) => Ok(TimeLeft {
            color: color(c)?,
            seconds: number(t)?,
            stones: number(s)?,
        }),
        ("time_left", _) => Err(syntax("expected color time stones")),
        ("list_games", _) => none(ListGames),
        ("set_game", [g]) => Ok(SetGame(g.to_string())),
        ("set_game", _) => Err(syntax("expected a game name")),
        ("gogui-rules_game_id", _) => none(RulesGameId),
        ("gogui-rules_board_size", _) => none(RulesBoardSize),
        ("gogui-rules_board", _) => none(RulesBoard),
        ("gogui-rules_legal_moves", _) => none(RulesLegalMoves),
        ("gogui-rules_side_to_move", _) => none(RulesSideToMove),
        ("gogui-rules_final_result", _) => none(RulesFinalResult),
        ("gogui-analyze_commands", _) => none(AnalyzeCommands),
        ("gogui-interrupt", _) => none(Interrupt),
        ("wedge-analyze", []) => Ok(Analyze { depth: None }),
        ("wedge-analyze", [d, n]) if d.eq_ignore_ascii_case("depth") => number(n)
            .ok()
            .filter(|n| (1..=60).contains(n))
            .map(|n| Analyze { depth: Some(n) })
            .ok_or_else(|| syntax("depth must be 1..=60")),
        ("wedge-analyze", _) => Err(syntax("usage: wedge-analyze [depth N]")),
        ("wedge-depth", [n]) => number(n)
            .ok()
            .filter(|n| (1..=60).contains(n))
            .map(Depth)
            .ok_or_else(|| syntax("depth must be 1..=60")),
        ("wedge-depth", _) => Err(syntax("expected a depth")),
        _ => Err(GtpParseError::Unknown),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(line: &str) -> Result<GtpCommand, GtpParseError> {
        parse_gtp_line(line).unwrap().command
    }

    #[test]
    fn kgs_time_settings_are_time_settings() {
        let ts = |main, byo_time, byo_stones, periods| {
            Ok(GtpCommand::TimeSettings {
                main,
                byo_time,
                byo_stones,
                periods,
            })
        };
        assert_eq!(cmd("kgs-time_settings none"), ts(0, 1, 0, false));
        assert_eq!(cmd("kgs-time_settings absolute 300"), ts(300, 0, 0, false));
        assert_eq!(
            cmd("kgs-time_settings byoyomi 60 10 3"),
            ts(60, 10, 3, true)
        );
        assert_eq!(
            cmd("kgs-time_settings Canadian 60 30 5"),
            ts(60, 30, 5, false)
        );
        assert_eq!(cmd("time_settings 60 30 5"), ts(60, 30, 5, false));
        for bad in [
            "kgs-time_settings",
            "kgs-time_settings byoyomi 60 10",
            "kgs-time_settings absolute x",
            "kgs-time_settings sudden 60",
        ] {
            assert!(matches!(cmd(bad), Err(GtpParseError::Syntax(_))), "{bad}");
        }
    }

    #[test]
    fn ids_comments_and_commands() {
        let l = parse_gtp_line("7 play black e6").unwrap();
        assert_eq!(l.id, Some(7));
        assert_eq!(
            l.command,
            Ok(GtpCommand::Play(Color::Black, "e6".parse().unwrap()))
        );
        assert_eq!(parse_gtp_line("  # a comment"), None);
        assert_eq!(parse_gtp_line("\t\r"), None);
        assert_eq!(
            cmd("PLAY W PASS"),
            Ok(GtpCommand::Play(Color::White, Move::Pass))
        );
        assert_eq!(
            cmd("genmove\tWhite # why"),
            Ok(GtpCommand::Genmove(Color::White))
        );
        assert_eq!(cmd("boardsize 10"), Ok(GtpCommand::BoardSize(10)));
        assert_eq!(cmd("frobnicate"), Err(GtpParseError::Unknown));
        assert!(matches!(
            cmd("play purple d3"),
            Err(GtpParseError::Syntax(_))
        ));
        assert!(matches!(
            cmd("play black z9"),
            Err(GtpParseError::Syntax(_))
        ));
        assert!(matches!(cmd("play black p"), Err(GtpParseError::Syntax(_))));
        assert!(matches!(cmd("komi abc"), Err(GtpParseError::Syntax(_))));
        assert_eq!(
            cmd("wedge-analyze depth 6"),
            Ok(GtpCommand::Analyze { depth: Some(6) })
        );
        assert_eq!(
            parse_gtp_line("99999999999 name").unwrap().command,
            Err(GtpParseError::BadId)
        );
    }
}
