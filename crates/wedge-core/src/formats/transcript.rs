//! Move transcripts: concatenated moves such as `f5d6c3d3c4`, in any case, with optional
//! whitespace between moves. Passes may be written (`PA`, `pass`, `PS`, `--`, `@@`) or, with
//! [`PassPolicy::Infer`], left out. Printing gives lower case with `PA` for passes.

use super::game::{Game, IllegalReason, PassPolicy};
use super::{Color, Position};
use crate::board::{Move, Square};

/// What went wrong in a transcript.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum TranscriptErrorKind {
    #[error("{found:?} is not a move (expected a square a1-h8 or a pass)")]
    Malformed { found: String },
    #[error("{mv} by {to_move} is illegal: {reason}")]
    Illegal {
        mv: Move,
        to_move: Color,
        reason: IllegalReason,
    },
}

/// A transcript error: the 1-based number of the written move and its 1-based character column.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("transcript move {move_number} (column {column}): {kind}")]
pub struct TranscriptError {
    pub move_number: usize,
    pub column: usize,
    pub kind: TranscriptErrorKind,
}

/// A written move and the character column it starts at.
struct Token {
    mv: Move,
    column: usize,
}

/// Reads the move starting at the front of `chars`; returns it and how many chars it used.
fn read_move(chars: &[char]) -> Option<(Move, usize)> {
    let lower: Vec<char> = chars
        .iter()
        .take(4)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    match lower.as_slice() {
        ['p', 'a', 's', 's', ..] => Some((Move::Pass, 4)),
        ['p', 'a' | 's', ..] | ['-', '-', ..] | ['@', '@', ..] => Some((Move::Pass, 2)),
        [col @ 'a'..='h', row @ '1'..='8', ..] => {
            let col = (*col as u8).wrapping_sub(b'a');
            let row = (*row as u8).wrapping_sub(b'1');
            Square::from_coords(col, row).map(|sq| (Move::Play(sq), 2))
        }
        _ => None,
    }
}

fn tokenize(text: &str) -> Result<Vec<Token>, TranscriptError> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let rest = chars.get(i..).unwrap_or(&[]);
        let Some((mv, used)) = read_move(rest) else {
            return Err(TranscriptError {
                move_number: tokens.len() + 1,
                column: i + 1,
                kind: TranscriptErrorKind::Malformed {
                    found: rest.iter().take(2).collect(),
                },
            });
        };
        tokens.push(Token { mv, column: i + 1 });
        i += used;
    }
    Ok(tokens)
}

/// Reads the moves of a transcript without checking legality.
pub fn parse_transcript(text: &str) -> Result<Vec<Move>, TranscriptError> {
    Ok(tokenize(text)?.into_iter().map(|t| t.mv).collect())
}

/// Reads a transcript and replays it from `start`; with [`PassPolicy::Infer`] omitted forced
/// passes are inserted into the game's move list.
pub fn replay_transcript(
    start: Position,
    text: &str,
    policy: PassPolicy,
) -> Result<Game, TranscriptError> {
    let tokens = tokenize(text)?;
    let moves = tokens.iter().map(|t| t.mv);
    Game::from_moves(start, moves, policy).map_err(|e| TranscriptError {
        move_number: e.move_number,
        column: tokens
            .get(e.move_number.saturating_sub(1))
            .map_or(0, |t| t.column),
        kind: TranscriptErrorKind::Illegal {
            mv: e.mv,
            to_move: e.to_move,
            reason: e.reason,
        },
    })
}

/// Replays a transcript from the standard start, inserting omitted forced passes.
pub fn replay_inferring_passes(text: &str) -> Result<Game, TranscriptError> {
    replay_transcript(Position::START, text, PassPolicy::Infer)
}

/// Prints moves as `f5d6c3…`, lower case, `PA` for a pass.
pub fn format_transcript(moves: &[Move]) -> String {
    moves.iter().map(|m| m.to_string()).collect()
}

impl Game {
    /// The moves as a transcript (`f5d6…`, `PA` for passes).
    pub fn transcript(&self) -> String {
        format_transcript(self.moves())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_case_and_spacing_variants() {
        let a = parse_transcript("f5d6c3d3c4").unwrap();
        let b = parse_transcript("F5 D6\tc3 d3\nC4").unwrap();
        assert_eq!(a, b);
        assert_eq!(format_transcript(&a), "f5d6c3d3c4");
        let p = parse_transcript("f5PAd6passc3psd3--c4@@").unwrap();
        assert_eq!(p.iter().filter(|m| **m == Move::Pass).count(), 5);
        assert_eq!(parse_transcript("").unwrap(), vec![]);
    }

    #[test]
    fn malformed_and_illegal_are_told_apart() {
        let e = parse_transcript("f5d6 z9").unwrap_err();
        assert_eq!((e.move_number, e.column), (3, 6));
        assert!(matches!(e.kind, TranscriptErrorKind::Malformed { .. }));
        let e = parse_transcript("f5d").unwrap_err();
        assert_eq!((e.move_number, e.column), (2, 3));

        let e = replay_inferring_passes("f5 d6 c3 a1").unwrap_err();
        assert_eq!((e.move_number, e.column), (4, 10));
        assert!(matches!(
            e.kind,
            TranscriptErrorKind::Illegal {
                to_move: Color::White,
                reason: IllegalReason::FlipsNothing,
                ..
            }
        ));
    }

    /// A random legal game to the end from the start, passes written.
    fn random_game(seed: u64) -> Game {
        let mut rng = crate::rng::Rng::new(seed);
        let mut game = Game::new(Position::START);
        while let Some(mv) = game.position().board.random_move(&mut rng) {
            game.play(mv).unwrap();
        }
        game
    }

    #[test]
    fn infers_omitted_passes_in_random_games() {
        let mut with_pass = 0;
        for seed in 0..200 {
            let game = random_game(seed);
            let written = format_transcript(game.moves());
            assert_eq!(replay_inferring_passes(&written).unwrap(), game);
            let no_passes = written.replace("PA", "");
            if no_passes != written {
                with_pass += 1;
                assert_eq!(replay_inferring_passes(&no_passes).unwrap(), game);
                let e = replay_transcript(Position::START, &no_passes, PassPolicy::Explicit)
                    .unwrap_err();
                assert!(matches!(e.kind, TranscriptErrorKind::Illegal { .. }));
            }
        }
        assert!(with_pass > 0, "no random game had a pass");
    }

    #[test]
    fn transcript_with_written_and_omitted_passes() {
        // From a position where White must pass: Black a1, White b1, Black to play c1 after the
        // pass (c1 flips b1).
        let start = Position::from_colors(1, 2, Color::White).unwrap();
        let g = replay_transcript(start, "c1", PassPolicy::Infer).unwrap();
        assert_eq!(format_transcript(g.moves()), "PAc1");
        let g2 = replay_transcript(start, "PA C1", PassPolicy::Explicit).unwrap();
        assert_eq!(g, g2);
        let e = replay_transcript(start, "c1", PassPolicy::Explicit).unwrap_err();
        assert_eq!((e.move_number, e.column), (1, 1));
    }
}
