//! The pattern set and the non-pattern features: which squares each pattern covers, its
//! symmetric instances, ternary indices from scratch (PEXT or portable) and the folding of
//! symmetric duplicates, plus the scalar features (mobility, potential mobility, parity, bias)
//! and the phase of a position.
//!
//! # Patterns
//!
//! Ten pattern types in the Logistello/Edax tradition and five shapes that join a corner or an
//! edge to the squares beside it, each given by its *base* squares (below, for the a1
//! corner / first row); its instances are the images of the base under the 8 board
//! symmetries, duplicates (same square set) dropped:
//!
//! | type | squares | base | instances |
//! |---|---|---|---|
//! | edge + 2 X | 10 | a1-h1, b2, g2 | 4 |
//! | corner 3x3 | 9 | a1-c3 | 4 |
//! | corner 2x5 | 10 | a1-e1, a2-e2 | 8 |
//! | line 2 / 3 / 4 | 8 | a2-h2 / a3-h3 / a4-h4 | 4 each |
//! | diagonal 8 | 8 | a1-h8 | 2 |
//! | diagonal 7 / 6 / 5 | 7 / 6 / 5 | b1-h7 / c1-h6 / d1-h5 | 4 each |
//! | triangle | 10 | a1-d1, a2-c2, a3-b3, a4 | 4 |
//! | diagonal 8 + 2 C | 10 | a1-h8, b1, a2 | 4 |
//! | diagonal 7 + 2 corners | 9 | b1-h7, a1, h8 | 4 |
//! | edge middle + row 2 | 10 | b1-g1, c2-f2 | 4 |
//! | kite | 10 | a1-d1, a2-a4, b2, c3, d4 | 4 |
//!
//! 62 instances in all, so that the incremental state fills 64 lanes: the short diagonal e1-h4,
//! mostly covered by the corner 3x3 and the edges, is left out for that (the measurements:
//! `docs/tuning.md`, "Session 55").
//!
//! The index of an instance is ternary, one digit per square (0 empty, 1 the side to move, 2
//! the opponent), the digit of the k-th base square (in ascending square order) weighted 3^k;
//! instance `(type, σ)` reads square `σ(base_k)`. So the from-scratch index is
//! `B2T[pext(σ⁻¹(player), mask)] + 2 * B2T[pext(σ⁻¹(opponent), mask)]`.
//!
//! Symmetries that map a base onto itself (the mirror of an edge, the diagonal of a corner
//! block, the reversal of a diagonal) permute its digits; indices related that way describe the
//! same configuration and share one weight: [`Layout::fold`] maps every raw index to its folded
//! index, and the weights file stores folded tables only.
//!
//! # Scalar features and phases
//!
//! Mobility (legal moves) of each side, potential mobility (empties next to the other side's
//! discs) of each side, a parity term (number of quadrants with an odd number of empties,
//! times two, plus the parity of all empties) and a bias: each is a small table indexed by the
//! (capped) count. Every table has one set of weights per phase; the phase of a position is
//! `ply * n_phases / 61` with `ply = 60 - empties` (0..=60), so 61 phases means one per ply and
//! fewer phases group neighbouring plies. The number of phases is stored in the weights file.

use crate::board::movegen::{legal_moves, potential_moves};
use crate::board::{quadrant_parities, Board, Square, Symmetry};
use std::sync::OnceLock;

/// Number of pattern types.
pub const N_PATTERN_TYPES: usize = 15;
/// Number of pattern instances (all symmetric images).
pub const N_INSTANCES: usize = 62;
/// Number of scalar tables (mobility x2, potential mobility x2, parity, bias).
pub const N_SCALAR_TABLES: usize = 6;
/// All tables: the pattern types, then the scalar tables.
pub const N_TABLES: usize = N_PATTERN_TYPES + N_SCALAR_TABLES;
/// Most squares in one pattern.
pub(crate) const MAX_PATTERN_SQUARES: usize = 10;
/// Phases when every ply has its own weights.
pub(crate) const MAX_PHASES: usize = 61;

/// Mobility counts at or above this share the last entry.
pub(crate) const MOBILITY_CAP: usize = 35;
/// Potential-mobility counts at or above this share the last entry.
pub(crate) const POTENTIAL_CAP: usize = 47;
/// Entries of the parity table: odd quadrants (0..=4) * 2 + empties parity.
pub(crate) const PARITY_ENTRIES: usize = 10;

