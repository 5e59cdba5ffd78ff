//! Multi-ProbCut: a shallow search predicts a deep one (`deep ≈ slope * shallow + bias`, with
//! normally distributed error `sigma`), so a shallow value far enough beyond the window cuts
//! the deep search. The parameters per depth pair and game stage are fitted by our own tool
//! (`wedge train-probcut`) on data we generate, and stored next to the weights they belong to.

use std::fmt::Write as _;
use std::path::Path;

use crate::eval::EIGHTHS_PER_DISC;
use crate::search::limits::Selectivity;

/// Deep depths whose probe is a shallow search (from the table's nodes on).
pub const MIN_DEPTH: u32 = 3;
/// Deep depths that may be cut: below [`MIN_DEPTH`], nodes of depth 1 and 2 probe with the
/// static evaluation (the shallow depth 0; `docs/tuning.md`, "Session 82").
pub const MIN_FIT_DEPTH: u32 = 1;
/// Deepest depth the fitting tool measures by default.
pub const MAX_FIT_DEPTH: u32 = 14;
/// Game stages by number of empties: 0 = 45+, 1 = 35-44, 2 = 25-34, 3 = fewer.
pub const STAGES: usize = 4;

/// The shallow depth paired with a deep depth (parity kept, about a quarter of the depth
/// plus its parity, as in Buro's and Edax's schedules; the static evaluation below
/// [`MIN_DEPTH`]). Endgame probes (deep = the empties) use it too (the shallow searches'
/// errors against exact scores: `docs/tuning.md`, "Session 68").
#[inline]
pub const fn shallow_depth(deep: u32) -> u32 {
    if deep < MIN_DEPTH {
        return 0;
    }
    2 * (deep / 4) + (deep % 2)
}

#[inline]
pub const fn stage(empties: u32) -> usize {
    if empties >= 45 {
        0
    } else if empties >= 35 {
        1
    } else if empties >= 25 {
        2
    } else {
        3
    }
}

/// The fitted error model of one (deep depth, stage).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pair {
    pub deep: u32,
    pub shallow: u32,
    pub stage: usize,
    pub slope: f64,
    pub bias: f64,
    pub sigma: f64,
    pub samples: u32,
}

impl Pair {
    /// The pair as a cut at the selective `level` (see [`Selectivity::T`]): its margin and bias
    /// in eighths, or `None` where the shallow value predicts too little of the deep one (a
    /// slope under a quarter) to cut on.
    #[inline(always)]
    pub fn cut(&self, level: u8) -> Option<(f64, f64)> {
        if self.slope < 0.25 {
            return None;
        }
        let eighths = EIGHTHS_PER_DISC as f64;
        let margin = Selectivity::T[level.min(5) as usize] * self.sigma * eighths;
        Some((margin, self.bias * eighths))
    }
}

/// All fitted pairs, with the name of the evaluation they were measured with.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbCutModel {
    pub evaluation: String,
    pairs: Vec<Pair>,
    /// `table[deep * STAGES + stage]`, see [`ProbCutModel::pair`].
    table: Vec<Option<Pair>>,
}

/// What is wrong with a ProbCut file.
#[derive(Debug, thiserror::Error)]
pub enum ProbCutError {
    #[error("{file}: cannot read: {source}")]
    Io {
        file: String,
        source: std::io::Error,
    },
    #[error("{file}: line {line}: {what}")]
    Bad {
        file: String,
        line: usize,
        what: String,
    },
    /// A file with no `pair` line: no model to search with.
    #[error("{file}: no model in the file (no pair line)")]
    NoModel { file: String },
}

/// One measured position: its empties and its search values at depths 0..values.len().
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub empties: u32,
    /// In discs (searches give eighths).
    pub values: Vec<f64>,
}

const HEADER: &str = "wedge-probcut 1";

impl ProbCutModel {
    /// A model that never cuts.
    pub fn empty() -> ProbCutModel {
        Self::from_pairs(String::new(), Vec::new())
    }

    fn from_pairs(evaluation: String, pairs: Vec<Pair>) -> ProbCutModel {
        let table = Self::build_table(&pairs);
        ProbCutModel {
            evaluation,
            pairs,
            table,
        }
    }

    pub fn pairs(&self) -> &[Pair] {
        &self.pairs
    }

    /// The pair for a node of depth `deep` with `empties` empties (looked up in a table by
    /// depth and stage, built when the model is made).
    #[inline]
    pub fn pair(&self, deep: u32, empties: u32) -> Option<Pair> {
        self.table
            .get(deep as usize * STAGES + stage(empties))
            .copied()
            .flatten()
    }

