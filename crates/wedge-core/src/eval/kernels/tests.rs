//! Every kernel this build compiles against the portable one.

use super::window::LANES_USED;
use super::*;
use crate::board::tests::random_positions;
use crate::board::Squares;
use crate::eval::patterns::{INDEX_LANES, RAW_INSTANCE_OFFSETS, SQUARE_POWERS};
use crate::eval::Features;
use crate::rng::Rng;

/// Every kernel this build compiles gives the portable kernels' results: the updates for
/// every legal move of the positions of random games, and the sums of their indices over
/// random tables (extreme entries included) at the real instance offsets and at random
/// ones, whatever the unused lanes hold.
#[test]
fn kernels_match_portable_on_random_games() {
    let mut rng = Rng::new(67);
    let mut window: Box<Window> = vec![0i16; WINDOW_ENTRIES]
        .into_boxed_slice()
        .try_into()
        .expect("a window's entries");
    for (k, w) in window.iter_mut().enumerate() {
        *w = match k % 97 {
            0 => i16::MIN,
            1 => i16::MAX,
            _ => rng.next_u64() as i16,
        };
    }
    let (mut positions, mut moves) = (0, 0);
    random_positions(67, 400, |b| {
        positions += 1;
        let f = Features::new(b);
        let mut offsets = RAW_INSTANCE_OFFSETS;
        if positions % 2 == 0 {
            offsets.iter_mut().for_each(|o| *o = rng.next_u64() as u32);
        }
        let mut indices = f.stm;
        indices[LANES_USED..].fill(rng.next_u64() as u16);
        let sum = pattern_sum_portable(&window, &offsets, &indices);
        assert_eq!(pattern_sum(&window, &offsets, &indices), sum);
        each_compiled_sum(&window, &offsets, &indices, sum);
        for sq in Squares(b.legal_moves()) {
            moves += 1;
            let (i, flips) = (sq.index(), b.flips(sq));
            let expected = played_portable(&SQUARE_POWERS, &f.stm, &f.opp, i, flips);
            assert_eq!(played(&SQUARE_POWERS, &f.stm, &f.opp, i, flips), expected);
            each_compiled_update(&f, i, flips, expected);
        }
    });
    assert!(moves > 100_000, "{positions} positions, {moves} moves");
}

/// Every SIMD sum kernel this build compiles (not only the selected one) gives `expected`.
fn each_compiled_sum(w: &Window, offsets: &[u32; INDEX_LANES], idx: &Lanes, expected: i32) {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    assert_eq!(pattern_sum_avx2(w, offsets, idx), expected, "avx2");
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx512f",
        target_feature = "avx512bw"
    ))]
    assert_eq!(pattern_sum_avx512(w, offsets, idx), expected, "avx512");
    let _ = (w, offsets, idx, expected);
}

/// Every SIMD update kernel this build compiles gives `expected`.
fn each_compiled_update(f: &Features, sq: usize, flips: u64, expected: (Lanes, Lanes)) {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    assert_eq!(
        played_avx2(&SQUARE_POWERS, &f.stm, &f.opp, sq, flips),
        expected,
        "avx2"
    );
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx512f",
        target_feature = "avx512bw"
    ))]
    assert_eq!(
        played_avx512(&SQUARE_POWERS, &f.stm, &f.opp, sq, flips),
        expected,
        "avx512"
    );
    let _ = (f, sq, flips, expected);
}
