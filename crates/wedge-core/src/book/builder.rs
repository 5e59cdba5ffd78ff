//! The book under construction: an in-memory map from canonical boards to nodes, with
//! Novello's operations on it: adding games, valuing played positions from the fewest empties
//! up (solving near the end, searching the best move outside the book elsewhere), negamax, and
//! the conversion to and from the file's records.

use super::excerpt::BookExcerpt;
use super::file::{write_book, Book, BookError, BookInfo, Consistency, Verify};
use super::lookup::{BookHit, BookLookup};
use super::record::{Deviation, NodeKind, Record, DEFAULT_WEIGHT, MAX_GAMES, STORED_CHILDREN};
use crate::board::{Board, IllegalMove, Move, Square, Squares};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Default minimum empties of a stored position (Novello's).
pub const DEFAULT_MIN_EMPTIES: u8 = 20;

/// A stored position's data (the record without its key and derived children).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    pub kind: NodeKind,
    pub value: i8,
    pub depth: u8,
    pub deviation: Deviation,
    pub weight: u8,
    pub games: u32,
}

impl Node {
    /// A played position whose best move outside the book is not known yet.
    pub fn played() -> Node {
        Node {
            kind: NodeKind::UnsolvedBranch,
            value: 0,
            depth: 0,
            deviation: Deviation::NotComputed,
            weight: DEFAULT_WEIGHT,
            games: 0,
        }
    }

    /// A leaf valued by a search (`exact` when solved).
    pub fn leaf(value: i32, depth: u8, exact: bool) -> Node {
        Node {
            kind: if exact {
                NodeKind::Solved
            } else {
                NodeKind::UnsolvedLeaf
            },
            value: value.clamp(-64, 64) as i8,
            depth,
            deviation: Deviation::NotComputed,
            weight: DEFAULT_WEIGHT,
            games: 0,
        }
    }

    /// A played position (as opposed to a leaf, which holds only a value).
    pub fn is_played(&self) -> bool {
        self.kind == NodeKind::UnsolvedBranch || self.deviation != Deviation::NotComputed
    }

    /// True when the value can be trusted (leaves, and played positions already valued).
    pub fn is_valued(&self) -> bool {
        self.kind != NodeKind::UnsolvedBranch || self.deviation != Deviation::NotComputed
    }
}

/// Where a move from a book position leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Successor {
    /// The game ends; value for the side to move before the move.
    Terminal(i32),
    /// A position that may be stored: its canonical key, and whether the side to move there
    /// is the same as before the move (the opponent had to pass).
    Position { key: Board, same_mover: bool },
    /// A position with fewer empties than the book keeps.
    TooFew,
}

/// The result of one valuation search, as the builder asks for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Valuation {
    pub sq: Square,
    /// Value of the position for its side to move when `sq` is played.
    pub value: i32,
    /// Plies searched (at least the empties when exact).
    pub depth: u8,
    pub exact: bool,
}

/// Searches the builder asks for: the best of `allowed` moves of `board`, to the book's
/// search depth, or exactly when `exact`. `book` answers transpositions into the book.
pub trait Valuer {
    fn best_of(
        &mut self,
        board: &Board,
        allowed: u64,
        exact: bool,
        book: &dyn BookLookup,
    ) -> Option<Valuation>;
}

/// A valuer lent from a pool (one per thread, made ahead) is used as the valuer itself.
impl<V: Valuer> Valuer for std::sync::MutexGuard<'_, V> {
    fn best_of(
        &mut self,
        board: &Board,
        allowed: u64,
        exact: bool,
        book: &dyn BookLookup,
    ) -> Option<Valuation> {
        (**self).best_of(board, allowed, exact, book)
    }
}

/// A position the builder needs valued, with everything the valuation depends on: the best
/// of the `allowed` moves (those outside the book), searched or (when `exact`) solved, seeing
/// the book through `excerpt`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValuationRequest {
    pub board: Board,
    pub allowed: u64,
    pub exact: bool,
    pub excerpt: BookExcerpt,
}