/// Table indices of the scalar tables (after the pattern types).
pub(crate) const T_MOBILITY_PLAYER: usize = N_PATTERN_TYPES;
pub(crate) const T_MOBILITY_OPPONENT: usize = N_PATTERN_TYPES + 1;
pub(crate) const T_POTENTIAL_PLAYER: usize = N_PATTERN_TYPES + 2;
pub(crate) const T_POTENTIAL_OPPONENT: usize = N_PATTERN_TYPES + 3;
pub(crate) const T_PARITY: usize = N_PATTERN_TYPES + 4;
pub(crate) const T_BIAS: usize = N_PATTERN_TYPES + 5;

/// What a table describes (stored in the weights file header).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TableKind {
    /// A pattern over `squares` squares, folded by its self-symmetries.
    Pattern,
    /// A scalar feature: one entry per value.
    Scalar,
}

/// The shape of one table: kind, squares (patterns; 0 for scalars) and folded entries.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TableSpec {
    pub kind: TableKind,
    pub squares: u8,
    /// Entries stored in the weights file (folded).
    pub entries: u32,
    /// Entries at run time (3^squares for patterns).
    pub raw_entries: u32,
}

/// Human-readable names of the tables, in table order.
pub const TABLE_NAMES: [&str; N_TABLES] = [
    "edge+2X",
    "corner3x3",
    "corner2x5",
    "line2",
    "line3",
    "line4",
    "diag8",
    "diag7",
    "diag6",
    "diag5",
    "triangle",
    "diag8+2C",
    "diag7+2corners",
    "edge-middle+row2",
    "kite",
    "mobility(player)",
    "mobility(opponent)",
    "potential(player)",
    "potential(opponent)",
    "parity",
    "bias",
];

const fn bits(squares: &[u8]) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < squares.len() {
        m |= 1u64 << squares[i];
        i += 1;
    }
    m
}

/// Base square sets of the pattern types (a1 = 0, row-major).
pub(crate) const BASE_MASKS: [u64; N_PATTERN_TYPES] = [
    bits(&[0, 1, 2, 3, 4, 5, 6, 7, 9, 14]),
    bits(&[0, 1, 2, 8, 9, 10, 16, 17, 18]),
    bits(&[0, 1, 2, 3, 4, 8, 9, 10, 11, 12]),
    0x0000_0000_0000_FF00,
    0x0000_0000_00FF_0000,
    0x0000_0000_FF00_0000,
    bits(&[0, 9, 18, 27, 36, 45, 54, 63]),
    bits(&[1, 10, 19, 28, 37, 46, 55]),
    bits(&[2, 11, 20, 29, 38, 47]),
    bits(&[3, 12, 21, 30, 39]),
    bits(&[0, 1, 2, 3, 8, 9, 10, 16, 17, 24]),
    bits(&[0, 9, 18, 27, 36, 45, 54, 63, 1, 8]),
    bits(&[1, 10, 19, 28, 37, 46, 55, 0, 63]),
    bits(&[1, 2, 3, 4, 5, 6, 10, 11, 12, 13]),
    bits(&[0, 1, 2, 3, 8, 16, 24, 9, 18, 27]),
];

/// 3^k.
pub(crate) const fn pow3(k: usize) -> usize {
    let mut p = 1;
    let mut i = 0;
    while i < k {
        p *= 3;
        i += 1;
    }
    p
}

/// Raw entries of all pattern tables of one phase: the sum of 3^squares over the types.
pub(crate) const PATTERN_BLOCK_ENTRIES: usize = {
    let mut n = 0;
    let mut t = 0;
    while t < N_PATTERN_TYPES {
        n += pow3(BASE_MASKS[t].count_ones() as usize);
        t += 1;
    }
    n
};

/// `B2T[b]`: the ternary number whose digits are the bits of `b` (bit k -> digit k, 3^k).
static B2T: [u16; 1 << MAX_PATTERN_SQUARES] = {
    let mut t = [0u16; 1 << MAX_PATTERN_SQUARES];
    let mut b = 0;
    while b < t.len() {
        let mut v = 0usize;
        let mut k = 0;
        while k < MAX_PATTERN_SQUARES {
            if b & (1 << k) != 0 {
                v += pow3(k);
            }
            k += 1;
        }
        t[b] = v as u16;
        b += 1;
    }
    t
};

