//! `wedge worker`: plays the units of a NATS JetStream queue (see `wedge::distrib`).

use super::{CliError, Common};
use crate::distrib::worker::{self, WorkerOptions};
use std::path::PathBuf;

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
            .unwrap_or_else(crate::distrib::files::default_cache_dir),
        name: args.name.clone().unwrap_or_else(worker::default_name),
        max_units: args.max_units,
    };
    let rt = crate::distrib::runtime()?;
    let result = rt.block_on(worker::run(&opts));
    // A unit released on a second signal may still be playing on a blocking thread.
    rt.shutdown_background();
    result?;
    Ok(())
}
