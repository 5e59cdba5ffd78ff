//! One way to assemble what a command searches with: the weights, their ProbCut model, the
//! transposition table, the threads and the books. Every `wedge` command goes through it.

use super::searcher_size::SearcherSize;
use super::{BookSetting, Engine, EngineOptions, EventSink};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use wedge_core::book::Verify;
use wedge_core::eval::PatternEval;
use wedge_core::eval::WeightsError;
use wedge_core::search::Searcher;
use wedge_core::search::TranspositionTable;
use wedge_core::search::{ProbCutError, ProbCutModel, TableError, TableSizeError};

/// Why an engine could not be assembled.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(
        "no weights: weights/default.wts is neither beside the executable, in the source tree \
         nor under $WEDGE_HOME; pass --weights FILE"
    )]
    NoWeights,
    #[error("no weights file {}", .0.display())]
    MissingWeights(PathBuf),
    #[error("--solver-weights {}: no such file", .0.display())]
    MissingSolverWeights(PathBuf),
    #[error(
        "--solver-probcut {}: no solver's weights to go with it (give --solver-weights, or put \
         solver.wts beside the weights)",
        .0.display()
    )]
    SolverProbcutWithoutSolverWeights(PathBuf),
    #[error(transparent)]
    Weights(#[from] WeightsError),
    #[error(transparent)]
    ProbCut(#[from] ProbCutError),
    /// The system refuses the memory of the table `--hash` asks for.
    #[error(transparent)]
    Hash(TableSizeError),
    /// The user's book is there but no regular file (a directory, a FIFO...).
    #[error("--learn-book {}: {source}; name a book file", path.display())]
    LearnBook {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "--learn-book {} is the shipped book, which play never writes; learned games need a \
         book of their own",
        .0.display()
    )]
    LearnBookIsShipped(PathBuf),
}

impl BuildError {
    /// The error of a table of the size `--hash` asked for.
    pub fn hash(e: TableError) -> BuildError {
        BuildError::Hash(e.of_option("--hash"))
    }
}

/// The solver's weights' file name beside the play weights they go with (their ProbCut
/// model beside them, as `solver.probcut`).
pub const SOLVER_WEIGHTS_FILE: &str = "solver.wts";

/// The books play consults.
#[derive(Clone, Debug, Default)]
pub struct BookOptions {
    /// `--book`: the book file (none: the shipped one when present).
    pub path: Option<PathBuf>,
    /// `--no-book`: no book at all, not even the user's.
    pub disabled: bool,
    /// `--book-trust`: skip the checksum of the book's table.
    pub trust: bool,
    /// Book moves losing at most this many discs may be chosen.
    pub randomness: u32,
    /// Seed of the random book choices.
    pub seed: Option<u64>,
    /// `--learn-book`: the user's book (none: the one under the user's data directory).
    pub learn_book: Option<PathBuf>,
}

/// What to assemble: files (none: the shipped ones), table size and threads.
#[derive(Clone, Debug)]
pub struct EngineBuilder {
    /// `--weights` (none: `weights/default.wts` where the shipped data lives).
    pub weights: Option<PathBuf>,
    /// `--probcut` (none: the `.probcut` file beside the weights, else no model).
    pub probcut: Option<PathBuf>,
    /// `--solver-weights` (none: [`SOLVER_WEIGHTS_FILE`] beside the weights when present,
    /// else the weights themselves guide solves).
    pub solver_weights: Option<PathBuf>,
    /// `--solver-probcut` (none: the `.probcut` file beside the solver's weights, else no
    /// model).
    pub solver_probcut: Option<PathBuf>,
    pub hash_mb: usize,
    pub threads: usize,
    pub book: BookOptions,
    /// `--ponder`: think on the opponent's time in clock play ([`EngineOptions::ponder`]).
    pub ponder: bool,
}

impl EngineBuilder {
    /// A table of `hash_mb` MB and `threads` threads, for searchers around an evaluation
    /// already loaded ([`SearcherSize::searcher_with`]).
    pub fn of_size(hash_mb: usize, threads: usize) -> SearcherSize {
        SearcherSize { hash_mb, threads }
    }

    /// The same with `threads` search threads.
    pub fn with_threads(&self, threads: usize) -> EngineBuilder {
        EngineBuilder {
            threads,
            ..self.clone()
        }
    }

    /// The same with a table of `hash_mb` MB.
    pub fn with_hash(&self, hash_mb: usize) -> EngineBuilder {
        EngineBuilder {
            hash_mb,
            ..self.clone()
        }
    }

    /// The weights file in use.
    pub fn weights_path(&self) -> Result<PathBuf, BuildError> {
        match &self.weights {
            Some(p) => Ok(p.clone()),
            None => wedge_core::eval::default_weights_path().ok_or(BuildError::NoWeights),
        }
    }