/// Parallel bit extract, portable: the bits of `x` under `mask`, packed low in mask order.
#[inline]
pub fn pext_portable(x: u64, mut mask: u64) -> u64 {
    let mut out = 0u64;
    let mut k = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            out |= 1 << k;
        }
        k += 1;
        mask ^= low;
    }
    out
}

/// Parallel bit extract with the BMI2 instruction.
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
pub fn pext_bmi2(x: u64, mask: u64) -> u64 {
    // SAFETY: this function is compiled only when the build targets BMI2
    // (`target_feature = "bmi2"`), so the instruction exists on every CPU the binary runs on.
    unsafe { core::arch::x86_64::_pext_u64(x, mask) }
}

/// Parallel bit extract: BMI2 when the build targets it, else portable.
#[inline(always)]
pub fn pext(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        pext_bmi2(x, mask)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        pext_portable(x, mask)
    }
}

/// Which kernel [`pext`] uses.
pub const PEXT_KERNEL: &str = if cfg!(all(target_arch = "x86_64", target_feature = "bmi2")) {
    "bmi2"
} else {
    "portable"
};

/// One pattern instance: its type and the symmetry that maps the base onto it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance {
    pub pattern: u8,
    pub symmetry: Symmetry,
    /// Board squares of the instance, as a bitboard.
    pub mask: u64,
}

/// An entry of the per-square update list: instance `instance` gets `3^k` for this square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SquareEntry {
    pub instance: u8,
    pub power: u16,
}

/// [`N_INSTANCES`] rounded up to a multiple of 16: the length of the incremental state's
/// rows, so that a move updates them with whole vectors (with 46 lanes the compiler used
/// 128-bit and narrower pieces: eight additions per flipped disc, now two on an AVX-512
/// build).
/// The lanes past the instances stay zero.
pub const INDEX_LANES: usize = N_INSTANCES.div_ceil(16) * 16;

/// Most instances one square belongs to.
pub(crate) const MAX_PER_SQUARE: usize = 12;

/// A bitboard's image under a symmetry, square by square (`Symmetry::apply` at compile time).
const fn image(s: Symmetry, mut mask: u64) -> u64 {
    let mut out = 0u64;
    while mask != 0 {
        let sq = Square::from_index(mask.trailing_zeros());
        mask &= mask - 1;
        out |= s.apply_square(sq).bit();
    }
    out
}

/// The pattern instances: for each type in order, the distinct images of its base under the
/// symmetries in [`Symmetry::ALL`]'s order (an image already met is a duplicate).
pub(crate) const INSTANCES: [Instance; N_INSTANCES] = {
    let mut out = [Instance {
        pattern: 0,
        symmetry: Symmetry::IDENTITY,
        mask: 0,
    }; N_INSTANCES];
    let mut n = 0;
    let mut t = 0;
    while t < N_PATTERN_TYPES {
        let first = n;
        let mut s = 0;
        while s < Symmetry::ALL.len() {
            let symmetry = Symmetry::ALL[s];
            let mask = image(symmetry, BASE_MASKS[t]);
            let mut seen = false;
            let mut j = first;
            while j < n {
                seen |= out[j].mask == mask;
                j += 1;
            }
            if !seen {
                out[n] = Instance {
                    pattern: t as u8,
                    symmetry,
                    mask,
                };
                n += 1;
            }
            s += 1;
        }
        t += 1;
    }
    assert!(n == N_INSTANCES, "the pattern set's instance count");
    out
};

/// Per square, the digit weight of that square in every instance as one row:
/// `SQUARE_POWERS[sq][i]` is 3^k when `sq` is digit k of instance `i`, else 0 (so a move
/// updates every index with a few vector additions); row 64, no square, is zeros. A static,
/// so that the update reads it at a fixed address.
pub static SQUARE_POWERS: [[u16; INDEX_LANES]; 65] = {
    let mut rows = [[0u16; INDEX_LANES]; 65];
    let mut i = 0;
    while i < N_INSTANCES {
        let inst = INSTANCES[i];
        let mut base = BASE_MASKS[inst.pattern as usize];
        let mut k = 0;
        while base != 0 {
            let sq = Square::from_index(base.trailing_zeros());
            base &= base - 1;
            rows[inst.symmetry.apply_square(sq).index()][i] = pow3(k) as u16;
            k += 1;
        }
        i += 1;
    }
    rows
};

