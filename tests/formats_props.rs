//! Property tests for `wedge_core::formats`: every parser returns `Ok` or `Err` on any input (random
//! bytes, random ASCII, truncations and single-byte garbles of valid inputs) and never panics;
//! printing then parsing gives back the same value for generated legal games.

use proptest::prelude::*;
use wedge_core::board::{Move, Square};
use wedge_core::formats::*;
use wedge_core::rng::Rng;

// ---------------------------------------------------------------------------------------------
// Generators of valid values (driven by a seed, so proptest can shrink the seed).

/// A random legal game from `start`, at most `max_plies` moves, passes written.
fn random_game_from(rng: &mut Rng, start: Position, max_plies: usize) -> Game {
    let mut game = Game::new(start);
    while game.moves().len() < max_plies {
        let Some(mv) = game.position().board.random_move(rng) else {
            break;
        };
        game.play(mv).expect("generated move is legal");
    }
    game
}

/// A random game from the standard start, usually played to the end.
fn random_game(seed: u64) -> Game {
    let mut rng = Rng::new(seed);
    let max = if rng.below(4) == 0 {
        rng.below(61) as usize
    } else {
        200
    };
    random_game_from(&mut rng, Position::START, max)
}

/// A random reachable position (either side to move).
fn random_position(seed: u64) -> Position {
    let mut rng = Rng::new(seed);
    let plies = rng.below(70) as usize;
    random_game_from(&mut rng, Position::START, plies).position()
}

/// A game whose start is a random mid-game position.
fn random_game_from_midgame(seed: u64) -> Game {
    let mut rng = Rng::new(seed ^ 0x5eed);
    let start = random_position(seed);
    random_game_from(&mut rng, start, 200)
}

fn random_text(rng: &mut Rng, max_len: u64) -> String {
    const ALPHABET: &[char] = &[
        'a', 'Z', ' ', ']', '[', '\\', ';', ')', '(', 'é', '\n', '0', '/', ':', '%', '?', '日',
    ];
    let len = rng.below(max_len + 1) as usize;
    (0..len)
        .map(|_| {
            ALPHABET
                .get(rng.below(ALPHABET.len() as u64) as usize)
                .copied()
                .unwrap_or('x')
        })
        .collect()
}

fn random_obf(seed: u64) -> ObfEntry {
    let mut rng = Rng::new(seed);
    let position = random_position(seed);
    let mut moves: Vec<(Move, i32)> = Vec::new();
    for mv in position.board.moves() {
        if rng.below(3) != 0 {
            moves.push((mv, rng.below(129) as i32 - 64));
        }
    }
    let score = (moves.is_empty() || rng.below(4) == 0).then(|| rng.below(129) as i32 - 64);
    ObfEntry {
        position,
        moves,
        score,
    }
}

fn random_number(rng: &mut Rng) -> f64 {
    match rng.below(4) {
        0 => rng.below(10_000) as f64 / 100.0 - 50.0,
        1 => f64::from_bits(rng.next_u64()),
        2 => 0.0,
        _ => (rng.below(1 << 40) as f64) * 1e-3,
    }
}

fn maybe_number(rng: &mut Rng) -> Option<f64> {
    let x = random_number(rng);
    (rng.below(3) != 0 && x.is_finite()).then_some(x)
}

fn random_game_type(rng: &mut Rng) -> GameType {
    GameType {
        synchro: rng.below(2) == 0,
        komi: rng.below(2) == 0,
        anti: rng.below(2) == 0,
        random: match rng.below(3) {
            0 => None,
            1 => Some(None),
            _ => Some(Some(rng.below(64) as u32)),
        },
        preference: match rng.below(3) {
            0 => None,
            1 => Some(Color::Black),
            _ => Some(Color::White),
        },
    }
}

