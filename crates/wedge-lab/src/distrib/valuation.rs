//! The book-valuation unit: book positions to value, each with the moves it may choose among,
//! whether it is solved, and the part of the book its search sees ([`BookExcerpt`]), plus the
//! depth, selectivity, table size and the evaluation's checksums; its result, the valuations in
//! the same order; and [`ValuationUnit::run`], the pure function from one to the other. A unit's
//! result depends on nothing else, so any worker (or a local thread) gives the same bytes.

use super::exchange::KeyedUnit;
use super::message::{finished, invalid, open, open_result, read_board, truncated, MessageError};
use std::sync::Arc;
use wedge_core::board::{Board, Square};
use wedge_core::book::{
    BookExcerpt, BookHit, LevelValuer, LocalThreads, Valuation, ValuationRequest,
};
use wedge_core::eval::Evaluator;
use wedge_core::framing::{Reader, Truncated, Writer};
use wedge_core::search::{ProbCutModel, SearchValuer, Selectivity};
use wedge_engine::EngineBuilder;

/// The unit message's first bytes.
pub const MAGIC: [u8; 8] = *b"WEDGEVU1";
/// The result message's first bytes.
pub const RESULT_MAGIC: [u8; 8] = *b"WEDGEVR1";
/// The format of both messages.
pub const VERSION: u32 = 1;
/// Most positions in one unit.
pub const MAX_ITEMS: usize = 4096;
/// Most book positions in one excerpt.
pub const MAX_HITS: usize = 1 << 16;
/// Largest table a unit may ask for, MB.
pub const MAX_TABLE_MB: u32 = 1024;

/// Book positions to value with one evaluation and one search setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValuationUnit {
    pub depth: u8,
    pub selectivity: Selectivity,
    /// Transposition table of the searches, MB (emptied before each).
    pub table_mb: u32,
    pub weights_checksum: u64,
    /// The ProbCut model's checksum; 0 for none (no pruning in the solves' selective passes).
    pub probcut_checksum: u64,
    pub items: Vec<ValuationRequest>,
}

fn write_hit(w: &mut Writer, board: &Board, hit: &BookHit) {
    w.u64(board.player);
    w.u64(board.opponent);
    w.u8(hit.value.clamp(-64, 64) as i8 as u8);
    w.u8(hit.depth.min(60) as u8);
    w.u8(u8::from(hit.solved) | (u8::from(hit.best.is_some()) << 1));
    w.u8(hit.best.map_or(0, |s| s.index() as u8));
}

/// One book entry of an excerpt; `t` names a truncation.
fn read_hit(
    r: &mut Reader<'_>,
    t: &impl Fn(Truncated) -> MessageError,
) -> Result<(Board, BookHit), MessageError> {
    let board = read_board(r).map_err(t)?;
    let mut byte = || r.u8().map_err(t);
    let (value, depth, flags, best) = (byte()? as i8 as i32, byte()?, byte()?, byte()?);
    let Some(board) = board else {
        return Err(invalid("a book position with overlapping discs"));
    };
    if !(-64..=64).contains(&value) || depth > 60 || flags > 3 || best > 63 {
        return Err(invalid(format!(
            "a book entry out of range (value {value}, depth {depth}, flags {flags}, move {best})"
        )));
    }
    let hit = BookHit {
        value,
        depth: u32::from(depth),
        solved: flags & 1 != 0,
        best: (flags & 2 != 0).then(|| Square::from_index(u32::from(best))),
    };
    Ok((board, hit))
}

