//! Criterion benches for the board core: move generation, flips and the canonical key.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use wedge_core::board::{flip, movegen, Board, Square, Squares};
use wedge_core::rng::Rng;

/// A fixed sample of reachable midgame positions (random games from the start).
fn sample_positions(n: usize) -> Vec<Board> {
    let mut rng = Rng::new(42);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut b = Board::START;
        for _ in 0..(10 + rng.below(40)) {
            let m = b.legal_moves();
            if m == 0 {
                break;
            }
            let sq = Square::from_index(rng.pick_bit(m).trailing_zeros());
            b = b.play(sq).unwrap();
        }
        out.push(b);
    }
    out
}

fn bench_board(c: &mut Criterion) {
    let positions = sample_positions(1024);
    let moves: Vec<(Board, Square)> = positions
        .iter()
        .flat_map(|b| Squares(b.legal_moves()).map(move |s| (*b, s)))
        .collect();

    let mut g = c.benchmark_group("movegen");
    g.bench_function("selected", |bch| {
        bch.iter(|| {
            positions.iter().fold(0u64, |acc, b| {
                acc ^ movegen::legal_moves(black_box(b.player), b.opponent)
            })
        })
    });
    g.bench_function("portable", |bch| {
        bch.iter(|| {
            positions.iter().fold(0u64, |acc, b| {
                acc ^ movegen::legal_moves_portable(black_box(b.player), b.opponent)
            })
        })
    });
    g.finish();

    let mut g = c.benchmark_group("flips");
    g.bench_function("selected", |bch| {
        bch.iter(|| {
            moves.iter().fold(0u64, |acc, (b, s)| {
                acc ^ flip::flips(s.index(), black_box(b.player), b.opponent)
            })
        })
    });
    g.bench_function("portable", |bch| {
        bch.iter(|| {
            moves.iter().fold(0u64, |acc, (b, s)| {
                acc ^ flip::flips_portable(s.index(), black_box(b.player), b.opponent)
            })
        })
    });
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    g.bench_function("bmi2", |bch| {
        bch.iter(|| {
            moves.iter().fold(0u64, |acc, (b, s)| {
                acc ^ flip::flips_bmi2(s.index(), black_box(b.player), b.opponent)
            })
        })
    });
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    g.bench_function("avx2", |bch| {
        bch.iter(|| {
            moves.iter().fold(0u64, |acc, (b, s)| {
                acc ^ flip::flips_avx2(s.index(), black_box(b.player), b.opponent)
            })
        })
    });
    g.finish();

    c.bench_function("canonical", |bch| {
        bch.iter(|| {
            positions
                .iter()
                .fold(0u64, |acc, b| acc ^ black_box(b).canonical().0.player)
        })
    });
}

criterion_group!(benches, bench_board);
criterion_main!(benches);
