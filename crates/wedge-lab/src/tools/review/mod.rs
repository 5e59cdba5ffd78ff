//! Game review (`wedge review`): every move of a game valued against the best move by the
//! search (exact near the end, searched before), the discs each move lost, each side's
//! mistakes and blunders, the move where the result was decided, and the book's answer where
//! the position is in the book; as a table, and as the JSON that `--json` prints and the page
//! (`tools::review_html`) carries.
//!
//! How a position is valued: one search of the position finds the best move, then the best
//! move and the move played are each valued by a search of the position after them, with the
//! same limits (an exact solve when the first search solved, else one ply less than it
//! reached, at its selectivity). So the best value and the played value come from searches of
//! one kind and the loss (best minus played, never negative) is consistent; where the search
//! after the move played values it above the first search's choice, the move played is the
//! best one found.

mod report;

pub use report::{run_json, write_table};

pub(crate) use report::decided_text;

use crate::tools::json::Json;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use wedge_core::board::{Board, Move};
use wedge_core::book::BookSource;
use wedge_core::eval::Evaluator;
use wedge_core::formats::{Color, Game, GameFileError, GamePlace, GameRecordError, Position};
use wedge_core::search::{Limits, Score, Searcher, Selectivity, SolveMode, TimeControl};
use wedge_engine::ScoredRootMove;
use wedge_engine::{offered_moves, OfferedMove};

/// A move losing at least this much is a mistake.
pub const MISTAKE: Score = Score::from_discs(2);
/// A move losing at least this much is a blunder (and not counted as a mistake).
pub const BLUNDER: Score = Score::from_discs(6);

/// Why a game could not be reviewed.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The file itself could not be read (its games are not reviewed).
    #[error(transparent)]
    File(#[from] GameFileError),
    /// One game of the file does not parse or replay (the others are reviewed).
    #[error("{} {place}: {source}", path.display())]
    Game {
        path: PathBuf,
        place: GamePlace,
        source: GameRecordError,
    },
    /// The file holds no game.
    #[error("{}: no game in the file", path.display())]
    NoGame { path: PathBuf },
}

impl ReviewError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            ReviewError::File(
                GameFileError::List { path, .. }
                | GameFileError::Read { path, .. }
                | GameFileError::Wthor { path, .. },
            )
            | ReviewError::Game { path, .. }
            | ReviewError::NoGame { path } => path,
        }
    }

    /// The game the error is about, when it is about one game.
    pub fn place(&self) -> Option<GamePlace> {
        match self {
            ReviewError::Game { place, .. } => Some(*place),
            _ => None,
        }
    }
}

/// How deep each position is searched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReviewSettings {
    /// Midgame depth of the search that finds the best move (the moves are valued one ply
    /// less deep, from the position after them).
    pub depth: u32,
    pub selectivity: Selectivity,
    /// Instead of `depth`: about this long for the search that finds the best move, which
    /// sets the depth of the searches after the moves.
    pub time: Option<Duration>,
    /// Positions with at most this many empties are solved exactly.
    pub exact_empties: u32,
}

impl Default for ReviewSettings {
    fn default() -> ReviewSettings {
        ReviewSettings {
            depth: DEFAULT_DEPTH,
            selectivity: DEFAULT_SELECTIVITY,
            time: None,
            exact_empties: DEFAULT_EXACT_EMPTIES,
        }
    }
}

/// The default midgame depth (a 60-move game in well under 30 s on one core; see README).
pub const DEFAULT_DEPTH: u32 = 18;
/// The default selectivity: play's on a clock (87 %).
pub const DEFAULT_SELECTIVITY: Selectivity = Selectivity::PLAY;
/// The default number of empties from which positions are solved exactly.
pub const DEFAULT_EXACT_EMPTIES: u32 = 24;

impl ReviewSettings {
    /// The limits of the search that finds a position's best move: no win/loss/draw solves,
    /// an exact one at `exact_empties` or fewer.
    pub fn limits(&self) -> Limits {
        let base = Limits {
            depth: self.depth.clamp(2, 60),
            selectivity: self.selectivity,
            solve: Some(SolveMode::Exact),
            solve_empties: self.exact_empties.min(60),
            wld_empties: 0,
            time: TimeControl::Infinite,
        };
        match self.time {
            Some(t) => Limits {
                depth: 60,
                time: TimeControl::PerMove(t),
                ..base
            },
            None => base,
        }
    }

