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
    /// Search again every value a search made (each played position's best move outside the
    /// book and each unsolved leaf), with the weights given, then negamax: after the
    /// evaluation changed. Solved values are kept.
    Revalue {
        #[command(flatten)]
        valuing: ValuingArgs,
        /// Leave the positions with fewer empties as they are (to resume a stopped run: it
        /// says from where).
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=60))]
        from_empties: u8,
        /// Publish the book at most this often, after a whole empties count.
        #[arg(long, default_value_t = 600)]
        save_every: u64,
    },
    /// Grow the book by drop-out expansion (Lincke; Fuego's variant), publishing it at
    /// intervals.
    Expand {
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

/// Runs a `wedge book` command.
pub fn run_book(common: &Common, cmd: BookCommand) -> Result<(), CliError> {
    let builder = common.builder();
    let open = || -> Result<(PathBuf, Book), CliError> {
        let path = builder.book_path().ok_or("no book: pass --book FILE")?;
        let book = Book::open(&path, builder.verify())?;
        Ok((path, book))
    };
    // Commands that write need the file named: the shipped book is never rewritten by accident.
    let target = || -> Result<PathBuf, CliError> {
        common
            .book
            .clone()
            .ok_or_else(|| CliError::Usage("say which book to write with --book FILE".into()))
    };
    // The book to write, as it is on disk (new when missing).
    let existing = || -> Result<(PathBuf, BookBuilder), CliError> {
        let path = target()?;
        let book = BookBuilder::load_or_new(&path, 20)?;
        Ok((path, book))
    };
    let value_levels = |book: &mut BookBuilder,
                        v: &ValuingArgs,
                        after_level: &mut dyn FnMut(&mut BookBuilder, u32) -> bool|
     -> Result<(), CliError> {
        if let Some(s) = v.solve_empties {
            book.info.solve_empties = s;
        }
        let eval = Arc::new(builder.evaluation()?);
        let t = Instant::now();
        let stats = tool::value_book(
            book,
            eval,
            v.depth,
            Selectivity::from_percent(v.confidence),
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
    };
    let value = |book: &mut BookBuilder, v: &ValuingArgs| value_levels(book, v, &mut |_, _| true);
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
                    return Err(CliError::Usage("--forest takes exactly one file".into()));
                };
                wedge_lab::book::import_forest(f)?
            } else {
                BookBuilder::load_or_new(&path, min_empties)?
            };
            if text {
                for f in &files {
                    let st = wedge_lab::book::import_text(f, &mut book)?;
                    eprintln!("{}: {st:?}", f.display());
                }
            } else if !forest {
                let mut set = tool::GameSet::default();
                for f in &files {
                    tool::read_games(f, &mut set)?;
                }
                if let Some(report) = set.skipped_report() {
                    eprintln!("{report}");
                }
                if let Some(m) = max_games {
                    set.games.truncate(m);
                }
                let games = tool::common_prefixes(&book, &set.games, min_games);
                let (added, new, bad) = tool::add_games(&mut book, &games);
                eprintln!(
                    "games: {added} added, {} skipped (other start or unreadable), {bad} illegal; \
                     {new} new positions; {} in the book; {:.1} s",
                    set.skipped.len(),
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
            let (path, mut book) = existing()?;
            value(&mut book, &valuing)?;
            publish(&mut book, &path)
        }
        BookCommand::Revalue {
            valuing,
            from_empties,
            save_every,
        } => {
            let (path, mut book) = existing()?;
            let stale = book.mark_searched_values_stale(u32::from(from_empties));
            eprintln!("{stale} positions to search again");
            let mut checkpoints =
                tool::LevelCheckpoints::new(&path, std::time::Duration::from_secs(save_every));
            value_levels(&mut book, &valuing, &mut |b, e| {
                checkpoints.after_level(b, e)
            })?;
            checkpoints.finish()?;
            publish(&mut book, &path)
        }
        BookCommand::Expand {
            budget,
            dropout,
            depth,
            save_every,
            batch,
            queue,
        } => {
            let (path, mut book) = existing()?;
            let doe = dropout.params();
            let plan = tool::ExpandPlan {
                budget,
                depth,
                batch: batch.map(|b| b as usize),
                threads: builder.threads,
                save_every: std::time::Duration::from_secs(save_every),
            };
            let (model, mut remote) = match &queue {
                Some(url) => {
                    // The weights and model the workers get: read once.
                    let (weights, model) = super::common::queue_model(&builder)?;
                    let depth = depth.min(60);
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
        BookCommand::Cover {
            lines,
            expansions,
            additive,
            dropout,
            depth,
        } => {
            let (path, mut book) = existing()?;
            let mut set = tool::GameSet::default();
            tool::read_games(&lines, &mut set)?;
            if let Some(report) = set.skipped_report() {
                eprintln!("{report}");
            }
            let mut valuer = search_valuer(&builder, depth)?;
            let doe = dropout.params();
            let made = wedge_lab::book::cover(
                &mut book,
                &set.games,
                expansions,
                additive,
                &doe,
                &mut valuer,
            );
            book.publish(&path)?;
            println!("{made} expansions; {} positions", book.len());
            Ok(())
        }
        BookCommand::Deviate {
            relative,
            absolute,
            budget,
            depth,
        } => {
            let (path, mut book) = existing()?;
            let mut valuer = search_valuer(&builder, depth)?;
            let root = Board::START.canonical().0;
            let r = wedge_lab::book::deviate(
                &mut book,
                root,
                relative as i32,
                absolute as i32,
                budget,
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
        BookCommand::Refresh { dropout } => {
            let (path, mut book) = existing()?;
            let doe = dropout.params();
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
        BookCommand::Stats {
            quality,
            quality_depth,
            branch_plies,
        } => {
            let (_, book) = open()?;
            print!("{}", tool::stats_text(&book));
            if quality {
                let eval = Arc::new(builder.evaluation()?);
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
            let builder = BookBuilder::from_book(&book)?;
            if let Some(f) = forest {
                wedge_lab::book::export_forest(&builder, &f)?;
                eprintln!("{}: forest of {} positions", f.display(), builder.len());
            }
            if let Some(f) = text {
                wedge_lab::book::export_text(&builder, &f)?;
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
