//! `wedge book ...`: importing games, valuing and negamaxing, statistics, probes, the forest and
//! text interchange formats, synthetic books for benchmarks, and the probe-latency bench. The
//! searches that value book positions are plugged in here (the book itself never searches).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use wedge_core::board::{Board, Move, Square, Squares};
use wedge_core::book::encode_book;
use wedge_core::book::{normalize, SweepStats};
use wedge_core::book::{Book, BookBuilder, BookInfo};
use wedge_core::book::{Deviation, NodeKind, Record, DEFAULT_WEIGHT};
use wedge_core::eval::Evaluator;
pub use wedge_core::formats::GamePlace;
use wedge_core::formats::{read_game_records, FileGame, Position};
use wedge_core::search::{SearchValuer, Selectivity, TableError};
use wedge_engine::EngineBuilder;

/// Why a book tool failed.
#[derive(Debug, thiserror::Error)]
pub enum BookToolError {
    #[error(transparent)]
    Games(#[from] wedge_core::formats::GameFileError),
    #[error(transparent)]
    Write(std::io::Error),
    #[error(transparent)]
    Book(#[from] wedge_core::book::BookError),
    #[error("valuing on the queue: {0} (the book was not published since the last batch)")]
    Remote(String),
}

/// Games read from files, and those that could not be used.
#[derive(Debug, Default)]
pub struct GameSet {
    pub games: Vec<Vec<Move>>,
    /// Games that do not replay from the standard start (damaged, or from another position),
    /// each with its file, its place there and why.
    pub skipped: Vec<SkippedGame>,
}

/// A game of a file left out of a [`GameSet`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("file {} {place}: {reason}", path.display())]
pub struct SkippedGame {
    pub path: PathBuf,
    pub place: GamePlace,
    pub reason: String,
}

/// Skipped games listed one by one in [`GameSet::skipped_report`]; more are only counted.
const SKIPPED_LISTED: usize = 20;

impl GameSet {
    /// What was skipped, for the user (none when nothing was): the count, then each game (the
    /// first [`SKIPPED_LISTED`]) on a line of its own.
    pub fn skipped_report(&self) -> Option<String> {
        let n = self.skipped.len();
        if n == 0 {
            return None;
        }
        let games = if n == 1 { "game" } else { "games" };
        let mut text = format!("skipped {n} {games} (damaged, or not from the standard start):");
        for s in self.skipped.iter().take(SKIPPED_LISTED) {
            text.push_str(&format!("\n  {s}"));
        }
        if n > SKIPPED_LISTED {
            text.push_str(&format!("\n  and {} more", n - SKIPPED_LISTED));
        }
        Some(text)
    }

    /// Adds the moves of the game at `place` of `path`, or why it is skipped.
    fn add(&mut self, path: &Path, place: GamePlace, game: Result<Vec<Move>, String>) {
        match game {
            Ok(moves) => self.games.push(moves),
            Err(reason) => self.skipped.push(SkippedGame {
                path: path.to_path_buf(),
                place,
                reason,
            }),
        }
    }
}

/// Reads the games of a WTHOR, GGF or transcript file ([`read_game_records`]); a game that does
/// not replay from the standard start is skipped ([`GameSet::skipped`]).
pub fn read_games(path: &Path, set: &mut GameSet) -> Result<(), BookToolError> {
    for FileGame { place, game, .. } in read_game_records(path)? {
        let moves = match game {
            Ok(g) if g.start() == Position::START => Ok(g.moves().to_vec()),
            Ok(_) => Err("starts from another position than the standard one".into()),
            Err(e) => Err(e.to_string()),
        };
        set.add(path, place, moves);
    }
    Ok(())
}

/// The longest prefix of each game whose positions were all reached by at least `min_games`
/// of the games (transpositions and symmetries counted as one position).
pub fn common_prefixes(
    book: &BookBuilder,
    games: &[Vec<Move>],
    min_games: usize,
) -> Vec<Vec<Move>> {
    if min_games <= 1 {
        return games.to_vec();
    }
    let keys_of = |g: &[Move]| -> Vec<Option<Board>> {
        let mut b = Board::START;
        let mut keys = Vec::with_capacity(g.len() + 1);
        for mv in g.iter().copied().map(Some).chain(std::iter::once(None)) {
            keys.push(
                normalize(&b)
                    .filter(|(n, _)| book.keeps(n))
                    .map(|(n, _)| n.canonical().0),
            );
            let Some(mv) = mv else { break };
            if matches!(mv, Move::Play(_)) && b.legal_moves() == 0 {
                b = b.pass();
            }
            match b.apply(mv) {
                Ok(n) => b = n,
                Err(_) => break,
            }
        }
        keys
    };
    let mut counts: std::collections::HashMap<Board, usize> = std::collections::HashMap::new();
    let all: Vec<Vec<Option<Board>>> = games.iter().map(|g| keys_of(g)).collect();
    for keys in &all {
        let mut last = None;
        for k in keys.iter().flatten() {
            if last != Some(*k) {
                *counts.entry(*k).or_default() += 1;
                last = Some(*k);
            }
        }
    }
    games
        .iter()
        .zip(&all)
        .map(|(g, keys)| {
            // Moves kept: while the position after each is common enough (or not storable).
            let mut n = 0;
            while n < g.len() {
                match keys.get(n + 1) {
                    Some(Some(k)) if counts[k] >= min_games => n += 1,
                    _ => break,
                }
            }
            g[..n].to_vec()
        })
        .collect()
}

/// Adds games to a book; returns (games added, new positions, games refused as illegal).
pub fn add_games(book: &mut BookBuilder, games: &[Vec<Move>]) -> (usize, usize, usize) {
    let (mut added, mut new, mut bad) = (0, 0, 0);
    for g in games {
        match book.add_game(g) {
            Ok(n) => {
                added += 1;
                new += n;
            }
            Err(_) => bad += 1,
        }
    }
    (added, new, bad)
}

/// Values the book with searches of `depth` plies (solving at the book's solve threshold and
/// below) on `threads` threads, each with a table of `hash_mb` MB, with a progress bar;
/// `after_level` as in [`BookBuilder::sweep_levels`]. Fails, before any search, when the
/// system refuses the tables.
pub fn value_book<E: Evaluator + 'static>(
    book: &mut BookBuilder,
    eval: Arc<E>,
    depth: u32,
    selectivity: Selectivity,
    threads: usize,
    hash_mb: usize,
    after_level: &mut dyn FnMut(&mut BookBuilder, u32) -> bool,
) -> Result<SweepStats, TableError> {
    book.info.search_depth = depth.min(60) as u8;
    // One valuer per thread, made now; a level's threads each take a free one (a valuer
    // empties its table before every search, so which one a thread gets changes nothing).
    let valuers = (0..threads.max(1))
        .map(|_| {
            let searcher =
                EngineBuilder::of_size(hash_mb, 1).try_searcher_with(eval.clone(), None)?;
            Ok(Mutex::new(SearchValuer::new(searcher, depth, selectivity)))
        })
        .collect::<Result<Vec<_>, TableError>>()?;
    let make = || {
        valuers
            .iter()
            .find_map(|v| v.try_lock().ok())
            .expect("as many valuers as threads")
    };
    let progress = Mutex::new(Progress::new(
        "valuing",
        0,
        "{bar:40} {pos}/{len} positions {per_sec} eta {eta}",
    ));
    let started = Instant::now();
    let update = |done: usize, total: usize| {
        if let Ok(mut p) = progress.lock() {
            p.update(done as u64, total as u64, || {
                format!(
                    "{done}/{total} positions, {:.0} s",
                    started.elapsed().as_secs_f64()
                )
            });
        }
    };
    let mut local = wedge_core::book::LocalThreads {
        make: &make,
        threads: valuers.len(),
    };
    let stats = book.sweep_levels(Some(&mut local), &update, after_level);
    if let Ok(p) = progress.lock() {
        p.finish();
    }
    Ok(stats)
}

/// The publishing of a long sweep (`wedge book revalue`): after a whole empties count, at
/// most every `every`, the book is published and a line says from where a stopped run
/// resumes; a publish that fails stops the sweep, and [`LevelCheckpoints::finish`] returns
/// its error.
pub struct LevelCheckpoints<'a> {
    path: &'a Path,
    every: std::time::Duration,
    last: Instant,
    failed: Option<wedge_core::book::BookError>,
}

