//! NBoard protocol v2 (`wedge nboard`): the session state (the game record with its clocks, the
//! depth, the contempt) and the answers: `set myname`, `pong`, `search`/`book` lines,
//! `nodestats`, `=== move/eval/time`, `analysis`, `learned`, and `status` lines for the GUI's
//! status bar while the engine thinks (cleared when it is done). Any new line stops a running
//! search (NTest's rule); its last lines are still written before the next command is handled,
//! so a `pong` always comes after everything that belongs to earlier commands. Errors in known
//! commands are reported on a `status` line and change nothing; unknown commands are logged to
//! stderr and ignored.

mod clock;
mod parse;

pub use parse::{parse_nboard_line, NboardCommand, NboardParseError};

use super::text::{pv_text, upper};
use super::{Ctx, Flow, Protocol, Refused, StopPolicy};
use crate::engine::{
    limits_for_depth, limits_for_play, BookMove, Event, Outcome, ScoredRootMove, Task,
};
use wedge_core::board::Move;
use wedge_core::formats::{Game, GgfGame, IllegalReason, MoveItem, MoveNote, Position};
use wedge_core::search::{Report, Score, SolveMode};

/// The name sent with `set myname` (NBoard wants one alphanumeric token).
pub const NAME: &str = "Wedge";
/// The midgame depth before the GUI sets one.
pub const DEFAULT_DEPTH: u32 = 12;

/// What the running job was asked for (the driver holds it while the job runs).
#[derive(Clone, Debug, PartialEq)]
pub enum Job {
    Hint { last: Option<String> },
    Go { last: Option<String>, book: bool },
    Analyze,
    Clear,
    Learn,
}

/// Why a move from the GUI was not played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
enum MoveError {
    /// The forced pass the GUI left out was refused.
    #[error(transparent)]
    Pass(IllegalReason),
    #[error("{} is illegal here: {reason}", upper(*.mv))]
    Illegal { mv: Move, reason: IllegalReason },
}

/// An NBoard session.
#[derive(Debug)]
pub struct Nboard {
    record: GgfGame,
    /// The record's start clocks, parsed at `set game`.
    clocks: clock::StartClocks,
    /// The GUI's `set depth`, if it sent one.
    depth: Option<u32>,
    contempt: f64,
    version: Option<u32>,
}

impl Default for Nboard {
    fn default() -> Self {
        Nboard::new()
    }
}

impl Nboard {
    pub fn new() -> Nboard {
        Nboard {
            record: GgfGame::from_game(Game::new(Position::START)),
            clocks: clock::StartClocks::default(),
            depth: None,
            contempt: 0.0,
            version: None,
        }
    }

    /// The current game record.
    pub fn record(&self) -> &GgfGame {
        &self.record
    }

    /// The midgame depth of searches without a clock.
    pub fn depth(&self) -> u32 {
        self.depth.unwrap_or(DEFAULT_DEPTH)
    }

    /// The version from `nboard N`, once received.
    pub fn version(&self) -> Option<u32> {
        self.version
    }

    /// Book draw value from Black's view (kept for the book; the search has no contempt).
    pub fn contempt(&self) -> f64 {
        self.contempt
    }

    fn position(&self) -> Position {
        self.record.game().position()
    }

    /// Plays `item` on the record, inserting a forced pass the GUI left out. Changes nothing
    /// when the move is illegal.
    fn play(&mut self, item: MoveItem) -> Result<(), MoveError> {
        let mut next = self.record.clone();
        let pos = next.game().position();
        if matches!(item.mv, Move::Play(_)) && pos.board.must_pass() {
            next.play(MoveItem {
                mv: Move::Pass,
                note: MoveNote::default(),
            })
            .map_err(MoveError::Pass)?;
        }
        next.play(item).map_err(|reason| MoveError::Illegal {
            mv: item.mv,
            reason,
        })?;
        self.record = next;
        Ok(())
    }

