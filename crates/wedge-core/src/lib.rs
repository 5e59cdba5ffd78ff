//! Wedge, an Othello engine: board core, formats and tools (search, evaluation, book and the
//! protocol front end are layered on top, each depending only downward).

pub mod board;
pub mod book;
pub mod cli;
pub mod distrib;
pub mod engine;
pub mod formats;
pub mod framing;
pub mod paths;
pub mod protocol;
pub mod rng;
pub mod tools;

pub use board::{Board, Move, Square, Symmetry};
pub mod eval;
pub mod search;
pub mod train;
