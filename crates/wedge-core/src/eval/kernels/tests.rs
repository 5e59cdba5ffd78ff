//! Every kernel this build compiles against the portable one.

use super::window::LANES_USED;
use super::*;
use crate::board::tests::random_positions;
use crate::board::Squares;
use crate::eval::patterns::SQUARE_POWERS;
use crate::eval::Features;
use crate::rng::Rng;

/// Every kernel this build compiles gives the portable kernels' results: the updates for
/// every legal move of the positions of random games, and the sums of their indices and of
/// random indices (any `u16`) over random tables of both entry types (extreme entries
/// included), whatever the unused lanes hold.
#[test]
fn kernels_match_portable_on_random_games() {
    let mut rng = Rng::new(67);
    let window = random_window(&mut rng, 97, [i16::MIN, i16::MAX], |x| x as i16);
    let bytes = random_window(&mut rng, 89, [i8::MIN, i8::MAX], |x| x as i8);
    let (mut positions, mut moves) = (0, 0);
    random_positions(67, 400, |b| {
        positions += 1;
        let f = Features::new(b);
        let mut indices = f.stm;
        if positions % 2 == 0 {
            indices.iter_mut().for_each(|i| *i = rng.next_u64() as u16);
        }
        indices[LANES_USED..].fill(rng.next_u64() as u16);
        let sum = pattern_sum_portable(&window, &indices);
        assert_eq!(pattern_sum(&window, &indices), sum);
        let sum_bytes = pattern_sum_portable(&bytes, &indices);
        assert_eq!(pattern_sum(&bytes, &indices), sum_bytes);
        each_compiled_sum(&window, &bytes, &indices, [sum, sum_bytes]);
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

/// Every sum kernel this build compiles (not only the selected one) gives `expected`, for
/// both entry types.
fn each_compiled_sum(w: &Window, bytes: &Window<i8>, idx: &Lanes, expected: [i32; 2]) {
    #[cfg(target_arch = "x86_64")]
    {
        assert_eq!(pattern_sum_registers(w, idx), expected[0], "registers");
        assert_eq!(
            pattern_sum_registers(bytes, idx),
            expected[1],
            "registers, bytes"
        );
    }
    let _ = (w, bytes, idx, expected);
}

/// A window of random entries, with every `period`-th pair of entries the `extremes`.
fn random_window<T: Copy>(
    rng: &mut Rng,
    period: usize,
    extremes: [T; 2],
    entry: impl Fn(u64) -> T,
) -> Box<Window<T>> {
    let entries: Vec<T> = (0..WINDOW_ENTRIES)
        .map(|k| match k % period {
            0 => extremes[0],
            1 => extremes[1],
            _ => entry(rng.next_u64()),
        })
        .collect();
    entries
        .into_boxed_slice()
        .try_into()
        .ok()
        .expect("a window's entries")
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
