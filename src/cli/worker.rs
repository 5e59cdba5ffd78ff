//! `wedge worker`: plays the units of a NATS JetStream queue (see `wedge_lab::distrib`).

use super::{CliError, Common};
use std::path::PathBuf;
use wedge_lab::distrib::{default_worker_name, run_worker, WorkerOptions};

/// `wedge worker` arguments.
#[derive(clap::Args, Clone, Debug)]
pub struct WorkerArgs {
    /// The queue: nats://HOST:PORT of a `nats-server -js`.
    #[arg(long, value_name = "URL")]
    pub queue: String,
    /// Where fetched weights and ProbCut models are kept (default:
    /// $XDG_CACHE_HOME/wedge/objects, else ~/.cache/wedge/objects).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// This worker's name in heartbeats and results (default: host name and process id).
    #[arg(long)]
    pub name: Option<String>,
    /// Exit after this many units (default: run until SIGTERM or SIGINT).
    #[arg(long, value_name = "N")]
    pub max_units: Option<u64>,
    /// An engine match games may name, and the command that starts it here, e.g.
    /// `--engine ntest="/opt/ntest/ntest x"` (repeat for more). A unit naming an engine this
    /// worker lacks is released for another worker (and terminated after 5 deliveries).
    #[arg(long = "engine", value_name = "NAME=COMMAND", value_parser = parse_engine)]
    pub engines: Vec<(String, String)>,
}

/// `NAME=COMMAND`, the name letters, digits, `-`, `_` or `.`.
fn parse_engine(text: &str) -> Result<(String, String), String> {
    let Some((name, command)) = text.split_once('=') else {
        return Err(format!("expected NAME=COMMAND, got {text:?}"));
    };
    if !wedge_lab::distrib::valid_engine_name(name) {
        return Err(format!(
            "engine name {name:?}: use 1-64 letters, digits, '-', '_' or '.'"
        ));
    }
    if command.trim().is_empty() {
        return Err(format!("engine {name}: empty command"));
    }
    Ok((name.to_string(), command.to_string()))
}

/// Runs `wedge worker` (threads: `--threads`, default all cores).
pub fn run(common: &Common, args: &WorkerArgs) -> Result<(), CliError> {
    let threads = common.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    let opts = WorkerOptions {
        url: args.queue.clone(),
        threads,
        cache: args
            .cache
            .clone()
            .unwrap_or_else(wedge_lab::distrib::default_cache_dir),
        name: args.name.clone().unwrap_or_else(default_worker_name),
        max_units: args.max_units,
        engines: args.engines.clone(),
    };
    let rt = wedge_lab::distrib::runtime()?;
    let result = rt.block_on(run_worker(&opts));
    // A unit released on a second signal may still be playing on a blocking thread.
    rt.shutdown_background();
    result?;
    Ok(())
}
