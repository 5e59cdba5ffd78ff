//! Stable discs (discs that can never be flipped again): exact edge stability from a table
//! over all 3^8 edge states, discs on filled lines, then propagation from stable neighbours.
//! The count bounds the final score, which lets the endgame cut hopeless branches; a cheaper
//! subset (corners and the C-squares beside them) helps order the endgame moves.

use crate::board::CORNERS;

/// `EDGE[p * 256 + o]`: the stable discs of `p` on one edge line (bits 0..8) for that state.
static EDGE: [u8; 65536] = build_edge_table();

/// Flips on one 8-square line when `p` plays at `x`.
const fn line_flips(p: u8, o: u8, x: u32) -> u8 {
    let mut f = 0u8;
    let mut dir = -1i32;
    while dir <= 1 {
        let mut run = 0u8;
        let mut i = x as i32 + dir;
        while i >= 0 && i < 8 && o & (1 << i) != 0 {
            run |= 1 << i;
            i += dir;
        }
        if i >= 0 && i < 8 && p & (1 << i) != 0 {
            f |= run;
        }
        dir += 2;
    }
    f
}

const fn build_edge_table() -> [u8; 65536] {
    let mut table = [0u8; 65536];
    // States in order of fewer empties first, so every child is known before its parent; a
    // state is a base-3 number (0 empty, 1 `p`, 2 `o` per square).
    let mut empties = 0;
    while empties <= 8 {
        let mut code = 0;
        while code < 6561 {
            let (mut p, mut o, mut c, mut x) = (0u8, 0u8, code, 0);
            while x < 8 {
                match c % 3 {
                    1 => p |= 1 << x,
                    2 => o |= 1 << x,
                    _ => {}
                }
                c /= 3;
                x += 1;
            }
            let empty = !(p | o);
            if empty.count_ones() == empties {
                let mut stable = p;
                let mut x = 0;
                while x < 8 {
                    if empty & (1 << x) != 0 {
                        let bit = 1u8 << x;
                        let f = line_flips(p, o, x);
                        stable &= table[((p | bit | f) as usize) << 8 | (o & !f) as usize];
                        let g = line_flips(o, p, x);
                        stable &= table[((p & !g) as usize) << 8 | (o | bit | g) as usize];
                    }
                    x += 1;
                }
                table[(p as usize) << 8 | o as usize] = stable;
            }
            code += 1;
        }
        empties += 1;
    }
    table
}

const ROW_1: u64 = 0xFF;
const COL_A: u64 = 0x0101_0101_0101_0101;
const COL_H: u64 = 0x8080_8080_8080_8080;

/// Column a gathered into a byte (a1 = bit 0 … a8 = bit 7); `shift` 7 gives column h.
#[inline(always)]
fn column_to_byte(x: u64, shift: u32) -> u8 {
    (((x >> shift) & COL_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// Bit i of a byte placed on square (column 0, row i), for each byte value.
static BYTE_TO_COLUMN: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            if b & (1 << i) != 0 {
                t[b] |= 1u64 << (i * 8);
            }
            i += 1;
        }
        b += 1;
    }
    t
};

#[inline(always)]
fn byte_to_column(b: u8, shift: u32) -> u64 {
    BYTE_TO_COLUMN[b as usize] << shift
}

/// Stable discs of `p` on the four edges.
#[inline]
fn edge_stable(p: u64, o: u64) -> u64 {
    let t = &EDGE;
    let top = t[((p & ROW_1) as usize) << 8 | (o & ROW_1) as usize] as u64;
    let bottom = (t[((p >> 56) as usize) << 8 | (o >> 56) as usize] as u64) << 56;
    let left = t[(column_to_byte(p, 0) as usize) << 8 | column_to_byte(o, 0) as usize];
    let right = t[(column_to_byte(p, 7) as usize) << 8 | column_to_byte(o, 7) as usize];
    top | bottom | byte_to_column(left, 0) | byte_to_column(right, 7)
}

/// Squares whose line in each of the four orientations is completely filled.
#[inline]
fn full_lines(occupied: u64) -> [u64; 4] {
    // Horizontal: a row is full when all 8 bits are set.
    let mut h = occupied & (occupied >> 1) & 0x7F7F_7F7F_7F7F_7F7F;
    h &= h >> 2;
    h &= h >> 4;
    let h = (h & COL_A).wrapping_mul(0xFF);
    // Vertical.
    let mut v = occupied & (occupied >> 8);
    v &= v >> 16;
    v &= v >> 32;
    let v = (v & ROW_1).wrapping_mul(0x0101_0101_0101_0101);
    [h, v, diagonal_full(occupied, 9), diagonal_full(occupied, 7)]
}