fn random_ggf(seed: u64) -> GgfGame {
    let mut rng = Rng::new(seed);
    let game = if rng.below(2) == 0 {
        random_game(seed)
    } else {
        random_game_from_midgame(seed)
    };
    let mut record = GgfGame::from_game(Game::new(game.start()));
    for &mv in game.moves() {
        let note = MoveNote {
            eval: maybe_number(&mut rng),
            time: maybe_number(&mut rng),
        };
        record
            .play(MoveItem { mv, note })
            .expect("replaying a legal game");
    }
    let text = |rng: &mut Rng| (rng.below(3) != 0).then(|| random_text(rng, 12));
    let info = record.info_mut();
    info.black = text(&mut rng);
    info.white = text(&mut rng);
    info.event = text(&mut rng);
    info.date = text(&mut rng);
    record.black_rating = maybe_number(&mut rng);
    record.white_rating = maybe_number(&mut rng);
    record.clock_both = text(&mut rng);
    record.clock_black = text(&mut rng);
    record.clock_white = text(&mut rng);
    record.game_type = (rng.below(2) == 0).then(|| random_game_type(&mut rng));
    record.result = (rng.below(2) == 0).then(|| GgfResult {
        black_margin: maybe_number(&mut rng),
        kind: [
            GgfResultKind::Normal,
            GgfResultKind::Resigned,
            GgfResultKind::Timeout,
            GgfResultKind::Agreed,
            GgfResultKind::Left,
        ][rng.below(5) as usize],
    });
    for _ in 0..rng.below(3) {
        let name = ["KM", "KB", "CO", "XYZ"][rng.below(4) as usize].to_string();
        record.other_tags.push(GgfTag {
            name,
            value: random_text(&mut rng, 10),
        });
    }
    record
}

fn random_wthor_record(seed: u64) -> (WthorGame, Game) {
    let mut rng = Rng::new(seed);
    let game = random_game(seed);
    let record = WthorGame {
        tournament: rng.below(500) as u16,
        black: rng.below(4000) as u16,
        white: rng.below(4000) as u16,
        black_discs: rng.below(65) as u8,
        theoretical_black_discs: rng.below(65) as u8,
        moves: encode_moves(game.moves()).expect("at most 60 squares"),
    };
    (record, game)
}

fn wthor_file(seed: u64, games: usize) -> Vec<u8> {
    let records: Vec<WthorGame> = (0..games as u64)
        .map(|i| random_wthor_record(seed.wrapping_add(i)).0)
        .collect();
    let header = WthorHeader {
        games_year: 1999,
        board_size: 8,
        ..WthorHeader::default()
    };
    write_wthor_games(&header, &records).expect("small file")
}

fn names_file(seed: u64, record_len: usize) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let count = rng.below(6) as u16;
    let header = WthorHeader {
        name_count: count,
        ..WthorHeader::default()
    };
    let mut bytes = header.to_bytes().to_vec();
    for _ in 0..count {
        let mut name = vec![0u8; record_len];
        for b in name
            .iter_mut()
            .take(rng.below(record_len as u64 + 1) as usize)
        {
            *b = 32 + rng.below(224) as u8;
        }
        bytes.extend_from_slice(&name);
    }
    bytes
}

fn without_trailing_passes(moves: &[Move]) -> &[Move] {
    let trailing = moves.iter().rev().take_while(|m| **m == Move::Pass).count();
    moves.get(..moves.len() - trailing).unwrap_or(&[])
}

/// The valid inputs of every format, as bytes, for truncation and garbling.
fn valid_inputs(seed: u64) -> Vec<Vec<u8>> {
    let game = random_game(seed);
    vec![
        format_position(&random_position(seed)).into_bytes(),
        format_obf_line(&random_obf(seed)).into_bytes(),
        format!(
            "% comment\n{}\n\n{}\n",
            format_obf_line(&random_obf(seed)),
            format_obf_line(&random_obf(seed + 1))
        )
        .into_bytes(),
        format_transcript(game.moves()).into_bytes(),
        format_ggf(&random_ggf(seed)).into_bytes(),
        format!(
            "1 {}\n2 {}{}\n",
            format_ggf(&random_ggf(seed)),
            format_ggf(&random_ggf(seed + 1)),
            format_ggf(&random_ggf(seed + 2))
        )
        .into_bytes(),
        format_move_item(&MoveItem {
            mv: Move::Pass,
            note: MoveNote {
                eval: Some(1.25),
                time: Some(3.0),
            },
        })
        .into_bytes(),
        b"05:00//02:00".to_vec(),
        wthor_file(seed, 3),
        names_file(seed, WTHOR_PLAYER_NAME_LEN),
        names_file(seed, WTHOR_TOURNAMENT_NAME_LEN),
    ]
}

