//! Wedge's lab: what makes and measures the engine's data, never needed to play. The tools
//! (perft, bench, solve, tree, review, matches, the gate, the ProbCut fit, the book commands),
//! the trainer and self-play (`train`), growing the book (`book`: drop-out expansion,
//! deviation, the forest and text formats) and distributed work over NATS JetStream
//! (`distrib`, the only async network code). Folders, lowest first: `book`, `train`, `tools`,
//! `distrib`; each uses only those before it, the engine and the core.

pub mod book;
pub mod distrib;
pub mod tools;
pub mod train;
