//! Self-play tests: byte-identical batches whatever the thread count, the file format's round
//! trip and its refusal of corruption, final results checked by independent exact solves, and
//! a resumed run. Tiny depths and endgames, test weights, temporary directories only.

use super::record::{GameProblem, NO_VALUE, PASS_BYTE};
use super::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use wedge_core::board::{Board, Move};
use wedge_core::eval::test_weights;
use wedge_core::framing::fnv1a64;
use wedge_core::search::ProbCutModel;
use wedge_core::search::{Limits, Searcher, Selectivity, SolveMode};

fn settings() -> Settings {
    Settings::TINY
}

fn selfplay(settings: Settings) -> SelfPlay {
    let model = Model::new(&test_weights(4, 11), ProbCutModel::empty()).unwrap();
    SelfPlay::new(model, None, settings).unwrap()
}

const ID: BatchId = BatchId {
    run_seed: 42,
    index: 3,
};

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wedge-selfplay-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Rewrites the checksum after an edit, so the reader's later checks are reached.
fn reseal(bytes: &mut [u8]) {
    let end = bytes.len() - 8;
    let sum = fnv1a64(&bytes[..end]);
    bytes[end..].copy_from_slice(&sum.to_le_bytes());
}

#[test]
fn selfplay_same_seed_gives_identical_batches_with_one_and_two_threads() {
    let sp = selfplay(settings());
    let one = sp.play_batch(ID, 6, 1).unwrap();
    let two = sp.play_batch(ID, 6, 2).unwrap();
    assert_eq!(one.to_bytes(), two.to_bytes());
    assert_eq!(one.games.len(), 6);
    // A smaller batch is the start of the larger one; another batch differs.
    let three = sp.play_batch(ID, 3, 2).unwrap();
    assert_eq!(three.games[..], one.games[..3]);
    let other = sp.play_batch(BatchId { index: 4, ..ID }, 6, 2).unwrap();
    assert_ne!(other.games, one.games);
    // The header says what the games depend on.
    assert_eq!(one.header.id, ID);
    assert_eq!(one.header.settings, settings());
    assert_eq!(one.header.wthor_checksum, 0);
    let w = test_weights(4, 11).to_bytes().unwrap();
    assert_eq!(one.header.weights_checksum.to_le_bytes(), w[w.len() - 8..]);
}

#[test]
fn selfplay_final_results_agree_with_independent_exact_solves() {
    let s = settings();
    let sp = selfplay(s);
    let batch = sp.play_batch(ID, 12, 2).unwrap();
    let eval = Arc::new(wedge_core::eval::PatternEval::from_weights(&test_weights(2, 5)).unwrap());
    let solver = Searcher::new(eval, 1, 1);
    let never = AtomicBool::new(false);
    let mut passes = 0;
    for (n, g) in batch.games.iter().enumerate() {
        g.check().unwrap();
        assert!(
            (4..=15).contains(&g.opening),
            "game {n}: opening {}",
            g.opening
        );
        assert!(g.exact_from < g.moves.len(), "game {n} was never solved");
        passes += g.moves[g.opening..]
            .iter()
            .filter(|&&m| m == Move::Pass)
            .count();
        let mut board = Board::START;
        for (ply, &mv) in g.moves.iter().enumerate() {
            if ply >= g.opening && mv != Move::Pass {
                let value = g.values[ply - g.opening];
                if ply >= g.exact_from {
                    // Another evaluation and table: the exact value does not depend on them.
                    let r = solver.search(
                        &board,
                        &Limits::solve(SolveMode::Exact),
                        &never,
                        &mut |_| {},
                    );
                    assert_eq!(r.score.discs(), i32::from(value), "game {n} ply {ply}");
                    assert!(board.empty_count() <= s.exact_empties || ply > g.exact_from);
                } else {
                    assert!(board.empty_count() > s.exact_empties, "game {n} ply {ply}");
                }
            }
            board = board.apply(mv).unwrap();
        }
        assert!(board.is_game_over());
    }
    // The exact samples' values are the final result from their side's view.
    let mut exact = 0;
    for sample in batch.samples() {
        if sample.kind == ValueKind::Exact {
            exact += 1;
            assert_eq!(sample.search, sample.result);
        } else {
            assert_eq!(
                sample.kind,
                ValueKind::Midgame {
                    depth: 2,
                    selectivity: Selectivity(3)
                }
            );
        }
        assert!(!sample.board.has_no_move());
    }
    assert!(exact >= 12 * 4, "{exact}");
    // The engine's games pass where they must (11 passes in these 12 games).
    assert!(passes > 0);
}

