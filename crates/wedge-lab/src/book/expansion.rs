//! Drop-out expansion (Lincke, in Fuego's form: one formula for both sides, a transposition is
//! one node, priorities refreshed over the whole DAG): expansion priorities, the descent to the
//! most urgent leaf, its expansion, and the propagation of values and priorities back up.
//!
//! In this book every played position keeps exactly one searched deviation (its best move
//! outside the book, stored as a leaf), so a node's children are its book moves plus that
//! leaf. Expanding a leaf makes it played (its own best reply is searched and stored); its
//! parent then searches its next-best move outside the book, which widens the parent one move
//! at a time in order of value: progressive widening that follows the search.

use std::collections::HashMap;
use wedge_core::board::{Board, Square, Squares};
use wedge_core::book::NodeKind;
use wedge_core::book::{BookBuilder, LevelValuer, LocalThreads, Successor, SweepStats, Valuer};

/// Expansion parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DropOut {
    /// Cost, in plies of depth, of each disc a move is worse than the best (Lincke's alpha).
    pub alpha: f64,
    /// At most this many children (the best by value) are considered below each node.
    pub width: usize,
    /// The position the book grows from (canonical key).
    pub root: Board,
}

impl DropOut {
    pub fn new(alpha: f64, width: usize) -> DropOut {
        DropOut {
            alpha,
            width: width.max(1),
            root: Board::START.canonical().0,
        }
    }
}

/// Nothing below can be expanded.
pub const EXHAUSTED: f64 = f64::INFINITY;

/// Priorities of the nodes (smaller = expand sooner); nodes absent from the map are fresh
/// leaves (priority 0).
pub type Priorities = HashMap<Board, f64>;

/// The stored children of a played node: (move, child key, value for the node's side to move),
/// best first, at most `width`.
pub fn children(book: &BookBuilder, key: &Board, width: usize) -> Vec<(Square, Board, i32)> {
    let mut out = Vec::new();
    for sq in Squares(key.legal_moves()) {
        if let Successor::Position { key: c, same_mover } = book.successor(key, sq) {
            if let Some(n) = book.node(&c).filter(|n| n.is_valued()) {
                let v = if same_mover {
                    n.value as i32
                } else {
                    -(n.value as i32)
                };
                out.push((sq, c, v));
            }
        }
    }
    out.sort_by_key(|c| (-c.2, c.0.index()));
    out.truncate(width);
    out
}

/// A node's priority from its children's (Lincke's formula with Fuego's sign): the minimum
/// over children of `child priority + alpha * (value - child value) + 1`; also the child
/// that gives it. Leaves are 0, solved positions and childless played ones exhausted.
pub fn priority(
    book: &BookBuilder,
    key: &Board,
    prio: &Priorities,
    doe: &DropOut,
) -> (f64, Option<Board>) {
    let Some(node) = book.node(key) else {
        return (0.0, None);
    };
    if node.kind == NodeKind::Solved {
        return (EXHAUSTED, None);
    }
    if !node.is_played() {
        return (0.0, None);
    }
    let v = node.value as i32;
    let mut best = (EXHAUSTED, None);
    for (_, c, cv) in children(book, key, doe.width) {
        let p = prio.get(&c).copied().unwrap_or(0.0);
        let contribution = p + doe.alpha * (v - cv).max(0) as f64 + 1.0;
        if contribution < best.0 {
            best = (contribution, Some(c));
        }
    }
    best
}

/// Fuego's Refresh: values negamaxed from the leaves, then every priority recomputed bottom-up
/// over the DAG reachable from the root.
pub fn refresh(book: &mut BookBuilder, doe: &DropOut) -> Priorities {
    book.negamax_all();
    let mut prio = Priorities::new();
    let mut order: Vec<Board> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![doe.root];
    while let Some(k) = stack.pop() {
        if !seen.insert(k) || book.node(&k).is_none() {
            continue;
        }
        order.push(k);
        if book.node(&k).is_some_and(|n| n.is_played()) {
            stack.extend(children(book, &k, doe.width).into_iter().map(|c| c.1));
        }
    }
    // Children have fewer empties than their parents: fewest empties first is bottom-up.
    order.sort_unstable_by_key(|k| (k.empty_count(), *k));
    for k in order {
        let (p, _) = priority(book, &k, &prio, doe);
        prio.insert(k, p);
    }
    prio
}

