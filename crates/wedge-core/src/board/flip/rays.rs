//! The eight rays from each square, four to a vector-aligned row, for the vector flip kernels.

/// Four values, aligned for a 256-bit vector load.
#[repr(C, align(32))]
pub(super) struct Lanes(pub [u64; 4]);

/// Per square: the rays towards higher squares (east, north-west, north, north-east in index
/// steps +1, +7, +8, +9), the square itself excluded.
pub(super) static RAYS_UP: [Lanes; 64] = build_rays([(1, 0), (-1, 1), (0, 1), (1, 1)]);
/// Per square: the rays towards lower squares (steps -1, -7, -8, -9).
pub(super) static RAYS_DOWN: [Lanes; 64] = build_rays([(-1, 0), (1, -1), (0, -1), (-1, -1)]);

const fn build_rays(dirs: [(i32, i32); 4]) -> [Lanes; 64] {
    let mut t = [const { Lanes([0; 4]) }; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut k = 0;
        while k < 4 {
            let (dc, dr) = dirs[k];
            let (mut c, mut r) = ((sq % 8) as i32 + dc, (sq / 8) as i32 + dr);
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                t[sq].0[k] |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            k += 1;
        }
        sq += 1;
    }
    t
}
