//! The node search against a plain negamax written here: exact solves of positions with few
//! empties (every endgame tier, the table and the endgame cache included) and shallow midgame
//! searches with selectivity off, each in full and null windows.

use super::context::Context;
use super::tt::TranspositionTable;
use crate::board::{Board, Move, Square};
use crate::eval::Heuristic;
use crate::eval::{Evaluator, EIGHTHS_PER_DISC, MAX_EIGHTHS};
use crate::rng::Rng;
use std::sync::atomic::AtomicBool;

/// The children of `b` (no pass).
fn children(b: &Board) -> Vec<Board> {
    let mut out = Vec::new();
    let mut m = b.legal_moves();
    while m != 0 {
        let sq = Square::from_index(m.trailing_zeros());
        m &= m - 1;
        out.push(b.play(sq).expect("legal"));
    }
    out
}

/// The exact final score of `b` by alpha-beta without ordering, table or cut-off tricks.
fn exact(b: &Board, mut alpha: i32, beta: i32) -> i32 {
    let kids = children(b);
    if kids.is_empty() {
        let passed = b.pass();
        if passed.legal_moves() == 0 {
            return b.final_score();
        }
        return -exact(&passed, -beta, -alpha);
    }
    let mut best = -65;
    for c in &kids {
        best = best.max(-exact(c, -beta, -alpha));
        alpha = alpha.max(best);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The value (in eighths) the search defines for `b` searched `depth` plies: exact once the
/// depth reaches the last empty, the static evaluation at depth 0, and a pass costs no ply.
fn negamax(eval: &Heuristic, b: &Board, depth: u32) -> i32 {
    if depth >= b.empty_count() {
        return exact(b, -64, 64) * EIGHTHS_PER_DISC;
    }
    if depth == 0 {
        return eval.eighths(b);
    }
    let kids = children(b);
    if kids.is_empty() {
        let passed = b.pass();
        if passed.legal_moves() == 0 {
            return b.final_score() * EIGHTHS_PER_DISC;
        }
        return -negamax(eval, &passed, depth);
    }
    kids.iter()
        .map(|c| -negamax(eval, c, depth - 1))
        .max()
        .expect("a child")
}

/// Positions along random games with `empties` empties (the side to move has a move or must
/// pass; finished games are skipped).
fn positions(seed: u64, empties: u32, count: usize) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut b = Board::START;
        while b.empty_count() > empties {
            match b.random_move(&mut rng) {
                Some(mv) => b = b.apply(mv).expect("legal"),
                None => break,
            }
        }
        if b.empty_count() == empties && !b.is_game_over() {
            out.push(b);
        }
    }
    out
}

/// A fail-soft result `v` of a search in (`alpha`, `beta`) agrees with the true value `t`.
fn assert_fail_soft(v: i32, t: i32, (alpha, beta): (i32, i32), what: &str, b: &Board) {
    let ok = if v <= alpha {
        t <= v
    } else if v >= beta {
        t >= v
    } else {
        t == v
    };
    assert!(ok, "{what} in ({alpha}, {beta}): {v}, negamax {t}\n{b}");
}

/// Searches of one table, no book and no selectivity.
struct Probe {
    tt: TranspositionTable,
    stop: AtomicBool,
}

impl Probe {
    fn new() -> Probe {
        Probe {
            tt: TranspositionTable::new(1),
            stop: AtomicBool::new(false),
        }
    }

    /// Principal-variation search of `b` to `depth` in (`alpha`, `beta`), in eighths.
    fn pv(&self, b: &Board, window: (i32, i32), depth: u32) -> i32 {
        let mut ctx = Context::new(&self.tt, &Heuristic, &self.stop);
        ctx.pvs_mid(b.player, b.opponent, window.0, window.1, depth)
    }

    /// Null-window search of `b` to `depth` around `alpha`, in eighths.
    fn null_window(&self, b: &Board, alpha: i32, depth: u32) -> i32 {
        let mut ctx = Context::new(&self.tt, &Heuristic, &self.stop);
        ctx.nws(b.player, b.opponent, &(), alpha, depth)
    }

