//! Portable flip kernel: for each of the 8 rays from the move square, find the first square that
//! is not an opponent disc (lowest set bit for rays toward higher indices, highest set bit for the
//! others); if it holds a player disc, the ray squares before it flip.

/// `RAYS[sq]`: the four rays toward higher indices (E, SW, S, SE) then the four toward lower
/// indices (W, NE, N, NW), each without `sq` itself.
static RAYS: [[u64; 8]; 64] = build_rays();

const DIRECTIONS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = DIRECTIONS[d];
            let mut c = (sq % 8) as i8 + dc;
            let mut r = (sq / 8) as i8 + dr;
            let mut ray = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                ray |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            rays[sq][d] = ray;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// Flips along a ray that runs toward higher bit indices.
#[inline(always)]
fn flips_up(player: u64, opponent: u64, ray: u64) -> u64 {
    let stops = ray & !opponent;
    let first = stops & stops.wrapping_neg();
    let outflanked = 0u64.wrapping_sub(((first & player) != 0) as u64);
    first.wrapping_sub(1) & ray & outflanked
}

/// Flips along a ray that runs toward lower bit indices.
#[inline(always)]
fn flips_down(player: u64, opponent: u64, ray: u64) -> u64 {
    let stops = ray & !opponent;
    // With no stop, `first` becomes bit 63, which is never on a downward ray.
    let first = (1u64 << 63) >> (stops.leading_zeros() & 63);
    let outflanked = 0u64.wrapping_sub(((first & player & ray) != 0) as u64);
    (first.wrapping_neg() << 1) & ray & outflanked
}

/// Discs flipped when `player` plays on the empty square `sq`.
#[inline]
pub fn flips(sq: usize, player: u64, opponent: u64) -> u64 {
    let r = &RAYS[sq];
    flips_up(player, opponent, r[0])
        | flips_up(player, opponent, r[1])
        | flips_up(player, opponent, r[2])
        | flips_up(player, opponent, r[3])
        | flips_down(player, opponent, r[4])
        | flips_down(player, opponent, r[5])
        | flips_down(player, opponent, r[6])
        | flips_down(player, opponent, r[7])
}

/// Number of discs `player` flips by playing `sq` when `sq` is the only empty square.
#[inline]
pub fn last_flip_count(sq: usize, player: u64) -> u32 {
    flips(sq, player, !player & !(1u64 << sq)).count_ones()
}
