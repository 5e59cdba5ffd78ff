//! The opening book: one immutable, memory-mapped file of canonical positions shared by every
//! engine process (probes give a value and the best replies without move generation), the
//! in-memory builder with Novello's node kinds and consistency levels, game import, and the
//! forest and text interchange formats.

pub mod builder;
pub mod choice;
pub mod deviate;
pub mod excerpt;
pub mod expansion;
pub mod file;
pub mod forest;
pub mod lookup;
pub mod mapped;
pub mod pending;
pub mod play;
pub mod probe;
pub mod record;
pub mod set;
pub mod store;
pub mod text;

pub use builder::{
    BookBuilder, LevelValuer, LocalThreads, Node, Valuation, ValuationRequest, Valuer,
};
pub use excerpt::BookExcerpt;
pub use file::{Book, BookError, BookInfo, Consistency, Verify};
pub use lookup::{BookHit, BookLookup};
pub use probe::{BookProbe, BookReply};
pub use record::{Deviation, NodeKind, Record, RecordError};
pub use set::{BookSet, BookSource};

#[cfg(test)]
pub(crate) mod test_valuers;
#[cfg(test)]
mod tests;
