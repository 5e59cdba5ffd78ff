//! Wedge's core: the board (bitboards, moves, flips with SIMD and portable twins), the formats
//! (OBF, GGF, WTHOR, transcripts, board strings) and the binary files' framing, the pattern
//! evaluation, the search, and the opening book: reading it, choosing a move from it, and the
//! builder that values, negamaxes, publishes and learns into it. Layers, lowest first: `board`
//! (with `rng`), `framing`, `paths`, `formats`, `eval`, `book`, `search`; each uses only those
//! before it. No async runtime and no network here: the engine and the lab build on this.

pub mod board;
pub mod book;
pub mod eval;
pub mod formats;
pub mod framing;
pub mod paths;
pub mod rng;
pub mod search;

pub use board::{Board, Move, Square, Symmetry};
