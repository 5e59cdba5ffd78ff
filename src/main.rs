//! The `wedge` command line: parses arguments and dispatches to the library. Nothing else.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;
use wedge::board::Board;
use wedge::eval::PatternEval;
use wedge::search::ProbCutModel;
use wedge::search::{Limits, Searcher, Selectivity, SolveMode};
use wedge::tools::{bench, perft, solve};

#[derive(Parser)]
#[command(name = "wedge", version, about = "Wedge, an Othello engine", long_about = None)]
struct Cli {
    #[command(flatten)]
    common: Common,
    #[command(subcommand)]
    command: Option<Command>,
}

/// Options shared by every subcommand.
#[derive(Args, Clone)]
struct Common {
    /// Search threads (default 1; `wedge train` and `wedge selfplay` use all cores unless given).
    #[arg(long, global = true, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: Option<u32>,
    /// Transposition table size in MB.
    #[arg(long, global = true, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,
    /// Evaluation weights file (default: weights/default.wts).
    #[arg(long, global = true)]
    weights: Option<PathBuf>,
    /// Multi-ProbCut model file (default: the one beside the weights).
    #[arg(long, global = true)]
    probcut: Option<PathBuf>,
    /// Opening book file (default: books/default.book when present).
    #[arg(long, global = true)]
    book: Option<PathBuf>,
    /// Play and search without the opening book.
    #[arg(long, global = true, conflicts_with = "book")]
    no_book: bool,
    /// Skip the checksum of the book's table when opening it (huge books verified before).
    #[arg(long, global = true)]
    book_trust: bool,
    /// Book moves losing at most this many discs against the best may be chosen (weighted
    /// toward the best; never a solved loss). 0 = always the best.
    #[arg(long, global = true, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=64))]
    book_randomness: u32,
    /// Seed of the random book choices, to repeat them (default: a new seed in every process).
    #[arg(long, global = true)]
    book_seed: Option<u64>,
    /// The user's book, where games learned from a GUI (NBoard's `learn`) are stored and
    /// which is consulted before the shipped book (default: $XDG_DATA_HOME/wedge/learned.book,
    /// else ~/.local/share/wedge/learned.book).
    #[arg(long, global = true, conflicts_with = "no_book")]
    learn_book: Option<PathBuf>,
    /// Log level on stderr: off, error, warn, info, debug or trace (default: RUST_LOG, else
    /// warn).
    #[arg(long, global = true)]
    log: Option<String>,
}

impl Common {
    /// Search threads for everything but training: `--threads`, else 1.
    fn threads(&self) -> usize {
        self.threads.unwrap_or(1) as usize
    }
}

#[derive(Subcommand)]
enum Command {
    /// The human console (also what `wedge` alone starts).
    Console {
        /// Search depth for think/play.
        #[arg(long, default_value_t = wedge::protocol::console::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: u32,
    },
    /// Speak the NBoard protocol (version 2) on stdin/stdout, for the NBoard GUI.
    Nboard,
    /// Speak GTP version 2 on stdin/stdout, for Quarry, GoGui and scripts.
    Gtp {
        /// Midgame depth of `genmove` when no clock is set (`wedge-depth N` changes it).
        #[arg(long, default_value_t = wedge::protocol::gtp::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: u32,
    },
    /// Count leaves of the game tree from the start position, depth by depth.
    Perft {
        /// Maximum depth (plies), 1..=20.
        #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
        depth: u32,
        /// A pass uses one ply (Aart Bik's convention; the default).
        #[arg(long, conflicts_with = "no_pass_ply")]
        passes_count_as_ply: bool,
        /// A pass uses no ply (Egaroucid's "mode 2").
        #[arg(long)]
        no_pass_ply: bool,
        /// Print only the final depth instead of every depth from 1.
        #[arg(long)]
        only: bool,
    },
    /// Solve or search every position of an OBF file and check the answers it carries.
    Solve {
        /// The OBF file (one position per line, optional `; move:score` answers).
        file: PathBuf,
        /// Midgame search to this depth instead of solving.
        #[arg(long, conflicts_with_all = ["exact", "wld"], value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: Option<u32>,
        /// Exact final score (the default).
        #[arg(long)]
        exact: bool,
        /// Win/loss/draw only.
        #[arg(long, conflicts_with = "exact")]
        wld: bool,
        /// Multi-ProbCut confidence for depth-limited searches (100 = no pruning; 99, 98, 95,
        /// 87 or 73).
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u8).range(50..=100))]
        selectivity: u8,
        /// Only positions FIRST..=LAST (1-based, inclusive), e.g. `--range 1-10`.
        #[arg(long)]
        range: Option<String>,
    },
    /// Write the search tree of a position as one self-contained HTML file.
    Tree {
        /// A board string (64 squares and the side to move) or a move transcript from the start.
        position: String,
        /// Depth in plies.
        #[arg(value_parser = clap::value_parser!(u32).range(1..=12))]
        depth: u32,
        /// Output file.
        #[arg(long, short, default_value = "tree.html")]
        out: PathBuf,
    },
    /// Fit the Multi-ProbCut error model for the evaluation in use and write it.
    TrainProbcut {
        /// Directory with the WTHOR `.wtb` files (games before 2017 are used).
        #[arg(long, default_value = "../shared/data/wthor")]
        games: PathBuf,
        /// Number of sampled positions.
        #[arg(long, default_value_t = 600)]
        positions: usize,
        /// Deepest search measured.
        #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(4..=24))]
        max_depth: u32,
        /// Output file.
        #[arg(long, default_value = "weights/default.probcut")]
        out: PathBuf,
    },
    /// Train the pattern evaluation weights on game records.
    Train(wedge::train::TrainArgs),
    /// Evaluate the positions of an OBF file (static or to a depth) and report the errors.
    Eval(wedge::train::EvalArgs),
    /// Play the engine against itself and record every position's value and the exact final
    /// result for training (resumable), or print what a directory holds (`--stats DIR`).
    Selfplay(wedge::train::selfplay::SelfplayArgs),
    /// Run the fixed benchmark workloads and print nodes, seconds and nodes/s.
    Bench {
        /// Also report the depth reached from a few openings in 1 s and 10 s.
        #[arg(long)]
        timed: bool,
    },
    /// Play a match between two engines speaking NBoard or GTP (Elo, SPRT, GGF records).
    Match(MatchArgs),
    /// New weights against the current ones: SPRT matches at a fixed depth and on equal
    /// clocks; exits 0 only when both accept the new weights.
    Gate(wedge::tools::gate::GateArgs),
    /// Generate balanced openings (random openings our search values near 0).
    Openings(OpeningsArgs),
    /// Build, inspect and convert the opening book (`--book FILE` says which).
    #[command(subcommand)]
    Book(BookCommand),
}

