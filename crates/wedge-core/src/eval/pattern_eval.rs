//! The pattern evaluation: weights from a [`Weights`] file unfolded into run-time tables (one
//! block per phase, indexed from the side to move's view), evaluated from scratch
//! ([`Evaluator`]) or from an incremental [`Features`] state ([`PatternEval::eval_features`]);
//! and a small deterministic weights generator for tests, so no test depends on the trained
//! file.

use super::features::Features;
use super::kernels::{self, Window, WINDOW_ENTRIES};
use super::ordering_tables::{OrderingTables, ORDER_PHASE_EMPTIES, PATTERN_STEP};
use super::patterns::{
    layout, parity_index, phase, scalar_indices_knowing, TableKind, MOBILITY_CAP, N_PATTERN_TYPES,
    N_SCALAR_TABLES, N_TABLES, PARITY_ENTRIES, PATTERN_BLOCK_ENTRIES, POTENTIAL_CAP,
    RAW_TYPE_OFFSETS, T_BIAS, T_MOBILITY_OPPONENT, T_MOBILITY_PLAYER, T_PARITY,
    T_POTENTIAL_OPPONENT, T_POTENTIAL_PLAYER,
};
use super::weights::{TableHeader, Weights, WeightsError, WeightsErrorKind};
use super::{Evaluator, EIGHTHS_PER_DISC, MAX_EIGHTHS};
use crate::board::movegen::{legal_moves, legal_moves_both, potential_moves};
use crate::board::Board;
use crate::rng::Rng;
use std::path::Path;

/// One phase's scalar weights as the evaluation reads them: by the count (0..=64) of each
/// side's legal moves and potential moves (a count past its table's cap reads the cap's entry,
/// so no count is capped at run time), and by the parity entry with the bias added. Integer
/// sums, so the evaluation is the same as with the tables of the file.
#[derive(Clone, Debug)]
struct ScalarWeights {
    /// The side to move's, then the opponent's.
    mobility: [[i32; 65]; 2],
    /// The side to move's, then the opponent's.
    potential: [[i32; 65]; 2],
    /// Sixteen entries (those past [`PARITY_ENTRIES`] unused), so that an index is masked
    /// into the table instead of checked.
    parity: [i32; 16],
}

impl ScalarWeights {
    /// From one phase's scalar tables as the weights file stores them, at `offsets`.
    fn new(tables: &[i16], offsets: &[u32; N_SCALAR_TABLES]) -> ScalarWeights {
        let table = |t: usize| &tables[offsets[t - N_PATTERN_TYPES] as usize..];
        let by_count = |t: usize, cap: usize| {
            let entries = table(t);
            std::array::from_fn(|n| i32::from(entries[n.min(cap)]))
        };
        let bias = i32::from(table(T_BIAS)[0]);
        ScalarWeights {
            mobility: [
                by_count(T_MOBILITY_PLAYER, MOBILITY_CAP),
                by_count(T_MOBILITY_OPPONENT, MOBILITY_CAP),
            ],
            potential: [
                by_count(T_POTENTIAL_PLAYER, POTENTIAL_CAP),
                by_count(T_POTENTIAL_OPPONENT, POTENTIAL_CAP),
            ],
            parity: std::array::from_fn(|k| match k < PARITY_ENTRIES {
                true => i32::from(table(T_PARITY)[k]) + bias,
                false => 0,
            }),
        }
    }
}

/// The pattern evaluation with its weights unfolded for fast lookup.
#[derive(Clone, Debug)]
pub struct PatternEval {
    scale: i32,
    /// log2 of `scale` / 8 when `scale` is a power of two of at least 8 (the shipped weights'
    /// 64): units become eighths of a disc by a shift instead of an integer division.
    eighths_shift: Option<u32>,
    n_phases: usize,
    /// Per phase, one block of the raw tables of all pattern types back to back (indexed with
    /// the side to move as digit 1); then zeros, so that a [`Window`] from the last block's
    /// start stays inside.
    patterns: Vec<i16>,
    /// Per phase, the scalar weights.
    scalars: Vec<ScalarWeights>,
    /// The phase of each number of empties (0..=64).
    phase_of: [u8; 65],
    /// Offset of each scalar table within a phase's scalar tables as the file stores them (the
    /// ordering's compact tables keep that layout).
    scalar_offset: [u32; N_SCALAR_TABLES],
    description: String,
    /// One phase's tables, compact, for the endgame's move ordering.
    ordering: OrderingTables,
}

