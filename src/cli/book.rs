//! `wedge book ...`: build, inspect and convert the opening book (`--book FILE` says which).

use super::{parse_board_or_transcript, CliError, Common};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use wedge_core::board::Board;
use wedge_core::book::{Book, BookBuilder};
use wedge_core::eval::PatternEval;
use wedge_core::search::SearchValuer;
use wedge_core::search::Selectivity;
use wedge_engine::{BuildError, EngineBuilder};
use wedge_lab::distrib::QueueValuer;
use wedge_lab::tools::book as tool;

/// `wedge book ...`
#[derive(Subcommand)]
pub enum BookCommand {
    /// Add games (WTHOR .wtb, GGF .ggf, or transcripts one per line) to the book, then value
    /// and negamax it; with --forest/--text, read that interchange format instead.
    Import(ImportArgs),
    /// Value every played position that needs it and negamax the book (the Negamaxed level);
    /// also `wedge book fix`.
    #[command(alias = "fix")]
    Negamax(NegamaxArgs),
    /// Search again every value a search made (each played position's best move outside the
    /// book and each unsolved leaf), with the weights given, then negamax: after the
    /// evaluation changed. Solved values are kept.
    Revalue(RevalueArgs),
    /// Grow the book by drop-out expansion (Lincke; Fuego's variant), publishing it at
    /// intervals.
    Expand(ExpandArgs),
    /// Recompute every value from the leaves and every expansion priority (Fuego's Refresh).
    Refresh(RefreshArgs),
    /// Fuego's Cover: expand below every position of the given lines (transcripts, one per
    /// line) until each has K expansions (K more with --additive).
    Cover(CoverArgs),
    /// Edax's deviation: grow lines where one side loses at most RELATIVE discs per move and
    /// values stay within ABSOLUTE discs of the start's, for each side in turn.
    Deviate(DeviateArgs),
    /// Counts: positions, kinds, empties, search depths.
    Stats(StatsArgs),
    /// What the book says about a position (board string or transcript).
    Probe(ProbeArgs),
    /// Write the book as a compressed forest or a text book.
    Export(ExportArgs),
    /// Write a synthetic book of about SIZE megabytes (benchmarks).
    Synth(SynthArgs),
    /// Probe latency on the (hot) book: median and 99th percentile.
    Bench(BenchArgs),
}

#[derive(Args)]
pub struct ImportArgs {
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
}

#[derive(Args)]
pub struct NegamaxArgs {
    #[command(flatten)]
    valuing: ValuingArgs,
}

#[derive(Args)]
pub struct RevalueArgs {
    #[command(flatten)]
    valuing: ValuingArgs,
    /// Leave the positions with fewer empties as they are (to resume a stopped run: it
    /// says from where).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=60))]
    from_empties: u8,
    /// Publish the book at most this often, after a whole empties count.
    #[arg(long, default_value_t = 600)]
    save_every: u64,
}

#[derive(Args)]
pub struct ExpandArgs {
    /// Expansions (`5000`) or time (`90s`, `30m`, `2h`).
    #[arg(long)]
    budget: wedge_lab::tools::book::Budget,
    #[command(flatten)]
    dropout: DropOutArgs,
    /// Depth of the searches that value new positions.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,
    /// Publish the book every this many seconds.
    #[arg(long, default_value_t = 300)]
    save_every: u64,
    /// Expand this many leaves at a time, valued side by side on the threads (default:
    /// one at a time on one thread, 16 per thread on more). The same batch size makes
    /// the same book with any number of threads.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    batch: Option<u32>,
    /// Value the new positions on the workers of this NATS JetStream queue
    /// (nats://HOST:PORT, see `wedge worker`): the same book as the local run with the
    /// same batch size (default 32 here).
    #[arg(long, value_name = "URL")]
    queue: Option<String>,
}

#[derive(Args)]
pub struct RefreshArgs {
    #[command(flatten)]
    dropout: DropOutArgs,
}

#[derive(Args)]
pub struct CoverArgs {
    lines: PathBuf,
    #[arg(long)]
    expansions: usize,
    #[arg(long)]
    additive: bool,
    #[command(flatten)]
    dropout: DropOutArgs,
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,
}

#[derive(Args)]
pub struct DeviateArgs {
    relative: u8,
    absolute: u8,
    /// At most this many new played positions.
    #[arg(long, default_value_t = 10_000)]
    budget: usize,
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,
}

