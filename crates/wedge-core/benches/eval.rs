//! Criterion benches for the evaluation's kernels: the pattern sum (62 table reads from one
//! phase's window) and the incremental update after a move, each kernel the build compiles.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use wedge_core::board::{Board, Square, Squares};
use wedge_core::eval::kernels::{self, Window, WINDOW_ENTRIES};
use wedge_core::eval::patterns::SQUARE_POWERS;
use wedge_core::eval::Features;
use wedge_core::rng::Rng;

/// Reachable midgame positions (random games from the start, 20-50 empties) with their
/// pattern state.
fn sample(n: usize) -> Vec<(Board, Features)> {
    let mut rng = Rng::new(42);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut b = Board::START;
        for _ in 0..(10 + rng.below(31)) {
            let m = b.legal_moves();
            if m == 0 {
                break;
            }
            let sq = Square::from_index(rng.pick_bit(m).trailing_zeros());
            b = b.play(sq).unwrap();
        }
        out.push((b, Features::new(&b)));
    }
    out
}

fn bench_eval(c: &mut Criterion) {
    let positions = sample(4096);
    let mut rng = Rng::new(7);
    let window: Box<Window> = (0..WINDOW_ENTRIES)
        .map(|_| rng.next_u64() as i16 >> 6)
        .collect::<Vec<i16>>()
        .into_boxed_slice()
        .try_into()
        .unwrap();
    let sum = |f: fn(&Window, &[u16; 64]) -> i32| {
        let (w, pos) = (&window, &positions);
        move || {
            pos.iter().fold(0i32, |acc, (_, feat)| {
                acc.wrapping_add(f(w, black_box(&feat.stm)))
            })
        }
    };
    let mut g = c.benchmark_group("pattern_sum");
    g.bench_function("selected", |bch| bch.iter(sum(kernels::pattern_sum::<i16>)));
    g.bench_function("portable", |bch| {
        bch.iter(sum(kernels::pattern_sum_portable::<i16>))
    });
    #[cfg(target_arch = "x86_64")]
    g.bench_function("registers", |bch| {
        bch.iter(sum(kernels::pattern_sum_registers::<i16>))
    });
    g.finish();

    let moves: Vec<(Features, usize, u64)> = positions
        .iter()
        .flat_map(|(b, f)| Squares(b.legal_moves()).map(move |s| (*f, s.index(), b.flips(s))))
        .collect();
    type Update =
        fn(&[[u16; 64]; 65], &[u16; 64], &[u16; 64], usize, u64) -> ([u16; 64], [u16; 64]);
    let update = |f: Update| {
        let m = &moves;
        move || {
            m.iter().fold(0u16, |acc, (feat, sq, flips)| {
                let (s, o) = f(&SQUARE_POWERS, black_box(&feat.stm), &feat.opp, *sq, *flips);
                acc ^ s[0] ^ o[61]
            })
        }
    };
    let mut g = c.benchmark_group("played");
    g.bench_function("selected", |bch| bch.iter(update(kernels::played)));
    g.bench_function("portable", |bch| bch.iter(update(kernels::played_portable)));
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    g.bench_function("avx2", |bch| bch.iter(update(kernels::played_avx2)));
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx512f",
        target_feature = "avx512bw"
    ))]
    g.bench_function("avx512", |bch| bch.iter(update(kernels::played_avx512)));
    g.finish();
}

criterion_group!(benches, bench_eval);
criterion_main!(benches);