/// The tables this build expects, as a weights file lists them.
pub fn expected_tables() -> Vec<TableHeader> {
    layout()
        .specs
        .iter()
        .map(|s| TableHeader {
            kind: s.kind,
            squares: s.squares,
            entries: s.entries,
        })
        .collect()
}

impl PatternEval {
    /// Loads and validates a weights file.
    pub fn load(path: &Path) -> Result<PatternEval, WeightsError> {
        let w = Weights::load(path)?;
        PatternEval::from_weights(&w).map_err(|k| WeightsError::new(path, k))
    }

    /// Builds the evaluation from validated weights, checking that their tables are this
    /// build's pattern set.
    pub fn from_weights(w: &Weights) -> Result<PatternEval, WeightsErrorKind> {
        let expected = expected_tables();
        if w.tables != expected {
            let detail = if w.tables.len() != expected.len() {
                format!("{} tables, expected {}", w.tables.len(), expected.len())
            } else {
                let i = w
                    .tables
                    .iter()
                    .zip(&expected)
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                format!(
                    "table {i} is {:?}, expected {:?}",
                    w.tables.get(i),
                    expected.get(i)
                )
            };
            return Err(WeightsErrorKind::LayoutMismatch(detail));
        }
        if w.data.len() != w.n_phases * w.per_phase() || w.n_phases == 0 || w.n_phases > 61 {
            return Err(WeightsErrorKind::Inconsistent(format!(
                "{} weights for {} phases",
                w.data.len(),
                w.n_phases
            )));
        }
        let l = layout();
        let mut scalar_offset = [0u32; N_SCALAR_TABLES];
        let mut scalar_block = 0usize;
        for (s, off) in scalar_offset.iter_mut().enumerate() {
            *off = scalar_block as u32;
            scalar_block += l.specs[N_PATTERN_TYPES + s].raw_entries as usize;
        }
        let per_phase = w.per_phase();
        let mut patterns =
            vec![0i16; w.n_phases * PATTERN_BLOCK_ENTRIES + WINDOW_ENTRIES - PATTERN_BLOCK_ENTRIES];
        let mut scalars = vec![0i16; w.n_phases * scalar_block];
        for ph in 0..w.n_phases {
            let file = &w.data[ph * per_phase..(ph + 1) * per_phase];
            let mut file_off = 0usize;
            for (t, spec) in l.specs.iter().enumerate().take(N_TABLES) {
                let stored = &file[file_off..file_off + spec.entries as usize];
                match spec.kind {
                    TableKind::Pattern => {
                        let fold = &l.fold[t];
                        let b0 = ph * PATTERN_BLOCK_ENTRIES + RAW_TYPE_OFFSETS[t] as usize;
                        for r in 0..spec.raw_entries as usize {
                            patterns[b0 + r] = stored[fold[r] as usize];
                        }
                    }
                    TableKind::Scalar => {
                        let s = t - N_PATTERN_TYPES;
                        let b = ph * scalar_block + scalar_offset[s] as usize;
                        scalars[b..b + stored.len()].copy_from_slice(stored);
                    }
                }
                file_off += spec.entries as usize;
            }
        }
        let oph = phase(ORDER_PHASE_EMPTIES, w.n_phases);
        let ordering = OrderingTables::new(
            &patterns[oph * PATTERN_BLOCK_ENTRIES..(oph + 1) * PATTERN_BLOCK_ENTRIES],
            &scalars[oph * scalar_block..(oph + 1) * scalar_block],
            w.scale as i32,
            WINDOW_ENTRIES - PATTERN_BLOCK_ENTRIES,
        );
        Ok(PatternEval {
            ordering,
            scale: w.scale as i32,
            eighths_shift: (w.scale.is_power_of_two() && w.scale >= 8)
                .then(|| w.scale.trailing_zeros() - 3),
            n_phases: w.n_phases,
            patterns,
            scalars: scalars
                .chunks_exact(scalar_block)
                .map(|tables| ScalarWeights::new(tables, &scalar_offset))
                .collect(),
            phase_of: std::array::from_fn(|e| phase(e as u32, w.n_phases) as u8),
            scalar_offset,
            description: w.description.clone(),
        })
    }

