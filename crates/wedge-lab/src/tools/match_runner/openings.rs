//! Openings: reading an openings file (one transcript per line, the XOT format) and generating
//! balanced ones with our own search.

use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use wedge_core::board::{Board, Move};
use wedge_core::eval::Evaluator;
use wedge_core::formats::{format_transcript, replay_inferring_passes, Game, TranscriptError};
use wedge_core::rng::Rng;
use wedge_core::search::{Limits, Searcher};

/// What is wrong with an openings file's text.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsProblem {
    #[error("line {line}: bad opening {text:?}: {source}")]
    Illegal {
        line: usize,
        text: String,
        source: TranscriptError,
    },
    #[error("line {line}: the opening {text:?} ends the game")]
    EndsTheGame { line: usize, text: String },
    #[error("no openings in the file")]
    Empty,
}

/// Why openings could not be read or generated.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    #[error("cannot read openings {}: {source}", path.display())]
    Read {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {problem}", path.display())]
    File {
        path: std::path::PathBuf,
        problem: OpeningsProblem,
    },
    #[error("--plies must be 1..=30, got {0}")]
    Plies(u32),
    #[error(
        "only {found} balanced openings found in {tries} tries; raise --max-abs-eval or lower \
         --count"
    )]
    TooFew { found: usize, tries: usize },
}

/// Parses an openings file: one transcript per line (`f5d6c3…`, spaces allowed), blank lines and
/// lines starting with `#` or `;` ignored. Each opening must be legal from the start position and
/// leave a game that is not over.
pub(crate) fn parse_openings(text: &str) -> Result<Vec<Game>, OpeningsProblem> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with(';') {
            continue;
        }
        let game = replay_inferring_passes(t).map_err(|source| OpeningsProblem::Illegal {
            line: i + 1,
            text: t.to_string(),
            source,
        })?;
        if game.is_over() {
            return Err(OpeningsProblem::EndsTheGame {
                line: i + 1,
                text: t.to_string(),
            });
        }
        out.push(game);
    }
    if out.is_empty() {
        return Err(OpeningsProblem::Empty);
    }
    Ok(out)
}

