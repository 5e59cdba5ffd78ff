//! Tests of the review: values, severities, summaries, the decided move, the JSON.

use super::report::{decided_text, game_json};
use super::reviewer::{for_black, legal_prefix};
use super::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use wedge_core::board::{Board, Move};
use wedge_core::eval::Heuristic;
use wedge_core::formats::{replay_inferring_passes, PassPolicy, Position};
use wedge_core::formats::{Color, Game, GamePlace};
use wedge_core::search::{solve_root, TranspositionTable};
use wedge_core::search::{Score, Searcher, Selectivity};

fn value(mv: &str, discs: i32, kind: ValueKind) -> MoveValue {
    let mv: Move = mv.parse().unwrap();
    MoveValue {
        mv,
        score: Score::from_discs(discs),
        kind,
        pv: vec![mv],
    }
}

/// A review of `game` whose judged moves have the (best, played) values given, in order
/// of the non-pass moves.
fn review_of(game: &Game, values: &[(MoveValue, MoveValue)]) -> GameReview {
    let mut values = values.iter();
    let moves = game
        .moves()
        .iter()
        .zip(game.positions())
        .map(|(&played, before)| MoveReview {
            before,
            played,
            seconds: None,
            clock_left: None,
            judged: (played != Move::Pass).then(|| {
                let (best, played) = values.next().unwrap().clone();
                Judged { best, played }
            }),
            book: None,
        })
        .collect();
    GameReview {
        path: PathBuf::from("t.ggf"),
        place: GamePlace::Game(1),
        game: game.clone(),
        moves,
        clocks: [None, None],
    }
}

const D10: ValueKind = ValueKind::Searched {
    depth: 10,
    selectivity: Selectivity::PLAY,
};

#[test]
fn losses_sort_moves_into_mistakes_and_blunders_per_side() {
    let game = replay_inferring_passes("f5d6c3d3").unwrap();
    let r = review_of(
        &game,
        &[
            (value("f5", 1, D10), value("f5", 1, D10)),
            (value("c5", 3, D10), value("d6", 1, D10)),
            (value("c4", 2, D10), value("c3", -4, D10)),
            (value("c4", 5, D10), value("d3", 3, D10)),
        ],
    );
    let black = r.side(Color::Black);
    let white = r.side(Color::White);
    assert_eq!(
        (
            black.judged,
            black.total_loss,
            black.mistakes,
            black.blunders
        ),
        (2, Score::from_discs(6), vec![], vec![2])
    );
    assert_eq!(white.average_loss(), 2.0);
    assert_eq!(
        (
            white.judged,
            white.total_loss,
            white.mistakes,
            white.blunders
        ),
        (2, Score::from_discs(4), vec![1, 3], vec![])
    );
    // Values after each move, for Black.
    let after: Vec<i32> = r
        .values_for_black()
        .into_iter()
        .map(|v| v.unwrap().discs())
        .collect();
    assert_eq!(after, [1, -1, -4, -3]);
    // Only searched values: nothing decided.
    assert_eq!(r.decided(), Decided::Unknown);
    // A played value above the best one is no loss.
    let better = Judged {
        best: value("c4", 1, D10),
        played: value("c3", 2, D10),
    };
    assert_eq!(better.loss(), Some(Score::from_discs(0)));
}

#[test]
fn the_result_is_decided_by_the_last_move_that_changes_the_solved_outcome() {
    let exact = ValueKind::Exact;
    let game = replay_inferring_passes("f5d6c3d3c4").unwrap();
    let r = review_of(
        &game,
        &[
            (value("f5", 0, D10), value("f5", -3, D10)),
            (value("d6", 2, exact), value("d6", -2, exact)),
            (value("c3", 2, exact), value("c3", 2, exact)),
            (
                value("d3", -2, exact),
                value("d3", 0, ValueKind::WinLossDraw),
            ),
            (value("c4", 0, exact), value("c4", 0, exact)),
        ],
    );
    // Move 2 turns a win into a loss, move 4 a loss into a draw (win/loss/draw only: no
    // loss measured there).
    assert_eq!(r.decided(), Decided::At(3));
    assert_eq!(r.moves[3].loss(), None);
    assert!(decided_text(&r).starts_with("decided at move 4 (White d3): a draw instead of"));
    let steady = review_of(
        &game,
        &[
            (value("f5", 0, D10), value("f5", 0, D10)),
            (value("d6", 2, exact), value("d6", 2, exact)),
            (value("c3", -2, exact), value("c3", -2, exact)),
            (value("d3", 2, exact), value("d3", 2, exact)),
            (value("c4", -2, exact), value("c4", -4, exact)),
        ],
    );
    assert_eq!(steady.decided(), Decided::Before(1));
    assert_eq!(steady.moves[4].severity(), Some(Severity::Mistake));
}