/// `wedge match`: the first `--engine` is the one the statistics are about.
#[derive(Args)]
struct MatchArgs {
    /// An engine command line (give exactly two), e.g. "./target/release/wedge nboard".
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Protocol: nboard or gtp; once for both engines or twice (one per engine, in order).
    #[arg(long = "protocol", num_args = 1)]
    protocols: Vec<String>,
    /// Display names instead of the engines' own (once per engine, in order).
    #[arg(long = "name", num_args = 1)]
    names: Vec<String>,
    /// Fixed midgame depth sent to the engines (NBoard `set depth`, GTP `wedge-depth` when
    /// offered); once for both or twice (one per engine).
    #[arg(long = "depth", num_args = 1, value_parser = clap::value_parser!(u32).range(1..=60))]
    depths: Vec<u32>,
    /// Fixed time per move in seconds.
    #[arg(long, conflicts_with = "clock")]
    time_per_move: Option<f64>,
    /// Game clock per side: seconds (`60`), or a GGF clock (`05:00`, `05:00/02` with increment).
    #[arg(long)]
    clock: Option<String>,
    /// Number of games (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Openings file: one transcript per line (XOT format; default books/openings-8ply.txt).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Games played at the same time (each with its own two engine processes).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    concurrency: u32,
    /// GGF file that receives every game.
    #[arg(long, default_value = "match.ggf")]
    out: PathBuf,
    /// Sequential probability ratio test: stop once H0 (Elo = ELO0) or H1 (Elo = ELO1) is
    /// accepted with error rates ALPHA and BETA.
    #[arg(long, num_args = 4, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"])]
    sprt: Option<Vec<f64>>,
    /// Without a clock: seconds to wait for a move before the engine is declared hung.
    #[arg(long, default_value_t = 60.0)]
    move_timeout: f64,
    /// With a clock or time per move: grace seconds before a late move loses on time.
    #[arg(long, default_value_t = 0.5)]
    time_margin: f64,
    /// Seconds an engine may take to start and answer the handshake.
    #[arg(long, default_value_t = 30.0)]
    start_timeout: f64,
}

