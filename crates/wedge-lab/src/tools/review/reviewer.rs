//! The review of a game: each move's value against the best move's, its severity, each
//! side's summary, where the result was decided ([`GameReview`]), and the [`Reviewer`] that
//! searches them.

use super::games::RecordedGame;
use super::settings::{ReviewSettings, BLUNDER, MISTAKE};
use crate::tools::json::Json;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use wedge_core::board::{Board, Move};
use wedge_core::book::BookSource;
use wedge_core::eval::Evaluator;
use wedge_core::formats::{Clock, ClockSpent, Color, Game, GamePlace, Position};
use wedge_core::search::{Limits, Score, Searcher, Selectivity, SolveMode};
use wedge_engine::ScoredRootMove;
use wedge_engine::{offered_moves, OfferedMove};

/// How a value was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// Solved exactly to the end of the game.
    Exact,
    /// Solved to win, loss or draw only (the sign is exact, not the margin).
    WinLossDraw,
    /// A midgame search of `depth` plies from the position before the move.
    Searched {
        depth: u32,
        selectivity: Selectivity,
    },
}

impl ValueKind {
    fn of(m: &ScoredRootMove) -> ValueKind {
        match m.solved {
            Some(SolveMode::Exact) => ValueKind::Exact,
            Some(SolveMode::WinLossDraw) => ValueKind::WinLossDraw,
            None => ValueKind::Searched {
                depth: m.depth,
                selectivity: m.selectivity,
            },
        }
    }

    /// Whether the value's sign (win, draw or loss) is exact.
    pub(crate) fn is_solved(self) -> bool {
        matches!(self, ValueKind::Exact | ValueKind::WinLossDraw)
    }

    /// `exact`, `wld`, `d13@87%` (or `d13` without pruning).
    pub fn label(self) -> String {
        match self {
            ValueKind::Exact => "exact".into(),
            ValueKind::WinLossDraw => "wld".into(),
            ValueKind::Searched { depth, selectivity } if selectivity.0 > 0 => {
                format!("d{depth}@{}%", selectivity.percent())
            }
            ValueKind::Searched { depth, .. } => format!("d{depth}"),
        }
    }

    fn name(self) -> &'static str {
        match self {
            ValueKind::Exact => "exact",
            ValueKind::WinLossDraw => "wld",
            ValueKind::Searched { .. } => "searched",
        }
    }
}

/// A move's value for the side to move before it, and the line that gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveValue {
    pub mv: Move,
    pub score: Score,
    pub kind: ValueKind,
    /// Starts with `mv`; every move legal in turn (passes where forced).
    pub pv: Vec<Move>,
}

impl MoveValue {
    fn from_scored(board: &Board, m: &ScoredRootMove) -> MoveValue {
        MoveValue {
            mv: m.mv,
            score: m.score,
            kind: ValueKind::of(m),
            pv: legal_prefix(board, &m.pv),
        }
    }

    pub(super) fn to_json(&self) -> Json {
        let depth = match self.kind {
            ValueKind::Searched { depth, .. } => Json::from(depth),
            _ => Json::Null,
        };
        Json::object([
            ("move", Json::from(self.mv.to_string())),
            ("value", Json::from(self.score.as_f64())),
            ("kind", Json::from(self.kind.name())),
            ("label", Json::from(self.kind.label())),
            ("depth", depth),
            ("pv", moves_json(&self.pv)),
        ])
    }
}

/// The longest prefix of `line` that is legal from `board` (a pass only where forced, nothing
/// after the end of the game).
pub(super) fn legal_prefix(board: &Board, line: &[Move]) -> Vec<Move> {
    let mut b = *board;
    let mut out = Vec::with_capacity(line.len());
    for &mv in line {
        match b.apply(mv) {
            Ok(next) if !b.is_game_over() => {
                out.push(mv);
                b = next;
            }
            _ => break,
        }
    }
    out
}

fn moves_json(moves: &[Move]) -> Json {
    Json::Array(moves.iter().map(|m| Json::from(m.to_string())).collect())
}

/// The best move's value and the played move's, from searches of one kind.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    pub best: MoveValue,
    pub played: MoveValue,
}

impl Judged {
    /// Discs the move played gave away against the best (0 when it is the best): none when a
    /// value is only a win/loss/draw one.
    pub fn loss(&self) -> Option<Score> {
        let margins = |v: &MoveValue| v.kind != ValueKind::WinLossDraw;
        (margins(&self.best) && margins(&self.played)).then(|| {
            Score::from_eighths((self.best.score.eighths() - self.played.score.eighths()).max(0))
        })
    }
}

/// What the book says at a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookAnswer {
    /// The book's best move there.
    pub best: OfferedMove,
    /// The move played, when the book values it.
    pub played: Option<OfferedMove>,
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// Lost at least [`MISTAKE`], less than [`BLUNDER`].
    Mistake,
    /// Lost at least [`BLUNDER`].
    Blunder,
}