impl ValuationUnit {
    /// The message's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(&MAGIC, VERSION, 64 + self.items.len() * 64);
        w.u8(self.depth);
        w.u8(self.selectivity.0);
        w.u32(self.table_mb);
        w.u64(self.weights_checksum);
        w.u64(self.probcut_checksum);
        w.u32(self.items.len() as u32);
        for item in &self.items {
            w.u64(item.board.player);
            w.u64(item.board.opponent);
            w.u64(item.allowed);
            w.u8(u8::from(item.exact));
            let (min_empties, hits) = item.excerpt.parts();
            w.u8(min_empties.min(60) as u8);
            w.u32(hits.len() as u32);
            for (board, hit) in hits {
                write_hit(&mut w, board, hit);
            }
        }
        w.finish()
    }

    /// Parses and validates a message: framing, then every field's range.
    pub fn from_bytes(bytes: &[u8]) -> Result<ValuationUnit, MessageError> {
        let mut r = open(bytes, &MAGIC, VERSION)?;
        let t = truncated(bytes);
        let depth = r.u8().map_err(&t)?;
        let selectivity = r.u8().map_err(&t)?;
        let table_mb = r.u32().map_err(&t)?;
        let weights_checksum = r.u64().map_err(&t)?;
        let probcut_checksum = r.u64().map_err(&t)?;
        let count = r.u32().map_err(&t)? as usize;
        if !(1..=60).contains(&depth) {
            return Err(invalid(format!("depth {depth} (1-60)")));
        }
        if selectivity > Selectivity::MAX.0 {
            return Err(invalid(format!("selectivity level {selectivity}")));
        }
        if !(1..=MAX_TABLE_MB).contains(&table_mb) {
            return Err(invalid(format!("a table of {table_mb} MB")));
        }
        if count == 0 || count > MAX_ITEMS {
            return Err(invalid(format!("{count} positions (1-{MAX_ITEMS})")));
        }
        let mut items = Vec::with_capacity(count);
        for i in 0..count {
            let board = read_board(&mut r).map_err(&t)?;
            let allowed = r.u64().map_err(&t)?;
            let exact = r.u8().map_err(&t)?;
            let min_empties = r.u8().map_err(&t)?;
            let n_hits = r.u32().map_err(&t)? as usize;
            let Some(board) = board else {
                return Err(invalid(format!("position {i}: overlapping discs")));
            };
            if allowed == 0 || allowed & !board.legal_moves() != 0 || exact > 1 {
                return Err(invalid(format!("position {i}: allowed moves not legal")));
            }
            if n_hits > MAX_HITS || n_hits * 20 > r.remaining() {
                return Err(invalid(format!("position {i}: {n_hits} book entries")));
            }
            let mut hits = Vec::with_capacity(n_hits);
            for _ in 0..n_hits {
                hits.push(read_hit(&mut r, &t)?);
            }
            items.push(ValuationRequest {
                board,
                allowed,
                exact: exact == 1,
                excerpt: BookExcerpt::from_parts(u32::from(min_empties), hits),
            });
        }
        finished(&r)?;
        Ok(ValuationUnit {
            depth,
            selectivity: Selectivity(selectivity),
            table_mb,
            weights_checksum,
            probcut_checksum,
            items,
        })
    }

    /// Values every position with `eval` (and `probcut`, when the unit names one): one search
    /// each from an empty table, on the calling thread.
    pub fn run<E: Evaluator>(
        &self,
        eval: Arc<E>,
        probcut: Option<Arc<ProbCutModel>>,
    ) -> Vec<Option<Valuation>> {
        self.run_on(eval, probcut, 1)
    }

    /// [`ValuationUnit::run`] on `threads` threads (the same valuations: each is a function of
    /// its position alone).
    pub fn run_on<E: Evaluator>(
        &self,
        eval: Arc<E>,
        probcut: Option<Arc<ProbCutModel>>,
        threads: usize,
    ) -> Vec<Option<Valuation>> {
        let make = || {
            let searcher = EngineBuilder::of_size(self.table_mb as usize, 1)
                .searcher_with(eval.clone(), probcut.clone());
            SearchValuer::new(searcher, u32::from(self.depth), self.selectivity)
        };
        let mut local = LocalThreads {
            make: &make,
            threads,
        };
        local.value_level(&self.items, &|| {})
    }
}

impl KeyedUnit for ValuationUnit {
    type Answer = Vec<Option<Valuation>>;
    type Error = MessageError;
    const KIND: &'static str = "valuation";
    const UNITS_SUBJECT: &'static str = "wedge.units.valuation";
    const RESULTS_PREFIX: &'static str = "wedge.results.valuation.";

    fn to_bytes(&self) -> Vec<u8> {
        ValuationUnit::to_bytes(self)
    }

    fn answer(&self, bytes: &[u8]) -> Result<Self::Answer, MessageError> {
        result_from_bytes(bytes, self)
    }
}

/// The result message of the unit with `key`: its valuations in order.
pub fn result_to_bytes(key: u64, valuations: &[Option<Valuation>]) -> Vec<u8> {
    let mut w = Writer::new(&RESULT_MAGIC, VERSION, 32 + valuations.len() * 8);
    w.u64(key);
    w.u32(valuations.len() as u32);
    for v in valuations {
        match v {
            None => w.u8(0),
            Some(v) => {
                w.u8(1 | (u8::from(v.exact) << 1));
                w.u8(v.sq.index() as u8);
                w.u8(v.value.clamp(-64, 64) as i8 as u8);
                w.u8(v.depth);
            }
        }
    }
    w.finish()
}

