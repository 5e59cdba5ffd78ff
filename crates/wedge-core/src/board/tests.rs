//! Board core tests: the fast kernels against the portable ones and the naive reference on
//! random reachable positions, plus rules (passes, game end, scores) and the canonical key.

use super::*;
use crate::rng::Rng;

/// Calls `f` on every position of `games` random games from the start (passes included).
pub(crate) fn random_positions(seed: u64, games: usize, mut f: impl FnMut(&Board)) {
    let mut rng = Rng::new(seed);
    for _ in 0..games {
        let mut b = Board::START;
        f(&b);
        while let Some(mv) = b.random_move(&mut rng) {
            b = b.apply(mv).expect("legal");
            f(&b);
        }
    }
}

#[test]
fn fast_kernels_match_portable_on_a_million_positions() {
    let mut positions = 0;
    random_positions(1, 17_500, |b| {
        positions += 1;
        let fast = b.legal_moves();
        assert_eq!(fast, movegen::legal_moves_portable(b.player, b.opponent));
        let theirs = movegen::legal_moves_portable(b.opponent, b.player);
        assert_eq!(
            movegen::legal_moves_both(b.player, b.opponent),
            (fast, theirs)
        );
        for sq in Squares(b.empties()) {
            let i = sq.index();
            let f = flip::flips(i, b.player, b.opponent);
            assert_eq!(
                f,
                flip::flips_portable(i, b.player, b.opponent),
                "{sq}\n{b}"
            );
            assert_eq!(f != 0, fast & sq.bit() != 0, "{sq}\n{b}");
            each_compiled_kernel(i, b.player, b.opponent, f);
        }
    });
    assert!(positions >= 1_000_000, "only {positions} positions");
}

/// Every SIMD flip kernel this build compiles (not only the selected one) gives `expected`.
fn each_compiled_kernel(sq: usize, p: u64, o: u64, expected: u64) {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    assert_eq!(
        flip::flips_bmi2(sq, p, o),
        expected,
        "bmi2 sq {sq} {p:#x} {o:#x}"
    );
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    assert_eq!(
        flip::flips_avx2(sq, p, o),
        expected,
        "avx2 sq {sq} {p:#x} {o:#x}"
    );
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx512vl",
        target_feature = "avx512cd"
    ))]
    assert_eq!(
        flip::flips_avx512(sq, p, o),
        expected,
        "avx512 sq {sq} {p:#x} {o:#x}"
    );
    let _ = (sq, p, o, expected);
}

#[test]
fn kernels_match_the_naive_reference() {
    random_positions(2, 3000, |b| {
        let reference_moves = reference::legal_moves(b.player, b.opponent);
        assert_eq!(b.legal_moves(), reference_moves, "\n{b}");
        assert_eq!(
            movegen::legal_moves_portable(b.player, b.opponent),
            reference_moves
        );
        for sq in Squares(b.empties()) {
            let r = reference::flips(sq.index(), b.player, b.opponent);
            assert_eq!(b.flips(sq), r, "{sq}\n{b}");
            assert_eq!(flip::flips_portable(sq.index(), b.player, b.opponent), r);
        }
    });
}

#[test]
fn kernels_match_reference_on_dense_random_boards() {
    // Arbitrary (not necessarily reachable) boards stress edges and long runs.
    let mut rng = Rng::new(3);
    for _ in 0..200_000 {
        let a = rng.next_u64();
        let b = rng.next_u64() & rng.next_u64();
        let (p, o) = (a & !b & rng.next_u64(), b & !a);
        assert_eq!(movegen::legal_moves(p, o), reference::legal_moves(p, o));
        assert_eq!(
            movegen::legal_moves_portable(p, o),
            reference::legal_moves(p, o)
        );
        for sq in Squares(!(p | o)) {
            let r = reference::flips(sq.index(), p, o);
            assert_eq!(flip::flips(sq.index(), p, o), r);
            assert_eq!(flip::flips_portable(sq.index(), p, o), r);
            each_compiled_kernel(sq.index(), p, o, r);
        }
    }
}

#[test]
fn last_flip_counts_match_the_reference_on_full_boards() {
    // Every square and many random fillings of the other 63: the count-only kernels (selected
    // and portable) agree with the reference flips.
    let mut rng = Rng::new(4);
    for i in 0..30_000 {
        let (x, y) = (rng.next_u64(), rng.next_u64());
        // Sparse, even and dense players, so long runs of either colour occur.
        let bits = [x & y, x, x | y][i % 3];
        for sq in 0..64 {
            let p = bits & !(1u64 << sq);
            let o = !p & !(1u64 << sq);
            let r = reference::flips(sq, p, o).count_ones();
            assert_eq!(flip::last_flip_count(sq, p), r, "sq {sq} player {p:#x}");
            assert_eq!(
                flip::last_flip_count_portable(sq, p),
                r,
                "sq {sq} player {p:#x}"
            );
        }
    }
}