    /// Null-window exact search of `b` around `alpha` in the endgame solver, in discs.
    fn null_window_end(&self, b: &Board, alpha: i32) -> i32 {
        let mut ctx = Context::new(&self.tt, &Heuristic, &self.stop);
        ctx.nws_end(b.player, b.opponent, alpha, b.empty_count())
    }
}

/// Windows (in eighths) around `t`: full, narrow around it, null windows on both sides and
/// on it, within a disc and further off.
fn windows(t: i32) -> Vec<(i32, i32)> {
    let c = |x: i32| x.clamp(-MAX_EIGHTHS, MAX_EIGHTHS);
    vec![
        (-MAX_EIGHTHS, MAX_EIGHTHS),
        (c(t - 3), c(t + 3)),
        (c(t - 1), c(t)),
        (c(t), c(t + 1)),
        (c(t - 8), c(t + 8)),
        (c(t - 40), c(t - 32)),
        (c(t + 32), c(t + 40)),
        (c(t + 2), c(t + 9)),
        (c(t - 9), c(t - 2)),
    ]
}

/// `probe`'s searches of `b` to `depth` agree with its true value `t` (eighths) in every
/// window: the principal-variation search exactly in a full window, fail-soft in the others,
/// the null-window search (and, for a solve, the endgame's in whole discs) around each
/// window's alpha.
fn check_windows(probe: &Probe, b: &Board, t: i32, depth: u32) {
    let full = (-MAX_EIGHTHS, MAX_EIGHTHS);
    assert_eq!(probe.pv(b, full, depth), t, "depth {depth}\n{b}");
    let solve = depth >= b.empty_count();
    for w in windows(t).into_iter().filter(|w| w.0 < w.1) {
        assert_fail_soft(probe.pv(b, w, depth), t, w, "pvs", b);
        let null = (w.0, w.0 + 1);
        let v = probe.null_window(b, w.0, if solve { depth + 2 } else { depth });
        assert_fail_soft(v, t, null, "nws", b);
        if solve {
            let alpha = w.0.div_euclid(EIGHTHS_PER_DISC);
            let v = probe.null_window_end(b, alpha);
            let discs = t / EIGHTHS_PER_DISC;
            assert_fail_soft(v, discs, (alpha, alpha + 1), "nws_end", b);
        }
    }
}

/// Solves of 1 to 14 empties (the last-empties solvers, the shallow tier, the endgame cache,
/// the table with ETC and the evaluation ordering) agree with negamax in every window, with
/// a fresh table and with one kept across the searches.
#[test]
fn exact_solves_match_negamax() {
    let shared = Probe::new();
    for n in 1..=14u32 {
        let count = if n <= 10 { 12 } else { 4 };
        for b in positions(100 + n as u64, n, count) {
            let t = exact(&b, -64, 64) * EIGHTHS_PER_DISC;
            for probe in [&Probe::new(), &shared] {
                check_windows(probe, &b, t, n);
            }
        }
    }
}

/// Null-window solves of 8 to 13 empties by one context, whose endgame cache keeps its bounds
/// from one search to the next (as a thread's does, so that the cached tier's enhanced
/// transposition cut-offs meet bounds from earlier windows and positions), agree with negamax
/// around every alpha from -64 to 64 in steps of 4 and around the true value.
#[test]
fn solves_through_a_kept_endgame_cache_match_negamax() {
    let probe = Probe::new();
    let mut ctx = Context::new(&probe.tt, &Heuristic, &probe.stop);
    let mut searched = 0;
    for n in 8..=13u32 {
        for b in positions(400 + n as u64, n, 6) {
            let t = exact(&b, -64, 64);
            let alphas = (-64..64).step_by(4).chain([t - 1, t]);
            for alpha in alphas.filter(|a| (-64..64).contains(a)) {
                let v = ctx.nws_end(b.player, b.opponent, alpha, n);
                assert_fail_soft(v, t, (alpha, alpha + 1), "nws_end, kept cache", &b);
                searched += 1;
            }
        }
    }
    assert!(searched > 1000, "{searched}");
}

