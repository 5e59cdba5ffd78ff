//! `wedge openings`: balanced random openings valued by our search, or the most played
//! openings of game records.

use super::{write_file, CliError, Common};
use clap::Args;
use std::path::PathBuf;
use wedge_lab::tools::book::{read_games, GameSet};
use wedge_lab::tools::match_runner::openings;

/// `wedge openings`.
#[derive(Args)]
pub struct OpeningsArgs {
    /// Length of each opening in plies.
    #[arg(long, default_value_t = 8)]
    pub plies: u32,
    /// Keep openings whose value is within this many discs of 0.
    #[arg(long, default_value_t = 2)]
    pub max_abs_eval: i32,
    /// Number of openings.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Depth of the evaluating search.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: u32,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output file (default: stdout).
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// Instead of random balanced openings: the most played openings of these game files
    /// (WTHOR .wtb, GGF, or transcripts one per line), positions reached by transposition or
    /// symmetry counted together; --max-abs-eval, --depth and --seed do not apply.
    #[arg(long = "from-games", num_args = 1..)]
    pub from_games: Vec<PathBuf>,
}

/// Writes the openings asked for.
pub fn run(common: &Common, args: &OpeningsArgs) -> Result<(), CliError> {
    if !args.from_games.is_empty() {
        return run_from_games(args);
    }
    let builder = common.builder();
    let searcher = builder.searcher()?;
    let spec = openings::OpeningSpec {
        plies: args.plies,
        max_abs_eval: args.max_abs_eval,
        count: args.count,
        depth: args.depth,
        seed: args.seed,
        max_tries: args.count.saturating_mul(200).max(1000),
    };
    let found = openings::generate(&searcher, &spec, |n, tries| {
        if n % 50 == 0 {
            eprintln!("{n} openings ({tries} tried)");
        }
    })?;
    let header = format!(
        "Balanced openings made by: wedge openings --plies {} --max-abs-eval {} --count {} --depth {} --seed {}\n\
         (weights {}): random {}-ply openings, symmetric duplicates removed, whose depth-{}\n\
         value is within {} discs of 0. One transcript per line (XOT format).",
        args.plies,
        args.max_abs_eval,
        args.count,
        args.depth,
        args.seed,
        builder.evaluation_name(),
        args.plies,
        args.depth,
        args.max_abs_eval
    );
    let text = openings::format_openings(found.iter().map(|o| &o.game), &header);
    write_openings(args, &text)
}

/// `wedge openings --from-games`: the most played openings of game records.
fn run_from_games(args: &OpeningsArgs) -> Result<(), CliError> {
    let mut set = GameSet::default();
    for path in &args.from_games {
        read_games(path, &mut set)?;
    }
    if let Some(report) = set.skipped_report() {
        eprintln!("{report}");
    }
    let ranked = openings::most_played(&set.games, args.plies as usize, args.count);
    if ranked.is_empty() {
        return Err(CliError::Usage(format!(
            "no game of the {} read is {} plies long",
            set.games.len(),
            args.plies
        )));
    }
    let least = ranked.last().map_or(0, |r| r.1);
    let header = format!(
        "Most played openings made by: wedge openings --from-games <{} files> --plies {} --count {}\n\
         {} games read; the {} positions after {} plies reached by the most games (transpositions\n\
         and symmetric images counted together), from {} games down to {}. One transcript per line.",
        args.from_games.len(),
        args.plies,
        args.count,
        set.games.len(),
        ranked.len(),
        args.plies,
        ranked[0].1,
        least
    );
    let text = openings::format_openings(ranked.iter().map(|r| &r.0), &header);
    write_openings(args, &text)
}

/// The openings to `--out`, else stdout.
fn write_openings(args: &OpeningsArgs, text: &str) -> Result<(), CliError> {
    match &args.out {
        Some(path) => write_file(path, text.as_bytes()),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}
