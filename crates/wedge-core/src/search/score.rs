//! A search's value of a position for the side to move, in eighths of a disc: what a report
//! carries out of the search (exact and win/loss/draw solves are whole discs).

use crate::eval::{eighths_to_discs, EIGHTHS_PER_DISC};
use std::fmt;

/// A value for the side to move in eighths of a disc, within ±64 discs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(i32);

impl Score {
    pub const fn from_eighths(eighths: i32) -> Score {
        Score(eighths)
    }

    pub const fn from_discs(discs: i32) -> Score {
        Score(discs * EIGHTHS_PER_DISC)
    }

    pub const fn eighths(self) -> i32 {
        self.0
    }

    /// Rounded to whole discs, halves away from zero.
    pub fn discs(self) -> i32 {
        eighths_to_discs(self.0)
    }

    /// In discs, with the fraction.
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / f64::from(EIGHTHS_PER_DISC)
    }
}

impl std::ops::Neg for Score {
    type Output = Score;

    fn neg(self) -> Score {
        Score(-self.0)
    }
}

/// In discs, with as many decimals as the fraction needs (an eighth needs three): `-2.125`,
/// `0.5`, `3`; `{:+}` signs the positive ones and zero; widths pad as for text (`{:>6}` to
/// align right).
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = format!("{:.3}", self.as_f64());
        let text = text.trim_end_matches('0').trim_end_matches('.');
        let sign = if f.sign_plus() && self.0 >= 0 {
            "+"
        } else {
            ""
        };
        f.pad(&format!("{sign}{text}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_discs_and_fractions() {
        assert_eq!(Score::from_discs(-3).eighths(), -24);
        for (eighths, discs, text) in [
            (0, 0, "0"),
            (8, 1, "1"),
            (-17, -2, "-2.125"),
            (4, 1, "0.5"),
            (-4, -1, "-0.5"),
            (3, 0, "0.375"),
            (-3, 0, "-0.375"),
            (511, 64, "63.875"),
            (-512, -64, "-64"),
        ] {
            let s = Score::from_eighths(eighths);
            assert_eq!(s.discs(), discs, "{eighths}");
            assert_eq!(s.to_string(), text);
            let signed = if eighths >= 0 {
                format!("+{text}")
            } else {
                text.to_string()
            };
            assert_eq!(format!("{s:+}"), signed);
            assert_eq!(format!("{s:>+8}"), format!("{signed:>8}"));
            assert_eq!(s.as_f64() * 8.0, eighths as f64);
        }
    }
}