    /// The trained pattern evaluation (never silently replaced by anything else).
    pub fn evaluation(&self) -> Result<PatternEval, BuildError> {
        Ok(PatternEval::load(&self.weights_path()?)?)
    }

    /// The name a ProbCut model or an openings file records for the evaluation in use.
    pub fn evaluation_name(&self) -> String {
        self.weights_path()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "unknown".into())
    }

    /// The ProbCut model file: `--probcut`, else the `.probcut` file beside the weights, else
    /// none.
    pub fn probcut_path(&self) -> Option<PathBuf> {
        match &self.probcut {
            Some(p) => Some(p.clone()),
            None => self
                .weights_path()
                .ok()
                .map(|w| w.with_extension("probcut"))
                .filter(|p| p.exists()),
        }
    }

    /// The ProbCut model of [`EngineBuilder::probcut_path`] (none: the empty model).
    pub fn probcut(&self) -> Result<ProbCutModel, BuildError> {
        match self.probcut_path() {
            Some(path) => Ok(ProbCutModel::load(&path)?),
            None => Ok(ProbCutModel::empty()),
        }
    }

    /// The builder of the solver's files alone, when there are any: the weights that guide
    /// untimed solves (`Searcher::with_solver`; `--solver-weights`, else
    /// [`SOLVER_WEIGHTS_FILE`] beside the weights when present) as the weights, with their own
    /// ProbCut model. None: the play weights guide solves too. A `--solver-probcut` with no
    /// solver's weights to go with it is an error here, where every use of the solver's files
    /// starts.
    pub fn solver_builder(&self) -> Result<Option<EngineBuilder>, BuildError> {
        let path = match &self.solver_weights {
            Some(p) => Some(p.clone()),
            None => self
                .weights_path()
                .ok()
                .map(|w| w.with_file_name(SOLVER_WEIGHTS_FILE))
                .filter(|p| p.exists()),
        };
        match (path, &self.solver_probcut) {
            (Some(path), _) => Ok(Some(EngineBuilder {
                weights: Some(path),
                probcut: self.solver_probcut.clone(),
                solver_weights: None,
                solver_probcut: None,
                ..self.clone()
            })),
            (None, Some(model)) => {
                Err(BuildError::SolverProbcutWithoutSolverWeights(model.clone()))
            }
            (None, None) => Ok(None),
        }
    }

    /// The same assembled for solves alone: [`EngineBuilder::solver_builder`] when there are
    /// solver's files, else this builder. What a queue's solve units are sent, so that
    /// workers search as a local solve does.
    pub fn for_solves(&self) -> Result<EngineBuilder, BuildError> {
        Ok(self.solver_builder()?.unwrap_or_else(|| self.clone()))
    }

    /// The solver's weights file, checked to exist, and its ProbCut model (found as
    /// [`EngineBuilder::probcut`] finds the play weights' one: beside the file, else none).
    fn solver_files(&self) -> Result<Option<(PathBuf, ProbCutModel)>, BuildError> {
        let Some(solver) = self.solver_builder()? else {
            return Ok(None);
        };
        let path = solver.weights_path()?;
        check_weights_file(&path, BuildError::MissingSolverWeights)?;
        Ok(Some((path, solver.probcut()?)))
    }

    /// A searcher of the evaluation and its ProbCut model, with the table and threads asked.
    pub fn searcher(&self) -> Result<Searcher<PatternEval>, BuildError> {
        let eval = Arc::new(self.evaluation()?);
        self.searcher_of(eval)
    }

    /// As [`EngineBuilder::searcher`] around an evaluation already loaded.
    pub fn searcher_of(&self, eval: Arc<PatternEval>) -> Result<Searcher<PatternEval>, BuildError> {
        let probcut = self.probcut()?;
        let searcher = Searcher::try_new(eval, self.hash_mb, self.threads)
            .map_err(BuildError::hash)?
            .with_probcut(Arc::new(probcut));
        Ok(with_solver_files(searcher, self.solver_files()?)?)
    }

    /// How a book is checked when opened.
    pub fn verify(&self) -> Verify {
        if self.book.trust {
            Verify::HeaderOnly
        } else {
            Verify::Full
        }
    }

    /// The book file: `--book`, else the shipped one; none with `--no-book`.
    pub fn book_path(&self) -> Option<PathBuf> {
        if self.book.disabled {
            return None;
        }
        self.book
            .path
            .clone()
            .or_else(|| wedge_core::paths::find_data_file("books", "default.book"))
    }

    /// The user's book (learned games): `--learn-book`, else the one under the user's data
    /// directory; none with `--no-book`. The shipped book is refused: play never writes it.
    pub fn user_book_path(&self) -> Result<Option<PathBuf>, BuildError> {
        if self.book.disabled {
            return Ok(None);
        }
        let Some(path) = self
            .book
            .learn_book
            .clone()
            .or_else(wedge_core::paths::default_user_book)
        else {
            tracing::warn!(
                "neither $XDG_DATA_HOME nor $HOME is set: learned games are not stored (see \
                 --learn-book)"
            );
            return Ok(None);
        };
        // Refused when there but no regular file; none yet is fine (the first learned game
        // makes it), and other failures are reported when the book is used.
        if let Err(source) = wedge_core::paths::regular_file(&path) {
            if wedge_core::paths::WrongKind::of(&source).is_some() {
                return Err(BuildError::LearnBook { path, source });
            }
        }
        if let Ok(target) = std::fs::canonicalize(&path) {
            let shipped = wedge_core::paths::data_file_locations("books", "default.book");
            if shipped
                .iter()
                .any(|s| std::fs::canonicalize(s).is_ok_and(|s| s == target))
            {
                return Err(BuildError::LearnBookIsShipped(path));
            }
        }
        Ok(Some(path))
    }

    /// The engine worker's options: its books and how book moves are chosen.
    pub fn engine_options(&self) -> Result<EngineOptions, BuildError> {
        let verify = self.verify();
        let setting = |path| BookSetting { path, verify };
        Ok(EngineOptions {
            book: self.book_path().map(setting),
            user_book: self.user_book_path()?.map(setting),
            book_randomness: self.book.randomness,
            book_seed: self.book.seed,
            ponder: self.ponder,
            ..Default::default()
        })
    }

    /// What a protocol session needs to start its engine. The table size, the weights file's
    /// presence and the ProbCut model are checked here, at once; the weights are loaded and
    /// the table made on the engine thread, where a failure ends the process with its error.
    pub fn engine_factory(&self) -> Result<impl FnOnce(EventSink) -> Engine + Send, BuildError> {
        TranspositionTable::check_size(self.hash_mb).map_err(BuildError::hash)?;
        let weights = self.weights_path()?;
        check_weights_file(&weights, BuildError::MissingWeights)?;
        tracing::info!("weights {}", weights.display());
        let probcut = self.probcut()?;
        let solver = self.solver_files()?;
        let options = self.engine_options()?;
        let (hash, threads) = (self.hash_mb, self.threads);
        Ok(move |sink| {
            Engine::spawn(
                move || {
                    let fail = |e: &dyn std::fmt::Display| -> ! {
                        eprintln!("wedge: {e}");
                        std::process::exit(1)
                    };
                    let eval = PatternEval::load(&weights).unwrap_or_else(|e| fail(&e));
                    let searcher = Searcher::try_new(Arc::new(eval), hash, threads)
                        .unwrap_or_else(|e| fail(&BuildError::hash(e)))
                        .with_probcut(Arc::new(probcut));
                    with_solver_files(searcher, solver).unwrap_or_else(|e| fail(&e))
                },
                options,
                sink,
            )
        })
    }
}