/// Midgame searches of depth 1 to 5 with selectivity off (the one-ply and shallow null-window
/// searches, the table, the ordering searches) agree with a depth-limited negamax on the
/// static evaluation, in every window, with a fresh table and with one kept over the
/// position's depths in increasing order (as iterative deepening keeps it; a table kept across
/// positions could hold deeper results of a transposition, which the search rightly uses).
#[test]
fn midgame_searches_match_negamax() {
    for (seed, n) in [(1, 40), (2, 30), (3, 22), (4, 16)] {
        for b in positions(seed, n, 5) {
            let shared = Probe::new();
            for depth in 1..=5 {
                let t = negamax(&Heuristic, &b, depth);
                for probe in [&Probe::new(), &shared] {
                    check_windows(probe, &b, t, depth);
                }
            }
        }
    }
}

/// An exact solve after selective ones in the same table (as a solve's passes run) agrees
/// with a solve in a fresh table: the selective passes' results count as exact only below
/// Multi-ProbCut's reach. The model is reckless (a one-ply probe trusted to a hundredth of a
/// disc), so that the selective passes' values above the reach are often wrong.
#[test]
fn exact_solves_after_selective_passes_in_one_table() {
    let pairs: String = (15..=19)
        .flat_map(|deep| {
            (0..super::probcut::STAGES).map(move |st| format!("pair {deep} 1 {st} 1 0 0.01 100\n"))
        })
        .collect();
    let text = format!("wedge-probcut 1\nevaluation heuristic\n{pairs}");
    let model = super::probcut::ProbCutModel::parse(&text, "reckless").expect("model");
    let full = (-MAX_EIGHTHS, MAX_EIGHTHS);
    for n in [16u32, 17, 18, 19] {
        for b in positions(300 + n as u64, n, 4) {
            let t = Probe::new().pv(&b, full, n);
            let shared = Probe::new();
            for selectivity in [5u8, 3] {
                let mut ctx =
                    Context::new(&shared.tt, &Heuristic, &shared.stop).with_probcut(&model);
                ctx.selectivity = selectivity;
                ctx.pvs_mid(b.player, b.opponent, full.0, full.1, n);
            }
            assert_eq!(shared.pv(&b, full, n), t, "{n} empties\n{b}");
            for w in windows(t).into_iter().filter(|w| w.0 < w.1) {
                let alpha = w.0.div_euclid(EIGHTHS_PER_DISC);
                let v = shared.null_window_end(&b, alpha);
                let discs = t / EIGHTHS_PER_DISC;
                assert_fail_soft(v, discs, (alpha, alpha + 1), "nws_end", &b);
            }
        }
    }
}