/// `wedge openings`.
#[derive(Args)]
struct OpeningsArgs {
    /// Length of each opening in plies.
    #[arg(long, default_value_t = 8)]
    plies: u32,
    /// Keep openings whose value is within this many discs of 0.
    #[arg(long, default_value_t = 2)]
    max_abs_eval: i32,
    /// Number of openings.
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// Depth of the evaluating search.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output file (default: stdout).
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Instead of random balanced openings: the most played openings of these game files
    /// (WTHOR .wtb, GGF, or transcripts one per line), positions reached by transposition or
    /// symmetry counted together; --max-abs-eval, --depth and --seed do not apply.
    #[arg(long = "from-games", num_args = 1..)]
    from_games: Vec<PathBuf>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let common = cli.common;
    // Every command honours --log (the tools log their progress at debug level).
    if let Err(e) = wedge::protocol::frontend::init_logging(common.log.as_deref()) {
        eprintln!("wedge: {e}");
        return ExitCode::from(2);
    }
    let result = match cli.command {
        Some(Command::Perft {
            depth,
            no_pass_ply,
            only,
            ..
        }) => {
            let rule = if no_pass_ply {
                perft::PassRule::PassIsFree
            } else {
                perft::PassRule::PassIsPly
            };
            run_perft(depth, rule, only);
            Ok(())
        }
        Some(Command::Solve {
            file,
            depth,
            wld,
            range,
            selectivity,
            ..
        }) => run_solve(&common, &file, depth, wld, selectivity, range.as_deref()),
        Some(Command::Tree {
            position,
            depth,
            out,
        }) => run_tree(&common, &position, depth, &out),
        Some(Command::TrainProbcut {
            games,
            positions,
            max_depth,
            out,
        }) => load_evaluation(&common).and_then(|eval| {
            wedge::tools::probcut_fit::fit_and_write(
                &eval,
                &evaluation_name(&common),
                &games,
                positions,
                max_depth,
                common.threads(),
                &out,
            )
            .map(|m| println!("{}", m.to_text()))
        }),
        Some(Command::Bench { timed }) => run_bench(&common, timed),
        Some(Command::Match(args)) => run_match(&args),
        Some(Command::Gate(args)) => std::env::current_exe()
            .map_err(|e| format!("cannot find the wedge binary: {e}"))
            .and_then(|exe| wedge::tools::gate::run_gate(&args, &exe, &mut std::io::stdout()))
            .and_then(|verdict| match verdict {
                wedge::tools::gate::GateDecision::Accept => Ok(()),
                other => Err(format!("gate: {other}")),
            }),
        Some(Command::Openings(args)) => run_openings(&common, &args),
        Some(Command::Book(cmd)) => run_book(&common, cmd),
        Some(Command::Train(mut args)) => {
            args.threads = common.threads.map(|t| t as usize);
            wedge::train::run_train(&args)
        }
        Some(Command::Eval(mut args)) => {
            args.weights = common.weights.clone();
            wedge::train::run_eval(&args)
        }
        Some(Command::Selfplay(mut args)) => {
            args.threads = common.threads.map(|t| t as usize);
            args.weights = common.weights.clone();
            args.probcut = common.probcut.clone();
            wedge::train::selfplay::run_selfplay(&args).map_err(|e| e.to_string())
        }
        Some(Command::Console { depth }) => {
            run_protocol(&common, wedge::protocol::console::Console::new(depth))
        }
        None => run_protocol(
            &common,
            wedge::protocol::console::Console::new(wedge::protocol::console::DEFAULT_DEPTH),
        ),
        Some(Command::Nboard) => run_protocol(&common, wedge::protocol::nboard::Nboard::new()),
        Some(Command::Gtp { depth }) => {
            run_protocol(&common, wedge::protocol::gtp::Gtp::new(depth))
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wedge: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_solve(
    common: &Common,
    file: &PathBuf,
    depth: Option<u32>,
    wld: bool,
    selectivity: u8,
    range: Option<&str>,
) -> Result<(), String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let entries =
        wedge::formats::parse_obf_file(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    if entries.is_empty() {
        return Err(format!("{}: no position in the file", file.display()));
    }
    let (first, last) = parse_range(range, entries.len())?;
    let chosen = &entries[first - 1..last];
    let limits = match (depth, wld) {
        (Some(d), _) => Limits {
            selectivity: Selectivity::from_percent(selectivity),
            ..Limits::depth(d)
        },
        (None, true) => Limits::solve(SolveMode::WinLossDraw),
        (None, false) => Limits::solve(SolveMode::Exact),
    };
    let searcher = build_searcher(common)?;
    let mut out = std::io::stdout().lock();
    let (_, summary) = solve::solve_entries(&searcher, chosen, &limits, &mut out)
        .map_err(|e| format!("writing the results: {e}"))?;
    if summary.wrong.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} wrong answer(s): positions {:?}",
            summary.wrong.len(),
            summary.wrong
        ))
    }
}

/// Runs a protocol session on stdin/stdout with the engine worker; logs go to stderr. The
/// ProbCut model is loaded (and checked) here; the weights and the transposition table on the
/// worker thread, and the protocol answers once they are ready.
fn run_protocol<P: wedge::protocol::Protocol>(common: &Common, proto: P) -> Result<(), String> {
    // The table is made on the engine thread; a size the system cannot give fails here at
    // once, with the option named.
    wedge::search::TranspositionTable::check_size(common.hash as usize)
        .map_err(|e| format!("--hash {}: {e}", common.hash))?;
    // The weights are loaded on the engine thread; a bad weights file ends the process with
    // its error before anything is answered.
    let weights = weights_path(common)?;
    if !weights.is_file() {
        return Err(format!("no weights file {}", weights.display()));
    }
    let probcut = load_probcut(common)?;
    let (hash, threads) = (common.hash as usize, common.threads());
    let verify = if common.book_trust {
        wedge::book::Verify::HeaderOnly
    } else {
        wedge::book::Verify::Full
    };
    let setting = |path| wedge::engine::BookSetting { path, verify };
    let options = wedge::engine::EngineOptions {
        book: book_path(common).map(setting),
        user_book: user_book_path(common)?.map(setting),
        book_randomness: common.book_randomness,
        book_seed: common.book_seed,
        ..Default::default()
    };
    wedge::protocol::frontend::serve(proto, move |sink| {
        wedge::engine::Engine::spawn(
            move || {
                let eval = PatternEval::load(&weights).unwrap_or_else(|e| {
                    eprintln!("wedge: {e}");
                    std::process::exit(1)
                });
                Searcher::try_new(Arc::new(eval), hash, threads)
                    .unwrap_or_else(|e| {
                        eprintln!("wedge: {e}");
                        std::process::exit(1)
                    })
                    .with_probcut(Arc::new(probcut))
            },
            options,
            sink,
        )
    })
}