#[test]
fn potential_moves_are_empties_next_to_opponent() {
    random_positions(4, 300, |b| {
        let mut expect = 0;
        for sq in Squares(b.empties()) {
            let near = Square::all().any(|t| {
                b.opponent & t.bit() != 0
                    && (t.col() as i32 - sq.col() as i32).abs() <= 1
                    && (t.row() as i32 - sq.row() as i32).abs() <= 1
            });
            if near {
                expect |= sq.bit();
            }
        }
        assert_eq!(movegen::potential_moves(b.player, b.opponent), expect);
    });
}

#[test]
fn start_position_rules() {
    let b = Board::START;
    let names: Vec<String> = Squares(b.legal_moves()).map(|s| s.to_string()).collect();
    assert_eq!(names, ["d3", "c4", "f5", "e6"]);
    let after = b.play("f5".parse().unwrap()).unwrap();
    assert_eq!(after.player_count(), 1);
    assert_eq!(after.opponent_count(), 4);
    assert!(b.play("a1".parse().unwrap()).is_none());
    assert!(b.play("d4".parse().unwrap()).is_none(), "occupied");
    assert_eq!(b.apply(Move::Pass), Err(IllegalMove::PassNotAllowed));
    assert!(!b.is_game_over());
    assert_eq!(b.moves().len(), 4);
}

#[test]
fn passes_and_game_end() {
    // Player has a1 only, opponent b1, c1 empty... player to move: no move flanks; opponent can
    // play nowhere either? Opponent at b1 flanked by a1/c1: opponent playing c1 flips nothing.
    let full_player = Board::new(!0 ^ 1, 0);
    assert!(full_player.is_game_over());
    assert_eq!(full_player.final_score(), 64);
    assert_eq!(full_player.pass().final_score(), -64);
    // X on a1, O on b1, rest empty: X can play c1; O cannot move after... check must_pass.
    let b = Board::new(1, 2);
    assert_eq!(b.legal_moves(), 4);
    let o_to_move = b.pass();
    assert!(o_to_move.must_pass());
    assert_eq!(o_to_move.apply(Move::Pass), Ok(b));
    assert_eq!(o_to_move.moves(), vec![Move::Pass]);
    let end = b.play(Square::from_index(2)).unwrap();
    assert!(end.is_game_over());
    assert_eq!(end.moves(), Vec::<Move>::new());
    // Side to move (O) has 0 discs, X has 3: X wins 64-0 with empties.
    assert_eq!(end.final_score(), -64);
    // Draw: equal discs, empties shared.
    assert_eq!(Board::new(0xFF, 0xFF00).final_score(), 0);
    assert_eq!(Board::new(0xF, 0xFF00).final_score(), -(8 - 4 + 52));
}

#[test]
fn canonical_is_minimal_and_symmetric() {
    random_positions(5, 200, |b| {
        let (c, s) = b.canonical();
        assert_eq!(b.transform(s), c);
        assert_eq!(c.transform(s.inverse()), *b);
        for t in Symmetry::ALL {
            let image = b.transform(t);
            assert!(c <= image);
            assert_eq!(
                image.canonical().0,
                c,
                "canonical is the same for all images"
            );
            // Legal moves commute with symmetries.
            assert_eq!(image.legal_moves(), t.apply(b.legal_moves()));
        }
    });
}

#[test]
fn hash_distinguishes_colour_and_spreads() {
    let b = Board::START;
    assert_ne!(b.hash(), b.pass().hash());
    let mut seen = std::collections::HashSet::new();
    random_positions(6, 500, |b| {
        seen.insert((b.hash(), *b));
    });
    let hashes: std::collections::HashSet<u64> = seen.iter().map(|x| x.0).collect();
    assert_eq!(
        hashes.len(),
        seen.len(),
        "no collision among distinct positions"
    );
}

/// The top bits of the table hash, which index the search's tables, spread the positions of
/// random games like a uniform random function: over 256 buckets (top 8 bits) and 4,096 (top
/// 12), the chi-square statistic divided by its degrees of freedom is near 1 (a uniform hash
/// gives 1 +- 0.09 and 1 +- 0.02; clustering gives far more), and full-hash collisions are rare.
#[test]
fn table_hash_top_bits_spread() {
    let mut positions = std::collections::HashSet::new();
    random_positions(17, 1000, |b| {
        positions.insert(*b);
    });
    let n = positions.len();
    assert!(n > 50_000, "{n}");
    for bits in [8u32, 12] {
        let mut counts = vec![0usize; 1 << bits];
        for b in &positions {
            counts[(b.table_hash() >> (64 - bits)) as usize] += 1;
        }
        let mean = n as f64 / counts.len() as f64;
        let chi2: f64 = counts
            .iter()
            .map(|&c| (c as f64 - mean).powi(2) / mean)
            .sum();
        let ratio = chi2 / (counts.len() - 1) as f64;
        assert!(
            (0.6..1.4).contains(&ratio),
            "{bits} bits: chi-square / df = {ratio:.3}"
        );
    }
    let hashes: std::collections::HashSet<u64> = positions.iter().map(|b| b.table_hash()).collect();
    assert!(n - hashes.len() <= 2, "{} collisions", n - hashes.len());
}