impl<'a> LevelCheckpoints<'a> {
    pub fn new(path: &'a Path, every: std::time::Duration) -> Self {
        LevelCheckpoints {
            path,
            every,
            last: Instant::now(),
            failed: None,
        }
    }

    /// For [`BookBuilder::sweep_levels`]: publishes when due; false when that failed.
    pub fn after_level(&mut self, book: &mut BookBuilder, empties: u32) -> bool {
        if empties >= 60 || self.last.elapsed() < self.every {
            return true;
        }
        self.last = Instant::now();
        match book.publish(self.path) {
            Ok(()) => {
                eprintln!(
                    "published with every position of at most {empties} empties valued again; \
                     if stopped, resume with --from-empties {}",
                    empties + 1
                );
                true
            }
            Err(e) => {
                self.failed = Some(e);
                false
            }
        }
    }

    /// The error of a publish that stopped the sweep.
    pub fn finish(self) -> Result<(), BookToolError> {
        self.failed.map_or(Ok(()), |e| Err(e.into()))
    }
}

/// `wedge book stats`: first line `positions: N`, then counts by kind, by empties, and the
/// histogram of search depths. Damaged records (possible when the table's checksum was
/// skipped) are counted apart and left out of the histograms.
pub fn stats_text(book: &Book) -> String {
    let info = book.info();
    let mut by_empties = [0u64; 65];
    let mut depths = [0u64; 256];
    let mut unvalued = 0u64;
    let mut damaged = 0u64;
    let mut first_damage = None;
    for r in book.records() {
        let r = match r {
            Ok(r) => r,
            Err(e) => {
                damaged += 1;
                first_damage.get_or_insert(e);
                continue;
            }
        };
        by_empties[r.key.empty_count() as usize] += 1;
        depths[r.depth as usize] += 1;
        if r.kind == NodeKind::UnsolvedBranch && r.deviation == Deviation::NotComputed {
            unvalued += 1;
        }
    }
    let [solved, leaves, branches] = book.counts();
    let mut s = format!("positions: {}\n", book.len());
    s += &format!("solved: {solved}\nunsolved leaves: {leaves}\nunsolved branches: {branches}\n");
    s += &format!("not yet valued: {unvalued}\n");
    if let Some(e) = first_damage {
        s += &format!("damaged records: {damaged}, ignored (the first: {e})\n");
    }
    s += &format!(
        "level: {}; minimum empties {}; search depth {}; solved from {} empties\n",
        info.level.name(),
        info.min_empties,
        info.search_depth,
        info.solve_empties
    );
    s += &format!(
        "file: {} bytes, {} slots ({:.0}% full)\n",
        book.file_size(),
        book.slots(),
        100.0 * book.len() as f64 / book.slots() as f64
    );
    if !info.description.is_empty() {
        s += &format!("description: {}\n", info.description);
    }
    s += "by empties:\n";
    for (e, c) in by_empties.iter().enumerate().rev() {
        if *c > 0 {
            s += &format!("  {e:2} {c}\n");
        }
    }
    s += "by depth searched:\n";
    for (d, c) in depths.iter().enumerate() {
        if *c > 0 {
            s += &format!("  {d:2} {c}\n");
        }
    }
    s
}