// ---------------------------------------------------------------------------------------------
// Feeding every parser.

/// Runs every text parser on `text`; they may fail but must not panic.
fn exercise_text(text: &str) {
    let _ = parse_position(text);
    let _ = parse_side(text);
    let _ = parse_obf_line(text);
    let _ = parse_obf_file(text);
    let _ = parse_transcript(text);
    let _ = replay_inferring_passes(text);
    let _ = replay_transcript(Position::START, text, PassPolicy::Explicit);
    let white_first = Position::START.passed();
    let _ = replay_transcript(white_first, text, PassPolicy::Infer);
    let _ = parse_move_item(text);
    let _ = parse_move_token(text);
    let _ = parse_clock(text);
    let _ = parse_ggf(text);
    let _ = parse_ggf_games(text).count();
    let _ = TextLocation::of_offset(text, text.len() / 2);
    for line in text.lines() {
        let _ = parse_obf_line(line);
        let _ = parse_position(line);
    }
}

/// Runs every binary parser on `bytes` (and the text parsers on its lossy text).
fn exercise_bytes(bytes: &[u8]) {
    let _ = WthorHeader::from_bytes(bytes);
    if let Ok(games) = read_wthor_games(bytes) {
        for (record, replayed) in games.replay_all() {
            let _ = record.squares();
            if let Ok(game) = replayed {
                let _ = black_discs_empties_to_winner(&game.position());
            }
        }
    }
    let _ = read_player_names(bytes);
    let _ = read_tournament_names(bytes);
    // Every 68-byte window as a lone record.
    for chunk in bytes.chunks_exact(WTHOR_RECORD_LEN) {
        if let Ok(record) = <&[u8; WTHOR_RECORD_LEN]>::try_from(chunk) {
            let _ = WthorGame::from_bytes(record).replay();
        }
    }
    exercise_text(&String::from_utf8_lossy(bytes));
}

/// Bytes that make WTHOR headers plausible so the record code is reached: a game file header
/// whose count matches the length, followed by the given bytes cut to whole records.
fn as_wthor_file(body: &[u8]) -> Vec<u8> {
    let records = body.len() / WTHOR_RECORD_LEN;
    let header = WthorHeader {
        game_count: records as u32,
        board_size: 8,
        ..WthorHeader::default()
    };
    let mut bytes = header.to_bytes().to_vec();
    bytes.extend_from_slice(body.get(..records * WTHOR_RECORD_LEN).unwrap_or(&[]));
    bytes
}

const GARBAGE: &[u8] = b"\x00\xff-XO*[];()%/:\\\n 0189aAhHpP";

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        exercise_bytes(&bytes);
        exercise_bytes(&as_wthor_file(&bytes));
    }

    #[test]
    fn random_ascii_never_panics(text in "[ -~\t\n]{0,300}") {
        exercise_text(&text);
    }

    #[test]
    fn format_alphabet_soup_never_panics(text in "[-XxOo*.;:+0-9a-hA-HPpSs%/\\[\\]()BW ]{0,200}") {
        exercise_text(&text);
    }

    #[test]
    fn truncated_valid_inputs_never_panic(seed in any::<u64>(), cut in any::<u64>()) {
        for input in valid_inputs(seed) {
            let at = (cut % (input.len() as u64 + 1)) as usize;
            exercise_bytes(input.get(..at).unwrap_or(&[]));
        }
    }

    #[test]
    fn garbled_valid_inputs_never_panic(seed in any::<u64>(), at in any::<u64>(), pick in any::<u64>(), raw in any::<u8>()) {
        for mut input in valid_inputs(seed) {
            if input.is_empty() {
                continue;
            }
            let i = (at % input.len() as u64) as usize;
            let replacement = if pick % 2 == 0 {
                raw
            } else {
                GARBAGE.get((pick / 2 % GARBAGE.len() as u64) as usize).copied().unwrap_or(0)
            };
            if let Some(b) = input.get_mut(i) {
                *b = replacement;
            }
            exercise_bytes(&input);
        }
    }

}