    /// Pairs for every depth up to 60: the fitted ones, and beyond the deepest fit of a stage
    /// and parity its slope and bias with the schedule's shallow depth and a sigma extrapolated
    /// by a least-squares line of sigma against depth over that stage's fits.
    fn build_table(pairs: &[Pair]) -> Vec<Option<Pair>> {
        let mut table = vec![None; 61 * STAGES];
        for p in pairs {
            if p.deep <= 60 {
                table[p.deep as usize * STAGES + p.stage] = Some(*p);
            }
        }
        for st in 0..STAGES {
            // The static evaluation's pairs (below `MIN_DEPTH`) are of another kind of probe.
            let fits: Vec<&Pair> = pairs
                .iter()
                .filter(|p| p.stage == st && p.deep >= MIN_DEPTH)
                .collect();
            let points: Vec<(f64, f64)> = fits.iter().map(|p| (p.deep as f64, p.sigma)).collect();
            let trend = regress(&points);
            for parity in 0..2 {
                let Some(last) = fits
                    .iter()
                    .filter(|p| p.deep % 2 == parity)
                    .max_by_key(|p| p.deep)
                else {
                    continue;
                };
                for deep in (last.deep + 2..=60).step_by(2) {
                    let sigma = match trend {
                        Some((a, b, _)) => (a * deep as f64 + b).max(last.sigma),
                        None => last.sigma,
                    };
                    table[deep as usize * STAGES + st] = Some(Pair {
                        deep,
                        shallow: shallow_depth(deep),
                        sigma,
                        samples: 0,
                        ..**last
                    });
                }
            }
        }
        table
    }

    /// Least-squares fit of every (deep, stage) with enough samples.
    pub fn fit(evaluation: &str, samples: &[Sample], min_samples: usize) -> ProbCutModel {
        let max_depth = samples.iter().map(|s| s.values.len()).max().unwrap_or(0) as u32;
        let mut pairs = Vec::new();
        for deep in MIN_FIT_DEPTH..max_depth {
            let shallow = shallow_depth(deep);
            for st in 0..STAGES {
                let points: Vec<(f64, f64)> = samples
                    .iter()
                    .filter(|s| stage(s.empties) == st && s.values.len() > deep as usize)
                    .map(|s| (s.values[shallow as usize], s.values[deep as usize]))
                    .collect();
                if points.len() < min_samples.max(3) {
                    continue;
                }
                if let Some((slope, bias, sigma)) = regress(&points) {
                    pairs.push(Pair {
                        deep,
                        shallow,
                        stage: st,
                        slope,
                        bias,
                        sigma,
                        samples: points.len() as u32,
                    });
                }
            }
        }
        Self::from_pairs(evaluation.to_string(), pairs)
    }

    pub fn to_text(&self) -> String {
        let mut s = format!("{HEADER}\nevaluation {}\n", self.evaluation);
        s.push_str("# deep shallow stage slope bias sigma samples\n");
        for p in &self.pairs {
            let _ = writeln!(
                s,
                "pair {} {} {} {:.6} {:.6} {:.6} {}",
                p.deep, p.shallow, p.stage, p.slope, p.bias, p.sigma, p.samples
            );
        }
        s
    }

    /// Parses the text form, naming `file` and the line in errors.
    pub fn parse(text: &str, file: &str) -> Result<ProbCutModel, ProbCutError> {
        let bad = |line: usize, what: String| ProbCutError::Bad {
            file: file.to_string(),
            line,
            what,
        };
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, l)) if l.trim() == HEADER => {}
            Some((_, l)) => return Err(bad(1, format!("expected {HEADER:?}, found {l:?}"))),
            None => return Err(bad(1, "empty file".into())),
        }
        let mut evaluation = String::new();
        let mut pairs = Vec::new();
        for (i, line) in lines {
            let n = i + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut f = line.split_whitespace();
            match f.next() {
                Some("evaluation") => evaluation = f.collect::<Vec<_>>().join(" "),
                Some("pair") => {
                    let v: Vec<&str> = f.collect();
                    if v.len() != 7 {
                        return Err(bad(n, format!("a pair has 7 fields, found {}", v.len())));
                    }
                    let int = |k: usize| {
                        v[k].parse::<u32>().map_err(|_| {
                            bad(n, format!("field {} is not a count: {:?}", k + 1, v[k]))
                        })
                    };
                    let real = |k: usize| {
                        v[k].parse::<f64>()
                            .ok()
                            .filter(|x| x.is_finite())
                            .ok_or_else(|| {
                                bad(n, format!("field {} is not a number: {:?}", k + 1, v[k]))
                            })
                    };
                    let (deep, shallow, st) = (int(0)?, int(1)?, int(2)? as usize);
                    if !(MIN_FIT_DEPTH..=60).contains(&deep) || shallow >= deep || st >= STAGES {
                        return Err(bad(n, "depths or stage out of range".into()));
                    }
                    let sigma = real(5)?;
                    if sigma <= 0.0 {
                        return Err(bad(n, "sigma must be positive".into()));
                    }
                    pairs.push(Pair {
                        deep,
                        shallow,
                        stage: st,
                        slope: real(3)?,
                        bias: real(4)?,
                        sigma,
                        samples: int(6)?,
                    });
                }
                Some(other) => return Err(bad(n, format!("unknown record {other:?}"))),
                None => {}
            }
        }
        Ok(Self::from_pairs(evaluation, pairs))
    }

    /// The model of the file `path`, which must hold at least one pair (the empty model, of
    /// no file, is [`ProbCutModel::empty`]).
    pub fn load(path: &Path) -> Result<ProbCutModel, ProbCutError> {
        let file = path.display().to_string();
        let text = crate::paths::read_text(path).map_err(|source| ProbCutError::Io {
            file: file.clone(),
            source,
        })?;
        let model = Self::parse(&text, &file)?;
        if model.pairs.is_empty() {
            return Err(ProbCutError::NoModel { file });
        }
        Ok(model)
    }
}