impl Severity {
    /// `mistake`, `blunder`: the JSON's word and the page's class.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Mistake => "mistake",
            Severity::Blunder => "blunder",
        }
    }

    /// `?`, `??`: the table's mark.
    pub(crate) fn mark(self) -> &'static str {
        match self {
            Severity::Mistake => "?",
            Severity::Blunder => "??",
        }
    }
}

/// One move of a game, reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// The position before the move.
    pub before: Position,
    pub played: Move,
    /// The seconds the move took, by the record.
    pub seconds: Option<f64>,
    /// The seconds the mover's clock had left before the move, by the record's clocks and
    /// seconds ([`ClockSpent`]); none without a clock.
    pub clock_left: Option<f64>,
    /// None for a forced pass (no choice to judge).
    pub judged: Option<Judged>,
    /// None when the position is not in the book (or there is no book).
    pub book: Option<BookAnswer>,
}

impl MoveReview {
    pub(crate) fn color(&self) -> Color {
        self.before.to_move
    }

    pub fn loss(&self) -> Option<Score> {
        self.judged.as_ref()?.loss()
    }

    pub fn severity(&self) -> Option<Severity> {
        match self.loss()? {
            l if l >= BLUNDER => Some(Severity::Blunder),
            l if l >= MISTAKE => Some(Severity::Mistake),
            _ => None,
        }
    }
}

/// A reviewed game.
#[derive(Clone, Debug)]
pub struct GameReview {
    pub path: PathBuf,
    pub place: GamePlace,
    pub game: Game,
    /// One per move of the game, in order.
    pub moves: Vec<MoveReview>,
    /// Black's and White's clocks at the start, by the record.
    pub clocks: [Option<Clock>; 2],
}

/// One side's moves, summed up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideSummary {
    /// Moves with a loss measured (forced passes are not moves to judge).
    pub judged: usize,
    pub total_loss: Score,
    /// Indices into the game's moves.
    pub mistakes: Vec<usize>,
    pub blunders: Vec<usize>,
}

impl SideSummary {
    /// Discs lost per judged move.
    pub(crate) fn average_loss(&self) -> f64 {
        self.total_loss.as_f64() / self.judged.max(1) as f64
    }
}

/// Where the game's result was decided, by the solved values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decided {
    /// The last move that changed the solved result (win, draw or loss), by its index.
    At(usize),
    /// No solved move changed it: it was decided before the first solved position (this
    /// move's index).
    Before(usize),
    /// No position was solved.
    Unknown,
}

/// Win (1), draw (0) or loss (-1) of a solved value; none for a searched one.
fn outcome(v: &MoveValue) -> Option<i32> {
    v.kind.is_solved().then(|| v.score.eighths().signum())
}

/// `score` for the side to move turned into Black's view.
pub(super) fn for_black(score: Score, to_move: Color) -> Score {
    match to_move {
        Color::Black => score,
        Color::White => -score,
    }
}

impl GameReview {
    /// The summary of `color`'s moves.
    pub fn side(&self, color: Color) -> SideSummary {
        let mut s = SideSummary::default();
        for (i, m) in self.moves.iter().enumerate() {
            if m.color() != color {
                continue;
            }
            let Some(loss) = m.loss() else { continue };
            s.judged += 1;
            s.total_loss = Score::from_eighths(s.total_loss.eighths() + loss.eighths());
            match m.severity() {
                Some(Severity::Blunder) => s.blunders.push(i),
                Some(Severity::Mistake) => s.mistakes.push(i),
                None => {}
            }
        }
        s
    }

    /// The move that decided the result: the last whose solved value before and after it
    /// differ in sign.
    pub fn decided(&self) -> Decided {
        let mut first_solved = None;
        let mut last_change = None;
        for (i, m) in self.moves.iter().enumerate() {
            let Some(j) = &m.judged else { continue };
            if outcome(&j.best).is_some() && first_solved.is_none() {
                first_solved = Some(i);
            }
            if let (Some(before), Some(after)) = (outcome(&j.best), outcome(&j.played)) {
                if before != after {
                    last_change = Some(i);
                }
            }
        }
        match (last_change, first_solved) {
            (Some(i), _) => Decided::At(i),
            (None, Some(i)) => Decided::Before(i),
            (None, None) => Decided::Unknown,
        }
    }