/// What one expansion did.
#[derive(Clone, Debug, PartialEq)]
pub struct Expansion {
    /// The leaf expanded.
    pub leaf: Board,
    /// Plies from the root to it.
    pub depth: usize,
    pub stats: SweepStats,
}

/// The path from the root to the most urgent leaf (the leaf last), or `None` when nothing
/// is left to expand.
fn descend(book: &BookBuilder, prio: &Priorities, doe: &DropOut) -> Option<Vec<Board>> {
    let mut path = vec![doe.root];
    loop {
        let key = *path.last().expect("non-empty");
        match book.node(&key) {
            Some(n) if n.is_played() => {}
            Some(n) if n.kind == NodeKind::Solved && key != doe.root => return None,
            _ => return Some(path),
        }
        let (p, next) = priority(book, &key, prio, doe);
        match next {
            Some(c) if p < EXHAUSTED => path.push(c),
            _ => return None,
        }
    }
}

/// One expansion: descend from the root to the most urgent leaf, make it played (its best
/// reply is searched and stored as a new leaf), re-search the deviations the expansion made
/// stale on the way back, and update values and priorities along the path. `None` when
/// nothing is left to expand.
pub fn expand_once<V: Valuer>(
    book: &mut BookBuilder,
    prio: &mut Priorities,
    doe: &DropOut,
    valuer: &mut V,
) -> Option<Expansion> {
    let mut stats = SweepStats::default();
    let path = descend(book, prio, doe)?;
    let leaf = *path.last().expect("non-empty");
    book.make_played(&leaf);
    for key in path.iter().rev() {
        book.value_node(key, valuer, &mut stats);
        let (p, _) = priority(book, key, prio, doe);
        prio.insert(*key, p);
    }
    Some(Expansion {
        leaf,
        depth: path.len() - 1,
        stats,
    })
}

/// Up to `batch` expansions at once, for several threads: the most urgent leaves are chosen
/// one after the other (each chosen leaf is set aside, so the next descent looks elsewhere),
/// made played together, and every search this needs runs on `threads` threads; then values
/// and priorities are recomputed over the whole book. Returns the leaves expanded (0 when
/// nothing is left).
pub fn expand_batch<V: Valuer>(
    book: &mut BookBuilder,
    prio: &mut Priorities,
    doe: &DropOut,
    make_valuer: &(dyn Fn() -> V + Sync),
    threads: usize,
    batch: usize,
) -> usize {
    let mut local = LocalThreads {
        make: make_valuer,
        threads,
    };
    expand_batch_with(book, prio, doe, &mut local, batch)
}

/// [`expand_batch`] with the valuations made by `level` (local threads, or workers elsewhere).
pub fn expand_batch_with(
    book: &mut BookBuilder,
    prio: &mut Priorities,
    doe: &DropOut,
    level: &mut dyn LevelValuer,
    batch: usize,
) -> usize {
    let mut chosen: Vec<Board> = Vec::new();
    for _ in 0..batch.max(1) {
        let Some(path) = descend(book, prio, doe) else {
            break;
        };
        let leaf = *path.last().expect("non-empty");
        if chosen.contains(&leaf) {
            break;
        }
        chosen.push(leaf);
        // Set the leaf aside and let its ancestors' priorities show it.
        prio.insert(leaf, EXHAUSTED);
        for key in path.iter().rev().skip(1) {
            let (p, _) = priority(book, key, prio, doe);
            prio.insert(*key, p);
        }
    }
    for leaf in &chosen {
        book.make_played(leaf);
    }
    if !chosen.is_empty() {
        book.sweep_with(Some(level), &|_, _| {});
    }
    *prio = refresh(book, doe);
    chosen.len()
}

