//! The opening book: one immutable, memory-mapped file of canonical positions shared by every
//! engine process (probes give a value and the best replies without move generation), the
//! choice of a book move, the in-memory builder with Novello's node kinds and consistency
//! levels (game import, valuation, negamax, publishing), and learning games into a book file
//! that several processes write in turn (`pending`: the journal of games waiting). Growing the
//! book and its interchange formats are the lab's (`wedge_lab::book`).
//!
//! The modules, in dependency order: `record`, `mapped`, `probe`, `file`, `lookup`, `set`,
//! `excerpt`, `lock`, `builder`, `choice`, `pending`, `store`. Callers use what this file
//! exports.

mod builder;
mod choice;
mod excerpt;
mod file;
mod lock;
mod lookup;
mod mapped;
pub mod pending;
mod probe;
mod record;
mod set;
mod store;

pub use builder::{
    normalize, BookBuilder, LevelValuer, LocalThreads, Node, Origin, Successor, SweepStats,
    Valuation, ValuationRequest, Valuer, DEFAULT_MIN_EMPTIES,
};
pub use choice::{book_children, choose, BookChoice, ChildValue};
pub use excerpt::BookExcerpt;
pub use file::{
    encode_book, write_book, Book, BookError, BookInfo, Consistency, Verify, HEADER_SIZE, VERSION,
};
pub use lock::{published_version, BookLock};
pub use lookup::{BookHit, BookLookup};
pub use probe::{BookProbe, BookReply};
pub use record::{
    Deviation, NodeKind, Record, RecordError, DEFAULT_WEIGHT, MAX_GAMES, RECORD_SIZE,
    STORED_CHILDREN,
};
pub use set::{BookSet, BookSource};
pub use store::{learn_game, LearnError, LearnReport, DEFAULT_LEARN_DEPTH};

#[cfg(any(test, feature = "test-support"))]
pub mod test_valuers;
#[cfg(test)]
mod tests;