/// Offset of each pattern type's raw table within a phase's block (the raw tables of the types
/// back to back, [`PATTERN_BLOCK_ENTRIES`] in all).
pub(crate) const RAW_TYPE_OFFSETS: [u32; N_PATTERN_TYPES] = {
    let mut out = [0u32; N_PATTERN_TYPES];
    let mut next = 0;
    let mut t = 0;
    while t < N_PATTERN_TYPES {
        out[t] = next as u32;
        next += pow3(BASE_MASKS[t].count_ones() as usize);
        t += 1;
    }
    out
};

/// Offset of each instance's raw table within a phase's block (its type's), then zeros up to
/// [`INDEX_LANES`]; a constant, which the pattern sum folds into its reads' addresses.
pub(crate) const INSTANCE_OFFSETS: [u32; INDEX_LANES] = {
    let mut out = [0u32; INDEX_LANES];
    let mut i = 0;
    while i < N_INSTANCES {
        out[i] = RAW_TYPE_OFFSETS[INSTANCES[i].pattern as usize];
        i += 1;
    }
    out
};

/// Every derived table of the pattern set, built once.
#[derive(Debug)]
pub struct Layout {
    pub instances: [Instance; N_INSTANCES],
    /// For each square, the instances containing it with their digit weight 3^k.
    pub square_entries: [[SquareEntry; MAX_PER_SQUARE]; 64],
    pub square_counts: [u8; 64],
    /// Raw index -> folded index, per pattern type (length 3^squares).
    pub fold: Vec<Vec<u32>>,
    pub specs: [TableSpec; N_TABLES],
}

/// The pattern set's derived tables.
pub fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(Layout::build)
}

/// Squares of a bitboard in ascending order.
fn squares_of(mask: u64) -> Vec<usize> {
    (0..64).filter(|&s| mask & (1u64 << s) != 0).collect()
}

/// For a pattern of `n` squares whose self-symmetries permute its digits by `perms` (digit
/// `k` goes to `perm[k]`; the identity among them): the folded index of each raw index (the
/// classes of symmetric indices numbered in the order of their smallest raw index) and the
/// number of classes. The digits are counted up alongside the index, so no index is divided
/// into digits.
fn fold_classes(n: usize, perms: &[Vec<usize>]) -> (Vec<u32>, u32) {
    let size = pow3(n);
    let mut fold = vec![0u32; size];
    let mut digits = vec![0usize; n];
    // Per permutation, the weight of each digit in the image; then the plain powers.
    let images: Vec<Vec<usize>> = perms
        .iter()
        .map(|p| p.iter().map(|&to| pow3(to)).collect())
        .collect();
    let mut next = 0u32;
    for idx in 0..size {
        let canonical = images
            .iter()
            .map(|w| digits.iter().zip(w).map(|(&d, &p)| d * p).sum::<usize>())
            .min()
            .unwrap_or(idx);
        // The smallest index of a class is met first: it numbers the class, the others look
        // it up.
        fold[idx] = if canonical == idx {
            next += 1;
            next - 1
        } else {
            fold[canonical]
        };
        // The next index's digits (ternary increment).
        for d in digits.iter_mut() {
            *d += 1;
            if *d < 3 {
                break;
            }
            *d = 0;
        }
    }
    (fold, next)
}

