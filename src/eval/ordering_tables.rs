//! The endgame ordering's evaluation: one phase of the pattern evaluation's tables, compacted
//! (pattern entries in bytes of a quarter disc), so that the children's evaluations that order
//! endgame moves read about 330 KB that stay in the core's cache instead of the full tables of
//! several phases (about 670 KB a phase).

use super::features::Features;
use super::patterns::{phase, N_INSTANCES, N_SCALAR_TABLES};
use super::ORDER_SCALE;

/// Empties of the phase whose tables order the endgame, whatever the position's own phase:
/// one phase orders as well as each position's own (FFO #40-#49 428.5 M nodes against
/// 431.6 M; `docs/tuning.md`, "Session 41").
pub const ORDER_PHASE_EMPTIES: u32 = 17;

/// Ordering units per pattern-table unit (so a byte holds -127..=127 quarter discs).
const PATTERN_STEP: i32 = 4;

/// One phase's tables in ordering units: pattern entries (both perspectives, laid out as
/// [`super::PatternEval`]'s) as bytes of [`PATTERN_STEP`] units, scalar entries as they are.
#[derive(Clone, Debug)]
pub struct OrderingTables {
    patterns: Vec<i8>,
    scalars: Vec<i16>,
    pattern_block: usize,
    instance_offset: [u32; N_INSTANCES],
    scalar_offset: [u32; N_SCALAR_TABLES],
}

/// Where [`super::PatternEval`]'s tables are: per phase two perspective blocks of
/// `pattern_block` pattern entries, then per phase `scalar_block` scalar entries; each
/// instance's and scalar table's offset within its block; `scale` weight units per disc.
pub struct TableLayout<'a> {
    pub patterns: &'a [i16],
    pub pattern_block: usize,
    pub instance_offset: [u32; N_INSTANCES],
    pub scalars: &'a [i16],
    pub scalar_block: usize,
    pub scalar_offset: [u32; N_SCALAR_TABLES],
    pub n_phases: usize,
    pub scale: i32,
}

impl OrderingTables {
    /// The tables of the phase of [`ORDER_PHASE_EMPTIES`] empties. Pattern entries beyond a
    /// byte's range (about ±32 discs) are clamped.
    pub fn new(t: &TableLayout<'_>) -> OrderingTables {
        let ph = phase(ORDER_PHASE_EMPTIES, t.n_phases);
        let to_order =
            |x: i16, step: i32| -> i32 { rounded_div(i32::from(x) * ORDER_SCALE, t.scale * step) };
        let (pb, sb) = (t.pattern_block, t.scalar_block);
        let pattern_part = &t.patterns[ph * 2 * pb..(ph + 1) * 2 * pb];
        let scalar_part = &t.scalars[ph * sb..(ph + 1) * sb];
        OrderingTables {
            pattern_block: pb,
            instance_offset: t.instance_offset,
            scalar_offset: t.scalar_offset,
            patterns: pattern_part
                .iter()
                .map(|&x| to_order(x, PATTERN_STEP).clamp(-127, 127) as i8)
                .collect(),
            scalars: scalar_part
                .iter()
                .map(|&x| to_order(x, 1).clamp(-32767, 32767) as i16)
                .collect(),
        }
    }

    /// The value, in [`ORDER_SCALE`] units per disc for the side to move, of the position
    /// whose pattern indices are `features` and scalar entries `sc`.
    #[inline(always)]
    pub fn value(&self, features: &Features, sc: [u8; N_SCALAR_TABLES]) -> i32 {
        let base = usize::from(features.swapped) * self.pattern_block;
        let w = &self.patterns[base..base + self.pattern_block];
        let mut sum = 0i32;
        for (off, &idx) in self.instance_offset.iter().zip(features.idx.iter()) {
            sum += i32::from(w[*off as usize + idx as usize]);
        }
        sum *= PATTERN_STEP;
        for (off, &v) in self.scalar_offset.iter().zip(sc.iter()) {
            sum += i32::from(self.scalars[*off as usize + v as usize]);
        }
        sum
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

/// Largest error of [`OrderingTables::value`] against the exact value of its phase (no
/// entry clamped), in ordering units: half a step per pattern instance, half a unit per
/// scalar table.
pub const MAX_ROUNDING_ERROR: i32 =
    (N_INSTANCES as i32 * PATTERN_STEP + 1) / 2 + N_SCALAR_TABLES as i32;
