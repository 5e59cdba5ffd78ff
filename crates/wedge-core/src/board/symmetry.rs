//! The 8 symmetries of the board (the dihedral group of the square) on bitboards and squares.

use super::square::Square;

/// One of the 8 symmetries. Bit 2 = transpose (a1-h8 diagonal), applied first; then bit 0 =
/// mirror the columns (a <-> h); then bit 1 = mirror the rows (1 <-> 8).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Symmetry(u8);

impl Symmetry {
    pub const IDENTITY: Symmetry = Symmetry(0);
    pub const MIRROR_COLUMNS: Symmetry = Symmetry(1);
    pub const MIRROR_ROWS: Symmetry = Symmetry(2);
    pub const ROTATE_180: Symmetry = Symmetry(3);
    pub const TRANSPOSE: Symmetry = Symmetry(4);
    /// Transpose then mirror columns: a quarter turn clockwise on the printed board.
    pub const ROTATE_RIGHT: Symmetry = Symmetry(5);
    /// Transpose then mirror rows: a quarter turn anticlockwise.
    pub const ROTATE_LEFT: Symmetry = Symmetry(6);
    pub const ANTI_TRANSPOSE: Symmetry = Symmetry(7);

    /// All 8, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn from_index(i: usize) -> Option<Symmetry> {
        if i < 8 {
            Some(Symmetry(i as u8))
        } else {
            None
        }
    }

    /// The symmetry that undoes this one.
    pub const fn inverse(self) -> Symmetry {
        // Transpose-then-mirror inverts to mirror-then-transpose, which swaps the two mirrors.
        if self.0 & 4 != 0 && (self.0 & 3 == 1 || self.0 & 3 == 2) {
            Symmetry(self.0 ^ 3)
        } else {
            self
        }
    }

    /// Applies the symmetry to a bitboard.
    #[inline]
    pub fn apply(self, mut bits: u64) -> u64 {
        if self.0 & 4 != 0 {
            bits = transpose(bits);
        }
        if self.0 & 1 != 0 {
            bits = mirror_columns(bits);
        }
        if self.0 & 2 != 0 {
            bits = bits.swap_bytes();
        }
        bits
    }

    /// Applies the symmetry to a square.
    pub const fn apply_square(self, sq: Square) -> Square {
        let (mut c, mut r) = (sq.col(), sq.row());
        if self.0 & 4 != 0 {
            (c, r) = (r, c);
        }
        if self.0 & 1 != 0 {
            c = 7 - c;
        }
        if self.0 & 2 != 0 {
            r = 7 - r;
        }
        Square::from_index((r * 8 + c) as u32)
    }
}

/// Mirrors each row: column a <-> h.
#[inline]
fn mirror_columns(bits: u64) -> u64 {
    bits.reverse_bits().swap_bytes()
}

/// Reflects in the a1-h8 diagonal: (col, row) -> (row, col).
#[inline]
fn transpose(mut x: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn slow_apply(s: Symmetry, bits: u64) -> u64 {
        Square::all()
            .filter(|sq| bits & sq.bit() != 0)
            .fold(0, |acc, sq| acc | s.apply_square(sq).bit())
    }

    #[test]
    fn bitboard_and_square_forms_agree() {
        let mut rng = Rng::new(7);
        for _ in 0..2000 {
            let x = rng.next_u64();
            for s in Symmetry::ALL {
                assert_eq!(s.apply(x), slow_apply(s, x), "{s:?}");
            }
        }
    }

    #[test]
    fn inverse_undoes_and_group_is_distinct() {
        let mut rng = Rng::new(8);
        let x = rng.next_u64();
        let mut images = Vec::new();
        for s in Symmetry::ALL {
            assert_eq!(s.inverse().apply(s.apply(x)), x, "{s:?}");
            for sq in Square::all() {
                assert_eq!(s.inverse().apply_square(s.apply_square(sq)), sq);
            }
            images.push(s.apply(x));
        }
        images.sort();
        images.dedup();
        assert_eq!(images.len(), 8);
        // Named rotations: a1 goes to h1 under a quarter turn clockwise.
        let a1 = Square::from_index(0);
        assert_eq!(Symmetry::ROTATE_RIGHT.apply_square(a1).to_string(), "h1");
        assert_eq!(Symmetry::ROTATE_LEFT.apply_square(a1).to_string(), "a8");
        assert_eq!(Symmetry::ROTATE_180.apply_square(a1).to_string(), "h8");
    }
}