impl Layout {
    fn build() -> Layout {
        let instances = INSTANCES;
        let mut fold = Vec::with_capacity(N_PATTERN_TYPES);
        let mut specs = Vec::with_capacity(N_TABLES);
        for &base in BASE_MASKS.iter() {
            let base_sq = squares_of(base);
            let n = base_sq.len();
            // Self-symmetries of the base, as digit permutations: digit k goes to perm[k].
            let perms: Vec<Vec<usize>> = Symmetry::ALL
                .iter()
                .filter(|s| s.apply(base) == base)
                .map(|s| {
                    base_sq
                        .iter()
                        .map(|&sq| {
                            let img = s.apply_square(Square::from_index(sq as u32)).index();
                            base_sq.iter().position(|&b| b == img).unwrap_or(0)
                        })
                        .collect()
                })
                .collect();
            let (map, next) = fold_classes(n, &perms);
            fold.push(map);
            let size = pow3(n);
            specs.push(TableSpec {
                kind: TableKind::Pattern,
                squares: n as u8,
                entries: next,
                raw_entries: size as u32,
            });
        }
        for entries in [
            MOBILITY_CAP + 1,
            MOBILITY_CAP + 1,
            POTENTIAL_CAP + 1,
            POTENTIAL_CAP + 1,
            PARITY_ENTRIES,
            1,
        ] {
            specs.push(TableSpec {
                kind: TableKind::Scalar,
                squares: 0,
                entries: entries as u32,
                raw_entries: entries as u32,
            });
        }
        let mut square_entries = [[SquareEntry::default(); MAX_PER_SQUARE]; 64];
        let mut square_counts = [0u8; 64];
        for (i, inst) in instances.iter().enumerate() {
            let base_sq = squares_of(BASE_MASKS[inst.pattern as usize]);
            for (k, &b) in base_sq.iter().enumerate() {
                let sq = inst
                    .symmetry
                    .apply_square(Square::from_index(b as u32))
                    .index();
                let c = square_counts[sq] as usize;
                square_entries[sq][c] = SquareEntry {
                    instance: i as u8,
                    power: pow3(k) as u16,
                };
                square_counts[sq] += 1;
            }
        }
        Layout {
            instances,
            square_entries,
            square_counts,
            fold,
            specs: specs
                .try_into()
                .unwrap_or_else(|v: Vec<TableSpec>| panic!("pattern set has {} tables", v.len())),
        }
    }
}

/// The raw ternary indices of all instances, side to move = digit 1, computed from scratch
/// with `extract` as the bit-extract kernel.
#[inline(always)]
fn indices_with(board: &Board, extract: impl Fn(u64, u64) -> u64) -> [u16; N_INSTANCES] {
    let l = layout();
    let mut views = [(0u64, 0u64); 8];
    for s in Symmetry::ALL {
        let inv = s.inverse();
        views[s.index()] = (inv.apply(board.player), inv.apply(board.opponent));
    }
    let mut out = [0u16; N_INSTANCES];
    for (o, inst) in out.iter_mut().zip(l.instances.iter()) {
        let (p, q) = views[inst.symmetry.index()];
        let mask = BASE_MASKS[inst.pattern as usize];
        *o = B2T[extract(p, mask) as usize] + 2 * B2T[extract(q, mask) as usize];
    }
    out
}

/// The raw ternary indices of all instances from scratch (side to move = digit 1).
pub fn indices(board: &Board) -> [u16; N_INSTANCES] {
    indices_with(board, pext)
}

/// As [`indices`], always with the portable bit extract (tests compare the two).
pub fn indices_portable(board: &Board) -> [u16; N_INSTANCES] {
    indices_with(board, pext_portable)
}

/// The same indices read square by square (a slow, independent reference for tests).
pub fn indices_reference(board: &Board) -> [u16; N_INSTANCES] {
    let l = layout();
    let mut out = [0u16; N_INSTANCES];
    for sq in 0..64 {
        let d = if board.player >> sq & 1 != 0 {
            1
        } else if board.opponent >> sq & 1 != 0 {
            2
        } else {
            0
        };
        for e in &l.square_entries[sq][..l.square_counts[sq] as usize] {
            out[e.instance as usize] += d * e.power;
        }
    }
    out
}

/// The phase of a position with `empties` empty squares among `n_phases`.
#[inline(always)]
pub fn phase(empties: u32, n_phases: usize) -> usize {
    let ply = 60u32.saturating_sub(empties) as usize;
    (ply * n_phases / MAX_PHASES).min(n_phases.saturating_sub(1))
}

/// The scalar feature values of a position: the entry of each scalar table, in table order.
#[inline(always)]
pub fn scalar_indices(board: &Board) -> [u8; N_SCALAR_TABLES] {
    let (p, o) = (board.player, board.opponent);
    scalar_indices_knowing(board, legal_moves(p, o), potential_moves(p, o))
}

