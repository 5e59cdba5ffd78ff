//! `wedge queue`: looking at a NATS JetStream work queue (see `wedge_lab::distrib`).

use super::CliError;

/// `wedge queue` subcommands.
#[derive(clap::Subcommand, Clone, Debug)]
pub enum QueueCommand {
    /// Print the streams, pending units, results waiting, the units terminated (with why) and
    /// the workers seen.
    Status {
        /// The queue: nats://HOST:PORT of a `nats-server -js`.
        #[arg(long, value_name = "URL")]
        queue: String,
    },
}

/// Runs a `wedge queue` subcommand.
pub fn run(command: &QueueCommand) -> Result<(), CliError> {
    match command {
        QueueCommand::Status { queue } => {
            let rt = wedge_lab::distrib::runtime()?;
            print!("{}", rt.block_on(wedge_lab::distrib::queue_status(queue))?);
            Ok(())
        }
    }
}