    /// Weight units per disc.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    pub fn n_phases(&self) -> usize {
        self.n_phases
    }

    pub fn description(&self) -> &str {
        &self.description
    }

    /// The evaluation of `board`, whose pattern indices are `features`, in weight units
    /// (1/[`PatternEval::scale`] disc) for the side to move, not clamped. No allocation.
    #[inline(always)]
    pub fn eval_features(&self, features: &Features, board: &Board) -> i32 {
        let (p, o) = (board.player, board.opponent);
        let (mine, theirs) = legal_moves_both(p, o);
        let potential = [potential_moves(p, o), potential_moves(o, p)];
        self.eval_sides(features, board, [mine, theirs], potential)
    }

    /// [`PatternEval::eval_features`] given the side to move's legal moves and potential
    /// moves (bitboards), for a caller that has them already.
    #[inline(always)]
    fn eval_features_knowing(
        &self,
        features: &Features,
        board: &Board,
        moves: u64,
        potential: u64,
    ) -> i32 {
        let (p, o) = (board.player, board.opponent);
        let their_potential = potential_moves(o, p);
        self.eval_sides(
            features,
            board,
            [moves, legal_moves(o, p)],
            [potential, their_potential],
        )
    }

    /// [`PatternEval::eval_features`] given both sides' legal moves and potential moves (the
    /// side to move's first).
    #[inline(always)]
    fn eval_sides(
        &self,
        features: &Features,
        board: &Board,
        [moves, replies]: [u64; 2],
        [potential, their_potential]: [u64; 2],
    ) -> i32 {
        let ph = usize::from(self.phase_of[board.empty_count() as usize]);
        let base = ph * PATTERN_BLOCK_ENTRIES;
        let window: &Window = self.patterns[base..base + WINDOW_ENTRIES]
            .try_into()
            .expect("pattern tables padded to a full window");
        let patterns = kernels::pattern_sum(window, &features.stm);
        let s = &self.scalars[ph];
        patterns
            + s.mobility[0][moves.count_ones() as usize]
            + s.mobility[1][replies.count_ones() as usize]
            + s.potential[0][potential.count_ones() as usize]
            + s.potential[1][their_potential.count_ones() as usize]
            + s.parity[parity_index(board.empties()) & 15]
    }

    /// Weight units to eighths of a disc: rounded to nearest (halves away from zero), clamped
    /// to ±[`MAX_EIGHTHS`].
    #[inline]
    pub fn to_eighths(&self, units: i32) -> i32 {
        let eighths = match self.eighths_shift {
            Some(k) => shifted_to_nearest(units, k),
            None => {
                let magnitude = (units.abs() * EIGHTHS_PER_DISC + self.scale / 2) / self.scale;
                magnitude * units.signum()
            }
        };
        eighths.clamp(-MAX_EIGHTHS, MAX_EIGHTHS)
    }

    /// The evaluation in weight units, from scratch.
    pub fn eval_units(&self, board: &Board) -> i32 {
        self.eval_features(&Features::new(board), board)
    }
}

/// `units / 2^k` rounded to nearest, halves away from zero, without a division or the sign
/// taken apart: a negative half is rounded down by adding one less than the positive half.
#[inline(always)]
fn shifted_to_nearest(units: i32, k: u32) -> i32 {
    let half = (1 << k) >> 1;
    (units + half - i32::from(units < 0 && k > 0)) >> k
}

impl Evaluator for PatternEval {
    type State = Features;

    fn state(&self, board: &Board) -> Features {
        Features::new(board)
    }

    #[inline(always)]
    fn play(&self, state: &Features, sq: usize, flips: u64) -> Features {
        state.played(sq, flips)
    }

    #[inline(always)]
    fn pass(&self, state: &Features) -> Features {
        let mut s = *state;
        s.pass();
        s
    }

    #[inline(always)]
    fn eighths_with(&self, state: &Features, board: &Board) -> i32 {
        self.to_eighths(self.eval_features(state, board))
    }

    #[inline(always)]
    fn eighths_knowing(&self, state: &Features, board: &Board, moves: u64, potential: u64) -> i32 {
        self.to_eighths(self.eval_features_knowing(state, board, moves, potential))
    }

    #[inline(always)]
    fn order_value(&self, state: &Features, board: &Board, moves: u64, potential: u64) -> i32 {
        let sc = scalar_indices_knowing(board, moves, potential);
        // The full evaluation's loop over the compact tables of one phase.
        let w: &Window<i8> = self.ordering.patterns[..WINDOW_ENTRIES]
            .try_into()
            .expect("ordering tables padded to a full window");
        let mut sum = kernels::pattern_sum(w, &state.stm) * PATTERN_STEP;
        for (off, &v) in self.scalar_offset.iter().zip(sc.iter()) {
            sum += i32::from(self.ordering.scalars[*off as usize + v as usize]);
        }
        sum
    }
}

