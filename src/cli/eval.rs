//! `wedge eval`: the values of the positions of an OBF file, from our evaluation (static or a
//! depth-N search) or from another NBoard engine, and their error against the file's scores.

use super::{CliError, Common};
use clap::Args;
use std::path::PathBuf;
use wedge_engine::BuildError;
use wedge_lab::tools::engine_eval::{evaluate_with_engine, EngineEvalSettings};
use wedge_lab::train::{evaluate_entries, format_error_table, Evaluated};

/// `wedge eval`.
#[derive(Args, Clone, Debug)]
pub struct EvalArgs {
    /// The OBF file.
    pub file: PathBuf,
    /// Search depth (0 = static evaluation; with --engine, the `set depth` sent, at least 1).
    #[arg(long, default_value_t = 0)]
    pub depth: u32,
    /// Print only the error table, not every position.
    #[arg(long)]
    pub summary: bool,
    /// Ask this NBoard engine instead (a command line, e.g. the reference opponents that
    /// ../shared/opponents/build.sh makes): its value of each position at `--depth`.
    #[arg(long, value_name = "COMMAND")]
    pub engine: Option<String>,
    /// With --engine: seconds the engine may take to start, and for each position.
    #[arg(long, default_value_t = 60.0, requires = "engine")]
    pub move_timeout: f64,
}

/// Evaluates every position of the file and prints the values and the error table.
pub fn run(common: &Common, args: &EvalArgs) -> Result<(), CliError> {
    let entries = super::read_obf_entries(&args.file)?;
    let start = std::time::Instant::now();
    let (results, source) = match &args.engine {
        Some(command) => {
            if args.depth == 0 {
                return Err(CliError::Usage(
                    "--engine needs --depth N (N >= 1): NBoard has no static evaluation".into(),
                ));
            }
            let settings = EngineEvalSettings {
                command: command.clone(),
                depth: args.depth,
                timeout: super::matches::seconds(args.move_timeout, "--move-timeout")?,
            };
            let positions: Vec<_> = entries.iter().map(|e| e.position).collect();
            let answers = evaluate_with_engine(&positions, &settings)?;
            if answers.blank > 0 {
                println!(
                    "{} answers had a blank or no value, taken as 0 (NTest leaves out a zero)",
                    answers.blank
                );
            }
            let results = entries
                .iter()
                .zip(answers.values)
                .map(|(e, value)| Evaluated {
                    empties: e.position.board.empty_count(),
                    value,
                    exact: e.best_score(),
                })
                .collect();
            (results, "the engine's value")
        }
        None => {
            let builder = common.builder();
            let eval = builder.evaluation()?;
            let results = evaluate_entries(&entries, &eval, args.depth, builder.hash_mb)
                .map_err(BuildError::hash)?;
            let source = if args.depth == 0 {
                "static evaluation"
            } else {
                "search evaluation"
            };
            (results, source)
        }
    };
    let secs = start.elapsed().as_secs_f64();
    if !args.summary {
        println!("{:>5} {:>7} {:>7} {:>6}", "#", "empties", "eval", "exact");
        for (i, r) in results.iter().enumerate() {
            let exact = r.exact.map_or("-".to_string(), |x| format!("{x:+}"));
            println!(
                "{:>5} {:>7} {:>+7.2} {:>6}",
                i + 1,
                r.empties,
                r.value,
                exact
            );
        }
    }
    println!(
        "{} positions, {source} at depth {}, {secs:.3} s",
        results.len(),
        args.depth,
    );
    if results.iter().any(|r| r.exact.is_some()) {
        print!("{}", format_error_table(&results));
    }
    Ok(())
}
