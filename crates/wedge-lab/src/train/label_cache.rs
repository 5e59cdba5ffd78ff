//! The labels of games and their cache. A game's samples: its positions with at most
//! `solve_empties` empties take their exact solve; earlier ones the record's theoretical score
//! (WTHOR: perfect play from the game's position at the theoretical depth, 24 empties in every
//! WTHOR file) or, for records without one, the game's final result; positions where the side
//! to move must pass, and finished positions, are skipped. The cache keeps only the solves'
//! scores and rebuilds the samples by replaying the games: about 21 bytes a WTHOR game, small
//! enough for the repository to ship them (`data/labels`).

use super::dataset::{check_size_and_checksum, write_cache, CacheError, CacheProblem};
use super::dataset::{LabelKind, LabelledPosition};
use super::games::{for_side_to_move, GameRecord};
use std::path::Path;
use wedge_core::board::Board;
use wedge_core::framing::{fnv1a64, Reader, Truncated, Writer};

const MAGIC: [u8; 8] = *b"WEDGELBL";
/// Version 1 stored whole positions; version 2 only the solves' scores.
const VERSION: u32 = 2;
/// Magic, version, solve empties, positions checksum, games, scores.
const HEADER: usize = 8 + 4 + 4 + 8 + 4 + 8;

/// The exact scores of the solved positions of a list of games, in game order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolvedLabels {
    /// Positions with at most this many empties were solved.
    solve_empties: u32,
    /// FNV-1a 64 of the solved positions' discs, in order: the games the scores belong to.
    positions: u64,
    /// How many scores each game has.
    per_game: Vec<u8>,
    scores: Vec<i8>,
}

/// Whether labelling solves a position exactly: the side to move has a move and at most
/// `solve_empties` empties are left.
fn is_solved(board: &Board, solve_empties: u32) -> bool {
    board.legal_moves() != 0 && board.empty_count() <= solve_empties
}

/// The positions of a game that labelling solves exactly, in order.
pub(crate) fn solved_positions(
    record: &GameRecord,
    solve_empties: u32,
) -> impl Iterator<Item = Board> + '_ {
    record
        .positions
        .iter()
        .map(|p| p.board)
        .filter(move |b| is_solved(b, solve_empties))
}

/// Appends one game's samples, given the exact scores of its solved positions in order (one
/// each, as [`solved_positions`] lists them).
pub(crate) fn game_samples(
    record: &GameRecord,
    game_id: u32,
    solve_empties: u32,
    scores: &[i8],
    out: &mut Vec<LabelledPosition>,
) {
    let year = record.year.unwrap_or(0);
    let mut scores = scores.iter();
    for pos in &record.positions {
        let board = pos.board;
        if board.legal_moves() == 0 {
            continue;
        }
        let e = board.empty_count();
        let (label, kind) = if is_solved(&board, solve_empties) {
            let Some(&score) = scores.next() else { return };
            (i32::from(score), LabelKind::Exact)
        } else if let Some((depth, black)) = record.theoretical {
            let kind = if e == depth {
                LabelKind::Exact
            } else {
                LabelKind::Theoretical
            };
            (for_side_to_move(black, pos.to_move), kind)
        } else if let Some(black) = record.final_black {
            (for_side_to_move(black, pos.to_move), LabelKind::FinalResult)
        } else {
            continue;
        };
        out.push(LabelledPosition {
            board,
            label: label.clamp(-64, 64) as i8,
            kind,
            year,
            game: game_id,
        });
    }
}

/// Which positions of `games` are solved: FNV-1a 64 of their discs, in order, and how many
/// each game has.
fn solved_layout(games: &[GameRecord], solve_empties: u32) -> (u64, Vec<u8>) {
    let mut bytes = Vec::new();
    let mut per_game = Vec::with_capacity(games.len());
    for g in games {
        let before = bytes.len();
        for b in solved_positions(g, solve_empties) {
            bytes.extend_from_slice(&b.player.to_le_bytes());
            bytes.extend_from_slice(&b.opponent.to_le_bytes());
        }
        per_game.push(((bytes.len() - before) / 16) as u8);
    }
    (fnv1a64(&bytes), per_game)
}

impl SolvedLabels {
    /// The labels of `games` from each game's scores (`per_game[i]`: game `i`'s solved
    /// positions' scores, in order).
    pub fn new(games: &[GameRecord], solve_empties: u32, per_game: Vec<Vec<i8>>) -> SolvedLabels {
        SolvedLabels {
            solve_empties,
            positions: solved_layout(games, solve_empties).0,
            per_game: per_game.iter().map(|s| s.len() as u8).collect(),
            scores: per_game.into_iter().flatten().collect(),
        }
    }

    /// The training samples of `games`, game ids from `first_game_id`; refused unless these
    /// are the games (and the solve depth) the scores were computed for.
    pub fn samples(
        &self,
        games: &[GameRecord],
        solve_empties: u32,
        first_game_id: u32,
    ) -> Result<Vec<LabelledPosition>, CacheProblem> {
        if solve_empties != self.solve_empties {
            return Err(CacheProblem::SolveEmpties {
                cached: self.solve_empties,
                asked: solve_empties,
            });
        }
        let (positions, per_game) = solved_layout(games, solve_empties);
        if positions != self.positions || per_game != self.per_game {
            return Err(CacheProblem::OtherGames);
        }
        let mut out = Vec::with_capacity(games.len() * 60);
        let mut at = 0;
        for (i, (g, &n)) in games.iter().zip(&self.per_game).enumerate() {
            let scores = &self.scores[at..at + usize::from(n)];
            at += usize::from(n);
            game_samples(g, first_game_id + i as u32, solve_empties, scores, &mut out);
        }
        Ok(out)
    }

