//! `wedge review`: every game of game files reviewed move by move, printed as tables (or
//! JSON with `--json`) and written as a page with `--html`.

use super::{write_file, CliError, Common};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;
use wedge_core::book::{Book, BookSource};
use wedge_core::search::Selectivity;
use wedge_lab::tools::review::{self, ReviewError, ReviewSettings, Reviewer};
use wedge_lab::train::Progress;

/// `wedge review`.
#[derive(Args)]
pub struct ReviewArgs {
    /// Game files: GGF (one game or many, such as `wedge match --out`), WTHOR (`.wtb`), or move
    /// transcripts from the start, one game per line. Every game is reviewed.
    #[arg(required = true, value_name = "GAME")]
    pub games: Vec<PathBuf>,
    /// Midgame depth of the search for each position's best move; the best move and the move
    /// played are valued one ply less deep, from the position after them.
    #[arg(long, conflicts_with = "time", value_parser = clap::value_parser!(u32).range(2..=60))]
    pub depth: Option<u32>,
    /// Instead of a depth: about this many seconds for each position's search for the best
    /// move (the moves are then valued to the depth it reached).
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    pub time: Option<f64>,
    /// Positions with at most this many empties are solved exactly.
    #[arg(long, default_value_t = review::DEFAULT_EXACT_EMPTIES, value_name = "E",
          value_parser = clap::value_parser!(u32).range(0..=60))]
    pub exact_empties: u32,
    /// Multi-ProbCut confidence of the midgame searches (100 = no pruning; 99, 98, 95, 87 or
    /// 73).
    #[arg(long, default_value_t = review::DEFAULT_SELECTIVITY.percent(),
          value_parser = clap::value_parser!(u8).range(50..=100))]
    pub selectivity: u8,
    /// Also write the review as one self-contained HTML page (a graph, the boards, the moves).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Print the review as JSON (the data the page carries) instead of tables.
    #[arg(long)]
    pub json: bool,
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 86_400.0 => Ok(s),
        _ => Err(format!("{text:?} is not a number of seconds in (0, 86400]")),
    }
}

/// Reviews every game of every file; fails, after reviewing all the others, when a file or a
/// game could not be reviewed.
pub fn run(common: &Common, args: &ReviewArgs) -> Result<(), CliError> {
    let settings = ReviewSettings {
        depth: args.depth.unwrap_or(review::DEFAULT_DEPTH),
        selectivity: Selectivity::from_percent(args.selectivity),
        time: args.time.map(Duration::from_secs_f64),
        exact_empties: args.exact_empties,
    };
    let builder = common.builder();
    let searcher = builder.searcher()?;
    let book_path = builder.book_path();
    let book = match &book_path {
        Some(path) => Some(Book::open(path, builder.verify())?),
        None => None,
    };
    // Every file read first: a file or a game that cannot be reviewed is said at once.
    let mut games = Vec::new();
    let mut errors: Vec<ReviewError> = Vec::new();
    for path in &args.games {
        match review::read_games(path) {
            Ok(file) => {
                games.extend(file.games.into_iter().map(|g| (path, g)));
                errors.extend(file.errors);
            }
            Err(e) => errors.push(e),
        }
    }
    for e in &errors {
        eprintln!("wedge: {e}");
    }
    let total: usize = games.iter().map(|(_, g)| g.game.moves().len()).sum();
    // No bar (nor its last line) when there is nothing to review.
    let mut progress = Progress::new("moves", total as u64, games.is_empty());
    let reviewer = Reviewer::new(
        &searcher,
        book.as_ref().map(|b| b as &dyn BookSource),
        settings,
    );
    let mut out = std::io::stdout().lock();
    let write_error = |e: std::io::Error| CliError::Failed(format!("writing the review: {e}"));
    let mut reviews = Vec::with_capacity(games.len());
    let mut done = 0u64;
    for (path, game) in &games {
        let r = reviewer.review(path, game, &mut || {
            done += 1;
            progress.set(done);
        });
        if !args.json {
            review::write_table(&mut out, &r).map_err(write_error)?;
            writeln!(out).map_err(write_error)?;
        }
        reviews.push(r);
    }
    progress.finish(done);
    let data = review::run_json(&settings, book_path.as_deref(), &reviews, &errors);
    if args.json {
        writeln!(out, "{data}").map_err(write_error)?;
    }
    if let Some(file) = &args.html {
        let names: Vec<String> = args.games.iter().map(|p| p.display().to_string()).collect();
        let title = format!("Game review: {}", names.join(", "));
        let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
        let page = wedge_lab::tools::review_html::to_html(&title, &data, &reviews, &messages);
        write_file(file, page.as_bytes())?;
        eprintln!("{}: {} games", file.display(), reviews.len());
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(CliError::Failed(format!(
            "not everything was reviewed: {} named above; {} reviewed",
            plural(errors.len(), "error"),
            plural(reviews.len(), "game")
        )))
    }
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}
