//! Growing and converting the opening book (the book itself, its builder and learning are in
//! `wedge_core::book`): drop-out expansion (`expansion`), Edax's bounded deviation
//! (`deviate`), and the forest and text interchange formats (`forest`, `text`).

mod deviate;
mod expansion;
mod forest;
mod text;

pub use deviate::{deviate, DeviateReport};
pub use expansion::{
    cover, expand_batch, expand_batch_with, expand_once, refresh, DropOut, Priorities,
};
pub use forest::{export_forest, import_forest, ForestError};
pub use text::{export_text, import_text, TextError, TextStats};