/// [`scalar_indices`] given the side to move's legal moves and potential moves (bitboards),
/// for a caller that has them already.
#[inline(always)]
pub(crate) fn scalar_indices_knowing(
    board: &Board,
    moves: u64,
    potential: u64,
) -> [u8; N_SCALAR_TABLES] {
    let (p, o) = (board.player, board.opponent);
    let mob_p = (moves.count_ones() as usize).min(MOBILITY_CAP);
    let mob_o = (legal_moves(o, p).count_ones() as usize).min(MOBILITY_CAP);
    let pot_p = (potential.count_ones() as usize).min(POTENTIAL_CAP);
    let pot_o = (potential_moves(o, p).count_ones() as usize).min(POTENTIAL_CAP);
    [
        mob_p as u8,
        mob_o as u8,
        pot_p as u8,
        pot_o as u8,
        parity_index(board.empties()) as u8,
        0,
    ]
}

/// The parity table's entry for the empty squares `empties`: the quadrants holding an odd
/// number of them times two, plus the parity of their number (below [`PARITY_ENTRIES`]).
#[inline(always)]
pub(crate) fn parity_index(empties: u64) -> usize {
    let odd = quadrant_parities(empties).count_ones() as usize;
    odd * 2 + (empties.count_ones() & 1) as usize
}