impl ValuationRequest {
    pub fn value<V: Valuer>(&self, valuer: &mut V) -> Option<Valuation> {
        valuer.best_of(&self.board, self.allowed, self.exact, &self.excerpt)
    }
}

/// Values the requests of one empties count, in their order, calling `finished` once per
/// position done: on local threads ([`LocalThreads`]) or elsewhere.
pub trait LevelValuer {
    fn value_level(
        &mut self,
        requests: &[ValuationRequest],
        finished: &(dyn Fn() + Sync),
    ) -> Vec<Option<Valuation>>;

    /// Why valuations could not be made (a lost connection): then what the last levels
    /// returned is not to be trusted, and the book must not be published.
    fn failure(&self) -> Option<String> {
        None
    }
}

/// `threads` valuers from `make` side by side, each taking the next request.
pub struct LocalThreads<'a, V> {
    pub make: &'a (dyn Fn() -> V + Sync),
    pub threads: usize,
}

impl<V: Valuer> LevelValuer for LocalThreads<'_, V> {
    fn value_level(
        &mut self,
        requests: &[ValuationRequest],
        finished: &(dyn Fn() + Sync),
    ) -> Vec<Option<Valuation>> {
        let next = AtomicUsize::new(0);
        let results = Mutex::new(vec![None; requests.len()]);
        std::thread::scope(|s| {
            for _ in 0..self.threads.max(1).min(requests.len()) {
                s.spawn(|| {
                    let mut valuer = (self.make)();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(q) = requests.get(i) else { break };
                        let r = q.value(&mut valuer);
                        results.lock().expect("no panics while valuing")[i] = r;
                        finished();
                    }
                });
            }
        });
        results.into_inner().expect("no panics while valuing")
    }
}

/// Counts of what a sweep did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweepStats {
    pub searched: usize,
    pub solved: usize,
    pub leaves_added: usize,
    pub left_unvalued: usize,
}

/// The book in memory.
#[derive(Clone, Debug)]
pub struct BookBuilder {
    nodes: HashMap<Board, Node>,
    pub info: BookInfo,
    origin: Origin,
    /// Positions whose searched values the next sweep makes again: played positions' best
    /// moves outside the book, unsolved leaves' values
    /// ([`BookBuilder::mark_searched_values_stale`]). They keep their old values until then.
    stale: HashSet<Board>,
}

/// Where a builder's contents came from, so that a publish can tell whether another writer
/// published the file since it was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Built in memory: publishing replaces whatever the file holds.
    Fresh,
    /// Read from the file at this published version ([`Book::version`]; `None`: there was no
    /// file yet). Publishing first merges any other version found there.
    Read(Option<u64>),
}

/// The position the book stores for `board`: after a forced pass; `None` at the game's end.
/// The flag says whether the side to move changed (a pass was made).
pub fn normalize(board: &Board) -> Option<(Board, bool)> {
    if board.legal_moves() != 0 {
        Some((*board, false))
    } else if board.opponent != 0 && Board::new(board.opponent, board.player).legal_moves() != 0 {
        Some((board.pass(), true))
    } else {
        None
    }
}

