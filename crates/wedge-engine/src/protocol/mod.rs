//! The protocols people and programs speak to Wedge: NBoard v2, GTP v2 (with the Quarry and
//! GoGui extensions) and the human console, all on one front end. Each protocol is a module
//! (`nboard`, `gtp`, `console`: its session state, parser and defaults); the front end, the
//! driver and the writer are what this file exports.
//!
//! - `frontend`: tokio reads stdin without ever blocking the engine worker, logging setup;
//! - `handler`: the `Protocol` trait and the context (`Ctx`) its handlers use;
//! - `input`: the input lines, and the ones refused as framed;
//! - `job`: the running job and the input that stops it;
//! - `lines`: splitting raw input into bounded lines;
//! - `driver`: the ordered command queue between input, the protocol and the engine worker,
//!   and the one record of the running job;
//! - `output`: the single ordered writer (one flush per message);
//! - `script`: runs a scripted session in-process (the snapshot tests use it);
//! - `nboard`, `gtp`, `console`: one parser (nom) and one session state per protocol;
//! - `text`: formatting shared by the protocols (board drawings, scores).

pub mod console;
mod driver;
mod frontend;
pub mod gtp;
mod handler;
mod input;
mod job;
mod lines;
pub mod nboard;
mod output;
mod script;
mod text;

pub use driver::Driver;
pub use frontend::{init_logging, serve, FrontendError};
pub use handler::{Ctx, Flow, Protocol};
pub use input::{Input, Refused};
pub use job::StopPolicy;
pub use output::{Output, SharedBuffer};
pub use script::run_script;