    /// The value after each move, for Black (one per move): the move played's value; for a
    /// forced pass, the next move's best value (else the value before the pass). None when
    /// nothing values it.
    pub(crate) fn values_for_black(&self) -> Vec<Option<Score>> {
        let mut out: Vec<Option<Score>> = self
            .moves
            .iter()
            .map(|m| {
                let j = m.judged.as_ref()?;
                Some(for_black(j.played.score, m.color()))
            })
            .collect();
        for i in 0..out.len() {
            if self.moves[i].judged.is_some() {
                continue;
            }
            let next = self.moves.get(i + 1).and_then(|n| {
                let j = n.judged.as_ref()?;
                Some(for_black(j.best.score, n.color()))
            });
            out[i] = next.or(if i > 0 { out[i - 1] } else { None });
        }
        out
    }

    /// Black's final disc difference when the game was played to its end.
    pub fn final_for_black(&self) -> Option<i32> {
        let last = self.game.position();
        last.board.is_game_over().then(|| {
            let s = last.board.final_score();
            match last.to_move {
                Color::Black => s,
                Color::White => -s,
            }
        })
    }

    /// `file game N`: where the game comes from.
    pub fn source(&self) -> String {
        format!("{} {}", self.path.display(), self.place)
    }

    /// The players' names, `?` where the record has none.
    pub(super) fn names(&self) -> (&str, &str) {
        let info = &self.game.info;
        (
            info.black.as_deref().unwrap_or("?"),
            info.white.as_deref().unwrap_or("?"),
        )
    }
}

/// Reviews games with one searcher (its table kept from move to move of a game, cleared
/// between games) and, optionally, a book.
pub struct Reviewer<'a, E: Evaluator> {
    searcher: &'a Searcher<E>,
    book: Option<&'a dyn BookSource>,
    settings: ReviewSettings,
}

impl<'a, E: Evaluator> Reviewer<'a, E> {
    pub fn new(
        searcher: &'a Searcher<E>,
        book: Option<&'a dyn BookSource>,
        settings: ReviewSettings,
    ) -> Self {
        Reviewer {
            searcher,
            book,
            settings,
        }
    }

    /// Reviews every move of `recorded`'s game in order, calling `done` after each.
    pub fn review(
        &self,
        path: &Path,
        recorded: &RecordedGame,
        done: &mut dyn FnMut(),
    ) -> GameReview {
        let game = &recorded.game;
        self.searcher.clear();
        // The table's pages faulted in now (once), not within the first timed search.
        self.searcher.table().new_search();
        let positions = game.positions();
        let mut moves = Vec::with_capacity(game.moves().len());
        let mut clocks = recorded.clocks.map(|c| c.map(ClockSpent::new));
        for ((&played, &before), &seconds) in
            game.moves().iter().zip(&positions).zip(&recorded.seconds)
        {
            let [black, white] = &mut clocks;
            let clock = match before.to_move {
                Color::Black => black,
                Color::White => white,
            };
            let clock_left = clock.map(|c| c.left_ms() as f64 / 1000.0);
            if let Some(c) = clock {
                c.spend(seconds);
            }
            let judged = (played != Move::Pass).then(|| self.judge(&before.board, played));
            let book = self
                .book
                .and_then(|b| book_answer(b, &before.board, played));
            moves.push(MoveReview {
                before,
                played,
                seconds,
                clock_left,
                judged,
                book,
            });
            done();
        }
        GameReview {
            path: path.to_path_buf(),
            place: recorded.place,
            game: game.clone(),
            moves,
            clocks: recorded.clocks,
        }
    }

    /// The best move of `board` and the value of it and of `played` (a legal square).
    fn judge(&self, board: &Board, played: Move) -> Judged {
        let stop = AtomicBool::new(false);
        let root = self
            .searcher
            .search(board, &self.settings.limits(), &stop, &mut |_| {});
        let child_limits = match root.solved {
            Some(mode) => Limits::solve(mode),
            None => Limits {
                selectivity: root.selectivity,
                ..Limits::depth(root.depth.max(2) - 1)
            },
        };
        let value = |mv: Move| -> MoveValue {
            let child = board.apply(mv).expect("a legal move");
            let r = self
                .searcher
                .search(&child, &child_limits, &stop, &mut |_| {});
            MoveValue::from_scored(board, &ScoredRootMove::from_child(mv, &r))
        };
        let first = if root.best == Move::Pass {
            played
        } else {
            root.best
        };
        let best = value(first);
        let played = if played == first {
            best.clone()
        } else {
            value(played)
        };
        // The searches after the moves have the last word: the move played may be the best.
        let best = if played.score > best.score {
            played.clone()
        } else {
            best
        };
        Judged { best, played }
    }
}

/// The book's answer at `board`: its best move, and its value of `played`.
fn book_answer(book: &dyn BookSource, board: &Board, played: Move) -> Option<BookAnswer> {
    let offered = offered_moves(book, board, 64);
    let best = *offered.first()?;
    let played = offered
        .iter()
        .find(|m| Some(m.sq) == played.square())
        .copied();
    Some(BookAnswer { best, played })
}