fn run_tree(
    common: &Common,
    position: &str,
    depth: u32,
    out: &std::path::Path,
) -> Result<(), String> {
    let board = parse_board_or_transcript(position)?;
    let tree = wedge::tools::tree::record(&load_evaluation(common)?, &board, depth)?;
    let html =
        wedge::tools::tree::to_html(&tree, &format!("Search tree: {position}, depth {depth}"));
    wedge::paths::write_atomic(out, html.as_bytes())
        .map_err(|e| format!("writing {}: {e}", out.display()))?;
    let bad = tree.nodes.iter().filter(|n| n.violation.is_some()).count();
    println!(
        "{}: {} nodes, root value {}, {} invariant violations",
        out.display(),
        tree.nodes.len(),
        tree.nodes[0].value,
        bad
    );
    Ok(())
}

/// A board string, or else a transcript from the start position.
fn parse_board_or_transcript(text: &str) -> Result<Board, String> {
    if let Ok(p) = wedge::formats::parse_position(text) {
        return Ok(p.board);
    }
    wedge::formats::replay_inferring_passes(text)
        .map(|g| g.position().board)
        .map_err(|e| format!("{text:?} is neither a board string nor a legal transcript: {e}"))
}

/// `None` = all; `"A-B"` or `"A"`, 1-based inclusive.
fn parse_range(range: Option<&str>, len: usize) -> Result<(usize, usize), String> {
    let Some(r) = range else {
        return Ok((1, len.max(1)));
    };
    let bad = || format!("bad --range {r:?}: expected FIRST-LAST with 1 <= FIRST <= LAST <= {len}");
    let (a, b) = match r.split_once('-') {
        Some((a, b)) => (a.trim().parse::<usize>(), b.trim().parse::<usize>()),
        None => (r.trim().parse::<usize>(), r.trim().parse::<usize>()),
    };
    match (a, b) {
        (Ok(a), Ok(b)) if 1 <= a && a <= b && b <= len => Ok((a, b)),
        _ => Err(bad()),
    }
}

fn run_perft(depth: u32, rule: perft::PassRule, only: bool) {
    println!(
        "perft from the start position, {} (kernels: moves {}, flips {})",
        match rule {
            perft::PassRule::PassIsPly => "pass = 1 ply",
            perft::PassRule::PassIsFree => "pass = 0 ply",
        },
        wedge::board::movegen::KERNEL,
        wedge::board::flip::KERNEL
    );
    println!(
        "{:>5} {:>20} {:>10} {:>14}",
        "depth", "leaves", "seconds", "leaves/s"
    );
    let first = if only { depth } else { 1 };
    for d in first..=depth {
        let start = Instant::now();
        let n = perft::perft(&Board::START, d, rule);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{:>5} {:>20} {:>10.3} {:>14.0}",
            d,
            n,
            secs,
            n as f64 / secs.max(1e-9)
        );
    }
}

fn run_bench(common: &Common, timed: bool) -> Result<(), String> {
    let searcher = build_searcher(&Common {
        threads: Some(1),
        ..common.clone()
    })?;
    println!(
        "{:<32} {:>14} {:>10} {:>14}",
        "workload", "nodes", "seconds", "nodes/s"
    );
    let mut total_nodes = 0;
    let mut total_secs = 0.0;
    for r in bench::run_all(&searcher) {
        println!(
            "{:<32} {:>14} {:>10.3} {:>14.0}",
            r.name,
            r.nodes,
            r.seconds,
            r.nodes_per_second()
        );
        total_nodes += r.nodes;
        total_secs += r.seconds;
    }
    println!(
        "{:<32} {:>14} {:>10.3} {:>14.0}",
        "total",
        total_nodes,
        total_secs,
        total_nodes as f64 / total_secs.max(1e-9)
    );
    // How soon a running search returns once stopped, with one and two threads.
    let mut latencies = Vec::new();
    for threads in [1, 2] {
        let searcher = build_searcher(&Common {
            threads: Some(threads),
            ..common.clone()
        })?;
        for (name, d) in bench::stop_latencies(&searcher) {
            latencies.push(format!(
                "{name} {threads} thread{} {:.2} ms",
                if threads == 1 { "" } else { "s" },
                d.as_secs_f64() * 1000.0
            ));
        }
    }
    println!(
        "stop latency (median of {}): {}",
        bench::STOP_LATENCY_TRIALS,
        latencies.join(", ")
    );
    if timed {
        for secs in [1, 10] {
            let depths = bench::depth_in_time(&searcher, std::time::Duration::from_secs(secs));
            let text: Vec<String> = depths.iter().map(|(n, d)| format!("{n} {d}")).collect();
            println!("depth reached in {secs} s: {}", text.join(", "));
        }
    }
    Ok(())
}

/// The weights file in use: `--weights`, else `weights/default.wts` where the shipped data lives.
fn weights_path(common: &Common) -> Result<PathBuf, String> {
    match &common.weights {
        Some(p) => Ok(p.clone()),
        None => wedge::paths::find_data_file("weights", "default.wts").ok_or_else(|| {
            "no weights: weights/default.wts is neither beside the executable, in the source \
             tree nor under $WEDGE_HOME; pass --weights FILE"
                .to_string()
        }),
    }
}

/// The trained pattern evaluation (never silently replaced by anything else).
fn load_evaluation(common: &Common) -> Result<PatternEval, String> {
    PatternEval::load(&weights_path(common)?).map_err(|e| e.to_string())
}

/// The name a ProbCut model records for the evaluation it was fitted with.
fn evaluation_name(common: &Common) -> String {
    weights_path(common)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "unknown".into())
}

