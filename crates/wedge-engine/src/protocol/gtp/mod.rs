//! GTP v2 (`wedge gtp`) for Othello: the standard commands, `=id`/`?id` framing with the blank
//! line after every response, A1 top left, `PASS` emitted and `pass`/`PA` accepted, a pass
//! inserted when a colour plays out of turn only if the side to move really has no move,
//! Quarry's `list_games`/`set_game`, GoGui's `gogui-rules_*`, and the streaming
//! `wedge-analyze` (one `info` line per completed depth until the depth or the next command).
//! Commands run one after the other; `genmove` is never cut short by the next command (GTP
//! controllers wait for the answer) except by GoGui's `# interrupt`, `quit` and the end of
//! input, which answer it at once with the best move found so far.

mod parse;

pub use parse::{parse_gtp_line, preprocess, GtpCommand, GtpLine, GtpParseError, COMMANDS};

use super::text::{black_margin, counts, drawing, result_text, upper};
use super::{Ctx, Flow, Protocol, Refused, StopPolicy};
use crate::engine::{limits_for_depth, limits_for_play, BookMove, Event, Outcome, Task};
use std::time::{Duration, Instant};
use wedge_core::board::{Move, Square, Squares};
use wedge_core::formats::{Color, Game, IllegalReason, PassPolicy, Position};
use wedge_core::search::{Limits, Report, Score, Selectivity, SolveMode, TimeControl};

/// The midgame depth of `genmove` without a clock, unless set otherwise.
pub const DEFAULT_DEPTH: u32 = 12;

/// `genmove` runs to the end unless GoGui interrupts it (`# interrupt`, `gogui-interrupt`), or
/// the session ends (`quit`, the end of input): then it answers with what it has.
const GENMOVE_STOP: StopPolicy = StopPolicy {
    on_line: |l| {
        let t = l.trim().to_ascii_lowercase();
        t == "# interrupt"
            || t.split_whitespace().any(|w| w == "gogui-interrupt")
            || parse_gtp_line(l).is_some_and(|p| p.command == Ok(GtpCommand::Quit))
    },
    on_eof: true,
};

/// Why a colour cannot be made the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
enum TurnError {
    /// The other colour is to move and has a move.
    #[error("illegal move: {} to move", color_name(*.0))]
    OtherToMove(Color),
    /// The forced pass before the colour's turn was refused.
    #[error(transparent)]
    Pass(#[from] IllegalReason),
}

/// A colour's clock as the controller last told it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum GtpClock {
    /// No time limit.
    None,
    /// Seconds left for the rest of the game (main time).
    Main(Duration),
    /// Byo-yomi: `time` for `stones` moves.
    Period { time: Duration, stones: u32 },
}

/// The time control `time_settings` or `kgs-time_settings` set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ClockSettings {
    main: u32,
    byo_time: u32,
    byo_stones: u32,
    /// Japanese byo-yomi: `byo_stones` periods of one move each.
    periods: bool,
}

impl ClockSettings {
    /// GTP's "no time limit": byo-yomi time without stones.
    fn unlimited(&self) -> bool {
        self.byo_time > 0 && self.byo_stones == 0
    }

    /// The byo-yomi clock with `time` for `stones` (Canadian: that many moves; Japanese:
    /// that many periods, each `time` for one move).
    fn period(&self, time: Duration, stones: u32) -> GtpClock {
        let stones = if self.periods { 1 } else { stones };
        GtpClock::Period { time, stones }
    }
}

/// What the running job answers (the driver holds it while the job runs).
#[derive(Clone, Debug, PartialEq)]
pub enum Job {
    Genmove {
        id: Option<u32>,
        color: Color,
        play: bool,
        started: Instant,
    },
    Analyze {
        id: Option<u32>,
        /// The `=id ` that starts the response was written (with the first line).
        opened: bool,
        /// The last completed iteration (or the book's move), for the closing `best` line.
        last: Option<Report>,
        /// The book answered (its move is `last`).
        book: bool,
    },
}

