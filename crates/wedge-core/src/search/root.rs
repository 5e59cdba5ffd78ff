//! The root: iterative deepening with aspiration windows over the root moves, the final exact
//! or win/loss/draw solve, the principal variation, and progress reports after each iteration.

use super::context::{Context, TT_MIN_DEPTH};
use super::limits::{Deadline, Limits, Selectivity, SolveMode, TimeControl};
use super::node::Root;
use super::ordering::{reorder_roots, root_moves, MidgameOrdering, RootMove};
use super::score::Score;
use super::tt::NO_SELECTIVITY;
use crate::board::{Board, Move, Square};
use crate::eval::{Evaluator, EIGHTHS_PER_DISC, MAX_EIGHTHS};
use std::time::Instant;

/// What one finished (or interrupted) iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Depth in plies; equal to the empties for a solve.
    pub depth: u32,
    pub selectivity: Selectivity,
    /// Set when the score is a solve to the end of the game.
    pub solved: Option<SolveMode>,
    /// Disc difference for the side to move, in eighths of a disc (a solve's is whole discs;
    /// in a win/loss/draw solve only its sign is exact).
    pub score: Score,
    pub best: Move,
    pub pv: Vec<Move>,
    /// Nodes of every thread since the search began, when the report was made (in the
    /// search's result: at its end).
    pub nodes: u64,
    /// Milliseconds since the search began, when the report was made (the same).
    pub millis: u64,
}

/// Midgame iterations stop this many plies short of the end before a solve (the selective
/// pass at full depth does the rest); smaller solves stop 10 short.
const SOLVE_PRESEARCH_GAP: u32 = 14;
const SMALL_SOLVE_PRESEARCH_GAP: u32 = 10;
/// The selective passes at full depth before an exact solve (levels of
/// [`Selectivity::PERCENT`]: 87 % then 95 %): they fill the table with moves and bounds for
/// the exact pass.
const SELECTIVE_SOLVE_PASSES: &[u8] = &[4, 3];
/// Solves with fewer empties go straight to the exact pass after a presearch to
/// [`SMALL_SOLVE_PRESEARCH_GAP`] plies short of the end.
const SELECTIVE_SOLVE_MIN: u32 = 21;
/// In a solve, midgame null-window nodes skip the table (and Multi-ProbCut) below this
/// depth (elsewhere [`TT_MIN_DEPTH`]).
const SOLVE_TT_MIN_DEPTH: u32 = 4;
/// Half-width of the aspiration window in eighths of a disc (4 discs).
const ASPIRATION: i32 = 4 * EIGHTHS_PER_DISC;

