//! BMI2 flip kernel: each of the four lines through the move square is gathered into a byte
//! with PEXT (the row with a shift), two small tables give the outflanking discs and the flipped
//! run on that byte, and PDEP scatters the run back onto the board.

use std::arch::x86_64::{_pdep_u64, _pext_u64};

/// Per square: the column, the diagonal (a1-h8 direction) and the anti-diagonal through it.
static LINES: [[u64; 3]; 64] = build_lines();

/// Per square: its position inside each of those three lines (the row position is the column).
static POSITIONS: [[u8; 3]; 64] = build_positions();

/// `OUTFLANK[pos][inner]`: for a line byte whose opponent discs on bits 1..6 are `inner << 1`,
/// the first square past each contiguous opponent run touching `pos` (at most one per side);
/// the run is outflanked when that square holds a player disc.
static OUTFLANK: [[u8; 64]; 8] = build_outflank();

/// `FLIPPED[pos][outflank]`: the squares strictly between `pos` and each outflanking bit.
static FLIPPED: [[u8; 256]; 8] = build_flipped();

const fn line_through(sq: usize, dc: i32, dr: i32) -> u64 {
    let mut line = 1u64 << sq;
    let mut sign = -1;
    while sign <= 1 {
        let mut c = (sq % 8) as i32 + sign * dc;
        let mut r = (sq / 8) as i32 + sign * dr;
        while c >= 0 && c < 8 && r >= 0 && r < 8 {
            line |= 1u64 << (r * 8 + c);
            c += sign * dc;
            r += sign * dr;
        }
        sign += 2;
    }
    line
}

const fn build_lines() -> [[u64; 3]; 64] {
    let mut lines = [[0u64; 3]; 64];
    let mut sq = 0;
    while sq < 64 {
        lines[sq] = [
            line_through(sq, 0, 1),
            line_through(sq, 1, 1),
            line_through(sq, -1, 1),
        ];
        sq += 1;
    }
    lines
}

const fn build_positions() -> [[u8; 3]; 64] {
    let lines = build_lines();
    let mut pos = [[0u8; 3]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut k = 0;
        while k < 3 {
            let below = lines[sq][k] & ((1u64 << sq) - 1);
            pos[sq][k] = below.count_ones() as u8;
            k += 1;
        }
        sq += 1;
    }
    pos
}

const fn build_outflank() -> [[u8; 64]; 8] {
    let mut table = [[0u8; 64]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut inner = 0;
        while inner < 64 {
            let opp = (inner << 1) as u32;
            let mut out = 0u32;
            let mut j = pos + 1;
            while j < 8 && opp & (1 << j) != 0 {
                j += 1;
            }
            if j > pos + 1 && j < 8 {
                out |= 1 << j;
            }
            let mut j = pos as i32 - 1;
            while j >= 0 && opp & (1 << j) != 0 {
                j -= 1;
            }
            if j < pos as i32 - 1 && j >= 0 {
                out |= 1 << j;
            }
            table[pos][inner] = out as u8;
            inner += 1;
        }
        pos += 1;
    }
    table
}

const fn build_flipped() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut out = 0;
        while out < 256 {
            let mut flipped = 0u32;
            let mut j = 0;
            while j < 8 {
                if out & (1 << j) != 0 {
                    let (lo, hi) = if j < pos { (j, pos) } else { (pos, j) };
                    let mut k = lo + 1;
                    while k < hi {
                        flipped |= 1 << k;
                        k += 1;
                    }
                }
                j += 1;
            }
            table[pos][out] = flipped as u8;
            out += 1;
        }
        pos += 1;
    }
    table
}

/// `LAST_FLIPS[pos][player]`: how many discs `player` flips on a full line byte (every square but
/// `pos` occupied, the others the opponent's) by playing at `pos`. Bits past the end of a short
/// line read as opponent discs, which never outflank, so short lines need no table of their own.
static LAST_FLIPS: [[u8; 256]; 8] = build_last_flips();

const fn build_last_flips() -> [[u8; 256]; 8] {
    let outflank = build_outflank();
    let flipped = build_flipped();
    let mut table = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut player = 0;
        while player < 256 {
            if player & (1 << pos) == 0 {
                let opponent = !player & !(1 << pos) & 0xFF;
                let out = outflank[pos][(opponent >> 1) & 63] as usize & player;
                table[pos][player] = flipped[pos][out].count_ones() as u8;
            }
            player += 1;
        }
        pos += 1;
    }
    table
}

/// Number of discs `player` flips by playing `sq` when `sq` is the only empty square.
#[inline]
pub fn last_flip_count(sq: usize, player: u64) -> u32 {
    let row = LAST_FLIPS[sq & 7][((player >> (sq & 56)) & 0xFF) as usize] as u32;
    let lines = &LINES[sq];
    let pos = &POSITIONS[sq];
    // SAFETY: this module is compiled only when the build enables BMI2, so PEXT exists on the
    // target CPU; it is a pure register operation.
    let (c, d, a) = unsafe {
        (
            _pext_u64(player, lines[0]) as usize,
            _pext_u64(player, lines[1]) as usize,
            _pext_u64(player, lines[2]) as usize,
        )
    };
    row + LAST_FLIPS[pos[0] as usize][c] as u32
        + LAST_FLIPS[pos[1] as usize][d] as u32
        + LAST_FLIPS[pos[2] as usize][a] as u32
}

/// Flips of one line byte (`player` and `opponent` gathered onto bits 0..8, the move at `pos`).
#[inline(always)]
fn line_flips(pos: usize, player: u64, opponent: u64) -> u64 {
    let outflank = OUTFLANK[pos][((opponent >> 1) & 63) as usize] & player as u8;
    FLIPPED[pos][outflank as usize] as u64
}

/// Discs flipped when `player` plays on the empty square `sq`.
#[inline]
pub fn flips(sq: usize, player: u64, opponent: u64) -> u64 {
    let row_shift = sq & 56;
    let col = sq & 7;
    let mut flipped = line_flips(col, player >> row_shift, opponent >> row_shift) << row_shift;
    let lines = &LINES[sq];
    let pos = &POSITIONS[sq];
    let mut k = 0;
    while k < 3 {
        let mask = lines[k];
        // SAFETY: this module is compiled only when the build enables BMI2, so PEXT and PDEP
        // exist on the target CPU; they are pure register operations.
        flipped |= unsafe {
            let run = line_flips(
                pos[k] as usize,
                _pext_u64(player, mask),
                _pext_u64(opponent, mask),
            );
            _pdep_u64(run, mask)
        };
        k += 1;
    }
    flipped
}
