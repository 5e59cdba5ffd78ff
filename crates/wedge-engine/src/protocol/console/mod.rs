//! The human console (`wedge`, `wedge console`): a board drawing with coordinates, whose turn
//! and the legal moves, and bwcore's commands (`print`, `printhex`, `move f5`/`move x y`,
//! `undo`, `eval`, `think`, `play`, `tree N`, `count`, `reset`, `board ...`, `flipv`, `fliph`,
//! `rotatel`, `rotater`, `cswap`, `col`, `save`, `load`, `help`, `quit`). Searches run on the
//! engine worker; typing `stop` ends one early, `quit` or the end of input ends it and the
//! session. Moves the opening book answers are marked `book`. Errors start with `? ` and
//! change nothing.

mod parse;

pub use parse::{parse_console_line, ConsoleCommand, ConsoleParseError, Transform};

use super::text::{counts, drawing, pv_text};
use super::{Ctx, Flow, Output, Protocol, Refused, StopPolicy};
use crate::engine::{limits_for_depth, BookMove, Event, Outcome, Task};
use wedge_core::board::{Board, Symmetry};
use wedge_core::formats::{
    format_ggf, format_position, parse_ggf, Color, Game, GgfGame, PassPolicy, Position,
};
use wedge_core::search::{Limits, Report, Score};

/// The search depth before `depth N`.
pub const DEFAULT_DEPTH: u32 = 10;

/// The `help` text; `{depth}` stands for the current search depth.
const HELP: &str = "\
commands:
  print | p            show the board
  printhex             the side to move's and the opponent's discs as hex bitboards
  move f5 | f5         play a move (also `move 6 5` = column 6 row 5, and `pass`)
  undo                 take back the last move
  eval                 static evaluation of the position (side to move)
  think                search and show the best move without playing it
  play                 let the engine play the side to move
  tree N               every legal move searched N plies deep, best first
  depth N              search depth for think/play (now {depth}; endgames solve exactly)
  count                disc counts
  reset                new game
  board <64> <X|O>     set a position (X black, O white, - empty)
  board <hex> <hex> [X|O]  set a position from bitboards (side to move first)
  flipv | fliph        mirror the board top-bottom | left-right
  rotatel | rotater    turn the board a quarter left | right
  cswap                swap the colours of all discs
  col [X|O]            show or set the side to move
  save <f.ggf>         write the game as GGF; load <f.ggf> reads one
  stop                 end a running search
  help, quit";

/// The `help` text for a session searching to `depth`.
pub fn help(depth: u32) -> String {
    HELP.replace("{depth}", &depth.to_string())
}

/// Why a search was started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    Think,
    Play,
    Tree,
    Eval,
}

/// What the console keeps about the running job (the driver holds it while the job runs).
#[derive(Debug)]
pub struct Job {
    purpose: Purpose,
    /// The moves the book gave for it.
    book: Vec<BookMove>,
}

/// The console's state: the game and the search depth.
#[derive(Debug)]
pub struct Console {
    game: Game,
    depth: u32,
}

/// `think`/`play`/`tree` stop when the user types `stop` or `quit`, or the input ends.
const STOP_WORD: StopPolicy = StopPolicy {
    on_line: |l| {
        matches!(
            parse_console_line(l),
            Ok(ConsoleCommand::Stop | ConsoleCommand::Quit)
        )
    },
    on_eof: true,
};