/// Runs the iterations asked by `limits` on `board`, calling `report` after each completed
/// one. Returns the last report with the whole search's nodes and time (the best move of a
/// position without moves is `Move::Pass`). `speeds` are those measured by the searches
/// before (on a clock, they predict the passes of a search too short to time its own), and
/// this search's measures are added to them.
pub fn iterate<E: Evaluator>(
    ctx: &mut Context<'_, E>,
    board: &Board,
    limits: &Limits,
    deadline: Deadline,
    start: Instant,
    speeds: &mut MeasuredSpeeds,
    report: &mut dyn FnMut(&Report),
) -> Report {
    let Deadline {
        soft: soft_deadline,
        hard: hard_deadline,
    } = deadline;
    let n = board.empty_count();
    let all = board.legal_moves();
    if all == 0 {
        return no_move_report(ctx, board, limits, start, report);
    }
    let moves = match all & ctx.root_moves {
        0 => all,
        some => some,
    };
    let mut roots = root_moves(board, moves);

    let schedule = schedule(limits, n);
    let solving = schedule
        .iter()
        .any(|step| step.mode.is_some() || step.reaches_end(n));
    ctx.midgame_ordering = MidgameOrdering::new(solving);
    ctx.tt_min_depth = if solving {
        SOLVE_TT_MIN_DEPTH
    } else {
        TT_MIN_DEPTH
    };
    let timed = limits.time != TimeControl::Infinite;
    let mut last: Option<Report> = None;
    let mut budget = IterationBudget::new(start, *speeds);
    // On a clock: a pass to the end that cannot finish in time is skipped with the surer ones
    // after it, and the midgame goes on deeper instead; once a pass reached the end, no
    // midgame iteration replaces its result.
    let mut skip_passes = false;
    let mut reached_end = false;
    let mut stability = BestMoveStability::default();
    // The soft deadline as a time from the start, which the stability scales.
    let planned = soft_deadline.map(|d| d.saturating_duration_since(start));
    for step in schedule {
        let to_end = step.reaches_end(n);
        if (to_end && skip_passes) || (!to_end && reached_end) {
            continue;
        }
        if let Some(r) = &last {
            if r.solved == Some(SolveMode::Exact) {
                break;
            }
            if planned.is_some_and(|p| start.elapsed() >= p.mul_f64(stability.soft_scale())) {
                break;
            }
            if timed && !budget.fits(&step, n, hard_deadline) {
                tracing::debug!(
                    "skip {step}: predicted {:.2} s",
                    budget.predicted_secs(&step, n).unwrap_or(0.0)
                );
                if to_end {
                    skip_passes = true;
                    continue;
                }
                break;
            }
        }
        let guess = last.as_ref().map(|r| r.score.eighths());
        ctx.selectivity = step.selectivity;
        let before = all_nodes(ctx);
        let score = search_iteration(ctx, board, &mut roots, step.depth, step.mode, guess);
        if ctx.stopped {
            tracing::debug!(
                "{step} cut short after {:.3} s",
                budget.last_end.elapsed().as_secs_f64()
            );
        }
        let Some(score) = score else {
            break;
        };
        let mode = step.mode.or(to_end.then_some(SolveMode::Exact));
        let mode = mode.filter(|_| step.selectivity == NO_SELECTIVITY || !to_end);
        let r = make_report(ctx, board, &roots, step.depth, mode, score, start);
        if !ctx.stopped {
            stability.finished(r.best);
        }
        report(&r);
        last = Some(r);
        if ctx.stopped {
            break;
        }
        reached_end |= to_end;
        let nodes = all_nodes(ctx) - before;
        budget.finished(&step, n, nodes);
        tracing::debug!(
            "{step}: {} nodes, {:.3} s",
            nodes,
            budget.last_secs.unwrap_or(0.0)
        );
    }
    *speeds = budget.speeds();
    let mut r = last.unwrap_or_else(|| {
        // Stopped before the first iteration finished: the best-ordered move, unscored.
        make_report(ctx, board, &roots, 0, None, 0, start)
    });
    // The whole search's nodes and time, an iteration cut short by a stop included.
    r.nodes = all_nodes(ctx);
    r.millis = start.elapsed().as_millis() as u64;
    r
}

/// The nodes every thread of the search has counted so far: the main thread's and those its
/// helpers counted in the split points they left. The reports give them, and the iteration
/// budget's speeds and hardness are of the whole search (the typical nodes of a pass are one
/// thread's whole search).
fn all_nodes<E: Evaluator>(ctx: &Context<'_, E>) -> u64 {
    ctx.nodes
        + ctx.pool.map_or(0, |p| {
            p.helper_nodes.load(std::sync::atomic::Ordering::Relaxed)
        })
}

/// How long the best move has stayed the same over the finished iterations: on a clock (or a
/// time per move), a move that just changed gets more of the planned time, and one that has
/// held for several iterations less (the soft deadline scaled by
/// [`BestMoveStability::soft_scale`]).
#[derive(Clone, Copy, Debug, Default)]
struct BestMoveStability {
    best: Option<Move>,
    /// Finished iterations in a row that confirmed `best`: the first iteration's choice counts
    /// one, a change restarts at 0 (so a changed move needs one confirmation more to settle).
    held: u32,
}

/// The soft deadline's scale when the last iteration changed the best move.
const CHANGED_SOFT_SCALE: f64 = 1.5;
/// The soft deadline's scale once the best move has held for [`STABLE_ITERATIONS`].
const STABLE_SOFT_SCALE: f64 = 0.6;
const STABLE_ITERATIONS: u32 = 4;

impl BestMoveStability {
    fn finished(&mut self, best: Move) {
        if self.best == Some(best) {
            self.held += 1;
        } else {
            // The first iteration sets the move; a later one that changes it starts anew.
            self.held = u32::from(self.best.is_none());
            self.best = Some(best);
        }
    }

    fn soft_scale(&self) -> f64 {
        match self.held {
            0 => CHANGED_SOFT_SCALE,
            h if h >= STABLE_ITERATIONS => STABLE_SOFT_SCALE,
            _ => 1.0,
        }
    }
}

/// One step of the iteration schedule: a search of the root to `depth` plies with a
/// selectivity level, ending in a solve of `mode` when it reaches the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    depth: u32,
    mode: Option<SolveMode>,
    selectivity: u8,
}

/// As the debug log names an iteration: `depth 32 at 87 % (None)`.
impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let percent = Selectivity(self.selectivity).percent();
        write!(f, "depth {} at {} % ({:?})", self.depth, percent, self.mode)
    }
}

