//! `wedge selfplay`: the run its arguments ask for (`wedge_lab::train::selfplay`), played on
//! local threads or, with `--queue URL`, on the workers of a queue (`wedge_lab::distrib`).

use super::{CliError, Common};
use wedge_lab::distrib::run_selfplay_on_queue;
use wedge_lab::train::selfplay::{prepare, SelfplayArgs};

pub fn run(common: &Common, args: &SelfplayArgs) -> Result<(), CliError> {
    let Some(run) = prepare(args, &common.builder())? else {
        return Ok(());
    };
    let start = std::time::Instant::now();
    let summary = match &args.queue {
        Some(url) => run_selfplay_on_queue(url, &run)?,
        None => run.play()?,
    };
    println!(
        "{}",
        run.summary_line(&summary, start.elapsed().as_secs_f64())
    );
    Ok(())
}
