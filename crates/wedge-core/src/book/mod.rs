//! The opening book: one immutable, memory-mapped file of canonical positions shared by every
//! engine process (probes give a value and the best replies without move generation), the
//! in-memory builder with Novello's node kinds and consistency levels, game import, and the
//! forest and text interchange formats.

pub mod builder;
pub mod choice;
pub mod excerpt;
pub mod file;
pub mod lock;
pub mod lookup;
pub mod mapped;
pub mod pending;
pub mod probe;
pub mod record;
pub mod set;
pub mod store;

pub use builder::{
    BookBuilder, LevelValuer, LocalThreads, Node, Valuation, ValuationRequest, Valuer,
};
pub use excerpt::BookExcerpt;
pub use file::{Book, BookError, BookInfo, Consistency, Verify};
pub use lookup::{BookHit, BookLookup};
pub use probe::{BookProbe, BookReply};
pub use record::{Deviation, NodeKind, Record, RecordError};
pub use set::{BookSet, BookSource};

#[cfg(any(test, feature = "test-support"))]
pub mod test_valuers;
#[cfg(test)]
mod tests;
