//! `wedge` (the console), `wedge console`, `wedge nboard`, `wedge gtp`: a protocol session on
//! stdin/stdout with the engine worker; logs go to stderr.

use super::{CliError, Common};
use clap::Args;
use wedge_engine::protocol::{console::Console, gtp::Gtp, nboard::Nboard, Protocol};
use wedge_engine::EngineBuilder;

/// `wedge console`.
#[derive(Args)]
pub struct ConsoleArgs {
    /// Search depth for think/play.
    #[arg(long, default_value_t = wedge_engine::protocol::console::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
}

/// Thinking on the opponent's time, for the protocols that play on a clock.
#[derive(Args)]
pub struct Pondering {
    /// Think on the opponent's time when playing on a clock: after each move, search the
    /// position after the reply the engine expects until the next command comes. It keeps the
    /// engine's threads busy while the opponent thinks: give it only where each engine has
    /// cores of its own.
    #[arg(long)]
    pub ponder: bool,
}

/// `wedge nboard`.
#[derive(Args)]
pub struct NboardArgs {
    #[command(flatten)]
    pub pondering: Pondering,
}

/// `wedge gtp`.
#[derive(Args)]
pub struct GtpArgs {
    /// Midgame depth of `genmove` when no clock is set (`wedge-depth N` changes it).
    #[arg(long, default_value_t = wedge_engine::protocol::gtp::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    #[command(flatten)]
    pub pondering: Pondering,
}

/// The console at `depth` (none: its default depth).
pub fn run_console(common: &Common, args: Option<&ConsoleArgs>) -> Result<(), CliError> {
    let depth = args.map_or(wedge_engine::protocol::console::DEFAULT_DEPTH, |a| a.depth);
    run_protocol(common, Console::new(depth), false)
}

pub fn run_nboard(common: &Common, args: &NboardArgs) -> Result<(), CliError> {
    run_protocol(common, Nboard::new(), args.pondering.ponder)
}

pub fn run_gtp(common: &Common, args: &GtpArgs) -> Result<(), CliError> {
    run_protocol(common, Gtp::new(args.depth), args.pondering.ponder)
}

/// Runs `proto` with the engine the options describe, on every core unless `--threads` says,
/// pondering when asked; what can be checked before the engine thread starts (table size,
/// files) fails here, before anything is answered.
fn run_protocol<P: Protocol>(common: &Common, proto: P, ponder: bool) -> Result<(), CliError> {
    let builder = common.builder().with_threads(common.play_threads());
    let make_engine = EngineBuilder { ponder, ..builder }.engine_factory()?;
    Ok(wedge_engine::protocol::serve(proto, make_engine)?)
}
