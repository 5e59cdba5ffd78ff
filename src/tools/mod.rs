//! Command-line tools built on the library: perft and the benchmark workloads.

pub mod bench;
pub mod book;
pub mod match_runner;
pub mod perft;
pub mod probcut_fit;
pub mod solve;
pub mod tree;