impl Step {
    /// Whether this step searches a position with `n` empties to the end of the game.
    fn reaches_end(&self, n: u32) -> bool {
        self.depth >= n
    }
}

/// The iterations `limits` asks for on a position with `n` empties: midgame depths with the
/// limits' selectivity, then, where the limits solve this position, the probable solves
/// (selective passes at full depth, least sure first) and the solve itself. A solve of
/// win/loss/draw is followed by the exact one when the limits solve exactly from here.
fn schedule(limits: &Limits, n: u32) -> Vec<Step> {
    let exact = limits.solve.filter(|_| n <= limits.solve_empties);
    let wld = (n <= limits.wld_empties).then_some(SolveMode::WinLossDraw);
    let solve = exact.or(wld);
    let large_solve = n >= SELECTIVE_SOLVE_MIN;
    let gap = if large_solve {
        SOLVE_PRESEARCH_GAP
    } else {
        SMALL_SOLVE_PRESEARCH_GAP
    };
    let last_mid = match solve {
        Some(_) => limits.depth.min(n.saturating_sub(gap)),
        None => limits.depth.min(n),
    };
    let mut steps: Vec<Step> = (1..=last_mid)
        .map(|depth| Step {
            depth,
            mode: None,
            selectivity: if depth >= n {
                NO_SELECTIVITY
            } else {
                limits.selectivity.0
            },
        })
        .collect();
    if steps.last().is_some_and(|s| s.reaches_end(n)) {
        return steps;
    }
    let Some(mode) = solve else {
        return steps;
    };
    if large_solve {
        // Timed play may run out of time in the exact pass: it first looks for the surer
        // probable solves (these passes also fill the table for the next).
        let passes: &[u8] = if limits.time == TimeControl::Infinite {
            SELECTIVE_SOLVE_PASSES
        } else {
            TIMED_SOLVE_PASSES
        };
        for &sel in passes {
            steps.push(Step {
                depth: n,
                mode: None,
                selectivity: sel,
            });
        }
    }
    let mut push_solve = |mode| {
        steps.push(Step {
            depth: n,
            mode: Some(mode),
            selectivity: NO_SELECTIVITY,
        })
    };
    let timed = limits.time != TimeControl::Infinite;
    if mode == SolveMode::Exact && n <= limits.wld_empties && timed {
        // On a clock a win/loss/draw solve is the result that decides the game; the exact
        // score follows when time allows.
        push_solve(SolveMode::WinLossDraw);
    }
    push_solve(mode);
    if timed {
        // When no pass to the end fits in the time, deeper midgame iterations use it.
        steps.extend((last_mid + 1..=limits.depth.min(n - 1)).map(|depth| Step {
            depth,
            mode: None,
            selectivity: limits.selectivity.0,
        }));
    }
    steps
}

/// The probable solves before a solve in timed play, least sure first (levels of
/// [`Selectivity::PERCENT`]: 73, 87 and 95 %).
const TIMED_SOLVE_PASSES: &[u8] = &[5, 4, 3];

/// The speeds of the searches before, on this machine: a search whose own iterations are
/// too short to time (the table knew the position from the move before) predicts its passes
/// from them, not from a few milliseconds spent mostly outside the nodes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MeasuredSpeeds {
    /// Nodes per second of midgame iterations of at least [`RATE_NODES`] together.
    pub midgame: Option<f64>,
    /// Nodes per second of the last pass to the end long enough to time.
    pub pass: Option<f64>,
}

/// Predicts whether the next iteration ends before the hard deadline, from the time the
/// finished ones took: an iteration that cannot finish is not started, and its time stays on
/// the clock for the next moves.
struct IterationBudget {
    /// When the last iteration finished.
    last_end: Instant,
    /// Seconds of the last iteration and of the one before it.
    last_secs: Option<f64>,
    before_last_secs: Option<f64>,
    /// Nodes and seconds of this search's midgame iterations together, whose ratio is the
    /// midgame's speed (one iteration alone is too short to time once the table knows the
    /// position).
    midgame_nodes: f64,
    midgame_secs: f64,
    /// How hard the last finished pass to the end found the position: its nodes against the
    /// typical ones of its kind, at least [`HARDNESS_FLOOR`].
    pass_hardness: Option<f64>,
    /// Nodes per second of the last pass to the end long enough to time whose hardness was
    /// above the floor (before this search timed one, the searches' before).
    pass_rate: Option<f64>,
    /// The midgame speed of the searches before.
    earlier_midgame: Option<f64>,
}

