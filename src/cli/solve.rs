//! `wedge solve`: solve or search every position of an OBF file and check its answers, here
//! or on the workers of a queue.

use super::{CliError, Common};
use clap::Args;
use std::path::PathBuf;
use wedge_core::search::Selectivity;
use wedge_lab::distrib::{solve_on_queue, QueueSolve};
use wedge_lab::tools::solve::{SolveSearch, SolveTable};

/// `wedge solve`.
#[derive(Args)]
pub struct SolveArgs {
    /// The OBF file (one position per line, optional `; move:score` answers).
    pub file: PathBuf,
    /// Midgame search to this depth instead of solving.
    #[arg(long, conflicts_with_all = ["exact", "wld"], value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: Option<u32>,
    /// Exact final score (the default).
    #[arg(long)]
    pub exact: bool,
    /// Win/loss/draw only.
    #[arg(long, conflicts_with = "exact")]
    pub wld: bool,
    /// Multi-ProbCut confidence for depth-limited searches (100 = no pruning; 99, 98, 95,
    /// 87 or 73).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u8).range(50..=100))]
    pub selectivity: u8,
    /// Only positions FIRST..=LAST (1-based, inclusive), e.g. `--range 1-10`.
    #[arg(long)]
    pub range: Option<String>,
    /// Solve on the workers of this NATS JetStream queue (`nats://HOST:PORT`; start
    /// `wedge worker --queue URL` on each machine). Each search gets the worker's threads and
    /// a table of `--hash` MB; a rerun takes back the answers already made.
    #[arg(long, value_name = "URL")]
    pub queue: Option<String>,
    /// With --queue: positions per unit of work.
    #[arg(long, default_value_t = 1, requires = "queue", value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub per_unit: u32,
}

/// Searches the chosen positions; fails when an answer differs from the file's.
pub fn run(common: &Common, args: &SolveArgs) -> Result<(), CliError> {
    let file = &args.file;
    let entries = super::read_obf_entries(file)?;
    let (first, last) = parse_range(args.range.as_deref(), entries.len())?;
    let chosen = &entries[first - 1..last];
    let search = match (args.depth, args.wld) {
        (Some(d), _) => SolveSearch::Depth {
            depth: d as u8,
            selectivity: Selectivity::from_percent(args.selectivity),
        },
        (None, true) => SolveSearch::WinLossDraw,
        (None, false) => SolveSearch::Exact,
    };
    let builder = common.builder();
    let mut out = std::io::stdout().lock();
    let write_error = |e: std::io::Error| CliError::Failed(format!("writing the results: {e}"));
    let summary = match &args.queue {
        None => {
            let searcher = builder.searcher()?;
            let limits = search.limits();
            let (_, summary) =
                wedge_lab::tools::solve::solve_entries(&searcher, chosen, &limits, &mut out)
                    .map_err(write_error)?;
            summary
        }
        Some(url) => {
            // Exact and win/loss/draw solves search with the solver's weights, as locally. A
            // unit carries one evaluation, so a depth search on a queue has no use for the
            // solver's files: given by name, they are refused rather than ignored.
            let builder = match search {
                SolveSearch::Exact | SolveSearch::WinLossDraw => builder.for_solves()?,
                SolveSearch::Depth { .. } => {
                    let named = [
                        ("--solver-weights", &common.solver_weights),
                        ("--solver-probcut", &common.solver_probcut),
                    ];
                    let given = named.iter().find_map(|(f, p)| p.as_ref().map(|p| (f, p)));
                    if let Some((flag, path)) = given {
                        return Err(CliError::Usage(format!(
                            "{flag} {}: a --depth search on a queue searches with --weights \
                             alone (the solver's files guide exact and --wld solves); leave it \
                             out, or search without --queue",
                            path.display()
                        )));
                    }
                    builder
                }
            };
            let (weights, model) = super::common::queue_model(&builder)?;
            let how = QueueSolve {
                url,
                weights: &weights,
                model: &model,
                search,
                table_mb: common.hash,
                per_unit: args.per_unit as usize,
            };
            let boards: Vec<_> = chosen.iter().map(|e| e.position.board).collect();
            let mut table = SolveTable::new(&mut out).map_err(write_error)?;
            let mut written = Ok(());
            let counts = solve_on_queue(&how, &boards, &mut |i, report| {
                if written.is_ok() {
                    written = table.row(i + 1, &chosen[i], report.clone());
                }
            })?;
            written.map_err(write_error)?;
            let (_, summary) = table.finish().map_err(write_error)?;
            eprintln!(
                "queue: {} solve units published, {} answered by an earlier run, {} results refused",
                counts.units, counts.answered_before, counts.refused
            );
            summary
        }
    };
    if summary.wrong.is_empty() {
        Ok(())
    } else {
        Err(CliError::Failed(format!(
            "{} wrong answer(s): positions {:?}",
            summary.wrong.len(),
            summary.wrong
        )))
    }
}

/// `None` = all; `"A-B"` or `"A"`, 1-based inclusive.
fn parse_range(range: Option<&str>, len: usize) -> Result<(usize, usize), CliError> {
    let Some(r) = range else {
        return Ok((1, len.max(1)));
    };
    let (a, b) = match r.split_once('-') {
        Some((a, b)) => (a.trim().parse::<usize>(), b.trim().parse::<usize>()),
        None => (r.trim().parse::<usize>(), r.trim().parse::<usize>()),
    };
    match (a, b) {
        (Ok(a), Ok(b)) if 1 <= a && a <= b && b <= len => Ok((a, b)),
        _ => Err(CliError::Usage(format!(
            "bad --range {r:?}: expected FIRST-LAST with 1 <= FIRST <= LAST <= {len}"
        ))),
    }
}