/// Checks, before a thread loads it, that the weights file `path` is a regular file: `missing`
/// when nothing is there, else what is there named.
fn check_weights_file(path: &Path, missing: fn(PathBuf) -> BuildError) -> Result<(), BuildError> {
    match wedge_core::paths::regular_file(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(missing(path.to_path_buf())),
        Err(e) => Err(WeightsError::new(path, e.into()).into()),
    }
}

/// `searcher` with the solver's weights of [`EngineBuilder::solver_files`] loaded, if any.
fn with_solver_files(
    searcher: Searcher<PatternEval>,
    solver: Option<(PathBuf, ProbCutModel)>,
) -> Result<Searcher<PatternEval>, WeightsError> {
    Ok(match solver {
        Some((path, model)) => {
            searcher.with_solver(Arc::new(PatternEval::load(&path)?), Arc::new(model))
        }
        None => searcher,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Solves sent to a queue take their files from `for_solves`, so it refuses a solver's
    /// ProbCut model with no solver's weights as the local searcher does.
    #[test]
    fn for_solves_refuses_a_solver_probcut_without_solver_weights() {
        let dir = std::env::temp_dir().join(format!("wedge-no-solver-{}", std::process::id()));
        let builder = EngineBuilder {
            weights: Some(dir.join("play.wts")),
            probcut: None,
            solver_weights: None,
            solver_probcut: Some(dir.join("model.probcut")),
            hash_mb: 1,
            threads: 1,
            book: BookOptions::default(),
            ponder: false,
        };
        let e = builder.for_solves().unwrap_err();
        assert!(
            matches!(&e, BuildError::SolverProbcutWithoutSolverWeights(p) if *p == dir.join("model.probcut")),
            "{e}"
        );
        let without = EngineBuilder {
            solver_probcut: None,
            ..builder
        };
        assert_eq!(
            without.for_solves().unwrap().weights,
            Some(dir.join("play.wts"))
        );
    }
}
