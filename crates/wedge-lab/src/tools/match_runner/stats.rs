//! Match statistics: score, Elo with a 95% interval, and the sequential probability ratio test.
//!
//! Everything is from the first engine's point of view. A game scores 1 (win), 1/2 (draw) or 0.
//!
//! * Score `s = (W + D/2) / N`; Elo difference `E(s) = -400 log10(1/s - 1)` (the logistic model).
//! * The per-game variance of the score is `σ² = (W (1-s)² + D (1/2-s)² + L s²) / N` (the
//!   trinomial sample variance); the standard error of `s` is `σ / √N` and the 95% interval is
//!   `E(s ± 1.96 σ/√N)` (clamped inside (0, 1)).
//! * SPRT of H0: Elo = elo0 against H1: Elo = elo1 with error rates α (accept H1 wrongly) and β
//!   (accept H0 wrongly). With `s0 = 1/(1+10^(-elo0/400))` and `s1` likewise, the score is
//!   approximated as normal with the observed variance σ², so the log-likelihood ratio of the N
//!   games is
//!
//!   `LLR = Σ [(x_i - s0)² - (x_i - s1)²] / (2σ²) = N (s1 - s0) (2s - s0 - s1) / (2σ²)`.
//!
//!   The σ² of the test is the variance of the games plus one pseudo-game split into half a win
//!   and half a loss ([`Tally::sprt_variance`]): a handful of identical results (σ² = 0) would
//!   otherwise make the ratio explode (two straight wins once "accepted" a gate), while a long
//!   run of them still moves the LLR. It is also floored at [`SPRT_MIN_VARIANCE`].
//!   The test stops with H1 when `LLR ≥ ln((1-β)/α)`, with H0 when `LLR ≤ ln(β/(1-α))`, and
//!   goes on otherwise (Wald's bounds).

/// Wins, draws and losses of the first engine, and the sum of its disc differences and of
/// their squares (for the interval of the mean disc difference).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub disc_sum: i64,
    pub disc_square_sum: i64,
}

/// The smallest per-game variance the SPRT uses (see the module comment).
pub(crate) const SPRT_MIN_VARIANCE: f64 = 0.01;

/// The z value of a two-sided 95% interval.
pub(crate) const Z95: f64 = 1.959_963_984_540_054;

/// Variance around the score `s` of `w` wins, `d` draws and `l` losses (counts may be
/// fractional).
fn trinomial_variance(w: f64, d: f64, l: f64, s: f64) -> f64 {
    (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / (w + d + l)
}

/// Elo difference of a score in (0, 1).
pub(crate) fn elo_of_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score of an Elo difference.
pub(crate) fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Adds one game: `disc_diff` from the first engine's view (its sign decides the result).
    pub fn add(&mut self, disc_diff: i32) {
        match disc_diff.cmp(&0) {
            std::cmp::Ordering::Greater => self.wins += 1,
            std::cmp::Ordering::Equal => self.draws += 1,
            std::cmp::Ordering::Less => self.losses += 1,
        }
        self.disc_sum += disc_diff as i64;
        self.disc_square_sum += (disc_diff as i64).pow(2);
    }

    /// The same games seen from the second engine.
    pub fn flipped(&self) -> Tally {
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
            disc_sum: -self.disc_sum,
            disc_square_sum: self.disc_square_sum,
        }
    }

    /// Mean score, `None` with no games.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    pub(crate) fn average_discs(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.disc_sum as f64 / n as f64)
    }

    /// Half-width of the 95% interval of the mean disc difference (normal approximation with
    /// the sample variance); `None` with fewer than two games.
    pub(crate) fn discs_half_width(&self) -> Option<f64> {
        let n = self.games() as f64;
        if n < 2.0 {
            return None;
        }
        let mean = self.disc_sum as f64 / n;
        let var = (self.disc_square_sum as f64 - n * mean * mean).max(0.0) / (n - 1.0);
        Some(Z95 * (var / n).sqrt())
    }

    /// Per-game variance of the score (trinomial).
    pub(crate) fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        Some(trinomial_variance(
            self.wins as f64,
            self.draws as f64,
            self.losses as f64,
            s,
        ))
    }

    /// The variance the SPRT uses: the games' variance around their own score, with half a win
    /// and half a loss added (a prior that keeps a few identical results from counting as
    /// certainty).
    pub(crate) fn sprt_variance(&self) -> Option<f64> {
        let s = self.score()?;
        Some(trinomial_variance(
            self.wins as f64 + 0.5,
            self.draws as f64,
            self.losses as f64 + 0.5,
            s,
        ))
    }

    /// Elo difference and its 95% interval `(elo, low, high)`; infinite when the score is 0 or
    /// 1 (or the interval reaches them).
    pub(crate) fn elo(&self) -> Option<(f64, f64, f64)> {
        let s = self.score()?;
        let se = (self.variance()? / self.games() as f64).sqrt();
        let clamp = |x: f64| x.clamp(0.0, 1.0);
        let e = |x: f64| match x {
            x if x <= 0.0 => f64::NEG_INFINITY,
            x if x >= 1.0 => f64::INFINITY,
            x => elo_of_score(x),
        };
        Some((e(s), e(clamp(s - Z95 * se)), e(clamp(s + Z95 * se))))
    }
}

