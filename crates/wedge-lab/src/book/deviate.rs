//! Edax's bounded deviation (`book deviate R A`): grow every line in which one side may lose up
//! to R discs per move against the book's best while the other plays the best, and whose values
//! stay within A discs of the root's value; done twice, once for each side erring, and repeated
//! until nothing is left to add.

use super::expansion::children;
use std::collections::{BTreeMap, HashSet};
use wedge_core::board::{Board, Square};
use wedge_core::book::Deviation;
use wedge_core::book::{BookBuilder, Successor, SweepStats, Valuer};

/// What a deviation run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeviateReport {
    pub rounds: usize,
    /// Each leaf made played: its key, its value from the root's side, and the root-side
    /// window of its round.
    pub expanded: Vec<(Board, i32, (i32, i32))>,
}

/// Runs the deviation from `root` (a canonical played position) with a per-move error of
/// `relative` discs and a window of `absolute` discs, making at most `budget` leaves played.
pub fn deviate<V: Valuer>(
    book: &mut BookBuilder,
    root: Board,
    relative: i32,
    absolute: i32,
    budget: usize,
    valuer: &mut V,
) -> DeviateReport {
    let mut report = DeviateReport::default();
    let mut stats = SweepStats::default();
    while report.expanded.len() < budget {
        book.negamax_all();
        let Some(root_node) = book.node(&root).filter(|n| n.is_played() && n.is_valued()) else {
            break;
        };
        let v0 = root_node.value as i32;
        let window = (v0 - absolute, v0 + absolute);
        // Leaf to make played -> (its parent, its value from the root's side).
        let mut todo: BTreeMap<Board, (Board, i32)> = BTreeMap::new();
        for root_side_errs in [true, false] {
            let mut seen = HashSet::new();
            let mut stack = vec![(root, 1i32)];
            while let Some((key, sign)) = stack.pop() {
                if !seen.insert(key) {
                    continue;
                }
                let Some(node) = book.node(&key).filter(|n| n.is_played() && n.is_valued()) else {
                    continue;
                };
                let v = node.value as i32;
                if !(window.0..=window.1).contains(&(sign * v)) {
                    continue;
                }
                let errs = (sign == 1) == root_side_errs;
                let allowed = if errs { relative } else { 0 };
                if let Deviation::Move { sq, value, .. } = node.deviation {
                    let dv = value as i32;
                    if dv >= v - allowed && (window.0..=window.1).contains(&(sign * dv)) {
                        if let Successor::Position { key: c, .. } =
                            book.successor(&key, Square::from_index(sq as u32))
                        {
                            if book.node(&c).is_some_and(|n| !n.is_played()) {
                                todo.entry(c).or_insert((key, sign * dv));
                            }
                        }
                    }
                }
                for (sq, c, cv) in children(book, &key, usize::MAX) {
                    let Some(child) = book.node(&c) else { continue };
                    if !child.is_played() || cv < v - allowed {
                        continue;
                    }
                    // After a forced pass the same side moves again.
                    let same_mover = matches!(
                        book.successor(&key, sq),
                        Successor::Position {
                            same_mover: true,
                            ..
                        }
                    );
                    stack.push((c, if same_mover { sign } else { -sign }));
                }
            }
        }
        if todo.is_empty() {
            break;
        }
        report.rounds += 1;
        for (leaf, (parent, value)) in todo {
            if report.expanded.len() >= budget {
                break;
            }
            book.make_played(&leaf);
            book.value_node(&leaf, valuer, &mut stats);
            // The parent's deviation now leads into the book: it searches its next best.
            book.value_node(&parent, valuer, &mut stats);
            report.expanded.push((leaf, value, window));
        }
    }
    book.negamax_all();
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use wedge_core::book::test_valuers::Hashed;

    #[test]
    fn deviation_stays_inside_its_window_and_grows_the_book() {
        let mut book = BookBuilder::new(50);
        let f5 = wedge_core::board::Move::Play("f5".parse().unwrap());
        book.add_game(&[f5]).unwrap();
        book.sweep(Some(&|| Hashed::new(7, false)), 1, &|_, _| {});
        let root = Board::START.canonical().0;
        let before = book.len();
        let r = deviate(&mut book, root, 2, 3, 300, &mut Hashed::new(7, false));
        assert!(r.rounds >= 2, "{r:?}");
        assert!(book.len() > before + 20, "{} -> {}", before, book.len());
        for (_, value, (lo, hi)) in &r.expanded {
            assert!(lo <= value && value <= hi, "{value} outside [{lo}, {hi}]");
        }
        // A zero window and zero error still follow the best line only.
        let mut narrow = BookBuilder::new(50);
        narrow.add_game(&[f5]).unwrap();
        narrow.sweep(Some(&|| Hashed::new(7, false)), 1, &|_, _| {});
        let r = deviate(&mut narrow, root, 0, 64, 40, &mut Hashed::new(7, false));
        for (leaf, _, _) in &r.expanded {
            assert!(narrow.node(leaf).unwrap().is_played());
        }
    }
}
