//! Command-line tools built on the library: perft, the benchmark workloads, suite solves,
//! matches and the weights gate, the book commands, the ProbCut fit, the tree view and other
//! engines' values for an OBF file, the game review, and the HTML and JSON they write.
//!
//! Each tool is a namespace of its own: the command line calls its entry points by the tool's
//! name (`bench::run_all`, `solve::solve_entries`, `tree::to_html`...), names that would clash
//! or mean less if flattened here (`tree::to_html`, `review_html::to_html`). `html` and `json`,
//! what the tools' pages and reports are written with, are the tools' own; [`Json`] is
//! exported because the review's report is one (`review::run_json`, `review_html::to_html`).

// One namespace per tool (see above); `html` and `json` are private.
pub mod bench;
pub mod book;
#[cfg(test)]
mod book_valuation_tests;
pub mod engine_eval;
pub mod gate;
mod html;
mod json;
pub mod match_runner;
pub mod perft;
pub mod probcut_fit;
pub mod review;
pub mod review_html;
pub mod solve;
pub mod tree;

pub use json::Json;