#[test]
fn selfplay_record_round_trips_and_refuses_corruption() {
    let batch = selfplay(settings()).play_batch(ID, 3, 2).unwrap();
    let bytes = batch.to_bytes();
    assert_eq!(Batch::from_bytes(&bytes).unwrap(), batch);
    // Any flipped byte and any truncation is refused (never a panic).
    for i in 0..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 0x04;
        assert!(Batch::from_bytes(&b).is_err(), "flip at {i}");
        assert!(Batch::from_bytes(&bytes[..i]).is_err(), "cut at {i}");
    }
    let kind = |b: &[u8]| Batch::from_bytes(b).unwrap_err();
    let mut flipped = bytes.clone();
    flipped[super::record::HEADER_LEN + 7] ^= 1;
    assert!(matches!(kind(&flipped), RecordErrorKind::Checksum { .. }));
    assert!(matches!(
        kind(&bytes[..bytes.len() - 3]),
        RecordErrorKind::Length { .. }
    ));
    let mut version = bytes.clone();
    version[8] = 2;
    assert!(matches!(
        kind(&version),
        RecordErrorKind::UnsupportedVersion { found: 2 }
    ));
    assert!(matches!(
        kind(b"WEDGEWTS...................."),
        RecordErrorKind::BadMagic { .. }
    ));
    // Sealed again after the edit, an illegal move is found by the replay.
    let g = &batch.games[0];
    let at = super::record::HEADER_LEN + 5 + g.opening;
    let mut illegal = bytes.clone();
    illegal[at] = match g.moves[g.opening] {
        Move::Play(sq) if sq.index() != 0 => 0,
        _ => 63,
    };
    reseal(&mut illegal);
    let e = kind(&illegal);
    assert!(
        matches!(
            &e,
            RecordErrorKind::Game {
                game: 1,
                problem: GameProblem::Illegal { .. },
                ..
            }
        ),
        "{e}"
    );
    let mut bad_byte = bytes.clone();
    bad_byte[at] = PASS_BYTE + 1;
    reseal(&mut bad_byte);
    assert!(matches!(
        kind(&bad_byte),
        RecordErrorKind::Game {
            problem: GameProblem::MoveByte { .. },
            ..
        }
    ));
    // A final result other than the moves' is refused, and so is a value out of range.
    let mut result = bytes.clone();
    result[super::record::HEADER_LEN + 4] ^= 2;
    reseal(&mut result);
    assert!(matches!(
        kind(&result),
        RecordErrorKind::Game {
            problem: GameProblem::Result { .. },
            ..
        }
    ));
    let mut value = bytes.clone();
    value[super::record::HEADER_LEN + 5 + g.moves.len()] = 100;
    reseal(&mut value);
    assert!(matches!(
        kind(&value),
        RecordErrorKind::Game {
            problem: GameProblem::Value { .. },
            ..
        }
    ));
    // Errors from a file name it.
    let dir = temp_dir("corrupt");
    let path = dir.join(ID.file_name());
    batch.write(&path).unwrap();
    assert_eq!(Batch::read(&path).unwrap(), batch);
    std::fs::write(&path, &version).unwrap();
    let text = Batch::read(&path).unwrap_err().to_string();
    assert!(
        text.contains("batch-000003.wsp") && text.contains("version 2"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn selfplay_passes_are_recorded_without_values() {
    // A game with a pass, by hand: random moves until one side must pass.
    let mut rng = wedge_core::rng::Rng::new(1);
    let (moves, board) = loop {
        let mut b = Board::START;
        let mut moves = Vec::new();
        while let Some(mv) = b.random_move(&mut rng) {
            b = b.apply(mv).unwrap();
            moves.push(mv);
        }
        if moves.contains(&Move::Pass) {
            break (moves, b);
        }
    };
    let opening = 4;
    let values: Vec<i8> = moves[opening..]
        .iter()
        .map(|&m| if m == Move::Pass { NO_VALUE } else { 1 })
        .collect();
    let black = if moves.len().is_multiple_of(2) {
        board.final_score()
    } else {
        -board.final_score()
    };
    let game = GameRecord {
        exact_from: moves.len(),
        moves,
        opening,
        start: Start::Random,
        values,
        result: black as i8,
    };
    let batch = Batch {
        header: selfplay(settings()).header(ID),
        games: vec![game.clone()],
    };
    let back = Batch::from_bytes(&batch.to_bytes()).unwrap();
    assert_eq!(back, batch);
    let samples: Vec<SearchedPosition> = back.samples().collect();
    let searched = game.moves[opening..]
        .iter()
        .filter(|&&m| m != Move::Pass)
        .count();
    assert_eq!(samples.len(), searched);
    // The side to move alternates except across a pass.
    for s in &samples {
        let black = s.to_move == wedge_core::formats::Color::Black;
        assert_eq!(
            i32::from(s.result),
            if black { 1 } else { -1 } * i32::from(game.result)
        );
    }
    // A pass with a value, or a move without one, is refused.
    let p = game.moves.iter().rposition(|&m| m == Move::Pass).unwrap();
    assert!(p >= opening, "the test game's pass is in the opening");
    let mut with_value = game.clone();
    with_value.values[p - opening] = 0;
    assert!(matches!(with_value.check(), Err(GameProblem::Value { .. })));
    let mut unvalued = game;
    unvalued.values[0] = NO_VALUE;
    assert!(matches!(unvalued.check(), Err(GameProblem::Value { .. })));
}

fn bytes_of(dir: &Path, index: u64) -> Vec<u8> {
    std::fs::read(dir.join(BatchId { index, ..ID }.file_name())).unwrap()
}

#[test]
fn selfplay_run_resumes_and_skips_finished_batches() {
    let dir = temp_dir("resume");
    let sp = selfplay(settings());
    let plan = RunPlan {
        run_seed: ID.run_seed,
        games: 5,
        batch_size: 2,
    };
    let first = run(&dir, &sp, &plan, 2, true).unwrap();
    assert_eq!(
        (first.batches, first.skipped, first.games_played),
        (3, 0, 5)
    );
    let originals: Vec<Vec<u8>> = (0..3).map(|i| bytes_of(&dir, i)).collect();
    // The files are the batches play_batch makes.
    assert_eq!(
        originals[1],
        sp.play_batch(BatchId { index: 1, ..ID }, 2, 1)
            .unwrap()
            .to_bytes()
    );
    // A killed run's temporary file and a truncated batch.
    std::fs::write(dir.join(".batch-000001.wsp.tmp.99999"), b"partial").unwrap();
    std::fs::write(
        dir.join(BatchId { index: 1, ..ID }.file_name()),
        &originals[1][..40],
    )
    .unwrap();
    let again = run(&dir, &sp, &plan, 1, true).unwrap();
    assert_eq!(again.skipped, 2);
    assert_eq!(again.replaced, vec![dir.join("batch-000001.wsp")]);
    assert_eq!((again.games_played, again.temporaries_removed), (2, 1));
    for (i, original) in originals.iter().enumerate() {
        assert_eq!(&bytes_of(&dir, i as u64), original, "batch {i}");
    }
    // Complete: nothing to play.
    let done = run(&dir, &sp, &plan, 2, true).unwrap();
    assert_eq!((done.skipped, done.games_played), (3, 0));
    // More games: the short last batch is played again, whole.
    let more = RunPlan { games: 6, ..plan };
    let grown = run(&dir, &sp, &more, 2, true).unwrap();
    assert_eq!((grown.skipped, grown.games_played), (2, 2));
    // Another run's settings in the same directory are refused.
    let other = selfplay(Settings {
        depth: 3,
        ..settings()
    });
    let e = run(&dir, &other, &more, 2, true).unwrap_err();
    assert!(
        matches!(
            e,
            SelfplayError::ForeignBatch {
                what: "settings",
                ..
            }
        ),
        "{e}"
    );
    // Reading the directory: samples and statistics agree.
    let all: Vec<SearchedPosition> = samples(&dir).unwrap().collect::<Result<_, _>>().unwrap();
    let stats = Stats::of_dir(&dir).unwrap();
    assert_eq!(stats.games, 6);
    assert_eq!(stats.positions, all.len() as u64);
    assert_eq!(stats.exact_disagreeing, 0);
    assert!(stats.to_text().contains("6 games"));
    // An unreadable file is reported by both, not fatal.
    std::fs::write(dir.join("batch-000009.wsp"), b"junk").unwrap();
    let errors = samples(&dir).unwrap().filter(Result::is_err).count();
    assert_eq!(errors, 1);
    assert_eq!(Stats::of_dir(&dir).unwrap().bad_files.len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}