/// Full diagonals along shift 9 (a1-h8 direction) or 7 (h1-a8 direction): a square is on a
/// full diagonal when its ray toward each end is occupied, found by doubling (each step
/// looks twice as far; squares whose step would leave the board are done).
#[inline]
fn diagonal_full(occupied: u64, shift: u32) -> u64 {
    let (up, down) = if shift == 9 {
        (&DIAG9_UP_DONE, &DIAG9_DOWN_DONE)
    } else {
        (&DIAG7_UP_DONE, &DIAG7_DOWN_DONE)
    };
    let mut hi = occupied;
    let mut lo = occupied;
    for (k, s) in [shift, 2 * shift, 4 * shift].into_iter().enumerate() {
        hi &= (hi >> s) | up[k];
        lo &= (lo << s) | down[k];
    }
    hi & lo
}

/// `*_UP_DONE[k]`: squares whose diagonal neighbour 2^k steps up (toward row 8) is off the
/// board; `*_DOWN_DONE[k]` the same toward row 1.
static DIAG9_UP_DONE: [u64; 3] = diagonal_done(1, 1);
static DIAG9_DOWN_DONE: [u64; 3] = diagonal_done(-1, -1);
static DIAG7_UP_DONE: [u64; 3] = diagonal_done(-1, 1);
static DIAG7_DOWN_DONE: [u64; 3] = diagonal_done(1, -1);

const fn diagonal_done(dc: i32, dr: i32) -> [u64; 3] {
    let mut out = [0u64; 3];
    let mut k = 0;
    while k < 3 {
        let steps = 1 << k;
        let mut sq = 0;
        while sq < 64 {
            let c = sq % 8 + dc * steps;
            let r = sq / 8 + dr * steps;
            if c < 0 || c > 7 || r < 0 || r > 7 {
                out[k] |= 1u64 << sq;
            }
            sq += 1;
        }
        k += 1;
    }
    out
}

/// Stable discs of `p` (a subset: every disc returned can never flip); the search for more
/// stops once at least `enough` are found (`u32::MAX`: every one this method finds).
#[inline(always)]
pub fn stable_discs(p: u64, o: u64, enough: u32) -> u64 {
    let occupied = p | o;
    let [h, v, d9, d7] = full_lines(occupied);
    let mut stable = edge_stable(p, o) | (p & h & v & d9 & d7);
    if stable == 0 || stable.count_ones() >= enough {
        return stable;
    }
    // Propagate: a disc is stable when, in each orientation, its line is full or a
    // neighbour along it is a stable disc of the same colour.
    // (Written as two halves with an exit between them: the first half alone often shows
    // that nothing new can be stable, and the compiler keeps the loop in scalar registers.)
    loop {
        let horiz = h | ((stable >> 1) & !COL_H) | ((stable << 1) & !COL_A);
        let vert = v | (stable >> 8) | (stable << 8);
        let candidates = p & !stable & horiz & vert;
        if candidates == 0 {
            return stable;
        }
        let diag9 = d9 | ((stable >> 9) & !COL_H) | ((stable << 9) & !COL_A);
        let diag7 = d7 | ((stable >> 7) & !COL_A) | ((stable << 7) & !COL_H);
        let new = candidates & diag9 & diag7;
        if new == 0 {
            return stable;
        }
        stable |= new;
        if stable.count_ones() >= enough {
            return stable;
        }
    }
}

/// Discs of `player` that are stable for a simple reason: each corner it holds, and its discs
/// on the two edge squares beside such a corner (C-squares). A disc on an edge can be flipped
/// only along that edge, and the run would have to end beyond our own corner.
#[inline(always)]
pub fn corner_stable(player: u64) -> u64 {
    let corners = player & CORNERS;
    let beside = ((corners & 0x0100_0000_0000_0001) << 1)
        | ((corners & 0x8000_0000_0000_0080) >> 1)
        | ((corners & 0x0000_0000_0000_0081) << 8)
        | ((corners & 0x8100_0000_0000_0000) >> 8);
    (corners | beside) & player
}