/// A GTP session.
#[derive(Debug)]
pub struct Gtp {
    game: Game,
    depth: u32,
    /// Set by `wedge-depth`: the level also under a clock, which can only shorten a move.
    depth_cap: Option<u32>,
    clocks: [GtpClock; 2],
    /// The last `time_settings` (or `kgs-time_settings`), for `clear_board`.
    settings: Option<ClockSettings>,
}

impl Gtp {
    /// A session whose `genmove` searches to `depth` when no clock is set.
    pub fn new(depth: u32) -> Gtp {
        Gtp {
            game: Game::new(Position::START),
            depth: depth.clamp(1, 60),
            depth_cap: None,
            clocks: [GtpClock::None, GtpClock::None],
            settings: None,
        }
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn position(&self) -> Position {
        self.game.position()
    }

    fn clock_index(c: Color) -> usize {
        match c {
            Color::Black => 0,
            Color::White => 1,
        }
    }

    fn reset_clocks(&mut self) {
        let clock = match self.settings {
            None => GtpClock::None,
            Some(s) if s.unlimited() => GtpClock::None,
            Some(s) if s.main > 0 || s.byo_stones == 0 => {
                GtpClock::Main(Duration::from_secs(s.main as u64))
            }
            Some(s) => s.period(Duration::from_secs(s.byo_time as u64), s.byo_stones),
        };
        self.clocks = [clock, clock];
    }

    /// The search limits for `color`'s move.
    fn limits(&self, color: Color) -> Limits {
        let timed = |time| limits_for_play(self.depth_cap, time);
        match self.clocks[Self::clock_index(color)] {
            GtpClock::None => limits_for_depth(self.depth),
            GtpClock::Main(left) => timed(TimeControl::Clock {
                remaining: left,
                increment: Duration::ZERO,
            }),
            GtpClock::Period { time, stones } => {
                timed(TimeControl::PerMove(time.mul_f64(0.9) / stones.max(1)))
            }
        }
    }

    /// Counts `elapsed` against `color`'s clock until the controller tells the time again.
    fn spend(&mut self, color: Color, elapsed: Duration) {
        let i = Self::clock_index(color);
        if let GtpClock::Main(left) = self.clocks[i] {
            self.clocks[i] = GtpClock::Main(left.saturating_sub(elapsed));
        }
    }

    /// Makes `color` the side to move, inserting a forced pass; fails when `color` may not move.
    fn turn_of(&self, color: Color) -> Result<Game, TurnError> {
        let pos = self.position();
        if pos.to_move == color {
            return Ok(self.game.clone());
        }
        if pos.board.must_pass() {
            let mut g = self.game.clone();
            g.play(Move::Pass)?;
            return Ok(g);
        }
        Err(TurnError::OtherToMove(pos.to_move))
    }

    fn command(&mut self, id: Option<u32>, cmd: GtpCommand, ctx: &mut Ctx<'_, Job>) -> Flow {
        use GtpCommand::*;
        let ok = |ctx: &mut Ctx<'_, Job>, text: &str| respond(ctx, id, true, text);
        let fail = |ctx: &mut Ctx<'_, Job>, text: &str| respond(ctx, id, false, text);
        match cmd {
            ProtocolVersion => ok(ctx, "2"),
            Name => ok(ctx, "Wedge"),
            Version => ok(ctx, env!("CARGO_PKG_VERSION")),
            KnownCommand(c) => ok(
                ctx,
                if COMMANDS.contains(&c.to_ascii_lowercase().as_str()) {
                    "true"
                } else {
                    "false"
                },
            ),
            ListCommands => ok(ctx, &COMMANDS.join("\n")),
            Quit => {
                ok(ctx, "");
                return Flow::Quit;
            }
            BoardSize(8) => {
                self.game = Game::new(Position::START);
                ok(ctx, "")
            }
            BoardSize(_) => fail(ctx, "unacceptable size"),
            ClearBoard => {
                self.game = Game::new(Position::START);
                self.reset_clocks();
                ok(ctx, "")
            }
            Komi(_) => ok(ctx, ""),
            // Once neither side can move, either colour may pass (gogui-twogtp and other
            // referees end a game with two passes); the game stays as it is.
            Play(_, Move::Pass) if self.position().board.is_game_over() => ok(ctx, ""),
            Play(color, mv) => match self.turn_of(color) {
                Ok(mut g) => match g.play(mv) {
                    Ok(()) => {
                        self.game = g;
                        ok(ctx, "")
                    }
                    Err(_) => fail(ctx, "illegal move"),
                },
                Err(_) => fail(ctx, "illegal move"),
            },
            Genmove(color) | RegGenmove(color) => {
                let play = matches!(cmd, Genmove(_));
                self.genmove(id, color, play, ctx);
            }
            Undo => {
                let moves = self.game.moves();
                if moves.is_empty() {
                    return {
                        fail(ctx, "cannot undo");
                        Flow::Continue
                    };
                }
                let kept = moves[..moves.len() - 1].to_vec();
                match Game::from_moves(self.game.start(), kept, PassPolicy::Explicit) {
                    Ok(g) => {
                        self.game = g;
                        ok(ctx, "")
                    }
                    Err(_) => fail(ctx, "cannot undo"),
                }
            }
            ShowBoard => ok(ctx, &drawing(&self.position())),
            FinalScore => {
                // At the end the empties go to the winner; during the game, the disc count now
                // (as GNU Go answers with its estimate).
                let pos = self.position();
                let m = if pos.board.is_game_over() {
                    black_margin(&pos)
                } else {
                    let (b, w) = counts(&pos);
                    b as i32 - w as i32
                };
                let text = match m.cmp(&0) {
                    std::cmp::Ordering::Greater => format!("B+{m}"),
                    std::cmp::Ordering::Less => format!("W+{}", -m),
                    std::cmp::Ordering::Equal => "0".into(),
                };
                ok(ctx, &text)
            }
            TimeSettings {
                main,
                byo_time,
                byo_stones,
                periods,
            } => {
                self.settings = Some(ClockSettings {
                    main,
                    byo_time,
                    byo_stones,
                    periods,
                });
                self.reset_clocks();
                ok(ctx, "")
            }
            TimeLeft {
                color,
                seconds,
                stones,
            } => {
                let t = Duration::from_secs(seconds as u64);
                self.clocks[Self::clock_index(color)] = match self.settings {
                    Some(s) if s.unlimited() => GtpClock::None,
                    _ if stones == 0 => GtpClock::Main(t),
                    Some(s) => s.period(t, stones),
                    None => GtpClock::Period { time: t, stones },
                };
                ok(ctx, "")
            }
            ListGames => ok(ctx, "Othello"),
            SetGame(g) if g.eq_ignore_ascii_case("othello") || g.eq_ignore_ascii_case("reversi") => {
                ok(ctx, "")
            }
            SetGame(_) => fail(ctx, "unsupported game"),
            // GoGui compares the name case-sensitively with its own `Othello`.
            RulesGameId => ok(ctx, "Othello"),
            RulesBoardSize => ok(ctx, "8"),
            RulesBoard => ok(ctx, &gogui_board(&self.position())),
            RulesLegalMoves => ok(ctx, &legal_vertices(&self.position())),
            RulesSideToMove => ok(ctx, color_name(self.position().to_move)),
            RulesFinalResult => {
                let pos = self.position();
                let text = if pos.board.is_game_over() {
                    result_text(&pos)
                } else {
                    "game not over".into()
                };
                ok(ctx, &text)
            }
            AnalyzeCommands => ok(
                ctx,
                "string/Wedge: analyze (depth 10)/wedge-analyze depth 10\nstring/Wedge: legal moves/gogui-rules_legal_moves",
            ),
            Interrupt => ok(ctx, ""),
            Depth(d) => {
                self.depth = d;
                self.depth_cap = Some(d);
                ok(ctx, "")
            }
            Analyze { depth } => self.analyze(id, depth, ctx),
        }
        Flow::Continue
    }

    fn genmove(&mut self, id: Option<u32>, color: Color, play: bool, ctx: &mut Ctx<'_, Job>) {
        let pos = self.position();
        if pos.board.is_game_over() {
            respond(ctx, id, true, "PASS");
            return;
        }
        let game = match self.turn_of(color) {
            Ok(g) => g,
            Err(e) => {
                respond(ctx, id, false, &e.to_string());
                return;
            }
        };
        let board = game.position().board;
        if board.must_pass() {
            if play {
                let mut g = game;
                if g.play(Move::Pass).is_ok() {
                    self.game = g;
                }
            }
            respond(ctx, id, true, "PASS");
            return;
        }
        let limits = self.limits(color);
        let job = Job::Genmove {
            id,
            color,
            play,
            started: Instant::now(),
        };
        if !ctx.start(Task::Search { board, limits }, GENMOVE_STOP, job) {
            respond(ctx, id, false, "engine unavailable");
        }
    }

    fn analyze(&mut self, id: Option<u32>, depth: Option<u32>, ctx: &mut Ctx<'_, Job>) {
        let board = self.position().board;
        let limits = match depth {
            Some(d) => limits_for_depth(d),
            None => Limits::timed(TimeControl::Infinite, 60),
        };
        if board.is_game_over() {
            respond(
                ctx,
                id,
                true,
                &format!("over score {:+}", board.final_score()),
            );
            return;
        }
        // The response stays open: `=id ` before the first `info` line, one `info` line per
        // completed depth, then `best` and the blank line.
        let job = Job::Analyze {
            id,
            opened: false,
            last: None,
            book: false,
        };
        if !ctx.start(Task::Search { board, limits }, StopPolicy::ANY_LINE, job) {
            respond(ctx, id, false, "engine unavailable");
        }
    }
}

/// Writes one line of a streaming `wedge-analyze` response; the first one after `=id `.
fn analysis_line(ctx: &mut Ctx<'_, Job>, id: Option<u32>, opened: &mut bool, text: &str) {
    if *opened {
        ctx.out().line(text);
    } else {
        ctx.out().line(&format!("={} {text}", id_text(id)));
        *opened = true;
    }
}

fn id_text(id: Option<u32>) -> String {
    id.map(|i| i.to_string()).unwrap_or_default()
}

/// Writes a whole response: `=id result` or `?id message`, then the blank line. A multi-line
/// result starts on the first line after `=id ` (GoGui drops that prefix and reads the rest);
/// blank lines inside it become a single space so they cannot end it early.
fn respond(ctx: &mut Ctx<'_, Job>, id: Option<u32>, success: bool, text: &str) {
    ctx.out().message(&response_text(id, success, text));
}

/// The text of a whole response (see [`respond`]).
fn response_text(id: Option<u32>, success: bool, text: &str) -> String {
    let mark = if success { '=' } else { '?' };
    let mut s = format!("{mark}{}", id_text(id));
    if !text.is_empty() {
        for (i, l) in text.split('\n').enumerate() {
            s.push(if i == 0 { ' ' } else { '\n' });
            s.push_str(if l.trim().is_empty() && i > 0 { " " } else { l });
        }
    }
    s.push_str("\n\n");
    s
}

/// `black` or `white`.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The legal moves as upper-case vertices, `PASS` when forced, empty at the game's end.
fn legal_vertices(pos: &Position) -> String {
    let moves = pos.board.moves();
    if moves == [Move::Pass] {
        return "PASS".into();
    }
    let v: Vec<String> = Squares(pos.board.legal_moves())
        .map(|s| s.to_string().to_ascii_uppercase())
        .collect();
    v.join(" ")
}

/// GoGui's ruler board: `X` Black, `O` White, `.` empty; the first line is row 8 (GoGui puts
/// row 1 at the bottom).
fn gogui_board(pos: &Position) -> String {
    let mut lines = Vec::with_capacity(8);
    for row in (0..8u8).rev() {
        let cells: Vec<&str> = (0..8u8)
            .map(
                |col| match Square::from_coords(col, row).and_then(|sq| pos.color_at(sq)) {
                    Some(Color::Black) => "X",
                    Some(Color::White) => "O",
                    None => ".",
                },
            )
            .collect();
        lines.push(cells.join(" "));
    }
    lines.join("\n")
}

/// One streaming analysis line.
fn info_line(r: &Report) -> String {
    let pv: Vec<String> = r.pv.iter().map(|&m| upper(m)).collect();
    format!(
        "info depth {} score {:+} move {} pv {} nodes {} time {}",
        r.depth_label(),
        r.score,
        upper(r.best),
        pv.join(" "),
        r.nodes,
        r.millis
    )
}

/// A book move as a report: the depth its value was searched to (the empties when solved).
fn book_report(m: &BookMove, board_empties: u32) -> Report {
    Report {
        depth: if m.solved { board_empties } else { m.depth },
        selectivity: Selectivity::NONE,
        solved: m.solved.then_some(SolveMode::Exact),
        score: Score::from_discs(m.score),
        best: m.mv,
        pv: vec![m.mv],
        nodes: 0,
        millis: 0,
    }
}

impl Protocol for Gtp {
    type Job = Job;