impl BookBuilder {
    pub fn new(min_empties: u8) -> BookBuilder {
        BookBuilder {
            nodes: HashMap::new(),
            info: BookInfo {
                min_empties: min_empties.min(60),
                level: Consistency::Negamaxed,
                search_depth: 0,
                solve_empties: min_empties.min(60),
                weighted: false,
                created: 0,
                description: String::new(),
            },
            origin: Origin::Fresh,
            stale: HashSet::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn node(&self, key: &Board) -> Option<&Node> {
        self.nodes.get(key)
    }

    /// The node of any (not necessarily canonical) board.
    pub fn node_of(&self, board: &Board) -> Option<&Node> {
        self.nodes.get(&board.canonical().0)
    }

    /// Inserts or replaces a node (keys are made canonical).
    pub fn insert(&mut self, board: &Board, node: Node) {
        self.nodes.insert(board.canonical().0, node);
    }

    pub fn set_weight(&mut self, board: &Board, weight: u8) {
        if let Some(n) = self.nodes.get_mut(&board.canonical().0) {
            n.weight = weight;
        }
    }

    /// Every node, sorted by key (a deterministic order).
    pub fn sorted_nodes(&self) -> Vec<(Board, Node)> {
        let mut v: Vec<(Board, Node)> = self.nodes.iter().map(|(k, n)| (*k, *n)).collect();
        v.sort_unstable_by_key(|(k, _)| *k);
        v
    }

    /// True when `board` has enough empties to be stored.
    pub fn keeps(&self, board: &Board) -> bool {
        board.empty_count() >= self.info.min_empties as u32
    }

    /// Where `sq` leads from `board` (the side to move must have the move).
    pub fn successor(&self, board: &Board, sq: Square) -> Successor {
        let child = board.play_flips(sq, board.flips(sq));
        match normalize(&child) {
            None => Successor::Terminal(-child.final_score()),
            Some((b, passed)) if self.keeps(&b) => Successor::Position {
                key: b.canonical().0,
                same_mover: passed,
            },
            Some(_) => Successor::TooFew,
        }
    }

    /// The value, for `board`'s side to move, of moving to a stored successor with `node`.
    fn through(node: &Node, same_mover: bool) -> i32 {
        if same_mover {
            node.value as i32
        } else {
            -(node.value as i32)
        }
    }

    /// Adds the positions of one game (passes may be implicit) as played positions. Returns
    /// how many positions were new.
    pub fn add_game(&mut self, moves: &[Move]) -> Result<usize, IllegalMove> {
        self.add_line(Board::START, moves)
    }

    /// As [`BookBuilder::add_game`], for a line starting from `start`.
    pub fn add_line(&mut self, start: Board, moves: &[Move]) -> Result<usize, IllegalMove> {
        let mut board = start;
        let mut added = 0;
        // Positions never repeat except across a pass, which normalizes to the same key.
        let mut last: Option<Board> = None;
        for i in 0..=moves.len() {
            if let Some((b, _)) = normalize(&board) {
                if self.keeps(&b) {
                    let key = b.canonical().0;
                    if last != Some(key) {
                        last = Some(key);
                        added += self.mark_played(key) as usize;
                    }
                }
            }
            let Some(&mv) = moves.get(i) else {
                break;
            };
            if let Move::Play(_) = mv {
                if board.legal_moves() == 0 && board.opponent != 0 {
                    board = board.pass();
                }
            }
            board = board.apply(mv)?;
        }
        Ok(added)
    }

    /// Makes `key` a played position (an expansion; no game is counted).
    pub fn make_played(&mut self, key: &Board) {
        match self.nodes.get_mut(key) {
            Some(n) if !n.is_played() => n.kind = NodeKind::UnsolvedBranch,
            Some(_) => {}
            None => {
                self.nodes.insert(*key, Node::played());
            }
        }
    }

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
            excerpt: super::excerpt::BookExcerpt::around(self, key),
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

    /// The square of `node`'s deviation and the stored node it leads to, when there is one.
    fn deviation_child(&self, key: &Board, node: &Node) -> Option<(Square, &Node)> {
        let Deviation::Move { sq, .. } = node.deviation else {
            return None;
        };
        let sq = Square::from_index(sq as u32);
        match self.successor(key, sq) {
            Successor::Position { key: c, .. } => self.nodes.get(&c).map(|n| (sq, n)),
            _ => None,
        }
    }

    /// What searching a stale leaf again takes: the best of all its moves.
    fn leaf_request(&self, key: &Board) -> ValuationRequest {
        ValuationRequest {
            board: *key,
            allowed: key.legal_moves(),
            exact: key.empty_count() <= self.info.solve_empties as u32,
            excerpt: super::excerpt::BookExcerpt::around(self, key),
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

    /// Marks the node of `key` as played (creating it); true when it was new.
    fn mark_played(&mut self, key: Board) -> bool {
        match self.nodes.get_mut(&key) {
            Some(n) => {
                n.games = (n.games + 1).min(MAX_GAMES);
                if !n.is_played() {
                    // A leaf that is now played: it needs its own best unplayed move.
                    n.kind = NodeKind::UnsolvedBranch;
                }
                false
            }
            None => {
                let mut n = Node::played();
                n.games = 1;
                self.nodes.insert(key, n);
                true
            }
        }
    }

    /// The book moves of a stored position: moves whose successor ends the game or is stored
    /// and valued, with their values for the side to move; and the mask of those moves.
    pub fn book_moves(&self, key: &Board) -> (Vec<(u8, i32, bool)>, u64) {
        let mut out = Vec::new();
        let mut mask = 0u64;
        for sq in Squares(key.legal_moves()) {
            match self.successor(key, sq) {
                Successor::Terminal(v) => {
                    out.push((sq.index() as u8, v, true));
                    mask |= sq.bit();
                }
                Successor::Position { key: c, same_mover } => {
                    if let Some(n) = self.nodes.get(&c) {
                        if n.is_valued() {
                            let exact = n.kind == NodeKind::Solved;
                            out.push((sq.index() as u8, Self::through(n, same_mover), exact));
                        }
                        // An unvalued played child is still a book move: never a deviation.
                        mask |= sq.bit();
                    }
                }
                Successor::TooFew => {}
            }
        }
        (out, mask)
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

    /// The record of a stored node, with its best book moves (the deviation excluded).
    pub fn record(&self, key: &Board, node: &Node) -> Record {
        let (mut moves, _) = self.book_moves(key);
        if let Deviation::Move { sq, .. } = node.deviation {
            moves.retain(|m| m.0 != sq);
        }
        moves.sort_by_key(|m| (-m.1, m.0));
        let mut children = [None; STORED_CHILDREN];
        for (c, m) in children.iter_mut().zip(&moves) {
            *c = Some((m.0, m.1 as i8));
        }
        Record {
            key: *key,
            kind: node.kind,
            value: node.value,
            depth: node.depth,
            deviation: node.deviation,
            weight: node.weight,
            games: node.games,
            children,
        }
    }

    /// Every record, sorted by key.
    pub fn records(&self) -> Vec<Record> {
        self.sorted_nodes()
            .iter()
            .map(|(k, n)| self.record(k, n))
            .collect()
    }

    /// A builder holding `records` (as read from a file).
    pub fn from_records(info: BookInfo, records: impl IntoIterator<Item = Record>) -> BookBuilder {
        let mut b = BookBuilder {
            nodes: HashMap::new(),
            info,
            origin: Origin::Fresh,
            stale: HashSet::new(),
        };
        for r in records {
            b.nodes.insert(
                r.key,
                Node {
                    kind: r.kind,
                    value: r.value,
                    depth: r.depth,
                    deviation: r.deviation,
                    weight: r.weight,
                    games: r.games,
                },
            );
        }
        b
    }
}

impl BookBuilder {
    /// The book at `path` in memory, or an empty book when there is no such file.
    pub fn load_or_new(path: &std::path::Path, min_empties: u8) -> Result<BookBuilder, BookError> {
        if !path.exists() {
            let mut b = BookBuilder::new(min_empties);
            b.origin = Origin::Read(None);
            return Ok(b);
        }
        BookBuilder::from_book(&Book::open(path, Verify::Full)?)
    }

    /// The records of an open book, in memory.
    pub fn from_book(book: &Book) -> Result<BookBuilder, BookError> {
        let records: Result<Vec<Record>, _> = book.records().collect();
        let records = records.map_err(|e| BookError::Corrupt {
            path: book.name().to_string(),
            msg: format!("damaged record: {e}"),
        })?;
        let mut b = BookBuilder::from_records(book.info().clone(), records);
        b.origin = Origin::Read(Some(book.version()));
        Ok(b)
    }

    /// Where the contents came from (see [`Origin`]).
    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// Publishes the book at `path` atomically (engines that have the old file mapped keep
    /// it; the next open sees the new one). Writers of one file take turns (a lock file
    /// beside it), and a book read from the file first takes in what another writer
    /// published since ([`BookBuilder::merge_from`]), so no writer's positions are lost.
    pub fn publish(&mut self, path: &std::path::Path) -> Result<(), BookError> {
        let lock = super::lock::BookLock::acquire(path)?;
        self.publish_locked(path, &lock)
    }

    /// [`BookBuilder::publish`] for a caller that holds the file's lock already.
    pub fn publish_locked(
        &mut self,
        path: &std::path::Path,
        _lock: &super::lock::BookLock,
    ) -> Result<(), BookError> {
        if let Origin::Read(seen) = self.origin {
            let now = super::lock::published_version(path)?;
            if now.is_some() && now != seen {
                let theirs = BookBuilder::load_or_new(path, self.info.min_empties)?;
                tracing::info!(
                    "{}: another writer published since it was read; merging",
                    path.display()
                );
                self.merge_from(&theirs);
            }
        }
        self.info.level = self.level();
        self.info.weighted = self.nodes.values().any(|n| n.weight != DEFAULT_WEIGHT);
        self.info.created = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let version = write_book(path, &self.info, &self.records())?;
        self.origin = Origin::Read(Some(version));
        Ok(())
    }

    /// Takes in the positions of `theirs` (another version of the same book): positions only
    /// they hold are added, a position they played and we hold as a leaf becomes played with
    /// their valuation, a valuation we lack is taken from theirs, game counts keep the
    /// larger; then every value is negamaxed again. Positions are never lost, but games that
    /// both writers counted through one position count once (learning replays its game on
    /// the published version instead: [`super::store::learn_game`]).
    pub fn merge_from(&mut self, theirs: &BookBuilder) {
        for (key, t) in &theirs.nodes {
            match self.nodes.get_mut(key) {
                None => {
                    self.nodes.insert(*key, *t);
                }
                Some(m) => {
                    let games = m.games.max(t.games);
                    if t.is_played() && !m.is_played() {
                        *m = Node {
                            weight: m.weight,
                            ..*t
                        };
                    } else if m.is_played()
                        && m.deviation == Deviation::NotComputed
                        && t.deviation != Deviation::NotComputed
                    {
                        m.deviation = t.deviation;
                    }
                    m.games = games;
                }
            }
        }
        self.negamax_all();
    }

    /// Takes the searches of `other` (a version of this book that was valued apart) where
    /// this one lacks them: positions it does not hold, and best moves outside the book of
    /// played positions not yet valued. A later sweep searches only what is still missing
    /// (e.g. a deviation that now leads into the book).
    pub fn adopt_valuations(&mut self, other: &BookBuilder) {
        for (key, o) in &other.nodes {
            match self.nodes.get_mut(key) {
                None => {
                    self.nodes.insert(*key, *o);
                }
                Some(n) => {
                    if n.is_played()
                        && n.deviation == Deviation::NotComputed
                        && o.deviation != Deviation::NotComputed
                    {
                        n.deviation = o.deviation;
                    }
                }
            }
        }
    }
}

impl BookLookup for BookBuilder {
    fn min_empties(&self) -> u32 {
        self.info.min_empties as u32
    }

    fn lookup(&self, board: &Board) -> Option<BookHit> {
        let (key, sym) = board.canonical();
        let n = self.nodes.get(&key)?;
        if !n.is_valued() {
            return None;
        }
        let best = match n.deviation {
            Deviation::Move { sq, value, .. } if value == n.value => {
                Some(sym.inverse().apply_square(Square::from_index(sq as u32)))
            }
            _ => None,
        };
        Some(BookHit {
            value: n.value as i32,
            depth: n.depth as u32,
            solved: n.kind == NodeKind::Solved,
            best,
        })
    }
}
