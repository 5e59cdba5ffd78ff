//! A deliberately naive implementation (square-by-square ray walking) used only as an oracle
//! for the fast kernels in tests. Never used by the engine itself.

const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

fn at(bits: u64, c: i32, r: i32) -> bool {
    bits >> (r * 8 + c) & 1 != 0
}

/// Discs flipped by `player` playing on `sq`; 0 if `sq` is occupied or the move flips nothing.
pub fn flips(sq: usize, player: u64, opponent: u64) -> u64 {
    if (player | opponent) >> sq & 1 != 0 {
        return 0;
    }
    let (c0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut all = 0;
    for (dc, dr) in DIRECTIONS {
        let (mut c, mut r) = (c0 + dc, r0 + dr);
        let mut run = 0u64;
        while (0..8).contains(&c) && (0..8).contains(&r) && at(opponent, c, r) {
            run |= 1 << (r * 8 + c);
            c += dc;
            r += dr;
        }
        if (0..8).contains(&c) && (0..8).contains(&r) && at(player, c, r) {
            all |= run;
        }
    }
    all
}

/// Legal squares for `player`.
pub fn legal_moves(player: u64, opponent: u64) -> u64 {
    (0..64)
        .filter(|&sq| flips(sq, player, opponent) != 0)
        .fold(0, |m, sq| m | 1 << sq)
}
