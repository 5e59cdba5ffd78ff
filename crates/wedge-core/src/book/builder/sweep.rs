//! Bringing the book to the Negamaxed level: the requests for the played positions that need
//! a best move outside the book (or a stale search made again), the sweeps that value them
//! level by level from the fewest empties, and negamax.

use super::valuation::{LevelValuer, LocalThreads, Valuation, ValuationRequest, Valuer};
use super::{BookBuilder, Node, Successor};
use crate::board::{Board, Squares};
use crate::book::excerpt::BookExcerpt;
use crate::book::file::Consistency;
use crate::book::record::{Deviation, NodeKind};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts of what a sweep did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweepStats {
    pub searched: usize,
    pub solved: usize,
    pub leaves_added: usize,
    pub left_unvalued: usize,
}

impl BookBuilder {
    /// Searches the best move outside the book of one played node when it needs it (the
    /// successor is stored as a leaf), then negamaxes the node.
    pub fn value_node<V: Valuer>(&mut self, key: &Board, valuer: &mut V, stats: &mut SweepStats) {
        if let Some(n) = self.nodes.get(key).copied() {
            if self.needs_search(key, &n) {
                let r = self.request(key).and_then(|q| q.value(valuer));
                self.apply_valuation(key, r, stats);
            }
        }
        self.negamax_node(key);
    }

    /// What valuing `key`'s best move outside the book takes (a search, or a solve at or below
    /// the solve threshold); `None` when every legal move is a book move.
    pub fn request(&self, key: &Board) -> Option<ValuationRequest> {
        self.request_reopening(key, 0)
    }

    /// [`BookBuilder::request`] with the moves of `reopen` allowed even when in the book.
    fn request_reopening(&self, key: &Board, reopen: u64) -> Option<ValuationRequest> {
        let (_, in_book) = self.book_moves(key);
        let allowed = key.legal_moves() & (!in_book | reopen);
        if allowed == 0 {
            return None;
        }
        Some(ValuationRequest {
            board: *key,
            allowed,
            exact: key.empty_count() <= self.info.solve_empties as u32,
            // What the search can see of the book travels with the position, so the
            // valuation is the same wherever it runs.
            excerpt: BookExcerpt::around(self, key),
        })
    }

    /// Marks every value a search made at positions of at least `from_empties` empties as
    /// stale, so that the next sweep makes it again with the valuer it is given (after the
    /// evaluation changed): each played position's best move outside the book, unless solved,
    /// and each unsolved leaf's value. They keep their old values until then, and solved
    /// values stay. Returns how many positions the sweep will search.
    pub fn mark_searched_values_stale(&mut self, from_empties: u32) -> usize {
        for (key, node) in &self.nodes {
            let empties = key.empty_count();
            let searched = match node.deviation {
                Deviation::Move { depth, .. } => u32::from(depth) < empties,
                _ => node.kind == NodeKind::UnsolvedLeaf && !node.is_played(),
            };
            if searched && empties >= from_empties {
                self.stale.insert(*key);
            }
        }
        self.stale.len()
    }

    /// True when `key` is to be searched again (stale), or never was (unvalued).
    fn to_search(&self, key: &Board, node: &Node) -> bool {
        self.needs_search(key, node) || self.stale.contains(key)
    }

    /// What searching a stale played position again takes: its best move outside the book,
    /// where its own deviation's leaf counts as outside (else every search again would pass
    /// over the old deviation and widen the book by one move).
    fn request_again(&self, key: &Board) -> Option<ValuationRequest> {
        let own = self
            .nodes
            .get(key)
            .and_then(|node| self.deviation_child(key, node))
            .filter(|(_, child)| !child.is_played())
            .map_or(0, |(sq, _)| sq.bit());
        self.request_reopening(key, own)
    }