/// Played positions in the DAG below `key` (itself included): the expansions made under it,
/// since each expansion makes exactly one position played.
pub fn expansions_below(book: &BookBuilder, key: &Board) -> usize {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![*key];
    let mut count = 0;
    while let Some(k) = stack.pop() {
        if !seen.insert(k) {
            continue;
        }
        if book.node(&k).is_some_and(|n| n.is_played()) {
            count += 1;
            stack.extend(children(book, &k, usize::MAX).into_iter().map(|c| c.1));
        }
    }
    count
}

/// Fuego's Cover: for every position along each line (from the standard start), expand below
/// it until it has at least `required` expansions (or `required` more when `additive`).
/// Returns the expansions made. Ends with a refresh.
pub fn cover<V: Valuer>(
    book: &mut BookBuilder,
    lines: &[Vec<wedge_core::board::Move>],
    required: usize,
    additive: bool,
    doe: &DropOut,
    valuer: &mut V,
) -> usize {
    let mut made = 0;
    for line in lines {
        let mut board = Board::START;
        for i in 0..=line.len() {
            if let Some((b, _)) = wedge_core::book::normalize(&board) {
                if book.keeps(&b) {
                    let key = b.canonical().0;
                    let at = DropOut { root: key, ..*doe };
                    let have = expansions_below(book, &key);
                    let target = if additive { have + required } else { required };
                    let mut prio = refresh(book, &at);
                    for _ in have..target {
                        if expand_once(book, &mut prio, &at, valuer).is_none() {
                            break;
                        }
                        made += 1;
                    }
                }
            }
            let Some(&mv) = line.get(i) else { break };
            if matches!(mv, wedge_core::board::Move::Play(_)) && board.legal_moves() == 0 {
                board = board.pass();
            }
            match board.apply(mv) {
                Ok(b) => board = b,
                Err(_) => break,
            }
        }
    }
    refresh(book, doe);
    made
}

#[cfg(test)]
mod tests {
    use super::*;
    use wedge_core::board::Move;
    use wedge_core::book::test_valuers::Hashed;

    #[test]
    fn priorities_follow_the_formula_and_refresh_is_idempotent() {
        let mut book = BookBuilder::new(40);
        let doe = DropOut::new(0.5, 4);
        let mut prio = Priorities::new();
        let mut depths = Vec::new();
        for _ in 0..150 {
            let e = expand_once(&mut book, &mut prio, &doe, &mut Hashed::new(13, false))
                .expect("room to grow");
            depths.push(e.depth);
        }
        assert!(depths.iter().max() > Some(&3), "{depths:?}");
        let once = refresh(&mut book, &doe);
        let records = book.records();
        let twice = refresh(&mut book, &doe);
        assert_eq!(once, twice);
        assert_eq!(records, book.records());
        // Each priority equals the formula over its children's priorities.
        for (k, p) in &once {
            let node = book.node(k).unwrap();
            let expected = if node.kind == NodeKind::Solved {
                EXHAUSTED
            } else if !node.is_played() {
                0.0
            } else {
                children(&book, k, doe.width)
                    .iter()
                    .map(|(_, c, cv)| {
                        once.get(c).copied().unwrap_or(0.0)
                            + doe.alpha * (node.value as i32 - cv).max(0) as f64
                            + 1.0
                    })
                    .fold(EXHAUSTED, f64::min)
            };
            assert_eq!(*p, expected);
        }
        // Transpositions share one node: every stored key is canonical and unique.
        for (k, _) in book.sorted_nodes() {
            assert_eq!(k, k.canonical().0);
        }
        // The root's priority after the incremental updates matches the refreshed one.
        assert!(once[&doe.root].is_finite());
    }

    /// Two move orders from the start (at most six plies) that reach one position (not merely symmetric images
    /// of each other): their parents' keys differ, the position's key is one.
    fn transposed_lines() -> (Vec<Move>, Vec<Move>) {
        use std::collections::HashMap;
        let mut seen: HashMap<Board, (Board, Vec<Move>)> = HashMap::new();
        let mut frontier = vec![(Board::START, Vec::new())];
        for _ in 0..6 {
            let mut next = Vec::new();
            for (b, line) in frontier {
                for m in b.moves() {
                    let c = b.apply(m).unwrap();
                    let mut l: Vec<Move> = line.clone();
                    l.push(m);
                    let (key, parent) = (c.canonical().0, b.canonical().0);
                    match seen.get(&key) {
                        Some((p, other)) if *p != parent => return (other.clone(), l),
                        Some(_) => {}
                        None => {
                            seen.insert(key, (parent, l.clone()));
                        }
                    }
                    next.push((c, l));
                }
            }
            frontier = next;
        }
        panic!("no transposition within six plies");
    }