/// The least hardness a pass to the end gives the next: a pass the table had answered
/// already (a few nodes) does not make a surer one, which needs nodes of its own, free.
const HARDNESS_FLOOR: f64 = 0.1;

/// Iterations of at most this many seconds (the midgame's added together) give no speed.
const UNTIMED_SECS: f64 = 1e-3;

/// The least midgame speed the budget assumes, in nodes per second.
const MIN_MIDGAME_RATE: f64 = 1e6;

/// Midgame iterations of at least this many nodes together give a speed that outweighs the
/// searches' before: fewer, which the table mostly answered, time the iterations' own
/// overhead more than their nodes.
const RATE_NODES: f64 = 2e5;

impl IterationBudget {
    fn new(start: Instant, earlier: MeasuredSpeeds) -> IterationBudget {
        IterationBudget {
            earlier_midgame: earlier.midgame,
            last_end: start,
            last_secs: None,
            before_last_secs: None,
            midgame_nodes: 0.0,
            midgame_secs: 0.0,
            pass_hardness: None,
            pass_rate: earlier.pass,
        }
    }

    /// `step` on a position with `n` empties just finished after `nodes` nodes.
    fn finished(&mut self, step: &Step, n: u32, nodes: u64) {
        let now = Instant::now();
        let secs = (now - self.last_end).as_secs_f64();
        self.last_end = now;
        self.record(step, n, secs, nodes);
    }

    fn record(&mut self, step: &Step, n: u32, secs: f64, nodes: u64) {
        self.before_last_secs = self.last_secs;
        self.last_secs = Some(secs);
        let nodes = nodes as f64;
        if step.reaches_end(n) {
            let hardness = nodes / typical_pass_nodes(step, n);
            self.pass_hardness = Some(hardness.max(HARDNESS_FLOOR));
            // A pass the table answered runs at no measurable speed: the last one stays.
            if secs > UNTIMED_SECS && hardness > HARDNESS_FLOOR {
                self.pass_rate = Some(nodes / secs);
            }
        } else {
            self.midgame_nodes += nodes;
            self.midgame_secs += secs;
        }
    }

    /// Nodes per second of this search's midgame iterations once they reached
    /// [`RATE_NODES`], else the searches' before when known; at least [`MIN_MIDGAME_RATE`]
    /// (also before anything took long enough to time).
    fn midgame_rate(&self) -> f64 {
        match self.earlier_midgame {
            Some(earlier) if !self.measured_midgame() => earlier,
            _ if self.midgame_secs > UNTIMED_SECS => {
                (self.midgame_nodes / self.midgame_secs).max(MIN_MIDGAME_RATE)
            }
            _ => MIN_MIDGAME_RATE,
        }
    }

    /// True once this search's midgame iterations give a speed of their own.
    fn measured_midgame(&self) -> bool {
        self.midgame_nodes >= RATE_NODES && self.midgame_secs > UNTIMED_SECS
    }

    /// The speeds to hand to the next search: this one's where it measured them.
    fn speeds(&self) -> MeasuredSpeeds {
        MeasuredSpeeds {
            midgame: self
                .measured_midgame()
                .then(|| self.midgame_rate())
                .or(self.earlier_midgame),
            pass: self.pass_rate,
        }
    }

    /// True when `step` on a position with `n` empties is expected to end before `hard`
    /// (a pass to the end with [`PASS_MARGIN`] to spare).
    fn fits(&self, step: &Step, n: u32, hard: Option<Instant>) -> bool {
        let (Some(hard), Some(predicted)) = (hard, self.predicted_secs(step, n)) else {
            return true;
        };
        let margin = if step.reaches_end(n) {
            PASS_MARGIN
        } else {
            1.0
        };
        predicted * margin <= hard.saturating_duration_since(Instant::now()).as_secs_f64()
    }

    /// The expected seconds of `step` (none before the first iteration has finished).
    fn predicted_secs(&self, step: &Step, n: u32) -> Option<f64> {
        let last = self.last_secs?;
        Some(if !step.reaches_end(n) {
            // The next midgame depth: the growth of the last one, kept within reason.
            let growth = self
                .before_last_secs
                .map_or(3.0, |b| (last / b.max(1e-4)).clamp(1.5, 6.0));
            last * growth
        } else {
            // A pass to the end: the typical nodes of its kind, scaled by how much harder
            // than typical the last pass was, at the last timed pass's speed (this search's,
            // else the searches' before; without one, the midgame's, faster by most endgame
            // nodes needing no evaluation).
            let rate = self
                .pass_rate
                .unwrap_or_else(|| ENDGAME_SPEEDUP * self.midgame_rate());
            typical_pass_nodes(step, n) * self.pass_hardness.unwrap_or(1.0) / rate
        })
    }
}

