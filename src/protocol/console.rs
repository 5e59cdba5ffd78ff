//! The human console: a board drawing with coordinates, whose turn and the legal moves, and
//! the bwcore-style commands (`print`, `move f5`, `move x y`, `undo`, `think`, `play`, `board`,
//! `reset`, `count`, `depth`, `help`, `quit`). Parsing is separate from acting so the
//! commands can be tested without a terminal.

use crate::board::{Move, Square, Squares};
use crate::eval::Evaluator;
use crate::formats::{format_position, parse_position, Color, Game, PassPolicy, Position};
use crate::search::{Limits, Report, Searcher};
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

/// A parsed console line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConsoleCommand {
    Print,
    Play(Move),
    Undo,
    Think,
    EnginePlays,
    Board(Position),
    Reset,
    Count,
    Depth(u32),
    Help,
    Quit,
    Empty,
}

/// Parses one line; the error says what was expected.
pub fn parse_console_line(line: &str) -> Result<ConsoleCommand, String> {
    let mut words = line.split_whitespace();
    let Some(cmd) = words.next() else {
        return Ok(ConsoleCommand::Empty);
    };
    let rest: Vec<&str> = words.collect();
    let cmd = cmd.to_ascii_lowercase();
    let none = |c: ConsoleCommand| {
        if rest.is_empty() {
            Ok(c)
        } else {
            Err(format!("`{cmd}` takes no argument"))
        }
    };
    match cmd.as_str() {
        "print" | "p" => none(ConsoleCommand::Print),
        "undo" | "u" => none(ConsoleCommand::Undo),
        "think" | "hint" => none(ConsoleCommand::Think),
        "play" | "go" => none(ConsoleCommand::EnginePlays),
        "reset" | "new" => none(ConsoleCommand::Reset),
        "count" => none(ConsoleCommand::Count),
        "help" | "?" => none(ConsoleCommand::Help),
        "quit" | "exit" | "q" => none(ConsoleCommand::Quit),
        "move" | "m" => parse_move_args(&rest).map(ConsoleCommand::Play),
        "depth" => match rest.as_slice() {
            [d] => d
                .parse::<u32>()
                .ok()
                .filter(|d| (1..=60).contains(d))
                .map(ConsoleCommand::Depth)
                .ok_or_else(|| format!("depth must be 1..=60, not {d:?}")),
            _ => Err("usage: depth N".into()),
        },
        "board" => parse_position(&rest.join(" "))
            .map(ConsoleCommand::Board)
            .map_err(|e| format!("usage: board <64 squares> <X|O>: {e}")),
        // A bare square or pass is a move too.
        _ if rest.is_empty() => cmd
            .parse::<Move>()
            .map(ConsoleCommand::Play)
            .map_err(|_| format!("unknown command {cmd:?}; type `help`")),
        _ => Err(format!("unknown command {cmd:?}; type `help`")),
    }
}

/// `f5`, `pass`, or `x y` with columns and rows counted from 1 (bwcore's form).
fn parse_move_args(args: &[&str]) -> Result<Move, String> {
    match args {
        [m] => m.parse::<Move>().map_err(|e| e.to_string()),
        [x, y] => {
            let (Ok(x), Ok(y)) = (x.parse::<u8>(), y.parse::<u8>()) else {
                return Err("usage: move f5 | move X Y (1..8)".into());
            };
            Square::from_coords(x.wrapping_sub(1), y.wrapping_sub(1))
                .map(Move::Play)
                .ok_or_else(|| "coordinates are 1..8".into())
        }
        _ => Err("usage: move f5 | move X Y (1..8)".into()),
    }
}

pub const HELP: &str = "\
commands:
  print              show the board
  move f5 | f5       play a move (also `move 6 5`, `pass`)
  undo               take back the last move
  think              search and show the best move without playing it
  play               let the engine play the side to move
  depth N            search depth for think/play
  board <64> <X|O>   set a position (X black, O white, - empty)
  reset              new game
  count              disc counts
  help, quit";

/// The console's state: the game and the search settings.
pub struct Console<E: Evaluator> {
    game: Game,
    searcher: Searcher<E>,
    depth: u32,
}

impl<E: Evaluator> Console<E> {
    pub fn new(searcher: Searcher<E>, depth: u32) -> Self {
        Console {
            game: Game::new(Position::START),
            searcher,
            depth,
        }
    }