/// Searches on two threads: midgame searches of 6 plies and solves of 14 empties through
/// principal-variation nodes and from the root, whose moves after the first are shared with a
/// helper (which must take part), agree with negamax in every window.
#[test]
fn two_thread_searches_match_negamax() {
    use super::node::midgame::MID_SPLIT_MIN;
    use super::node::Root;
    use super::ordering::root_moves;
    use super::parallel::help;
    use super::parallel::pool::SplitPool;
    use super::probcut::ProbCutModel;
    const { assert!(MID_SPLIT_MIN < 6) };
    let probe = Probe::new();
    let pool = SplitPool::new(1);
    let model = ProbCutModel::empty();
    /// Ends the helper's loop however the scope ends (a failed assertion included).
    struct ShutDown<'p>(&'p SplitPool);
    impl Drop for ShutDown<'_> {
        fn drop(&mut self) {
            self.0.shut_down();
        }
    }
    std::thread::scope(|s| {
        s.spawn(|| {
            let ctx = Context::new(&probe.tt, &Heuristic, &probe.stop);
            help(1, &pool, ctx.with_probcut(&model).with_pool(&pool))
        });
        let _shut_down = ShutDown(&pool);
        for (seed, n, depth) in [(21, 36, 6), (22, 28, 6), (23, 20, 6), (24, 14, 14)] {
            for b in positions(seed, n, 3) {
                let t = negamax(&Heuristic, &b, depth);
                probe.tt.clear();
                for w in windows(t).into_iter().filter(|w| w.0 < w.1) {
                    let mut ctx = Context::new(&probe.tt, &Heuristic, &probe.stop).with_pool(&pool);
                    let v = ctx.pvs_mid(b.player, b.opponent, w.0, w.1, depth);
                    assert_fail_soft(v, t, w, "pvs on two threads", &b);
                    let v = ctx.nws(b.player, b.opponent, &(), w.0, depth);
                    assert_fail_soft(v, t, (w.0, w.0 + 1), "nws on two threads", &b);
                    let mut moves = root_moves(&b, b.legal_moves());
                    let mut root = Root::new(&mut moves);
                    let v = ctx.search_root(&mut root, &b, &(), w, depth);
                    assert_fail_soft(v, t, w, "the root on two threads", &b);
                    let (index, best) = root.best.expect("a move searched");
                    assert_eq!(best, v, "the root's best move's value\n{b}");
                    if w.0 < v && v < w.1 {
                        let after = b.apply(Move::Play(Square::from_index(moves[index].sq as u32)));
                        let after = after.expect("a legal move");
                        assert_eq!(-negamax(&Heuristic, &after, depth - 1), t, "{b}");
                    }
                }
            }
        }
    });
    let helped = pool.helper_nodes.load(std::sync::atomic::Ordering::Relaxed);
    assert!(helped > 0, "the helper searched nothing");
}

/// Iterative deepening to 6 plies on two threads (aspiration windows at the root, whose moves
/// after the first are shared as well) finds the negamax value, and a move that reaches it.
#[test]
fn two_thread_iterations_match_negamax() {
    use super::{Limits, Searcher};
    use std::sync::Arc;
    let searcher = Searcher::new(Arc::new(Heuristic), 16, 2);
    let stop = AtomicBool::new(false);
    for (seed, n) in [(31, 40), (32, 30), (33, 22)] {
        for b in positions(seed, n, 4) {
            let t = negamax(&Heuristic, &b, 6);
            searcher.clear();
            let r = searcher.search(&b, &Limits::depth(6), &stop, &mut |_| {});
            assert_eq!(r.score.eighths(), t, "{b}");
            let after = b.apply(r.best).expect("a legal move");
            assert_eq!(-negamax(&Heuristic, &after, 5), t, "{} in\n{b}", r.best);
        }
    }
}

/// A search's result counts the whole search: on one thread its nodes and time are those of
/// the last iteration's report once every iteration finished; on two threads (helpers' nodes
/// included) the reports' nodes and times never go down and the result is at least the last.
#[test]
fn the_result_counts_every_threads_nodes() {
    use super::{Limits, Report, Searcher};
    use std::sync::Arc;
    let stop = AtomicBool::new(false);
    for threads in [1, 2] {
        let searcher = Searcher::new(Arc::new(Heuristic), 16, threads);
        for b in positions(41, 36, 3) {
            searcher.clear();
            let mut reports: Vec<(u64, u64)> = Vec::new();
            let mut seen = |r: &Report| reports.push((r.nodes, r.millis));
            let r = searcher.search(&b, &Limits::depth(7), &stop, &mut seen);
            let last = *reports.last().expect("an iteration reported");
            assert!(reports
                .windows(2)
                .all(|w| w[0].0 <= w[1].0 && w[0].1 <= w[1].1));
            assert!(
                r.nodes >= last.0 && r.millis >= last.1,
                "{threads} threads\n{b}"
            );
            if threads == 1 {
                assert_eq!(r.nodes, last.0, "one thread\n{b}");
            }
        }
    }
}