impl Console {
    pub fn new(depth: u32) -> Console {
        Console {
            game: Game::new(Position::START),
            depth: depth.clamp(1, 60),
        }
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn show(&self) -> String {
        format!(
            "{}\nposition: {}",
            drawing(&self.game.position()),
            format_position(&self.game.position())
        )
    }

    fn set_position(&mut self, pos: Position) -> String {
        self.game = Game::new(pos);
        self.show()
    }

    fn limits(&self) -> Limits {
        limits_for_depth(self.depth)
    }

    fn command(&mut self, cmd: ConsoleCommand, ctx: &mut Ctx<'_, Job>) -> Flow {
        let pos = self.game.position();
        let text = match cmd {
            ConsoleCommand::Empty | ConsoleCommand::Stop => return Flow::Continue,
            ConsoleCommand::Quit => return Flow::Quit,
            ConsoleCommand::Help => help(self.depth),
            ConsoleCommand::Print => self.show(),
            ConsoleCommand::PrintHex => format!(
                "{:016x} {:016x} {}",
                pos.board.player,
                pos.board.opponent,
                pos.to_move.letter()
            ),
            ConsoleCommand::Count => {
                let (b, w) = counts(&pos);
                format!("black {b}, white {w}, empty {}", 64 - b - w)
            }
            ConsoleCommand::Depth(d) => {
                self.depth = d;
                format!("depth {d}")
            }
            ConsoleCommand::Reset => self.set_position(Position::START),
            ConsoleCommand::Board(p) => self.set_position(p),
            ConsoleCommand::Transform(t) => {
                let s = match t {
                    Transform::FlipVertical => Symmetry::MIRROR_ROWS,
                    Transform::FlipHorizontal => Symmetry::MIRROR_COLUMNS,
                    Transform::RotateLeft => Symmetry::ROTATE_LEFT,
                    Transform::RotateRight => Symmetry::ROTATE_RIGHT,
                };
                self.set_position(Position {
                    board: pos.board.transform(s),
                    to_move: pos.to_move,
                })
            }
            ConsoleCommand::SwapColors => self.set_position(Position {
                board: Board::new(pos.board.opponent, pos.board.player),
                to_move: pos.to_move,
            }),
            ConsoleCommand::Col(None) => format!("{} to move", pos.to_move),
            ConsoleCommand::Col(Some(c)) if c == pos.to_move => self.show(),
            ConsoleCommand::Col(Some(_)) => self.set_position(pos.passed()),
            ConsoleCommand::Undo => self.undo(),
            ConsoleCommand::Play(mv) => {
                let mut g = self.game.clone();
                match g.play_inferring_pass(mv) {
                    Ok(_) => {
                        self.game = g;
                        self.show()
                    }
                    Err(e) => format!("? illegal: {mv} ({e})"),
                }
            }
            ConsoleCommand::Save(file) => self.save(&file),
            ConsoleCommand::Load(file) => self.load(&file),
            ConsoleCommand::Eval => {
                start(ctx, Purpose::Eval, Task::Evaluate { board: pos.board });
                return Flow::Continue;
            }
            ConsoleCommand::Think | ConsoleCommand::EnginePlays | ConsoleCommand::Tree(_)
                if self.game.is_over() =>
            {
                "? the game is over".to_string()
            }
            ConsoleCommand::Think => {
                let task = Task::Search {
                    board: pos.board,
                    limits: self.limits(),
                };
                start(ctx, Purpose::Think, task);
                return Flow::Continue;
            }
            ConsoleCommand::EnginePlays => {
                let task = Task::Search {
                    board: pos.board,
                    limits: self.limits(),
                };
                start(ctx, Purpose::Play, task);
                return Flow::Continue;
            }
            ConsoleCommand::Tree(d) => {
                let task = Task::Candidates {
                    board: pos.board,
                    limits: Limits::depth(d),
                    count: 64,
                };
                start(ctx, Purpose::Tree, task);
                return Flow::Continue;
            }
        };
        ctx.out().line(&text);
        Flow::Continue
    }

    fn undo(&mut self) -> String {
        let moves = self.game.moves();
        if moves.is_empty() {
            return "? nothing to undo".into();
        }
        let kept = moves[..moves.len() - 1].to_vec();
        match Game::from_moves(self.game.start(), kept, PassPolicy::Explicit) {
            Ok(g) => {
                self.game = g;
                self.show()
            }
            Err(e) => format!("? cannot undo: {e}"),
        }
    }

    fn save(&self, file: &str) -> String {
        let record = GgfGame::from_game(self.game.clone());
        let text = format!("{}\n", format_ggf(&record));
        match wedge_core::paths::write_atomic(std::path::Path::new(file), text.as_bytes()) {
            Ok(()) => format!("saved {} moves to {file}", self.game.moves().len()),
            Err(e) => format!("? cannot write {file}: {e}"),
        }
    }

    fn load(&mut self, file: &str) -> String {
        let text = match wedge_core::paths::read_text(std::path::Path::new(file)) {
            Ok(t) => t,
            Err(e) => return format!("? cannot read {file}: {e}"),
        };
        match parse_ggf(&text) {
            Ok(g) => {
                self.game = g.into_game();
                self.show()
            }
            Err(e) => format!("? {file}: {e}"),
        }
    }
}

/// Starts a search for `purpose` that `stop`, `quit` or the end of input ends.
fn start(ctx: &mut Ctx<'_, Job>, purpose: Purpose, task: Task) {
    let job = Job {
        purpose,
        book: Vec::new(),
    };
    if !ctx.start(task, STOP_WORD, job) {
        ctx.out().line("? the engine is unavailable");
    }
}

/// One line about a book move: `book f5 +2 (depth 12, 30 games)`, `solved` for an exact value.
fn describe_book(m: &BookMove) -> String {
    let depth = if m.solved {
        "solved".to_string()
    } else {
        format!("depth {}", m.depth)
    };
    format!("book {} {:+} ({depth}, {} games)", m.mv, m.score, m.games)
}

/// One line about a search result.
fn describe(r: &Report) -> String {
    format!(
        "depth {} score {:+} best {} pv {} nodes {} time {} ms",
        r.depth_label(),
        r.score,
        r.best,
        pv_text(&r.pv, " ").to_ascii_lowercase(),
        r.nodes,
        r.millis
    )
}

impl Protocol for Console {
    type Job = Job;