#[derive(Args)]
pub struct StatsArgs {
    /// Also compare, along the main lines, the book's values with fresh searches.
    #[arg(long)]
    quality: bool,
    /// Depth of those searches.
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=60))]
    quality_depth: u32,
    /// Main lines branch at the best 3 replies of the first N plies.
    #[arg(long, default_value_t = 2)]
    branch_plies: usize,
}

#[derive(Args)]
pub struct ProbeArgs {
    position: String,
}

#[derive(Args)]
pub struct ExportArgs {
    #[arg(long, conflicts_with = "text", required_unless_present = "text")]
    forest: Option<PathBuf>,
    #[arg(long)]
    text: Option<PathBuf>,
}

#[derive(Args)]
pub struct SynthArgs {
    out: PathBuf,
    #[arg(long, default_value_t = 1024)]
    size_mb: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Args)]
pub struct BenchArgs {
    #[arg(long, default_value_t = 200_000)]
    probes: usize,
}

/// Drop-out expansion parameters.
#[derive(Args, Clone, Copy)]
pub struct DropOutArgs {
    /// Cost in plies of each disc a line is worse than the best.
    #[arg(long, default_value_t = 0.5)]
    alpha: f64,
    /// Children considered below each node (the best by value).
    #[arg(long, default_value_t = 8)]
    width: usize,
}

impl DropOutArgs {
    fn params(&self) -> wedge_lab::book::DropOut {
        wedge_lab::book::DropOut::new(self.alpha, self.width)
    }
}

/// How book positions are valued.
#[derive(Args, Clone, Copy)]
pub struct ValuingArgs {
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
    builder: &EngineBuilder,
    depth: u32,
) -> Result<SearchValuer<PatternEval>, CliError> {
    let searcher = builder.with_hash(64).searcher()?;
    Ok(SearchValuer::new(searcher, depth, Selectivity::NONE))
}

/// Publishes a book and says what it holds.
fn publish(book: &mut BookBuilder, path: &Path) -> Result<(), CliError> {
    book.publish(path)?;
    eprintln!(
        "{}: {} positions, level {}",
        path.display(),
        book.len(),
        book.level().name()
    );
    Ok(())
}

/// The book to read: `--book`, else the shipped one.
fn open(builder: &EngineBuilder) -> Result<(PathBuf, Book), CliError> {
    let path = builder.book_path().ok_or("no book: pass --book FILE")?;
    let book = Book::open(&path, builder.verify())?;
    Ok((path, book))
}

/// The book to write: commands that write need the file named, so the shipped book is never
/// rewritten by accident.
fn target(common: &Common) -> Result<PathBuf, CliError> {
    common
        .book
        .clone()
        .ok_or_else(|| CliError::Usage("say which book to write with --book FILE".into()))
}

/// The book to write, as it is on disk (new when missing).
fn existing(common: &Common) -> Result<(PathBuf, BookBuilder), CliError> {
    let path = target(common)?;
    let book = BookBuilder::load_or_new(&path, 20)?;
    Ok((path, book))
}