    fn command(&mut self, cmd: NboardCommand, ctx: &mut Ctx<'_, Job>) -> Flow {
        match cmd {
            NboardCommand::Empty | NboardCommand::Ignored(_) => {}
            NboardCommand::Nboard(v) => {
                if v != 2 {
                    tracing::info!("nboard protocol {v} requested; speaking version 2");
                }
                self.version = Some(v);
            }
            NboardCommand::SetDepth(d) => {
                self.depth = Some(d);
                ctx.out().line(&format!("set myname {NAME}{d}"));
            }
            NboardCommand::SetGame(g) => match clock::StartClocks::of(&g) {
                Ok(clocks) => (self.record, self.clocks) = (*g, clocks),
                Err(e) => error(ctx, &format!("set game: bad clock: {e}")),
            },
            NboardCommand::SetContempt(c) => {
                self.contempt = c.clamp(-100.0, 100.0);
                tracing::debug!("contempt {} (book draws only)", self.contempt);
            }
            NboardCommand::Move(item) => {
                if let Err(e) = self.play(item) {
                    error(ctx, &format!("move: {e}"));
                }
            }
            NboardCommand::Ping(n) => ctx.out().line(&format!("pong {n}")),
            NboardCommand::Hint(n) => self.hint(n, ctx),
            NboardCommand::Go => self.go(ctx),
            NboardCommand::Learn => {
                let game = self.record.game();
                if game.start() != Position::START {
                    error(
                        ctx,
                        "learn: the game does not start from the standard position; nothing stored",
                    );
                } else {
                    let moves = game.moves().to_vec();
                    start(ctx, Task::Learn { moves }, STATUS_LEARNING, Job::Learn);
                }
            }
            NboardCommand::Analyze => self.analyze(ctx),
            NboardCommand::Clear => {
                ctx.start(Task::Clear, StopPolicy::ANY_LINE, Job::Clear);
            }
            NboardCommand::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    fn hint(&mut self, count: u32, ctx: &mut Ctx<'_, Job>) {
        let board = self.position().board;
        if board.is_game_over() {
            tracing::info!("hint: the game is over");
            return;
        }
        let limits = limits_for_depth(self.depth());
        let task = if count <= 1 {
            Task::Search { board, limits }
        } else {
            Task::Candidates {
                board,
                limits,
                count: count as usize,
            }
        };
        start(ctx, task, STATUS_ANALYZING, Job::Hint { last: None });
    }

    fn go(&mut self, ctx: &mut Ctx<'_, Job>) {
        let board = self.position().board;
        if board.is_game_over() {
            error(ctx, "go: the game is over");
            return;
        }
        // The GUI's level (`set depth`) fixes the depth and the solve points, and its clock
        // can only shorten the move; without a level the clock decides.
        let limits = match clock::time_left(&self.record, &self.clocks) {
            Some(tc) => limits_for_play(self.depth, tc),
            None => limits_for_depth(self.depth()),
        };
        tracing::debug!("go with {limits:?}");
        let job = Job::Go {
            last: None,
            book: false,
        };
        start(ctx, Task::Search { board, limits }, STATUS_THINKING, job);
    }

    fn analyze(&mut self, ctx: &mut Ctx<'_, Job>) {
        let positions = self.record.game().positions();
        // Backwards from the end: the endgame results fill the table for earlier positions.
        let boards = positions
            .iter()
            .enumerate()
            .rev()
            .map(|(i, p)| (i, p.board))
            .collect();
        let task = Task::Positions {
            boards,
            limits: limits_for_depth(self.depth()),
        };
        start(ctx, task, STATUS_ANALYZING, Job::Analyze);
    }
}

/// The status-bar text while a `hint` or `analyze` runs.
const STATUS_ANALYZING: &str = "status Analyzing";
/// The status-bar text while a `go` runs.
const STATUS_THINKING: &str = "status Thinking";
/// The status-bar text while a `learn` runs.
const STATUS_LEARNING: &str = "status Learning";
/// Clears the status bar once the engine is done.
const STATUS_DONE: &str = "status";

/// Starts a task that any new line stops, saying so on the status bar.
fn start(ctx: &mut Ctx<'_, Job>, task: Task, status: &str, job: Job) {
    ctx.out().line(status);
    if !ctx.start(task, StopPolicy::ANY_LINE, job) {
        error(ctx, "the engine is unavailable");
    }
}

/// Reports a problem with a known command: a `status` line for the GUI and a log line.
fn error(ctx: &mut Ctx<'_, Job>, text: &str) {
    tracing::warn!("{text}");
    ctx.out().line(&format!("status error: {}", one_line(text)));
}

/// Keeps a message on one line and short.
fn one_line(text: &str) -> String {
    let t: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(200)
        .collect();
    t
}

/// The eval field: discs from the mover's view, signed, two decimals.
fn eval_text(score: Score) -> String {
    format!("{:+.2}", score.as_f64())
}

/// The depth field: plies in the midgame, `100%` for an exact solve, `100%W` for win/loss/draw.
fn depth_token(depth: u32, solved: Option<SolveMode>) -> String {
    match solved {
        Some(SolveMode::Exact) => "100%".into(),
        Some(SolveMode::WinLossDraw) => "100%W".into(),
        None => depth.to_string(),
    }
}

/// `search {pv} {eval} 0 {depth}`, or `None` for a search stopped before its first iteration.
fn search_line(r: &Report) -> Option<String> {
    if r.depth == 0 && r.solved.is_none() {
        return None;
    }
    let pv = if r.pv.is_empty() {
        vec![r.best]
    } else {
        r.pv.clone()
    };
    Some(format!(
        "search {} {} 0 {}",
        pv_text(&pv, "-"),
        eval_text(r.score),
        depth_token(r.depth, r.solved)
    ))
}

fn candidate_line(c: &ScoredRootMove) -> Option<String> {
    search_line(&c.to_report())
}

/// `book {pv} {eval} {games} {depth}`: the depth the book's value was searched to (`100%`
/// only when it is solved). The game count saturates at 16,777,215 in the book file (65,535
/// in format version 1) and is clamped to what the GUI reads (a 32-bit int).
pub fn book_line(m: &BookMove) -> String {
    let solved = m.solved.then_some(SolveMode::Exact);
    format!(
        "book {} {} {} {}",
        upper(m.mv),
        eval_text(Score::from_discs(m.score)),
        m.games.min(i32::MAX as u64),
        depth_token(m.depth, solved)
    )
}

fn nodestats(nodes: u64, millis: u64) -> String {
    format!("nodestats {nodes} {:.2}", millis as f64 / 1000.0)
}

impl Protocol for Nboard {
    type Job = Job;

    fn line(&mut self, line: &str, ctx: &mut Ctx<'_, Job>) -> Flow {
        match parse_nboard_line(line) {
            Ok(cmd) => self.command(cmd, ctx),
            Err(NboardParseError::Unknown(w)) => {
                tracing::warn!("ignoring unknown command {w:?}");
                Flow::Continue
            }
            Err(e) => {
                error(ctx, &e.to_string());
                Flow::Continue
            }
        }
    }

    fn event(&mut self, event: Event, job: &mut Job, ctx: &mut Ctx<'_, Job>) {
        match event {
            Event::Progress { report, .. } => {
                if let (Job::Hint { last } | Job::Go { last, .. }, Some(l)) =
                    (&mut *job, search_line(&report))
                {
                    ctx.out().line(&l);
                    *last = Some(l);
                }
            }
            Event::Book { moves, .. } => {
                if let Job::Go { book, .. } = job {
                    *book = true;
                }
                for m in &moves {
                    ctx.out().line(&book_line(m));
                }
            }
            Event::Candidates {
                list,
                nodes,
                millis,
                ..
            } => {
                let lines: Vec<String> = list.iter().filter_map(candidate_line).collect();
                ctx.out().message(&format!("{}\n", lines.join("\n")));
                ctx.out().line(&nodestats(nodes, millis));
            }
            Event::Position { index, report, .. } => {
                ctx.out()
                    .line(&format!("analysis {index} {}", eval_text(report.score)));
            }
            Event::Done { outcome, .. } => match (job, outcome) {
                (Job::Hint { last }, Outcome::Best(r)) => {
                    let line = search_line(&r);
                    if line.is_some() && line != *last {
                        ctx.out().line(line.as_deref().unwrap_or_default());
                    }
                    ctx.out().line(&nodestats(r.nodes, r.millis));
                    ctx.out().line(STATUS_DONE);
                }
                (Job::Hint { .. } | Job::Analyze, _) => ctx.out().line(STATUS_DONE),
                (Job::Go { last, book }, Outcome::Best(r)) => {
                    let line = search_line(&r);
                    if line.is_some() && line != *last {
                        ctx.out().line(line.as_deref().unwrap_or_default());
                    }
                    ctx.out().line(&nodestats(r.nodes, r.millis));
                    let secs = r.millis as f64 / 1000.0;
                    let eval = if r.depth == 0 && r.solved.is_none() && !*book {
                        String::new()
                    } else {
                        format!("{:.2}", r.score.as_f64())
                    };
                    ctx.out()
                        .line(&format!("=== {}/{eval}/{secs:.1}", upper(r.best)));
                    ctx.out().line(STATUS_DONE);
                }
                // `learned` only when the game is in the book; otherwise the status line says
                // what happened and that the game waits.
                (Job::Learn, Outcome::Learned(result)) => match result {
                    Ok(what) => {
                        tracing::info!("learned: {what}");
                        ctx.out().line("learned");
                        ctx.out().line(STATUS_DONE);
                    }
                    Err(e) if e.interrupted() => {
                        tracing::info!("learn: {e}");
                        ctx.out()
                            .line(&format!("status learn: {}", one_line(&e.to_string())));
                    }
                    Err(e) => error(ctx, &format!("learn: {e}")),
                },
                _ => {}
            },
        }
    }

    fn refused(&mut self, why: &Refused, ctx: &mut Ctx<'_, Job>) {
        error(ctx, &format!("{why}; ignored"));
    }
}