// ---------------------------------------------------------------------------------------------
// Round trips.

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn board_strings_round_trip(seed in any::<u64>()) {
        let p = random_position(seed);
        prop_assert_eq!(parse_position(&format_position(&p)).unwrap(), p);
    }

    #[test]
    fn obf_lines_round_trip(seed in any::<u64>()) {
        let e = random_obf(seed);
        let line = format_obf_line(&e);
        prop_assert_eq!(parse_obf_line(&line).unwrap(), e.clone());
        let file = format!("{line}\n% c\n\n{line}\n");
        prop_assert_eq!(parse_obf_file(&file).unwrap(), vec![e.clone(), e]);
    }

    #[test]
    fn transcripts_round_trip(seed in any::<u64>()) {
        let game = random_game_from_midgame(seed);
        let text = format_transcript(game.moves());
        prop_assert_eq!(parse_transcript(&text).unwrap(), game.moves().to_vec());
        let explicit = replay_transcript(game.start(), &text, PassPolicy::Explicit).unwrap();
        prop_assert_eq!(&explicit, &game);
        // Passes left out are inferred again, except trailing ones (no square follows them).
        let without_passes = text.replace("PA", "");
        let inferred = replay_transcript(game.start(), &without_passes, PassPolicy::Infer).unwrap();
        prop_assert_eq!(inferred.moves(), without_trailing_passes(game.moves()));
    }

    #[test]
    fn ggf_games_round_trip(seed in any::<u64>()) {
        let g = random_ggf(seed);
        let text = format_ggf(&g);
        let back = parse_ggf(&text);
        prop_assert!(back.is_ok(), "{:?}\n{}", back, text);
        prop_assert_eq!(back.unwrap(), g.clone());
        let stream = format!("1 {text}\n{text}");
        let all: Vec<_> = parse_ggf_games(&stream).collect();
        prop_assert_eq!(all.len(), 2);
        for one in all {
            prop_assert_eq!(one.unwrap(), g.clone());
        }
    }

    #[test]
    fn move_items_round_trip(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let mv = if rng.below(8) == 0 { Move::Pass } else { Move::Play(Square::from_index(rng.below(64) as u32)) };
        let item = MoveItem { mv, note: MoveNote { eval: maybe_number(&mut rng), time: maybe_number(&mut rng) } };
        prop_assert_eq!(parse_move_item(&format_move_item(&item)).unwrap(), item);
    }

    #[test]
    fn clocks_round_trip(main in 0u64..1_000_000_000_000, inc in 0u64..10_000_000, ext in proptest::option::of(0u64..100_000_000)) {
        let c = Clock { main_ms: main, increment_ms: inc, extension_ms: ext };
        prop_assert_eq!(parse_clock(&format_clock(&c)).unwrap(), c);
    }

    #[test]
    fn wthor_files_round_trip(seed in any::<u64>(), count in 0usize..6) {
        let pairs: Vec<(WthorGame, Game)> =
            (0..count as u64).map(|i| random_wthor_record(seed.wrapping_add(i))).collect();
        let records: Vec<WthorGame> = pairs.iter().map(|(r, _)| *r).collect();
        let header = WthorHeader { games_year: 2001, board_size: 8, ..WthorHeader::default() };
        let bytes = write_wthor_games(&header, &records).unwrap();
        let file = read_wthor_games(&bytes).unwrap();
        prop_assert_eq!(file.header.game_count as usize, count);
        prop_assert_eq!(file.games().collect::<Vec<_>>(), records);
        for ((_, replayed), (_, game)) in file.replay_all().zip(&pairs) {
            let replayed = replayed.unwrap();
            // WTHOR drops passes; a trailing pass (game stopped right after one) is not
            // recoverable, every other pass is inferred again.
            prop_assert_eq!(replayed.moves(), without_trailing_passes(game.moves()));
        }
    }
}
