//! Growing and converting the opening book (the book itself, its builder and learning are in
//! `wedge_core::book`): drop-out expansion, Edax's bounded deviation, and the forest and text
//! interchange formats.

pub mod deviate;
pub mod expansion;
pub mod forest;
pub mod text;