/// Reads and parses an openings file.
pub fn read_openings(path: &Path) -> Result<Vec<Game>, OpeningsError> {
    let text = wedge_core::paths::read_text(path).map_err(|source| OpeningsError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse_openings(&text).map_err(|problem| OpeningsError::File {
        path: path.to_path_buf(),
        problem,
    })
}

/// What `wedge openings` generates.
#[derive(Clone, Copy, Debug)]
pub struct OpeningSpec {
    pub plies: u32,
    /// Keep openings whose value (discs, side to move) is at most this in absolute value.
    pub max_abs_eval: i32,
    pub count: usize,
    /// Depth of the evaluating search.
    pub depth: u32,
    pub seed: u64,
    /// Give up after this many random candidates.
    pub max_tries: usize,
}

/// One generated opening with its value (discs, for the side to move after it).
#[derive(Clone, Debug)]
pub struct Opening {
    pub game: Game,
    pub value: i32,
}

/// Random `plies`-move openings (uniform among legal moves at each ply, no symmetric duplicates
/// of the same move sequence), kept when a `depth` search values them within `max_abs_eval`.
pub fn generate<E: Evaluator>(
    searcher: &Searcher<E>,
    spec: &OpeningSpec,
    mut progress: impl FnMut(usize, usize),
) -> Result<Vec<Opening>, OpeningsError> {
    if spec.plies == 0 || spec.plies > 30 {
        return Err(OpeningsError::Plies(spec.plies));
    }
    let mut rng = Rng::new(spec.seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let stop = AtomicBool::new(false);
    let mut tries = 0;
    while out.len() < spec.count {
        if tries >= spec.max_tries {
            return Err(OpeningsError::TooFew {
                found: out.len(),
                tries,
            });
        }
        tries += 1;
        let mut game = Game::default();
        let mut ok = true;
        for _ in 0..spec.plies {
            let board = game.position().board;
            let legal = board.legal_moves();
            if legal == 0 {
                ok = false;
                break;
            }
            let bit = rng.pick_bit(legal);
            let Some(sq) = wedge_core::board::Square::first_of(bit) else {
                ok = false;
                break;
            };
            if game.play(Move::Play(sq)).is_err() {
                ok = false;
                break;
            }
        }
        if !ok || game.is_over() || game.legal_squares().0 == 0 {
            continue;
        }
        let key = canonical(&game.position().board);
        if !seen.insert(key) {
            continue;
        }
        searcher.clear();
        let report = searcher.search(
            &game.position().board,
            &Limits::depth(spec.depth),
            &stop,
            &mut |_| {},
        );
        if report.score.discs().abs() <= spec.max_abs_eval {
            out.push(Opening {
                game,
                value: report.score.discs(),
            });
            progress(out.len(), tries);
        }
    }
    Ok(out)
}

/// The `count` most played `plies`-move openings of `games` (move lists from the start),
/// most played first, each with the number of games that reached its position; games that
/// reach one position by transposition or by a symmetric image count together, and the
/// opening shown is the first such move order met. Games shorter than `plies` (or illegal
/// before it) are skipped; so are positions where the game is already over.
pub fn most_played(games: &[Vec<Move>], plies: usize, count: usize) -> Vec<(Game, usize)> {
    let mut by_position: std::collections::HashMap<(u64, u64), (usize, Game)> =
        std::collections::HashMap::new();
    let mut order = Vec::new();
    for moves in games {
        let Some(prefix) = moves.get(..plies) else {
            continue;
        };
        let mut game = Game::default();
        if prefix.iter().any(|&m| game.play_inferring_pass(m).is_err()) {
            continue;
        }
        if game.is_over() {
            continue;
        }
        let key = canonical(&game.position().board);
        let entry = by_position.entry(key).or_insert_with(|| {
            order.push(key);
            (0, game)
        });
        entry.0 += 1;
    }
    let mut ranked: Vec<(Game, usize)> = order
        .into_iter()
        .filter_map(|k| by_position.remove(&k).map(|(n, g)| (g, n)))
        .collect();
    // Stable: ties keep the order in which the positions were first met.
    ranked.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    ranked.truncate(count);
    ranked
}

/// The smallest of the 8 symmetric images, so mirrored openings count once.
fn canonical(board: &Board) -> (u64, u64) {
    wedge_core::board::Symmetry::ALL
        .iter()
        .map(|s| (s.apply(board.player), s.apply(board.opponent)))
        .min()
        .unwrap_or((board.player, board.opponent))
}

/// The file text: a header comment, then one transcript per line.
pub fn format_openings<'a>(openings: impl IntoIterator<Item = &'a Game>, header: &str) -> String {
    let mut s = String::new();
    for line in header.lines() {
        s.push_str("# ");
        s.push_str(line);
        s.push('\n');
    }
    for game in openings {
        s.push_str(&format_transcript(game.moves()));
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects_openings() {
        let games = parse_openings("# comment\n\nf5d6c3d3c4\nf5 f6\n").unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves().len(), 5);
        let err = parse_openings("f5d6\nf5f5\n").unwrap_err().to_string();
        assert!(err.starts_with("line 2"), "{err}");
        assert!(parse_openings("# nothing\n").is_err());
        assert!(parse_openings("zz\n").is_err());
    }

    #[test]
    fn most_played_openings_merge_transpositions_and_symmetries() {
        let line = |t: &str| parse_openings(t).unwrap()[0].moves().to_vec();
        let games = vec![
            line("f5d6c3d3c4f4"),
            line("f5d6c3d3c4f4c5"),
            // The same position by symmetry (the first move mirrored along the diagonal).
            line("e6f4c3c4d3"),
            line("f5f6e6f4"),
            line("f5f6e6f4g5"),
            line("f5d6c3d3c4f4f6"),
            line("f5"), // too short
        ];
        let got = most_played(&games, 4, 5);
        let shown: Vec<(String, usize)> = got
            .iter()
            .map(|(g, n)| (format_transcript(g.moves()), *n))
            .collect();
        assert_eq!(
            shown,
            vec![("f5d6c3d3".to_string(), 4), ("f5f6e6f4".to_string(), 2)]
        );
        assert_eq!(most_played(&games, 4, 1).len(), 1);
        assert!(most_played(&games, 61, 3).is_empty());
    }
}