/// A pass to the end often costs twice or thrice its prediction (the position's hardness
/// differs from one kind of pass to the next): it starts only when twice the prediction fits,
/// since a pass cut short by the hard deadline is wasted.
const PASS_MARGIN: f64 = 2.0;

/// How many times faster than the midgame's the endgame's nodes go (most need no evaluation;
/// `wedge bench`'s rates: `docs/tuning.md`, "Session 68").
const ENDGAME_SPEEDUP: f64 = 3.0;

/// Typical nodes, one thread, of a pass to the end from a game position with `n` empties,
/// each pass after the ones before it in the timed schedule: at 24 empties and the growth
/// per empty (geometric means on positions at 24-28 empties of 60 s games, `docs/tuning.md`,
/// "Session 47"). The surer the pass, the faster it grows.
fn typical_pass_nodes(step: &Step, n: u32) -> f64 {
    let (at_24, growth): (f64, f64) = match (step.mode, step.selectivity) {
        (Some(SolveMode::Exact), _) => (3.0e7, 2.4),
        (Some(SolveMode::WinLossDraw), _) => (1.5e7, 2.4),
        (None, 5) => (2.0e6, 1.3),
        (None, 4) => (4.0e6, 1.5),
        (None, _) => (1.0e7, 1.75),
    };
    at_24 * growth.powi(n as i32 - 24)
}

/// One iteration over the root moves (best of the previous iteration first). Returns the
/// best score, or `None` when stopped before the first move was searched.
fn search_iteration<E: Evaluator>(
    ctx: &mut Context<'_, E>,
    board: &Board,
    roots: &mut [RootMove],
    depth: u32,
    mode: Option<SolveMode>,
    guess: Option<i32>,
) -> Option<i32> {
    let (lo, hi) = full_window(mode);
    // The exact pass keeps the full window (an aspiration window around the selective pass's
    // score saved nothing).
    let (mut alpha, mut beta) = match (guess, mode) {
        (Some(g), None) if depth >= 5 => ((g - ASPIRATION).max(lo), (g + ASPIRATION).min(hi)),
        _ => (lo, hi),
    };
    loop {
        let result = root_pvs(ctx, board, roots, alpha, beta, depth)?;
        if ctx.stopped {
            return Some(result);
        }
        if result <= alpha && alpha > lo {
            alpha = lo;
        } else if result >= beta && beta < hi {
            beta = hi;
        } else {
            return Some(result);
        }
    }
}

/// The window (in eighths) of a search in `mode`: all scores, or around a draw for a
/// win/loss/draw solve (whole-disc results below, at or above zero).
fn full_window(mode: Option<SolveMode>) -> (i32, i32) {
    match mode {
        Some(SolveMode::WinLossDraw) => (-EIGHTHS_PER_DISC, EIGHTHS_PER_DISC),
        _ => (-MAX_EIGHTHS, MAX_EIGHTHS),
    }
}

/// Principal-variation search over the root moves; the moves are re-sorted by their values
/// (moves that only got a bound keep their relative order behind the best). `None` when
/// stopped before the first move was searched.
fn root_pvs<E: Evaluator>(
    ctx: &mut Context<'_, E>,
    board: &Board,
    roots: &mut [RootMove],
    alpha: i32,
    beta: i32,
    depth: u32,
) -> Option<i32> {
    let state = ctx.eval.state(board);
    let mut root = Root::new(roots);
    ctx.search_root(&mut root, board, &state, (alpha, beta), depth);
    let (best_index, best) = root.best?;
    reorder_roots(roots, best_index);
    Some(best)
}

fn make_report<E: Evaluator>(
    ctx: &Context<'_, E>,
    board: &Board,
    roots: &[RootMove],
    depth: u32,
    mode: Option<SolveMode>,
    score: i32,
    start: Instant,
) -> Report {
    let best = Move::Play(Square::from_index(roots[0].sq as u32));
    Report {
        depth,
        selectivity: Selectivity(ctx.selectivity),
        solved: mode,
        score: Score::from_eighths(score),
        best,
        pv: principal_variation(ctx, board, best, depth),
        nodes: all_nodes(ctx),
        millis: start.elapsed().as_millis() as u64,
    }
}

