//! Snapshot tests of whole protocol sessions: every script under `protocol-tests/{nboard,gtp,
//! console}/` is run in-process through the real driver and engine worker (heuristic
//! evaluation, one thread, fixed depths, times reported as 0) and its transcript compared with
//! `protocol-tests/snapshots/`. Update with `INSTA_UPDATE=always cargo test --test
//! protocol_sessions` and review the diff. `$TMP` in a script stands for a fresh temporary
//! directory, removed afterwards (the transcript shows `$TMP`).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use wedge_core::book::Verify;
use wedge_core::eval::Heuristic;
use wedge_core::search::Searcher;
use wedge_engine::protocol::console::Console;
use wedge_engine::protocol::gtp::Gtp;
use wedge_engine::protocol::nboard::Nboard;
use wedge_engine::protocol::run_script;
use wedge_engine::{BookSetting, Engine, EngineOptions};

/// The session's engine; its user's book (for `learn`) is `$TMP/learned.book`.
fn engine(tmp: &Path) -> impl FnOnce(wedge_engine::EventSink) -> Engine {
    let user_book = BookSetting {
        path: tmp.join("learned.book"),
        verify: Verify::Full,
    };
    move |sink| {
        let searcher = Searcher::new(Arc::new(Heuristic), 4, 1);
        Engine::new(
            searcher,
            EngineOptions {
                zero_times: true,
                user_book: Some(user_book),
                ..Default::default()
            },
            sink,
        )
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests")
}

fn scripts(protocol: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join(protocol))
        .expect("protocol-tests directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    v.sort();
    v
}

/// A temporary directory for one script's files, removed when dropped (also on a failure).
struct TempDir(PathBuf);

impl TempDir {
    fn new(protocol: &str, script: &Path) -> TempDir {
        let stem = script.file_stem().unwrap().to_string_lossy();
        let dir = std::env::temp_dir().join(format!(
            "wedge-session-{protocol}-{stem}-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).expect("temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `bytes` with every `from` replaced by `to` (scripts may hold bytes that are not UTF-8).
fn replace_bytes(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

/// Runs the script `protocol-tests/{protocol}/{stem}.txt` and compares its transcript with
/// its snapshot.
fn check(protocol: &str, stem: &str) {
    let file = root().join(protocol).join(format!("{stem}.txt"));
    let tmp = TempDir::new(protocol, &file);
    let tmp_text = tmp.0.to_string_lossy().into_owned();
    let script = replace_bytes(
        &std::fs::read(&file).expect("script"),
        b"$TMP",
        tmp_text.as_bytes(),
    );
    let script = &script[..];
    let transcript = match protocol {
        "nboard" => run_script(Nboard::new(), engine(&tmp.0), script),
        "gtp" => run_script(Gtp::new(4), engine(&tmp.0), script),
        _ => run_script(Console::new(4), engine(&tmp.0), script),
    }
    .replace(&tmp_text, "$TMP");
    insta::with_settings!({
        snapshot_path => root().join("snapshots"),
        prepend_module_to_snapshot => false,
        omit_expression => true,
        description => format!("protocol-tests/{protocol}/{stem}.txt"),
    }, {
        insta::assert_snapshot!(format!("{protocol}__{stem}"), transcript);
    });
}

/// One test per script (a failing script does not hide the others), in a module per
/// protocol, and a test that the list names every script in the directory.
macro_rules! scripts {
    ($protocol:ident: $($test:ident => $stem:literal,)*) => {
        mod $protocol {
            $(
                #[test]
                fn $test() {
                    super::check(stringify!($protocol), $stem);
                }
            )*

            #[test]
            fn every_script_has_its_test() {
                let listed: Vec<String> = vec![$($stem.to_string()),*];
                let found: Vec<String> = super::scripts(stringify!($protocol))
                    .iter()
                    .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
                    .collect();
                assert_eq!(listed, found, "add the new script to tests/protocol_sessions.rs");
            }
        }
    };
}

scripts! {
    nboard:
    s01_handshake => "01_handshake",
    s02_hint_1 => "02_hint_1",
    s03_hint_4 => "03_hint_4",
    s04_hint_64 => "04_hint_64",
    s05_go => "05_go",
    s06_move_forms => "06_move_forms",
    s07_trailing_pass_in_set_game => "07_trailing_pass_in_set_game",
    s08_engine_must_pass => "08_engine_must_pass",
    s09_game_over => "09_game_over",
    s10_ping_interrupts_hint => "10_ping_interrupts_hint",
    s11_ping_interrupts_go => "11_ping_interrupts_go",
    s12_illegal_moves => "12_illegal_moves",
    s13_malformed => "13_malformed",
    s14_unknown_commands => "14_unknown_commands",
    s15_analyze => "15_analyze",
    s16_learn => "16_learn",
    s17_clock_from_game_record => "17_clock_from_game_record",
    s18_contempt_and_clear => "18_contempt_and_clear",
    s19_endgame_solve => "19_endgame_solve",
    s20_quit_stops_reading => "20_quit_stops_reading",
    s21_end_of_input_during_search => "21_end_of_input_during_search",
    s22_set_game_variants => "22_set_game_variants",
    s23_ping_pong_ordering => "23_ping_pong_ordering",
    s24_garbage_and_overlong => "24_garbage_and_overlong",
    s25_whole_game => "25_whole_game",
    s26_level_under_clock => "26_level_under_clock",
    s27_nul_line => "27_nul_line",
}

scripts! {
    gtp:
    s01_handshake => "01_handshake",
    s02_quarry_session => "02_quarry_session",
    s03_ids_and_errors => "03_ids_and_errors",
    s04_boardsize => "04_boardsize",
    s05_explicit_pass => "05_explicit_pass",
    s06_implicit_pass => "06_implicit_pass",
    s07_genmove_must_pass => "07_genmove_must_pass",
    s08_undo => "08_undo",
    s09_showboard_final_score => "09_showboard_final_score",
    s10_gogui_rules => "10_gogui_rules",
    s11_time_settings => "11_time_settings",
    s12_analyze_depth => "12_analyze_depth",
    s13_analyze_interrupted => "13_analyze_interrupted",
    s14_genmove_wrong_color => "14_genmove_wrong_color",
    s15_malformed => "15_malformed",
    s16_reg_genmove => "16_reg_genmove",
    s17_quit_stops_reading => "17_quit_stops_reading",
    s18_end_of_input_stops_genmove => "18_end_of_input_stops_genmove",
    s19_interrupt_genmove => "19_interrupt_genmove",
    s20_game_over_replay => "20_game_over_replay",
    s21_whole_game => "21_whole_game",
    s22_garbage_and_overlong => "22_garbage_and_overlong",
    s23_quit_stops_genmove => "23_quit_stops_genmove",
    s24_nul_line => "24_nul_line",
    s25_kgs_time_settings => "25_kgs_time_settings",
}

scripts! {
    console:
    s01_help => "01_help",
    s02_moves => "02_moves",
    s03_think_and_play => "03_think_and_play",
    s04_tree => "04_tree",
    s05_eval_count_printhex => "05_eval_count_printhex",
    s06_board_setup => "06_board_setup",
    s07_transforms => "07_transforms",
    s08_save_load => "08_save_load",
    s09_pass_and_game_end => "09_pass_and_game_end",
    s10_malformed => "10_malformed",
    s11_stop_interrupts_think => "11_stop_interrupts_think",
    s12_quit => "12_quit",
    s13_whole_game => "13_whole_game",
    s14_quit_stops_think => "14_quit_stops_think",
    s15_end_of_input_stops_think => "15_end_of_input_stops_think",
    s16_nul_line => "16_nul_line",
}
