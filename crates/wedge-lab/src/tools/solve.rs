//! `wedge solve`: searches every position of an OBF file (exactly, win/loss/draw, or to a
//! depth), prints one row per position and a total, and checks the answers the file carries;
//! the rows may also come from a queue's workers ([`SolveTable`]).

use std::io::Write;
use std::sync::atomic::AtomicBool;
use wedge_core::board::Board;
use wedge_core::eval::Evaluator;
use wedge_core::formats::ObfEntry;
use wedge_core::search::{Limits, Report, Score, Searcher, Selectivity, SolveMode};

/// What each position is searched for: an exact or win/loss/draw solve, or a depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveSearch {
    Exact,
    WinLossDraw,
    /// A midgame search to this depth.
    Depth {
        depth: u8,
        selectivity: Selectivity,
    },
}

impl SolveSearch {
    /// The search's limits.
    pub fn limits(self) -> Limits {
        match self {
            SolveSearch::Exact => Limits::solve(SolveMode::Exact),
            SolveSearch::WinLossDraw => Limits::solve(SolveMode::WinLossDraw),
            SolveSearch::Depth { depth, selectivity } => Limits {
                selectivity,
                ..Limits::depth(u32::from(depth))
            },
        }
    }
}

/// One solved position.
#[derive(Clone, Debug)]
pub struct SolveRow {
    /// 1-based line number among the file's positions.
    pub index: usize,
    pub empties: u32,
    pub report: Report,
    /// `Some(true)` when the file's answer agrees, `Some(false)` when not, `None` if unchecked.
    pub correct: Option<bool>,
}

/// Totals over a run.
#[derive(Clone, Debug, Default)]
pub struct SolveSummary {
    pub positions: usize,
    pub nodes: u64,
    pub millis: u64,
    pub checked: usize,
    pub wrong: Vec<usize>,
}

/// Whether `report` agrees with the file's scored moves under `mode`: the score equals the best
/// listed score (or has its sign, for win/loss/draw) and the move is one with that score.
pub fn check(entry: &ObfEntry, report: &Report, mode: SolveMode) -> Option<bool> {
    let best = entry.best_score()?;
    let score_ok = match mode {
        SolveMode::Exact => report.score == Score::from_discs(best),
        SolveMode::WinLossDraw => report.score.discs().signum() == best.signum(),
    };
    let move_ok = if entry.moves.is_empty() {
        true
    } else {
        entry.moves.iter().any(|&(m, s)| {
            m == report.best
                && match mode {
                    SolveMode::Exact => s == best,
                    SolveMode::WinLossDraw => s.signum() == best.signum(),
                }
        })
    };
    Some(score_ok && move_ok)
}

/// The table `wedge solve` prints: a header, one row per position as it is searched (here or
/// on a queue's workers), and a total line.
pub struct SolveTable<'a> {
    out: &'a mut dyn Write,
    rows: Vec<SolveRow>,
    sum: SolveSummary,
}

impl<'a> SolveTable<'a> {
    /// Writes the header.
    pub fn new(out: &'a mut dyn Write) -> std::io::Result<SolveTable<'a>> {
        writeln!(
            out,
            "{:>4} {:>7} {:>6} {:>5} {:>6} {:>8} {:>14} {:>10} {:>12}",
            "#", "empties", "depth", "move", "score", "expected", "nodes", "time(s)", "nodes/s"
        )?;
        Ok(SolveTable {
            out,
            rows: Vec::new(),
            sum: SolveSummary::default(),
        })
    }

    /// Checks `report` against `entry` (the next position, 1-based `index` in the run) and
    /// writes its row.
    pub fn row(&mut self, index: usize, entry: &ObfEntry, report: Report) -> std::io::Result<()> {
        let board = entry.position.board;
        let correct = report.solved.and_then(|mode| check(entry, &report, mode));
        let expected = entry
            .best_score()
            .map_or("-".to_string(), |s| format!("{s:+}"));
        let mark = match correct {
            Some(false) => "  WRONG",
            Some(true) | None => "",
        };
        let secs = report.millis as f64 / 1000.0;
        writeln!(
            self.out,
            "{:>4} {:>7} {:>6} {:>5} {:>+6} {:>8} {:>14} {:>10.3} {:>12.0}{}",
            index,
            board.empty_count(),
            report.depth_label(),
            report.best.to_string(),
            report.score,
            expected,
            report.nodes,
            secs,
            report.nodes as f64 / secs.max(1e-3),
            mark
        )?;
        let sum = &mut self.sum;
        sum.positions += 1;
        sum.nodes += report.nodes;
        sum.millis += report.millis;
        if let Some(ok) = correct {
            sum.checked += 1;
            if !ok {
                sum.wrong.push(index);
            }
        }
        self.rows.push(SolveRow {
            index,
            empties: board.empty_count(),
            report,
            correct,
        });
        Ok(())
    }

    /// Writes the total line; the rows and their summary.
    pub fn finish(self) -> std::io::Result<(Vec<SolveRow>, SolveSummary)> {
        let sum = self.sum;
        let secs = sum.millis as f64 / 1000.0;
        writeln!(
            self.out,
            "total: {} positions, {} nodes, {:.3} s, {:.0} nodes/s; checked {}, wrong {}{}",
            sum.positions,
            sum.nodes,
            secs,
            sum.nodes as f64 / secs.max(1e-3),
            sum.checked,
            sum.wrong.len(),
            if sum.wrong.is_empty() {
                String::new()
            } else {
                format!(" ({:?})", sum.wrong)
            }
        )?;
        Ok((self.rows, sum))
    }
}

/// Solves each entry with `limits` (the table is cleared before each so rows are reproducible)
/// and writes the table to `out`.
pub fn solve_entries<E: Evaluator>(
    searcher: &Searcher<E>,
    entries: &[ObfEntry],
    limits: &Limits,
    out: &mut dyn Write,
) -> std::io::Result<(Vec<SolveRow>, SolveSummary)> {
    let mut table = SolveTable::new(out)?;
    let boards = entries.iter().map(|e| e.position.board);
    for (i, (entry, report)) in entries
        .iter()
        .zip(search_each(searcher, boards, limits))
        .enumerate()
    {
        table.row(i + 1, entry, report)?;
    }
    table.finish()
}

/// Searches each of `boards` with `limits` from an empty table (so each report depends on its
/// position alone), lazily, in order: the one loop of `wedge solve`, here and on a queue's
/// workers. The table's pages are faulted in first, as the engine does while idle, so that no
/// search's time counts the system's zeroing of fresh pages.
pub(crate) fn search_each<'a, E: Evaluator>(
    searcher: &'a Searcher<E>,
    boards: impl IntoIterator<Item = Board> + 'a,
    limits: &'a Limits,
) -> impl Iterator<Item = Report> + 'a {
    searcher.table().fault_in(&AtomicBool::new(false));
    boards.into_iter().enumerate().map(move |(i, board)| {
        searcher.clear();
        searcher.search(&board, limits, &AtomicBool::new(false), &mut |r| {
            tracing::debug!(
                "position {}: depth {} move {} score {:+} nodes {} time {:.3} s",
                i + 1,
                r.depth_label(),
                r.best,
                r.score,
                r.nodes,
                r.millis as f64 / 1000.0
            )
        })
    })
}