/// The SPRT parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Accept H1 (Elo ≥ elo1).
    H1,
    /// Accept H0 (Elo ≤ elo0).
    H0,
    Continue,
}

/// SPRT parameters that do not make a test.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum SprtError {
    #[error("--sprt: need elo0 < elo1, got {elo0} and {elo1}")]
    Elo { elo0: f64, elo1: f64 },
    #[error("--sprt: alpha and beta must lie in (0, 0.5), got {alpha} and {beta}")]
    Rates { alpha: f64, beta: f64 },
}

impl Sprt {
    /// Checks that the hypotheses are ordered and the error rates lie in (0, 0.5).
    pub(crate) fn validate(&self) -> Result<(), SprtError> {
        let ok_rate = |x: f64| x > 0.0 && x < 0.5;
        if !(self.elo0.is_finite() && self.elo1.is_finite() && self.elo1 > self.elo0) {
            return Err(SprtError::Elo {
                elo0: self.elo0,
                elo1: self.elo1,
            });
        }
        if !ok_rate(self.alpha) || !ok_rate(self.beta) {
            return Err(SprtError::Rates {
                alpha: self.alpha,
                beta: self.beta,
            });
        }
        Ok(())
    }

    /// Wald's bounds `(lower, upper)` on the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of `t` (0 before any game).
    pub(crate) fn llr(&self, t: &Tally) -> f64 {
        let (Some(s), Some(var)) = (t.score(), t.sprt_variance()) else {
            return 0.0;
        };
        let var = var.max(SPRT_MIN_VARIANCE);
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        t.games() as f64 * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    pub fn decide(&self, t: &Tally) -> SprtDecision {
        let llr = self.llr(t);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::H1
        } else if llr <= lower {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        }
    }
}

/// `+147.2 ± 66.0` style text (the larger half-width of the asymmetric interval), or the
/// interval itself when a bound is infinite.
pub(crate) fn format_elo(t: &Tally) -> String {
    match t.elo() {
        None => "-".into(),
        Some((e, lo, hi)) if e.is_finite() && lo.is_finite() && hi.is_finite() => {
            format!("{e:+.1} [{lo:+.1}, {hi:+.1}]")
        }
        Some((e, lo, hi)) => format!("{} [{}, {}]", inf(e), inf(lo), inf(hi)),
    }
}

/// `+2.66 ± 3.10`: the mean disc difference and the half-width of its 95% interval.
pub(crate) fn format_discs(t: &Tally) -> String {
    match (t.average_discs(), t.discs_half_width()) {
        (Some(m), Some(h)) => format!("{m:+.2} ± {h:.2}"),
        (Some(m), None) => format!("{m:+.2}"),
        _ => "-".into(),
    }
}

