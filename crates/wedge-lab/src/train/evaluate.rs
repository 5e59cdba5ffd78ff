//! `wedge eval`: the static (or depth-N search) evaluation of every position of an OBF file,
//! and where the file carries exact scores, the mean absolute error and bias by number of
//! empties, and the error left after the least-squares line from values to scores.

use std::collections::BTreeMap;
use wedge_core::eval::Evaluator;
use wedge_core::formats::ObfEntry;
use wedge_core::search::{FixedDepth, TableError, TranspositionTable};

/// One evaluated position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluated {
    pub empties: u32,
    /// Evaluation (discs, side to move; another engine's may have fractions).
    pub value: f64,
    /// The file's exact score, if any.
    pub exact: Option<i32>,
}

/// Evaluates each entry: statically when `depth` is 0, else by a depth-`depth` midgame search
/// (which solves exactly when the depth reaches the end) with a table of `hash_mb` MB, made
/// only then; fails when the system refuses that memory.
pub fn evaluate_entries<E: Evaluator>(
    entries: &[ObfEntry],
    eval: &E,
    depth: u32,
    hash_mb: usize,
) -> Result<Vec<Evaluated>, TableError> {
    let tt = match depth {
        0 => None,
        _ => Some(TranspositionTable::try_new(hash_mb)?),
    };
    let evaluated = entries
        .iter()
        .map(|e| {
            let b = e.position.board;
            let value = match &tt {
                None => eval.discs(&b),
                Some(tt) => FixedDepth::new(tt, eval).value(&b, depth).discs(),
            };
            let value = f64::from(value);
            Evaluated {
                empties: b.empty_count(),
                value,
                exact: e.best_score(),
            }
        })
        .collect();
    Ok(evaluated)
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
    let mut acc: BTreeMap<u32, (usize, f64, f64)> = BTreeMap::new();
    for r in results {
        if let Some(x) = r.exact {
            let d = r.value - f64::from(x);
            let a = acc.entry(r.empties).or_default();
            a.0 += 1;
            a.1 += d.abs();
            a.2 += d;
        }
    }
    let stats = |(n, abs, sum): (usize, f64, f64)| ErrorStats {
        n,
        mae: abs / n.max(1) as f64,
        bias: sum / n.max(1) as f64,
    };
    let total = acc
        .values()
        .fold((0, 0.0, 0.0), |t, a| (t.0 + a.0, t.1 + a.1, t.2 + a.2));
    (
        acc.into_iter().map(|(e, a)| (e, stats(a))).collect(),
        stats(total),
    )
}

/// The least-squares line `score = slope * value + offset` over the positions with an exact
/// score, and the mean absolute error left after it: an engine whose values are on another
/// scale than discs is judged after the rescaling. `None` with fewer than two distinct values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rescaled {
    pub slope: f64,
    pub offset: f64,
    pub mae: f64,
}

/// See [`Rescaled`].
pub fn rescaled_error(results: &[Evaluated]) -> Option<Rescaled> {
    let pairs: Vec<(f64, f64)> = results
        .iter()
        .filter_map(|r| r.exact.map(|x| (r.value, f64::from(x))))
        .collect();
    if pairs.len() < 2 {
        return None;
    }
    let n = pairs.len() as f64;
    let mean_v = pairs.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_s = pairs.iter().map(|p| p.1).sum::<f64>() / n;
    if pairs.iter().all(|p| p.0 == pairs[0].0) {
        return None;
    }
    let sxx: f64 = pairs.iter().map(|p| (p.0 - mean_v).powi(2)).sum();
    let sxy: f64 = pairs.iter().map(|p| (p.0 - mean_v) * (p.1 - mean_s)).sum();
    let slope = sxy / sxx;
    let offset = mean_s - slope * mean_v;
    if !(slope.is_finite() && offset.is_finite()) {
        return None;
    }
    let mae = pairs
        .iter()
        .map(|&(v, s)| (slope * v + offset - s).abs())
        .sum::<f64>()
        / n;
    Some(Rescaled { slope, offset, mae })
}

/// The error table as text, then the rescaled error.
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
    if let Some(r) = rescaled_error(results) {
        s.push_str(&format!(
            "score = {:.3} x value {:+.3}: MAE {:.3} after the rescaling\n",
            r.slope, r.offset, r.mae
        ));
    }
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
                value: 4.0,
                exact: Some(2),
            },
            Evaluated {
                empties: 20,
                value: -2.0,
                exact: Some(2),
            },
            Evaluated {
                empties: 21,
                value: 0.0,
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

    #[test]
    fn the_rescaled_error_undoes_a_linear_scale() {
        // Values at twice the scores plus one: the line maps them back exactly.
        let r: Vec<Evaluated> = [-6, -1, 0, 3, 8]
            .iter()
            .map(|&x| Evaluated {
                empties: 20,
                value: 2.0 * f64::from(x) + 1.0,
                exact: Some(x),
            })
            .collect();
        let fit = rescaled_error(&r).unwrap();
        assert!((fit.slope - 0.5).abs() < 1e-9, "{fit:?}");
        assert!((fit.offset + 0.5).abs() < 1e-9, "{fit:?}");
        assert!(fit.mae < 1e-9, "{fit:?}");
        // One distinct value (one that floats hold inexactly as well): no line.
        for v in [1.0, 0.1] {
            let flat: Vec<Evaluated> = r.iter().map(|e| Evaluated { value: v, ..*e }).collect();
            assert_eq!(rescaled_error(&flat), None);
        }
    }
}
