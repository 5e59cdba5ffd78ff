//! The move the book plays at the root: the best stored reply (one probe), or with a
//! randomness of R discs a weighted draw among the replies losing at most R discs (weighted
//! toward the best and by hand-edited weights; never a solved losing move). When the stored
//! best reply does not carry the position's value, every child is examined and one whose value
//! matches is played (Novello's rule); when none does, the book gives no move.

use super::builder::normalize;
use super::{BookProbe, BookSource};
use crate::board::{Board, Square, Squares};
use crate::rng::Rng;

/// A book move for the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookChoice {
    pub sq: Square,
    /// Value of the move for the side to move.
    pub value: i32,
    /// The root's own probe.
    pub probe: BookProbe,
}

/// A legal move of `board` as the book sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChildValue {
    pub sq: Square,
    /// For the side to move at `board`.
    pub value: i32,
    /// Exact (solved, or the game ends).
    pub solved: bool,
    /// Plies from `board` its value was searched to (the successor's depth plus the move).
    pub depth: u32,
    /// Choice weight in percent (0 = never chosen by the engine).
    pub weight: u8,
    /// Games imported through the move.
    pub games: u32,
}

/// Every legal move of `board` whose successor is in the book or ends the game.
pub fn book_children(book: &(impl BookSource + ?Sized), board: &Board) -> Vec<ChildValue> {
    let mut out = Vec::new();
    for sq in Squares(board.legal_moves()) {
        let child = board.play_flips(sq, board.flips(sq));
        match normalize(&child) {
            None => out.push(ChildValue {
                sq,
                value: -child.final_score(),
                solved: true,
                depth: 1,
                weight: super::record::DEFAULT_WEIGHT,
                games: 0,
            }),
            Some((b, passed)) => {
                if b.empty_count() < book.fewest_empties() {
                    continue;
                }
                if let Some(p) = book.probe(&b).filter(|p| p.valued) {
                    out.push(ChildValue {
                        sq,
                        value: if passed { p.value } else { -p.value },
                        solved: p.is_solved(),
                        depth: p.depth + 1,
                        weight: p.weight,
                        games: p.games,
                    });
                }
            }
        }
    }
    out.sort_by_key(|c| (-c.value, c.sq.index()));
    out
}

/// The book's move for `board` (whose side to move has a legal move), if any.
pub fn choose(
    book: &(impl BookSource + ?Sized),
    board: &Board,
    randomness: u32,
    rng: &mut Rng,
) -> Option<BookChoice> {
    if board.legal_moves() == 0 || board.empty_count() < book.fewest_empties() {
        return None;
    }
    let probe = book.probe(board).filter(|p| p.valued)?;
    let best = probe.best()?;
    // The fast path: one probe, no move generation.
    if randomness == 0 && !book.has_weights() && best.value == probe.value {
        return Some(BookChoice {
            sq: best.sq,
            value: best.value,
            probe,
        });
    }
    let mut children = book_children(book, board);
    // The deviation's successor may lie below the book's minimum: it still counts.
    for r in probe.replies() {
        if !children.iter().any(|c| c.sq == r.sq) {
            children.push(ChildValue {
                sq: r.sq,
                value: r.value,
                solved: false,
                depth: probe.depth,
                weight: super::record::DEFAULT_WEIGHT,
                games: 0,
            });
        }
    }
    children.sort_by_key(|c| (-c.value, c.sq.index()));
    if children.first()?.value < probe.value {
        // Inconsistent (the book was not negamaxed): let the search decide.
        return None;
    }
    // Moves weighted 0 are answers to humans, never the engine's own choice.
    let playable: Vec<ChildValue> = children.into_iter().filter(|c| c.weight > 0).collect();
    let top_value = playable.first()?.value;
    let eligible: Vec<(ChildValue, u64)> = playable
        .iter()
        .filter(|c| c.value + randomness as i32 >= top_value)
        .filter(|c| c.value == top_value || !(c.solved && c.value < 0))
        .map(|c| {
            let closeness = (randomness as i32 + 1 - (top_value - c.value)) as u64;
            (*c, closeness * c.weight as u64)
        })
        .collect();
    let total: u64 = eligible.iter().map(|e| e.1).sum();
    let pick = if total == 0 {
        eligible[0].0
    } else {
        let mut r = rng.below(total);
        let mut chosen = eligible[0].0;
        for (c, w) in &eligible {
            if r < *w {
                chosen = *c;
                break;
            }
            r -= w;
        }
        chosen
    };
    Some(BookChoice {
        sq: pick.sq,
        value: pick.value,
        probe,
    })
}
