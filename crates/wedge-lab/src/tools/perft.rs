//! Perft: counts the leaves of the game tree from a position to a fixed depth. Single thread,
//! no hashing and no symmetry shortcuts, so it measures raw move generation and flips.

use wedge_core::board::{Board, Square, Squares};

/// How passes and finished games are counted (engines.md section 1.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassRule {
    /// Aart Bik's convention: a pass uses one ply; a finished game is one leaf at any depth.
    PassIsPly,
    /// Egaroucid's "mode 2": a pass uses no depth; a finished game is one leaf.
    PassIsFree,
}

/// Number of leaves `depth` plies below `board`.
pub fn perft(board: &Board, depth: u32, rule: PassRule) -> u64 {
    if depth == 0 {
        return 1;
    }
    match rule {
        PassRule::PassIsPly => perft_pass_ply(board.player, board.opponent, depth),
        PassRule::PassIsFree => perft_pass_free(board.player, board.opponent, depth),
    }
}

#[inline(always)]
fn child(player: u64, opponent: u64, sq: Square) -> (u64, u64) {
    let b = Board::new(player, opponent);
    let next = b.play_flips(sq, b.flips(sq));
    (next.player, next.opponent)
}

fn perft_pass_ply(player: u64, opponent: u64, depth: u32) -> u64 {
    let moves = Board::new(player, opponent).legal_moves();
    if moves == 0 {
        // Either a finished game (one leaf) or a pass, which uses a ply.
        let game_over = Board::new(opponent, player).legal_moves() == 0;
        return if game_over || depth == 1 {
            1
        } else {
            perft_pass_ply(opponent, player, depth - 1)
        };
    }
    if depth == 1 {
        return moves.count_ones() as u64;
    }
    let mut n = 0;
    for sq in Squares(moves) {
        let (p, o) = child(player, opponent, sq);
        n += perft_pass_ply(p, o, depth - 1);
    }
    n
}

fn perft_pass_free(player: u64, opponent: u64, depth: u32) -> u64 {
    let moves = Board::new(player, opponent).legal_moves();
    if moves == 0 {
        let opp_moves = Board::new(opponent, player).legal_moves();
        if opp_moves == 0 {
            return 1;
        }
        if depth == 1 {
            return opp_moves.count_ones() as u64;
        }
        return perft_pass_free(opponent, player, depth);
    }
    if depth == 1 {
        return moves.count_ones() as u64;
    }
    let mut n = 0;
    for sq in Squares(moves) {
        let (p, o) = child(player, opponent, sq);
        n += perft_pass_free(p, o, depth - 1);
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    /// engines.md section 1.5, depths 1..12: (pass = 1 ply, pass = 0 ply).
    pub const EXPECTED: [(u64, u64); 12] = [
        (4, 4),
        (12, 12),
        (56, 56),
        (244, 244),
        (1_396, 1_396),
        (8_200, 8_200),
        (55_092, 55_092),
        (390_216, 390_216),
        (3_005_288, 3_005_320),
        (24_571_284, 24_571_420),
        (212_258_800, 212_260_880),
        (1_939_886_636, 1_939_899_208),
    ];

    fn check(depth: u32) {
        let (ply, free) = EXPECTED[depth as usize - 1];
        assert_eq!(
            perft(&Board::START, depth, PassRule::PassIsPly),
            ply,
            "depth {depth}"
        );
        assert_eq!(
            perft(&Board::START, depth, PassRule::PassIsFree),
            free,
            "depth {depth}"
        );
    }

    #[test]
    fn perft_1_to_9_both_conventions() {
        for d in 1..=9 {
            check(d);
        }
    }

    #[test]
    #[ignore = "long: run with --ignored (perft 10-12 in both conventions)"]
    fn perft_10_to_12_both_conventions() {
        for d in 10..=12 {
            check(d);
        }
    }
}
