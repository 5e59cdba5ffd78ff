//! Property tests: random lines thrown at each protocol's parser and at whole sessions never
//! panic or hang, and a line that does not parse leaves the session state unchanged.

use proptest::prelude::*;
use std::sync::Arc;
use wedge_core::eval::Heuristic;
use wedge_core::search::Searcher;
use wedge_engine::protocol::console::{parse_console_line, Console};
use wedge_engine::protocol::gtp::{parse_gtp_line, Gtp};
use wedge_engine::protocol::nboard::{parse_nboard_line, Nboard, NboardParseError};
use wedge_engine::protocol::run_script;
use wedge_engine::protocol::Output;
use wedge_engine::protocol::{Driver, Input};
use wedge_engine::{Engine, EngineOptions, EventSink};

fn engine(sink: EventSink) -> Engine {
    Engine::new(
        Searcher::new(Arc::new(Heuristic), 1, 1),
        EngineOptions {
            zero_times: true,
            ..Default::default()
        },
        sink,
    )
}

/// Words the protocols know, arguments and junk, so random lines often come close to valid.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "nboard",
            "set",
            "depth",
            "game",
            "contempt",
            "move",
            "hint",
            "go",
            "ping",
            "learn",
            "analyze",
            "quit",
            "clear",
            "play",
            "genmove",
            "reg_genmove",
            "undo",
            "boardsize",
            "komi",
            "showboard",
            "final_score",
            "time_settings",
            "time_left",
            "list_games",
            "set_game",
            "gogui-rules_board",
            "gogui-rules_legal_moves",
            "wedge-analyze",
            "wedge-depth",
            "known_command",
            "print",
            "printhex",
            "board",
            "tree",
            "eval",
            "think",
            "count",
            "reset",
            "flipv",
            "rotatel",
            "cswap",
            "col",
            "black",
            "white",
            "b",
            "w",
            "X",
            "O",
            "f5",
            "F5",
            "d3",
            "a1",
            "z9",
            "PA",
            "pass",
            "0",
            "1",
            "2",
            "-1",
            "x",
            "#",
            "(;GM[Othello]",
            "BO[8",
            "];)",
            "F5/0.5/1",
            "//",
            "\t",
            "€",
            "\u{0}",
        ])
        .prop_map(str::to_string),
        "[ -~]{0,12}",
        any::<String>().prop_map(|s| s.chars().take(12).collect()),
    ]
}

fn line() -> impl Strategy<Value = String> {
    prop::collection::vec(word(), 0..6).prop_map(|w| w.join(" "))
}

/// Lines with no search deeper than 2 plies (the session tests must stay fast).
fn shallow(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    let endless_analysis = l.contains("wedge-analyze") && !l.contains("depth");
    !endless_analysis && !l.contains("tree") && !l.contains("think")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic(text in line(), raw in any::<String>()) {
        for l in [&text, &raw] {
            let _ = parse_nboard_line(l);
            let _ = parse_gtp_line(l);
            let _ = parse_console_line(l);
        }
    }

    #[test]
    fn bad_lines_change_nothing(lines in prop::collection::vec(line(), 1..12)) {
        let (out, _) = Output::buffer();
        let mut nb = Driver::new(Nboard::new(), engine(Box::new(|_| {})), out);
        let (out, _) = Output::buffer();
        let mut gtp = Driver::new(Gtp::new(2), engine(Box::new(|_| {})), out);
        let (out, _) = Output::buffer();
        let mut con = Driver::new(Console::new(2), engine(Box::new(|_| {})), out);
        for l in &lines {
            if matches!(parse_nboard_line(l), Err(NboardParseError::Malformed { .. } | NboardParseError::Unknown(_))) {
                let before = nb.protocol().record().clone();
                nb.push(Input::Line(l.clone()));
                nb.pump();
                prop_assert_eq!(&before, nb.protocol().record());
                prop_assert!(!nb.is_busy());
            }
            if parse_gtp_line(l).is_some_and(|p| p.command.is_err()) {
                let before = gtp.protocol().game().clone();
                gtp.push(Input::Line(l.clone()));
                gtp.pump();
                prop_assert_eq!(&before, gtp.protocol().game());
                prop_assert!(!gtp.is_busy());
            }
            if parse_console_line(l).is_err() {
                let before = con.protocol().game().clone();
                con.push(Input::Line(l.clone()));
                con.pump();
                prop_assert_eq!(&before, con.protocol().game());
                prop_assert!(!con.is_busy());
            }
        }
    }

    #[test]
    fn random_sessions_end_cleanly(lines in prop::collection::vec(line(), 1..10)) {
        let lines: Vec<String> = lines.into_iter().filter(|l| shallow(l)).collect();
        let mut nb = b"nboard 2\nset depth 2\n".to_vec();
        let mut gtp = b"wedge-depth 2\n".to_vec();
        let mut con = b"depth 2\n".to_vec();
        for l in &lines {
            // `set depth N` and `depth N` with a large N would make the test slow.
            let safe = l.replace("depth", "d");
            for (buf, text) in [(&mut nb, &safe), (&mut gtp, &safe), (&mut con, &safe)] {
                buf.extend_from_slice(text.as_bytes());
                buf.push(b'\n');
            }
        }
        let t = run_script(Nboard::new(), engine, &nb);
        prop_assert!(!t.contains("still running"));
        let t = run_script(Gtp::new(2), engine, &gtp);
        prop_assert!(!t.contains("still running"));
        let t = run_script(Console::new(2), engine, &con);
        prop_assert!(!t.contains("still running"));
    }
}
