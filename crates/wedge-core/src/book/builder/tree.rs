//! The book tree: nodes keyed by canonical boards, the moves between them, adding games, and
//! the builder as a [`BookLookup`] for the searches that value its positions.

use crate::board::{Board, IllegalMove, Move, Square, Squares};
use crate::book::file::{BookInfo, Consistency};
use crate::book::lookup::{BookHit, BookLookup};
use crate::book::record::{Deviation, NodeKind, DEFAULT_WEIGHT, MAX_GAMES};
use std::collections::{HashMap, HashSet};

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

/// The book in memory.
#[derive(Clone, Debug)]
pub struct BookBuilder {
    pub(super) nodes: HashMap<Board, Node>,
    pub info: BookInfo,
    pub(super) origin: Origin,
    /// Positions whose searched values the next sweep makes again: played positions' best
    /// moves outside the book, unsolved leaves' values
    /// ([`BookBuilder::mark_searched_values_stale`]). They keep their old values until then.
    pub(super) stale: HashSet<Board>,
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
    pub(super) fn through(node: &Node, same_mover: bool) -> i32 {
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

    /// The square of `node`'s deviation and the stored node it leads to, when there is one.
    pub(super) fn deviation_child(&self, key: &Board, node: &Node) -> Option<(Square, &Node)> {
        let Deviation::Move { sq, .. } = node.deviation else {
            return None;
        };
        let sq = Square::from_index(sq as u32);
        match self.successor(key, sq) {
            Successor::Position { key: c, .. } => self.nodes.get(&c).map(|n| (sq, n)),
            _ => None,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(name: &str) -> Move {
        Move::Play(name.parse().unwrap())
    }

    #[test]
    fn a_game_plays_each_of_its_positions_once_in_canonical_form() {
        let mut b = BookBuilder::new(55);
        // f5 d6 and its mirror image e6 f4 reach the same canonical positions.
        assert_eq!(b.add_game(&[mv("f5"), mv("d6")]).unwrap(), 3);
        assert_eq!(b.add_game(&[mv("e6"), mv("f4")]).unwrap(), 0);
        assert_eq!(b.len(), 3);
        let after = Board::START.apply(mv("f5")).unwrap();
        assert_eq!(b.node_of(&after).unwrap().games, 2);
        assert!(b.node_of(&after).unwrap().is_played());
        // Positions with fewer empties than the book keeps are left out.
        let mut short = BookBuilder::new(59);
        assert_eq!(short.add_game(&[mv("f5"), mv("d6")]).unwrap(), 2);
    }

    #[test]
    fn successors_say_stored_too_few_or_terminal() {
        let mut b = BookBuilder::new(59);
        b.add_game(&[mv("f5")]).unwrap();
        let start = Board::START;
        let f5: Square = "f5".parse().unwrap();
        let Successor::Position { key, same_mover } = b.successor(&start, f5) else {
            panic!("f5 leads to a stored position");
        };
        assert!(!same_mover);
        assert!(b.node(&key).is_some());
        let after = start.play(f5).unwrap();
        let reply = Square::first_of(after.legal_moves()).unwrap();
        assert_eq!(b.successor(&after, reply), Successor::TooFew);
        // A move that ends the game is valued for the side that makes it.
        let last = Board::new(!3, 2);
        let Successor::Terminal(v) = b.successor(&last, Square::from_index(0)) else {
            panic!("the last move ends the game");
        };
        assert_eq!(v, 64);
    }

    #[test]
    fn the_book_moves_of_a_position_are_its_valued_children() {
        let mut b = BookBuilder::new(58);
        b.add_game(&[mv("f5"), mv("d6")]).unwrap();
        let start = Board::START.canonical().0;
        let (moves, mask) = b.book_moves(&start);
        // The child (the same for the four symmetric first moves) is played but not valued
        // yet: each move to it is a book move without a value.
        assert!(moves.is_empty());
        assert_eq!(mask, Board::START.legal_moves());
        let child = Board::START.apply(mv("f5")).unwrap().canonical().0;
        b.insert(&child, Node::leaf(3, 10, false));
        let (moves, _) = b.book_moves(&start);
        assert_eq!(moves.len(), 4);
        assert!(moves.iter().all(|m| (m.1, m.2) == (-3, false)));
    }
}
