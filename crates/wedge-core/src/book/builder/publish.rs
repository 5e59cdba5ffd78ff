//! The builder and the book file: records out and in, loading, publishing atomically under the
//! writers' lock (merging what another writer published meanwhile), and taking in another
//! version's valuations.

use super::{BookBuilder, Node, Origin};
use crate::board::Board;
use crate::book::file::{write_book, Book, BookError, BookInfo, Verify};
use crate::book::lock::{published_version, BookLock};
use crate::book::record::{Deviation, Record, DEFAULT_WEIGHT, STORED_CHILDREN};
use std::collections::{HashMap, HashSet};

impl BookBuilder {
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
        let lock = BookLock::acquire(path)?;
        self.publish_locked(path, &lock)
    }

    /// [`BookBuilder::publish`] for a caller that holds the file's lock already.
    pub fn publish_locked(
        &mut self,
        path: &std::path::Path,
        _lock: &BookLock,
    ) -> Result<(), BookError> {
        if let Origin::Read(seen) = self.origin {
            let now = published_version(path)?;
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
    /// the published version instead: [`crate::book::learn_game`]).
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::test_valuers::Hashed;
    use crate::book::Consistency;
    use crate::formats::parse_transcript;

    fn valued(games: &[&str]) -> BookBuilder {
        let mut b = BookBuilder::new(54);
        for g in games {
            b.add_game(&parse_transcript(g).unwrap()).unwrap();
        }
        b.sweep(Some(&|| Hashed::new(21, false)), 1, &|_, _| {});
        b
    }

    #[test]
    fn records_round_trip() {
        let b = valued(&["f5d6c3d3c4", "f5f6e6f4"]);
        let again = BookBuilder::from_records(b.info.clone(), b.records());
        assert_eq!(again.sorted_nodes(), b.sorted_nodes());
        assert_eq!(again.records(), b.records());
    }

    #[test]
    fn a_merge_keeps_both_writers_positions_and_the_larger_game_counts() {
        let mut ours = valued(&["f5d6c3d3c4"]);
        let theirs = valued(&["f5d6c3d3c4", "f5d6c3d3c4", "f5f6e6f4"]);
        ours.merge_from(&theirs);
        for (key, node) in theirs.sorted_nodes() {
            let mine = ours.node(&key).expect("their position is kept");
            assert!(mine.games >= node.games);
        }
        assert!(ours.len() >= theirs.len());
        assert_eq!(ours.level(), Consistency::Negamaxed);
    }

    #[test]
    fn adopted_valuations_fill_only_what_is_missing() {
        let valued_book = valued(&["f5d6c3d3c4"]);
        let mut bare = BookBuilder::new(54);
        bare.add_game(&parse_transcript("f5d6c3d3c4").unwrap())
            .unwrap();
        assert_eq!(bare.level(), Consistency::Consistent);
        bare.adopt_valuations(&valued_book);
        assert_eq!(bare.level(), Consistency::Negamaxed);
        bare.negamax_all();
        assert_eq!(bare.sorted_nodes(), valued_book.sorted_nodes());
    }
}