    /// The settings as JSON.
    fn to_json(self) -> Json {
        Json::object([
            (
                "depth",
                Json::or_null(self.time.is_none().then_some(self.depth)),
            ),
            (
                "selectivity",
                Json::from(u32::from(self.selectivity.percent())),
            ),
            ("seconds", Json::or_null(self.time.map(|t| t.as_secs_f64()))),
            ("exact_empties", Json::from(self.exact_empties)),
        ])
    }
}

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

    fn to_json(&self) -> Json {
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
fn legal_prefix(board: &Board, line: &[Move]) -> Vec<Move> {
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
fn for_black(score: Score, to_move: Color) -> Score {
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
    fn names(&self) -> (&str, &str) {
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

    /// Reviews every move of `game` in order, calling `done` after each.
    pub fn review(
        &self,
        path: &Path,
        place: GamePlace,
        game: &Game,
        done: &mut dyn FnMut(),
    ) -> GameReview {
        self.searcher.clear();
        // The table's pages faulted in now (once), not within the first timed search.
        self.searcher.table().new_search();
        let positions = game.positions();
        let mut moves = Vec::with_capacity(game.moves().len());
        for (&played, &before) in game.moves().iter().zip(&positions) {
            let judged = (played != Move::Pass).then(|| self.judge(&before.board, played));
            let book = self
                .book
                .and_then(|b| book_answer(b, &before.board, played));
            moves.push(MoveReview {
                before,
                played,
                judged,
                book,
            });
            done();
        }
        GameReview {
            path: path.to_path_buf(),
            place,
            game: game.clone(),
            moves,
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

/// The games of a file to review, and an error for each of its games that cannot be.
#[derive(Debug, Default)]
pub struct FileGames {
    pub games: Vec<(GamePlace, Game)>,
    pub errors: Vec<ReviewError>,
}

/// The games of `path` ([`wedge_core::formats::read_game_records`]); a file that cannot be read,
/// or holds no game, is an error of its own.
pub fn read_games(path: &Path) -> Result<FileGames, ReviewError> {
    let records = wedge_core::formats::read_game_records(path)?;
    if records.is_empty() {
        return Err(ReviewError::NoGame {
            path: path.to_path_buf(),
        });
    }
    let mut out = FileGames::default();
    for r in records {
        match r.game {
            Ok(g) => out.games.push((r.place, g)),
            Err(source) => out.errors.push(ReviewError::Game {
                path: path.to_path_buf(),
                place: r.place,
                source,
            }),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::report::game_json;
    use super::*;
    use std::sync::Arc;
    use wedge_core::eval::Heuristic;
    use wedge_core::formats::{replay_inferring_passes, PassPolicy, Position};
    use wedge_core::search::{solve_root, TranspositionTable};

    fn value(mv: &str, discs: i32, kind: ValueKind) -> MoveValue {
        let mv: Move = mv.parse().unwrap();
        MoveValue {
            mv,
            score: Score::from_discs(discs),
            kind,
            pv: vec![mv],
        }
    }

    /// A review of `game` whose judged moves have the (best, played) values given, in order
    /// of the non-pass moves.
    fn review_of(game: &Game, values: &[(MoveValue, MoveValue)]) -> GameReview {
        let mut values = values.iter();
        let moves = game
            .moves()
            .iter()
            .zip(game.positions())
            .map(|(&played, before)| MoveReview {
                before,
                played,
                judged: (played != Move::Pass).then(|| {
                    let (best, played) = values.next().unwrap().clone();
                    Judged { best, played }
                }),
                book: None,
            })
            .collect();
        GameReview {
            path: PathBuf::from("t.ggf"),
            place: GamePlace::Game(1),
            game: game.clone(),
            moves,
        }
    }

    const D10: ValueKind = ValueKind::Searched {
        depth: 10,
        selectivity: Selectivity::PLAY,
    };

    #[test]
    fn losses_sort_moves_into_mistakes_and_blunders_per_side() {
        let game = replay_inferring_passes("f5d6c3d3").unwrap();
        let r = review_of(
            &game,
            &[
                (value("f5", 1, D10), value("f5", 1, D10)),
                (value("c5", 3, D10), value("d6", 1, D10)),
                (value("c4", 2, D10), value("c3", -4, D10)),
                (value("c4", 5, D10), value("d3", 3, D10)),
            ],
        );
        let black = r.side(Color::Black);
        let white = r.side(Color::White);
        assert_eq!(
            (
                black.judged,
                black.total_loss,
                black.mistakes,
                black.blunders
            ),
            (2, Score::from_discs(6), vec![], vec![2])
        );
        assert_eq!(white.average_loss(), 2.0);
        assert_eq!(
            (
                white.judged,
                white.total_loss,
                white.mistakes,
                white.blunders
            ),
            (2, Score::from_discs(4), vec![1, 3], vec![])
        );
        // Values after each move, for Black.
        let after: Vec<i32> = r
            .values_for_black()
            .into_iter()
            .map(|v| v.unwrap().discs())
            .collect();
        assert_eq!(after, [1, -1, -4, -3]);
        // Only searched values: nothing decided.
        assert_eq!(r.decided(), Decided::Unknown);
        // A played value above the best one is no loss.
        let better = Judged {
            best: value("c4", 1, D10),
            played: value("c3", 2, D10),
        };
        assert_eq!(better.loss(), Some(Score::from_discs(0)));
    }

    #[test]
    fn the_result_is_decided_by_the_last_move_that_changes_the_solved_outcome() {
        let exact = ValueKind::Exact;
        let game = replay_inferring_passes("f5d6c3d3c4").unwrap();
        let r = review_of(
            &game,
            &[
                (value("f5", 0, D10), value("f5", -3, D10)),
                (value("d6", 2, exact), value("d6", -2, exact)),
                (value("c3", 2, exact), value("c3", 2, exact)),
                (
                    value("d3", -2, exact),
                    value("d3", 0, ValueKind::WinLossDraw),
                ),
                (value("c4", 0, exact), value("c4", 0, exact)),
            ],
        );
        // Move 2 turns a win into a loss, move 4 a loss into a draw (win/loss/draw only: no
        // loss measured there).
        assert_eq!(r.decided(), Decided::At(3));
        assert_eq!(r.moves[3].loss(), None);
        assert!(decided_text(&r).starts_with("decided at move 4 (White d3): a draw instead of"));
        let steady = review_of(
            &game,
            &[
                (value("f5", 0, D10), value("f5", 0, D10)),
                (value("d6", 2, exact), value("d6", 2, exact)),
                (value("c3", -2, exact), value("c3", -2, exact)),
                (value("d3", 2, exact), value("d3", 2, exact)),
                (value("c4", -2, exact), value("c4", -4, exact)),
            ],
        );
        assert_eq!(steady.decided(), Decided::Before(1));
        assert_eq!(steady.moves[4].severity(), Some(Severity::Mistake));
    }

    #[test]
    fn a_forced_pass_is_not_judged_and_takes_its_value_from_the_next_move() {
        // The first of a family of deterministic games with a pass followed by a move,
        // cut just after that move.
        let game = (1..)
            .find_map(|k: usize| {
                let mut g = Game::new(Position::START);
                while !g.is_over() {
                    let moves = g.legal_moves();
                    let n = g.moves().len();
                    g.play(moves[(n * k) % moves.len()]).unwrap();
                    if n > 0 && g.moves()[n - 1] == Move::Pass {
                        return Some(g);
                    }
                }
                None
            })
            .unwrap();
        let judged = game.moves().iter().filter(|&&m| m != Move::Pass).count();
        let values: Vec<(MoveValue, MoveValue)> = game
            .moves()
            .iter()
            .filter(|&&m| m != Move::Pass)
            .enumerate()
            .map(|(i, m)| {
                let v = value(&m.to_string(), i as i32, D10);
                (v.clone(), v)
            })
            .collect();
        assert_eq!(values.len(), judged);
        let r = review_of(&game, &values);
        let pass = r.moves.iter().position(|m| m.played == Move::Pass).unwrap();
        assert!(r.moves[pass].judged.is_none() && r.moves[pass].loss().is_none());
        let after = r.values_for_black();
        let next = &r.moves[pass + 1];
        let expected = for_black(next.judged.as_ref().unwrap().best.score, next.color());
        assert_eq!(after[pass], Some(expected));
        assert_eq!(after.len(), game.moves().len());
    }

    #[test]
    fn lines_keep_their_legal_prefix_only() {
        let b = Board::START;
        let line: Vec<Move> = ["f5", "d6", "a1", "c3"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        assert_eq!(legal_prefix(&b, &line), line[..2].to_vec());
        assert_eq!(legal_prefix(&b, &[Move::Pass]), vec![]);
    }

    /// A real review of an endgame with a small table: every value is exact and equals the
    /// solver's, and the loss is the difference of two solves.
    #[test]
    fn an_endgame_review_gives_the_solvers_values() {
        // The first legal square each time, from the start to the end; reviewed from 14
        // empties.
        let mut all = Game::new(Position::START);
        while !all.is_over() {
            let mv = all.legal_moves()[0];
            all.play(mv).unwrap();
        }
        let positions = all.positions();
        let first = positions
            .iter()
            .position(|p| p.board.empty_count() == 14)
            .unwrap();
        let game = Game::from_moves(
            positions[first],
            all.moves()[first..].to_vec(),
            PassPolicy::Explicit,
        )
        .unwrap();
        let searcher = Searcher::new(Arc::new(Heuristic), 4, 1);
        let settings = ReviewSettings {
            depth: 4,
            exact_empties: 14,
            ..ReviewSettings::default()
        };
        let r = Reviewer::new(&searcher, None, settings).review(
            Path::new("t"),
            GamePlace::Line(1),
            &game,
            &mut || {},
        );
        let tt = TranspositionTable::new(4);
        let solve = |b: &Board| {
            let never = AtomicBool::new(false);
            solve_root(b, -64, 64, &tt, &Heuristic, &never).score
        };
        for m in &r.moves {
            let Some(j) = &m.judged else { continue };
            let before = m.before.board;
            let after = before.apply(m.played).unwrap();
            assert_eq!(
                (j.best.kind, j.played.kind),
                (ValueKind::Exact, ValueKind::Exact)
            );
            assert_eq!(j.best.score, Score::from_discs(solve(&before)));
            assert_eq!(j.played.score, Score::from_discs(-solve(&after)));
            assert_eq!(j.best.pv.first(), Some(&j.best.mv));
            assert_eq!(legal_prefix(&before, &j.best.pv), j.best.pv);
        }
        // The JSON carries one entry per move, with the board before it.
        let json = game_json(&r).to_string();
        assert_eq!(json.matches("\"board\":").count(), game.moves().len());
    }
}
