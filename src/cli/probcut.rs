//! `wedge train-probcut`: fit the Multi-ProbCut error model for the evaluation in use.

use super::{CliError, Common};
use clap::Args;
use std::path::PathBuf;

/// `wedge train-probcut`.
#[derive(Args)]
pub struct TrainProbcutArgs {
    /// Directory with the WTHOR `.wtb` files (games before 2017 are used).
    #[arg(long, default_value = "data/wthor")]
    pub games: PathBuf,
    /// Number of sampled positions.
    #[arg(long, default_value_t = 600)]
    pub positions: usize,
    /// Deepest search measured.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(4..=24))]
    pub max_depth: u32,
    /// Output file.
    #[arg(long, default_value = "weights/default.probcut")]
    pub out: PathBuf,
}

/// Fits the model, writes it and prints it.
pub fn run(common: &Common, args: &TrainProbcutArgs) -> Result<(), CliError> {
    let builder = common.builder();
    let model = wedge_lab::tools::probcut_fit::fit_and_write(
        &builder.evaluation()?,
        &builder.evaluation_name(),
        &args.games,
        args.positions,
        args.max_depth,
        builder.threads,
        &args.out,
    )?;
    println!("{}", model.to_text());
    Ok(())
}
