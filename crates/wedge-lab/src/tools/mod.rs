//! Command-line tools built on the library: perft, the benchmark workloads, suite solves,
//! matches and the weights gate, the book commands, the ProbCut fit, the tree view and other
//! engines' values for an OBF file, the game review, and the HTML and JSON they write.

pub mod bench;
pub mod book;
#[cfg(test)]
mod book_valuation_tests;
pub mod engine_eval;
pub mod gate;
pub mod html;
pub mod json;
pub mod match_runner;
pub mod perft;
pub mod probcut_fit;
pub mod review;
pub mod review_html;
pub mod solve;
pub mod tree;