/// `wedge book probe`: what the book says about `board` (any orientation, passes resolved).
pub fn probe_text(book: &Book, board: &Board) -> String {
    let Some((b, passed)) = normalize(board) else {
        return format!("game over: {:+}\n", board.final_score());
    };
    if b.empty_count() < book.info().min_empties as u32 {
        return format!(
            "{} empties: below the book's minimum ({}); positions this deep are solved\n",
            b.empty_count(),
            book.info().min_empties
        );
    }
    let Some(p) = book.probe(&b) else {
        return "not in book\n".into();
    };
    let mut s = String::new();
    if passed {
        s += "the side to move must pass; the position after the pass:\n";
    }
    s += &format!(
        "{} value {:+} depth {} games {} weight {}{}\n",
        p.kind.name(),
        p.value,
        p.depth,
        p.games,
        p.weight as f64 / DEFAULT_WEIGHT as f64,
        if p.valued { "" } else { " (not yet valued)" }
    );
    for r in p.replies() {
        s += &format!(
            "  {} {:+}{}\n",
            r.sq,
            r.value,
            if r.deviation {
                "  best move outside the book"
            } else {
                ""
            }
        );
    }
    if p.all_in_book {
        s += "  every legal move is in the book\n";
    }
    s
}

/// Builds a synthetic book of about `bytes` bytes: random positions reached by random play,
/// each a played node with values (for start-up, sharing and probe benchmarks).
pub(crate) fn synthetic_records(bytes: u64, seed: u64) -> Vec<Record> {
    let slots_wanted = (bytes / 32).max(2);
    let mut slots = 2u64;
    while slots * 2 <= slots_wanted {
        slots *= 2;
    }
    let entries = (slots * 6 / 10) as usize;
    let mut rng = wedge_core::rng::Rng::new(seed);
    let mut seen = std::collections::HashSet::with_capacity(entries);
    let mut out = Vec::with_capacity(entries);
    while out.len() < entries {
        let mut b = Board::START;
        let plies = 4 + rng.below(36) as usize;
        for _ in 0..plies {
            match b.random_move(&mut rng) {
                Some(m) => b = b.apply(m).expect("legal"),
                None => break,
            }
        }
        let Some((b, _)) = normalize(&b) else {
            continue;
        };
        let key = b.canonical().0;
        if !seen.insert(key) {
            continue;
        }
        let moves: Vec<Square> = Squares(key.legal_moves()).collect();
        let v = (rng.below(21) as i8) - 10;
        let mut children = [None; 3];
        for (c, sq) in children.iter_mut().zip(&moves) {
            *c = Some((sq.index() as u8, v - rng.below(3) as i8));
        }
        children[0] = children[0].map(|(m, _)| (m, v));
        out.push(Record {
            key,
            kind: NodeKind::UnsolvedBranch,
            value: v,
            depth: 12,
            deviation: match moves.get(3) {
                Some(sq) => Deviation::Move {
                    sq: sq.index() as u8,
                    value: v - 2,
                    depth: 12,
                },
                None => Deviation::AllInBook,
            },
            weight: DEFAULT_WEIGHT,
            games: 1,
            children,
        });
    }
    out
}

