//! The protocols people and programs speak to Wedge. For now the human console; NBoard and GTP
//! and the asynchronous front end join it here.

pub mod console;
