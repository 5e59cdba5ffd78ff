//! The solve unit: positions to solve exactly, win/loss/draw, or search to a depth, with the
//! table size and the evaluation's checksums; its result, one search report per position; and
//! [`SolveUnit::run`], the function from one to the other (each position from an empty table,
//! as `wedge solve` does). Scores, moves and depths depend only on the unit; node counts and
//! times also on the threads the worker gives each search.

use super::exchange::KeyedUnit;
use super::message::{finished, invalid, open, open_result, read_board, truncated, MessageError};
use crate::tools::solve::search_each;
pub use crate::tools::solve::SolveSearch;
use crate::train::selfplay::PASS_BYTE;
use std::sync::Arc;
use wedge_core::board::{Board, Move, Square};
use wedge_core::eval::Evaluator;
use wedge_core::framing::{Reader, Writer};
use wedge_core::search::{ProbCutModel, Report, Score, Selectivity, SolveMode};
use wedge_engine::EngineBuilder;

/// The unit message's first bytes.
pub const MAGIC: [u8; 8] = *b"WEDGESU1";
/// The result message's first bytes.
pub const RESULT_MAGIC: [u8; 8] = *b"WEDGESR1";
/// The format of both messages.
pub const VERSION: u32 = 1;
/// Most positions in one unit.
pub const MAX_POSITIONS: usize = 4096;
/// Largest table a unit may ask for, MB.
pub const MAX_TABLE_MB: u32 = 4096;

/// Positions to search with one evaluation and one setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveUnit {
    pub search: SolveSearch,
    /// Transposition table of the searches, MB (emptied before each).
    pub table_mb: u32,
    pub weights_checksum: u64,
    /// The ProbCut model's checksum (it prunes the solves' selective passes).
    pub probcut_checksum: u64,
    pub boards: Vec<Board>,
}

fn write_move(w: &mut Writer, m: Move) {
    w.u8(m.square().map_or(PASS_BYTE, |s| s.index() as u8));
}

fn read_move(byte: u8) -> Option<Move> {
    match byte {
        PASS_BYTE => Some(Move::Pass),
        0..=63 => Some(Move::Play(Square::from_index(u32::from(byte)))),
        _ => None,
    }
}

impl SolveUnit {
    /// The message's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(&MAGIC, VERSION, 48 + self.boards.len() * 16);
        let (kind, depth, selectivity) = match self.search {
            SolveSearch::Exact => (0, 0, 0),
            SolveSearch::WinLossDraw => (1, 0, 0),
            SolveSearch::Depth { depth, selectivity } => (2, depth, selectivity.0),
        };
        w.u8(kind);
        w.u8(depth);
        w.u8(selectivity);
        w.u32(self.table_mb);
        w.u64(self.weights_checksum);
        w.u64(self.probcut_checksum);
        w.u32(self.boards.len() as u32);
        for b in &self.boards {
            w.u64(b.player);
            w.u64(b.opponent);
        }
        w.finish()
    }

    /// Parses and validates a message: framing, then every field's range.
    pub fn from_bytes(bytes: &[u8]) -> Result<SolveUnit, MessageError> {
        let mut r = open(bytes, &MAGIC, VERSION)?;
        let t = truncated(bytes);
        let (kind, depth, selectivity) = (
            r.u8().map_err(&t)?,
            r.u8().map_err(&t)?,
            r.u8().map_err(&t)?,
        );
        let table_mb = r.u32().map_err(&t)?;
        let weights_checksum = r.u64().map_err(&t)?;
        let probcut_checksum = r.u64().map_err(&t)?;
        let count = r.u32().map_err(&t)? as usize;
        let search = match (kind, depth, selectivity) {
            (0, 0, 0) => SolveSearch::Exact,
            (1, 0, 0) => SolveSearch::WinLossDraw,
            (2, 1..=60, s) if s <= Selectivity::MAX.0 => SolveSearch::Depth {
                depth,
                selectivity: Selectivity(s),
            },
            _ => {
                return Err(invalid(format!(
                    "search kind {kind} depth {depth} selectivity level {selectivity}"
                )))
            }
        };
        if !(1..=MAX_TABLE_MB).contains(&table_mb) {
            return Err(invalid(format!("a table of {table_mb} MB")));
        }
        if count == 0 || count > MAX_POSITIONS || count * 16 != r.remaining() {
            return Err(invalid(format!(
                "{count} positions (1-{MAX_POSITIONS}) in {} bytes",
                r.remaining()
            )));
        }
        let mut boards = Vec::with_capacity(count);
        for i in 0..count {
            let Some(board) = read_board(&mut r).map_err(&t)? else {
                return Err(invalid(format!("position {i}: overlapping discs")));
            };
            boards.push(board);
        }
        finished(&r)?;
        Ok(SolveUnit {
            search,
            table_mb,
            weights_checksum,
            probcut_checksum,
            boards,
        })
    }

    /// Searches every position with `eval` (and `probcut`) on `threads` threads, one after
    /// another, each from an empty table.
    pub fn run<E: Evaluator>(
        &self,
        eval: Arc<E>,
        probcut: Option<Arc<ProbCutModel>>,
        threads: usize,
    ) -> Vec<Report> {
        let searcher = EngineBuilder::of_size(self.table_mb as usize, threads.max(1))
            .searcher_with(eval, probcut);
        let limits = self.search.limits();
        search_each(&searcher, self.boards.iter().copied(), &limits).collect()
    }
}

