//! Wedge's engine: the worker thread that owns the search (tasks in, events out; the books play
//! opens, its book moves and the games it learns), the [`EngineBuilder`] every command
//! assembles its search with, and the protocols (NBoard, GTP, the human console) over an async
//! stdin front end. It builds on `wedge-core` alone.

mod engine;
pub mod protocol;

pub use engine::*;