/// Folded index of a raw pattern index of type `pattern`.
#[inline(always)]
pub fn folded(pattern: usize, raw: u16) -> u32 {
    layout().fold[pattern][raw as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn instance_counts() {
        let l = layout();
        let mut per_type = [0; N_PATTERN_TYPES];
        for i in &l.instances {
            per_type[i.pattern as usize] += 1;
        }
        assert_eq!(per_type, [4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4, 4, 4, 4, 4]);
        for sq in 0..64 {
            assert!(l.square_counts[sq] as usize <= MAX_PER_SQUARE);
        }
        // Every square is covered by some pattern.
        assert!((0..64).all(|sq| l.square_counts[sq] > 0));
    }

    #[test]
    fn pattern_block_entries_is_the_layouts_raw_tables() {
        let l = layout();
        let raw: usize = (0..N_PATTERN_TYPES)
            .map(|t| l.specs[t].raw_entries as usize)
            .sum();
        assert_eq!(raw, PATTERN_BLOCK_ENTRIES);
    }

    #[test]
    fn folded_sizes() {
        let l = layout();
        let entries: Vec<u32> = l.specs[..N_PATTERN_TYPES]
            .iter()
            .map(|s| s.entries)
            .collect();
        // Mirror-symmetric patterns: (3^n + 3^(n/2 or palindromes)) / 2.
        assert_eq!(entries[0], (59049 + 243) / 2); // edge: 5 mirrored square pairs
        assert_eq!(entries[1], (19683 + 729) / 2); // 3x3: 3 squares on the diagonal
        assert_eq!(entries[2], 59049); // 2x5: none
        assert_eq!(entries[3], (6561 + 81) / 2);
        assert_eq!(entries[6], (6561 + 81) / 2); // diag 8: reversal (transpose fixes it)
        assert_eq!(entries[7], (2187 + 81) / 2);
        assert_eq!(entries[9], (243 + 27) / 2);
        assert_eq!(entries[10], (59049 + 729) / 2); // triangle: transpose, a1 and b2 fixed
        assert_eq!(entries[11], (59049 + 19683) / 2); // diag 8 + 2 C: transpose
        assert_eq!(entries[12], (19683 + 243) / 2); // diag 7 + corners: the anti-diagonal
        assert_eq!(entries[13], (59049 + 243) / 2); // edge middle: mirror
        assert_eq!(entries[14], (59049 + 2187) / 2); // kite: transpose, its diagonal fixed
    }

    /// The folding numbers the classes of symmetric indices by their smallest index: the
    /// board's symmetries that keep a pattern's squares in place map each index to one of the
    /// same number, and each number first appears right after the one before it.
    #[test]
    fn folding_numbers_symmetry_classes_in_order() {
        let l = layout();
        for (t, &base) in BASE_MASKS.iter().enumerate() {
            let sq = squares_of(base);
            // The raw index of a pattern's squares (digit 1 for `p`, 2 for `o`).
            let raw = |p: u64, o: u64| {
                sq.iter().rev().fold(0usize, |acc, &s| {
                    acc * 3 + (p >> s & 1) as usize + 2 * (o >> s & 1) as usize
                })
            };
            let fold = &l.fold[t];
            let mut seen = 0u32;
            for (idx, &f) in fold.iter().enumerate() {
                assert!(
                    f <= seen,
                    "type {t}: index {idx} numbered {f} after {seen} classes"
                );
                seen = seen.max(f + 1);
                let (mut p, mut o, mut rest) = (0u64, 0u64, idx);
                for &s in &sq {
                    match rest % 3 {
                        1 => p |= 1 << s,
                        2 => o |= 1 << s,
                        _ => {}
                    }
                    rest /= 3;
                }
                assert_eq!(raw(p, o), idx);
                for sym in Symmetry::ALL.iter().filter(|s| s.apply(base) == base) {
                    let image = raw(sym.apply(p), sym.apply(o));
                    assert_eq!(
                        fold[image], f,
                        "type {t}: index {idx} and its image {image}"
                    );
                }
            }
            assert_eq!(seen, l.specs[t].entries);
        }
    }

    #[test]
    fn pext_kernels_agree() {
        let mut rng = Rng::new(7);
        for _ in 0..100_000 {
            let x = rng.next_u64();
            let m = rng.next_u64() & rng.next_u64();
            assert_eq!(pext(x, m), pext_portable(x, m));
        }
    }

    #[test]
    fn scratch_kernels_agree_with_reference() {
        let mut rng = Rng::new(11);
        for _ in 0..20_000 {
            let a = rng.next_u64();
            let b = rng.next_u64() & !a;
            let board = Board::new(a, b);
            let r = indices_reference(&board);
            assert_eq!(indices(&board), r);
            assert_eq!(indices_portable(&board), r);
        }
    }

    #[test]
    fn folded_index_is_symmetry_invariant() {
        // The multiset of (type, folded index) over all instances is the same for all 8 images.
        let mut rng = Rng::new(3);
        for _ in 0..2_000 {
            let a = rng.next_u64();
            let b = rng.next_u64() & !a;
            let board = Board::new(a, b);
            let key = |bd: &Board| {
                let idx = indices(bd);
                let mut v: Vec<(u8, u32)> = layout()
                    .instances
                    .iter()
                    .zip(idx)
                    .map(|(i, x)| (i.pattern, folded(i.pattern as usize, x)))
                    .collect();
                v.sort_unstable();
                v
            };
            let k0 = key(&board);
            for s in Symmetry::ALL {
                assert_eq!(key(&board.transform(s)), k0);
            }
        }
    }

    /// The parity entry counts the quadrants holding an odd number of empties, twice, plus the
    /// parity of all of them.
    #[test]
    fn parity_index_counts_odd_quadrants() {
        const Q: [u64; 4] = [
            0x0000_0000_0F0F_0F0F,
            0x0000_0000_F0F0_F0F0,
            0x0F0F_0F0F_0000_0000,
            0xF0F0_F0F0_0000_0000,
        ];
        let mut rng = Rng::new(12);
        for _ in 0..20_000 {
            let e = rng.next_u64() & rng.next_u64();
            let odd = Q.iter().filter(|&&q| (e & q).count_ones() % 2 == 1).count();
            let expected = odd * 2 + e.count_ones() as usize % 2;
            assert_eq!(parity_index(e), expected, "{e:#x}");
            assert!(expected < PARITY_ENTRIES);
        }
    }

    #[test]
    fn phases_cover_the_game() {
        assert_eq!(phase(60, 61), 0);
        assert_eq!(phase(0, 61), 60);
        assert_eq!(phase(60, 15), 0);
        assert_eq!(phase(0, 15), 14);
        assert_eq!(phase(64, 15), 0);
        for n in 1..=61 {
            let mut last = 0;
            for e in (0..=60).rev() {
                let p = phase(e, n);
                assert!(p >= last && p < n);
                last = p;
            }
            assert_eq!(last, n - 1);
        }
    }
}