impl KeyedUnit for SolveUnit {
    type Answer = Vec<Report>;
    type Error = MessageError;
    const KIND: &'static str = "solve";
    const UNITS_SUBJECT: &'static str = "wedge.units.solve";
    const RESULTS_PREFIX: &'static str = "wedge.results.solve.";

    fn to_bytes(&self) -> Vec<u8> {
        SolveUnit::to_bytes(self)
    }

    fn answer(&self, bytes: &[u8]) -> Result<Vec<Report>, MessageError> {
        result_from_bytes(bytes, self)
    }
}

/// The result message of the unit with `key`: its reports in order.
pub fn result_to_bytes(key: u64, reports: &[Report]) -> Vec<u8> {
    let mut w = Writer::new(&RESULT_MAGIC, VERSION, 32 + reports.len() * 48);
    w.u64(key);
    w.u32(reports.len() as u32);
    for r in reports {
        let solved = match r.solved {
            None => 0,
            Some(SolveMode::Exact) => 1,
            Some(SolveMode::WinLossDraw) => 2,
        };
        w.u8(solved);
        w.u8(r.depth.min(60) as u8);
        w.u8(r.selectivity.0);
        // Whole discs: the solves it carries are.
        w.u8(r.score.discs().clamp(-64, 64) as i8 as u8);
        write_move(&mut w, r.best);
        w.u64(r.nodes);
        w.u64(r.millis);
        let pv = &r.pv[..r.pv.len().min(60)];
        w.u8(pv.len() as u8);
        for &m in pv {
            write_move(&mut w, m);
        }
    }
    w.finish()
}

/// One report of a result; `i` numbers it in errors.
fn read_report(
    r: &mut Reader<'_>,
    t: &impl Fn(wedge_core::framing::Truncated) -> MessageError,
    board: &Board,
    i: usize,
) -> Result<Report, MessageError> {
    let mut byte = || r.u8().map_err(t);
    let (solved, depth, selectivity, score, best) = (byte()?, byte()?, byte()?, byte()?, byte()?);
    let score = i32::from(score as i8);
    let solved = match solved {
        0 => None,
        1 => Some(SolveMode::Exact),
        2 => Some(SolveMode::WinLossDraw),
        _ => return Err(invalid(format!("report {i}: solve kind {solved}"))),
    };
    let legal = |m: Move| match m {
        Move::Play(s) => board.legal_moves() & s.bit() != 0,
        Move::Pass => board.legal_moves() == 0,
    };
    let best = read_move(best)
        .filter(|&m| legal(m))
        .ok_or_else(|| invalid(format!("report {i}: best move {best} not legal")))?;
    if depth > 60 || selectivity > Selectivity::MAX.0 || !(-64..=64).contains(&score) {
        return Err(invalid(format!(
            "report {i}: depth {depth}, selectivity level {selectivity}, score {score}"
        )));
    }
    let nodes = r.u64().map_err(t)?;
    let millis = r.u64().map_err(t)?;
    let n = r.u8().map_err(t)?;
    if n > 60 {
        return Err(invalid(format!("report {i}: {n} moves of variation")));
    }
    let mut pv = Vec::with_capacity(usize::from(n));
    for _ in 0..n {
        let b = r.u8().map_err(t)?;
        pv.push(read_move(b).ok_or_else(|| invalid(format!("report {i}: variation byte {b}")))?);
    }
    Ok(Report {
        depth: u32::from(depth),
        selectivity: Selectivity(selectivity),
        solved,
        score: Score::from_discs(score),
        best,
        pv,
        nodes,
        millis,
    })
}