/// The searcher every command uses: the evaluation, its ProbCut model (`--probcut`, else the
/// `.probcut` file beside the weights), `--hash`, `--threads`.
fn build_searcher(common: &Common) -> Result<Searcher<PatternEval>, String> {
    let eval = load_evaluation(common)?;
    let probcut = load_probcut(common)?;
    Ok(
        Searcher::try_new(Arc::new(eval), common.hash as usize, common.threads())?
            .with_probcut(Arc::new(probcut)),
    )
}

/// The ProbCut model: `--probcut`, else the `.probcut` file beside the weights, else none.
fn load_probcut(common: &Common) -> Result<ProbCutModel, String> {
    let probcut_path = match &common.probcut {
        Some(p) => Some(p.clone()),
        None => weights_path(common)
            .ok()
            .map(|w| w.with_extension("probcut"))
            .filter(|p| p.is_file()),
    };
    match probcut_path {
        Some(path) => ProbCutModel::load(&path).map_err(|e| e.to_string()),
        None => Ok(ProbCutModel::empty()),
    }
}

/// One value for both engines, or one per engine; `default` when none is given.
fn per_engine<T: Clone>(
    values: &[T],
    what: &str,
    default: Option<T>,
) -> Result<[Option<T>; 2], String> {
    match values {
        [] => Ok([default.clone(), default]),
        [v] => Ok([Some(v.clone()), Some(v.clone())]),
        [a, b] => Ok([Some(a.clone()), Some(b.clone())]),
        _ => Err(format!(
            "{what} may be given once or twice, not {} times",
            values.len()
        )),
    }
}

fn seconds(value: f64, what: &str) -> Result<std::time::Duration, String> {
    std::time::Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| format!("{what} must be a positive number of seconds, got {value}"))
}

fn run_match(args: &MatchArgs) -> Result<(), String> {
    use wedge::tools::match_runner::{self as m, player};
    let [a, b] = match args.engines.as_slice() {
        [a, b] => [a.clone(), b.clone()],
        e => return Err(format!("give exactly two --engine, not {}", e.len())),
    };
    let protocols = per_engine(&args.protocols, "--protocol", Some("nboard".to_string()))?;
    let names = per_engine(&args.names, "--name", None)?;
    if args.names.len() == 1 {
        return Err("--name must be given once per engine (twice)".into());
    }
    let depths = per_engine(&args.depths, "--depth", None)?;
    let mut specs = Vec::new();
    for (i, command) in [a, b].into_iter().enumerate() {
        specs.push(player::EngineSpec {
            command,
            protocol: protocols[i].as_deref().unwrap_or("nboard").parse()?,
            depth: depths[i],
            name: names[i].clone(),
        });
    }
    let time = match (args.time_per_move, &args.clock) {
        (Some(t), _) => player::TimeControl::PerMove(seconds(t, "--time-per-move")?),
        (None, Some(c)) => player::TimeControl::Clock(match c.trim().parse::<f64>() {
            Ok(secs) => wedge::formats::Clock {
                main_ms: seconds(secs, "--clock")?.as_millis() as u64,
                increment_ms: 0,
                extension_ms: None,
            },
            Err(_) => wedge::formats::parse_clock(c).map_err(|e| format!("--clock: {e}"))?,
        }),
        (None, None) => player::TimeControl::Depth,
    };
    if time != player::TimeControl::Depth {
        // NBoard's `go` is limited by depth and clock, and NTest will not move before a `set
        // depth`: on a clock, an NBoard engine with no depth given gets the deepest one, and
        // the clock decides.
        for spec in &mut specs {
            if spec.protocol == player::Protocol::Nboard && spec.depth.is_none() {
                spec.depth = Some(60);
            }
        }
    }
    let openings_path = match &args.openings {
        Some(p) => p.clone(),
        None => wedge::paths::find_data_file("books", "openings-8ply.txt")
            .ok_or("no books/openings-8ply.txt found; pass --openings FILE")?,
    };
    let sprt = match args.sprt.as_deref() {
        None => None,
        Some([elo0, elo1, alpha, beta]) => Some(m::stats::Sprt {
            elo0: *elo0,
            elo1: *elo1,
            alpha: *alpha,
            beta: *beta,
        }),
        Some(_) => return Err("--sprt takes four numbers: ELO0 ELO1 ALPHA BETA".into()),
    };
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let cfg = m::MatchConfig {
        engines: [specs[0].clone(), specs[1].clone()],
        openings: m::openings::read_openings(&openings_path)?,
        games: args.games,
        limits: m::game::GameLimits {
            time,
            move_timeout: seconds(args.move_timeout, "--move-timeout")?,
            time_margin: std::time::Duration::try_from_secs_f64(args.time_margin)
                .map_err(|_| format!("--time-margin must be >= 0, got {}", args.time_margin))?,
        },
        concurrency: args.concurrency as usize,
        start_timeout: seconds(args.start_timeout, "--start-timeout")?,
        out: args.out.clone(),
        sprt,
    };
    m::run_match(&cfg, &mut std::io::stdout().lock()).map(drop)
}

fn run_openings(common: &Common, args: &OpeningsArgs) -> Result<(), String> {
    use wedge::tools::match_runner::openings;
    if !args.from_games.is_empty() {
        return run_openings_from_games(args);
    }
    let searcher = build_searcher(common)?;
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
        evaluation_name(common),
        args.plies,
        args.depth,
        args.max_abs_eval
    );
    let text = openings::format_openings(found.iter().map(|o| &o.game), &header);
    write_openings(args, &text)
}