fn inf(x: f64) -> String {
    if x == f64::INFINITY {
        "+inf".into()
    } else if x == f64::NEG_INFINITY {
        "-inf".into()
    } else {
        format!("{x:+.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disc_interval_is_the_normal_interval_of_the_mean() {
        let mut t = Tally::default();
        for d in [10, -4, 6, 0, 8] {
            t.add(d);
        }
        // mean 4, sample variance (36 + 64 + 4 + 16 + 16) / 4 = 34
        assert_eq!(t.average_discs(), Some(4.0));
        let h = t.discs_half_width().unwrap();
        assert!((h - Z95 * (34.0f64 / 5.0).sqrt()).abs() < 1e-12);
        assert_eq!(format_discs(&t), format!("+4.00 ± {h:.2}"));
        let f = t.flipped();
        assert_eq!((f.wins, f.draws, f.losses), (t.losses, t.draws, t.wins));
        assert_eq!(f.average_discs(), Some(-4.0));
        assert_eq!(f.discs_half_width(), Some(h));
        let mut one = Tally::default();
        one.add(3);
        assert_eq!(one.discs_half_width(), None);
        assert_eq!(format_discs(&one), "+3.00");
    }

    fn tally(w: u32, d: u32, l: u32) -> Tally {
        Tally {
            wins: w,
            draws: d,
            losses: l,
            disc_sum: 0,
            disc_square_sum: 0,
        }
    }

    #[test]
    fn elo_of_60_20_20() {
        // s = 0.7, σ² = 0.6·0.09 + 0.2·0.04 + 0.2·0.49 = 0.16, se = 0.04,
        // interval s ∈ [0.7 - 0.0784, 0.7 + 0.0784] = [0.6216, 0.7784].
        let t = tally(60, 20, 20);
        assert!((t.score().unwrap() - 0.7).abs() < 1e-12);
        assert!((t.variance().unwrap() - 0.16).abs() < 1e-12);
        let (e, lo, hi) = t.elo().unwrap();
        assert!((e - 147.19).abs() < 0.01, "{e}");
        assert!((lo - 86.22).abs() < 0.05, "{lo}");
        assert!((hi - 218.25).abs() < 0.05, "{hi}");
    }

    #[test]
    fn even_and_extreme_scores() {
        let (e, lo, hi) = tally(10, 0, 10).elo().unwrap();
        assert_eq!(e, 0.0);
        assert!((lo + hi).abs() < 1e-9);
        let (e, _, hi) = tally(5, 0, 0).elo().unwrap();
        assert_eq!(e, f64::INFINITY);
        assert_eq!(hi, f64::INFINITY);
        assert!(tally(0, 0, 0).elo().is_none());
    }

    #[test]
    fn sprt_decisions() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = sprt.bounds();
        assert!((hi - 2.944_438_979).abs() < 1e-6);
        assert!((lo + 2.944_438_979).abs() < 1e-6);
        // 60/20/20: N (s1-s0)(2s-s0-s1)/(2σ²) with s0 = 0.5, s1 = 0.514387..., σ² over
        // 60.5 wins, 20 draws and 20.5 losses around s = 0.7.
        let t = tally(60, 20, 20);
        let s1 = score_of_elo(10.0);
        let var = (60.5 * 0.09 + 20.0 * 0.04 + 20.5 * 0.49) / 101.0;
        assert!((t.sprt_variance().unwrap() - var).abs() < 1e-12);
        let expect = 100.0 * (s1 - 0.5) * (1.4 - 0.5 - s1) / (2.0 * var);
        assert!((sprt.llr(&t) - expect).abs() < 1e-9);
        assert!((expect - 1.7199).abs() < 1e-3);
        assert_eq!(sprt.decide(&t), SprtDecision::Continue);
        // Ten times the games: ten times the LLR, past the upper bound.
        assert_eq!(sprt.decide(&tally(600, 200, 200)), SprtDecision::H1);
        assert_eq!(sprt.decide(&tally(200, 200, 600)), SprtDecision::H0);
        assert_eq!(sprt.decide(&tally(11, 0, 10)), SprtDecision::Continue);
        assert!(Sprt { elo1: -1.0, ..sprt }.validate().is_err());
        // All wins: the prior's half win and half loss keep σ² > 0, so 14 straight wins reach
        // the bound and 13 do not; at elo1 30, two wins (once accepted by a gate) are far from it.
        assert_eq!(sprt.decide(&tally(13, 0, 0)), SprtDecision::Continue);
        assert_eq!(sprt.decide(&tally(14, 0, 0)), SprtDecision::H1);
        let wide = Sprt { elo1: 30.0, ..sprt };
        assert!(wide.llr(&tally(2, 0, 0)) < 0.3);
        assert_eq!(wide.decide(&tally(7, 0, 0)), SprtDecision::Continue);
        assert_eq!(Sprt::llr(&sprt, &tally(0, 0, 0)), 0.0);
    }
}
