//! `wedge eval`: the static (or depth-N search) evaluation of every position of an OBF file,
//! and where the file carries exact scores, the mean absolute error and bias by number of
//! empties.

use crate::eval::Evaluator;
use crate::formats::ObfEntry;
use crate::search::{FixedDepth, TranspositionTable};
use std::collections::BTreeMap;

/// One evaluated position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evaluated {
    pub empties: u32,
    /// Evaluation (discs, side to move).
    pub value: i32,
    /// The file's exact score, if any.
    pub exact: Option<i32>,
}

/// Evaluates each entry: statically when `depth` is 0, else by a depth-`depth` midgame search
/// (which solves exactly when the depth reaches the end).
pub fn evaluate_entries<E: Evaluator>(
    entries: &[ObfEntry],
    eval: &E,
    depth: u32,
    hash_mb: usize,
) -> Vec<Evaluated> {
    let tt = TranspositionTable::new(hash_mb.max(1));
    entries
        .iter()
        .map(|e| {
            let b = e.position.board;
            let value = if depth == 0 {
                eval.discs(&b)
            } else {
                FixedDepth::new(&tt, eval).value(&b, depth).discs()
            };
            Evaluated {
                empties: b.empty_count(),
                value,
                exact: e.best_score(),
            }
        })
        .collect()
}

/// Error statistics of a group of positions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ErrorStats {
    pub n: usize,
    pub mae: f64,
    /// Mean of (evaluation - exact).
    pub bias: f64,
}

/// Error statistics by number of empties, and overall (positions without an exact score are
/// left out).
pub fn error_by_empties(results: &[Evaluated]) -> (BTreeMap<u32, ErrorStats>, ErrorStats) {
    let mut acc: BTreeMap<u32, (usize, i64, i64)> = BTreeMap::new();
    for r in results {
        if let Some(x) = r.exact {
            let d = i64::from(r.value - x);
            let a = acc.entry(r.empties).or_default();
            a.0 += 1;
            a.1 += d.abs();
            a.2 += d;
        }
    }
    let stats = |(n, abs, sum): (usize, i64, i64)| ErrorStats {
        n,
        mae: abs as f64 / n.max(1) as f64,
        bias: sum as f64 / n.max(1) as f64,
    };
    let total = acc
        .values()
        .fold((0, 0, 0), |t, a| (t.0 + a.0, t.1 + a.1, t.2 + a.2));
    (
        acc.into_iter().map(|(e, a)| (e, stats(a))).collect(),
        stats(total),
    )
}

/// The error table as text.
pub fn format_error_table(results: &[Evaluated]) -> String {
    let (by, all) = error_by_empties(results);
    let mut s = format!("{:>7} {:>6} {:>8} {:>8}\n", "empties", "n", "MAE", "bias");
    for (e, st) in &by {
        s.push_str(&format!(
            "{:>7} {:>6} {:>8.3} {:>+8.3}\n",
            e, st.n, st.mae, st.bias
        ));
    }
    s.push_str(&format!(
        "{:>7} {:>6} {:>8.3} {:>+8.3}\n",
        "all", all.n, all.mae, all.bias
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_table_groups_by_empties() {
        let r = [
            Evaluated {
                empties: 20,
                value: 4,
                exact: Some(2),
            },
            Evaluated {
                empties: 20,
                value: -2,
                exact: Some(2),
            },
            Evaluated {
                empties: 21,
                value: 0,
                exact: None,
            },
        ];
        let (by, all) = error_by_empties(&r);
        assert_eq!(by.len(), 1);
        assert_eq!(by[&20].n, 2);
        assert!((by[&20].mae - 3.0).abs() < 1e-9);
        assert!((by[&20].bias + 1.0).abs() < 1e-9);
        assert_eq!(all.n, 2);
    }
}