/// `wedge openings --from-games`: the most played openings of game records.
fn run_openings_from_games(args: &OpeningsArgs) -> Result<(), String> {
    use wedge::tools::book as tool;
    use wedge::tools::match_runner::openings;
    let mut set = tool::GameSet::default();
    for path in &args.from_games {
        tool::read_games(path, &mut set)?;
    }
    let ranked = openings::most_played(&set.games, args.plies as usize, args.count);
    if ranked.is_empty() {
        return Err(format!(
            "no game of the {} read is {} plies long",
            set.games.len(),
            args.plies
        ));
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

fn write_openings(args: &OpeningsArgs, text: &str) -> Result<(), String> {
    match &args.out {
        Some(path) => wedge::paths::write_atomic(path, text.as_bytes())
            .map_err(|e| format!("writing {}: {e}", path.display())),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

/// `wedge book ...`
#[derive(Subcommand)]
enum BookCommand {
    /// Add games (WTHOR .wtb, GGF .ggf, or transcripts one per line) to the book, then value
    /// and negamax it; with --forest/--text, read that interchange format instead.
    Import {
        files: Vec<PathBuf>,
        /// The files are compressed forests (`wedge book export --forest`).
        #[arg(long, conflicts_with = "text")]
        forest: bool,
        /// The files are depth-first text books (`ply weight move [value]` lines).
        #[arg(long)]
        text: bool,
        #[command(flatten)]
        valuing: ValuingArgs,
        /// Positions with fewer empties are not stored (a new book only).
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u8).range(1..=60))]
        min_empties: u8,
        /// Keep only the first N games read (after the files' order).
        #[arg(long)]
        max_games: Option<usize>,
        /// Keep a game only as long as its positions were reached by at least K of the games
        /// being imported (the well-trodden lines).
        #[arg(long, default_value_t = 1)]
        min_games: usize,
        /// Add the positions only (the book stays at the Consistent level).
        #[arg(long)]
        no_value: bool,
        /// Description stored in the header.
        #[arg(long)]
        description: Option<String>,
    },
    /// Value every played position that needs it and negamax the book (the Negamaxed level);
    /// also `wedge book fix`.
    #[command(alias = "fix")]
    Negamax {
        #[command(flatten)]
        valuing: ValuingArgs,
    },
    /// Grow the book by drop-out expansion (Lincke; Fuego's variant), publishing it at
    /// intervals.
    Expand {
        /// Expansions (`5000`) or time (`90s`, `30m`, `2h`).
        #[arg(long)]
        budget: wedge::tools::book::Budget,
        #[command(flatten)]
        dropout: DropOutArgs,
        /// Depth of the searches that value new positions.
        #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: u32,
        /// Publish the book every this many seconds.
        #[arg(long, default_value_t = 300)]
        save_every: u64,
    },
    /// Recompute every value from the leaves and every expansion priority (Fuego's Refresh).
    Refresh {
        #[command(flatten)]
        dropout: DropOutArgs,
    },
    /// Fuego's Cover: expand below every position of the given lines (transcripts, one per
    /// line) until each has K expansions (K more with --additive).
    Cover {
        lines: PathBuf,
        #[arg(long)]
        expansions: usize,
        #[arg(long)]
        additive: bool,
        #[command(flatten)]
        dropout: DropOutArgs,
        #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: u32,
    },
    /// Edax's deviation: grow lines where one side loses at most RELATIVE discs per move and
    /// values stay within ABSOLUTE discs of the start's, for each side in turn.
    Deviate {
        relative: u8,
        absolute: u8,
        /// At most this many new played positions.
        #[arg(long, default_value_t = 10_000)]
        budget: usize,
        #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: u32,
    },
    /// Counts: positions, kinds, empties, search depths.
    Stats {
        /// Also compare, along the main lines, the book's values with fresh searches.
        #[arg(long)]
        quality: bool,
        /// Depth of those searches.
        #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=60))]
        quality_depth: u32,
        /// Main lines branch at the best 3 replies of the first N plies.
        #[arg(long, default_value_t = 2)]
        branch_plies: usize,
    },
    /// What the book says about a position (board string or transcript).
    Probe { position: String },
    /// Write the book as a compressed forest or a text book.
    Export {
        #[arg(long, conflicts_with = "text", required_unless_present = "text")]
        forest: Option<PathBuf>,
        #[arg(long)]
        text: Option<PathBuf>,
    },
    /// Write a synthetic book of about SIZE megabytes (benchmarks).
    Synth {
        out: PathBuf,
        #[arg(long, default_value_t = 1024)]
        size_mb: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Probe latency on the (hot) book: median and 99th percentile.
    Bench {
        #[arg(long, default_value_t = 200_000)]
        probes: usize,
    },
}

/// Drop-out expansion parameters.
#[derive(Args, Clone, Copy)]
struct DropOutArgs {
    /// Cost in plies of each disc a line is worse than the best.
    #[arg(long, default_value_t = 0.5)]
    alpha: f64,
    /// Children considered below each node (the best by value).
    #[arg(long, default_value_t = 8)]
    width: usize,
}

impl DropOutArgs {
    fn params(&self) -> wedge::book::expansion::DropOut {
        wedge::book::expansion::DropOut::new(self.alpha, self.width)
    }
}

/// How book positions are valued.
#[derive(Args, Clone, Copy)]
struct ValuingArgs {
    /// Depth of the midgame searches.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,
    /// Played positions with at most this many empties are solved exactly (default: the
    /// book's minimum empties).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=60))]
    solve_empties: Option<u8>,
    /// Multi-ProbCut selectivity of the midgame searches, in percent (100 = none).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u8).range(70..=100))]
    confidence: u8,
}

/// A valuer for book commands: searches of `depth` plies with `--threads` threads.
fn search_valuer(
    common: &Common,
    depth: u32,
) -> Result<wedge::search::SearchValuer<PatternEval>, String> {
    let eval = Arc::new(load_evaluation(common)?);
    Ok(wedge::search::SearchValuer::new(
        Searcher::new(eval, 64, common.threads()),
        depth,
        Selectivity::NONE,
    ))
}

/// Publishes a book and says what it holds.
fn publish(book: &mut wedge::book::BookBuilder, path: &std::path::Path) -> Result<(), String> {
    book.publish(path).map_err(|e| e.to_string())?;
    eprintln!(
        "{}: {} positions, level {}",
        path.display(),
        book.len(),
        book.level().name()
    );
    Ok(())
}

/// The book file: `--book`, else the shipped one.
fn book_path(common: &Common) -> Option<PathBuf> {
    if common.no_book {
        return None;
    }
    common
        .book
        .clone()
        .or_else(|| wedge::paths::find_data_file("books", "default.book"))
}

/// The user's book (learned games): `--learn-book`, else the one under the user's data
/// directory; none with `--no-book`. The shipped book is refused: play never writes it.
fn user_book_path(common: &Common) -> Result<Option<PathBuf>, String> {
    if common.no_book {
        return Ok(None);
    }
    let Some(path) = common
        .learn_book
        .clone()
        .or_else(wedge::paths::default_user_book)
    else {
        tracing::warn!(
            "neither $XDG_DATA_HOME nor $HOME is set: learned games are not stored (see \
             --learn-book)"
        );
        return Ok(None);
    };
    if path.is_dir() {
        return Err(format!(
            "--learn-book {} is a directory; name the book file",
            path.display()
        ));
    }
    if let Ok(target) = std::fs::canonicalize(&path) {
        let shipped = wedge::paths::data_file_locations("books", "default.book");
        if shipped
            .iter()
            .any(|s| std::fs::canonicalize(s).is_ok_and(|s| s == target))
        {
            return Err(format!(
                "--learn-book {} is the shipped book, which play never writes; learned games \
                 need a book of their own",
                path.display()
            ));
        }
    }
    Ok(Some(path))
}

fn run_book(common: &Common, cmd: BookCommand) -> Result<(), String> {
    use wedge::book::{Book, BookBuilder, Verify};
    use wedge::tools::book as tool;
    let verify = if common.book_trust {
        Verify::HeaderOnly
    } else {
        Verify::Full
    };
    let open = || -> Result<(PathBuf, Book), String> {
        let path = book_path(common).ok_or("no book: pass --book FILE")?;
        let book = Book::open(&path, verify).map_err(|e| e.to_string())?;
        Ok((path, book))
    };
    // Commands that write need the file named: the shipped book is never rewritten by accident.
    let target = || -> Result<PathBuf, String> {
        common
            .book
            .clone()
            .ok_or_else(|| "say which book to write with --book FILE".to_string())
    };
    let value = |book: &mut BookBuilder, v: &ValuingArgs| -> Result<(), String> {
        if let Some(s) = v.solve_empties {
            book.info.solve_empties = s;
        }
        let eval = Arc::new(load_evaluation(common)?);
        let t = Instant::now();
        let stats = tool::value_book(
            book,
            eval,
            v.depth,
            Selectivity::from_percent(v.confidence),
            common.threads.unwrap_or(1) as usize,
            (common.hash as usize).min(256),
        );
        eprintln!(
            "valued: {} searched, {} solved, {} leaves added in {:.1} s",
            stats.searched,
            stats.solved,
            stats.leaves_added,
            t.elapsed().as_secs_f64()
        );
        Ok(())
    };
    match cmd {
        BookCommand::Import {
            files,
            forest,
            text,
            valuing,
            min_empties,
            max_games,
            min_games,
            no_value,
            description,
        } => {
            let path = target()?;
            let t = Instant::now();
            let mut book = if forest {
                let [f] = files.as_slice() else {
                    return Err("--forest takes exactly one file".into());
                };
                wedge::book::forest::import_forest(f).map_err(|e| e.to_string())?
            } else {
                BookBuilder::load_or_new(&path, min_empties).map_err(|e| e.to_string())?
            };
            if text {
                for f in &files {
                    let st =
                        wedge::book::text::import_text(f, &mut book).map_err(|e| e.to_string())?;
                    eprintln!("{}: {st:?}", f.display());
                }
            } else if !forest {
                let mut set = tool::GameSet::default();
                for f in &files {
                    tool::read_games(f, &mut set)?;
                }
                if let Some(m) = max_games {
                    set.games.truncate(m);
                }
                let games = tool::common_prefixes(&book, &set.games, min_games);
                let (added, new, bad) = tool::add_games(&mut book, &games);
                eprintln!(
                    "games: {added} added, {} skipped (other start or unreadable), {bad} illegal; \
                     {new} new positions; {} in the book; {:.1} s",
                    set.skipped,
                    book.len(),
                    t.elapsed().as_secs_f64()
                );
            }
            if let Some(d) = description {
                book.info.description = d;
            }
            if !no_value && !forest {
                value(&mut book, &valuing)?;
            }
            publish(&mut book, &path)
        }
        BookCommand::Negamax { valuing } => {
            let path = target()?;
            let mut book = BookBuilder::load_or_new(&path, 20).map_err(|e| e.to_string())?;
            value(&mut book, &valuing)?;
            publish(&mut book, &path)
        }
        BookCommand::Expand {
            budget,
            dropout,
            depth,
            save_every,
        } => {
            let path = target()?;
            let mut book = BookBuilder::load_or_new(&path, 20).map_err(|e| e.to_string())?;
            let eval = Arc::new(load_evaluation(common)?);
            let doe = dropout.params();
            let r = tool::expand_book(
                &mut book,
                &path,
                eval,
                &doe,
                budget,
                depth,
                common.threads(),
                std::time::Duration::from_secs(save_every),
            )?;
            println!(
                "{} expansions in {:.1} s: {} -> {} positions ({:.0} positions/hour), {} saves",
                r.expansions,
                r.seconds,
                r.positions_before,
                r.positions_after,
                (r.positions_after - r.positions_before) as f64 * 3600.0 / r.seconds.max(1e-9),
                r.saves
            );
            Ok(())
        }
        BookCommand::Cover {
            lines,
            expansions,
            additive,
            dropout,
            depth,
        } => {
            let path = target()?;
            let mut book = BookBuilder::load_or_new(&path, 20).map_err(|e| e.to_string())?;
            let mut set = tool::GameSet::default();
            tool::read_games(&lines, &mut set)?;
            let mut valuer = search_valuer(common, depth)?;
            let doe = dropout.params();
            let made = wedge::book::expansion::cover(
                &mut book,
                &set.games,
                expansions,
                additive,
                &doe,
                &mut valuer,
            );
            book.publish(&path).map_err(|e| e.to_string())?;
            println!("{made} expansions; {} positions", book.len());
            Ok(())
        }
        BookCommand::Deviate {
            relative,
            absolute,
            budget,
            depth,
        } => {
            let path = target()?;
            let mut book = BookBuilder::load_or_new(&path, 20).map_err(|e| e.to_string())?;
            let mut valuer = search_valuer(common, depth)?;
            let root = Board::START.canonical().0;
            let r = wedge::book::deviate::deviate(
                &mut book,
                root,
                relative as i32,
                absolute as i32,
                budget,
                &mut valuer,
            );
            book.publish(&path).map_err(|e| e.to_string())?;
            println!(
                "{} rounds, {} positions made played; {} positions",
                r.rounds,
                r.expanded.len(),
                book.len()
            );
            Ok(())
        }
        BookCommand::Refresh { dropout } => {
            let path = target()?;
            let mut book = BookBuilder::load_or_new(&path, 20).map_err(|e| e.to_string())?;
            let doe = dropout.params();
            let prio = wedge::book::expansion::refresh(&mut book, &doe);
            book.publish(&path).map_err(|e| e.to_string())?;
            println!(
                "{} positions; {} reachable from the start; root priority {:.2}",
                book.len(),
                prio.len(),
                prio.get(&doe.root).copied().unwrap_or(0.0)
            );
            Ok(())
        }
        BookCommand::Stats {
            quality,
            quality_depth,
            branch_plies,
        } => {
            let (_, book) = open()?;
            print!("{}", tool::stats_text(&book));
            if quality {
                let eval = Arc::new(load_evaluation(common)?);
                print!(
                    "{}",
                    tool::quality_text(&book, eval, quality_depth, branch_plies)
                );
            }
            Ok(())
        }
        BookCommand::Probe { position } => {
            let (_, book) = open()?;
            let board = parse_board_or_transcript(&position)?;
            print!("{}", tool::probe_text(&book, &board));
            Ok(())
        }
        BookCommand::Export { forest, text } => {
            let (_, book) = open()?;
            let builder = BookBuilder::from_book(&book).map_err(|e| e.to_string())?;
            if let Some(f) = forest {
                wedge::book::forest::export_forest(&builder, &f).map_err(|e| e.to_string())?;
                eprintln!("{}: forest of {} positions", f.display(), builder.len());
            }
            if let Some(f) = text {
                wedge::book::text::export_text(&builder, &f).map_err(|e| e.to_string())?;
                eprintln!("{}: text book", f.display());
            }
            Ok(())
        }
        BookCommand::Synth { out, size_mb, seed } => {
            let t = Instant::now();
            let (size, n) = tool::write_synthetic(&out, size_mb << 20, seed)?;
            println!(
                "{}: {n} positions, {size} bytes, {:.1} s",
                out.display(),
                t.elapsed().as_secs_f64()
            );
            Ok(())
        }
        BookCommand::Bench { probes } => {
            let (path, book) = open()?;
            let (hit, miss) = tool::probe_latency(&book, probes, 7);
            println!(
                "{}: {} positions; probe of a stored position: median {:.0} ns, p99 {:.0} ns; \
                 of an absent one: median {:.0} ns, p99 {:.0} ns",
                path.display(),
                book.len(),
                hit[0],
                hit[1],
                miss[0],
                miss[1]
            );
            Ok(())
        }
    }
}