    /// Serialises the labels.
    pub fn to_bytes(&self) -> Vec<u8> {
        let size = HEADER + self.per_game.len() + self.scores.len() + 8;
        let mut out = Writer::new(&MAGIC, VERSION, size);
        out.u32(self.solve_empties);
        out.u64(self.positions);
        out.u32(self.per_game.len() as u32);
        out.u64(self.scores.len() as u64);
        out.bytes(&self.per_game);
        out.bytes(&self.scores.iter().map(|&s| s as u8).collect::<Vec<u8>>());
        out.finish()
    }

    /// Parses and validates serialised labels.
    pub fn from_bytes(bytes: &[u8]) -> Result<SolvedLabels, CacheProblem> {
        let not_a_cache = CacheProblem::NotACache("label cache file");
        let mut r = Reader::new(bytes);
        let (magic, version) = read_start(&mut r).map_err(|_| not_a_cache.clone())?;
        if magic != MAGIC {
            return Err(not_a_cache);
        }
        if version != VERSION {
            return Err(CacheProblem::LabelVersion(version));
        }
        let (solve_empties, positions, games, n) =
            read_header(&mut r).map_err(|_| not_a_cache.clone())?;
        let expected = (HEADER as u64)
            .saturating_add(u64::from(games))
            .saturating_add(n)
            .saturating_add(8);
        let body = check_size_and_checksum(bytes, expected)?;
        let per_game = body[HEADER..HEADER + games as usize].to_vec();
        let scores: Vec<i8> = body[HEADER + games as usize..]
            .iter()
            .map(|&b| b as i8)
            .collect();
        if per_game.iter().map(|&c| u64::from(c)).sum::<u64>() != n {
            return Err(CacheProblem::Counts);
        }
        if scores.iter().any(|s| !(-64..=64).contains(s)) {
            return Err(CacheProblem::Score);
        }
        Ok(SolvedLabels {
            solve_empties,
            positions,
            per_game,
            scores,
        })
    }

    /// Writes the labels atomically.
    pub fn save(&self, path: &Path) -> Result<(), CacheError> {
        write_cache(path, &self.to_bytes())
    }

    /// Reads and validates a cache file.
    pub fn load(path: &Path) -> Result<SolvedLabels, CacheError> {
        let bytes = wedge_core::paths::read_file(path).map_err(|source| CacheError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        SolvedLabels::from_bytes(&bytes).map_err(|problem| CacheError::Bad {
            path: path.to_path_buf(),
            problem,
        })
    }
}

fn read_start(r: &mut Reader) -> Result<([u8; 8], u32), Truncated> {
    Ok((r.array::<8>()?, r.u32()?))
}

/// Solve empties, positions checksum, games, scores.
fn read_header(r: &mut Reader) -> Result<(u32, u64, u32, u64), Truncated> {
    Ok((r.u32()?, r.u64()?, r.u32()?, r.u64()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wedge_core::formats::{Color, Position};

    /// A made-up game of two positions, the start and the start with the colours swapped
    /// (positions need not follow one another here).
    fn game() -> GameRecord {
        let start = wedge_core::board::Board::START;
        let positions = [start, start.pass()]
            .into_iter()
            .map(|board| Position {
                board,
                to_move: Color::Black,
            })
            .collect();
        GameRecord {
            year: Some(1999),
            positions,
            theoretical: None,
            final_black: Some(4),
        }
    }

    #[test]
    fn labels_round_trip_rebuild_and_refuse_other_games_and_corruption() {
        let games = vec![game(), game()];
        let solved: Vec<usize> = games
            .iter()
            .map(|g| solved_positions(g, 60).count())
            .collect();
        assert_eq!(solved, [2, 2]);
        let labels = SolvedLabels::new(&games, 60, vec![vec![3, -5], vec![64, 0]]);
        let bytes = labels.to_bytes();
        assert_eq!(SolvedLabels::from_bytes(&bytes).unwrap(), labels);
        let samples = labels.samples(&games, 60, 10).unwrap();
        let got: Vec<(i8, u32)> = samples.iter().map(|s| (s.label, s.game)).collect();
        assert_eq!(got, [(3, 10), (-5, 10), (64, 11), (0, 11)]);
        assert_eq!(
            labels.samples(&games, 20, 0),
            Err(CacheProblem::SolveEmpties {
                cached: 60,
                asked: 20
            })
        );
        assert_eq!(
            labels.samples(&games[..1], 60, 0),
            Err(CacheProblem::OtherGames)
        );
        let mut other = games.clone();
        other[1].positions.swap(0, 1);
        assert_eq!(labels.samples(&other, 60, 0), Err(CacheProblem::OtherGames));
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x10;
            assert!(SolvedLabels::from_bytes(&b).is_err(), "byte {i} flipped");
            assert!(SolvedLabels::from_bytes(&bytes[..i]).is_err());
        }
    }
}