/// Writes a synthetic book of about `bytes` bytes at `path`.
pub fn write_synthetic(path: &Path, bytes: u64, seed: u64) -> Result<(u64, usize), BookToolError> {
    let records = synthetic_records(bytes, seed);
    let info = BookInfo {
        min_empties: 20,
        level: wedge_core::book::Consistency::Negamaxed,
        search_depth: 12,
        solve_empties: 20,
        weighted: false,
        created: 0,
        description: format!("synthetic benchmark book, seed {seed}"),
    };
    let image = encode_book(&info, &records);
    let size = image.len() as u64;
    wedge_core::paths::write_atomic(path, &image).map_err(BookToolError::Write)?;
    Ok((size, records.len()))
}

/// Probe latency on a hot book: `probes` probes of stored positions (and as many of absent
/// ones), timed one by one. Returns (median ns, p99 ns) for hits and for misses.
pub fn probe_latency(book: &Book, probes: usize, seed: u64) -> ([f64; 2], [f64; 2]) {
    let mut rng = wedge_core::rng::Rng::new(seed);
    // Stored positions spread over the whole table, in a random orientation.
    let stride = (book.len() as usize / probes.max(1)).max(1);
    let mut stored: Vec<Board> = book
        .records()
        .step_by(stride)
        .filter_map(Result::ok)
        .map(|r| {
            r.key
                .transform(wedge_core::board::Symmetry::ALL[rng.below(8) as usize])
        })
        .take(probes.max(1))
        .collect();
    // Shuffled, so neighbouring probes do not share cache lines.
    for i in (1..stored.len()).rev() {
        stored.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut absent = Vec::new();
    while absent.len() < stored.len() {
        let mut b = Board::START;
        for _ in 0..(10 + rng.below(30)) {
            match b.random_move(&mut rng) {
                Some(m) => b = b.apply(m).expect("legal"),
                None => break,
            }
        }
        if b.legal_moves() != 0 && book.probe(&b).is_none() {
            absent.push(b);
        }
    }
    let time = |boards: &[Board]| {
        // Warm the pages and caches first: this measures a hot book.
        for b in boards {
            std::hint::black_box(book.probe(b));
        }
        let mut ns: Vec<f64> = Vec::with_capacity(boards.len());
        for chunk in boards.chunks(16) {
            let t = Instant::now();
            for b in chunk {
                std::hint::black_box(book.probe(std::hint::black_box(b)));
            }
            ns.push(t.elapsed().as_nanos() as f64 / chunk.len() as f64);
        }
        ns.sort_by(|a, b| a.total_cmp(b));
        [
            ns[ns.len() / 2],
            ns[(ns.len() * 99 / 100).min(ns.len() - 1)],
        ]
    };
    (time(&stored), time(&absent))
}

/// Seconds between two progress lines when stderr is not a terminal.
pub(crate) const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// When a long command prints its next progress line: at the first update, then once
/// `every` has passed since the last line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LineTimer {
    every: std::time::Duration,
    last: Option<Instant>,
}