    /// Carries out one command; returns the text to show and whether to quit.
    pub fn handle(&mut self, cmd: ConsoleCommand) -> (String, bool) {
        match cmd {
            ConsoleCommand::Empty => (String::new(), false),
            ConsoleCommand::Quit => (String::new(), true),
            ConsoleCommand::Help => (HELP.to_string(), false),
            ConsoleCommand::Print => (self.drawing(), false),
            ConsoleCommand::Count => {
                let (b, w) = self.game.disc_counts();
                (format!("black {b}, white {w}, empty {}", 64 - b - w), false)
            }
            ConsoleCommand::Depth(d) => {
                self.depth = d;
                (format!("depth {d}"), false)
            }
            ConsoleCommand::Reset => {
                self.game = Game::new(Position::START);
                (self.drawing(), false)
            }
            ConsoleCommand::Board(p) => {
                self.game = Game::new(p);
                (self.drawing(), false)
            }
            ConsoleCommand::Undo => {
                let moves = self.game.moves();
                if moves.is_empty() {
                    return ("nothing to undo".into(), false);
                }
                let kept = &moves[..moves.len() - 1];
                match Game::from_moves(
                    self.game.start(),
                    kept.iter().copied(),
                    PassPolicy::Explicit,
                ) {
                    Ok(g) => {
                        self.game = g;
                        (self.drawing(), false)
                    }
                    Err(e) => (format!("cannot undo: {e}"), false),
                }
            }
            ConsoleCommand::Play(mv) => match self.game.play_inferring_pass(mv) {
                Ok(_) => (self.drawing(), false),
                Err(e) => (format!("illegal: {mv} ({e})"), false),
            },
            ConsoleCommand::Think => match self.think() {
                Some(r) => (describe(&r), false),
                None => ("the game is over".into(), false),
            },
            ConsoleCommand::EnginePlays => match self.think() {
                Some(r) => {
                    let text = describe(&r);
                    match self.game.play(r.best) {
                        Ok(()) => (format!("{text}\n{}", self.drawing()), false),
                        Err(e) => (format!("engine move {} refused: {e}", r.best), false),
                    }
                }
                None => ("the game is over".into(), false),
            },
        }
    }

    fn think(&mut self) -> Option<Report> {
        if self.game.is_over() {
            return None;
        }
        let stop = AtomicBool::new(false);
        let limits = Limits {
            solve: Some(crate::search::SolveMode::Exact),
            solve_empties: self.depth.max(14) + 4,
            ..Limits::depth(self.depth)
        };
        let board = self.game.position().board;
        Some(self.searcher.search(&board, &limits, &stop, &mut |_| {}))
    }

    /// The board with coordinates, `*` on legal moves, whose turn and the counts.
    pub fn drawing(&self) -> String {
        let pos = self.game.position();
        let legal = pos.board.legal_moves();
        let mut s = String::from("  a b c d e f g h\n");
        for row in 0..8u8 {
            let _ = write!(s, "{}", row + 1);
            for col in 0..8u8 {
                let sq = Square::from_coords(col, row).unwrap_or(Square::from_index(0));
                let c = match pos.color_at(sq) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None if legal & sq.bit() != 0 => '*',
                    None => '.',
                };
                let _ = write!(s, " {c}");
            }
            s.push('\n');
        }
        let (b, w) = self.game.disc_counts();
        if self.game.is_over() {
            let _ = write!(s, "game over: black {b}, white {w}");
        } else {
            let moves: Vec<String> = Squares(legal).map(|q| q.to_string()).collect();
            let side = match pos.to_move {
                Color::Black => "black (X)",
                Color::White => "white (O)",
            };
            let _ = write!(
                s,
                "{side} to move; black {b}, white {w}; legal: {}",
                if moves.is_empty() {
                    "pass".to_string()
                } else {
                    moves.join(" ")
                }
            );
        }
        let _ = write!(s, "\nposition: {}", format_position(&pos));
        s
    }
}

fn describe(r: &Report) -> String {
    let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "best {} score {:+} depth {} nodes {} time {} ms pv {}",
        r.best,
        r.score,
        crate::tools::solve::depth_label(r),
        r.nodes,
        r.millis,
        pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::heuristic::Heuristic;
    use std::sync::Arc;

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
        assert!(parse_console_line("depth 0").is_err());
        assert!(parse_console_line("move 9 9").is_err());
        assert!(parse_console_line("fly away").is_err());
        assert!(parse_console_line("print now").is_err());
        assert!(parse_console_line("board xyz").is_err());
    }

    #[test]
    fn plays_undoes_and_lets_the_engine_move() {
        let mut c = Console::new(Searcher::new(Arc::new(Heuristic), 1, 1), 3);
        let (text, _) = c.handle(ConsoleCommand::Play(Move::Play("f5".parse().unwrap())));
        assert!(text.contains("white (O) to move"), "{text}");
        let (text, _) = c.handle(ConsoleCommand::Play(Move::Play("a1".parse().unwrap())));
        assert!(text.starts_with("illegal"), "{text}");
        let (text, _) = c.handle(ConsoleCommand::EnginePlays);
        assert!(text.contains("black (X) to move"), "{text}");
        c.handle(ConsoleCommand::Undo);
        let (text, _) = c.handle(ConsoleCommand::Undo);
        assert!(text.contains("legal: d3 c4 f5 e6"), "{text}");
        assert!(c.handle(ConsoleCommand::Quit).1);
    }
}