/// Parses a result message and checks it answers `unit` (its key, count and legal moves).
pub fn result_from_bytes(bytes: &[u8], unit: &SolveUnit) -> Result<Vec<Report>, MessageError> {
    let mut r = open_result(bytes, &RESULT_MAGIC, VERSION, unit.key_value())?;
    let t = truncated(bytes);
    let count = r.u32().map_err(&t)? as usize;
    if count != unit.boards.len() {
        return Err(invalid(format!(
            "{count} reports for {} positions",
            unit.boards.len()
        )));
    }
    let reports = unit
        .boards
        .iter()
        .enumerate()
        .map(|(i, board)| read_report(&mut r, &t, board, i))
        .collect::<Result<Vec<_>, _>>()?;
    finished(&r)?;
    Ok(reports)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wedge_core::eval::Heuristic;
    use wedge_core::rng::Rng;

    /// The exact score of `b` by plain alpha-beta (the oracle).
    fn exact(b: &Board, mut alpha: i32, beta: i32) -> i32 {
        let moves = b.legal_moves();
        if moves == 0 {
            let passed = b.pass();
            if passed.legal_moves() == 0 {
                return b.final_score();
            }
            return -exact(&passed, -beta, -alpha);
        }
        let mut best = -65;
        for i in 0..64 {
            if moves & (1u64 << i) == 0 {
                continue;
            }
            let child = b.apply(Move::Play(Square::from_index(i))).unwrap();
            best = best.max(-exact(&child, -beta, -alpha));
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Three positions of random games with 10 empties and a move to play, with their scores.
    fn boards() -> Vec<(Board, i32)> {
        let mut rng = Rng::new(5);
        let mut out = Vec::new();
        while out.len() < 3 {
            let mut b = Board::START;
            while b.empty_count() > 10 {
                match b.random_move(&mut rng) {
                    Some(m) => b = b.apply(m).unwrap(),
                    None => break,
                }
            }
            if b.empty_count() == 10 && b.legal_moves() != 0 {
                out.push((b, exact(&b, -64, 64)));
            }
        }
        out
    }

    fn unit(search: SolveSearch) -> SolveUnit {
        SolveUnit {
            search,
            table_mb: 1,
            weights_checksum: 3,
            probcut_checksum: 4,
            boards: boards().into_iter().map(|(b, _)| b).collect(),
        }
    }

    #[test]
    fn a_solve_unit_round_trips_and_refuses_damage() {
        for search in [
            SolveSearch::Exact,
            SolveSearch::WinLossDraw,
            SolveSearch::Depth {
                depth: 6,
                selectivity: Selectivity(2),
            },
        ] {
            let unit = unit(search);
            let bytes = unit.to_bytes();
            assert_eq!(SolveUnit::from_bytes(&bytes), Ok(unit.clone()));
            for i in (0..bytes.len()).step_by(5) {
                let mut bad = bytes.clone();
                bad[i] ^= 0x10;
                assert!(SolveUnit::from_bytes(&bad).is_err(), "byte {i}");
            }
            assert!(SolveUnit::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        }
        assert!(matches!(
            SolveUnit::from_bytes(b"WEDGEVU1 a valuation unit, not this"),
            Err(MessageError::BadMagic { kind: "solve", .. })
        ));
        let none = SolveUnit {
            boards: vec![],
            ..unit(SolveSearch::Exact)
        };
        assert_eq!(
            SolveUnit::from_bytes(&none.to_bytes()),
            Err(invalid("0 positions (1-4096) in 0 bytes"))
        );
        let deep = unit(SolveSearch::Depth {
            depth: 61,
            selectivity: Selectivity::NONE,
        });
        assert_eq!(
            SolveUnit::from_bytes(&deep.to_bytes()),
            Err(invalid("search kind 2 depth 61 selectivity level 0"))
        );
    }

    #[test]
    fn a_solve_unit_gives_the_exact_scores_and_its_result_round_trips() {
        let unit = unit(SolveSearch::Exact);
        let reports = unit.run(Arc::new(Heuristic), None, 1);
        let expected: Vec<i32> = boards().into_iter().map(|(_, s)| s).collect();
        let scores: Vec<i32> = reports.iter().map(|r| r.score.discs()).collect();
        assert_eq!(scores, expected);
        assert!(reports.iter().all(|r| r.solved == Some(SolveMode::Exact)));
        // One thread from an empty table: the same nodes again.
        let again = unit.run(Arc::new(Heuristic), None, 1);
        assert_eq!(
            again.iter().map(|r| r.nodes).collect::<Vec<_>>(),
            reports.iter().map(|r| r.nodes).collect::<Vec<_>>()
        );
        let bytes = result_to_bytes(unit.key_value(), &reports);
        assert_eq!(result_from_bytes(&bytes, &unit), Ok(reports.clone()));
        let other = SolveUnit {
            table_mb: 2,
            ..unit.clone()
        };
        assert!(result_from_bytes(&bytes, &other)
            .unwrap_err()
            .to_string()
            .starts_with("the result of unit"));
        let mut bad = bytes.clone();
        bad[24] ^= 1;
        assert!(matches!(
            result_from_bytes(&bad, &unit),
            Err(MessageError::Checksum { .. })
        ));
        // An answer whose move is not legal in its position is refused, framing intact.
        let mut wrong = reports.clone();
        wrong[1].best = Move::Pass;
        assert!(
            result_from_bytes(&result_to_bytes(unit.key_value(), &wrong), &unit)
                .unwrap_err()
                .to_string()
                .contains("report 1: best move 64 not legal")
        );
    }
}