    #[test]
    fn transpositions_share_one_node() {
        let (a, b) = transposed_lines();
        let end = |line: &[Move]| {
            line.iter()
                .fold(Board::START, |x, &m| x.apply(m).unwrap())
                .canonical()
                .0
        };
        let shared = end(&a);
        assert_eq!(shared, end(&b));
        let parent = |line: &[Move]| end(&line[..line.len() - 1]);
        let (pa, pb) = (parent(&a), parent(&b));
        assert_ne!(pa, pb);
        let mut book = BookBuilder::new(40);
        book.add_line(Board::START, &a).unwrap();
        let before = book.len();
        book.add_line(Board::START, &b).unwrap();
        // The second line adds only the positions it does not share with the first.
        let mut keys: Vec<Board> = Vec::new();
        for line in [&a, &b] {
            for n in 0..=line.len() {
                keys.push(end(&line[..n]));
            }
        }
        keys.sort_by_key(|k| (k.player, k.opponent));
        keys.dedup();
        assert_eq!(book.len(), keys.len());
        assert!(book.len() < before + b.len());
        book.sweep(Some(&|| Hashed::new(13, false)), 1, &|_, _| {});
        let doe = DropOut::new(0.5, 8);
        let mut prio = refresh(&mut book, &doe);
        for _ in 0..40 {
            expand_once(&mut book, &mut prio, &doe, &mut Hashed::new(13, false)).unwrap();
        }
        // Both parents reach the one node and see the same value for it.
        let value_from = |p: &Board| {
            children(&book, p, 64)
                .into_iter()
                .find(|c| c.1 == shared)
                .map(|c| c.2)
        };
        let (va, vb) = (value_from(&pa), value_from(&pb));
        assert!(va.is_some(), "{va:?} {vb:?}");
        assert_eq!(va, vb);
        let stored = i32::from(book.node(&shared).unwrap().value);
        assert_eq!(va.unwrap().abs(), stored.abs());
        assert_eq!(
            book.sorted_nodes()
                .iter()
                .filter(|(k, _)| *k == shared)
                .count(),
            1
        );
    }

    #[test]
    fn cover_reaches_the_required_expansion_counts() {
        let mut book = BookBuilder::new(44);
        let doe = DropOut::new(0.5, 4);
        let sq = |s: &str| Move::Play(s.parse().unwrap());
        let lines = vec![
            vec![sq("f5"), sq("d6"), sq("c3"), sq("d3"), sq("c4")],
            vec![sq("f5"), sq("f6"), sq("e6"), sq("f4")],
        ];
        let made = cover(
            &mut book,
            &lines,
            6,
            false,
            &doe,
            &mut Hashed::new(13, false),
        );
        assert!(made > 0);
        let on_lines = |book: &BookBuilder| {
            let mut keys = Vec::new();
            for line in &lines {
                let mut b = Board::START;
                keys.push(b.canonical().0);
                for &m in line {
                    b = b.apply(m).unwrap();
                    keys.push(b.canonical().0);
                }
            }
            keys.into_iter()
                .map(|k| expansions_below(book, &k))
                .collect::<Vec<_>>()
        };
        let counts = on_lines(&book);
        assert!(counts.iter().all(|&c| c >= 6), "{counts:?}");
        // Additive: six more below every position of the lines.
        cover(
            &mut book,
            &lines,
            6,
            true,
            &doe,
            &mut Hashed::new(13, false),
        );
        let after = on_lines(&book);
        for (a, b) in counts.iter().zip(&after) {
            assert!(*b >= a + 6, "{counts:?} -> {after:?}");
        }
    }
}
