//! The endgame ordering's evaluation: one phase of the pattern evaluation's tables, compacted
//! (pattern entries in bytes of a quarter disc), so that the children's evaluations that order
//! endgame moves read about 420 KB instead of the full tables of several phases (about 850 KB
//! a phase).

#[cfg(test)]
use super::patterns::{N_INSTANCES, N_SCALAR_TABLES};
use super::ORDER_SCALE;

/// Empties of the phase whose tables order the endgame, whatever the position's own phase:
/// one phase orders as well as each position's own (`docs/tuning.md`, "Session 41").
pub(crate) const ORDER_PHASE_EMPTIES: u32 = 17;

/// Ordering units per pattern-table unit (so a byte holds -127..=127 quarter discs).
pub(crate) const PATTERN_STEP: i32 = 4;

/// One phase's tables in ordering units ([`ORDER_SCALE`] per disc), laid out as the pattern
/// evaluation's: pattern entries as bytes of [`PATTERN_STEP`] units (then the padding its
/// reads' window needs), scalar entries as they are.
#[derive(Clone, Debug)]
pub(crate) struct OrderingTables {
    pub(crate) patterns: Vec<i8>,
    pub(crate) scalars: Vec<i16>,
}

impl OrderingTables {
    /// From one phase's pattern and scalar entries at `scale` weight units per disc, the
    /// pattern entries followed by `padding` zeros. Pattern entries beyond a byte's range
    /// (about ±32 discs) are clamped.
    pub(crate) fn new(
        patterns: &[i16],
        scalars: &[i16],
        scale: i32,
        padding: usize,
    ) -> OrderingTables {
        let to_order = |x: i16, step: i32| rounded_div(i32::from(x) * ORDER_SCALE, scale * step);
        OrderingTables {
            patterns: patterns
                .iter()
                .map(|&x| to_order(x, PATTERN_STEP).clamp(-127, 127) as i8)
                .chain(std::iter::repeat_n(0, padding))
                .collect(),
            scalars: scalars
                .iter()
                .map(|&x| to_order(x, 1).clamp(-32767, 32767) as i16)
                .collect(),
        }
    }
}

/// `a / b` rounded to nearest, halves away from zero (`b` > 0).
fn rounded_div(a: i32, b: i32) -> i32 {
    if a >= 0 {
        (a + b / 2) / b
    } else {
        -((-a + b / 2) / b)
    }
}

/// Largest error of an ordering value against the exact value of its phase (no entry
/// clamped), in ordering units: half a step per pattern instance, half a unit per scalar
/// table.
#[cfg(test)]
pub(crate) const MAX_ROUNDING_ERROR: i32 =
    (N_INSTANCES as i32 * PATTERN_STEP + 1) / 2 + N_SCALAR_TABLES as i32;