/// Parses a result message and checks it answers the unit `unit` (its key and its count).
pub fn result_from_bytes(
    bytes: &[u8],
    unit: &ValuationUnit,
) -> Result<Vec<Option<Valuation>>, MessageError> {
    let mut r = open_result(bytes, &RESULT_MAGIC, VERSION, unit.key_value())?;
    let t = truncated(bytes);
    let count = r.u32().map_err(&t)? as usize;
    if count != unit.items.len() {
        return Err(invalid(format!(
            "{count} valuations for {} positions",
            unit.items.len()
        )));
    }
    let mut out = Vec::with_capacity(count);
    for (i, item) in unit.items.iter().enumerate() {
        let flags = r.u8().map_err(&t)?;
        if flags == 0 {
            out.push(None);
            continue;
        }
        let (sq, value, depth) = (
            r.u8().map_err(&t)?,
            r.u8().map_err(&t)? as i8,
            r.u8().map_err(&t)?,
        );
        if flags > 3
            || sq > 63
            || item.allowed & (1u64 << sq) == 0
            || !(-64..=64).contains(&value)
            || depth > 60
        {
            return Err(invalid(format!("valuation {i} out of range")));
        }
        out.push(Some(Valuation {
            sq: Square::from_index(u32::from(sq)),
            value: i32::from(value),
            depth,
            exact: flags & 2 != 0,
        }));
    }
    finished(&r)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wedge_core::book::{BookBuilder, BookLookup, Valuer};
    use wedge_core::eval::Heuristic;
    use wedge_core::rng::Rng;
    use wedge_core::search::Searcher;

    /// A small book valued by real depth-2 searches, and units of its played positions.
    fn sample() -> (BookBuilder, ValuationUnit) {
        let mut rng = Rng::new(9);
        let mut book = BookBuilder::new(48);
        for _ in 0..20 {
            let (mut b, mut moves) = (Board::START, Vec::new());
            while moves.len() < 10 {
                let Some(m) = b.random_move(&mut rng) else {
                    break;
                };
                b = b.apply(m).unwrap();
                moves.push(m);
            }
            book.add_game(&moves).unwrap();
        }
        let make = || {
            SearchValuer::new(
                Searcher::new(Arc::new(Heuristic), 1, 1),
                2,
                Selectivity::NONE,
            )
        };
        book.sweep(Some(&make), 1, &|_, _| {});
        let items = book
            .sorted_nodes()
            .into_iter()
            .filter(|(_, n)| n.is_played())
            .take(12)
            .map(|(board, _)| ValuationRequest {
                board,
                allowed: board.legal_moves(),
                exact: false,
                excerpt: BookExcerpt::around(&book, &board),
            })
            .collect();
        let unit = ValuationUnit {
            depth: 4,
            selectivity: Selectivity::NONE,
            table_mb: 1,
            weights_checksum: 7,
            probcut_checksum: 0,
            items,
        };
        (book, unit)
    }

    #[test]
    fn a_valuation_unit_round_trips_and_refuses_damage() {
        let (_, unit) = sample();
        assert_eq!(unit.items.len(), 12);
        assert!(unit.items.iter().any(|it| it.excerpt.parts().1.len() > 1));
        let bytes = unit.to_bytes();
        assert_eq!(ValuationUnit::from_bytes(&bytes), Ok(unit.clone()));
        for i in (0..bytes.len()).step_by(7) {
            let mut bad = bytes.clone();
            bad[i] ^= 0x20;
            assert!(ValuationUnit::from_bytes(&bad).is_err(), "byte {i}");
        }
        assert!(matches!(
            ValuationUnit::from_bytes(b"WEDGEWU1 a self-play unit, not this"),
            Err(MessageError::BadMagic { .. })
        ));
        assert!(ValuationUnit::from_bytes(&bytes[..bytes.len() - 9]).is_err());
        // Valid framing, invalid fields.
        let no_items = ValuationUnit {
            items: vec![],
            ..unit.clone()
        };
        assert_eq!(
            ValuationUnit::from_bytes(&no_items.to_bytes()),
            Err(invalid("0 positions (1-4096)"))
        );
        let mut illegal = unit.clone();
        illegal.items[0].allowed = !illegal.items[0].board.legal_moves();
        assert!(ValuationUnit::from_bytes(&illegal.to_bytes())
            .unwrap_err()
            .to_string()
            .contains("allowed moves not legal"));
        let deep = ValuationUnit { depth: 61, ..unit };
        assert_eq!(
            ValuationUnit::from_bytes(&deep.to_bytes()),
            Err(invalid("depth 61 (1-60)"))
        );
    }

    #[test]
    fn a_unit_values_as_the_builder_does_with_the_whole_book() {
        let (book, unit) = sample();
        let unit = ValuationUnit::from_bytes(&unit.to_bytes()).unwrap();
        let got = unit.run(Arc::new(Heuristic), None);
        let mut local = SearchValuer::new(
            Searcher::new(Arc::new(Heuristic), 1, 1),
            4,
            Selectivity::NONE,
        );
        let mut valued = 0;
        for (item, v) in unit.items.iter().zip(&got) {
            let whole: &dyn BookLookup = &book;
            assert_eq!(
                *v,
                local.best_of(&item.board, item.allowed, item.exact, whole)
            );
            valued += usize::from(v.is_some());
        }
        assert!(valued >= 10, "{valued}");
        assert_eq!(unit.run_on(Arc::new(Heuristic), None, 3), got);
        // The result message round-trips for its unit and no other.
        let key = unit.key_value();
        let bytes = result_to_bytes(key, &got);
        assert_eq!(result_from_bytes(&bytes, &unit), Ok(got.clone()));
        let other = ValuationUnit {
            depth: 5,
            ..unit.clone()
        };
        assert!(result_from_bytes(&bytes, &other).is_err());
        let mut bad = bytes.clone();
        bad[20] ^= 1;
        assert!(matches!(
            result_from_bytes(&bad, &unit),
            Err(MessageError::Checksum { .. })
        ));
    }
}