/// Stability cut-off: the opponent's stable discs cap our score at `64 - 2 * stable`. Only
/// tried when `alpha` is high enough for the cap to matter often (2n - 2 with n empties),
/// from 3 empties up; the count stops once the cap reaches alpha.
#[inline(always)]
pub fn stability_cut(player: u64, opponent: u64, alpha: i32, n: u32) -> Option<i32> {
    // The least stable count whose cap reaches alpha: the opponent needs that many discs.
    let enough = (65 - alpha) / 2;
    if alpha >= 2 * n as i32 - 2 && opponent.count_ones() as i32 >= enough {
        let cap = 64 - 2 * stable_discs(opponent, player, enough as u32).count_ones() as i32;
        if cap <= alpha {
            return Some(cap);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::tests::random_positions;
    use crate::board::{Board, Squares};
    use crate::rng::Rng;

    /// Every disc reported stable must survive every continuation: check along random games.
    #[test]
    fn stable_discs_never_flip() {
        let mut rng = Rng::new(11);
        for _ in 0..3000 {
            let mut b = Board::START;
            let mut history: Vec<(Board, bool)> = Vec::new();
            let mut black = true;
            history.push((b, black));
            while let Some(mv) = b.random_move(&mut rng) {
                b = b.apply(mv).unwrap();
                black = !black;
                history.push((b, black));
            }
            let (final_b, final_black) = (b, black);
            let final_black_discs = if final_black {
                final_b.player
            } else {
                final_b.opponent
            };
            for (pos, is_black) in history {
                let s = stable_discs(pos.player, pos.opponent, u32::MAX);
                assert_eq!(s & !pos.player, 0);
                let mine_at_end = if is_black {
                    final_black_discs
                } else {
                    (final_b.player | final_b.opponent) & !final_black_discs
                };
                assert_eq!(s & !mine_at_end, 0, "a stable disc flipped\n{pos}");
                let so = stable_discs(pos.opponent, pos.player, u32::MAX);
                let theirs_at_end = (final_b.player | final_b.opponent) & !mine_at_end;
                assert_eq!(so & !theirs_at_end, 0);
            }
        }
    }

    /// Along random games, the discs `corner_stable` names are among those `stable_discs`
    /// finds (which finds every stable edge disc exactly).
    #[test]
    fn corner_stable_discs_are_stable() {
        let mut named = 0;
        random_positions(11, 2000, |b| {
            for (p, o) in [(b.player, b.opponent), (b.opponent, b.player)] {
                let simple = corner_stable(p);
                assert_eq!(simple & !stable_discs(p, o, u32::MAX), 0, "{p:#x} {o:#x}");
                named += simple.count_ones();
            }
        });
        assert!(named > 100_000, "{named}");
    }

    /// The doubling diagonal test against walking each diagonal square by square.
    #[test]
    fn full_diagonals_match_a_walk() {
        let walk = |occ: u64, dc: i32| -> u64 {
            let mut out = 0;
            for sq in 0..64i32 {
                let full = [1, -1].iter().all(|&dir| {
                    let (mut c, mut r) = (sq % 8, sq / 8);
                    loop {
                        if occ & (1u64 << (r * 8 + c)) == 0 {
                            return false;
                        }
                        c += dc * dir;
                        r += dir;
                        if !(0..8).contains(&c) || !(0..8).contains(&r) {
                            return true;
                        }
                    }
                });
                if full {
                    out |= 1u64 << sq;
                }
            }
            out
        };
        let mut rng = Rng::new(12);
        for i in 0..20_000 {
            let (x, y) = (rng.next_u64(), rng.next_u64());
            let occ = [x | y, x | y | rng.next_u64(), !(x & y & rng.next_u64()), x][i % 4];
            assert_eq!(diagonal_full(occ, 9), walk(occ, 1), "{occ:#x}");
            assert_eq!(diagonal_full(occ, 7), walk(occ, -1), "{occ:#x}");
        }
    }

    /// Stopped at `enough`, the search returns part of the whole set, at least `enough` discs
    /// of it or all of it.
    #[test]
    fn enough_stable_discs_are_part_of_all() {
        let mut stopped = 0;
        random_positions(13, 2000, |b| {
            for (p, o) in [(b.player, b.opponent), (b.opponent, b.player)] {
                let all = stable_discs(p, o, u32::MAX);
                for enough in [1, 2, 4, 8, 12, 20] {
                    let some = stable_discs(p, o, enough);
                    assert_eq!(some & !all, 0, "{p:#x} {o:#x} {enough}");
                    assert!(some == all || some.count_ones() >= enough, "{p:#x} {o:#x}");
                    stopped += usize::from(some != all);
                }
            }
        });
        assert!(stopped > 1000, "{stopped}");
    }

    #[test]
    fn corners_and_full_board() {
        assert_eq!(stable_discs(1, 0, u32::MAX), 1);
        assert_eq!(stable_discs(!0, 0, u32::MAX), !0);
        let b = Board::START;
        assert_eq!(stable_discs(b.player, b.opponent, u32::MAX), 0);
        // A full first row of the mover is stable.
        assert_eq!(stable_discs(0xFF, 0x100, u32::MAX) & 0xFF, 0xFF);
        for sq in Squares(0x81) {
            assert_ne!(stable_discs(sq.bit(), 0, u32::MAX), 0);
        }
    }
}