    fn line(&mut self, line: &str, ctx: &mut Ctx<'_, Job>) -> Flow {
        let Some(parsed) = parse_gtp_line(line) else {
            return Flow::Continue;
        };
        match parsed.command {
            Ok(cmd) => self.command(parsed.id, cmd, ctx),
            Err(e) => {
                tracing::debug!("bad command {line:?}: {e}");
                respond(ctx, parsed.id, false, &e.to_string());
                Flow::Continue
            }
        }
    }

    fn event(&mut self, event: Event, job: &mut Job, ctx: &mut Ctx<'_, Job>) {
        let empties = self.position().board.empty_count();
        match (job, event) {
            (
                Job::Analyze {
                    id, opened, last, ..
                },
                Event::Progress {
                    report,
                    complete: true,
                    ..
                },
            ) => {
                analysis_line(ctx, *id, opened, &info_line(&report));
                *last = Some(report);
            }
            (
                Job::Analyze {
                    id,
                    opened,
                    last,
                    book,
                },
                Event::Book { moves, .. },
            ) => {
                // The book answers instead of a search: its move, marked as the book's.
                for m in &moves {
                    let r = book_report(m, empties);
                    analysis_line(ctx, *id, opened, &format!("{} book", info_line(&r)));
                    *last = Some(r);
                }
                *book = true;
            }
            (job, Event::Done { outcome, .. }) => {
                let Outcome::Best(r) = outcome else {
                    return;
                };
                match job {
                    Job::Genmove {
                        id,
                        color,
                        play,
                        started,
                    } => {
                        if *play {
                            // The search ran on this position; the move is legal in it.
                            if let Ok(mut g) = self.turn_of(*color) {
                                if g.play(r.best).is_ok() {
                                    self.game = g;
                                }
                            }
                            self.spend(*color, started.elapsed());
                        }
                        let text = match r.best {
                            Move::Pass => "PASS".to_string(),
                            m => upper(m),
                        };
                        respond(ctx, *id, true, &text);
                    }
                    Job::Analyze {
                        id,
                        opened,
                        last,
                        book,
                    } => {
                        // The last completed depth; depth 0 when stopped before the first.
                        let (best, score, depth) = match last {
                            Some(l) => (l.best, l.score, l.depth_label()),
                            None => (r.best, Score::default(), "0".to_string()),
                        };
                        let text = format!(
                            "best {} score {score:+} depth {depth}{}",
                            upper(best),
                            if *book { " book" } else { "" }
                        );
                        analysis_line(ctx, *id, opened, &text);
                        ctx.out().line("");
                    }
                }
            }
            _ => {}
        }
    }

    fn refused(&mut self, why: &Refused, ctx: &mut Ctx<'_, Job>) {
        // The response carries the line's id when it has one (only that of it is read).
        let id = match why {
            Refused::Nul(line) => parse_gtp_line(line).and_then(|p| p.id),
            Refused::Overlong(_) => None,
        };
        respond(ctx, id, false, &format!("syntax error: {why}"));
    }
}