    /// What searching a stale leaf again takes: the best of all its moves.
    fn leaf_request(&self, key: &Board) -> ValuationRequest {
        ValuationRequest {
            board: *key,
            allowed: key.legal_moves(),
            exact: key.empty_count() <= self.info.solve_empties as u32,
            excerpt: BookExcerpt::around(self, key),
        }
    }

    /// Recomputes every played node's value from the leaves (fewest empties first).
    pub fn negamax_all(&mut self) {
        let mut keys: Vec<Board> = self.nodes.keys().copied().collect();
        keys.sort_unstable_by_key(|k| (k.empty_count(), *k));
        for k in &keys {
            self.negamax_node(k);
        }
    }

    /// True when a played node needs a (new) search for its best move outside the book: never
    /// searched, or its deviation now leads to a played position.
    fn needs_search(&self, key: &Board, node: &Node) -> bool {
        if !node.is_played() {
            return false;
        }
        match node.deviation {
            Deviation::NotComputed => true,
            Deviation::AllInBook => false,
            Deviation::Move { .. } => self
                .deviation_child(key, node)
                .is_some_and(|(_, child)| child.is_played()),
        }
    }

    /// Recomputes a played node's value, depth and kind from its deviation and book moves.
    fn negamax_node(&mut self, key: &Board) {
        let Some(node) = self.nodes.get(key).copied() else {
            return;
        };
        if !node.is_played() || node.deviation == Deviation::NotComputed {
            return;
        }
        let empties = key.empty_count() as u8;
        let mut best = i32::MIN;
        let mut exact = true;
        let mut depth = u8::MAX;
        if let Deviation::Move {
            value, depth: d, ..
        } = node.deviation
        {
            best = value as i32;
            exact &= d >= empties;
            depth = depth.min(d);
        }
        for sq in Squares(key.legal_moves()) {
            match self.successor(key, sq) {
                Successor::Terminal(v) => best = best.max(v),
                Successor::Position { key: c, same_mover } => {
                    if let Some(n) = self.nodes.get(&c) {
                        if n.is_valued() {
                            best = best.max(Self::through(n, same_mover));
                            exact &= n.kind == NodeKind::Solved;
                            depth = depth.min(n.depth.saturating_add(1));
                        } else {
                            exact = false;
                        }
                    }
                }
                Successor::TooFew => {}
            }
        }
        if best == i32::MIN {
            return;
        }
        let n = self.nodes.get_mut(key).expect("present");
        n.value = best.clamp(-64, 64) as i8;
        if exact {
            n.kind = NodeKind::Solved;
            n.depth = empties;
        } else {
            n.kind = NodeKind::UnsolvedBranch;
            n.depth = depth.min(empties.saturating_sub(1)).min(60);
        }
    }

