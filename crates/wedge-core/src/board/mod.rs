//! The board: two bitboards (side to move, opponent), moves, flips, passes, game end, scores,
//! symmetries, the canonical key and the hash. Everything above this layer stands on it; it
//! stands on the random generator alone ([`crate::rng`], for random moves and its mix).

// `flip` and `movegen` are namespaces: each is one kernel in its builds (the fastest the build
// enables, the portable twin, the per-ISA twins) and `KERNEL`, the build chosen; the search
// calls them on raw bitboards, the benches and `wedge perft` compare and name the builds.
pub mod flip;
mod hash;
pub mod movegen;
#[cfg(test)]
mod reference;
mod square;
mod symmetry;

pub(crate) use hash::table_hash;
pub use square::{BadSquare, Move, Square, Squares, CORNERS, C_SQUARES, X_SQUARES};
pub use symmetry::Symmetry;

use crate::rng::Rng;
use std::fmt;

/// The parity of each quadrant's share of `squares` (a1-d4, e1-h4, a5-d8, e5-h8), as one bit
/// on the quadrant's lowest square (a1, e1, a5, e5): set when the quadrant holds an odd number.
#[inline(always)]
pub fn quadrant_parities(squares: u64) -> u64 {
    // Fold each quadrant onto its lowest square: across the four columns of each half-row,
    // then across the four rows of each half-board.
    let mut x = squares ^ (squares >> 1);
    x ^= x >> 2;
    x ^= x >> 8;
    x ^= x >> 16;
    x & 0x0000_0011_0000_0011
}

/// A position: the discs of the side to move and of its opponent. Colour is not stored; the
/// game record knows whose turn it is.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Board {
    pub player: u64,
    pub opponent: u64,
}

/// A move that is not legal in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("{0} is not a legal move here")]
    NotLegal(Square),
    #[error("pass is not allowed: the side to move has a legal move")]
    PassNotAllowed,
}

impl Board {
    /// The standard start: d5 and e4 for the side to move (Black), d4 and e5 for White.
    pub const START: Board = Board {
        player: 0x0000_0008_1000_0000,
        opponent: 0x0000_0010_0800_0000,
    };

    pub const fn new(player: u64, opponent: u64) -> Board {
        Board { player, opponent }
    }

    /// Legal squares for the side to move, as a bitboard.
    #[inline(always)]
    pub fn legal_moves(&self) -> u64 {
        movegen::legal_moves(self.player, self.opponent)
    }

    /// Discs that playing on `sq` would flip (0 if the move is illegal).
    #[inline(always)]
    pub fn flips(&self, sq: Square) -> u64 {
        flip::flips(sq.index(), self.player, self.opponent)
    }

    /// The position after the side to move plays `sq` flipping `flips` (as given by
    /// [`Board::flips`]); the opponent is to move next. No legality check.
    #[inline(always)]
    pub fn play_flips(&self, sq: Square, flips: u64) -> Board {
        Board {
            player: self.opponent ^ flips,
            opponent: self.player ^ flips ^ sq.bit(),
        }
    }

    /// The position after playing `sq`, or `None` if it is not a legal move.
    #[inline]
    pub fn play(&self, sq: Square) -> Option<Board> {
        if (self.player | self.opponent) & sq.bit() != 0 {
            return None;
        }
        let f = self.flips(sq);
        (f != 0).then(|| self.play_flips(sq, f))
    }