#[test]
fn a_forced_pass_is_not_judged_and_takes_its_value_from_the_next_move() {
    // The first of a family of deterministic games with a pass followed by a move,
    // cut just after that move.
    let game = (1..)
        .find_map(|k: usize| {
            let mut g = Game::new(Position::START);
            while !g.is_over() {
                let moves = g.legal_moves();
                let n = g.moves().len();
                g.play(moves[(n * k) % moves.len()]).unwrap();
                if n > 0 && g.moves()[n - 1] == Move::Pass {
                    return Some(g);
                }
            }
            None
        })
        .unwrap();
    let judged = game.moves().iter().filter(|&&m| m != Move::Pass).count();
    let values: Vec<(MoveValue, MoveValue)> = game
        .moves()
        .iter()
        .filter(|&&m| m != Move::Pass)
        .enumerate()
        .map(|(i, m)| {
            let v = value(&m.to_string(), i as i32, D10);
            (v.clone(), v)
        })
        .collect();
    assert_eq!(values.len(), judged);
    let r = review_of(&game, &values);
    let pass = r.moves.iter().position(|m| m.played == Move::Pass).unwrap();
    assert!(r.moves[pass].judged.is_none() && r.moves[pass].loss().is_none());
    let after = r.values_for_black();
    let next = &r.moves[pass + 1];
    let expected = for_black(next.judged.as_ref().unwrap().best.score, next.color());
    assert_eq!(after[pass], Some(expected));
    assert_eq!(after.len(), game.moves().len());
}

#[test]
fn lines_keep_their_legal_prefix_only() {
    let b = Board::START;
    let line: Vec<Move> = ["f5", "d6", "a1", "c3"]
        .iter()
        .map(|m| m.parse().unwrap())
        .collect();
    assert_eq!(legal_prefix(&b, &line), line[..2].to_vec());
    assert_eq!(legal_prefix(&b, &[Move::Pass]), vec![]);
}

/// A real review of an endgame with a small table: every value is exact and equals the
/// solver's, and the loss is the difference of two solves.
#[test]
fn an_endgame_review_gives_the_solvers_values() {
    // The first legal square each time, from the start to the end; reviewed from 14
    // empties.
    let mut all = Game::new(Position::START);
    while !all.is_over() {
        let mv = all.legal_moves()[0];
        all.play(mv).unwrap();
    }
    let positions = all.positions();
    let first = positions
        .iter()
        .position(|p| p.board.empty_count() == 14)
        .unwrap();
    let game = Game::from_moves(
        positions[first],
        all.moves()[first..].to_vec(),
        PassPolicy::Explicit,
    )
    .unwrap();
    let searcher = Searcher::new(Arc::new(Heuristic), 4, 1);
    let settings = ReviewSettings {
        depth: 4,
        exact_empties: 14,
        ..ReviewSettings::default()
    };
    let r = Reviewer::new(&searcher, None, settings).review(
        Path::new("t"),
        &RecordedGame::untimed(GamePlace::Line(1), game.clone()),
        &mut || {},
    );
    let tt = TranspositionTable::new(4);
    let solve = |b: &Board| {
        let never = AtomicBool::new(false);
        solve_root(b, -64, 64, &tt, &Heuristic, &never).score
    };
    for m in &r.moves {
        let Some(j) = &m.judged else { continue };
        let before = m.before.board;
        let after = before.apply(m.played).unwrap();
        assert_eq!(
            (j.best.kind, j.played.kind),
            (ValueKind::Exact, ValueKind::Exact)
        );
        assert_eq!(j.best.score, Score::from_discs(solve(&before)));
        assert_eq!(j.played.score, Score::from_discs(-solve(&after)));
        assert_eq!(j.best.pv.first(), Some(&j.best.mv));
        assert_eq!(legal_prefix(&before, &j.best.pv), j.best.pv);
    }
    // The JSON carries one entry per move, with the board before it.
    let json = game_json(&r).to_string();
    assert_eq!(json.matches("\"board\":").count(), game.moves().len());
}