/// The best move, then the table's best moves from there while they are legal.
fn principal_variation<E: Evaluator>(
    ctx: &Context<'_, E>,
    board: &Board,
    first: Move,
    depth: u32,
) -> Vec<Move> {
    let mut pv = vec![first];
    let Ok(mut b) = board.apply(first) else {
        return pv;
    };
    while (pv.len() as u32) < depth.max(1) {
        if b.is_game_over() {
            break;
        }
        if b.must_pass() {
            pv.push(Move::Pass);
            b = b.pass();
            continue;
        }
        let stored = ctx
            .tt
            .probe(&b, b.table_hash())
            .and_then(|d| d.best.to_square());
        let last_ply = pv.len() as u32 + 1 == depth;
        let Some(sq) = stored.or_else(|| last_ply.then(|| best_one_ply(ctx, &b)).flatten()) else {
            break;
        };
        let Some(next) = b.play(sq) else {
            break;
        };
        pv.push(Move::Play(sq));
        b = next;
    }
    pv
}

/// The move a search one ply deep chooses (that search stores nothing in the table): the
/// child worth most to the side to move by [`Context::leaf_value`], the first in square order
/// among equals; `None` without a legal move.
fn best_one_ply<E: Evaluator>(ctx: &Context<'_, E>, board: &Board) -> Option<Square> {
    let mut best: Option<(i32, Square)> = None;
    let mut moves = board.legal_moves();
    while moves != 0 {
        let sq = Square::from_index(moves.trailing_zeros());
        moves &= moves - 1;
        if let Some(child) = board.play(sq) {
            let v = -ctx.leaf_value(&child);
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, sq));
            }
        }
    }
    best.map(|(_, sq)| sq)
}

