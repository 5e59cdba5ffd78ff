//! The search: midgame principal-variation search, the exact endgame solver, the shared
//! transposition table, move ordering. It depends on the board and the `Evaluator` interface
//! only, never on who asked.

pub mod context;
pub mod endgame;
pub mod last_moves;
pub mod midgame;
pub mod ordering;
pub mod stability;
pub mod tt;

use crate::board::{Board, Move, Square};
use crate::eval::Evaluator;
use context::Context;
use ordering::MoveList;
use std::sync::atomic::AtomicBool;
use tt::TranspositionTable;

/// Result of a root search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootResult {
    pub best: Move,
    /// Disc difference for the side to move (exact in solves).
    pub score: i32,
    pub nodes: u64,
}

/// Solves `board` exactly within (`alpha`, `beta`): `(-64, 64)` for the exact score,
/// `(-1, 1)` for win/loss/draw.
pub fn solve_root<E: Evaluator>(
    board: &Board,
    alpha: i32,
    beta: i32,
    tt: &TranspositionTable,
    eval: &E,
    stop: &AtomicBool,
) -> RootResult {
    let mut ctx = Context::new(tt, eval, stop);
    let n = board.empty_count();
    let (p, o) = (board.player, board.opponent);
    let moves = board.legal_moves();
    if moves == 0 {
        let score = if board.is_game_over() {
            board.final_score()
        } else {
            -ctx.pvs_end(o, p, -beta, -alpha, n)
        };
        return RootResult {
            best: Move::Pass,
            score,
            nodes: ctx.nodes,
        };
    }
    // Iterative deepening with the midgame search fills the table with good best moves.
    let presearch = std::env::var("PRE")
        .ok()
        .and_then(|s| s.parse::<u32>().ok())
        .unwrap_or(12);
    let mut guess = 0;
    for d in 1..n.saturating_sub(presearch) {
        guess = ctx.pvs_mid(p, o, -64, 64, d);
    }
    let _ = guess;
    let mut list = MoveList::new(p, o, moves);
    let tt_move = tt.probe(board, board.hash()).map_or(64, |d| d.best);
    list.score_endgame(p, o, last_moves::odd_quadrants(board.empties()), tt_move);
    let (mut a, mut best, mut best_sq) = (alpha, i32::MIN, 64u8);
    for i in 0..list.len() {
        let c = list.pick(i);
        let (np, no) = c.child(p, o);
        let v = if i == 0 {
            -ctx.pvs_end(np, no, -beta, -a, n - 1)
        } else {
            let v = -ctx.nws_end(np, no, -a - 1, n - 1);
            if v > a && v < beta {
                -ctx.pvs_end(np, no, -beta, -v, n - 1)
            } else {
                v
            }
        };
        if v > best {
            best = v;
            best_sq = c.sq;
            if v > a {
                a = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    RootResult {
        best: Move::Play(Square::from_index(best_sq as u32)),
        score: best,
        nodes: ctx.nodes,
    }
}