    fn greet(&mut self, out: &mut Output) {
        out.line("Wedge console; type `help` for the commands.");
        out.line(&self.show());
    }

    fn line(&mut self, line: &str, ctx: &mut Ctx<'_, Job>) -> Flow {
        match parse_console_line(line) {
            Ok(cmd) => self.command(cmd, ctx),
            Err(e) => {
                ctx.out().line(&format!("? {e}"));
                Flow::Continue
            }
        }
    }

    fn event(&mut self, event: Event, job: &mut Job, ctx: &mut Ctx<'_, Job>) {
        match event {
            Event::Progress { report, .. } if job.purpose == Purpose::Think => {
                ctx.out().line(&describe(&report));
            }
            Event::Book { moves, .. } => {
                if job.purpose == Purpose::Think {
                    for m in &moves {
                        ctx.out().line(&describe_book(m));
                    }
                }
                job.book = moves;
            }
            Event::Done {
                outcome, stopped, ..
            } => {
                let text = match (job.purpose, outcome) {
                    (Purpose::Eval, Outcome::Static(v)) => {
                        format!("eval {v:+} (static, for the side to move)")
                    }
                    (Purpose::Think, Outcome::Best(r)) => match job.book.first() {
                        Some(m) => format!("done: {}", describe_book(m)),
                        None => format!(
                            "done: {}{}",
                            describe(&r),
                            if stopped { " (stopped)" } else { "" }
                        ),
                    },
                    (Purpose::Play, Outcome::Best(r)) => {
                        let mut g = self.game.clone();
                        match g.play(r.best) {
                            Ok(()) => {
                                self.game = g;
                                let from = if job.book.is_empty() { "" } else { " (book)" };
                                format!(
                                    "{} plays {}{from}\n{}",
                                    side(&r, &self.game),
                                    r.best,
                                    self.show()
                                )
                            }
                            Err(e) => format!("? engine move {} refused: {e}", r.best),
                        }
                    }
                    (Purpose::Tree, Outcome::Candidates(list)) => {
                        // The book's moves and the searched ones together, best first.
                        let mut rows: Vec<(Score, String)> = job
                            .book
                            .iter()
                            .map(|m| (Score::from_discs(m.score), describe_book(m)))
                            .collect();
                        rows.extend(list.iter().map(|c| {
                            let line = format!(
                                "{} {:+} pv {}",
                                c.mv,
                                c.score,
                                pv_text(&c.pv, " ").to_ascii_lowercase()
                            );
                            (c.score, line)
                        }));
                        // Stable: the book's line first among equal scores.
                        rows.sort_by_key(|r| std::cmp::Reverse(r.0));
                        let mut lines: Vec<String> = rows.into_iter().map(|r| r.1).collect();
                        let searched = list.len() + job.book.len();
                        if stopped && searched < self.game.legal_moves().len() {
                            lines.push("(stopped)".into());
                        }
                        lines.join("\n")
                    }
                    _ => return,
                };
                ctx.out().line(&text);
            }
            _ => {}
        }
    }

    fn refused(&mut self, why: &Refused, ctx: &mut Ctx<'_, Job>) {
        ctx.out().line(&format!("? {why}"));
    }
}

/// The colour that just played `r.best` (the side not to move in `after`).
fn side(_r: &Report, after: &Game) -> Color {
    after.position().to_move.opposite()
}