/// A root without a legal square: a pass (searching the opponent's reply) or the game's end.
fn no_move_report<E: Evaluator>(
    ctx: &mut Context<'_, E>,
    board: &Board,
    limits: &Limits,
    start: Instant,
    report: &mut dyn FnMut(&Report),
) -> Report {
    let n = board.empty_count();
    let (score, solved, best, depth) = if board.is_game_over() {
        let score = board.final_score() * EIGHTHS_PER_DISC;
        (score, Some(SolveMode::Exact), Move::Pass, 0)
    } else {
        let after = board.pass();
        let solve = limits.solve.filter(|_| n <= limits.solve_empties);
        let depth = if solve.is_some() {
            n
        } else {
            limits.depth.min(n)
        };
        let (lo, hi) = full_window(solve);
        let v = -ctx.pvs_mid(after.player, after.opponent, -hi, -lo, depth);
        let solved = if depth >= n {
            solve.or(Some(SolveMode::Exact))
        } else {
            None
        };
        (v, solved, Move::Pass, depth)
    };
    let r = Report {
        depth,
        selectivity: Selectivity::NONE,
        solved,
        score: Score::from_eighths(score),
        best,
        pv: vec![best],
        nodes: all_nodes(ctx),
        millis: start.elapsed().as_millis() as u64,
    };
    report(&r);
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::limits::TimeControl;
    use std::time::Duration;

    fn level(depth: u32) -> Limits {
        Limits {
            selectivity: Selectivity(2),
            solve: Some(SolveMode::Exact),
            solve_empties: depth + 6,
            wld_empties: depth + 9,
            ..Limits::depth(depth)
        }
    }

    fn midgame(depths: std::ops::RangeInclusive<u32>, selectivity: u8) -> Vec<Step> {
        depths
            .map(|depth| Step {
                depth,
                mode: None,
                selectivity,
            })
            .collect()
    }

    fn pass(n: u32, mode: Option<SolveMode>, selectivity: u8) -> Step {
        Step {
            depth: n,
            mode,
            selectivity,
        }
    }

    #[test]
    fn a_level_searches_the_midgame_then_solves_win_loss_draw_then_exactly() {
        assert_eq!(schedule(&level(8), 30), midgame(1..=8, 2));
        let mut wld = midgame(1..=7, 2);
        wld.push(pass(17, Some(SolveMode::WinLossDraw), 0));
        assert_eq!(schedule(&level(8), 17), wld);
        let mut exact = midgame(1..=4, 2);
        exact.push(pass(14, Some(SolveMode::Exact), 0));
        assert_eq!(schedule(&level(8), 14), exact);
        // A level deep enough to reach the end searches it exactly at that depth.
        let mut to_end = midgame(1..=4, 0);
        to_end.push(pass(5, None, 0));
        assert_eq!(schedule(&Limits::depth(12), 5), to_end);
    }

    #[test]
    fn a_large_solve_has_its_selective_pass_and_on_a_clock_the_surer_ones_first() {
        let mut solve = midgame(1..=10, 0);
        solve.push(pass(24, None, 4));
        solve.push(pass(24, None, 3));
        solve.push(pass(24, Some(SolveMode::Exact), 0));
        assert_eq!(schedule(&Limits::solve(SolveMode::Exact), 24), solve);
        let clock = TimeControl::Clock {
            remaining: Duration::from_secs(60),
            increment: Duration::ZERO,
        };
        let mut timed = midgame(1..=10, Selectivity::PLAY.0);
        timed.push(pass(24, None, 5));
        timed.push(pass(24, None, 4));
        timed.push(pass(24, None, 3));
        timed.push(pass(24, Some(SolveMode::WinLossDraw), 0));
        timed.push(pass(24, Some(SolveMode::Exact), 0));
        // Deeper midgame iterations for when no pass to the end fits in the time.
        timed.extend(midgame(11..=23, Selectivity::PLAY.0));
        assert_eq!(schedule(&Limits::timed(clock, 60), 24), timed);
        // Capped by a depth: the midgame stops there, and the clock decides which passes to
        // the end are tried.
        let mut capped = midgame(1..=6, 4);
        capped.extend_from_slice(&timed[10..15]);
        let capped: Vec<Step> = capped
            .into_iter()
            .map(|s| {
                if s.depth == 24 {
                    Step { depth: 40, ..s }
                } else {
                    s
                }
            })
            .collect();
        assert_eq!(schedule(&Limits::timed(clock, 6), 40), capped);
    }

    #[test]
    fn a_step_is_named_in_the_log_by_depth_selectivity_and_mode() {
        assert_eq!(pass(32, None, 4).to_string(), "depth 32 at 87 % (None)");
        assert_eq!(
            pass(24, Some(SolveMode::Exact), NO_SELECTIVITY).to_string(),
            "depth 24 at 100 % (Some(Exact))"
        );
    }

    #[test]
    fn a_changed_best_move_gets_more_time_and_a_settled_one_less() {
        let a = Move::Play(Square::from_index(19));
        let b = Move::Play(Square::from_index(26));
        let mut stability = BestMoveStability::default();
        stability.finished(a);
        assert_eq!(stability.soft_scale(), 1.0);
        stability.finished(b);
        assert_eq!(stability.soft_scale(), CHANGED_SOFT_SCALE);
        for _ in 1..STABLE_ITERATIONS {
            stability.finished(b);
            assert_eq!(stability.soft_scale(), 1.0);
        }
        stability.finished(b);
        assert_eq!(stability.soft_scale(), STABLE_SOFT_SCALE);
        stability.finished(a);
        assert_eq!(stability.soft_scale(), CHANGED_SOFT_SCALE);
    }

    #[test]
    fn a_search_too_short_to_time_predicts_its_passes_at_the_speeds_before() {
        let first = pass(22, None, 5);
        let exact = pass(22, Some(SolveMode::Exact), 0);
        // The searches before measured 20 M midgame nodes/s and passes at 40 M.
        let earlier = MeasuredSpeeds {
            midgame: Some(2e7),
            pass: Some(4e7),
        };
        let mut budget = IterationBudget::new(Instant::now(), earlier);
        // The table answers the midgame iterations: 5 ms for 10,000 nodes, mostly their own
        // overhead (2 M nodes/s), too short to outweigh the speeds before.
        budget.record(&pass(14, None, 4), 22, 0.005, 10_000);
        let expected = typical_pass_nodes(&first, 22) / 4e7;
        assert!((budget.predicted_secs(&first, 22).unwrap() - expected).abs() < 1e-9);
        // Without a pass speed before, the first pass is predicted at the midgame's before.
        let mut no_pass = IterationBudget::new(
            Instant::now(),
            MeasuredSpeeds {
                pass: None,
                ..earlier
            },
        );
        no_pass.record(&pass(14, None, 4), 22, 0.005, 10_000);
        let expected = typical_pass_nodes(&first, 22) / (ENDGAME_SPEEDUP * 2e7);
        assert!((no_pass.predicted_secs(&first, 22).unwrap() - expected).abs() < 1e-9);
        // Once its own midgame searched enough nodes, its own speed counts, and is handed on.
        no_pass.record(&pass(15, None, 4), 22, 0.02, 290_000);
        let own = 300_000.0 / 0.025;
        let expected = typical_pass_nodes(&first, 22) / (ENDGAME_SPEEDUP * own);
        assert!((no_pass.predicted_secs(&first, 22).unwrap() - expected).abs() < 1e-9);
        assert_eq!(no_pass.speeds().midgame, Some(own));
        // A timed pass gives the speed of the passes after it, and of the next search's.
        let nodes = typical_pass_nodes(&first, 22);
        no_pass.record(&first, 22, nodes / 3e7, nodes as u64);
        assert!(
            (no_pass.predicted_secs(&exact, 22).unwrap() - typical_pass_nodes(&exact, 22) / 3e7)
                .abs()
                < 1e-6
        );
        assert!((no_pass.speeds().pass.unwrap() - 3e7).abs() < 1e3);
        // A search that measured nothing hands on the speeds it was given.
        let idle = IterationBudget::new(Instant::now(), earlier);
        assert_eq!(idle.speeds(), earlier);
    }

    #[test]
    fn the_budget_predicts_midgame_growth_and_passes_from_the_last_pass() {
        let mut budget = IterationBudget::new(Instant::now(), MeasuredSpeeds::default());
        assert_eq!(budget.predicted_secs(&pass(5, None, 4), 30), None);
        budget.record(&pass(4, None, 4), 30, 0.1, 1_000_000);
        // One iteration known: a growth of 3.
        assert!((budget.predicted_secs(&pass(6, None, 4), 30).unwrap() - 0.3).abs() < 1e-9);
        budget.record(&pass(5, None, 4), 30, 0.4, 4_000_000);
        assert!((budget.predicted_secs(&pass(7, None, 4), 30).unwrap() - 1.6).abs() < 1e-9);
        // A growth beyond 6 is taken as 6.
        budget.record(&pass(6, None, 4), 30, 4.0, 40_000_000);
        assert!((budget.predicted_secs(&pass(8, None, 4), 30).unwrap() - 24.0).abs() < 1e-9);
        // Before any pass: the typical nodes at three times the midgame's 10 M nodes/s.
        let first = pass(30, None, 5);
        let expected = typical_pass_nodes(&first, 30) / (ENDGAME_SPEEDUP * 1e7);
        assert!((budget.predicted_secs(&first, 30).unwrap() - expected).abs() < 1e-9);
        // A first pass twice as costly as typical, at 40 M nodes/s: the next ones are
        // expected twice their typical nodes at that speed.
        let nodes = 2.0 * typical_pass_nodes(&first, 30);
        budget.record(&first, 30, nodes / 4e7, nodes as u64);
        let surer = pass(30, None, 3);
        let expected = 2.0 * typical_pass_nodes(&surer, 30) / 4e7;
        assert!((budget.predicted_secs(&surer, 30).unwrap() - expected).abs() < 1e-3);
        // A pass the table answered, too fast to time: the next is predicted at the floor of
        // hardness and the speed of the pass before.
        budget.record(&surer, 30, 0.0, 100);
        let exact = pass(30, Some(SolveMode::Exact), 0);
        let expected = HARDNESS_FLOOR * typical_pass_nodes(&exact, 30) / 4e7;
        assert!((budget.predicted_secs(&exact, 30).unwrap() - expected).abs() < 1e-6);
        // A pass just long enough to time whose nodes are below the floor (the table had
        // answered it) keeps the speed of the pass before.
        budget.record(&surer, 30, 0.002, 1_000);
        assert!((budget.predicted_secs(&exact, 30).unwrap() - expected).abs() < 1e-6);
        // Midgame iterations too fast to time give no speed: the first pass is predicted at
        // the least midgame speed.
        let mut fresh = IterationBudget::new(Instant::now(), MeasuredSpeeds::default());
        fresh.record(&pass(10, None, 4), 30, 0.0005, 1_000);
        let expected = typical_pass_nodes(&first, 30) / (ENDGAME_SPEEDUP * MIN_MIDGAME_RATE);
        assert!((fresh.predicted_secs(&first, 30).unwrap() - expected).abs() < 1e-9);
        // The midgame's speed is that of all its iterations together, not of the last.
        fresh.record(&pass(11, None, 4), 30, 0.1, 1_000_000);
        fresh.record(&pass(12, None, 4), 30, 0.002, 1_000);
        let rate = 1_002_000.0 / 0.1025;
        let expected = typical_pass_nodes(&first, 30) / (ENDGAME_SPEEDUP * rate);
        assert!((fresh.predicted_secs(&first, 30).unwrap() - expected).abs() < 1e-9);
        // Surer passes cost more, and more so the more empties.
        let ratio = |n| {
            typical_pass_nodes(&pass(n, Some(SolveMode::Exact), 0), n)
                / typical_pass_nodes(&pass(n, None, 5), n)
        };
        assert!(ratio(30) > ratio(24) && ratio(24) > 1.0);
        assert!(
            typical_pass_nodes(&pass(24, None, 4), 24) < typical_pass_nodes(&pass(24, None, 3), 24)
        );
    }
}