impl LineTimer {
    pub fn new(every: std::time::Duration) -> LineTimer {
        LineTimer { every, last: None }
    }

    /// True when a line is due at `now` (which then counts as the last line's time).
    pub(crate) fn due(&mut self, now: Instant) -> bool {
        let due = self
            .last
            .is_none_or(|last| now.saturating_duration_since(last) >= self.every);
        if due {
            self.last = Some(now);
        }
        due
    }
}

/// Progress of a long book command: a bar on a terminal; elsewhere (a log file, a pipe, where
/// the bar would not show) a line on stderr every [`PROGRESS_EVERY`].
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    lines: LineTimer,
    what: &'static str,
}

impl Progress {
    fn new(what: &'static str, length: u64, template: &str) -> Progress {
        use std::io::IsTerminal;
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(length);
            bar.set_style(
                indicatif::ProgressStyle::with_template(template).expect("valid template"),
            );
            bar
        });
        Progress {
            bar,
            lines: LineTimer::new(PROGRESS_EVERY),
            what,
        }
    }

    fn update(&mut self, position: u64, length: u64, message: impl FnOnce() -> String) {
        match &self.bar {
            Some(bar) => {
                bar.set_length(length);
                bar.set_position(position);
                bar.set_message(message());
            }
            None => {
                if self.lines.due(Instant::now()) {
                    eprintln!("{}: {}", self.what, message());
                }
            }
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// How long an expansion runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    Expansions(u64),
    Time(std::time::Duration),
}

/// A `--budget` that is neither a number of expansions nor a time.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad budget {0:?}: a number of expansions, or 90s / 30m / 2h")]
pub struct BadBudget(pub String);

impl std::str::FromStr for Budget {
    type Err = BadBudget;

    /// `5000` expansions, or a time: `90s`, `30m`, `2h`.
    fn from_str(s: &str) -> Result<Budget, BadBudget> {
        let s = s.trim();
        let bad = || BadBudget(s.to_string());
        let (num, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
        let n: u64 = num.parse().map_err(|_| bad())?;
        let secs = match unit {
            "" => return Ok(Budget::Expansions(n)),
            "s" => n,
            "m" => n * 60,
            "h" => n * 3600,
            _ => return Err(bad()),
        };
        Ok(Budget::Time(std::time::Duration::from_secs(secs)))
    }
}

/// What an expansion run did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExpandReport {
    pub expansions: u64,
    pub positions_before: usize,
    pub positions_after: usize,
    pub seconds: f64,
    pub saves: u64,
}

/// How `wedge book expand` runs: the budget, the depth of its searches, the leaves expanded
/// at a time and the threads that value them, and how often the book is published.
#[derive(Clone, Copy, Debug)]
pub struct ExpandPlan {
    pub budget: Budget,
    pub depth: u32,
    /// Leaves expanded together (`None`: one at a time on one thread, 16 per thread on more).
    /// A given batch size makes the same book on any number of threads.
    pub batch: Option<usize>,
    pub threads: usize,
    pub save_every: std::time::Duration,
}

/// The transposition table of each expansion search, MB (emptied before each: small).
pub const EXPAND_TABLE_MB: usize = 4;

/// Leaves expanded at a time when the valuations run elsewhere and no batch size was given.
pub(crate) const REMOTE_BATCH: usize = 32;

/// Grows the book at `path` by drop-out expansion, publishing it every `save_every` (so an
/// interruption loses at most one interval) and at the end. With `remote`, the valuations
/// are made there (workers of a queue) in batches; the same batches give the same book.
pub fn expand_book<E: Evaluator + 'static>(
    book: &mut BookBuilder,
    path: &Path,
    (eval, probcut): (Arc<E>, Arc<wedge_core::search::ProbCutModel>),
    doe: &crate::book::DropOut,
    plan: &ExpandPlan,
    mut remote: Option<&mut dyn wedge_core::book::LevelValuer>,
) -> Result<ExpandReport, BookToolError> {
    let ExpandPlan {
        budget,
        depth,
        threads,
        save_every,
        ..
    } = *plan;
    use crate::book::{expand_batch, expand_batch_with, expand_once, refresh};
    use wedge_core::search::SearchValuer;
    book.info.search_depth = depth.min(60) as u8;
    // One thread: expansions one by one. Several: batches of leaves valued side by side, each
    // search on one thread (shallow searches gain little from splitting).
    // Small tables: a batch builds its valuers afresh for every empties level it values.
    let make = || {
        let searcher = EngineBuilder::of_size(EXPAND_TABLE_MB, 1)
            .searcher_with(eval.clone(), Some(probcut.clone()));
        SearchValuer::new(searcher, depth, Selectivity::NONE)
    };
    let mut valuer = make();
    let batch = match plan.batch {
        Some(b) => Some(b.max(1)),
        None if remote.is_some() => Some(REMOTE_BATCH),
        None => (threads > 1).then_some(16 * threads),
    };
    let mut report = ExpandReport {
        positions_before: book.len(),
        ..Default::default()
    };
    let start = Instant::now();
    let length = match budget {
        Budget::Expansions(n) => n,
        Budget::Time(t) => t.as_secs(),
    };
    let mut progress = Progress::new("expand", length, "{bar:40} {msg} eta {eta}");
    let mut prio = refresh(book, doe);
    let mut last_save = Instant::now();
    loop {
        let done = match budget {
            Budget::Expansions(n) => report.expansions >= n,
            Budget::Time(t) => start.elapsed() >= t,
        };
        if done {
            break;
        }
        if let Some(batch) = batch {
            // Each batch ends with a full refresh.
            let made = match remote.as_deref_mut() {
                Some(level) => expand_batch_with(book, &mut prio, doe, level, batch),
                None => expand_batch(book, &mut prio, doe, &make, threads, batch),
            };
            if let Some(why) = remote.as_deref().and_then(|l| l.failure()) {
                progress.finish();
                return Err(BookToolError::Remote(why));
            }
            match made {
                0 => break,
                n => report.expansions += n as u64,
            }
        } else {
            if expand_once(book, &mut prio, doe, &mut valuer).is_none() {
                break;
            }
            report.expansions += 1;
            if report.expansions.is_multiple_of(500) {
                // Transpositions change values off the expanded path: Fuego's periodic Refresh.
                prio = refresh(book, doe);
            }
        }
        let secs = start.elapsed().as_secs_f64();
        let position = match budget {
            Budget::Expansions(_) => report.expansions,
            Budget::Time(_) => secs as u64,
        };
        progress.update(position, length, || {
            format!(
                "{} expansions, {} positions, {:.1} positions/s, {:.0} s",
                report.expansions,
                book.len(),
                (book.len().saturating_sub(report.positions_before)) as f64 / secs.max(1e-9),
                secs
            )
        });
        if last_save.elapsed() >= save_every {
            book.publish(path)?;
            report.saves += 1;
            last_save = Instant::now();
        }
    }
    refresh(book, doe);
    book.publish(path)?;
    report.saves += 1;
    progress.finish();
    report.positions_after = book.len();
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

/// `wedge book stats --quality`: along the main lines (the book's best line from the start,
/// and the best line after each stored reply to the first `branch_plies` positions), the book
/// value of every position against a fresh search of `depth` plies without the book.
pub fn quality_text<E: Evaluator + 'static>(
    book: &Book,
    eval: Arc<E>,
    depth: u32,
    branch_plies: usize,
) -> String {
    use wedge_core::book::book_children;
    let searcher = EngineBuilder::of_size(64, 1).searcher_with(eval, None);
    let stop = std::sync::atomic::AtomicBool::new(false);
    // Starting prefixes: the empty line, then one per stored reply in the first plies.
    let mut prefixes: Vec<Vec<Square>> = vec![Vec::new()];
    let mut frontier: Vec<Vec<Square>> = vec![Vec::new()];
    for _ in 0..branch_plies {
        let mut next = Vec::new();
        for p in &frontier {
            let mut b = Board::START;
            for &sq in p {
                b = b.play(sq).expect("book moves are legal");
            }
            for c in book_children(book, &b).iter().take(3) {
                let mut q = p.clone();
                q.push(c.sq);
                next.push(q);
            }
        }
        prefixes.extend(next.iter().cloned());
        frontier = next;
    }
    let mut out = format!(
        "{:<40} {:>7} {:>6} {:>7} {:>5}\n",
        "line", "empties", "book", "search", "diff"
    );
    let (mut n, mut total) = (0u32, 0i64);
    let mut seen = std::collections::HashSet::new();
    for prefix in prefixes {
        let mut b = Board::START;
        let mut line = String::new();
        for &sq in &prefix {
            b = b.play(sq).expect("legal");
            line += &sq.to_string();
        }
        // Then follow the book's best moves to the end of the book.
        while let Some((nb, _)) = normalize(&b) {
            b = nb;
            if b.empty_count() < book.info().min_empties as u32 {
                break;
            }
            let Some(p) = book.probe(&b).filter(|p| p.valued) else {
                break;
            };
            if seen.insert(b.canonical().0) {
                let r = searcher.search_among(
                    &b,
                    &wedge_core::search::Limits::depth(depth),
                    u64::MAX,
                    None,
                    &stop,
                    &mut |_| {},
                );
                let diff = p.value - r.score.discs();
                n += 1;
                total += diff.unsigned_abs() as i64;
                let shown = if line.len() > 38 {
                    format!("..{}", &line[line.len() - 36..])
                } else {
                    line.clone()
                };
                out += &format!(
                    "{:<40} {:>7} {:>+6} {:>+7} {:>+5}\n",
                    if shown.is_empty() { "(start)" } else { &shown },
                    b.empty_count(),
                    p.value,
                    r.score,
                    diff
                );
            }
            let Some(best) = p.best() else { break };
            if best.deviation {
                break;
            }
            b = b.play(best.sq).expect("legal");
            line += &best.sq.to_string();
        }
    }
    out += &format!(
        "{n} positions; mean |book - search({depth})| = {:.2} discs\n",
        total as f64 / n.max(1) as f64
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_progress_line_is_due_at_the_start_then_every_interval() {
        let mut t = LineTimer::new(Duration::from_secs(10));
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        assert!(t.due(at(0)));
        assert!(!t.due(at(9)));
        assert!(t.due(at(10)));
        assert!(!t.due(at(19)));
        assert!(t.due(at(25)));
        assert!(!t.due(at(34)));
        assert!(t.due(at(35)));
    }

    #[test]
    fn games_that_do_not_replay_are_skipped_with_their_place_and_why() {
        let dir = std::env::temp_dir().join(format!("wedge-read-games-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("lines.txt");
        std::fs::write(&file, "# header\nf5d6c3\nf5z9\n\nf5f5\nf5d6\n").unwrap();
        let mut set = GameSet::default();
        read_games(&file, &mut set).unwrap();
        assert_eq!(set.games.len(), 2);
        let places: Vec<_> = set.skipped.iter().map(|s| s.place).collect();
        assert_eq!(places, [GamePlace::Line(3), GamePlace::Line(5)]);
        let report = set.skipped_report().unwrap();
        let lines: Vec<&str> = report.lines().collect();
        assert_eq!(
            lines[0],
            "skipped 2 games (damaged, or not from the standard start):"
        );
        assert!(
            lines[1].starts_with(&format!("  file {} line 3: ", file.display())),
            "{report}"
        );
        assert!(lines[2].contains("illegal"), "{report}");
        assert_eq!(GameSet::default().skipped_report(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