    /// The position after a pass (colours swap).
    #[inline(always)]
    pub fn pass(&self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// Plays a move, checking that it is legal (a pass only when no square is).
    pub fn apply(&self, mv: Move) -> Result<Board, IllegalMove> {
        match mv {
            Move::Play(sq) => self.play(sq).ok_or(IllegalMove::NotLegal(sq)),
            Move::Pass if self.must_pass() => Ok(self.pass()),
            Move::Pass => Err(IllegalMove::PassNotAllowed),
        }
    }

    /// The legal moves as a list: the squares, or a single pass when there is none (and the game
    /// is not over).
    pub fn moves(&self) -> Vec<Move> {
        let m = self.legal_moves();
        if m != 0 {
            Squares(m).map(Move::Play).collect()
        } else if self.is_game_over() {
            Vec::new()
        } else {
            vec![Move::Pass]
        }
    }

    /// A uniformly chosen legal move drawn with `rng`: a square, a pass when the side to move
    /// must pass, or `None` when the game is over. For random games in tests and tools.
    pub fn random_move(&self, rng: &mut Rng) -> Option<Move> {
        let moves = self.legal_moves();
        if moves != 0 {
            let bit = rng.pick_bit(moves);
            Some(Move::Play(Square::from_index(bit.trailing_zeros())))
        } else if self.pass().legal_moves() != 0 {
            Some(Move::Pass)
        } else {
            None
        }
    }

    /// True when the side to move has no legal square.
    #[inline]
    pub fn has_no_move(&self) -> bool {
        self.legal_moves() == 0
    }

    /// True when the side to move must pass: no square, but the opponent has one.
    pub fn must_pass(&self) -> bool {
        self.has_no_move() && self.pass().legal_moves() != 0
    }

    /// True when neither side can move.
    pub fn is_game_over(&self) -> bool {
        self.has_no_move() && self.pass().has_no_move()
    }

    #[inline(always)]
    pub fn empties(&self) -> u64 {
        !(self.player | self.opponent)
    }

    #[inline(always)]
    pub fn empty_count(&self) -> u32 {
        self.empties().count_ones()
    }

    #[inline(always)]
    pub fn player_count(&self) -> u32 {
        self.player.count_ones()
    }

    #[inline(always)]
    pub fn opponent_count(&self) -> u32 {
        self.opponent.count_ones()
    }

    /// Final disc difference for the side to move, empties going to the winner
    /// (the WOF/GGS rule), as if the game ended here.
    #[inline(always)]
    pub fn final_score(&self) -> i32 {
        let p = self.player_count() as i32;
        let o = self.opponent_count() as i32;
        let e = 64 - p - o;
        match p.cmp(&o) {
            std::cmp::Ordering::Greater => p - o + e,
            std::cmp::Ordering::Less => p - o - e,
            std::cmp::Ordering::Equal => 0,
        }
    }

    /// A well-mixed 64-bit hash of the position (every output bit depends on every input bit,
    /// as [`crate::rng::mix64`]'s); the search's tables index by the cheaper [`Board::table_hash`].
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        hash::hash(self.player, self.opponent)
    }

    /// A cheap hash for table indices: take its high bits.
    #[inline(always)]
    pub fn table_hash(&self) -> u64 {
        hash::table_hash(self.player, self.opponent)
    }

    /// The image of the position under a symmetry.
    #[inline]
    pub fn transform(&self, s: Symmetry) -> Board {
        Board {
            player: s.apply(self.player),
            opponent: s.apply(self.opponent),
        }
    }

    /// The minimal `(player, opponent)` image over the 8 symmetries, and the symmetry that maps
    /// this board onto it (first such in [`Symmetry::ALL`] order, so ties are deterministic).
    pub fn canonical(&self) -> (Board, Symmetry) {
        let mut best = (*self, Symmetry::IDENTITY);
        for s in &Symmetry::ALL[1..] {
            let b = self.transform(*s);
            if b < best.0 {
                best = (b, *s);
            }
        }
        best
    }

    /// True when the discs do not overlap (every `Board` we build keeps this).
    pub fn is_valid(&self) -> bool {
        self.player & self.opponent == 0
    }

    /// Prints the board as 8 lines of 8 characters, `X` for the side to move, `O` for the
    /// opponent, `-` for empty (diagnostics and test failures).
    pub fn diagram(&self) -> String {
        let mut s = String::with_capacity(72);
        for sq in Square::all() {
            s.push(if self.player & sq.bit() != 0 {
                'X'
            } else if self.opponent & sq.bit() != 0 {
                'O'
            } else {
                '-'
            });
            if sq.col() == 7 {
                s.push('\n');
            }
        }
        s
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::START
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagram())
    }
}

#[cfg(test)]
pub(crate) mod tests;