    /// Brings the book to the Negamaxed level: from the fewest empties up, every played
    /// position that needs it gets its best move outside the book (solved at or below the
    /// solve threshold, searched elsewhere; the successor is stored as a leaf), then its value
    /// is the negamax of its book moves and deviation. Without a valuer, positions needing a
    /// search are left unvalued (the book stays Consistent). `threads` valuers run side by
    /// side on the positions of one empties count.
    pub fn sweep<V: Valuer>(
        &mut self,
        make_valuer: Option<&(dyn Fn() -> V + Sync)>,
        threads: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> SweepStats {
        match make_valuer {
            Some(make) => {
                let mut local = LocalThreads { make, threads };
                self.sweep_with(Some(&mut local), progress)
            }
            None => self.sweep_with(None, progress),
        }
    }

    /// [`BookBuilder::sweep`] with the valuations of each empties count made by `level` (local
    /// threads, or workers elsewhere).
    pub fn sweep_with(
        &mut self,
        level_valuer: Option<&mut dyn LevelValuer>,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> SweepStats {
        self.sweep_levels(level_valuer, progress, &mut |_, _| true)
    }

    /// [`BookBuilder::sweep_with`], calling `after_level(self, empties)` once the positions of
    /// an empties count that had searches are valued and negamaxed (where a long sweep can
    /// publish the book); when it returns false the sweep stops there, leaving the positions
    /// of more empties as they are.
    pub fn sweep_levels(
        &mut self,
        mut level_valuer: Option<&mut dyn LevelValuer>,
        progress: &(dyn Fn(usize, usize) + Sync),
        after_level: &mut dyn FnMut(&mut BookBuilder, u32) -> bool,
    ) -> SweepStats {
        let mut stats = SweepStats::default();
        let mut by_empties: Vec<Vec<Board>> = vec![Vec::new(); 61];
        for k in self.nodes.keys() {
            by_empties[k.empty_count() as usize].push(*k);
        }
        let total: usize = self
            .nodes
            .iter()
            .filter(|(k, n)| self.to_search(k, n))
            .count();
        let done = AtomicUsize::new(0);
        let finished = || progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
        for (empties, level) in by_empties.iter_mut().enumerate() {
            level.sort_unstable();
            let todo: Vec<Board> = level
                .iter()
                .filter(|k| self.to_search(k, &self.nodes[*k]))
                .copied()
                .collect();
            if !todo.is_empty() {
                match level_valuer.as_deref_mut() {
                    Some(valuer) => {
                        let (mut requests, mut keys) = (Vec::new(), Vec::new());
                        for key in &todo {
                            if !self.nodes[key].is_played() {
                                // A stale leaf: the best of all its moves.
                                requests.push(self.leaf_request(key));
                                keys.push(*key);
                                continue;
                            }
                            let request = if self.stale.contains(key) {
                                self.request_again(key)
                            } else {
                                self.request(key)
                            };
                            match request {
                                Some(q) => {
                                    requests.push(q);
                                    keys.push(*key);
                                }
                                // Every move is in the book: no search.
                                None => {
                                    self.stale.remove(key);
                                    self.apply_valuation(key, None, &mut stats);
                                    finished();
                                }
                            }
                        }
                        let results = valuer.value_level(&requests, &finished);
                        for (key, r) in keys.iter().zip(results) {
                            self.stale.remove(key);
                            if self.nodes[key].is_played() {
                                self.apply_valuation(key, r, &mut stats);
                            } else {
                                self.apply_leaf_valuation(key, r, &mut stats);
                            }
                        }
                    }
                    // Stale positions keep their old values.
                    None => {
                        for key in &todo {
                            if self.needs_search(key, &self.nodes[key]) {
                                if let Some(n) = self.nodes.get_mut(key) {
                                    n.deviation = Deviation::NotComputed;
                                }
                            }
                        }
                        stats.left_unvalued += todo.len();
                    }
                }
            }
            for key in level.iter() {
                self.negamax_node(key);
            }
            if !todo.is_empty() && !after_level(self, empties as u32) {
                break;
            }
        }
        self.info.level = self.level();
        stats
    }

    /// Stores a stale leaf's new value (kept as it was when the search gave nothing).
    fn apply_leaf_valuation(&mut self, key: &Board, r: Option<Valuation>, stats: &mut SweepStats) {
        let (Some(v), Some(n)) = (r, self.nodes.get_mut(key)) else {
            return;
        };
        if v.exact {
            stats.solved += 1;
        } else {
            stats.searched += 1;
        }
        let fresh = Node::leaf(v.value, v.depth, v.exact);
        (n.kind, n.value, n.depth) = (fresh.kind, fresh.value, fresh.depth);
    }

    fn apply_valuation(&mut self, key: &Board, r: Option<Valuation>, stats: &mut SweepStats) {
        let Some(v) = r else {
            if let Some(n) = self.nodes.get_mut(key) {
                n.deviation = Deviation::AllInBook;
            }
            return;
        };
        if v.exact {
            stats.solved += 1;
        } else {
            stats.searched += 1;
        }
        if let Some(n) = self.nodes.get_mut(key) {
            n.deviation = Deviation::Move {
                sq: v.sq.index() as u8,
                value: v.value.clamp(-64, 64) as i8,
                depth: v.depth,
            };
        }
        if let Successor::Position { key: c, same_mover } = self.successor(key, v.sq) {
            if let std::collections::hash_map::Entry::Vacant(e) = self.nodes.entry(c) {
                let value = if same_mover { v.value } else { -v.value };
                e.insert(Node::leaf(value, v.depth.saturating_sub(1), v.exact));
                stats.leaves_added += 1;
            }
        }
    }

    /// The consistency level the book is at now.
    pub fn level(&self) -> Consistency {
        let mut level = Consistency::Negamaxed;
        for (k, n) in &self.nodes {
            if n.kind == NodeKind::UnsolvedBranch && n.deviation == Deviation::NotComputed {
                return Consistency::Consistent;
            }
            if self.to_search(k, n) {
                level = Consistency::Valued;
            }
        }
        level
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::test_valuers::Hashed;
    use crate::formats::parse_transcript;

    fn book() -> BookBuilder {
        let mut b = BookBuilder::new(54);
        for g in ["f5d6c3d3c4", "f5f6e6f4", "f5d6c5f4e3", "f5f4e3f6d3"] {
            b.add_game(&parse_transcript(g).unwrap()).unwrap();
        }
        b
    }

    #[test]
    fn without_a_valuer_the_book_stays_consistent() {
        let mut b = book();
        let stats = b.sweep::<Hashed>(None, 1, &|_, _| {});
        assert_eq!(stats.searched, 0);
        assert!(stats.left_unvalued > 0);
        assert_eq!(b.level(), Consistency::Consistent);
    }

    #[test]
    fn a_sweep_values_every_played_position_and_negamaxes() {
        let mut b = book();
        let played = b.len();
        let stats = b.sweep(Some(&|| Hashed::new(21, false)), 2, &|_, _| {});
        assert_eq!(b.level(), Consistency::Negamaxed);
        assert_eq!(b.len(), played + stats.leaves_added);
        let mut all_in_book = 0;
        for (key, node) in b.sorted_nodes() {
            if !node.is_played() {
                continue;
            }
            let outside = match node.deviation {
                Deviation::Move { value, .. } => i32::from(value),
                Deviation::AllInBook => {
                    all_in_book += 1;
                    i32::MIN
                }
                Deviation::NotComputed => panic!("{key:?} left unvalued"),
            };
            // Negamax: the best of the deviation and the book moves.
            let (moves, _) = b.book_moves(&key);
            let best = moves.iter().map(|m| m.1).fold(outside, i32::max);
            assert_eq!(i32::from(node.value), best, "{key:?}");
            assert_eq!(node.kind, NodeKind::UnsolvedBranch);
        }
        // The start (four symmetric moves) and f5 (three replies) are all in the book.
        assert!(all_in_book >= 2);
        assert_eq!(stats.searched + all_in_book, played);
    }

    #[test]
    fn stale_searches_are_made_again_without_widening_the_book() {
        let mut b = book();
        b.sweep(Some(&|| Hashed::new(21, false)), 1, &|_, _| {});
        let before = b.len();
        let stale = b.mark_searched_values_stale(0);
        assert!(stale > 0);
        assert_eq!(b.level(), Consistency::Valued);
        let mut levels = Vec::new();
        let stats = b.sweep_levels(
            Some(&mut LocalThreads {
                make: &|| Hashed::new(9, false),
                threads: 1,
            }),
            &|_, _| {},
            &mut |_, empties| {
                levels.push(empties);
                true
            },
        );
        assert_eq!(stats.searched, stale);
        assert_eq!(stats.leaves_added, 0);
        assert_eq!(b.len(), before);
        assert_eq!(b.level(), Consistency::Negamaxed);
        assert!(
            levels.windows(2).all(|w| w[0] < w[1]),
            "fewest empties first"
        );
    }
}