/// Small deterministic weights for tests: `n_phases` phases of pseudo-random values of a few
/// discs, with a mild positional bias so searches have something to order by.
pub fn test_weights(n_phases: usize, seed: u64) -> Weights {
    let tables = expected_tables();
    let per_phase: usize = tables.iter().map(|t| t.entries as usize).sum();
    let mut rng = Rng::new(seed);
    let data = (0..n_phases * per_phase)
        .map(|_| (rng.below(257) as i16) - 128)
        .collect();
    Weights {
        description: format!("test weights, seed {seed}"),
        created: 0,
        scale: 64,
        n_phases,
        tables,
        data,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::{legal_moves, potential_moves};
    use crate::board::tests::random_positions;
    use crate::board::{Move, Symmetry};
    use crate::eval::ordering_tables::MAX_ROUNDING_ERROR;
    use crate::eval::patterns::N_INSTANCES;
    use crate::eval::ORDER_SCALE;

    /// The shift rounds as the division does: to nearest, halves away from zero.
    #[test]
    fn shifted_rounding_is_to_nearest_halves_away_from_zero() {
        for k in 0..=10 {
            let d = 1i32 << k;
            for units in -5000i32..=5000 {
                let expected = (units.abs() + d / 2) / d * units.signum();
                assert_eq!(shifted_to_nearest(units, k), expected, "{units} >> {k}");
            }
        }
    }

    fn eval() -> PatternEval {
        PatternEval::from_weights(&test_weights(4, 1)).unwrap()
    }

    /// Units become eighths of a disc rounded to nearest (halves away from zero) and clamped,
    /// by the shift for a power-of-two scale of at least 8 and by division otherwise.
    #[test]
    fn units_round_to_nearest_eighth_for_any_scale() {
        for scale in [64, 1, 2, 8, 48, 100, 4096] {
            let e = PatternEval::from_weights(&Weights {
                scale,
                ..test_weights(1, 3)
            })
            .unwrap();
            let shifted = scale.is_power_of_two() && scale >= 8;
            assert_eq!(e.eighths_shift.is_some(), shifted);
            for units in -70 * scale as i32..=70 * scale as i32 {
                let exact = units as f64 * 8.0 / scale as f64;
                let expected = exact.round().clamp(-512.0, 512.0) as i32;
                assert_eq!(
                    e.to_eighths(units),
                    expected,
                    "scale {scale}, units {units}"
                );
            }
        }
    }

    #[test]
    fn symmetric_positions_evaluate_equally() {
        let e = eval();
        let mut rng = Rng::new(9);
        for _ in 0..2_000 {
            let a = rng.next_u64();
            let b = rng.next_u64() & !a;
            let board = Board::new(a, b);
            let v = e.eval_units(&board);
            for s in Symmetry::ALL {
                assert_eq!(e.eval_units(&board.transform(s)), v);
            }
        }
    }

    #[test]
    fn incremental_evaluation_matches_scratch() {
        // Also: the ordering value from the incremental state is the one from scratch.
        let e = eval();
        let mut rng = Rng::new(77);
        for _ in 0..300 {
            let mut board = Board::START;
            let mut feat = Features::new(&board);
            loop {
                assert_eq!(e.eval_features(&feat, &board), e.eval_units(&board));
                let (p, o) = (board.player, board.opponent);
                let (m, pot) = (legal_moves(p, o), potential_moves(p, o));
                assert_eq!(
                    e.order_value(&feat, &board, m, pot),
                    e.order_value(&Features::new(&board), &board, m, pot)
                );
                let v = e.eighths(&board);
                assert!((-MAX_EIGHTHS..=MAX_EIGHTHS).contains(&v));
                match board.random_move(&mut rng) {
                    None => break,
                    Some(Move::Pass) => {
                        board = board.pass();
                        feat.pass();
                    }
                    Some(Move::Play(sq)) => {
                        let flips = board.flips(sq);
                        feat.play(sq.index(), flips);
                        board = board.play_flips(sq, flips);
                    }
                }
            }
        }
    }

    fn order_value(e: &PatternEval, board: &Board) -> i32 {
        let (p, o) = (board.player, board.opponent);
        e.order_value(
            &Features::new(board),
            board,
            legal_moves(p, o),
            potential_moves(p, o),
        )
    }

    /// At [`ORDER_PHASE_EMPTIES`] empties the ordering value is the evaluation, within the
    /// compact tables' rounding.
    #[test]
    fn ordering_value_is_its_phase_evaluation_rounded() {
        let e = eval();
        let (mut checked, mut differ) = (0, 0);
        random_positions(5, 2_000, |board| {
            if board.empty_count() != ORDER_PHASE_EMPTIES {
                return;
            }
            let exact = e.eval_units(board) * ORDER_SCALE;
            let got = order_value(&e, board) * e.scale();
            assert!(
                (got - exact).abs() <= MAX_ROUNDING_ERROR * e.scale(),
                "{board:?}: {got} against {exact}"
            );
            checked += 1;
            differ += usize::from(got != exact);
        });
        assert!(checked > 1_500, "{checked} positions checked");
        assert!(differ > 0, "the compact tables are rounded");
    }

    /// Every position is ordered by the tables of one phase: the others' weights change
    /// nothing, that phase's change the values.
    #[test]
    fn ordering_value_reads_one_phase_only() {
        let base = test_weights(4, 1);
        let per_phase = base.per_phase();
        let own = phase(ORDER_PHASE_EMPTIES, 4);
        let mut others = base.clone();
        let mut changed = base.clone();
        let noise = test_weights(4, 2);
        for ph in 0..4 {
            let target = if ph == own { &mut changed } else { &mut others };
            let r = ph * per_phase..(ph + 1) * per_phase;
            target.data[r.clone()].copy_from_slice(&noise.data[r]);
        }
        let [a, b, c] = [base, others, changed].map(|w| PatternEval::from_weights(&w).unwrap());
        let (mut positions, mut moved) = (0, 0);
        random_positions(6, 20, |board| {
            assert_eq!(order_value(&a, board), order_value(&b, board));
            positions += 1;
            moved += usize::from(order_value(&a, board) != order_value(&c, board));
        });
        assert!(
            moved * 10 > positions * 9,
            "{moved} of {positions} values moved"
        );
    }

    /// Pattern weights beyond a byte's range are clamped to its end, not wrapped.
    #[test]
    fn ordering_tables_clamp_large_weights() {
        let mut w = test_weights(1, 4);
        let n_pattern_entries: usize = expected_tables()
            .iter()
            .filter(|t| t.kind == TableKind::Pattern)
            .map(|t| t.entries as usize)
            .sum();
        w.data[..n_pattern_entries].fill(i16::MAX);
        let scalars_only = {
            let mut z = w.clone();
            z.data[..n_pattern_entries].fill(0);
            PatternEval::from_weights(&z).unwrap()
        };
        let e = PatternEval::from_weights(&w).unwrap();
        random_positions(8, 2, |board| {
            let patterns = order_value(&e, board) - order_value(&scalars_only, board);
            assert_eq!(patterns, N_INSTANCES as i32 * 127 * PATTERN_STEP);
        });
    }

    #[test]
    fn layout_mismatch_is_refused() {
        let mut w = test_weights(1, 2);
        w.tables[3].entries -= 1;
        w.data.pop();
        let e = PatternEval::from_weights(&w).unwrap_err();
        assert!(matches!(e, WeightsErrorKind::LayoutMismatch(_)));
        assert!(e.to_string().contains("table 3"));
    }

    #[test]
    fn test_weights_round_trip_through_the_file_format() {
        let w = test_weights(2, 3);
        let bytes = w.to_bytes().unwrap();
        // Header, description, 8 bytes a table, 2 a weight, the checksum.
        let header = 36 + w.description.len() + 8 * w.tables.len();
        assert_eq!(bytes.len(), header + 2 * w.data.len() + 8);
        let back = Weights::from_bytes(&bytes).unwrap();
        assert_eq!(back, w);
        let (a, b) = (
            PatternEval::from_weights(&w).unwrap(),
            PatternEval::from_weights(&back).unwrap(),
        );
        assert_eq!(a.eval_units(&Board::START), b.eval_units(&Board::START));
    }

    #[test]
    fn rounding_to_eighths() {
        let e = eval();
        assert_eq!(e.to_eighths(0), 0);
        assert_eq!(e.to_eighths(3), 0);
        assert_eq!(e.to_eighths(4), 1);
        assert_eq!(e.to_eighths(-4), -1);
        assert_eq!(e.to_eighths(-3), 0);
        assert_eq!(e.to_eighths(64 * 100), 512);
        assert_eq!(e.to_eighths(-64 * 100), -512);
    }
}