/// Slope, intercept and residual standard deviation of `y ≈ slope * x + bias`.
fn regress(points: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n = points.len() as f64;
    let (sx, sy) = points
        .iter()
        .fold((0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1));
    let (mx, my) = (sx / n, sy / n);
    let (mut sxx, mut sxy) = (0.0, 0.0);
    for &(x, y) in points {
        sxx += (x - mx) * (x - mx);
        sxy += (x - mx) * (y - my);
    }
    if sxx <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let bias = my - slope * mx;
    let rss: f64 = points
        .iter()
        .map(|&(x, y)| (y - slope * x - bias).powi(2))
        .sum();
    let sigma = (rss / (n - 2.0).max(1.0)).sqrt().max(0.5);
    Some((slope, bias, sigma))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_recovers_a_linear_model_and_round_trips() {
        let mut rng = crate::rng::Rng::new(3);
        let samples: Vec<Sample> = (0..400)
            .map(|i| {
                let base = (rng.below(41) as i32) - 20;
                let values = (0..8)
                    .map(|d| f64::from(base + if d % 2 == 0 { 1 } else { -1 } + (i % 3) - 1))
                    .collect();
                Sample {
                    empties: 30,
                    values,
                }
            })
            .collect();
        let m = ProbCutModel::fit("test", &samples, 10);
        let p = m.pair(5, 30).expect("fitted");
        assert_eq!((p.deep, p.shallow, p.stage), (5, 3, 2));
        assert!((p.slope - 1.0).abs() < 0.05, "{p:?}");
        assert!(p.sigma < 1.5);
        let text = m.to_text();
        let back = ProbCutModel::parse(&text, "mem").unwrap();
        assert_eq!(back.pairs().len(), m.pairs().len());
        assert_eq!(back.evaluation, "test");
        // A deeper node of the same parity extrapolates from the deepest fit.
        let far = m.pair(21, 30).unwrap();
        assert_eq!((far.deep, far.shallow), (21, shallow_depth(21)));
        assert!(far.sigma >= m.pair(7, 30).unwrap().sigma);
        assert!(m.pair(5, 50).is_none(), "no sample in that stage");
        // Depths 1 and 2 are fitted against the static evaluation (depth 0) ...
        for deep in 1..MIN_DEPTH {
            let p = m.pair(deep, 30).expect("fitted");
            assert_eq!((p.deep, p.shallow), (deep, 0));
        }
        // ... and leave the extrapolation of the deeper pairs as it was without them.
        let deeper: Vec<Pair> = m
            .pairs()
            .iter()
            .copied()
            .filter(|p| p.deep >= MIN_DEPTH)
            .collect();
        let without = ProbCutModel::from_pairs("test".into(), deeper);
        assert!(without.pair(2, 30).is_none());
        for deep in MIN_DEPTH..=60 {
            assert_eq!(without.pair(deep, 30), m.pair(deep, 30), "depth {deep}");
        }
    }

    #[test]
    fn bad_files_are_refused_with_the_line() {
        for (text, line) in [
            ("", 1),
            ("nonsense\n", 1),
            ("wedge-probcut 1\npair 1 2\n", 2),
            ("wedge-probcut 1\n\npair 6 2 0 1.0 0.0 -3 100\n", 3),
            ("wedge-probcut 1\npair 6 2 9 1.0 0.0 3 100\n", 2),
            ("wedge-probcut 1\nwhat 6\n", 2),
            ("wedge-probcut 1\npair 6 2 0 NaN 0.0 3 100\n", 2),
        ] {
            match ProbCutModel::parse(text, "f.probcut") {
                Err(ProbCutError::Bad { line: l, .. }) => assert_eq!(l, line, "{text:?}"),
                other => panic!("{text:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_file_without_pairs_holds_no_model_and_is_refused() {
        let path = std::env::temp_dir().join(format!("wedge-pc-empty-{}", std::process::id()));
        let empty = ProbCutModel::empty().to_text();
        std::fs::write(&path, &empty).unwrap();
        let e = ProbCutModel::load(&path).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{}: no model in the file (no pair line)", path.display())
        );
        // The text of the empty model still parses (a queue sends it when there is no file).
        assert!(ProbCutModel::parse(&empty, "mem")
            .unwrap()
            .pairs()
            .is_empty());
        std::fs::remove_file(&path).unwrap();
    }
}