/// Values what `book` needs, empties level by level from the fewest, as `valuing` says;
/// `after_level` runs after each level (false stops the sweep).
fn value_levels(
    builder: &EngineBuilder,
    book: &mut BookBuilder,
    valuing: &ValuingArgs,
    after_level: &mut dyn FnMut(&mut BookBuilder, u32) -> bool,
) -> Result<(), CliError> {
    if let Some(s) = valuing.solve_empties {
        book.info.solve_empties = s;
    }
    let eval = Arc::new(builder.evaluation()?);
    let t = Instant::now();
    let stats = tool::value_book(
        book,
        eval,
        valuing.depth,
        Selectivity::from_percent(valuing.confidence),
        builder.threads,
        builder.hash_mb.min(256),
        after_level,
    )
    .map_err(BuildError::hash)?;
    eprintln!(
        "valued: {} searched, {} solved, {} leaves added in {:.1} s",
        stats.searched,
        stats.solved,
        stats.leaves_added,
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

/// [`value_levels`] in one go.
fn value(
    builder: &EngineBuilder,
    book: &mut BookBuilder,
    valuing: &ValuingArgs,
) -> Result<(), CliError> {
    value_levels(builder, book, valuing, &mut |_, _| true)
}

/// Runs a `wedge book` command.
pub fn run_book(common: &Common, cmd: BookCommand) -> Result<(), CliError> {
    let builder = common.builder();
    match cmd {
        BookCommand::Import(args) => import(common, &builder, args),
        BookCommand::Negamax(args) => negamax(common, &builder, &args),
        BookCommand::Revalue(args) => revalue(common, &builder, &args),
        BookCommand::Expand(args) => expand(common, &builder, &args),
        BookCommand::Refresh(args) => refresh(common, &args),
        BookCommand::Cover(args) => cover(common, &builder, &args),
        BookCommand::Deviate(args) => deviate(common, &builder, &args),
        BookCommand::Stats(args) => stats(&builder, &args),
        BookCommand::Probe(args) => probe(&builder, &args),
        BookCommand::Export(args) => export(&builder, &args),
        BookCommand::Synth(args) => synth(&args),
        BookCommand::Bench(args) => bench(&builder, &args),
    }
}

/// `wedge book import`: games, a forest or a text book into the book, then valued.
fn import(common: &Common, builder: &EngineBuilder, args: ImportArgs) -> Result<(), CliError> {
    let path = target(common)?;
    let t = Instant::now();
    let mut book = if args.forest {
        let [f] = args.files.as_slice() else {
            return Err(CliError::Usage("--forest takes exactly one file".into()));
        };
        wedge_lab::book::import_forest(f)?
    } else {
        BookBuilder::load_or_new(&path, args.min_empties)?
    };
    if args.text {
        for f in &args.files {
            let st = wedge_lab::book::import_text(f, &mut book)?;
            eprintln!("{}: {st:?}", f.display());
        }
    } else if !args.forest {
        let mut set = tool::GameSet::default();
        for f in &args.files {
            tool::read_games(f, &mut set)?;
        }
        if let Some(report) = set.skipped_report() {
            eprintln!("{report}");
        }
        if let Some(m) = args.max_games {
            set.games.truncate(m);
        }
        let games = tool::common_prefixes(&book, &set.games, args.min_games);
        let (added, new, bad) = tool::add_games(&mut book, &games);
        eprintln!(
            "games: {added} added, {} skipped (other start or unreadable), {bad} illegal; \
             {new} new positions; {} in the book; {:.1} s",
            set.skipped.len(),
            book.len(),
            t.elapsed().as_secs_f64()
        );
    }
    if let Some(d) = args.description {
        book.info.description = d;
    }
    if !args.no_value && !args.forest {
        value(builder, &mut book, &args.valuing)?;
    }
    publish(&mut book, &path)
}

/// `wedge book negamax` (`fix`): values what needs it and negamaxes.
fn negamax(common: &Common, builder: &EngineBuilder, args: &NegamaxArgs) -> Result<(), CliError> {
    let (path, mut book) = existing(common)?;
    value(builder, &mut book, &args.valuing)?;
    publish(&mut book, &path)
}

/// `wedge book revalue`: every searched value made again, published as levels finish.
fn revalue(common: &Common, builder: &EngineBuilder, args: &RevalueArgs) -> Result<(), CliError> {
    let (path, mut book) = existing(common)?;
    let stale = book.mark_searched_values_stale(u32::from(args.from_empties));
    eprintln!("{stale} positions to search again");
    let mut checkpoints =
        tool::LevelCheckpoints::new(&path, std::time::Duration::from_secs(args.save_every));
    value_levels(builder, &mut book, &args.valuing, &mut |b, e| {
        checkpoints.after_level(b, e)
    })?;
    checkpoints.finish()?;
    publish(&mut book, &path)
}

/// `wedge book expand`: drop-out expansion, valued here or on a queue's workers.
fn expand(common: &Common, builder: &EngineBuilder, args: &ExpandArgs) -> Result<(), CliError> {
    let (path, mut book) = existing(common)?;
    let doe = args.dropout.params();
    let plan = tool::ExpandPlan {
        budget: args.budget,
        depth: args.depth,
        batch: args.batch.map(|b| b as usize),
        threads: builder.threads,
        save_every: std::time::Duration::from_secs(args.save_every),
    };
    let (model, mut remote) = match &args.queue {
        Some(url) => {
            // The weights and model the workers get: read once.
            let (weights, model) = super::common::queue_model(builder)?;
            let depth = args.depth.min(60);
            let table = tool::EXPAND_TABLE_MB;
            let remote = QueueValuer::connect(url, &weights, &model, depth, table)?;
            ((model.eval, model.probcut), Some(remote))
        }
        None => {
            let eval = Arc::new(builder.evaluation()?);
            ((eval, Arc::new(builder.probcut()?)), None)
        }
    };
    let level = remote
        .as_mut()
        .map(|q| q as &mut dyn wedge_core::book::LevelValuer);
    let r = tool::expand_book(&mut book, &path, model, &doe, &plan, level)?;
    if let Some(q) = &remote {
        let c = q.counts;
        println!(
            "queue: {} valuation units published, {} answered by an earlier run, {} results refused",
            c.units, c.answered_before, c.refused
        );
    }
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

/// `wedge book cover`: expansions below every position of the given lines.
fn cover(common: &Common, builder: &EngineBuilder, args: &CoverArgs) -> Result<(), CliError> {
    let (path, mut book) = existing(common)?;
    let mut set = tool::GameSet::default();
    tool::read_games(&args.lines, &mut set)?;
    if let Some(report) = set.skipped_report() {
        eprintln!("{report}");
    }
    let mut valuer = search_valuer(builder, args.depth)?;
    let doe = args.dropout.params();
    let made = wedge_lab::book::cover(
        &mut book,
        &set.games,
        args.expansions,
        args.additive,
        &doe,
        &mut valuer,
    );
    book.publish(&path)?;
    println!("{made} expansions; {} positions", book.len());
    Ok(())
}

/// `wedge book deviate`: Edax's bounded deviation from the start.
fn deviate(common: &Common, builder: &EngineBuilder, args: &DeviateArgs) -> Result<(), CliError> {
    let (path, mut book) = existing(common)?;
    let mut valuer = search_valuer(builder, args.depth)?;
    let root = Board::START.canonical().0;
    let r = wedge_lab::book::deviate(
        &mut book,
        root,
        args.relative as i32,
        args.absolute as i32,
        args.budget,
        &mut valuer,
    );
    book.publish(&path)?;
    println!(
        "{} rounds, {} positions made played; {} positions",
        r.rounds,
        r.expanded.len(),
        book.len()
    );
    Ok(())
}

/// `wedge book refresh`: every value and expansion priority recomputed.
fn refresh(common: &Common, args: &RefreshArgs) -> Result<(), CliError> {
    let (path, mut book) = existing(common)?;
    let doe = args.dropout.params();
    let prio = wedge_lab::book::refresh(&mut book, &doe);
    book.publish(&path)?;
    println!(
        "{} positions; {} reachable from the start; root priority {:.2}",
        book.len(),
        prio.len(),
        prio.get(&doe.root).copied().unwrap_or(0.0)
    );
    Ok(())
}

/// `wedge book stats`: counts, and with `--quality` values against fresh searches.
fn stats(builder: &EngineBuilder, args: &StatsArgs) -> Result<(), CliError> {
    let (_, book) = open(builder)?;
    print!("{}", tool::stats_text(&book));
    if args.quality {
        let eval = Arc::new(builder.evaluation()?);
        print!(
            "{}",
            tool::quality_text(&book, eval, args.quality_depth, args.branch_plies)
        );
    }
    Ok(())
}

/// `wedge book probe`: what the book says about a position.
fn probe(builder: &EngineBuilder, args: &ProbeArgs) -> Result<(), CliError> {
    let (_, book) = open(builder)?;
    let board = parse_board_or_transcript(&args.position)?;
    print!("{}", tool::probe_text(&book, &board));
    Ok(())
}

/// `wedge book export`: the forest or the text book.
fn export(builder: &EngineBuilder, args: &ExportArgs) -> Result<(), CliError> {
    let (_, book) = open(builder)?;
    let book = BookBuilder::from_book(&book)?;
    if let Some(f) = &args.forest {
        wedge_lab::book::export_forest(&book, f)?;
        eprintln!("{}: forest of {} positions", f.display(), book.len());
    }
    if let Some(f) = &args.text {
        wedge_lab::book::export_text(&book, f)?;
        eprintln!("{}: text book", f.display());
    }
    Ok(())
}

/// `wedge book synth`: a synthetic book for benchmarks.
fn synth(args: &SynthArgs) -> Result<(), CliError> {
    let t = Instant::now();
    let (size, n) = tool::write_synthetic(&args.out, args.size_mb << 20, args.seed)?;
    println!(
        "{}: {n} positions, {size} bytes, {:.1} s",
        args.out.display(),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `wedge book bench`: probe latency.
fn bench(builder: &EngineBuilder, args: &BenchArgs) -> Result<(), CliError> {
    let (path, book) = open(builder)?;
    let (hit, miss) = tool::probe_latency(&book, args.probes, 7);
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
