//! Several root moves evaluated side by side (NBoard `hint N`, the console's `tree`): each move's
//! child position is searched one ply shallower, all moves together depth after depth, so every
//! completed depth gives a full list sorted best first.

use wedge_core::board::{Board, Move};
use wedge_core::search::{Limits, Report, Score, Selectivity, SolveMode};

/// Midgame iterations stop this many plies short of the end before a solve (as the root does).
const SOLVE_PRESEARCH_GAP: u32 = 10;

/// One root move with its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoredRootMove {
    pub mv: Move,
    /// Disc difference for the side to move at the root.
    pub score: Score,
    /// Depth in plies from the root (the empties for a solve).
    pub depth: u32,
    pub selectivity: Selectivity,
    pub solved: Option<SolveMode>,
    /// Starts with `mv`.
    pub pv: Vec<Move>,
}

impl ScoredRootMove {
    /// The root's best move from a plain search report.
    pub fn from_root(r: &Report) -> ScoredRootMove {
        ScoredRootMove {
            mv: r.best,
            score: r.score,
            depth: r.depth,
            selectivity: r.selectivity,
            solved: r.solved,
            pv: if r.pv.is_empty() {
                vec![r.best]
            } else {
                r.pv.clone()
            },
        }
    }

    /// Root move `mv` valued by the search `r` of the position after it.
    pub fn from_child(mv: Move, r: &Report) -> ScoredRootMove {
        let mut pv = Vec::with_capacity(r.pv.len() + 1);
        pv.push(mv);
        pv.extend_from_slice(&r.pv);
        ScoredRootMove {
            mv,
            score: -r.score,
            depth: r.depth + 1,
            selectivity: r.selectivity,
            solved: r.solved,
            pv,
        }
    }

    /// The same value as a search report (nodes and time left at 0).
    pub fn to_report(&self) -> Report {
        Report {
            depth: self.depth,
            selectivity: self.selectivity,
            solved: self.solved,
            score: self.score,
            best: self.mv,
            pv: self.pv.clone(),
            nodes: 0,
            millis: 0,
        }
    }
}

/// The limits of the child searches, one entry per depth of the root, shallowest first: the
/// midgame depths 2..=`limits.depth` (children one ply less), then the solve when `limits` asks
/// for one at this number of empties. Child searches are never timed.
pub fn candidate_schedule(board: &Board, limits: &Limits) -> Vec<Limits> {
    let n = board.empty_count();
    let solve = limits
        .solve
        .filter(|_| n <= limits.solve_empties)
        .or((n <= limits.wld_empties).then_some(SolveMode::WinLossDraw));
    let last_mid = match solve {
        Some(_) => limits.depth.min(n.saturating_sub(SOLVE_PRESEARCH_GAP)),
        None => limits.depth.min(n),
    };
    let child = |depth: u32| Limits {
        selectivity: limits.selectivity,
        ..Limits::depth(depth)
    };
    let mut out: Vec<Limits> = (2..=last_mid).map(|d| child(d - 1)).collect();
    let reaches_end = last_mid >= n;
    match solve {
        Some(mode) if !reaches_end => out.push(Limits::solve(mode)),
        _ => {}
    }
    if out.is_empty() {
        out.push(child(1));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_deepens_then_solves() {
        let b = Board::START;
        let s = candidate_schedule(&b, &Limits::depth(4));
        assert_eq!(s.iter().map(|l| l.depth).collect::<Vec<_>>(), vec![1, 2, 3]);
        assert!(s.iter().all(|l| l.solve.is_none()));
        let s = candidate_schedule(&b, &Limits::depth(1));
        assert_eq!(s.len(), 1);
        let solve = Limits {
            solve: Some(SolveMode::Exact),
            solve_empties: 60,
            ..Limits::depth(8)
        };
        let s = candidate_schedule(&b, &solve);
        assert_eq!(s.last().unwrap().solve, Some(SolveMode::Exact));
    }

    #[test]
    fn child_values_are_negated_and_prefixed() {
        let f5: Move = "f5".parse().unwrap();
        let d6: Move = "d6".parse().unwrap();
        let r = Report {
            depth: 3,
            selectivity: Selectivity::NONE,
            solved: None,
            score: Score::from_eighths(13),
            best: d6,
            pv: vec![d6],
            nodes: 10,
            millis: 1,
        };
        let c = ScoredRootMove::from_child(f5, &r);
        let expected = (Score::from_eighths(-13), 4, vec![f5, d6]);
        assert_eq!((c.score, c.depth, c.pv.clone()), expected);
        assert_eq!(c.to_report().best, f5);
    }
}
